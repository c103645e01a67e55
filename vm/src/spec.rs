//! `RomSpec`: the semantic content of a ROM image, as the compiler hands it to the ROM writer.
//!
//! This is the contract between `lens-compiler` (which resolves, checks, orients, orders and
//! builds decision trees) and the ROM writer in this crate (which packs masks in the VM's bit
//! layout, builds jump tables and kernel tables, and serialises). The writer lives here, next to
//! the reader, so the wire format is defined in one place (`rom/`).
//!
//! Conventions: offsets are `(dx, dy)` relative to the focus, `dx` east, `dy` south (see
//! [`crate::geometry`]); state sets use bit 0 friend, bit 1 foe, bit 2 empty, bit 3 off-board
//! (the *allowed* states; the absence bits stored in masks are the complement).
//! Everything is deterministic: no hash maps, every list in the order given.

use alloc::string::String;
use alloc::vec::Vec;

/// Allowed states of a point: bit 0 friend, 1 foe, 2 empty, 3 off-board.
pub type States = u8;

/// A point relative to the focus in the pattern's drawn orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Offset {
    /// Columns east of the focus (negative: west).
    pub dx: i16,
    /// Rows south of the focus (negative: north).
    pub dy: i16,
}

impl Offset {
    /// The focus itself.
    pub const FOCUS: Offset = Offset { dx: 0, dy: 0 };
    /// The point `dx` east and `dy` south of the focus.
    pub const fn new(dx: i16, dy: i16) -> Self {
        Offset { dx, dy }
    }
}

/// Everything an image holds: what [`crate::rom::write`] serialises and
/// [`crate::rom::CompactRom::to_spec`] reads back.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RomSpec {
    /// e.g. `"lensc 0.1.0"`.
    pub toolchain: String,
    /// A stable hash of all source bytes (FNV-1a 64 over the sorted inputs).
    pub source_hash: u64,
    /// Pattern classes, by [`crate::ClassId`] index.
    pub classes: Vec<ClassSpec>,
    /// Engine globals, by index (tests refer to them by index).
    pub globals: Vec<String>,
    /// Engine predicates, by index.
    pub externs: Vec<ExternSpec>,
    /// Move sequences that results refer to by index.
    pub sequences: Vec<SequenceSpec>,
    /// Lenses, by [`crate::LensId`] index.
    pub lenses: Vec<LensSpec>,
    /// Named joseki dictionaries (opaque blobs).
    pub joseki: Vec<JosekiBlobSpec>,
    /// Names and source spans; `None` when stripped (`lensc compile --strip`).
    pub debug: Option<DebugSpec>,
}

/// Class modes and orientation policies: the same types the loaded image reports.
pub use crate::rom::{Mode, OrientPolicy};

/// A pattern class: the unit a [`crate::Query`] matches.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassSpec {
    /// The name queries look it up by ([`crate::Rom::class_by_name`]).
    pub name: String,
    /// Which matches a call reports.
    pub mode: Mode,
    /// Allowed states of the focus point (checked before any pattern).
    pub focus: States,
    /// Field window (odd width and height, focus in the middle). 3, 5, 7 use the packed kernel.
    pub width: u8,
    /// Field window height (odd).
    pub height: u8,
    /// Which of the 8 orientations the class's patterns are tried in.
    pub orient: OrientPolicy,
    /// Value of the implicit last pattern that always matches (`default N;`).
    pub default_value: Option<i32>,
    /// Patterns and globs in the order to try them (the compiler has sorted by priority, then
    /// selectivity within equal priority, then source order).
    pub nodes: Vec<ClassNode>,
}

/// One element of a class program.
#[derive(Clone, Debug, PartialEq)]
pub enum ClassNode {
    /// A pattern, tried in each of its orientations.
    Pattern(PatternSpec),
    /// If the header fails in an orientation, every member is skipped in that orientation.
    Glob {
        /// The pattern every member shares (its result is `None`).
        header: PatternSpec,
        /// Tried only where the header matched, in that orientation.
        members: Vec<ClassNode>,
    },
}

