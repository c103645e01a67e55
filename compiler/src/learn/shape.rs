//! Local shapes around a candidate move, as harvested: the 3x3 neighbourhood with the atari
//! bits of the four orthogonal neighbours (Pachi's and MoGo's 3x3), and the diamonds of
//! Manhattan radius 2 and 3 around the point (Coulom's and Pachi's larger spatial patterns).
//!
//! A shape's key packs two bits per cell (0 friend, 1 foe, 2 empty, 3 off-board, seen from the
//! side to move) in the size's fixed cell order, then the atari bits; the canonical key is the
//! smallest over the 8 orientations, so a shape and its rotations and mirrors are one pattern.
//! [`render`] writes a canonical key as an ordinary `.lens` diagram that matches exactly the
//! positions with that key.

use lens_vm::board::{Board, BoardView, Colour, Point};
use lens_vm::geometry::Orientation;

/// The shape sizes, smallest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// The 8 neighbours and the atari bits of the orthogonal ones.
    Square3,
    /// Manhattan distance <= 2 (12 cells).
    Diamond2,
    /// Manhattan distance <= 3 (24 cells).
    Diamond3,
}

impl Size {
    pub const ALL: [Size; 3] = [Size::Square3, Size::Diamond2, Size::Diamond3];

    /// Name prefix and `group` attribute of its patterns.
    pub fn group(self) -> &'static str {
        match self {
            Size::Square3 => "shape3x3",
            Size::Diamond2 => "diamond2",
            Size::Diamond3 => "diamond3",
        }
    }

    pub fn from_group(g: &str) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.group() == g)
    }

    /// The cell offsets in key order (focus excluded), orthogonal neighbours first.
    pub fn cells(self) -> Vec<(i32, i32)> {
        let r: i32 = match self {
            Size::Square3 => 1,
            Size::Diamond2 => 2,
            Size::Diamond3 => 3,
        };
        let mut v: Vec<(i32, i32)> = lens_vm::geometry::DIRECTIONS.to_vec();
        for dy in -r..=r {
            for dx in -r..=r {
                let inside = match self {
                    Size::Square3 => true,
                    _ => dx.abs() + dy.abs() <= r,
                };
                if inside && (dx, dy) != (0, 0) && !v.contains(&(dx, dy)) {
                    v.push((dx, dy));
                }
            }
        }
        v
    }

    fn has_atari(self) -> bool {
        self == Size::Square3
    }
}

/// Cell state codes in keys.
pub const FRIEND: u8 = 0;
pub const FOE: u8 = 1;
pub const EMPTY: u8 = 2;
pub const OFF: u8 = 3;

/// Precomputed cell lists of every size in every orientation.
pub struct Shapes {
    /// `cells[size][orientation]`: offsets in key order.
    cells: Vec<Vec<Vec<(i32, i32)>>>,
}

impl Default for Shapes {
    fn default() -> Self {
        Shapes::new()
    }
}

impl Shapes {
    pub fn new() -> Shapes {
        let cells = Size::ALL
            .iter()
            .map(|s| {
                let base = s.cells();
                Orientation::ALL
                    .iter()
                    .map(|t| base.iter().map(|&(dx, dy)| t.apply(dx, dy)).collect())
                    .collect()
            })
            .collect();
        Shapes { cells }
    }

    /// The key of the shape at `(x, y)` for `colour` to move, read in orientation `t`.
    pub fn key(&self, board: &Board, colour: Colour, x: i32, y: i32, size: Size, t: usize) -> u128 {
        let cells = &self.cells[size as usize][t];
        let mut key = 0u128;
        for (i, &(dx, dy)) in cells.iter().enumerate() {
            key |= (state(board, colour, x + dx, y + dy) as u128) << (2 * i);
        }
        if size.has_atari() {
            for (i, &(dx, dy)) in cells[..4].iter().enumerate() {
                if matches!(board.get(x + dx, y + dy), Point::Stone(_))
                    && board.liberties(x + dx, y + dy) == 1
                {
                    key |= 1u128 << (2 * cells.len() + i);
                }
            }
        }
        key
    }

    /// The canonical key: the smallest over the 8 orientations.
    pub fn canonical(&self, board: &Board, colour: Colour, x: i32, y: i32, size: Size) -> u128 {
        (0..8)
            .map(|t| self.key(board, colour, x, y, size, t))
            .min()
            .unwrap_or(0)
    }
}

fn state(board: &Board, colour: Colour, x: i32, y: i32) -> u8 {
    match board.get(x, y) {
        Point::Stone(c) if c == colour => FRIEND,
        Point::Stone(_) => FOE,
        Point::Empty => EMPTY,
        Point::Off => OFF,
    }
}

