//! Board diagrams as inline SVG.
//!
//! Pattern diagrams are drawn from the pattern's side (GNU Go's convention): friend `O` white
//! stones, foe `X` black stones, small stones for "friend or empty" / "foe or empty", grey
//! squares off the board, a red square on the focus, a green disc with its value on a
//! suggested move, a red cross on a rejected point, and the disasm symbol (blue) for other
//! state sets. Grid unit: [`CELL`] px, the focus cell's centre at a known place so the catalogue
//! script can draw the 8 variants by transforming one drawing (`data-fx`, `data-fy`).

use crate::disasm::state_symbol;
use lens_vm::rom::RawResult;
use std::fmt::Write;

/// Grid units per point (drawn at 1.5 px per unit).
pub const CELL: i32 = 20;

/// What a pattern, a lens field or a lens frame shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagram {
    /// Constrained points `(dx, dy)` (y down, as drawn in source) and their allowed-state sets
    /// (bit 0 friend, 1 foe, 2 empty, 3 off).
    pub cells: Vec<((i32, i32), u8)>,
    /// The focus point (patterns: `(0, 0)`; lens drawings: none).
    pub focus: Option<(i32, i32)>,
    pub result: Option<RawResult>,
    /// Lens endpoints, numbered from 1 in the drawing.
    pub endpoints: Vec<(i32, i32)>,
}

impl Diagram {
    /// Every point the drawing needs, and one point of margin when the area is a single point.
    fn bounds(&self) -> (i32, i32, i32, i32) {
        let mut pts: Vec<(i32, i32)> = self.cells.iter().map(|c| c.0).collect();
        pts.extend(self.focus);
        pts.extend(self.endpoints.iter().copied());
        match self.result {
            Some(RawResult::Move { dx, dy, .. }) | Some(RawResult::Reject { dx, dy }) => {
                pts.push((dx as i32, dy as i32))
            }
            _ => {}
        }
        if pts.is_empty() {
            pts.push((0, 0));
        }
        let x0 = pts.iter().map(|p| p.0).min().unwrap_or(0);
        let x1 = pts.iter().map(|p| p.0).max().unwrap_or(0);
        let y0 = pts.iter().map(|p| p.1).min().unwrap_or(0);
        let y1 = pts.iter().map(|p| p.1).max().unwrap_or(0);
        (x0, y0, x1, y1)
    }

    /// The drawing as one `<svg>` element with class `class`.
    pub fn svg(&self, class: &str) -> String {
        let (x0, y0, x1, y1) = self.bounds();
        let (w, h) = ((x1 - x0 + 1) * CELL, (y1 - y0 + 1) * CELL);
        let cx = |x: i32| (x - x0) * CELL + CELL / 2;
        let cy = |y: i32| (y - y0) * CELL + CELL / 2;
        let state = |p: (i32, i32)| self.cells.iter().find(|c| c.0 == p).map_or(15, |c| c.1);
        let off = |p: (i32, i32)| state(p) == 8;
        let (fx, fy) = self.focus.unwrap_or((0, 0));
        let mut s = String::new();
        let _ = write!(
            s,
            "<svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
             width=\"{}\" height=\"{}\" data-fx=\"{}\" data-fy=\"{}\"><g class=\"d\">\
             <rect class=\"bg\" width=\"{w}\" height=\"{h}\"/>",
            w * 3 / 2,
            h * 3 / 2,
            cx(fx),
            cy(fy)
        );
        // Grid: a segment to the right and one down from every on-board point, in one path.
        let mut d = String::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                if off((x, y)) {
                    continue;
                }
                if x < x1 && !off((x + 1, y)) {
                    let _ = write!(d, "M{} {}h{CELL}", cx(x), cy(y));
                }
                if y < y1 && !off((x, y + 1)) {
                    let _ = write!(d, "M{} {}v{CELL}", cx(x), cy(y));
                }
            }
        }
        if !d.is_empty() {
            let _ = write!(s, "<path class=\"grid-l\" d=\"{d}\"/>");
        }
        let mut texts = String::new();
        let half = CELL / 2;
        for &((x, y), allowed) in &self.cells {
            let (px, py) = (cx(x), cy(y));
            match allowed {
                8 => {
                    let _ = write!(
                        s,
                        "<rect class=\"off\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                        px - half,
                        py - half
                    );
                }
                1 | 2 => {
                    let c = if allowed == 1 { "f" } else { "e" };
                    let _ = write!(
                        s,
                        "<circle class=\"{c}\" cx=\"{px}\" cy=\"{py}\" r=\"{}\"/>",
                        half - 1
                    );
                }
                5 | 6 => {
                    let c = if allowed == 5 { "f" } else { "e" };
                    let _ = write!(
                        s,
                        "<circle class=\"{c}\" cx=\"{px}\" cy=\"{py}\" r=\"{}\"/>",
                        half / 2
                    );
                }
                4 | 15 => {}
                other => {
                    let _ = write!(
                        texts,
                        "<text class=\"s\" x=\"{px}\" y=\"{py}\">{}</text>",
                        super::esc(&state_symbol(other).to_string())
                    );
                }
            }
        }
        if let Some((x, y)) = self.focus {
            let _ = write!(
                s,
                "<rect class=\"focus\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                cx(x) - half + 1,
                cy(y) - half + 1,
                CELL - 2,
                CELL - 2
            );
        }
        for (k, &(x, y)) in self.endpoints.iter().enumerate() {
            let _ = write!(
                s,
                "<circle class=\"end\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                cx(x),
                cy(y),
                half - 2
            );
            let _ = write!(
                texts,
                "<text class=\"l\" x=\"{}\" y=\"{}\">{}</text>",
                cx(x),
                cy(y),
                k + 1
            );
        }
        match self.result {
            Some(RawResult::Move { dx, dy, value, .. }) => {
                let (px, py) = (cx(dx as i32), cy(dy as i32));
                let _ = write!(
                    s,
                    "<circle class=\"mv\" cx=\"{px}\" cy=\"{py}\" r=\"{}\"/>",
                    half - 1
                );
                let _ = write!(
                    texts,
                    "<text class=\"v\" x=\"{px}\" y=\"{py}\">{value}</text>"
                );
            }
            Some(RawResult::Reject { dx, dy }) => {
                let (px, py, r) = (cx(dx as i32), cy(dy as i32), half - 4);
                let _ = write!(
                    s,
                    "<path class=\"rj\" d=\"M{} {}l{} {}M{} {}l{} {}\"/>",
                    px - r,
                    py - r,
                    2 * r,
                    2 * r,
                    px - r,
                    py + r,
                    2 * r,
                    -2 * r
                );
            }
            _ => {}
        }
        s.push_str("</g><g class=\"t\">");
        s.push_str(&texts);
        s.push_str("</g></svg>");
        s
    }
}