/// One pattern: cells, tests and a result, in its drawn orientation.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternSpec {
    /// Index into [`DebugSpec::patterns`] (stable even when debug info is stripped).
    pub id: u32,
    /// Higher wins in [`Mode::Best`]; the compiler has sorted by it.
    pub priority: i32,
    /// Constrained points in the drawn orientation (unconstrained points omitted; the focus
    /// is included only if the pattern narrows it beyond the class's focus states).
    pub cells: Vec<CellSpec>,
    /// The distinct orientations to compile, ascending; symmetric duplicates already dropped
    /// by the compiler. Each variant's "up" is `orientation.up()`.
    pub orientations: Vec<u8>,
    /// For each entry of `orientations`, the orientations it also stands for (itself
    /// included), as a bit set: a symmetric pattern's single variant answers for all 8.
    pub covers: Vec<u8>,
    /// ANDed, already sorted cheapest first.
    pub tests: Vec<TestSpec>,
    /// `None` for glob headers.
    pub result: Option<ResultSpec>,
}

/// A constrained point of a pattern or lens field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellSpec {
    /// Where, relative to the focus.
    pub at: Offset,
    /// The states the point may be in.
    pub allowed: States,
}

/// A stone colour relative to the matching perspective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The perspective's colour (`Query::perspective`).
    Friend,
    /// The other colour.
    Foe,
}

/// Binary operators of tests: the bytecode's own type (its encoding order is `OP_BIN + op`).
pub use crate::rom::bytecode::Bin as BinOp;

/// Test expressions over the board around the focus. Points are offsets in the drawn
/// orientation; the VM maps them through the matched variant's orientation. Booleans are
/// integers (0 false, anything else true).
#[derive(Clone, Debug, PartialEq)]
pub enum TestExpr {
    /// A constant.
    Int(i32),
    /// Liberties of the string at the point (0 if empty or off-board).
    Libs(Offset),
    /// Distance to the nearest edge, 1-based (first line = 1; 0 if off-board).
    Line(Offset),
    /// The point holds a string with exactly one liberty.
    Atari(Offset),
    /// Some string of the colour orthogonally adjacent to the point is in atari.
    NbrAtari(Offset, Colour),
    /// Manhattan distance to the nearest stone of the colour (255 if none on the board).
    Dist(Offset, Colour),
    /// Number of points whose state is in `states` within Chebyshev radius `radius`
    /// (a `(2r+1)^2` square) around the point, the point itself included.
    Count {
        /// The centre of the square.
        at: Offset,
        /// The states counted.
        states: States,
        /// Half the square's side: 0..=12 in an image (the language allows 0..=9).
        radius: u8,
    },
    /// NEMESIS ANYn: the 9x9 square around the point holds exactly `stones` stones of either
    /// colour (1..=3); every other point of it is empty or off-board.
    Any {
        /// The centre of the 9x9 square.
        at: Offset,
        /// The exact stone count, 1..=3.
        stones: u8,
    },
    /// NEMESIS ADJn: number of stones on the point and its 4 orthogonal neighbours.
    Adj(Offset),
    /// NEMESIS EMPTY8: the point and its 8 neighbours are all empty or off-board.
    Empty8(Offset),
    /// NEMESIS EMPTY25: the 5x5 square around the point holds no stone (off-board allowed).
    Empty25(Offset),
    /// The engine's mark bit on the point (host).
    Mark(Offset),
    /// Engine global by index (host).
    Global(u16),
    /// Engine predicate by index (host), with point/int arguments.
    Extern {
        /// Index into [`RomSpec::externs`].
        index: u16,
        /// Arguments, as many as the extern's arity.
        args: Vec<ExternArg>,
    },
    /// 1 when the operand is 0, else 0.
    Not(alloc::boxed::Box<TestExpr>),
    /// The operand negated (wrapping).
    Neg(alloc::boxed::Box<TestExpr>),
    /// A binary operator; both operands are always evaluated.
    Bin(
        BinOp,
        alloc::boxed::Box<TestExpr>,
        alloc::boxed::Box<TestExpr>,
    ),
}

