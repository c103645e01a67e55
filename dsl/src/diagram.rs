//! Diagram analysis: a raw [`ast::Diagram`] plus its legend becomes a [`Grid`] of allowed state
//! sets at offsets from the focus. All diagram checks live here (ragged rows, edges, focus,
//! symbols, labels), so the compiler and the checker agree on what a diagram means.

use crate::ast::{self, PointState, Span, StateSet};
use crate::diagnostics::Diagnostic;
use crate::source::FileId;
use std::collections::BTreeMap;

pub const EMPTY_DIAGRAM: &str = "lens::empty_diagram";
pub const RAGGED: &str = "lens::ragged_diagram";
pub const EDGE: &str = "lens::inconsistent_edge";
pub const NO_FOCUS: &str = "lens::no_focus";
pub const MULTIPLE_FOCUS: &str = "lens::multiple_focus";
pub const UNKNOWN_SYMBOL: &str = "lens::unknown_symbol";
pub const DUPLICATE_LABEL: &str = "lens::duplicate_label";
pub const DUPLICATE_LEGEND: &str = "lens::duplicate_legend";
pub const LEGEND_REDEFINES: &str = "lens::legend_redefines_symbol";

/// A diagram analysed: every drawn cell with its allowed states, relative to the focus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Drawn size including edge rows and columns.
    pub width: u32,
    pub height: u32,
    /// (col, row) of the focus in the drawing.
    pub focus: (u32, u32),
    /// Every drawn cell, row-major (edge cells included, with state set [`StateSet::OFF`]).
    pub cells: Vec<GridCell>,
    /// Labels (letters other than `o x O X` drawn exactly once) -> (dx, dy) from the focus.
    pub labels: BTreeMap<char, (i32, i32)>,
    pub edges: Edges,
}

/// Which board edges the diagram draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Edges {
    pub north: bool,
    pub south: bool,
    pub east: bool,
    pub west: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridCell {
    /// Offset from the focus: `dx` east, `dy` south.
    pub dx: i32,
    pub dy: i32,
    pub states: StateSet,
    pub symbol: char,
    pub span: Span,
}

impl Grid {
    /// The cell at an offset from the focus, if drawn.
    pub fn cell(&self, dx: i32, dy: i32) -> Option<&GridCell> {
        let col = self.focus.0 as i32 + dx;
        let row = self.focus.1 as i32 + dy;
        if col < 0 || row < 0 || col >= self.width as i32 || row >= self.height as i32 {
            return None;
        }
        self.cells
            .get((row as u32 * self.width + col as u32) as usize)
    }
    /// The largest |dx| and |dy| of any drawn cell (the half-size of the window it needs).
    pub fn reach(&self) -> (u32, u32) {
        let rx = (self.width - 1 - self.focus.0).max(self.focus.0);
        let ry = (self.height - 1 - self.focus.1).max(self.focus.1);
        (rx, ry)
    }
}

/// The states of a standard symbol (`None` for labels and legend symbols).
pub fn standard_symbol(c: char) -> Option<StateSet> {
    Some(match c {
        'O' => StateSet::FRIEND,
        'X' => StateSet::FOE,
        '.' => StateSet::EMPTY,
        '?' => StateSet::ON_BOARD,
        'o' => StateSet::FRIEND.union(StateSet::EMPTY),
        'x' => StateSet::FOE.union(StateSet::EMPTY),
        '-' | '|' | '+' => StateSet::OFF,
        _ => return None,
    })
}

/// Symbols with a fixed meaning; a legend may not redefine them.
pub fn is_reserved_symbol(c: char) -> bool {
    standard_symbol(c).is_some() || c == '*'
}

/// A letter that names a point (`o x O X` are symbols, not labels).
pub fn is_label_char(c: char) -> bool {
    c.is_ascii_alphabetic() && !matches!(c, 'o' | 'x' | 'O' | 'X')
}

