//! The abstract syntax tree of a `.lens` source file.
//!
//! This module is the contract between the parser (lexer + lalrpop grammar), the checker, the
//! formatter and the compiler. It depends on nothing generated: the parser could be replaced
//! without touching any consumer. Every node carries a byte [`Span`] into its [`SourceFile`](crate::source::SourceFile).
//!
//! Equality: `PartialEq` compares spans too, so trees parsed from different text compare unequal
//! even where they mean the same.

use serde::{Deserialize, Serialize};

/// Byte range `[start, end)` into one source file.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    pub fn len(self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.end - s.start).into()
    }
}

/// A value with the span it came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// An identifier (class, pattern, extern, global, glob, sequence, lens name).
pub type Ident = Spanned<String>;

/// A comment kept by the lexer so that `lensc fmt` can print it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comment {
    /// The comment text including its `//` marker, without the trailing newline.
    pub text: String,
    pub span: Span,
}

/// One parsed file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct File {
    pub items: Vec<Item>,
    /// All comments of the file in source order (trivia for the formatter).
    pub comments: Vec<Comment>,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Item {
    /// `include "path.lens";` (path relative to the including file).
    Include(Include),
    /// `global phase;` an integer the engine supplies at run time.
    Global(Global),
    /// `extern alive(point) cost 20;` a predicate the engine supplies at run time.
    Extern(Extern),
    /// `class name { mode best; focus empty; field 5x5; orient all; default 0; }`
    Class(Class),
    /// `pattern name : class { ... }`
    Pattern(Pattern),
    /// `glob name : class { header { ... } pattern ... glob ... }`
    Glob(Glob),
    /// `lens 2 name(d3, c4) { field { ... } => ...; }`
    Lens(Lens),
    /// `joseki name { ... }` (syntax only in the front end; semantics in lens-joseki)
    Joseki(Joseki),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Include {
    pub path: Spanned<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Global {
    pub name: Ident,
    pub span: Span,
}

/// Argument kinds of externs and built-in tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArgKind {
    /// A board point: a diagram label, `*`, or (in lenses) a frame coordinate such as `d4`.
    Point,
    /// An integer literal or expression.
    Int,
    /// A colour/state keyword: `friend`, `foe` (and `empty`, `stone` where allowed).
    Color,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Extern {
    pub name: Ident,
    pub params: Vec<Spanned<ArgKind>>,
    /// `: int`: the engine returns a number (used in arithmetic and comparisons); otherwise a
    /// condition (non-zero = true).
    #[serde(default)]
    pub returns_int: bool,
    /// Relative cost; tests run cheapest first. Built-ins have fixed small costs (see docs).
    pub cost: Spanned<u32>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchMode {
    /// Only the highest-priority match per point is reported; lower ones are not checked.
    Best,
    /// Every match is reported.
    All,
    /// Stop at the first match of the whole call.
    First,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FocusStatus {
    Empty,
    Friend,
    Foe,
    /// Any on-board state.
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrientPolicy {
    /// All 8 orientations.
    All,
    /// All 8 variants are compiled and tagged with their "up" direction; the caller may ask
    /// for the variants whose up points toward a given neighbour (Wilcox's string patterns).
    Up,
    /// Only the orientation drawn.
    Identity,
}

/// Field size `W x H` (both odd, focus in the middle of the window the class reserves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldSize {
    pub width: u8,
    pub height: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClassOption {
    Mode(Spanned<MatchMode>),
    Focus(Spanned<FocusStatus>),
    Field(Spanned<FieldSize>),
    Orient(Spanned<OrientPolicy>),
    /// `default 0;` the value of the implicit last pattern that always matches.
    Default(Spanned<i32>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Class {
    pub name: Ident,
    pub options: Vec<ClassOption>,
    pub span: Span,
}

/// One point state. A point is one of these four; a symbol stands for a *set* of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PointState {
    Friend,
    Foe,
    Empty,
    /// Off the board (beyond an edge).
    Off,
}

/// A set of allowed point states, as written in a legend or a lens field:
/// `friend | empty`, `any` (= friend|foe|empty), `anything` (all four), `stone` (friend|foe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct StateSet(pub u8);

impl StateSet {
    pub const FRIEND: StateSet = StateSet(1);
    pub const FOE: StateSet = StateSet(2);
    pub const EMPTY: StateSet = StateSet(4);
    pub const OFF: StateSet = StateSet(8);
    pub const NONE: StateSet = StateSet(0);
    /// Anything on the board.
    pub const ON_BOARD: StateSet = StateSet(7);
    /// No constraint at all.
    pub const ALL: StateSet = StateSet(15);

    pub fn of(state: PointState) -> StateSet {
        match state {
            PointState::Friend => Self::FRIEND,
            PointState::Foe => Self::FOE,
            PointState::Empty => Self::EMPTY,
            PointState::Off => Self::OFF,
        }
    }
    pub fn union(self, o: StateSet) -> StateSet {
        StateSet(self.0 | o.0)
    }
    pub fn intersect(self, o: StateSet) -> StateSet {
        StateSet(self.0 & o.0)
    }
    pub fn contains(self, s: PointState) -> bool {
        self.0 & Self::of(s).0 != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 & 15 == 0
    }
    /// Swap friend and foe (colour reversal).
    pub fn swap_colours(self) -> StateSet {
        StateSet((self.0 & 0b1100) | ((self.0 & 1) << 1) | ((self.0 & 2) >> 1))
    }
}

/// A raw diagram as written: one entry per source line between the braces of `diagram { }`.
/// Cells are the non-whitespace characters of a line (so `O.*` and `O . *` are the same row).
/// The checker ([`crate::diagram`]) turns it into a grid of state sets relative to the focus.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagram {
    pub rows: Vec<DiagramRow>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagramRow {
    /// The cells of the row, each with the span of its character.
    pub cells: Vec<Spanned<char>>,
    /// A trailing `//` comment on the row, if any (kept by the formatter).
    pub comment: Option<String>,
    pub span: Span,
}

/// `legend { e = friend | off; Q = friend, focus; }`: meaning of a non-standard symbol or label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegendEntry {
    pub symbol: Spanned<char>,
    pub states: Spanned<StateSet>,
    /// `, focus`: this symbol marks the focus (instead of `*`).
    pub focus: bool,
    pub span: Span,
}

/// A point reference in a test or result.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PointRef {
    /// `*`, the focus.
    Focus,
    /// A diagram label (one character, e.g. `a`).
    Label(char),
    /// A frame coordinate in a lens (`d4`: column letter a..z skipping none, row 1-based).
    Coord { col: u8, row: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    Not,
    Neg,
}

/// Test expressions (`where ...;` clauses and lens field tests).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    Int(Spanned<i64>),
    Bool(Spanned<bool>),
    Point(Spanned<PointRef>),
    /// `friend`, `foe`, `empty`, `stone` used as an argument.
    Color(Spanned<PointState>),
    /// A global name, or (if it resolves so) an extern of arity 0.
    Name(Ident),
    /// A built-in test or an extern predicate call.
    Call {
        name: Ident,
        args: Vec<Expr>,
        span: Span,
    },
    Unary {
        op: Spanned<UnOp>,
        expr: Box<Expr>,
        span: Span,
    },
    Binary {
        op: Spanned<BinOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        span: Span,
    },
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(s) => s.span,
            Expr::Bool(s) => s.span,
            Expr::Point(s) => s.span,
            Expr::Color(s) => s.span,
            Expr::Name(s) => s.span,
            Expr::Call { span, .. } | Expr::Unary { span, .. } | Expr::Binary { span, .. } => *span,
        }
    }
}

/// What a matching pattern or lens field answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ResultSpec {
    /// `=> a 15 bits 0x4 seq main;`
    Move {
        point: Spanned<PointRef>,
        value: Spanned<i32>,
        bits: Option<Spanned<u32>>,
        sequence: Option<Ident>,
        span: Span,
    },
    /// `=> reject a;` "don't play here": the point goes on the reject list, matching goes on.
    Reject {
        point: Spanned<PointRef>,
        span: Span,
    },
    /// `=> value 7;` a value without a move (eye values, assessments).
    Value {
        value: Spanned<i32>,
        bits: Option<Spanned<u32>>,
        span: Span,
    },
}

/// `sequence main { a b ( c | d e ) }`: a move tree over the pattern's labels, colours
/// alternating from friend; `pass` is a tenuki.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sequence {
    pub name: Ident,
    pub body: Vec<SeqNode>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SeqNode {
    Move(Spanned<PointRef>),
    Pass(Span),
    /// `( a b | c )` alternatives; each branch continues the line.
    Branch {
        alternatives: Vec<Vec<SeqNode>>,
        span: Span,
    },
}

/// Declared symmetry, GNU Go style: the set of transforms that map the pattern onto itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Symmetry {
    /// `8`: no symmetry, all 8 orientations distinct.
    None,
    /// `|` mirror in the vertical axis.
    Vertical,
    /// `-` mirror in the horizontal axis.
    Horizontal,
    /// `\` mirror in the main diagonal.
    Diagonal,
    /// `/` mirror in the anti-diagonal.
    AntiDiagonal,
    /// `+` both axis mirrors.
    Cross,
    /// `X` both diagonal mirrors.
    DiagonalCross,
    /// `O` 180 degree rotation.
    Rotation180,
    /// `full` all 8 symmetries (only one orientation is distinct).
    Full,
}

