//! Front-end checks that need no compilation: names across files, class options, pattern
//! structure, diagrams (via [`crate::diagram::analyse`]), labels, tests (arity, argument kinds,
//! types), lenses and joseki coordinates. Every problem is a spanned [`Diagnostic`] with a
//! stable code (listed in [`codes`] and in docs/language.md).

mod expr;

use crate::Program;
use crate::ast::*;
use crate::diagnostics::Diagnostic;
use crate::diagram::{self, Grid};
use crate::source::FileId;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// Stable diagnostic codes of the checker (the parser's and loader's are in their modules).
pub mod codes {
    pub const DUPLICATE_NAME: &str = "lens::duplicate_name";
    pub const BAD_NAME: &str = "lens::bad_name";
    pub const UNKNOWN_CLASS: &str = "lens::unknown_class";
    pub const MISSING_CLASS: &str = "lens::missing_class";
    pub const CLASS_MISMATCH: &str = "lens::class_mismatch";
    pub const DUPLICATE_OPTION: &str = "lens::duplicate_option";
    pub const BAD_FIELD_SIZE: &str = "lens::bad_field_size";
    pub const MISSING_DIAGRAM: &str = "lens::missing_diagram";
    pub const MISSING_RESULT: &str = "lens::missing_result";
    pub const DUPLICATE_ITEM: &str = "lens::duplicate_item";
    pub const HEADER_RESULT: &str = "lens::header_result";
    pub const EXCEEDS_FIELD: &str = "lens::exceeds_field";
    pub const UNDEFINED_LABEL: &str = "lens::undefined_label";
    pub const UNUSED_LEGEND: &str = "lens::unused_legend";
    pub const COORD_IN_PATTERN: &str = "lens::coord_in_pattern";
    pub const COORD_EXPECTED: &str = "lens::coord_expected";
    pub const BAD_COORDINATE: &str = "lens::bad_coordinate";
    pub const UNKNOWN_NAME: &str = "lens::unknown_name";
    pub const UNKNOWN_FUNCTION: &str = "lens::unknown_function";
    pub const WRONG_ARITY: &str = "lens::wrong_arity";
    pub const WRONG_ARGUMENT: &str = "lens::wrong_argument_kind";
    pub const TYPE_MISMATCH: &str = "lens::type_mismatch";
    pub const UNKNOWN_SEQUENCE: &str = "lens::unknown_sequence";
    pub const MOVE_ON_STONE: &str = "lens::move_on_stone";
    pub const DUPLICATE_ORIENTATION: &str = "lens::duplicate_orientation";
    pub const DUPLICATE_FIELD_POINT: &str = "lens::duplicate_field_point";
    pub const EMPTY_LENS: &str = "lens::empty_lens";
    pub const ZERO_COST: &str = "lens::zero_cost";
    pub const WRONG_SYMMETRY: &str = "lens::wrong_symmetry";
}

/// Where point references are resolved.
pub enum PointScope<'g> {
    /// A pattern: labels of its diagram (`None` when the diagram had errors: no follow-up errors).
    Pattern(Option<&'g BTreeMap<char, (i32, i32)>>),
    /// A lens: frame coordinates only.
    Lens,
}

pub(crate) struct Ctx<'p> {
    pub file: FileId,
    pub diags: Vec<Diagnostic>,
    pub globals: BTreeMap<&'p str, (FileId, Span)>,
    pub externs: BTreeMap<&'p str, &'p Extern>,
    pub classes: BTreeMap<&'p str, &'p Class>,
}

