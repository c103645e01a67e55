//! A pattern's items: its options, diagram (cells and edges, checked against the class) and
//! the tests and result that refer to the diagram's labels.

use std::collections::BTreeMap;

use lens_dsl::ast::{self, PointState, Span, StateSet};
use lens_dsl::diagram::{self, Grid};
use lens_dsl::{Diagnostic, FileId};
use lens_vm::geometry::Orientation;
use lens_vm::spec::Offset;

use super::{Frame, Lowerer, MAX_BOARD, MIN_BOARD, policy_bits, split_and};
use crate::codes;
use crate::ir;

/// The items of a pattern, or of a glob header, and the class they are lowered for.
pub(super) struct Body<'a> {
    pub file: FileId,
    pub name: &'a ast::Ident,
    pub items: &'a [ast::PatternItem],
    pub class: usize,
    /// A glob header: its diagram is optional and it has no result.
    pub header: bool,
}

impl Lowerer<'_> {
    /// Lower a pattern's items into `out` (an empty pattern with its id and order); `None`
    /// when any of them had an error.
    pub(super) fn pattern_body(&mut self, b: &Body, mut out: ir::Pattern) -> Option<ir::Pattern> {
        let errors_before = self.error_count();
        let info = self.class_info(b.class);
        let (class_focus, width, height) = (info.focus, info.width, info.height);
        out.allowed = policy_bits(info.orient);

        let (diagram, legend) = self.options(b, &mut out);
        let grid: Option<Grid> = match diagram {
            Some(d) => match diagram::analyse(d, &legend, class_focus, b.file) {
                Ok(g) => Some(g),
                Err(ds) => {
                    self.diags.extend(ds);
                    return None;
                }
            },
            None if b.header => None,
            None => {
                self.error(
                    codes::MISSING_DIAGRAM,
                    format!("pattern `{}` has no diagram", b.name.node),
                    b.file,
                    b.name.span,
                    "needs `diagram { ... }`",
                );
                return None;
            }
        };
        if let Some(g) = &grid {
            self.cells(b.file, g, class_focus, &mut out);
            self.fit_window(b.file, b.name, &out, width, height);
        }
        let empty_labels = BTreeMap::new();
        let labels = grid.as_ref().map(|g| &g.labels).unwrap_or(&empty_labels);
        self.tests_and_result(b, &Frame::Labels(labels), &mut out);
        (self.error_count() == errors_before).then_some(out)
    }

    /// The items that need no diagram (priority, symmetry, orientations), and the diagram and
    /// legend to analyse.
    fn options<'a>(
        &mut self,
        b: &Body<'a>,
        out: &mut ir::Pattern,
    ) -> (Option<&'a ast::Diagram>, Vec<ast::LegendEntry>) {
        let mut diagram = None;
        let mut legend: Vec<ast::LegendEntry> = Vec::new();
        for item in b.items {
            match item {
                ast::PatternItem::Diagram(d) => {
                    if diagram.is_some() {
                        self.error(
                            codes::DOUBLE_DIAGRAM,
                            "a pattern has one diagram",
                            b.file,
                            d.span,
                            "second diagram",
                        );
                    } else {
                        diagram = Some(d);
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
                                codes::BAD_ORIENTATION,
                                format!("orientation {t} does not exist (0 to 7)"),
                                b.file,
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
        (diagram, legend)
    }

    /// The items that name the diagram's points: sequences, tests and the result.
    fn tests_and_result(&mut self, b: &Body, frame: &Frame, out: &mut ir::Pattern) {
        // Sequences are local to the pattern; results refer to them by name.
        let mut sequences: BTreeMap<&str, u32> = BTreeMap::new();
        for item in b.items {
            if let ast::PatternItem::Sequence(s) = item {
                if let Some(spec) = self.sequence(b.file, s, frame) {
                    sequences.insert(s.name.node.as_str(), self.ir.sequences.len() as u32);
                    self.ir.sequences.push(spec);
                }
            }
        }
        let mut result_seen = false;
        for item in b.items {
            match item {
                ast::PatternItem::Where(e) => {
                    for conjunct in split_and(e) {
                        if let Some(t) = self.test(b.file, conjunct, frame) {
                            out.tests.push(t);
                        }
                    }
                }
                ast::PatternItem::Result(r) => {
                    if b.header {
                        self.error(
                            codes::HEADER_RESULT,
                            "a glob header has no result",
                            b.file,
                            result_span(r),
                            "remove this",
                        );
                    } else if result_seen {
                        self.error(
                            codes::DOUBLE_RESULT,
                            "a pattern has one result",
                            b.file,
                            result_span(r),
                            "second result",
                        );
                    } else {
                        result_seen = true;
                        out.result = self.result(b.file, r, frame, &sequences, Some(out));
                    }
                }
                _ => {}
            }
        }
        if !b.header && !result_seen {
            self.error(
                codes::MISSING_RESULT,
                format!("pattern `{}` has no result", b.name.node),
                b.file,
                b.name.span,
                "needs `=> ...;`",
            );
        }
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
                        codes::IMPOSSIBLE_EDGES,
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
                            codes::FOCUS_CONTRADICTS_CLASS,
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
                    codes::EMPTY_STATES,
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
                    codes::ON_BOARD_BEYOND_EDGE,
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
                    codes::OFF_BOARD_INSIDE_EDGES,
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
                    (codes::OUTSIDE_FIELD, String::new())
                } else {
                    (
                        codes::OUTSIDE_FIELD_ROTATED,
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
}

fn result_span(r: &ast::ResultSpec) -> Span {
    match r {
        ast::ResultSpec::Move { span, .. }
        | ast::ResultSpec::Reject { span, .. }
        | ast::ResultSpec::Value { span, .. } => *span,
    }
}