fn is_edge_row(row: &ast::DiagramRow) -> bool {
    row.cells.iter().all(|c| c.node == '-' || c.node == '+')
}

/// Analyses a diagram. `focus_states` are the class's focus states (given to `*`).
pub fn analyse(
    d: &ast::Diagram,
    legend: &[ast::LegendEntry],
    focus_states: StateSet,
    file: FileId,
) -> Result<Grid, Vec<Diagnostic>> {
    let mut errs = Vec::new();
    let rows: Vec<&ast::DiagramRow> = d.rows.iter().filter(|r| !r.cells.is_empty()).collect();
    if rows.is_empty() {
        return Err(vec![
            Diagnostic::error(
                EMPTY_DIAGRAM,
                "empty diagram",
                file,
                d.span,
                "no cells drawn",
            )
            .with_help("draw at least the focus `*`"),
        ]);
    }

    // Legend: one entry per symbol, never a standard symbol.
    // Legends are tiny: a vector beats a map here (this runs once per pattern).
    let mut legend_map: SmallMap<&ast::LegendEntry> = SmallMap(Vec::with_capacity(legend.len()));
    for e in legend {
        if is_reserved_symbol(e.symbol.node) {
            errs.push(
                Diagnostic::error(
                    LEGEND_REDEFINES,
                    format!("the legend cannot redefine `{}`", e.symbol.node),
                    file,
                    e.symbol.span,
                    "standard symbol",
                )
                .with_help("`O X . ? o x * - | +` have fixed meanings; pick another symbol"),
            );
            continue;
        }
        if let Some(prev) = legend_map.get(&e.symbol.node) {
            errs.push(
                Diagnostic::error(
                    DUPLICATE_LEGEND,
                    format!("`{}` is defined twice in the legend", e.symbol.node),
                    file,
                    e.symbol.span,
                    "second definition",
                )
                .with_label(file, prev.symbol.span, "first definition"),
            );
            continue;
        }
        legend_map.insert(e.symbol.node, e);
    }

    // Rectangular.
    let width = rows[0].cells.len();
    for r in &rows[1..] {
        if r.cells.len() != width {
            errs.push(
                Diagnostic::error(RAGGED, "ragged diagram: rows have different lengths", file, r.span, format!("this row has {} cells", r.cells.len()))
                    .with_label(file, rows[0].span, format!("the first row has {width}"))
                    .with_help("every row of a diagram must have the same number of cells (whitespace is ignored)"),
            );
        }
    }
    if !errs.is_empty() && errs.iter().any(|e| e.code == RAGGED) {
        return Err(errs);
    }
    let height = rows.len();

    // Edges: `-` rows (with `+` corners) first/last, `|` columns first/last.
    let edge_rows: Vec<bool> = rows.iter().map(|r| is_edge_row(r)).collect();
    let north = edge_rows[0];
    let south = height > 1 && edge_rows[height - 1];
    for (i, r) in rows.iter().enumerate() {
        if edge_rows[i] && i != 0 && i != height - 1 {
            errs.push(
                Diagnostic::error(
                    EDGE,
                    "edge row inside the diagram",
                    file,
                    r.span,
                    "an edge row must be the first or the last row",
                )
                .with_help("draw the top edge as the first row, the bottom edge as the last row"),
            );
        }
    }
    let Some(first_body) = (0..height).find(|&i| !edge_rows[i]) else {
        errs.push(Diagnostic::error(
            EDGE,
            "a diagram cannot consist of edges only",
            file,
            d.span,
            "no board points drawn",
        ));
        return Err(errs);
    };
    let west = rows[first_body].cells[0].node == '|';
    let east = width > 1 && rows[first_body].cells[width - 1].node == '|';
    for i in (first_body..height).filter(|&i| !edge_rows[i]) {
        let r = rows[i];
        for (j, c) in r.cells.iter().enumerate() {
            let edge_col = (j == 0 && west) || (j == width - 1 && east);
            match c.node {
                '|' if !edge_col => {
                    let msg = if j == 0 || j == width - 1 {
                        "`|` edge not drawn in every row"
                    } else {
                        "`|` inside the diagram"
                    };
                    errs.push(
                        Diagnostic::error(
                            EDGE,
                            msg,
                            file,
                            c.span,
                            "an edge column must be the first or the last column of every row",
                        )
                        .with_help(
                            "draw the left (right) edge as a `|` at the start (end) of every row",
                        ),
                    );
                }
                '-' | '+' => errs.push(
                    Diagnostic::error(
                        EDGE,
                        format!("`{}` outside an edge row", c.node),
                        file,
                        c.span,
                        "edges are whole rows",
                    )
                    .with_help("a horizontal edge is a row of `-` with `+` at the corners"),
                ),
                _ if edge_col && c.node != '|' => errs.push(
                    Diagnostic::error(
                        EDGE,
                        "edge column not drawn in every row",
                        file,
                        c.span,
                        "expected `|` here",
                    )
                    .with_label(
                        file,
                        rows[first_body].cells[if j == 0 { 0 } else { width - 1 }].span,
                        "the edge starts here",
                    ),
                ),
                _ => {}
            }
        }
    }
    for (i, r) in rows.iter().enumerate() {
        if !edge_rows[i] {
            continue;
        }
        for (j, c) in r.cells.iter().enumerate() {
            let corner = (j == 0 && west) || (j == width - 1 && east);
            let want = if corner { '+' } else { '-' };
            if c.node != want {
                let label = if corner {
                    "expected `+`: an edge column meets this edge row"
                } else {
                    "expected `-`: no edge column here"
                };
                errs.push(Diagnostic::error(
                    EDGE,
                    "corner drawn inconsistently",
                    file,
                    c.span,
                    label,
                ));
            }
        }
    }

    // Focus.
    // (col, row, span) of every focus cell; a diagram has one, so no allocation in that case.
    let mut focus_first: Option<(usize, usize, Span)> = None;
    let mut focus_more: Vec<(usize, usize, Span)> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        for (j, c) in r.cells.iter().enumerate() {
            if c.node == '*' || legend_map.get(&c.node).is_some_and(|e| e.focus) {
                if focus_first.is_none() {
                    focus_first = Some((j, i, c.span));
                } else {
                    focus_more.push((j, i, c.span));
                }
            }
        }
    }
    match usize::from(focus_first.is_some()) + focus_more.len() {
        0 => errs.push(
            Diagnostic::error(
                NO_FOCUS,
                "diagram has no focus",
                file,
                d.span,
                "no `*` in this diagram",
            )
            .with_help(
                "mark the focus point with `*` (or a legend symbol declared with `, focus`)",
            ),
        ),
        1 => {}
        _ => {
            let focus_cells: Vec<_> = focus_first.iter().copied().chain(focus_more).collect();
            let mut e = Diagnostic::error(
                MULTIPLE_FOCUS,
                format!("diagram has {} focus points", focus_cells.len()),
                file,
                focus_cells[1].2,
                "second focus",
            );
            e = e.with_label(file, focus_cells[0].2, "first focus");
            for f in &focus_cells[2..] {
                e = e.with_label(file, f.2, "another focus");
            }
            errs.push(e.with_help("a diagram has exactly one focus"));
        }
    }

    // Symbols and labels.
    // Every letter cell in drawing order (one vector, not one per letter), and the grid built
    // in the same pass (offsets from the focus; discarded if anything was reported).
    let mut letter_cells: Vec<(char, Span, usize)> = Vec::new();
    let (fc, fr, _) = focus_first.unwrap_or_default();
    let mut cells = Vec::with_capacity(width * height);
    for (i, r) in rows.iter().enumerate() {
        for (j, c) in r.cells.iter().enumerate() {
            let s = if c.node == '*' {
                focus_states
            } else if let Some(e) = legend_map.get(&c.node) {
                e.states.node
            } else if let Some(s) = standard_symbol(c.node) {
                s
            } else if c.node.is_ascii_lowercase() {
                StateSet::EMPTY
            } else if c.node.is_ascii_uppercase() {
                errs.push(
                    Diagnostic::error(
                        UNKNOWN_SYMBOL,
                        format!("upper-case label `{}` is not in the legend", c.node),
                        file,
                        c.span,
                        "needs a legend entry",
                    )
                    .with_help(format!(
                        "say which states `{}` allows, e.g. `legend {{ {} = friend | empty; }}`",
                        c.node, c.node
                    )),
                );
                StateSet::NONE
            } else {
                errs.push(
                    Diagnostic::error(
                        UNKNOWN_SYMBOL,
                        format!("unknown diagram symbol `{}`", c.node),
                        file,
                        c.span,
                        "not a standard symbol and not in the legend",
                    )
                    .with_help(
                        "standard symbols: `O X . ? o x * - | +`; define others in a `legend { }`",
                    ),
                );
                StateSet::NONE
            };
            if is_label_char(c.node) {
                letter_cells.push((c.node, c.span, cells.len()));
            }
            cells.push(GridCell {
                dx: j as i32 - fc as i32,
                dy: i as i32 - fr as i32,
                states: s,
                symbol: c.node,
                span: c.span,
            });
        }
    }
    // Letters in order of first appearance, each with its spans (allocated only when drawn twice).
    let letter_spans = |ch: char| letter_cells.iter().filter(move |(l, _, _)| *l == ch);
    let mut labels = BTreeMap::new();
    for (k, &(ch, _, at)) in letter_cells.iter().enumerate() {
        if letter_cells[..k].iter().any(|(l, _, _)| *l == ch) {
            continue; // not the first appearance
        }
        let count = letter_spans(ch).count();
        if count == 1 {
            // Drawn exactly once: a label (a legend symbol may be one too, as before).
            labels.insert(ch, (cells[at].dx, cells[at].dy));
        }
        if count > 1 && !legend_map.contains_key(&ch) {
            let spans: Vec<Span> = letter_spans(ch).map(|(_, s, _)| *s).collect();
            let mut e = Diagnostic::error(
                DUPLICATE_LABEL,
                format!("label `{ch}` is defined {} times", spans.len()),
                file,
                spans[1],
                "drawn again here",
            )
            .with_label(file, spans[0], "first drawn here");
            for s in &spans[2..] {
                e = e.with_label(file, *s, "and here");
            }
            errs.push(e.with_help("a label names one point; to use a letter as a repeated symbol, give it a legend entry"));
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }

    Ok(Grid {
        width: width as u32,
        height: height as u32,
        focus: (fc as u32, fr as u32),
        cells,
        labels,
        edges: Edges {
            north,
            south,
            east,
            west,
        },
    })
}

/// A map over a handful of characters, in insertion order.
struct SmallMap<V>(Vec<(char, V)>);

impl<V> SmallMap<V> {
    fn get(&self, c: &char) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == c).map(|(_, v)| v)
    }
    fn contains_key(&self, c: &char) -> bool {
        self.get(c).is_some()
    }
    fn insert(&mut self, c: char, v: V) {
        self.0.push((c, v));
    }
}

/// Names a state set the way the language writes it (`friend | empty`, `any`, `anything`).
pub fn state_set_text(s: StateSet) -> String {
    match s.0 & 15 {
        15 => return "anything".into(),
        7 => return "any".into(),
        3 => return "stone".into(),
        _ => {}
    }
    let mut parts = Vec::new();
    for (st, name) in [
        (PointState::Friend, "friend"),
        (PointState::Foe, "foe"),
        (PointState::Empty, "empty"),
        (PointState::Off, "off"),
    ] {
        if s.contains(st) {
            parts.push(name);
        }
    }
    if parts.is_empty() {
        return "nothing".into();
    }
    parts.join(" | ")
}
