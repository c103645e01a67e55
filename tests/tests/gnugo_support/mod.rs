//! Shared by the GNU Go tests: the 32 reference positions (from the SGF games, checked against
//! the oracle's `boards.txt`), GNU Go's own matches (the oracle `.tsv` files) and the databases.
//! All of it is GPL data read from `../shared/data/gnugo/` (never copied into the repository).
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use lens_compiler::import::gnugo::DbPattern;
use lens_vm::board::coords::format_vertex;
use lens_vm::board::{Board, Colour, Point};
use lens_vm::geometry::Orientation;
use sgf_parse::go::{Move, Prop};

/// `../shared/data/gnugo`, or `None` (after printing the skip note) when it is absent.
pub fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/gnugo");
    if dir.join("oracle/README.md").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/data absent");
        None
    }
}

/// The oracle's databases: (db name, `.db` files, GNU Go's calling convention).
pub const DATABASES: &[(&str, &[&str], &str)] = &[
    ("pat_db", &["patterns.db", "patterns2.db"], "plain"),
    ("conn", &["conn.db"], "ANCHOR_COLOR"),
    ("endpat", &["endgame.db"], "plain"),
    ("barrierspat", &["barriers.db"], "plain"),
    ("attpat", &["attack.db"], "ANCHOR_OTHER"),
    ("defpat", &["defense.db"], "ANCHOR_COLOR"),
    ("handipat", &["handicap.db"], "plain"),
    ("fusekipat", &["fuseki.db"], "plain"),
    ("influencepat", &["influence.db"], "ANCHOR_COLOR"),
];

/// One match as the oracle lists it: (pos, colour `B`/`W`, pattern, GNU Go transformation `ll`,
/// anchor vertex, move vertex or `-`).
pub type Key = (String, char, String, u8, String, String);

/// Lens orientation index -> GNU Go transformation `ll` (inverse of `GNUGO_TO_LENS`).
pub fn gnugo_ll(lens_orientation: u8) -> u8 {
    lens_compiler::import::gnugo::GNUGO_TO_LENS
        .iter()
        .position(|&o| o == lens_orientation)
        .unwrap() as u8
}

pub fn vertex(x: i32, y: i32) -> String {
    format_vertex(x, y, 19).map_or_else(|| format!("off({x},{y})"), |n| n.to_string())
}

pub fn colour_char(c: Colour) -> char {
    match c {
        Colour::Black => 'B',
        Colour::White => 'W',
    }
}

/// The 32 positions, loaded from the SGF games as GNU Go's `loadsgf FILE N` does (N-1 moves),
/// each checked against `boards.txt`.
pub fn positions(dir: &std::path::Path) -> Vec<(String, Board)> {
    let list = std::fs::read_to_string(dir.join("games/positions.txt")).unwrap();
    let boards = std::fs::read_to_string(dir.join("oracle/boards.txt")).unwrap();
    let mut out = Vec::new();
    for id in list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (file, n) = id.rsplit_once(':').unwrap();
        let n: usize = n.parse().unwrap();
        let text = std::fs::read_to_string(dir.join("games").join(file)).unwrap();
        let roots = sgf_parse::go::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut board = Board::new(19).unwrap();
        let mut played = 0;
        for node in roots[0].main_variation() {
            if played + 1 == n {
                break;
            }
            for p in node.properties() {
                let (colour, mv) = match p {
                    Prop::B(m) => (Colour::Black, m),
                    Prop::W(m) => (Colour::White, m),
                    _ => continue,
                };
                match mv {
                    Move::Move(pt) if pt.x < 19 && pt.y < 19 => board
                        .play(colour, pt.x as i32, pt.y as i32)
                        .unwrap_or_else(|e| panic!("{id}: {e:?}")),
                    _ => board.pass(colour).unwrap(),
                }
                played += 1;
            }
        }
        assert_eq!(played + 1, n, "{id}: the game is shorter than N-1 moves");
        // Cross-check with the oracle's own dump of the position.
        let row = boards
            .lines()
            .find(|l| l.split('\t').next() == Some(id))
            .unwrap_or_else(|| panic!("{id} not in boards.txt"));
        let rows: Vec<&str> = row.split('\t').skip(2).collect();
        assert_eq!(rows.len(), 19);
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                let want = match ch {
                    'X' => Point::Stone(Colour::Black),
                    'O' => Point::Stone(Colour::White),
                    _ => Point::Empty,
                };
                assert_eq!(
                    board.get(x as i32, y as i32),
                    want,
                    "{id} at {}",
                    vertex(x as i32, y as i32)
                );
            }
        }
        out.push((id.to_string(), board));
    }
    assert_eq!(out.len(), 32);
    out
}

