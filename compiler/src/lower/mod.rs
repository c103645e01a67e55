//! Resolve names and lower the AST to the IR, checking what needs semantics on the way:
//! contradictory or impossible point constraints, impossible edge layouts, a focus that
//! contradicts its class, unknown labels/names in tests, results and sequences, fields that do
//! not fit the class window. Every problem becomes a spanned diagnostic and lowering goes on,
//! so one run reports as many as possible.

use std::collections::BTreeMap;

use lens_dsl::ast::{self, ArgKind, PointState, Span, StateSet};
use lens_dsl::check::focus_states;
use lens_dsl::{Diagnostic, FileId};
use lens_vm::spec::{Colour, ExternSpec, Mode, OrientPolicy, PatternDebug};

use crate::codes;
use crate::ir;

mod expr;
mod joseki;
mod lens;
mod pattern;
mod results;
#[cfg(test)]
mod tests;

use expr::split_and;
use pattern::Body;

type JMove = lens_joseki::Move;

/// Class options not written in the source take these values (documented in docs/compiler.md).
pub const DEFAULT_MODE: Mode = Mode::Best; // as docs/language.md specifies
pub const DEFAULT_FIELD: (u8, u8) = (
    lens_dsl::check::DEFAULT_FIELD.width,
    lens_dsl::check::DEFAULT_FIELD.height,
);

/// Board sizes the VM supports; two drawn opposite edges must leave a board of this height.
const MIN_BOARD: i32 = lens_vm::board::MIN_SIZE as i32;
const MAX_BOARD: i32 = lens_vm::board::MAX_SIZE as i32;
/// Limits of the ROM format (each defined once, in lens-vm).
const MAX_EXTERN_ARGS: usize = lens_vm::rom::MAX_ARGS;
const MAX_ENDPOINTS: usize = lens_vm::rom::MAX_ENDPOINTS;
const MAX_GLOB_DEPTH: usize = lens_vm::rom::MAX_GLOB_DEPTH;
const MAX_STACK: usize = lens_vm::rom::MAX_STACK;
/// A lens point is stored as an offset from the first endpoint, like a pattern cell.
const MAX_LENS_REACH: i32 = lens_vm::rom::MAX_OFFSET;

struct ClassInfo {
    index: usize,
    focus: StateSet,
    width: u8,
    height: u8,
    orient: OrientPolicy,
}

struct ExternInfo {
    index: u16,
    params: Vec<ArgKind>,
    cost: u32,
}

/// How points in expressions resolve: diagram labels (patterns) or frame coordinates (lenses).
enum Frame<'g> {
    Labels(&'g BTreeMap<char, (i32, i32)>),
    Coords { col0: i32, row0: i32 },
}

pub struct Lowerer<'p> {
    program: &'p lens_dsl::Program,
    pub diags: Vec<Diagnostic>,
    classes: BTreeMap<String, ClassInfo>,
    globals: BTreeMap<String, u16>,
    externs: BTreeMap<String, ExternInfo>,
    next_order: u32,
    pub ir: ir::Program,
}

/// Lower a program that passed the front-end checks. Errors and warnings come back together.
pub fn lower(program: &lens_dsl::Program) -> (ir::Program, Vec<Diagnostic>) {
    let mut l = Lowerer {
        program,
        diags: Vec::new(),
        classes: BTreeMap::new(),
        globals: BTreeMap::new(),
        externs: BTreeMap::new(),
        next_order: 0,
        ir: ir::Program::default(),
    };
    l.ir.files = program
        .sources
        .files
        .iter()
        .map(|f| f.name.clone())
        .collect();
    l.declarations();
    l.bodies();
    (l.ir, l.diags)
}

fn policy_bits(p: OrientPolicy) -> u8 {
    match p {
        OrientPolicy::Identity => 1,
        OrientPolicy::All | OrientPolicy::Up => 0xff,
    }
}

fn colour_of(s: PointState) -> Option<Colour> {
    match s {
        PointState::Friend => Some(Colour::Friend),
        PointState::Foe => Some(Colour::Foe),
        _ => None,
    }
}

