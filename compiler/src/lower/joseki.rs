//! Joseki blocks: the move tree as a `lens-joseki` DAG.

use lens_dsl::FileId;
use lens_dsl::ast::{self, PointRef, Spanned};
use lens_vm::spec::JosekiBlobSpec;

use super::{JMove, Lowerer};
use crate::codes;

impl Lowerer<'_> {
    /// A joseki block as a `lens-joseki` DAG (corner frame, colours alternating from black),
    /// encoded with the default (compact) encoding.
    pub(super) fn joseki(&mut self, file: FileId, j: &ast::Joseki) -> Option<JosekiBlobSpec> {
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
                            codes::JOSEKI_POINT,
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
}