/// Allowed states (bit 0 friend, 1 foe, 2 empty, 3 off) of a GNU Go symbol.
pub fn states(sym: char) -> u8 {
    match sym {
        'O' | 'Q' => 1,
        'X' | 'Y' => 2,
        'o' => 1 | 4,
        'x' => 2 | 4,
        '?' => 7,
        _ => 4,
    }
}

/// Cells `(dx, dy, states)` about an anchor, and the move's offset.
pub type Placement = (Vec<(i32, i32, u8)>, Option<(i32, i32)>);

/// A pattern's cells relative to its anchor (Lens (dx, dy) = (column, row) offsets), edges
/// included as off-board cells, and the move offset.
pub fn cells(p: &DbPattern, ar: usize, ac: usize) -> Placement {
    let d = &p.diagram;
    let (w, h) = (d.width() as i32, d.height() as i32);
    let mut v = Vec::new();
    let top = if d.edges.north { -1 } else { 0 };
    let bottom = if d.edges.south { h } else { h - 1 };
    let left = if d.edges.west { -1 } else { 0 };
    let right = if d.edges.east { w } else { w - 1 };
    for r in top..=bottom {
        for c in left..=right {
            let s = if r < 0 || r >= h || c < 0 || c >= w {
                8
            } else {
                states(d.cell(r as usize, c as usize))
            };
            v.push((c - ac as i32, r - ar as i32, s));
        }
    }
    let mv = p
        .move_cell()
        .map(|(r, c)| (c as i32 - ac as i32, r as i32 - ar as i32));
    (v, mv)
}

/// The placement a pattern covers around its anchor under GNU Go's transformation `ll`: its
/// cells (sorted) and its move. Two transformations with equal placements report the same
/// (pattern, anchor, move) with identical cells: true duplicates.
pub fn placement(p: &DbPattern, anchor: (usize, usize), ll: u8) -> Placement {
    let o = Orientation::new(lens_compiler::import::gnugo::GNUGO_TO_LENS[ll as usize]).unwrap();
    let (cs, mv) = cells(p, anchor.0, anchor.1);
    let mut cs: Vec<(i32, i32, u8)> = cs
        .into_iter()
        .map(|(dx, dy, s)| {
            let (x, y) = o.apply(dx, dy);
            (x, y, s)
        })
        .collect();
    cs.sort_unstable();
    (cs, mv.map(|(dx, dy)| o.apply(dx, dy)))
}

/// GNU Go's matches for one database.
pub fn oracle(dir: &std::path::Path, db: &str) -> BTreeSet<Key> {
    let text = std::fs::read_to_string(dir.join(format!("oracle/{db}.tsv"))).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "{l}");
            assert_eq!(f[2], db);
            (
                f[0].to_string(),
                f[1].chars().next().unwrap(),
                f[3].to_string(),
                f[4].parse().unwrap(),
                f[5].to_string(),
                f[6].to_string(),
            )
        })
        .collect()
}

/// Describe the differences between two match sets (at most a few lines of each side).
pub fn diff(db: &str, want: &BTreeSet<Key>, got: &BTreeSet<Key>) -> Option<String> {
    if want == got {
        return None;
    }
    let missing: Vec<&Key> = want.difference(got).collect();
    let extra: Vec<&Key> = got.difference(want).collect();
    let mut s = format!(
        "{db}: {} missing (GNU Go has them), {} extra\n",
        missing.len(),
        extra.len()
    );
    for k in missing.iter().take(8) {
        s.push_str(&format!("  missing {k:?}\n"));
    }
    for k in extra.iter().take(8) {
        s.push_str(&format!("  extra   {k:?}\n"));
    }
    Some(s)
}