impl<'p> Ctx<'p> {
    pub fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Validates a point reference; `false` if it was reported.
    pub fn check_point(&mut self, p: &Spanned<PointRef>, scope: &PointScope) -> bool {
        match (&p.node, scope) {
            (PointRef::Focus, PointScope::Pattern(_)) => true,
            (PointRef::Label(c), PointScope::Pattern(labels)) => match labels {
                None => true,
                Some(l) if l.contains_key(c) => true,
                Some(l) => {
                    let known: Vec<String> = std::iter::once("*".to_string())
                        .chain(l.keys().map(|c| c.to_string()))
                        .collect();
                    self.err(
                        Diagnostic::error(
                            codes::UNDEFINED_LABEL,
                            format!("label `{c}` is not defined"),
                            self.file,
                            p.span,
                            "not drawn (exactly once) in the diagram",
                        )
                        .with_help(format!("points of this diagram: {}", known.join(" "))),
                    );
                    false
                }
            },
            (PointRef::Coord { .. }, PointScope::Pattern(_)) => {
                self.err(
                    Diagnostic::error(codes::COORD_IN_PATTERN, "coordinates are only used in lenses and joseki", self.file, p.span, "a coordinate")
                        .with_help("in a pattern, name points with one-letter labels drawn in the diagram, or `*`"),
                );
                false
            }
            (PointRef::Coord { .. }, PointScope::Lens) => true,
            (_, PointScope::Lens) => {
                self.err(
                    Diagnostic::error(codes::COORD_EXPECTED, "lens points are frame coordinates", self.file, p.span, "expected a coordinate such as `d4`")
                        .with_help("a lens has no diagram: name each point by its coordinate in the frame of the endpoints"),
                );
                false
            }
        }
    }
}

/// (class, pattern name) -> first declaration.
type PatternNames<'p> = HashMap<(&'p str, &'p str), Decl>;

struct Decl {
    kind: &'static str,
    file: FileId,
    span: Span,
}

fn duplicate(kind: &str, name: &str, file: FileId, span: Span, first: &Decl) -> Diagnostic {
    Diagnostic::error(
        codes::DUPLICATE_NAME,
        format!("{kind} `{name}` is defined more than once"),
        file,
        span,
        "defined again here",
    )
    .with_label(
        first.file,
        first.span,
        format!("first defined here (as {})", first.kind),
    )
}

/// Runs every front-end check on a loaded program.
pub fn check(program: &Program) -> Vec<Diagnostic> {
    let mut cx = Ctx {
        file: 0,
        diags: Vec::new(),
        globals: BTreeMap::new(),
        externs: BTreeMap::new(),
        classes: BTreeMap::new(),
    };
    // Pass 1: declarations. Globals and externs share one namespace (both appear as names in tests).
    let mut values: BTreeMap<&str, Decl> = BTreeMap::new();
    let mut classes: BTreeMap<&str, Decl> = BTreeMap::new();
    let mut toplevel: BTreeMap<(&str, &str), Decl> = BTreeMap::new(); // (namespace, name)
    for (file, ast) in &program.files {
        cx.file = *file;
        for item in &ast.items {
            match item {
                Item::Global(g) => {
                    check_value_name(&mut cx, &g.name);
                    if let Some(first) = values.get(g.name.node.as_str()) {
                        cx.err(duplicate("global", &g.name.node, *file, g.name.span, first));
                    } else {
                        values.insert(
                            &g.name.node,
                            Decl {
                                kind: "global",
                                file: *file,
                                span: g.name.span,
                            },
                        );
                        cx.globals.insert(&g.name.node, (*file, g.name.span));
                    }
                }
                Item::Extern(e) => {
                    check_value_name(&mut cx, &e.name);
                    if let Some(first) = values.get(e.name.node.as_str()) {
                        cx.err(duplicate("extern", &e.name.node, *file, e.name.span, first));
                    } else {
                        values.insert(
                            &e.name.node,
                            Decl {
                                kind: "extern",
                                file: *file,
                                span: e.name.span,
                            },
                        );
                        cx.externs.insert(&e.name.node, e);
                    }
                }
                Item::Class(c) => {
                    if let Some(first) = classes.get(c.name.node.as_str()) {
                        cx.err(duplicate("class", &c.name.node, *file, c.name.span, first));
                    } else {
                        classes.insert(
                            &c.name.node,
                            Decl {
                                kind: "class",
                                file: *file,
                                span: c.name.span,
                            },
                        );
                        cx.classes.insert(&c.name.node, c);
                    }
                }
                Item::Glob(g) => declare(&mut cx, &mut toplevel, "glob", &g.name, *file),
                Item::Lens(l) => declare(&mut cx, &mut toplevel, "lens", &l.name, *file),
                Item::Joseki(j) => declare(&mut cx, &mut toplevel, "joseki", &j.name, *file),
                Item::Include(_) | Item::Pattern(_) => {}
            }
        }
    }
    // Pass 2: bodies. Pattern names are unique per class (glob members included).
    // A hash map: one lookup per pattern of a large library, and it is never iterated (so
    // diagnostics keep their order).
    let mut patterns: PatternNames = HashMap::new();
    for (file, ast) in &program.files {
        cx.file = *file;
        for item in &ast.items {
            match item {
                Item::Class(c) => check_class(&mut cx, c),
                Item::Pattern(p) => {
                    let class = match &p.class {
                        Some(c) => resolve_class(&mut cx, c),
                        None => {
                            cx.err(
                                Diagnostic::error(codes::MISSING_CLASS, format!("pattern `{}` has no class", p.name.node), *file, p.name.span, "needs `: CLASS`")
                                    .with_help("write `pattern NAME : CLASS { ... }` (only patterns inside a glob omit the class)"),
                            );
                            None
                        }
                    };
                    check_pattern(&mut cx, p, class, &mut patterns);
                }
                Item::Glob(g) => {
                    let class = match &g.class {
                        Some(c) => resolve_class(&mut cx, c),
                        None => {
                            cx.err(
                                Diagnostic::error(codes::MISSING_CLASS, format!("glob `{}` has no class", g.name.node), *file, g.name.span, "needs `: CLASS`")
                                    .with_help("the outermost glob names the class of all its members: `glob NAME : CLASS { ... }`"),
                            );
                            None
                        }
                    };
                    check_glob(&mut cx, g, class, &mut patterns, &mut toplevel);
                }
                Item::Lens(l) => check_lens(&mut cx, l),
                Item::Joseki(j) => check_joseki_nodes(&mut cx, &j.body),
                Item::Extern(e) => {
                    if e.cost.node == 0 {
                        cx.err(Diagnostic::warning(codes::ZERO_COST, "extern with cost 0", *file, e.cost.span, "cost 0 is cheaper than every built-in").with_help("costs order tests: give engine calls a realistic relative cost (built-ins cost 1..8)"));
                    }
                }
                Item::Include(_) | Item::Global(_) => {}
            }
        }
    }
    let mut diags = cx.diags;
    diags.sort_by_key(|d| {
        d.labels
            .first()
            .map(|l| (l.file, l.span.start, l.span.end))
            .unwrap_or_default()
    });
    diags
}