/// The keys of one shape read in all 8 orientations (a canonical key and its images), for
/// looking a shape up by its key in orientation 0.
pub fn orientations_of(size: Size, key: u128) -> Vec<u128> {
    let base = size.cells();
    let decoded = decode(size, key);
    let mut out: Vec<u128> = Orientation::ALL
        .iter()
        .map(|t| {
            // The board cell at t(c_i) holds decoded state of c_i; reading the board in
            // orientation 0 visits c_j, which holds the state of t^-1(c_j).
            let inv = t.inverse();
            let mut k = 0u128;
            for (j, &(dx, dy)) in base.iter().enumerate() {
                let src = inv.apply(dx, dy);
                let i = base.iter().position(|&c| c == src).unwrap_or(j);
                k |= (decoded.states[i] as u128) << (2 * j);
                if size.has_atari() && j < 4 && decoded.atari[i] {
                    k |= 1u128 << (2 * base.len() + j);
                }
            }
            k
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

struct Decoded {
    states: Vec<u8>,
    atari: Vec<bool>,
}

fn decode(size: Size, key: u128) -> Decoded {
    let n = size.cells().len();
    let states = (0..n).map(|i| ((key >> (2 * i)) & 3) as u8).collect();
    let atari = (0..n)
        .map(|i| size.has_atari() && i < 4 && (key >> (2 * n + i)) & 1 == 1)
        .collect();
    Decoded { states, atari }
}

/// The pattern name of a shape: its group and its key in hexadecimal (stable across harvests).
pub fn name(size: Size, key: u128) -> String {
    format!("{}_{key:x}", size.group())
}

/// The diagram, legend and `where` clause of a shape as `.lens` source lines (indented by 4
/// inside a pattern). On-board cells outside the size's cells are `?`; the board edge is drawn
/// as an edge row or column next to the nearest on-board cells.
pub fn render(size: Size, key: u128) -> String {
    let cells = size.cells();
    let d = decode(size, key);
    let state_at = |p: (i32, i32)| -> Option<u8> {
        if p == (0, 0) {
            return Some(EMPTY);
        }
        cells.iter().position(|&c| c == p).map(|i| d.states[i])
    };
    let on: Vec<(i32, i32)> = std::iter::once((0, 0))
        .chain(
            cells
                .iter()
                .enumerate()
                .filter(|&(i, _)| d.states[i] != OFF)
                .map(|(_, &c)| c),
        )
        .collect();
    let (x0, x1) = (
        on.iter().map(|c| c.0).min().unwrap_or(0),
        on.iter().map(|c| c.0).max().unwrap_or(0),
    );
    let (y0, y1) = (
        on.iter().map(|c| c.1).min().unwrap_or(0),
        on.iter().map(|c| c.1).max().unwrap_or(0),
    );
    let offs: Vec<(i32, i32)> = cells
        .iter()
        .enumerate()
        .filter(|&(i, _)| d.states[i] == OFF)
        .map(|(_, &c)| c)
        .collect();
    let north = offs.iter().any(|c| c.1 < y0);
    let south = offs.iter().any(|c| c.1 > y1);
    let west = offs.iter().any(|c| c.0 < x0);
    let east = offs.iter().any(|c| c.0 > x1);
    let mut legend = Vec::new();
    let mut tests = Vec::new();
    let labels = ['a', 'b', 'c', 'd'];
    let mut rows = Vec::new();
    let edge_row = |rows: &mut Vec<String>| {
        let mut r = Vec::new();
        if west {
            r.push("+".to_string());
        }
        r.extend((x0..=x1).map(|_| "-".to_string()));
        if east {
            r.push("+".to_string());
        }
        rows.push(r.join(" "));
    };
    if north {
        edge_row(&mut rows);
    }
    for y in y0..=y1 {
        let mut r = Vec::new();
        if west {
            r.push("|".to_string());
        }
        for x in x0..=x1 {
            let cell = if (x, y) == (0, 0) {
                "*".to_string()
            } else {
                let i = cells.iter().position(|&c| c == (x, y));
                match (i, state_at((x, y))) {
                    (Some(i), Some(s)) if i < 4 && size.has_atari() && s <= FOE => {
                        let l = labels[i];
                        legend.push(format!(
                            "{l} = {};",
                            if s == FRIEND { "friend" } else { "foe" }
                        ));
                        tests.push(format!("{}atari({l})", if d.atari[i] { "" } else { "!" }));
                        l.to_string()
                    }
                    (_, Some(FRIEND)) => "O".into(),
                    (_, Some(FOE)) => "X".into(),
                    (_, Some(EMPTY)) => ".".into(),
                    _ => "?".into(),
                }
            };
            r.push(cell);
        }
        if east {
            r.push("|".to_string());
        }
        rows.push(r.join(" "));
    }
    if south {
        edge_row(&mut rows);
    }
    let mut s = String::from("    diagram {\n");
    for r in rows {
        s.push_str("        ");
        s.push_str(&r);
        s.push('\n');
    }
    s.push_str("    }\n");
    if !legend.is_empty() {
        s.push_str(&format!("    legend {{ {} }}\n", legend.join(" ")));
        s.push_str(&format!("    where {};\n", tests.join(" && ")));
    }
    s
}