/// A mark on a whole-board picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardMark {
    /// The best suggestion at a point: its value and a short label (the class or pattern).
    Move { value: i32, title: String },
    /// A rejected point (it wins over suggestions there, as on the text board).
    Reject { title: String },
    /// A value-only match on its focus.
    Value { value: i32, title: String },
}

/// A whole board (x right, y down, `(0, 0)` the top-left point, GTP coordinates on the edges)
/// with stones (`true` = black) and marks.
pub fn board_svg(
    size: u8,
    stones: &[((i32, i32), bool)],
    marks: &[((i32, i32), BoardMark)],
) -> String {
    let n = size as i32;
    let m = CELL; // margin for coordinates
    let w = n * CELL + 2 * m;
    let p = |v: i32| m + v * CELL + CELL / 2;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {w}\" \
         width=\"{w}\" height=\"{w}\"><rect class=\"bg\" width=\"{w}\" height=\"{w}\"/>"
    );
    let mut d = String::new();
    for k in 0..n {
        let _ = write!(d, "M{} {}H{}", p(0), p(k), p(n - 1));
        let _ = write!(d, "M{} {}V{}", p(k), p(0), p(n - 1));
    }
    let _ = write!(s, "<path class=\"grid-l\" d=\"{d}\"/>");
    let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    for k in 0..n {
        let col = letters.get(k as usize).copied().unwrap_or(b'?') as char;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\">{col}</text><text x=\"{}\" y=\"{}\">{}</text>",
            p(k),
            m / 2,
            m / 2,
            p(k),
            n - k
        );
    }
    for &((x, y), black) in stones {
        let _ = write!(
            s,
            "<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
            if black { "e" } else { "f" },
            p(x),
            p(y),
            CELL / 2 - 1
        );
    }
    for ((x, y), mark) in marks {
        let (px, py) = (p(*x), p(*y));
        match mark {
            BoardMark::Move { value, title } => {
                let _ = write!(
                    s,
                    "<g class=\"sugg\"><title>{}</title><circle class=\"mv\" cx=\"{px}\" cy=\"{py}\" r=\"{}\"/>\
                     <text class=\"v\" x=\"{px}\" y=\"{py}\">{value}</text></g>",
                    super::esc(title),
                    CELL / 2 - 1
                );
            }
            BoardMark::Reject { title } => {
                let r = CELL / 2 - 4;
                let _ = write!(
                    s,
                    "<g class=\"rej\"><title>{}</title><path class=\"rj\" d=\"M{} {}l{} {}M{} {}l{} {}\"/></g>",
                    super::esc(title),
                    px - r,
                    py - r,
                    2 * r,
                    2 * r,
                    px - r,
                    py + r,
                    2 * r,
                    -2 * r
                );
            }
            BoardMark::Value { value, title } => {
                let _ = write!(
                    s,
                    "<g class=\"val\"><title>{}</title><text class=\"s\" x=\"{px}\" y=\"{py}\">={value}</text></g>",
                    super::esc(title)
                );
            }
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_board_cells_break_the_grid_and_stones_follow_their_state() {
        let d = Diagram {
            cells: vec![((0, -1), 8), ((1, 0), 1), ((-1, 0), 6)],
            focus: Some((0, 0)),
            result: Some(RawResult::Move {
                dx: 0,
                dy: 0,
                value: 7,
                bits: 0,
                sequence: None,
            }),
            endpoints: vec![],
        };
        let s = d.svg("dia");
        assert_eq!(s.matches("<rect class=\"off\"").count(), 1);
        assert_eq!(s.matches("<circle class=\"f\"").count(), 1);
        assert!(
            s.contains("<text class=\"v\" x=\"30\" y=\"30\">7</text>"),
            "{s}"
        );
        // No vertical segment leaves the off-board point above the focus (30,10).
        assert!(!s.contains("M30 10v"), "{s}");
    }
}