fn declare<'p>(
    cx: &mut Ctx<'p>,
    table: &mut BTreeMap<(&'p str, &'p str), Decl>,
    kind: &'static str,
    name: &'p Ident,
    file: FileId,
) {
    let ns = if kind == "lens" { "lens" } else { "group" };
    let ns = if kind == "joseki" { "joseki" } else { ns };
    if let Some(first) = table.get(&(ns, name.node.as_str())) {
        cx.err(duplicate(kind, &name.node, file, name.span, first));
    } else {
        table.insert(
            (ns, &name.node),
            Decl {
                kind,
                file,
                span: name.span,
            },
        );
    }
}

/// Globals and externs are referred to by bare names in tests, so they must not look like points.
fn check_value_name(cx: &mut Ctx, name: &Ident) {
    let why = if name.node.chars().count() < 2 {
        Some("one-character names are diagram labels")
    } else if crate::parser::support::coord(&name.node).is_some() {
        Some("a letter followed by digits is a lens coordinate")
    } else if crate::builtins::lookup(&name.node).is_some()
        || name.node == crate::builtins::TRUTH_VALUE
    {
        Some("this is the name of a built-in test")
    } else {
        None
    };
    if let Some(why) = why {
        cx.err(Diagnostic::error(
            codes::BAD_NAME,
            format!("`{}` cannot name a global or an extern", name.node),
            cx.file,
            name.span,
            why,
        ));
    }
}

fn resolve_class<'p>(cx: &mut Ctx<'p>, name: &Ident) -> Option<&'p Class> {
    let found = cx.classes.get(name.node.as_str()).copied();
    if found.is_none() {
        let known: Vec<&str> = cx.classes.keys().copied().collect();
        let help = if known.is_empty() {
            "no class is declared: add `class NAME { ... }`".to_string()
        } else {
            crate::diagnostics::with_suggestion(
                &name.node,
                known.iter().copied(),
                format!("declared classes: {}", known.join(", ")),
            )
        };
        cx.err(
            Diagnostic::error(
                codes::UNKNOWN_CLASS,
                format!("unknown class `{}`", name.node),
                cx.file,
                name.span,
                "no such class",
            )
            .with_help(help),
        );
    }
    found
}