/// One argument of a built-in predicate as written in a `.lens` call ([`TestExpr::as_call`],
/// [`TestExpr::from_call`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallArg {
    /// A point relative to the focus.
    Point(Offset),
    /// A state keyword as a set (`friend` 1, `foe` 2, `empty` 4); predicates that take a
    /// colour accept `friend` and `foe` only.
    States(States),
    /// An integer literal.
    Int(i32),
}

/// Why [`TestExpr::from_call`] refused a call: the argument at fault (0-based) and the reason,
/// or no argument when the name or the count is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallError {
    /// The argument at fault; `None` for an unknown name or a wrong argument count.
    pub arg: Option<usize>,
    /// What is wrong, for a diagnostic.
    pub reason: &'static str,
}

/// The built-in predicates: each one's `.lens` name, its [`TestExpr`] both ways, and where its
/// points are. The one place the compiler's front end, the disassembler and the orientation
/// code learn a predicate from (its bytecode is `rom/bytecode.rs`); the names are those of
/// `lens_dsl::builtins::BUILTINS`, which a test checks.
impl TestExpr {
    /// Names of every built-in predicate, in opcode order.
    pub const PREDICATES: [&'static str; 11] = [
        "libs",
        "line",
        "atari",
        "nbr_atari",
        "dist",
        "count",
        "any",
        "adj",
        "empty8",
        "empty25",
        "mark",
    ];

    /// A built-in predicate as a call: its name and its arguments in source order. `None`
    /// for constants, engine globals and externs, and operators.
    pub fn as_call(&self) -> Option<(&'static str, Vec<CallArg>)> {
        use CallArg::{Int, Point, States};
        let colour = |c: &Colour| States(c.states());
        Some(match self {
            TestExpr::Libs(p) => ("libs", alloc::vec![Point(*p)]),
            TestExpr::Line(p) => ("line", alloc::vec![Point(*p)]),
            TestExpr::Atari(p) => ("atari", alloc::vec![Point(*p)]),
            TestExpr::NbrAtari(p, c) => ("nbr_atari", alloc::vec![Point(*p), colour(c)]),
            TestExpr::Dist(p, c) => ("dist", alloc::vec![Point(*p), colour(c)]),
            TestExpr::Count { at, states, radius } => (
                "count",
                alloc::vec![Point(*at), States(*states), Int(*radius as i32)],
            ),
            TestExpr::Any { at, stones } => ("any", alloc::vec![Point(*at), Int(*stones as i32)]),
            TestExpr::Adj(p) => ("adj", alloc::vec![Point(*p)]),
            TestExpr::Empty8(p) => ("empty8", alloc::vec![Point(*p)]),
            TestExpr::Empty25(p) => ("empty25", alloc::vec![Point(*p)]),
            TestExpr::Mark(p) => ("mark", alloc::vec![Point(*p)]),
            TestExpr::Int(_)
            | TestExpr::Global(_)
            | TestExpr::Extern { .. }
            | TestExpr::Not(_)
            | TestExpr::Neg(_)
            | TestExpr::Bin(..) => return None,
        })
    }

