//! Resolve names and lower the AST to the IR, checking what needs semantics on the way:
//! contradictory or impossible point constraints, impossible edge layouts, a focus that
//! contradicts its class, unknown labels/names in tests, results and sequences, fields that do
//! not fit the class window. Every problem becomes a spanned diagnostic and lowering goes on,
//! so one run reports as many as possible.

use std::collections::BTreeMap;

use lens_dsl::ast::{self, ArgKind, Expr, PointRef, PointState, Span, Spanned, StateSet};
use lens_dsl::diagram::{self, Grid};
use lens_dsl::{Diagnostic, FileId};
use lens_vm::geometry::Orientation;
use lens_vm::spec::{
    BinOp, Colour, ExternArg, ExternSpec, JosekiBlobSpec, Mode, Offset, OrientPolicy, PatternDebug,
    ResultSpec, SeqNodeSpec, SequenceSpec, States, TestExpr, TestSpec,
};

use crate::ir;

type JMove = lens_joseki::Move;

/// Class options not written in the source take these values (documented in docs/compiler.md).
pub const DEFAULT_MODE: Mode = Mode::Best; // as docs/language.md specifies
pub const DEFAULT_FIELD: (u8, u8) = (5, 5);

/// Diagnostics only the compiler gives (the front end's checks do not cover them); when the
/// front end failed, only these are added to its report.
pub const SEMANTIC_ONLY: &[&str] = &[
    "lens::focus_contradicts_class",
    "lens::empty_states",
    "lens::on_board_beyond_edge",
    "lens::off_board_inside_edges",
    "lens::impossible_edges",
    "lens::result_off_board",
    "lens::extern_arity",
    "lens::too_many_endpoints",
    "lens::glob_depth",
    "lens::lens_reach",
];

/// Board sizes the VM supports; two drawn opposite edges must leave a board of this height.
const MIN_BOARD: i32 = 5;
const MAX_BOARD: i32 = 25;
/// Limits of the ROM format.
const MAX_EXTERN_ARGS: usize = lens_vm::rom::bytecode::MAX_ARGS;
const MAX_ENDPOINTS: usize = lens_vm::rom::MAX_ENDPOINTS;
const MAX_GLOB_DEPTH: usize = 16;
const MAX_LENS_REACH: i32 = 127;

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

