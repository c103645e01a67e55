//! Lenses: endpoints and fields in the frame of the first endpoint.

use std::collections::BTreeMap;

use lens_dsl::FileId;
use lens_dsl::ast::{self, PointRef};
use lens_vm::spec::{Offset, States};

use super::{Frame, Lowerer, MAX_ENDPOINTS, split_and};
use crate::codes;
use crate::ir;

impl Lowerer<'_> {
    pub(super) fn lens(&mut self, file: FileId, l: &ast::Lens) -> Option<ir::Lens> {
        let errors_before = self.error_count();
        let Some(first) = l.endpoints.first() else {
            self.error(
                codes::NO_ENDPOINTS,
                format!("lens `{}` has no endpoints", l.name.node),
                file,
                l.name.span,
                "needs endpoints",
            );
            return None;
        };
        let PointRef::Coord { col, row } = first.node else {
            self.error(
                codes::LABEL_IN_LENS,
                "lens endpoints are frame coordinates such as `d3`",
                file,
                first.span,
                "not a coordinate",
            );
            return None;
        };
        if l.endpoints.len() > MAX_ENDPOINTS {
            self.error(
                codes::TOO_MANY_ENDPOINTS,
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
                                codes::CONTRADICTION,
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
        (self.error_count() == errors_before).then(|| ir::Lens {
            lens_type: l.lens_type.node,
            name: l.name.node.clone(),
            endpoints,
            fields,
            tree: Vec::new(),
        })
    }
}
