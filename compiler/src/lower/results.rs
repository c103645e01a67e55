//! Points (diagram labels or lens coordinates), results and sequences.

use std::collections::BTreeMap;

use lens_dsl::ast::{self, PointRef, Span, Spanned};
use lens_dsl::{Diagnostic, FileId};
use lens_vm::spec::{Offset, ResultSpec, SeqNodeSpec, SequenceSpec};

use super::{Frame, Lowerer, MAX_LENS_REACH};
use crate::codes;
use crate::ir;

impl Lowerer<'_> {
    pub(super) fn point(
        &mut self,
        file: FileId,
        p: &Spanned<PointRef>,
        frame: &Frame,
    ) -> Option<Offset> {
        match (&p.node, frame) {
            (PointRef::Focus, Frame::Labels(_)) => Some(Offset::FOCUS),
            (PointRef::Label(c), Frame::Labels(labels)) => match labels.get(c) {
                Some((dx, dy)) => Some(Offset::new(*dx as i16, *dy as i16)),
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            codes::UNKNOWN_LABEL,
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
                        codes::LENS_REACH,
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
                    codes::COORD_IN_PATTERN,
                    "frame coordinates are only used in lenses",
                    file,
                    p.span,
                    "use a diagram label",
                );
                None
            }
            (_, Frame::Coords { .. }) => {
                self.error(
                    codes::LABEL_IN_LENS,
                    "lens points are frame coordinates such as `d4`",
                    file,
                    p.span,
                    "not a coordinate",
                );
                None
            }
        }
    }

    pub(super) fn sequence(
        &mut self,
        file: FileId,
        s: &ast::Sequence,
        frame: &Frame,
    ) -> Option<SequenceSpec> {
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

    pub(super) fn result(
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
                                codes::UNKNOWN_SEQUENCE,
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
                codes::RESULT_OFF_BOARD,
                "the result's point is always off the board",
                file,
                span,
                "no move possible here",
            );
        }
    }
}