fn focus_states(f: ast::FocusStatus) -> StateSet {
    match f {
        ast::FocusStatus::Empty => StateSet::EMPTY,
        ast::FocusStatus::Friend => StateSet::FRIEND,
        ast::FocusStatus::Foe => StateSet::FOE,
        ast::FocusStatus::Any => StateSet::ON_BOARD,
    }
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
                            "lens::extern_arity",
                            format!("extern `{}` takes {} arguments; at most {MAX_EXTERN_ARGS} are supported", e.name.node, e.params.len()),
                            file,
                            e.name.span,
                            "too many parameters",
                        );
                    } else if !self.externs.contains_key(&e.name.node) {
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
                    self.class(file, c);
                }
                _ => {}
            }
        }
    }

    fn class(&mut self, file: FileId, c: &ast::Class) {
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
                ast::ClassOption::Field(f) => {
                    let (w, h) = (f.node.width, f.node.height);
                    let max = lens_dsl::check::MAX_FIELD;
                    if w % 2 == 0 || h % 2 == 0 || w == 0 || h == 0 || w > max || h > max {
                        self.error(
                            "lens::bad_field",
                            format!("field {w}x{h} is not allowed: width and height must be odd, 1 to {max}"),
                            file,
                            f.span,
                            "field size",
                        );
                    } else {
                        field = (w, h);
                    }
                }
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
                "lens::missing_class",
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
                    "lens::unknown_class",
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
                "lens::glob_depth",
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
        let mut header = ir::Pattern::empty(id, order, file, g.name.span);
        let derived = g.header.is_none();
        if let Some(h) = &g.header {
            if let Some(p) = self.pattern_body(file, &g.name, &h.items, class, id, order, true) {
                header = p;
            }
        }
        let mut members = Vec::new();
        for m in &g.members {
            match m {
                ast::GlobMember::Pattern(p) => {
                    if let Some(c) = &p.class {
                        let own = self.resolve_class(file, Some(c), p.span);
                        if own.is_some() && own != Some(class) {
                            self.error(
                                "lens::glob_class_mismatch",
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
                "lens::empty_glob",
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
        self.pattern_body(file, &p.name, &p.items, class, id, order, false)
    }

    /// Lower a pattern's items (or a glob header's, with `header` set: no result allowed).
    #[allow(clippy::too_many_arguments)]
    fn pattern_body(
        &mut self,
        file: FileId,
        name: &ast::Ident,
        items: &[ast::PatternItem],
        class: usize,
        id: u32,
        order: u32,
        header: bool,
    ) -> Option<ir::Pattern> {
        let errors_before = self.diags.iter().filter(|d| d.is_error()).count();
        let info = self.class_info(class);
        let (class_focus, width, height, orient) =
            (info.focus, info.width, info.height, info.orient);
        let mut out = ir::Pattern::empty(id, order, file, name.span);
        out.allowed = policy_bits(orient);

        let mut diagram_item = None;
        let mut legend: Vec<ast::LegendEntry> = Vec::new();
        for item in items {
            match item {
                ast::PatternItem::Diagram(d) => {
                    if diagram_item.is_some() {
                        self.error(
                            "lens::double_diagram",
                            "a pattern has one diagram",
                            file,
                            d.span,
                            "second diagram",
                        );
                    } else {
                        diagram_item = Some(d);
                    }
                }
                ast::PatternItem::Legend(entries) => legend.extend(entries.iter().cloned()),
                ast::PatternItem::Priority(p) => out.priority = p.node,
                ast::PatternItem::Symmetry(s) => out.declared_symmetry = Some((s.node, s.span)),
                ast::PatternItem::Orientations(o) => {
                    let mut bits = 0u8;
                    for t in &o.node {
                        if *t >= 8 {
                            self.error(
                                "lens::bad_orientation",
                                format!("orientation {t} does not exist (0 to 7)"),
                                file,
                                o.span,
                                "here",
                            );
                        } else {
                            bits |= 1 << t;
                        }
                    }
                    if bits != 0 {
                        out.allowed = bits;
                    }
                }
                _ => {}
            }
        }

        let empty_labels = BTreeMap::new();
        let grid: Option<Grid> = match diagram_item {
            Some(d) => match diagram::analyse(d, &legend, class_focus, file) {
                Ok(g) => Some(g),
                Err(ds) => {
                    self.diags.extend(ds);
                    return None;
                }
            },
            None if header => None,
            None => {
                self.error(
                    "lens::missing_diagram",
                    format!("pattern `{}` has no diagram", name.node),
                    file,
                    name.span,
                    "needs `diagram { ... }`",
                );
                return None;
            }
        };
        if let Some(g) = &grid {
            self.cells(file, g, class_focus, &mut out);
            self.fit_window(file, name, &out, width, height);
        }
        let labels = grid.as_ref().map(|g| &g.labels).unwrap_or(&empty_labels);
        let frame = Frame::Labels(labels);

        // Sequences are local to the pattern; results refer to them by name.
        let mut sequences: BTreeMap<&str, u32> = BTreeMap::new();
        for item in items {
            if let ast::PatternItem::Sequence(s) = item {
                if let Some(spec) = self.sequence(file, s, &frame) {
                    sequences.insert(s.name.node.as_str(), self.ir.sequences.len() as u32);
                    self.ir.sequences.push(spec);
                }
            }
        }
        let mut result_seen = false;
        for item in items {
            match item {
                ast::PatternItem::Where(e) => {
                    for conjunct in split_and(e) {
                        if let Some(t) = self.test(file, conjunct, &frame) {
                            out.tests.push(t);
                        }
                    }
                }
                ast::PatternItem::Result(r) => {
                    if header {
                        self.error(
                            "lens::header_result",
                            "a glob header has no result",
                            file,
                            result_span(r),
                            "remove this",
                        );
                    } else if result_seen {
                        self.error(
                            "lens::double_result",
                            "a pattern has one result",
                            file,
                            result_span(r),
                            "second result",
                        );
                    } else {
                        result_seen = true;
                        out.result = self.result(file, r, &frame, &sequences, Some(&out));
                    }
                }
                _ => {}
            }
        }
        if !header && !result_seen {
            self.error(
                "lens::missing_result",
                format!("pattern `{}` has no result", name.node),
                file,
                name.span,
                "needs `=> ...;`",
            );
        }
        let errors_after = self.diags.iter().filter(|d| d.is_error()).count();
        (errors_after == errors_before).then_some(out)
    }

    /// Grid cells to constrained offsets, with the checks that need the class and the edges.
    fn cells(&mut self, file: FileId, g: &Grid, class_focus: StateSet, out: &mut ir::Pattern) {
        let (fx, fy) = (g.focus.0 as i32, g.focus.1 as i32);
        let north = g.edges.north.then_some(-fy);
        let south = g.edges.south.then_some(g.height as i32 - 1 - fy);
        let west = g.edges.west.then_some(-fx);
        let east = g.edges.east.then_some(g.width as i32 - 1 - fx);
        let whole = g.cells.first().map(|c| c.span).unwrap_or_default();
        let whole = g.cells.iter().fold(whole, |s, c| s.join(c.span));
        for (a, b, axis) in [
            (north, south, "north and south"),
            (west, east, "west and east"),
        ] {
            if let (Some(a), Some(b)) = (a, b) {
                let lines = b - a - 1;
                if !(MIN_BOARD..=MAX_BOARD).contains(&lines) {
                    self.error(
                        "lens::impossible_edges",
                        format!("the {axis} edges leave {lines} lines between them; boards have {MIN_BOARD} to {MAX_BOARD}"),
                        file,
                        whole,
                        "this diagram can never match",
                    );
                }
            }
        }
        for c in &g.cells {
            let (dx, dy) = (c.dx, c.dy);
            let mut allowed = c.states;
            if dx == 0 && dy == 0 {
                let narrowed = allowed.intersect(class_focus);
                if narrowed.is_empty() {
                    self.diags.push(
                        Diagnostic::error(
                            "lens::focus_contradicts_class",
                            format!(
                                "the focus allows {} but the class's focus is {}",
                                crate::optimise::order::states_text(allowed.0),
                                crate::optimise::order::states_text(class_focus.0)
                            ),
                            file,
                            c.span,
                            "this focus can never match",
                        )
                        .with_help("change the focus symbol's legend or the class's `focus`"),
                    );
                    continue;
                }
                if narrowed != class_focus {
                    out.cells.insert(Offset::FOCUS, narrowed.0);
                }
                continue;
            }
            if allowed.is_empty() {
                self.error(
                    "lens::empty_states",
                    format!(
                        "`{}` allows no state at all, so the pattern can never match",
                        c.symbol
                    ),
                    file,
                    c.span,
                    "no state allowed",
                );
                continue;
            }
            let beyond = north.is_some_and(|n| dy <= n)
                || south.is_some_and(|s| dy >= s)
                || west.is_some_and(|w| dx <= w)
                || east.is_some_and(|e| dx >= e);
            if beyond && !allowed.contains(PointState::Off) {
                self.error(
                    "lens::on_board_beyond_edge",
                    format!(
                        "`{}` must be on the board but lies on or beyond a drawn edge",
                        c.symbol
                    ),
                    file,
                    c.span,
                    "can never be on the board",
                );
                continue;
            }
            // Certainly on the board: between the focus and a drawn edge on both axes.
            let inside = |d: i32, lo: Option<i32>, hi: Option<i32>| {
                d == 0
                    || (d < 0 && lo.is_some_and(|l| d > l))
                    || (d > 0 && hi.is_some_and(|h| d < h))
            };
            if inside(dx, west, east) && inside(dy, north, south) && allowed == StateSet::OFF {
                self.error(
                    "lens::off_board_inside_edges",
                    format!(
                        "`{}` must be off the board but lies inside the drawn edges",
                        c.symbol
                    ),
                    file,
                    c.span,
                    "can never be off the board",
                );
                continue;
            }
            if allowed.0 & 15 != 15 {
                allowed = StateSet(allowed.0 & 15);
                out.cells
                    .insert(Offset::new(dx as i16, dy as i16), allowed.0);
            }
        }
    }

    /// Every orientation the pattern is tried in must fit the class's field window.
    fn fit_window(
        &mut self,
        file: FileId,
        name: &ast::Ident,
        p: &ir::Pattern,
        width: u8,
        height: u8,
    ) {
        let (hw, hh) = ((width / 2) as i32, (height / 2) as i32);
        for t in Orientation::ALL
            .into_iter()
            .filter(|t| p.allowed & (1 << t.index()) != 0)
        {
            let outside = p.cells.keys().find(|o| {
                let (x, y) = t.apply(o.dx as i32, o.dy as i32);
                x.abs() > hw || y.abs() > hh
            });
            if let Some(o) = outside {
                let (code, how) = if t.index() == 0 {
                    ("lens::outside_field", String::new())
                } else {
                    (
                        "lens::outside_field_rotated",
                        format!(" in orientation {}", t.index()),
                    )
                };
                self.diags.push(
                    Diagnostic::error(
                        code,
                        format!(
                            "pattern `{}` reaches ({}, {}) from the focus{how}, outside its class's {width}x{height} field",
                            name.node, o.dx, o.dy
                        ),
                        file,
                        name.span,
                        "does not fit",
                    )
                    .with_help("enlarge the class's `field`, or restrict `orientations`"),
                );
                return;
            }
        }
    }

    fn point(&mut self, file: FileId, p: &Spanned<PointRef>, frame: &Frame) -> Option<Offset> {
        match (&p.node, frame) {
            (PointRef::Focus, Frame::Labels(_)) => Some(Offset::FOCUS),
            (PointRef::Label(c), Frame::Labels(labels)) => match labels.get(c) {
                Some((dx, dy)) => Some(Offset::new(*dx as i16, *dy as i16)),
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            "lens::unknown_label",
                            format!("unknown label `{c}`"),
                            file,
                            p.span,
                            "not in the diagram",
                        )
                        .with_help("labels are letters drawn in the pattern's diagram"),
                    );
                    None
                }
            },
            (PointRef::Coord { col, row }, Frame::Coords { col0, row0 }) => {
                let (dx, dy) = (*col as i32 - col0, -(*row as i32 - row0));
                if dx.abs() > MAX_LENS_REACH || dy.abs() > MAX_LENS_REACH {
                    self.error(
                        "lens::lens_reach",
                        "this point is too far from the first endpoint",
                        file,
                        p.span,
                        "out of reach",
                    );
                    return None;
                }
                Some(Offset::new(dx as i16, dy as i16))
            }
            (PointRef::Coord { .. }, Frame::Labels(_)) => {
                self.error(
                    "lens::coord_in_pattern",
                    "frame coordinates are only used in lenses",
                    file,
                    p.span,
                    "use a diagram label",
                );
                None
            }
            (_, Frame::Coords { .. }) => {
                self.error(
                    "lens::label_in_lens",
                    "lens points are frame coordinates such as `d4`",
                    file,
                    p.span,
                    "not a coordinate",
                );
                None
            }
        }
    }

    fn sequence(&mut self, file: FileId, s: &ast::Sequence, frame: &Frame) -> Option<SequenceSpec> {
        let mut nodes = Vec::new();
        let ok = self.seq_line(file, &s.body, 0, frame, &mut nodes);
        ok.then_some(SequenceSpec { nodes })
    }

    /// A line of moves; a branch forks it and whatever follows the branch continues every
    /// alternative.
    fn seq_line(
        &mut self,
        file: FileId,
        line: &[ast::SeqNode],
        depth: u16,
        frame: &Frame,
        out: &mut Vec<SeqNodeSpec>,
    ) -> bool {
        let Some((first, rest)) = line.split_first() else {
            return true;
        };
        match first {
            ast::SeqNode::Move(p) => {
                let at = self.point(file, p, frame);
                out.push(SeqNodeSpec { at, depth });
                at.is_some() && self.seq_line(file, rest, depth + 1, frame, out)
            }
            ast::SeqNode::Pass(_) => {
                out.push(SeqNodeSpec { at: None, depth });
                self.seq_line(file, rest, depth + 1, frame, out)
            }
            ast::SeqNode::Branch { alternatives, .. } => {
                let mut ok = true;
                for alt in alternatives {
                    let joined: Vec<ast::SeqNode> =
                        alt.iter().chain(rest.iter()).cloned().collect();
                    ok &= self.seq_line(file, &joined, depth, frame, out);
                }
                ok
            }
        }
    }

    fn result(
        &mut self,
        file: FileId,
        r: &ast::ResultSpec,
        frame: &Frame,
        sequences: &BTreeMap<&str, u32>,
        pattern: Option<&ir::Pattern>,
    ) -> Option<ResultSpec> {
        match r {
            ast::ResultSpec::Move {
                point,
                value,
                bits,
                sequence,
                ..
            } => {
                let at = self.point(file, point, frame)?;
                self.check_move_point(file, point.span, at, pattern);
                let sequence = match sequence {
                    None => None,
                    Some(name) => match sequences.get(name.node.as_str()) {
                        Some(i) => Some(*i),
                        None => {
                            self.error(
                                "lens::unknown_sequence",
                                format!("unknown sequence `{}`", name.node),
                                file,
                                name.span,
                                "not declared in this pattern",
                            );
                            return None;
                        }
                    },
                };
                Some(ResultSpec::Move {
                    at,
                    value: value.node,
                    bits: bits.as_ref().map_or(0, |b| b.node),
                    sequence,
                })
            }
            ast::ResultSpec::Reject { point, .. } => {
                let at = self.point(file, point, frame)?;
                self.check_move_point(file, point.span, at, pattern);
                Some(ResultSpec::Reject { at })
            }
            ast::ResultSpec::Value { value, bits, .. } => Some(ResultSpec::Value {
                value: value.node,
                bits: bits.as_ref().map_or(0, |b| b.node),
            }),
        }
    }

    /// A suggested (or rejected) move must be able to be on the board. (A move on a point that
    /// always holds a stone is the front end's `lens::move_on_stone` warning.)
    fn check_move_point(
        &mut self,
        file: FileId,
        span: Span,
        at: Offset,
        pattern: Option<&ir::Pattern>,
    ) {
        let Some(p) = pattern else { return };
        if p.allowed_at(at) & 7 == 0 {
            self.error(
                "lens::result_off_board",
                "the result's point is always off the board",
                file,
                span,
                "no move possible here",
            );
        }
    }

    fn test(&mut self, file: FileId, e: &Expr, frame: &Frame) -> Option<TestSpec> {
        let (expr, cost) = self.expr(file, e, frame)?;
        Some(TestSpec { expr, cost })
    }

    /// An expression and its estimated cost (sum of the costs of the calls in it).
    fn expr(&mut self, file: FileId, e: &Expr, frame: &Frame) -> Option<(TestExpr, u32)> {
        Some(match e {
            Expr::Int(v) => (TestExpr::Int(self.int(file, v.node, v.span)?), 0),
            Expr::Bool(b) => (TestExpr::Int(b.node as i32), 0),
            Expr::Point(p) => {
                self.error(
                    "lens::point_as_value",
                    "a point is not a value",
                    file,
                    p.span,
                    "use it as a test's argument",
                );
                return None;
            }
            Expr::Color(c) => {
                self.error(
                    "lens::colour_as_value",
                    "a colour is not a value",
                    file,
                    c.span,
                    "use it as a test's argument",
                );
                return None;
            }
            Expr::Name(n) => {
                if let Some(g) = self.globals.get(&n.node) {
                    (TestExpr::Global(*g), 1)
                } else if let Some(x) = self.externs.get(&n.node).filter(|x| x.params.is_empty()) {
                    (
                        TestExpr::Extern {
                            index: x.index,
                            args: Vec::new(),
                        },
                        x.cost,
                    )
                } else {
                    self.error(
                        "lens::unknown_name",
                        format!("unknown name `{}`", n.node),
                        file,
                        n.span,
                        "not a global or extern",
                    );
                    return None;
                }
            }
            Expr::Call { name, args, span } => return self.call(file, name, args, *span, frame),
            Expr::Unary { op, expr, .. } => {
                let (x, c) = self.expr(file, expr, frame)?;
                let x = Box::new(x);
                (
                    if op.node == ast::UnOp::Not {
                        TestExpr::Not(x)
                    } else {
                        TestExpr::Neg(x)
                    },
                    c,
                )
            }
            Expr::Binary { op, lhs, rhs, .. } => {
                let l = self.expr(file, lhs, frame);
                let r = self.expr(file, rhs, frame);
                let ((a, ca), (b, cb)) = (l?, r?);
                let op = match op.node {
                    ast::BinOp::Or => BinOp::Or,
                    ast::BinOp::And => BinOp::And,
                    ast::BinOp::Eq => BinOp::Eq,
                    ast::BinOp::Ne => BinOp::Ne,
                    ast::BinOp::Lt => BinOp::Lt,
                    ast::BinOp::Le => BinOp::Le,
                    ast::BinOp::Gt => BinOp::Gt,
                    ast::BinOp::Ge => BinOp::Ge,
                    ast::BinOp::Add => BinOp::Add,
                    ast::BinOp::Sub => BinOp::Sub,
                };
                (
                    TestExpr::Bin(op, Box::new(a), Box::new(b)),
                    ca.saturating_add(cb),
                )
            }
        })
    }

    fn int(&mut self, file: FileId, v: i64, span: Span) -> Option<i32> {
        match i32::try_from(v) {
            Ok(v) => Some(v),
            Err(_) => {
                self.error(
                    "lens::int_range",
                    format!("{v} does not fit in 32 bits"),
                    file,
                    span,
                    "too large",
                );
                None
            }
        }
    }

    /// A constant integer argument (`count(a, empty, 2)`'s radius).
    fn const_int(&mut self, file: FileId, e: &Expr) -> Option<i32> {
        match e {
            Expr::Int(v) => self.int(file, v.node, v.span),
            Expr::Unary { op, expr, .. } if op.node == ast::UnOp::Neg => {
                self.const_int(file, expr).map(|v| -v)
            }
            other => {
                self.error(
                    "lens::not_constant",
                    "this argument must be an integer literal",
                    file,
                    other.span(),
                    "not a literal",
                );
                None
            }
        }
    }

    fn point_arg(&mut self, file: FileId, e: &Expr, frame: &Frame) -> Option<Offset> {
        match e {
            Expr::Point(p) => self.point(file, p, frame),
            other => {
                self.error(
                    "lens::expected_point",
                    "expected a point (`*`, a label or a coordinate)",
                    file,
                    other.span(),
                    "not a point",
                );
                None
            }
        }
    }

    fn state_arg(&mut self, file: FileId, e: &Expr) -> Option<PointState> {
        match e {
            Expr::Color(c) => Some(c.node),
            other => {
                self.error(
                    "lens::expected_colour",
                    "expected `friend`, `foe` or `empty`",
                    file,
                    other.span(),
                    "not a colour",
                );
                None
            }
        }
    }

    fn colour_arg(&mut self, file: FileId, e: &Expr) -> Option<Colour> {
        let s = self.state_arg(file, e)?;
        let c = colour_of(s);
        if c.is_none() {
            self.error(
                "lens::expected_colour",
                "expected `friend` or `foe`",
                file,
                e.span(),
                "not a stone colour",
            );
        }
        c
    }

    fn small(
        &mut self,
        file: FileId,
        e: &Expr,
        range: std::ops::RangeInclusive<i32>,
    ) -> Option<u8> {
        let v = self.const_int(file, e)?;
        if range.contains(&v) {
            Some(v as u8)
        } else {
            self.error(
                "lens::arg_range",
                format!("{v} is out of range ({} to {})", range.start(), range.end()),
                file,
                e.span(),
                "out of range",
            );
            None
        }
    }

    fn call(
        &mut self,
        file: FileId,
        name: &ast::Ident,
        args: &[Expr],
        span: Span,
        frame: &Frame,
    ) -> Option<(TestExpr, u32)> {
        if name.node == lens_dsl::builtins::TRUTH_VALUE && args.len() == 1 {
            // `int(c)`: comparisons, `&&`, `||` and `!` already give 1 or 0; anything else
            // (an extern condition, non-zero = true) is compared with 0.
            let (e, cost) = self.expr(file, &args[0], frame)?;
            let truth = match e {
                TestExpr::Not(_) => e,
                TestExpr::Bin(op, ..) if !matches!(op, BinOp::Add | BinOp::Sub) => e,
                other => TestExpr::Bin(BinOp::Ne, Box::new(other), Box::new(TestExpr::Int(0))),
            };
            return Some((truth, cost));
        }
        if let Some(b) = lens_dsl::builtins::lookup(&name.node) {
            if args.len() != b.params.len() {
                self.error(
                    "lens::arity",
                    format!(
                        "`{}` takes {} argument(s), not {}",
                        b.name,
                        b.params.len(),
                        args.len()
                    ),
                    file,
                    span,
                    "wrong number of arguments",
                );
                return None;
            }
            let p = self.point_arg(file, &args[0], frame)?;
            let expr = match b.name {
                "libs" => TestExpr::Libs(p),
                "line" => TestExpr::Line(p),
                "atari" => TestExpr::Atari(p),
                "nbr_atari" => TestExpr::NbrAtari(p, self.colour_arg(file, &args[1])?),
                "dist" => TestExpr::Dist(p, self.colour_arg(file, &args[1])?),
                "count" => {
                    let states = StateSet::of(self.state_arg(file, &args[1])?).0;
                    let radius = self.small(file, &args[2], 0..=9)?;
                    TestExpr::Count {
                        at: p,
                        states,
                        radius,
                    }
                }
                "any" => TestExpr::Any {
                    at: p,
                    stones: self.small(file, &args[1], 1..=3)?,
                },
                "adj" => TestExpr::Adj(p),
                "empty8" => TestExpr::Empty8(p),
                "empty25" => TestExpr::Empty25(p),
                "mark" => TestExpr::Mark(p),
                other => {
                    self.error(
                        "lens::builtin_unsupported",
                        format!("built-in `{other}` is not supported by this compiler"),
                        file,
                        name.span,
                        "unsupported",
                    );
                    return None;
                }
            };
            return Some((expr, b.cost));
        }
        let Some(x) = self.externs.get(&name.node) else {
            self.error(
                "lens::unknown_test",
                format!("unknown test `{}`", name.node),
                file,
                name.span,
                "not a built-in or extern",
            );
            return None;
        };
        let (index, params, cost) = (x.index, x.params.clone(), x.cost);
        if params.len() != args.len() {
            self.error(
                "lens::arity",
                format!(
                    "`{}` takes {} argument(s), not {}",
                    name.node,
                    params.len(),
                    args.len()
                ),
                file,
                span,
                "wrong number of arguments",
            );
            return None;
        }
        let mut out = Vec::new();
        for (kind, a) in params.iter().zip(args) {
            out.push(match kind {
                ArgKind::Point => ExternArg::Point(self.point_arg(file, a, frame)?),
                ArgKind::Int => ExternArg::Int(self.const_int(file, a)?),
                ArgKind::Color => ExternArg::Colour(self.colour_arg(file, a)?),
            });
        }
        Some((TestExpr::Extern { index, args: out }, cost))
    }

    /// A joseki block as a `lens-joseki` DAG (corner frame, colours alternating from black),
    /// encoded with the default (compact) encoding.
    fn joseki(&mut self, file: FileId, j: &ast::Joseki) -> Option<JosekiBlobSpec> {
        let mut lines = Vec::new();
        let ok = self.joseki_lines(file, &j.body, Vec::new(), &mut lines);
        if !ok {
            return None;
        }
        let mut tree = lens_joseki::Tree::new();
        for line in &lines {
            tree.add_line(line);
        }
        Some(JosekiBlobSpec {
            name: j.name.node.clone(),
            bytes: lens_joseki::encode(&tree, lens_joseki::Encoding::Compact),
        })
    }

    /// Expand the move tree into complete lines; moves after a branch continue every
    /// alternative (as in sequences).
    fn joseki_lines(
        &mut self,
        file: FileId,
        nodes: &[ast::JosekiNode],
        prefix: Vec<JMove>,
        out: &mut Vec<Vec<JMove>>,
    ) -> bool {
        let Some((first, rest)) = nodes.split_first() else {
            if !prefix.is_empty() {
                out.push(prefix);
            }
            return true;
        };
        let colour = if prefix.len() % 2 == 0 {
            lens_joseki::Rel::Same
        } else {
            lens_joseki::Rel::Opposite
        };
        let kind_of = |k: &Option<Spanned<ast::JosekiMoveType>>| match k.as_ref().map(|k| k.node) {
            None | Some(ast::JosekiMoveType::Normal) => lens_joseki::MoveType::Normal,
            Some(ast::JosekiMoveType::Urgent) => lens_joseki::MoveType::Urgent,
            Some(ast::JosekiMoveType::Complex) => lens_joseki::MoveType::Complex,
            Some(ast::JosekiMoveType::Trick) => lens_joseki::MoveType::Trick,
            Some(ast::JosekiMoveType::Bad) => lens_joseki::MoveType::Bad,
            Some(ast::JosekiMoveType::Ignore) => lens_joseki::MoveType::Ignore,
        };
        match first {
            ast::JosekiNode::Move { point, kind, .. } => {
                let at = match point.node {
                    PointRef::Coord { col, row }
                        if (1..=19).contains(&col) && (1..=19).contains(&row) =>
                    {
                        lens_joseki::Point::at(col, row)
                    }
                    _ => {
                        self.error(
                            "lens::joseki_point",
                            "joseki moves are corner-frame coordinates from a1 to s19",
                            file,
                            point.span,
                            "not a corner-frame point",
                        );
                        return false;
                    }
                };
                let mut line = prefix;
                line.push(lens_joseki::Move::new(at, colour).with_kind(kind_of(kind)));
                self.joseki_lines(file, rest, line, out)
            }
            ast::JosekiNode::Tenuki { kind, .. } => {
                let mut line = prefix;
                line.push(
                    lens_joseki::Move::new(lens_joseki::Point::Pass, colour)
                        .with_kind(kind_of(kind)),
                );
                self.joseki_lines(file, rest, line, out)
            }
            ast::JosekiNode::Branch { alternatives, .. } => {
                let mut ok = true;
                for alt in alternatives {
                    let joined: Vec<ast::JosekiNode> =
                        alt.iter().chain(rest.iter()).cloned().collect();
                    ok &= self.joseki_lines(file, &joined, prefix.clone(), out);
                }
                ok
            }
        }
    }

    fn lens(&mut self, file: FileId, l: &ast::Lens) -> Option<ir::Lens> {
        let errors_before = self.diags.iter().filter(|d| d.is_error()).count();
        let Some(first) = l.endpoints.first() else {
            self.error(
                "lens::no_endpoints",
                format!("lens `{}` has no endpoints", l.name.node),
                file,
                l.name.span,
                "needs endpoints",
            );
            return None;
        };
        let PointRef::Coord { col, row } = first.node else {
            self.error(
                "lens::label_in_lens",
                "lens endpoints are frame coordinates such as `d3`",
                file,
                first.span,
                "not a coordinate",
            );
            return None;
        };
        if l.endpoints.len() > MAX_ENDPOINTS {
            self.error(
                "lens::too_many_endpoints",
                format!(
                    "lens `{}` has {} endpoints; at most {MAX_ENDPOINTS} are supported",
                    l.name.node,
                    l.endpoints.len()
                ),
                file,
                l.endpoints[MAX_ENDPOINTS].span,
                "one too many",
            );
        }
        let frame = Frame::Coords {
            col0: col as i32,
            row0: row as i32,
        };
        let endpoints: Vec<Offset> = l
            .endpoints
            .iter()
            .filter_map(|p| self.point(file, p, &frame))
            .collect();
        let mut fields = Vec::new();
        for f in &l.fields {
            let mut states: BTreeMap<Offset, States> = BTreeMap::new();
            let mut tests = Vec::new();
            for item in &f.items {
                match item {
                    ast::FieldItem::State {
                        point,
                        states: s,
                        span,
                    } => {
                        let Some(at) = self.point(file, point, &frame) else {
                            continue;
                        };
                        let merged = states.get(&at).copied().unwrap_or(15) & s.node.0;
                        if merged & 15 == 0 {
                            self.error(
                                "lens::contradiction",
                                "this point's constraints contradict each other, so the field can never match",
                                file,
                                *span,
                                "no state allowed",
                            );
                        }
                        states.insert(at, merged & 15);
                    }
                    ast::FieldItem::Test(e) => {
                        for conjunct in split_and(e) {
                            if let Some(t) = self.test(file, conjunct, &frame) {
                                tests.push(t);
                            }
                        }
                    }
                }
            }
            states.retain(|_, s| *s != 15);
            if let Some(result) = self.result(file, &f.result, &frame, &BTreeMap::new(), None) {
                fields.push(ir::LensField {
                    states,
                    tests,
                    result,
                });
            }
        }
        let errors_after = self.diags.iter().filter(|d| d.is_error()).count();
        (errors_after == errors_before).then(|| ir::Lens {
            lens_type: l.lens_type.node,
            name: l.name.node.clone(),
            endpoints,
            fields,
            tree: Vec::new(),
        })
    }
}

/// `a && b && c` as separate tests, so each can be ordered by its own cost.
fn split_and(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Binary { op, lhs, rhs, .. } if op.node == ast::BinOp::And => {
            let mut v = split_and(lhs);
            v.extend(split_and(rhs));
            v
        }
        other => vec![other],
    }
}

fn result_span(r: &ast::ResultSpec) -> Span {
    match r {
        ast::ResultSpec::Move { span, .. }
        | ast::ResultSpec::Reject { span, .. }
        | ast::ResultSpec::Value { span, .. } => *span,
    }
}