    /// The built-in predicate `name` on these arguments: the inverse of [`TestExpr::as_call`].
    /// Checks what the image format needs (argument kinds, colours, `count`'s radius 0..=12,
    /// `any`'s stones 1..=3); the language's own ranges are the front end's.
    pub fn from_call(name: &str, args: &[CallArg]) -> Result<TestExpr, CallError> {
        let err = |arg: Option<usize>, reason| CallError { arg, reason };
        let point = |i: usize| match args.get(i) {
            Some(CallArg::Point(p)) => Ok(*p),
            _ => Err(err(Some(i), "expected a point")),
        };
        let colour = |i: usize| match args.get(i) {
            Some(CallArg::States(1)) => Ok(Colour::Friend),
            Some(CallArg::States(2)) => Ok(Colour::Foe),
            _ => Err(err(Some(i), "expected `friend` or `foe`")),
        };
        let states = |i: usize| match args.get(i) {
            Some(CallArg::States(s)) if *s <= 15 => Ok(*s),
            _ => Err(err(Some(i), "expected a state")),
        };
        let small = |i: usize, lo: i32, hi: i32| match args.get(i) {
            Some(CallArg::Int(v)) if (lo..=hi).contains(v) => Ok(*v as u8),
            Some(CallArg::Int(_)) => Err(err(Some(i), "out of range")),
            _ => Err(err(Some(i), "expected an integer")),
        };
        let arity = match name {
            "nbr_atari" | "dist" | "any" => 2,
            "count" => 3,
            _ => 1,
        };
        if !Self::PREDICATES.contains(&name) {
            return Err(err(None, "not a built-in predicate"));
        }
        if args.len() != arity {
            return Err(err(None, "wrong number of arguments"));
        }
        Ok(match name {
            "libs" => TestExpr::Libs(point(0)?),
            "line" => TestExpr::Line(point(0)?),
            "atari" => TestExpr::Atari(point(0)?),
            "nbr_atari" => TestExpr::NbrAtari(point(0)?, colour(1)?),
            "dist" => TestExpr::Dist(point(0)?, colour(1)?),
            "count" => TestExpr::Count {
                at: point(0)?,
                states: states(1)?,
                radius: small(2, 0, 12)?,
            },
            "any" => TestExpr::Any {
                at: point(0)?,
                stones: small(1, 1, 3)?,
            },
            "adj" => TestExpr::Adj(point(0)?),
            "empty8" => TestExpr::Empty8(point(0)?),
            "empty25" => TestExpr::Empty25(point(0)?),
            _ => TestExpr::Mark(point(0)?),
        })
    }

    /// The same expression with every point (predicate and extern arguments) mapped through
    /// `f`: the expression in another orientation.
    pub fn map_points(&self, f: &impl Fn(Offset) -> Offset) -> TestExpr {
        use alloc::boxed::Box;
        if let Some((name, args)) = self.as_call() {
            let args: Vec<CallArg> = args
                .into_iter()
                .map(|a| match a {
                    CallArg::Point(p) => CallArg::Point(f(p)),
                    other => other,
                })
                .collect();
            // Mapping points keeps every other argument, so the call stays valid.
            return TestExpr::from_call(name, &args).unwrap_or_else(|_| self.clone());
        }
        match self {
            TestExpr::Extern { index, args } => TestExpr::Extern {
                index: *index,
                args: args
                    .iter()
                    .map(|a| match a {
                        ExternArg::Point(p) => ExternArg::Point(f(*p)),
                        other => other.clone(),
                    })
                    .collect(),
            },
            TestExpr::Not(x) => TestExpr::Not(Box::new(x.map_points(f))),
            TestExpr::Neg(x) => TestExpr::Neg(Box::new(x.map_points(f))),
            TestExpr::Bin(op, a, b) => {
                TestExpr::Bin(*op, Box::new(a.map_points(f)), Box::new(b.map_points(f)))
            }
            other => other.clone(),
        }
    }
}

impl Colour {
    /// The colour as a state set (friend 1, foe 2).
    pub const fn states(self) -> States {
        match self {
            Colour::Friend => 1,
            Colour::Foe => 2,
        }
    }
}

/// An argument of an engine predicate ([`TestExpr::Extern`]).
#[derive(Clone, Debug, PartialEq)]
pub enum ExternArg {
    /// A point, mapped through the matched orientation like every offset.
    Point(Offset),
    /// A constant.
    Int(i32),
    /// A colour relative to the perspective.
    Colour(Colour),
}

/// One test of a pattern or lens field: the match fails when it is 0.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSpec {
    /// The expression the VM evaluates.
    pub expr: TestExpr,
    /// Estimated cost (built-ins small; externs as declared).
    pub cost: u32,
}

/// An engine predicate tests may call through [`crate::Host::call`].
#[derive(Clone, Debug, PartialEq)]
pub struct ExternSpec {
    /// The name in the source (shown by `lensc disasm`).
    pub name: String,
    /// Number of arguments, at most [`crate::rom::MAX_ARGS`].
    pub arity: u8,
    /// Declared cost; tests are ordered cheapest first.
    pub cost: u32,
}