impl<'p> Lowerer<'p> {
    fn error(
        &mut self,
        code: &'static str,
        msg: impl Into<String>,
        file: FileId,
        span: Span,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, msg, file, span, label));
    }

    fn error_count(&self) -> usize {
        self.diags.iter().filter(|d| d.is_error()).count()
    }

    fn items(&self) -> impl Iterator<Item = (FileId, &'p ast::Item)> + 'p {
        self.program
            .files
            .iter()
            .flat_map(|(id, f)| f.items.iter().map(move |i| (*id, i)))
    }

    /// Classes, globals and externs first: patterns may use names declared later or elsewhere.
    fn declarations(&mut self) {
        for (file, item) in self.items() {
            match item {
                ast::Item::Global(g) if !self.globals.contains_key(&g.name.node) => {
                    self.globals
                        .insert(g.name.node.clone(), self.ir.globals.len() as u16);
                    self.ir.globals.push(g.name.node.clone());
                }
                ast::Item::Extern(e) => {
                    if e.params.len() > MAX_EXTERN_ARGS {
                        self.error(
                            codes::EXTERN_ARITY,
                            format!("extern `{}` takes {} arguments; at most {MAX_EXTERN_ARGS} are supported", e.name.node, e.params.len()),
                            file,
                            e.name.span,
                            "too many parameters",
                        );
                    }
                    // Declared even when it has too many parameters: its uses are then not
                    // reported again as unknown (no image is written after an error).
                    if !self.externs.contains_key(&e.name.node) {
                        let index = self.ir.externs.len() as u16;
                        let params: Vec<ArgKind> = e.params.iter().map(|p| p.node).collect();
                        self.ir.externs.push(ExternSpec {
                            name: e.name.node.clone(),
                            arity: params.len() as u8,
                            cost: e.cost.node,
                        });
                        self.externs.insert(
                            e.name.node.clone(),
                            ExternInfo {
                                index,
                                params,
                                cost: e.cost.node,
                            },
                        );
                    }
                }
                ast::Item::Class(c) if !self.classes.contains_key(&c.name.node) => {
                    self.class(c);
                }
                _ => {}
            }
        }
    }

    fn class(&mut self, c: &ast::Class) {
        let (mut mode, mut focus, mut field, mut orient, mut default_value) = (
            DEFAULT_MODE,
            ast::FocusStatus::Empty,
            DEFAULT_FIELD,
            OrientPolicy::All,
            None,
        );
        for o in &c.options {
            match o {
                ast::ClassOption::Mode(m) => {
                    mode = match m.node {
                        ast::MatchMode::Best => Mode::Best,
                        ast::MatchMode::All => Mode::All,
                        ast::MatchMode::First => Mode::First,
                    }
                }
                ast::ClassOption::Focus(f) => focus = f.node,
                // A bad size is the front end's error (`lens::bad_field_size`); keep the default.
                ast::ClassOption::Field(f) if lens_dsl::check::field_fits(f.node) => {
                    field = (f.node.width, f.node.height)
                }
                ast::ClassOption::Field(_) => {}
                ast::ClassOption::Orient(p) => {
                    orient = match p.node {
                        ast::OrientPolicy::All => OrientPolicy::All,
                        ast::OrientPolicy::Up => OrientPolicy::Up,
                        ast::OrientPolicy::Identity => OrientPolicy::Identity,
                    }
                }
                ast::ClassOption::Default(d) => default_value = Some(d.node),
            }
        }
        let index = self.ir.classes.len();
        let states = focus_states(focus);
        self.ir.classes.push(ir::Class {
            name: c.name.node.clone(),
            mode,
            focus: states.0,
            width: field.0,
            height: field.1,
            orient,
            default_value,
            nodes: Vec::new(),
        });
        self.classes.insert(
            c.name.node.clone(),
            ClassInfo {
                index,
                focus: states,
                width: field.0,
                height: field.1,
                orient,
            },
        );
    }

    fn bodies(&mut self) {
        for (file, item) in self.items() {
            match item {
                ast::Item::Pattern(p) => {
                    let Some(class) = self.resolve_class(file, p.class.as_ref(), p.span) else {
                        continue;
                    };
                    if let Some(node) = self.pattern(file, p, class) {
                        self.ir.classes[class].nodes.push(ir::Node::Pattern(node));
                    }
                }
                ast::Item::Glob(g) => {
                    let Some(class) = self.resolve_class(file, g.class.as_ref(), g.span) else {
                        continue;
                    };
                    let glob = self.glob(file, g, class, 1);
                    self.ir.classes[class].nodes.push(ir::Node::Glob(glob));
                }
                ast::Item::Lens(l) => {
                    if let Some(lens) = self.lens(file, l) {
                        self.ir.lenses.push(lens);
                    }
                }
                ast::Item::Joseki(j) => {
                    if let Some(blob) = self.joseki(file, j) {
                        self.ir.joseki.push(blob);
                    }
                }
                _ => {}
            }
        }
    }

    fn resolve_class(
        &mut self,
        file: FileId,
        name: Option<&ast::Ident>,
        span: Span,
    ) -> Option<usize> {
        let Some(name) = name else {
            self.error(
                codes::MISSING_CLASS,
                "no class given",
                file,
                span,
                "needs `: CLASS`",
            );
            return None;
        };
        match self.classes.get(&name.node) {
            Some(c) => Some(c.index),
            None => {
                self.error(
                    codes::UNKNOWN_CLASS,
                    format!("unknown class `{}`", name.node),
                    file,
                    name.span,
                    "not declared",
                );
                None
            }
        }
    }

    fn class_info(&self, index: usize) -> &ClassInfo {
        self.classes
            .values()
            .find(|c| c.index == index)
            .expect("class index")
    }

    fn new_id(
        &mut self,
        name: &str,
        file: FileId,
        span: Span,
        attrs: Vec<(String, String)>,
    ) -> (u32, u32) {
        let id = self.ir.debug.len() as u32;
        self.ir.debug.push(PatternDebug {
            name: name.to_string(),
            file,
            start: span.start as u32,
            end: span.end as u32,
            attrs,
        });
        let order = self.next_order;
        self.next_order += 1;
        (id, order)
    }

    fn glob(&mut self, file: FileId, g: &ast::Glob, class: usize, depth: usize) -> ir::Glob {
        if depth == MAX_GLOB_DEPTH + 1 {
            self.error(
                codes::GLOB_DEPTH,
                format!("globs are nested more than {MAX_GLOB_DEPTH} deep"),
                file,
                g.name.span,
                "too deep",
            );
        }
        let header_span = g.header.as_ref().map(|h| h.span).unwrap_or(g.name.span);
        let (id, order) = self.new_id(
            &format!("{}.header", g.name.node),
            file,
            header_span,
            Vec::new(),
        );
        let empty = ir::Pattern::empty(id, order, file, g.name.span);
        let derived = g.header.is_none();
        let header = match &g.header {
            Some(h) => {
                let body = Body {
                    file,
                    name: &g.name,
                    items: &h.items,
                    class,
                    header: true,
                };
                self.pattern_body(&body, empty.clone()).unwrap_or(empty)
            }
            None => empty,
        };
        let mut members = Vec::new();
        for m in &g.members {
            match m {
                ast::GlobMember::Pattern(p) => {
                    if let Some(c) = &p.class {
                        let own = self.resolve_class(file, Some(c), p.span);
                        if own.is_some() && own != Some(class) {
                            self.error(
                                codes::GLOB_CLASS_MISMATCH,
                                format!(
                                    "pattern `{}` names a class other than its glob's",
                                    p.name.node
                                ),
                                file,
                                c.span,
                                "glob members take the glob's class",
                            );
                        }
                    }
                    if let Some(node) = self.pattern(file, p, class) {
                        members.push(ir::Node::Pattern(node));
                    }
                }
                ast::GlobMember::Glob(inner) => {
                    members.push(ir::Node::Glob(self.glob(file, inner, class, depth + 1)))
                }
            }
        }
        if members.is_empty() {
            self.diags.push(Diagnostic::warning(
                codes::EMPTY_GLOB,
                format!("glob `{}` has no patterns", g.name.node),
                file,
                g.name.span,
                "empty",
            ));
        }
        ir::Glob {
            name: g.name.node.clone(),
            header,
            derived,
            members,
        }
    }

    fn pattern(&mut self, file: FileId, p: &ast::Pattern, class: usize) -> Option<ir::Pattern> {
        let attrs = p
            .items
            .iter()
            .filter_map(|i| match i {
                ast::PatternItem::Attr { key, value, .. } => Some((
                    key.node.clone(),
                    match &value.node {
                        ast::AttrValue::Int(v) => v.to_string(),
                        ast::AttrValue::Float(v) => v.to_string(),
                        ast::AttrValue::Str(s) => s.clone(),
                    },
                )),
                _ => None,
            })
            .collect();
        let (id, order) = self.new_id(&p.name.node, file, p.span, attrs);
        let body = Body {
            file,
            name: &p.name,
            items: &p.items,
            class,
            header: false,
        };
        self.pattern_body(&body, ir::Pattern::empty(id, order, file, p.name.span))
    }
}