/// What the checker needs from a class (defaults when an option is absent; see docs).
struct ClassInfo<'p> {
    name: &'p str,
    focus: StateSet,
    field: FieldSize,
    rotates: bool,
}

pub const DEFAULT_FIELD: FieldSize = FieldSize {
    width: 5,
    height: 5,
};
/// The largest field side: the ROM format's limit, so `check` refuses what `compile` would.
pub const MAX_FIELD: u8 = lens_vm::rom::MAX_FIELD as u8;

/// Whether a class may have this field: both sides odd (the focus is the middle point), at
/// most [`MAX_FIELD`]. Lowering keeps the default field where this is false.
pub fn field_fits(f: FieldSize) -> bool {
    let ok = |side: u8| side % 2 == 1 && side <= MAX_FIELD;
    ok(f.width) && ok(f.height)
}

fn class_info(c: &Class) -> ClassInfo<'_> {
    let mut info = ClassInfo {
        name: &c.name.node,
        focus: StateSet::EMPTY,
        field: DEFAULT_FIELD,
        rotates: true,
    };
    for o in &c.options {
        match o {
            ClassOption::Focus(f) => info.focus = focus_states(f.node),
            ClassOption::Field(f) => info.field = f.node,
            ClassOption::Orient(o) => info.rotates = o.node != OrientPolicy::Identity,
            _ => {}
        }
    }
    info
}

/// The states the focus `*` allows under a class's `focus` option.
pub fn focus_states(f: FocusStatus) -> StateSet {
    match f {
        FocusStatus::Empty => StateSet::EMPTY,
        FocusStatus::Friend => StateSet::FRIEND,
        FocusStatus::Foe => StateSet::FOE,
        FocusStatus::Any => StateSet::ON_BOARD,
    }
}

fn check_class(cx: &mut Ctx, c: &Class) {
    let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
    for o in &c.options {
        let (key, span) = match o {
            ClassOption::Mode(m) => ("mode", m.span),
            ClassOption::Focus(f) => ("focus", f.span),
            ClassOption::Field(f) => ("field", f.span),
            ClassOption::Orient(o) => ("orient", o.span),
            ClassOption::Default(d) => ("default", d.span),
        };
        if let Some(first) = seen.get(key) {
            cx.err(
                Diagnostic::error(
                    codes::DUPLICATE_OPTION,
                    format!("class option `{key}` given twice"),
                    cx.file,
                    span,
                    "again here",
                )
                .with_label(cx.file, *first, "first here"),
            );
        } else {
            seen.insert(key, span);
        }
        if let ClassOption::Field(f) = o {
            let FieldSize { width, height } = f.node;
            if !field_fits(f.node) {
                cx.err(
                    Diagnostic::error(codes::BAD_FIELD_SIZE, format!("bad field size {width}x{height}"), cx.file, f.span, format!("must be odd, at most {MAX_FIELD}x{MAX_FIELD}"))
                        .with_help("the focus sits in the middle of the field, so both sides are odd (3x3, 5x5, 7x7 use the packed kernel)"),
                );
            }
        }
    }
}

fn check_glob<'p>(
    cx: &mut Ctx<'p>,
    g: &'p Glob,
    class: Option<&'p Class>,
    patterns: &mut PatternNames<'p>,
    toplevel: &mut BTreeMap<(&'p str, &'p str), Decl>,
) {
    let info = class.map(class_info);
    if let Some(h) = &g.header {
        for it in &h.items {
            if let PatternItem::Result(r) = it {
                cx.err(
                    Diagnostic::error(codes::HEADER_RESULT, "a glob header has no result", cx.file, crate::fmt::result_span(r), "result in a header")
                        .with_help("the header only gates the glob's members; move the result into a member pattern"),
                );
            }
        }
        let has_diagram = h.items.iter().any(|i| matches!(i, PatternItem::Diagram(_)));
        check_body(cx, &h.items, info.as_ref(), h.span, has_diagram, false);
    }
    for m in &g.members {
        match m {
            GlobMember::Pattern(p) => {
                if let (Some(pc), Some(c)) = (&p.class, class) {
                    if pc.node != c.name.node {
                        cx.err(class_mismatch(cx.file, pc, c));
                    }
                }
                if let (Some(pc), None) = (&p.class, class) {
                    resolve_class(cx, pc);
                }
                check_pattern(cx, p, class, patterns);
            }
            GlobMember::Glob(inner) => {
                declare(cx, toplevel, "glob", &inner.name, cx.file);
                if let (Some(ic), Some(c)) = (&inner.class, class) {
                    if ic.node != c.name.node {
                        cx.err(class_mismatch(cx.file, ic, c));
                    }
                }
                check_glob(cx, inner, class, patterns, toplevel);
            }
        }
    }
}

