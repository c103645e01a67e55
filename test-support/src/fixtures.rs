//! Test helpers: a tiny board (until the reference board is used everywhere), a seeded PRNG,
//! and random positions and RomSpecs for differential and property tests.

use lens_vm::spec::*;
use lens_vm::{BoardView, Colour, Point};

/// xorshift64*: deterministic, seedable, no dependency.
pub struct Rng(pub u64);
impl Rng {
    #[allow(clippy::should_implement_trait)] // a generator the tests call by hand, not an iterator
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

/// A random glob: a small header (no result, at most 2 cells) over 1-4 random members, with a
/// nested glob among them 30 % of the time. Pattern ids are taken from `next_id`.
pub fn random_glob(rng: &mut Rng, next_id: &mut u32, r: i16) -> ClassNode {
    let mut header = random_pattern(rng, *next_id, 1, false);
    header.result = None;
    header.cells.truncate(2);
    *next_id += 1;
    let mut members = Vec::new();
    for _ in 0..(1 + rng.below(4)) {
        members.push(ClassNode::Pattern(random_pattern(rng, *next_id, r, true)));
        *next_id += 1;
    }
    if rng.chance(0.3) {
        let mut h2 = random_pattern(rng, *next_id, 1, false);
        h2.result = None;
        h2.cells.truncate(1);
        *next_id += 1;
        let inner = vec![ClassNode::Pattern(random_pattern(rng, *next_id, r, true))];
        *next_id += 1;
        members.push(ClassNode::Glob {
            header: h2,
            members: inner,
        });
    }
    ClassNode::Glob { header, members }
}

/// A random class of `n` nodes (globs 8 % of the time) over fields of radius `r`; each pattern
/// keeps `2 + below(cell_range)` cells, so there are enough matches per board to exercise
/// results, rejects and modes. Pattern ids are taken from `next_id`.
pub fn random_class(
    rng: &mut Rng,
    name: &str,
    n: usize,
    r: i16,
    next_id: &mut u32,
    cell_range: u64,
) -> ClassSpec {
    let mut nodes = Vec::new();
    while nodes.len() < n {
        if rng.chance(0.08) {
            nodes.push(random_glob(rng, next_id, r));
        } else {
            let mut p = random_pattern(rng, *next_id, r, true);
            p.cells.truncate(2 + rng.below(cell_range) as usize);
            nodes.push(ClassNode::Pattern(p));
            *next_id += 1;
        }
    }
    let size = (2 * r + 1) as u8;
    ClassSpec {
        name: name.into(),
        mode: [Mode::All, Mode::Best, Mode::First][rng.below(3) as usize],
        focus: [E, F, X, F | X | E, F | E][rng.below(5) as usize],
        width: size,
        height: size,
        orient: OrientPolicy::All,
        default_value: rng.chance(0.3).then_some(-1),
        nodes,
    }
}

/// A sample image exercising every section: packed and general classes, globs, every test
/// opcode, sequences, a lens with a decision tree, a joseki blob and debug info.
pub fn sample_spec(strip: bool) -> RomSpec {
    use TestExpr as T;
    use lens_vm::spec::Colour;
    let b = |e: T| Box::new(e);
    let o = Offset::new;
    let all_tests = vec![
        TestSpec {
            expr: T::Bin(BinOp::Ge, b(T::Libs(o(0, -1))), b(T::Int(1))),
            cost: 1,
        },
        TestSpec {
            expr: T::Bin(
                BinOp::Or,
                b(T::Bin(BinOp::Lt, b(T::Line(Offset::FOCUS)), b(T::Int(30)))),
                b(T::Not(b(T::Atari(o(1, 0))))),
            ),
            cost: 2,
        },
        TestSpec {
            expr: T::Bin(
                BinOp::And,
                b(T::Bin(
                    BinOp::Le,
                    b(T::Dist(Offset::FOCUS, Colour::Foe)),
                    b(T::Int(255)),
                )),
                b(T::Bin(
                    BinOp::Ne,
                    b(T::Count {
                        at: Offset::FOCUS,
                        states: 4,
                        radius: 1,
                    }),
                    b(T::Int(-1)),
                )),
            ),
            cost: 3,
        },
        TestSpec {
            expr: T::Bin(
                BinOp::Eq,
                b(T::Bin(
                    BinOp::Add,
                    b(T::Bin(
                        BinOp::Sub,
                        b(T::Adj(Offset::FOCUS)),
                        b(T::Neg(b(T::Int(0)))),
                    )),
                    b(T::Bin(
                        BinOp::Gt,
                        b(T::Any {
                            at: Offset::FOCUS,
                            stones: 2,
                        }),
                        b(T::Int(5)),
                    )),
                )),
                b(T::Adj(Offset::FOCUS)),
            ),
            cost: 4,
        },
        TestSpec {
            expr: T::Bin(
                BinOp::Or,
                b(T::Bin(
                    BinOp::Or,
                    b(T::Empty8(o(5, 5))),
                    b(T::Empty25(o(-5, 0))),
                )),
                b(T::Bin(
                    BinOp::Or,
                    b(T::NbrAtari(o(0, 1), Colour::Friend)),
                    b(T::Int(1)),
                )),
            ),
            cost: 5,
        },
        TestSpec {
            expr: T::Not(b(T::Mark(Offset::FOCUS))),
            cost: 6,
        },
        TestSpec {
            expr: T::Bin(BinOp::Ge, b(T::Global(0)), b(T::Int(0))),
            cost: 7,
        },
        TestSpec {
            expr: T::Not(b(T::Extern {
                index: 0,
                args: vec![
                    ExternArg::Point(o(0, -1)),
                    ExternArg::Int(3),
                    ExternArg::Colour(Colour::Foe),
                ],
            })),
            cost: 20,
        },
    ];
    let mut hane = pattern(
        0,
        &[(-1, -1, X), (0, -1, F), (-1, 0, E)],
        Some(ResultSpec::Move {
            at: Offset::FOCUS,
            value: 20,
            bits: 1,
            sequence: Some(0),
        }),
    );
    hane.priority = 10;
    hane.tests = all_tests;
    let cut = pattern(
        1,
        &[(1, 0, X), (0, 1, X), (1, 1, F)],
        Some(ResultSpec::Reject { at: Offset::FOCUS }),
    );
    let mut eye = pattern(
        2,
        &[(0, -1, F), (1, 0, F), (0, 1, F | OFF), (-1, 0, F | OFF)],
        Some(ResultSpec::Value { value: 2, bits: 7 }),
    );
    eye.orientations = vec![0];
    eye.covers = vec![0xFF];
    let mut header = pattern(3, &[(0, 1, OFF)], None);
    header.orientations = vec![0, 1, 2, 3];
    header.covers = vec![0x11, 0x22, 0x44, 0x88];
    let edge = pattern(
        4,
        &[(0, -1, E), (1, 0, E | X), (0, 1, OFF)],
        Some(ResultSpec::Move {
            at: o(0, -1),
            value: 5,
            bits: 0,
            sequence: None,
        }),
    );
    let wide = pattern(
        5,
        &[(4, 0, X), (-4, 0, X), (0, 4, E)],
        Some(ResultSpec::Move {
            at: Offset::FOCUS,
            value: 9,
            bits: 0,
            sequence: None,
        }),
    );
    let lens = LensSpec {
        lens_type: 1,
        name: "bridge".into(),
        endpoints: vec![Offset::FOCUS, o(0, 2)],
        fields: vec![
            LensFieldSpec {
                states: vec![CellSpec {
                    at: o(0, 1),
                    allowed: E,
                }],
                tests: vec![],
                result: ResultSpec::Move {
                    at: o(0, 1),
                    value: 3,
                    bits: 0,
                    sequence: None,
                },
            },
            LensFieldSpec {
                states: vec![CellSpec {
                    at: o(0, 1),
                    allowed: X,
                }],
                tests: vec![TestSpec {
                    expr: TestExpr::Atari(o(0, 1)),
                    cost: 1,
                }],
                result: ResultSpec::Value { value: 1, bits: 0 },
            },
        ],
        tree: vec![
            TreeNode::Branch {
                at: o(0, 1),
                children: [1, 2, 3, 1],
            },
            TreeNode::Leaf { fields: vec![] },
            TreeNode::Leaf { fields: vec![1] },
            TreeNode::Leaf { fields: vec![0] },
        ],
    };
    RomSpec {
        toolchain: "lensc test".into(),
        source_hash: 0x1234_5678_9abc_def0,
        classes: vec![
            ClassSpec {
                default_value: Some(0),
                ..class(
                    "shape",
                    Mode::All,
                    3,
                    vec![
                        ClassNode::Pattern(hane),
                        ClassNode::Pattern(cut),
                        ClassNode::Pattern(eye),
                    ],
                )
            },
            class(
                "edge",
                Mode::Best,
                5,
                vec![ClassNode::Glob {
                    header,
                    members: vec![ClassNode::Pattern(edge)],
                }],
            ),
            class("wide", Mode::First, 9, vec![ClassNode::Pattern(wide)]),
        ],
        globals: vec!["phase".into()],
        externs: vec![ExternSpec {
            name: "safe".into(),
            arity: 3,
            cost: 20,
        }],
        sequences: vec![SequenceSpec {
            nodes: vec![
                SeqNodeSpec {
                    at: Some(Offset::FOCUS),
                    depth: 0,
                },
                SeqNodeSpec {
                    at: Some(o(1, 0)),
                    depth: 1,
                },
                SeqNodeSpec { at: None, depth: 1 },
            ],
        }],
        lenses: vec![lens],
        joseki: vec![JosekiBlobSpec {
            name: "corner".into(),
            bytes: vec![1, 2, 3, 4, 5],
        }],
        debug: (!strip).then(|| debug_for(6)),
    }
}

/// Sample positions for behaviour comparisons.
pub fn sample_boards() -> Vec<TestBoard> {
    let mut rng = Rng(7);
    let mut v = vec![TestBoard::parse(
        "
        . . . . . . .
        . O X . . . .
        . . . X O . .
        . . . . . . .
        . X . O . . .
        . . . . . X .
        . . . . . . .",
    )];
    for s in [5u8, 9, 13] {
        v.push(TestBoard::random(&mut rng, s, 0.4));
    }
    v
}

/// Every class at every point of every sample board, both colours, plus the lens on every
/// vertical pair: the "behaviour" of an image, for comparing two images.
pub fn behaviour(rom: &lens_vm::Rom<'_>, boards: &[TestBoard]) -> Vec<lens_vm::Match> {
    use lens_vm::*;
    let mut all = Vec::new();
    let mut slots = vec![Match::EMPTY; 4096];
    for b in boards {
        for c in 0..rom.class_count() {
            for persp in [Colour::Black, Colour::White] {
                let q = Query {
                    class: ClassId(c as u32),
                    perspective: persp,
                    orientations: Orientations::All,
                };
                let mut out = MatchBuf::new(&mut slots);
                rom.scan(b, &NoHost, &q, &mut Scratch::new(), &mut out);
                all.extend_from_slice(out.as_slice());
            }
        }
        for l in 0..rom.lens_count() {
            let s = b.size as i32;
            for y in 0..s - 2 {
                for x in 0..s {
                    let mut out = MatchBuf::new(&mut slots);
                    rom.eval_lens(
                        LensId(l as u32),
                        &[(x, y), (x, y + 2)],
                        Colour::Black,
                        b,
                        &NoHost,
                        &mut out,
                    );
                    all.extend_from_slice(out.as_slice());
                }
            }
        }
    }
    all
}

/// The same position on the reference board (stones whose placement is illegal are skipped).
pub fn to_board(t: &TestBoard) -> lens_vm::board::Board {
    let mut b = lens_vm::board::Board::new(t.size).expect("size");
    let s = t.size as i32;
    for y in 0..s {
        for x in 0..s {
            if let Point::Stone(c) = t.point(x, y) {
                let _ = b.place(c, x, y);
            }
        }
    }
    b
}

/// 64 positions of a 19x19 game-like density, with an empty focus point each (the benches'
/// match-call positions).
pub fn game_positions() -> Vec<(lens_vm::board::Board, (i32, i32))> {
    let mut rng = Rng(11);
    let mut v = Vec::new();
    while v.len() < 64 {
        let b = to_board(&TestBoard::random(&mut rng, 19, 0.35));
        let (x, y) = (rng.below(19) as i32, rng.below(19) as i32);
        if b.point(x, y) == Point::Empty {
            v.push((b, (x, y)));
        }
    }
    v
}

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// A pattern cut out of a real view (the matching benches' synthetic workload): the focus and
/// each ring-1 point with p = 0.85, then ring 2/3 points (ring 2 three times likelier, stones
/// three times likelier than empty points) up to 6-15 cells with at least 2 stones; each cell
/// the exact state seen (85 %) or "anything but" it (15 %). Result: a move at the focus.
pub fn cut_pattern(rng: &mut Rng, id: u32) -> PatternSpec {
    loop {
        let b = TestBoard::random(rng, 19, 0.35);
        let (x, y) = (rng.below(19) as i32, rng.below(19) as i32);
        if b.point(x, y) != Point::Empty {
            continue;
        }
        let state = |dx: i16, dy: i16| -> u8 {
            match b.point(x + dx as i32, y + dy as i32) {
                Point::Stone(Colour::Black) => F,
                Point::Stone(Colour::White) => X,
                Point::Empty => E,
                Point::Off => OFF,
            }
        };
        let n = 6 + rng.below(10) as usize;
        let mut at: Vec<(i16, i16)> = vec![(0, 0)];
        for (dx, dy) in [
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ] {
            if rng.chance(0.85) {
                at.push((dx, dy));
            }
        }
        let mut tries = 0;
        while at.len() < n && tries < 1000 {
            tries += 1;
            let r = if rng.below(4) < 3 { 2 } else { 3 };
            let (dx, dy) = (
                rng.below(2 * r + 1) as i16 - r as i16,
                rng.below(2 * r + 1) as i16 - r as i16,
            );
            if dx.abs().max(dy.abs()) != r as i16 || at.contains(&(dx, dy)) {
                continue;
            }
            if matches!(state(dx, dy), E) && rng.below(3) != 0 {
                continue;
            }
            at.push((dx, dy));
        }
        if at
            .iter()
            .filter(|&&(dx, dy)| matches!(state(dx, dy), F | X))
            .count()
            < 2
        {
            continue;
        }
        let cells = at
            .iter()
            .map(|&(dx, dy)| {
                let s = state(dx, dy);
                let allowed = if (dx, dy) != (0, 0) && rng.chance(0.15) {
                    !s & 0xF
                } else {
                    s
                };
                CellSpec {
                    at: Offset::new(dx, dy),
                    allowed,
                }
            })
            .collect();
        return PatternSpec {
            id,
            priority: 0,
            cells,
            orientations: (0..8).collect(),
            covers: (0..8).map(|o| 1u8 << o).collect(),
            tests: vec![],
            result: Some(ResultSpec::Move {
                at: Offset::new(0, 0),
                value: 1,
                bits: 0,
                sequence: None,
            }),
        };
    }
}

/// A 3x3 pattern cut from a random position around an empty point: each neighbour kept with
/// p = 0.85, at least 2 stones, each cell the state seen (85 %) or "anything but" it; a move at
/// the focus (the lookup-table and dispatch benches).
pub fn cut_3x3(rng: &mut Rng, id: u32) -> PatternSpec {
    loop {
        let b = TestBoard::random(rng, 19, 0.35);
        let (x, y) = (rng.below(19) as i32, rng.below(19) as i32);
        if b.point(x, y) != Point::Empty {
            continue;
        }
        let mut cells = vec![CellSpec {
            at: Offset::new(0, 0),
            allowed: E,
        }];
        let mut stones = 0;
        for dy in -1..=1i16 {
            for dx in -1..=1i16 {
                if (dx, dy) == (0, 0) || !rng.chance(0.85) {
                    continue;
                }
                let s = match b.point(x + dx as i32, y + dy as i32) {
                    Point::Stone(Colour::Black) => F,
                    Point::Stone(Colour::White) => X,
                    Point::Empty => E,
                    Point::Off => OFF,
                };
                stones += (s == F || s == X) as usize;
                let allowed = if rng.chance(0.85) { s } else { !s & 15 };
                cells.push(CellSpec {
                    at: Offset::new(dx, dy),
                    allowed,
                });
            }
        }
        if stones < 2 {
            continue;
        }
        return PatternSpec {
            id,
            priority: rng.below(3) as i32,
            cells,
            orientations: (0..8).collect(),
            covers: (0..8).map(|o| 1u8 << o).collect(),
            tests: vec![],
            result: Some(ResultSpec::Move {
                at: Offset::new(0, 0),
                value: rng.below(100) as i32,
                bits: 0,
                sequence: None,
            }),
        };
    }
}