/// What a pattern or lens field yields when it matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultSpec {
    /// Suggest a move at `at` with `value`, descriptor `bits`, optional sequence index.
    Move {
        /// The move, relative to the focus.
        at: Offset,
        /// The pattern's value for the move.
        value: i32,
        /// Engine-defined descriptor bits (GNU Go class letters ...).
        bits: u32,
        /// Index into [`RomSpec::sequences`]: the expected follow-up.
        sequence: Option<u32>,
    },
    /// "Don't play at `at`": goes on the call's reject list, matching continues, later
    /// suggestions for that point are dropped.
    Reject {
        /// The point not to play, relative to the focus.
        at: Offset,
    },
    /// A value with no move (eye values, assessments).
    Value {
        /// The value.
        value: i32,
        /// Engine-defined descriptor bits.
        bits: u32,
    },
}

/// A move tree in pre-order; colours alternate from friend at depth 0.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SequenceSpec {
    /// The moves, in pre-order.
    pub nodes: Vec<SeqNodeSpec>,
}

/// One move of a [`SequenceSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqNodeSpec {
    /// `None` = pass / tenuki.
    pub at: Option<Offset>,
    /// Depth in the tree (0 = first move); a node's children follow it with depth + 1.
    pub depth: u16,
}

/// A lens: fields of tests in the frame of its endpoints, compiled to a decision tree.
/// Frame coordinates: offsets from the first endpoint, as `(col, -row)` of the written
/// coordinates (so `d4` minus `d3` is `(0, -1)`, north). At run time the VM finds the
/// orientations mapping the written endpoints onto the given board points.
#[derive(Clone, Debug, PartialEq)]
pub struct LensSpec {
    /// Engine-defined kind of lens (reported by [`crate::rom::LensInfo::lens_type`]).
    pub lens_type: u32,
    /// The name [`crate::Rom::lens_by_name`] finds it by.
    pub name: String,
    /// Endpoints relative to the first (the first is always `(0, 0)`).
    pub endpoints: Vec<Offset>,
    /// The fields, in source order.
    pub fields: Vec<LensFieldSpec>,
    /// Decision tree over point states; node 0 is the root.
    pub tree: Vec<TreeNode>,
}

/// One field of a lens: point states, tests and a result.
#[derive(Clone, Debug, PartialEq)]
pub struct LensFieldSpec {
    /// Point constraints in the lens frame.
    pub states: Vec<CellSpec>,
    /// ANDed, cheapest first.
    pub tests: Vec<TestSpec>,
    /// What the field yields.
    pub result: ResultSpec,
}

/// A node of a lens decision tree.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeNode {
    /// Branch on the state of `at`: `children[state]` for friend, foe, empty, off.
    Branch {
        /// The point whose state decides, in the lens frame.
        at: Offset,
        /// Node indices for friend, foe, empty, off.
        children: [u32; 4],
    },
    /// Fields (indices into `fields`, in source order) whose state constraints all hold on
    /// this path; their tests still have to run.
    Leaf {
        /// Field indices, ascending.
        fields: Vec<u32>,
    },
}

/// A named joseki dictionary stored in the image.
#[derive(Clone, Debug, PartialEq)]
pub struct JosekiBlobSpec {
    /// The name [`crate::Rom::joseki_blob`] finds it by.
    pub name: String,
    /// An encoded DAG from `lens-joseki` (opaque to the ROM layer, checksummed).
    pub bytes: Vec<u8>,
}

/// Names and source spans of an unstripped image.
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "metadata", derive(serde::Serialize, serde::Deserialize))]
pub struct DebugSpec {
    /// Source file names, in input order.
    pub files: Vec<String>,
    /// Indexed by [`PatternSpec::id`].
    pub patterns: Vec<PatternDebug>,
}

/// A pattern's name and where it was written.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "metadata", derive(serde::Serialize, serde::Deserialize))]
pub struct PatternDebug {
    /// The pattern's name in the source.
    pub name: String,
    /// Index into [`DebugSpec::files`].
    pub file: u32,
    /// Byte offset of the pattern's first byte in the file.
    pub start: u32,
    /// Byte offset just past the pattern.
    pub end: u32,
    /// `attr` key/value pairs (GNU Go class letters, values ...), rendered as text.
    pub attrs: Vec<(String, String)>,
}