fn class_mismatch(file: FileId, got: &Ident, class: &Class) -> Diagnostic {
    Diagnostic::error(
        codes::CLASS_MISMATCH,
        format!(
            "member of a glob of class `{}` names class `{}`",
            class.name.node, got.node
        ),
        file,
        got.span,
        "different class",
    )
    .with_help("members take the class of their glob; omit `: CLASS`")
}

fn check_pattern<'p>(
    cx: &mut Ctx<'p>,
    p: &'p Pattern,
    class: Option<&'p Class>,
    patterns: &mut PatternNames<'p>,
) {
    if let Some(c) = class {
        let key = (c.name.node.as_str(), p.name.node.as_str());
        if let Some(first) = patterns.get(&key) {
            let d =
                duplicate("pattern", &p.name.node, cx.file, p.name.span, first).with_help(format!(
                    "pattern names are unique within a class (`{}`)",
                    c.name.node
                ));
            cx.err(d);
        } else {
            patterns.insert(
                key,
                Decl {
                    kind: "pattern",
                    file: cx.file,
                    span: p.name.span,
                },
            );
        }
    }
    let info = class.map(class_info);
    check_body(cx, &p.items, info.as_ref(), p.name.span, true, true);
}

/// Items a pattern may hold at most once (the names go into the duplicate message).
const ONCE_ONLY: [&str; 6] = [
    "priority",
    "symmetry",
    "orientations",
    "diagram",
    "legend",
    "result",
];