/// Items inside `pattern NAME : CLASS { ... }` (also used for a glob header).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PatternItem {
    Priority(Spanned<i32>),
    Symmetry(Spanned<Symmetry>),
    /// `orientations 0 1 2 3;` restricts the transforms tried (0..8, see docs/language.md).
    Orientations(Spanned<Vec<u8>>),
    Diagram(Diagram),
    Legend(Vec<LegendEntry>),
    /// `where EXPR;` (several clauses are ANDed).
    Where(Expr),
    Result(ResultSpec),
    Sequence(Sequence),
    /// `attr gnugo_class = "OX";` free metadata carried into the ROM's debug info.
    Attr {
        key: Ident,
        value: Spanned<AttrValue>,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AttrValue {
    Int(i64),
    Float(f64),
    Str(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pattern {
    pub name: Ident,
    /// The class; `None` only for patterns inside a glob (they take the glob's class).
    pub class: Option<Ident>,
    pub items: Vec<PatternItem>,
    pub span: Span,
}

/// A glob: patterns behind a header pattern; nested globs are Wilcox's joined globs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glob {
    pub name: Ident,
    /// Class of every member (only on the outermost glob; nested globs inherit it).
    pub class: Option<Ident>,
    /// `header { diagram {...} where ...; }` (no result). `None`: the compiler derives one.
    pub header: Option<GlobHeader>,
    pub members: Vec<GlobMember>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GlobHeader {
    pub items: Vec<PatternItem>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GlobMember {
    Pattern(Pattern),
    Glob(Glob),
}

/// `lens 2 diagonal_defence(d3, c4) { field { d4 empty; c3 empty } => c3 5; }`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lens {
    pub lens_type: Spanned<u32>,
    pub name: Ident,
    /// The endpoints as frame coordinates (one or more).
    pub endpoints: Vec<Spanned<PointRef>>,
    pub fields: Vec<LensField>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LensField {
    pub items: Vec<FieldItem>,
    pub result: ResultSpec,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FieldItem {
    /// `d4 foe` / `c3 empty | friend`
    State {
        point: Spanned<PointRef>,
        states: Spanned<StateSet>,
        span: Span,
    },
    /// `libs(d4) > 4`
    Test(Expr),
}

/// `joseki name { d4 ( c6:urgent f3 | e3:trick pass ) }` in the corner frame (a1 = corner point).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Joseki {
    pub name: Ident,
    pub body: Vec<JosekiNode>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JosekiMoveType {
    Urgent,
    Normal,
    Complex,
    Trick,
    Bad,
    Ignore,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum JosekiNode {
    /// A move (colours alternate, black first) with an optional `:type` (default normal).
    Move {
        point: Spanned<PointRef>,
        kind: Option<Spanned<JosekiMoveType>>,
        span: Span,
    },
    /// `tenuki` / `pass`
    Tenuki {
        kind: Option<Spanned<JosekiMoveType>>,
        span: Span,
    },
    Branch {
        alternatives: Vec<Vec<JosekiNode>>,
        span: Span,
    },
}
