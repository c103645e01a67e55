//! The compiler's intermediate representation: the checked program with every name resolved,
//! every point an offset and every test a [`TestExpr`](lens_vm::spec::TestExpr), before optimisation.
//!
//! Lowering ([`crate::lower`]) builds it from the AST; the optimiser ([`crate::optimise`])
//! fills in orientations, glob headers and the order; [`crate::emit`] turns it into a
//! [`lens_vm::spec::RomSpec`]. Maps are `BTreeMap`s so iteration order never depends on hashing.

use std::collections::BTreeMap;

use lens_dsl::FileId;
use lens_dsl::ast::{Span, Symmetry};
use lens_vm::spec::{
    ExternSpec, JosekiBlobSpec, Mode, Offset, OrientPolicy, PatternDebug, ResultSpec, SequenceSpec,
    States, TestSpec, TreeNode,
};

/// A whole program after lowering.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Source file names in input order (debug info).
    pub files: Vec<String>,
    pub globals: Vec<String>,
    pub externs: Vec<ExternSpec>,
    pub classes: Vec<Class>,
    pub sequences: Vec<SequenceSpec>,
    pub lenses: Vec<Lens>,
    pub joseki: Vec<JosekiBlobSpec>,
    /// Debug info indexed by pattern id (patterns and glob headers).
    pub debug: Vec<PatternDebug>,
}

#[derive(Clone, Debug)]
pub struct Class {
    pub name: String,
    pub mode: Mode,
    /// Allowed states of the focus point.
    pub focus: States,
    pub width: u8,
    pub height: u8,
    pub orient: OrientPolicy,
    pub default_value: Option<i32>,
    pub nodes: Vec<Node>,
}

#[derive(Clone, Debug)]
pub enum Node {
    Pattern(Pattern),
    Glob(Glob),
}

impl Node {
    /// Source order of the node (its first pattern for a glob).
    pub fn source_order(&self) -> u32 {
        match self {
            Node::Pattern(p) => p.source_order,
            Node::Glob(g) => g.header.source_order,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Glob {
    pub name: String,
    /// The header; when `derived` it has no cells until the optimiser computes them.
    pub header: Pattern,
    /// `true` when the source gave no header and the compiler derives it.
    pub derived: bool,
    pub members: Vec<Node>,
}

/// One pattern (or glob header) in its drawn orientation.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// Index into the debug table; assigned in source order.
    pub id: u32,
    /// Position in source order over the whole program (ties are broken by it).
    pub source_order: u32,
    pub priority: i32,
    /// Constrained points and their allowed states. The focus is present only if the pattern
    /// narrows the class's focus states.
    pub cells: BTreeMap<Offset, States>,
    /// Orientations the pattern may be matched in (bit `t` = orientation `t`).
    pub allowed: u8,
    pub declared_symmetry: Option<(Symmetry, Span)>,
    /// ANDed tests (sorted cheapest first by the optimiser).
    pub tests: Vec<TestSpec>,
    pub result: Option<ResultSpec>,
    /// Filled by the optimiser: distinct orientations and what each one covers.
    pub orientations: Vec<u8>,
    pub covers: Vec<u8>,
    /// Where the pattern was written (its name), for diagnostics.
    pub file: FileId,
    pub span: Span,
}

impl Pattern {
    /// A pattern with no constraints in all orientations (glob headers start like this).
    pub fn empty(id: u32, source_order: u32, file: FileId, span: Span) -> Pattern {
        Pattern {
            id,
            source_order,
            priority: 0,
            cells: BTreeMap::new(),
            allowed: 0xff,
            declared_symmetry: None,
            tests: Vec::new(),
            result: None,
            orientations: Vec::new(),
            covers: Vec::new(),
            file,
            span,
        }
    }

    /// Allowed states at an offset (`ALL` = 15 when unconstrained).
    pub fn allowed_at(&self, at: Offset) -> States {
        self.cells.get(&at).copied().unwrap_or(15)
    }
}

/// A lens after lowering: fields in source order; the tree is built by the optimiser.
#[derive(Clone, Debug)]
pub struct Lens {
    pub lens_type: u32,
    pub name: String,
    pub endpoints: Vec<Offset>,
    pub fields: Vec<LensField>,
    pub tree: Vec<TreeNode>,
}

#[derive(Clone, Debug)]
pub struct LensField {
    pub states: BTreeMap<Offset, States>,
    pub tests: Vec<TestSpec>,
    pub result: ResultSpec,
}