/// Checks the items of a pattern or glob header.
fn check_body(
    cx: &mut Ctx,
    items: &[PatternItem],
    class: Option<&ClassInfo<'_>>,
    name_span: Span,
    need_diagram: bool,
    need_result: bool,
) {
    // First span of each once-only item, indexed like `ONCE_ONLY` (a map per pattern cost more
    // than the rest of this loop).
    let mut first: [Option<Span>; ONCE_ONLY.len()] = [None; ONCE_ONLY.len()];
    let mut diagram: Option<&Diagram> = None;
    // Borrowed when there is one legend (the usual case), merged only when there are several.
    let mut legend: Cow<'_, [LegendEntry]> = Cow::Borrowed(&[]);
    let mut legends = 0;
    let mut sequences: BTreeMap<&str, Span> = BTreeMap::new();
    let mut results = 0;
    let mut symmetry: Option<&Spanned<Symmetry>> = None;
    let mut orientations: Option<&Vec<u8>> = None;
    for it in items {
        let once = match it {
            PatternItem::Priority(v) => Some((0, v.span)),
            PatternItem::Symmetry(v) => Some((1, v.span)),
            PatternItem::Orientations(v) => Some((2, v.span)),
            PatternItem::Diagram(d) => {
                Some((3, Span::new(d.span.start, d.span.start + "diagram".len())))
            }
            PatternItem::Legend(e) => Some((4, e.first().map(|e| e.span).unwrap_or_default())),
            PatternItem::Result(r) => Some((5, crate::fmt::result_span(r))),
            _ => None,
        };
        if let Some((k, span)) = once {
            if let Some(f) = first[k] {
                cx.err(
                    Diagnostic::error(
                        codes::DUPLICATE_ITEM,
                        format!("more than one {}", ONCE_ONLY[k]),
                        cx.file,
                        span,
                        "again here",
                    )
                    .with_label(cx.file, f, "first here"),
                );
            } else {
                first[k] = Some(span);
            }
        }
        match it {
            PatternItem::Diagram(d) if diagram.is_none() => diagram = Some(d),
            PatternItem::Legend(e) => {
                legends += 1;
                if legends == 1 {
                    legend = Cow::Borrowed(e);
                } else {
                    legend.to_mut().extend(e.iter().cloned());
                }
            }
            PatternItem::Result(_) => results += 1,
            PatternItem::Symmetry(s) if symmetry.is_none() => symmetry = Some(s),
            PatternItem::Sequence(s) => {
                if let Some(f) = sequences.get(s.name.node.as_str()) {
                    cx.err(
                        Diagnostic::error(
                            codes::DUPLICATE_NAME,
                            format!("sequence `{}` is defined more than once", s.name.node),
                            cx.file,
                            s.name.span,
                            "again here",
                        )
                        .with_label(cx.file, *f, "first here"),
                    );
                } else {
                    sequences.insert(&s.name.node, s.name.span);
                }
            }
            PatternItem::Orientations(o) => {
                orientations.get_or_insert(&o.node);
                let mut seen = [false; 8];
                for &t in &o.node {
                    if std::mem::replace(&mut seen[t as usize], true) {
                        cx.err(Diagnostic::error(
                            codes::DUPLICATE_ORIENTATION,
                            format!("orientation {t} listed twice"),
                            cx.file,
                            o.span,
                            "repeated orientation",
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    if need_diagram && diagram.is_none() {
        cx.err(Diagnostic::error(
            codes::MISSING_DIAGRAM,
            "pattern without a diagram",
            cx.file,
            name_span,
            "no `diagram { ... }`",
        ));
    }
    if need_result && results == 0 {
        cx.err(
            Diagnostic::error(
                codes::MISSING_RESULT,
                "pattern without a result",
                cx.file,
                name_span,
                "no `=> ...;`",
            )
            .with_help("add `=> POINT VALUE;`, `=> reject POINT;` or `=> value V;`"),
        );
    }

    // Diagram -> grid (with the class's focus states).
    let focus = class.map(|c| c.focus).unwrap_or(StateSet::EMPTY);
    let grid: Option<Grid> =
        diagram.and_then(|d| match diagram::analyse(d, &legend, focus, cx.file) {
            Ok(g) => Some(g),
            Err(es) => {
                cx.diags.extend(es);
                None
            }
        });
    if let (Some(g), Some(c), Some(d)) = (&grid, class, diagram) {
        let (rx, ry) = g.reach();
        let (hw, hh) = ((c.field.width as u32) / 2, (c.field.height as u32) / 2);
        // The orientations the pattern is tried in: its own `orientations` list replaces the
        // class policy (as the compiler lowers it). An odd quarter turn swaps width and height.
        let listed = orientations.map(|o| {
            o.iter()
                .fold(0u8, |m, &t| m | 1u8.checked_shl(t as u32).unwrap_or(0))
        });
        let tried = match listed {
            Some(bits) if bits != 0 => bits,
            _ if c.rotates => 0xff,
            _ => 1,
        };
        let upright = tried & 0b0101_0101 != 0 && (rx > hw || ry > hh);
        let turned = tried & 0b1010_1010 != 0 && (ry > hw || rx > hh);
        if upright || turned {
            cx.err(
                Diagnostic::error(
                    codes::EXCEEDS_FIELD,
                    format!("diagram reaches {rx} columns and {ry} rows from the focus; class `{}` has a {}x{} field", c.name, c.field.width, c.field.height),
                    cx.file,
                    d.span,
                    "too large for the class's field",
                )
                .with_help(if rx == ry {
                    format!("use a class with a field of at least {n}x{n}", n = 2 * rx + 1)
                } else {
                    format!(
                        "use a class with a field of at least {n}x{n}, or restrict the pattern's `orientations` to those in which it fits",
                        n = 2 * rx.max(ry) + 1
                    )
                }),
            );
        }
    }
    if let (Some(g), Some(sym)) = (&grid, symmetry) {
        check_symmetry(cx, g, sym);
    }
    if let (Some(g), Some(d)) = (&grid, diagram) {
        for e in legend.iter() {
            if !g.cells.iter().any(|c| c.symbol == e.symbol.node) {
                cx.err(
                    Diagnostic::warning(
                        codes::UNUSED_LEGEND,
                        format!("legend symbol `{}` is not drawn", e.symbol.node),
                        cx.file,
                        e.symbol.span,
                        "unused",
                    )
                    .with_label(
                        cx.file,
                        Span::new(d.span.start, d.span.start + "diagram".len()),
                        "in this diagram",
                    ),
                );
            }
        }
    }
    // When the diagram failed (or is absent) labels are not checked again.
    let labels = grid.as_ref().map(|g| &g.labels);
    let scope = PointScope::Pattern(labels);
    for it in items {
        match it {
            PatternItem::Where(e) => cx.check_condition(e, &scope, "a `where` clause"),
            PatternItem::Result(r) => {
                check_result(cx, r, &scope, grid.as_ref(), Some(&sequences));
            }
            PatternItem::Sequence(s) => check_seq(cx, &s.body, &scope),
            _ => {}
        }
    }
}

/// A declared symmetry must map the drawn states onto themselves (the compiler trusts it and
/// skips the orientations it makes redundant). Undrawn points count as "anything".
fn check_symmetry(cx: &mut Ctx, g: &Grid, sym: &Spanned<Symmetry>) {
    type Map = fn(i32, i32) -> (i32, i32);
    let vertical: (Map, &str) = (|x, y| (-x, y), "the mirror in the vertical axis");
    let horizontal: (Map, &str) = (|x, y| (x, -y), "the mirror in the horizontal axis");
    let diagonal: (Map, &str) = (|x, y| (y, x), "the mirror in the main diagonal");
    let anti: (Map, &str) = (|x, y| (-y, -x), "the mirror in the anti-diagonal");
    let rot180: (Map, &str) = (|x, y| (-x, -y), "the half turn");
    let generators: Vec<(Map, &str)> = match sym.node {
        Symmetry::None => vec![],
        Symmetry::Vertical => vec![vertical],
        Symmetry::Horizontal => vec![horizontal],
        Symmetry::Diagonal => vec![diagonal],
        Symmetry::AntiDiagonal => vec![anti],
        Symmetry::Cross => vec![vertical, horizontal],
        Symmetry::DiagonalCross => vec![diagonal, anti],
        Symmetry::Rotation180 => vec![rot180],
        Symmetry::Full => vec![vertical, diagonal],
    };
    for (f, name) in generators {
        let bad = g.cells.iter().find(|c| {
            let (x, y) = f(c.dx, c.dy);
            g.cell(x, y).map(|o| o.states).unwrap_or(StateSet::ALL) != c.states
        });
        if let Some(c) = bad {
            let (x, y) = f(c.dx, c.dy);
            let mut d = Diagnostic::error(
                codes::WRONG_SYMMETRY,
                format!("the diagram is not symmetric under {name}"),
                cx.file,
                sym.span,
                "declared symmetry",
            )
            .with_label(cx.file, c.span, format!("`{}` here", c.symbol));
            d = match g.cell(x, y) {
                Some(o) => d.with_label(cx.file, o.span, format!("maps onto `{}` here", o.symbol)),
                None => d.with_help(format!(
                    "`{}` maps onto an undrawn point ({x}, {y}) from the focus",
                    c.symbol
                )),
            };
            cx.err(d);
            return;
        }
    }
}

fn check_result(
    cx: &mut Ctx,
    r: &ResultSpec,
    scope: &PointScope,
    grid: Option<&Grid>,
    seqs: Option<&BTreeMap<&str, Span>>,
) {
    match r {
        ResultSpec::Move {
            point, sequence, ..
        } => {
            if cx.check_point(point, scope) {
                if let Some(g) = grid {
                    let off = match point.node {
                        PointRef::Focus => Some((0, 0)),
                        PointRef::Label(c) => g.labels.get(&c).copied(),
                        PointRef::Coord { .. } => None,
                    };
                    if let Some(cell) = off.and_then(|(dx, dy)| g.cell(dx, dy)) {
                        if !cell.states.contains(PointState::Empty) {
                            cx.err(
                                Diagnostic::warning(codes::MOVE_ON_STONE, format!("the move `{}` can never be empty", crate::fmt::point(&point.node)), cx.file, point.span, "suggested move")
                                    .with_label(cx.file, cell.span, format!("drawn as `{}`", cell.symbol))
                                    .with_help("a move result names an empty point; use `=> value V;` for an assessment"),
                            );
                        }
                    }
                }
            }
            if let Some(s) = sequence {
                let known = seqs.is_some_and(|m| m.contains_key(s.node.as_str()));
                if !known {
                    cx.err(
                        Diagnostic::error(
                            codes::UNKNOWN_SEQUENCE,
                            format!("unknown sequence `{}`", s.node),
                            cx.file,
                            s.span,
                            "no such sequence in this pattern",
                        )
                        .with_help(
                            "declare it in the same pattern: `sequence NAME { a b ( c | d ) }`",
                        ),
                    );
                }
            }
        }
        ResultSpec::Reject { point, .. } => {
            cx.check_point(point, scope);
        }
        ResultSpec::Value { .. } => {}
    }
}

fn check_seq(cx: &mut Ctx, nodes: &[SeqNode], scope: &PointScope) {
    for n in nodes {
        match n {
            SeqNode::Move(p) => {
                cx.check_point(p, scope);
            }
            SeqNode::Pass(_) => {}
            SeqNode::Branch { alternatives, .. } => {
                for a in alternatives {
                    check_seq(cx, a, scope);
                }
            }
        }
    }
}

fn check_lens(cx: &mut Ctx, l: &Lens) {
    if l.endpoints.is_empty() {
        cx.err(Diagnostic::error(
            codes::EMPTY_LENS,
            format!("lens `{}` has no endpoints", l.name.node),
            cx.file,
            l.name.span,
            "needs endpoints such as `(d3, c4)`",
        ));
    }
    for e in &l.endpoints {
        cx.check_point(e, &PointScope::Lens);
    }
    if l.fields.is_empty() {
        cx.err(Diagnostic::warning(
            codes::EMPTY_LENS,
            format!("lens `{}` has no fields", l.name.node),
            cx.file,
            l.name.span,
            "never answers anything",
        ));
    }
    for f in &l.fields {
        let mut points: BTreeMap<(u8, u8), Span> = BTreeMap::new();
        for it in &f.items {
            match it {
                FieldItem::State { point, .. } => {
                    if cx.check_point(point, &PointScope::Lens) {
                        if let PointRef::Coord { col, row } = point.node {
                            if let Some(prev) = points.get(&(col, row)) {
                                cx.err(
                                    Diagnostic::error(
                                        codes::DUPLICATE_FIELD_POINT,
                                        format!(
                                            "`{}` is constrained twice in one field",
                                            crate::fmt::point(&point.node)
                                        ),
                                        cx.file,
                                        point.span,
                                        "again here",
                                    )
                                    .with_label(cx.file, *prev, "first here")
                                    .with_help("join the states with `|` in one constraint"),
                                );
                            } else {
                                points.insert((col, row), point.span);
                            }
                        }
                    }
                }
                FieldItem::Test(e) => cx.check_condition(e, &PointScope::Lens, "a field test"),
            }
        }
        check_result(cx, &f.result, &PointScope::Lens, None, None);
    }
}

fn check_joseki_nodes(cx: &mut Ctx, nodes: &[JosekiNode]) {
    for n in nodes {
        match n {
            JosekiNode::Move { point, .. } => match point.node {
                PointRef::Coord { col, row } if col <= 19 && row <= 19 => {}
                PointRef::Coord { .. } => cx.err(
                    Diagnostic::error(codes::BAD_COORDINATE, "joseki move off a 19x19 board", cx.file, point.span, "outside a1..s19")
                        .with_help("joseki use the corner frame: `a1` is the corner point, columns a..s, rows 1..19"),
                ),
                _ => cx.err(
                    Diagnostic::error(codes::COORD_EXPECTED, "joseki moves are coordinates", cx.file, point.span, "expected a coordinate such as `d4`")
                        .with_help("joseki use the corner frame: `a1` is the corner point"),
                ),
            },
            JosekiNode::Tenuki { .. } => {}
            JosekiNode::Branch { alternatives, .. } => {
                for a in alternatives {
                    check_joseki_nodes(cx, a);
                }
            }
        }
    }
}
