//! Test helpers: a tiny board (until the reference board is used everywhere), a seeded PRNG,
//! and random positions and RomSpecs for differential and property tests.
#![allow(dead_code)]

use lens_vm::spec::*;
use lens_vm::{BoardView, Colour, Point};

/// xorshift64*: deterministic, seedable, no dependency.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// A plain array board; liberties by flood fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestBoard {
    pub size: u8,
    pub cells: Vec<Point>,
}

impl TestBoard {
    pub fn empty(size: u8) -> Self {
        TestBoard {
            size,
            cells: vec![Point::Empty; size as usize * size as usize],
        }
    }
    /// Rows of `X` (black), `O` (white), `.`; whitespace ignored.
    pub fn parse(text: &str) -> Self {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len() as u8;
        let mut b = TestBoard::empty(size);
        for (y, r) in rows.iter().enumerate() {
            assert_eq!(r.len(), size as usize, "ragged test board");
            for (x, c) in r.iter().enumerate() {
                b.set(
                    x as i32,
                    y as i32,
                    match c {
                        'X' => Point::Stone(Colour::Black),
                        'O' => Point::Stone(Colour::White),
                        _ => Point::Empty,
                    },
                );
            }
        }
        b
    }
    pub fn set(&mut self, x: i32, y: i32, p: Point) {
        let s = self.size as i32;
        self.cells[(y * s + x) as usize] = p;
    }
    pub fn random(rng: &mut Rng, size: u8, density: f64) -> Self {
        let mut b = TestBoard::empty(size);
        for c in b.cells.iter_mut() {
            if rng.chance(density) {
                *c = Point::Stone(if rng.below(2) == 0 {
                    Colour::Black
                } else {
                    Colour::White
                });
            }
        }
        b
    }
    /// Apply an orientation to the whole board (around its centre).
    pub fn transformed(&self, t: lens_vm::geometry::Orientation) -> Self {
        let s = self.size as i32;
        let c = (s - 1) / 2;
        let mut b = TestBoard::empty(self.size);
        for y in 0..s {
            for x in 0..s {
                let (nx, ny) = t.apply(x - c, y - c);
                b.set(nx + c, ny + c, self.point(x, y));
            }
        }
        b
    }
    pub fn swapped(&self) -> Self {
        let mut b = self.clone();
        for p in b.cells.iter_mut() {
            if let Point::Stone(c) = p {
                *c = c.opponent();
            }
        }
        b
    }
}

impl BoardView for TestBoard {
    fn size(&self) -> u8 {
        self.size
    }
    fn point(&self, x: i32, y: i32) -> Point {
        let s = self.size as i32;
        if x < 0 || y < 0 || x >= s || y >= s {
            Point::Off
        } else {
            self.cells[(y * s + x) as usize]
        }
    }
    fn liberties(&self, x: i32, y: i32) -> u16 {
        let Point::Stone(c) = self.point(x, y) else {
            return 0;
        };
        let s = self.size as i32;
        let mut seen = vec![false; (s * s) as usize];
        let mut libs = vec![false; (s * s) as usize];
        let mut stack = vec![(x, y)];
        seen[(y * s + x) as usize] = true;
        while let Some((px, py)) = stack.pop() {
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                let (qx, qy) = (px + dx, py + dy);
                match self.point(qx, qy) {
                    Point::Empty => libs[(qy * s + qx) as usize] = true,
                    Point::Stone(k) if k == c && !seen[(qy * s + qx) as usize] => {
                        seen[(qy * s + qx) as usize] = true;
                        stack.push((qx, qy));
                    }
                    _ => {}
                }
            }
        }
        libs.iter().filter(|&&l| l).count() as u16
    }
}

pub fn pattern(id: u32, cells: &[(i16, i16, States)], result: Option<ResultSpec>) -> PatternSpec {
    PatternSpec {
        id,
        priority: 0,
        cells: cells
            .iter()
            .map(|&(dx, dy, allowed)| CellSpec {
                at: Offset::new(dx, dy),
                allowed,
            })
            .collect(),
        orientations: (0..8).collect(),
        covers: (0..8).map(|o| 1u8 << o).collect(),
        tests: vec![],
        result,
    }
}

pub fn class(name: &str, mode: Mode, size: u8, nodes: Vec<ClassNode>) -> ClassSpec {
    ClassSpec {
        name: name.into(),
        mode,
        focus: 0b0100,
        width: size,
        height: size,
        orient: OrientPolicy::All,
        default_value: None,
        nodes,
    }
}

pub fn debug_for(n: u32) -> DebugSpec {
    DebugSpec {
        files: vec!["test.lens".into()],
        patterns: (0..n)
            .map(|i| PatternDebug {
                name: format!("p{i}"),
                file: 0,
                start: i * 10,
                end: i * 10 + 5,
                attrs: vec![("k".into(), format!("{i}"))],
            })
            .collect(),
    }
}

pub const F: States = 1;
pub const X: States = 2;
pub const E: States = 4;
pub const OFF: States = 8;

/// A random state set, biased to exact states like real patterns.
pub fn random_states(rng: &mut Rng) -> States {
    match rng.below(10) {
        0..=2 => E,
        3 | 4 => F,
        5 | 6 => X,
        7 => F | X | E,
        8 => OFF,
        _ => (rng.below(15) + 1) as States,
    }
}

/// A random pattern within radius `r` (3 for packed fields): 3-10 constrained points.
pub fn random_pattern(rng: &mut Rng, id: u32, r: i16, with_tests: bool) -> PatternSpec {
    let n = (3 + rng.below(8) as usize).min(((2 * r + 1) * (2 * r + 1)) as usize);
    let mut cells: Vec<CellSpec> = Vec::new();
    while cells.len() < n {
        let near = rng.chance(0.7);
        let rr = if near { 1 } else { r };
        let dx = rng.below(2 * rr as u64 + 1) as i16 - rr;
        let dy = rng.below(2 * rr as u64 + 1) as i16 - rr;
        if cells.iter().any(|c| c.at == Offset::new(dx, dy)) {
            continue;
        }
        cells.push(CellSpec {
            at: Offset::new(dx, dy),
            allowed: random_states(rng),
        });
    }
    let (orientations, covers) = if rng.chance(0.2) {
        // a "symmetric" pattern stored once, standing for all 8 orientations
        (vec![0u8], vec![0xFFu8])
    } else if rng.chance(0.1) {
        (vec![0u8, 2, 5], vec![1u8 << 0, 1 << 2, 1 << 5])
    } else {
        ((0..8).collect(), (0..8).map(|o| 1u8 << o).collect())
    };
    let tests = if with_tests && rng.chance(0.3) {
        let p = cells[0].at;
        vec![TestSpec {
            expr: TestExpr::Bin(
                BinOp::Ge,
                Box::new(TestExpr::Libs(p)),
                Box::new(TestExpr::Int(rng.below(3) as i32)),
            ),
            cost: 1,
        }]
    } else {
        vec![]
    };
    let result = match rng.below(6) {
        0 => ResultSpec::Reject {
            at: cells[rng.below(cells.len() as u64) as usize].at,
        },
        1 => ResultSpec::Value {
            value: rng.below(50) as i32,
            bits: 3,
        },
        _ => ResultSpec::Move {
            at: cells[rng.below(cells.len() as u64) as usize].at,
            value: rng.below(100) as i32,
            bits: 0,
            sequence: None,
        },
    };
    PatternSpec {
        id,
        priority: rng.below(3) as i32,
        cells,
        orientations,
        covers,
        tests,
        result: Some(result),
    }
}
