//! Checks on the lowered program that look at several patterns at once.
//!
//! Unreachable patterns: in a `best` or `first` class, once a pattern matches at a point the
//! lower-priority ones are not tried. If an earlier pattern of higher or equal priority
//! matches everywhere a later one does (every point it constrains allows at least what the
//! later one allows, in every orientation the later one is tried, with no tests of its own
//! and a non-reject result), the later pattern can never be reported.

use lens_dsl::Diagnostic;
use lens_vm::geometry::Orientation;
use lens_vm::spec::{Mode, Offset, ResultSpec};

use crate::codes;
use crate::ir::{self, Node, Pattern};
use crate::optimise::symmetry::transform;

/// A pattern in one orientation, with a coarse fingerprint of the points it constrains.
struct Shape<'a> {
    pattern: &'a Pattern,
    /// Constrained points as they lie in each allowed orientation (index = orientation).
    variants: Vec<Option<Vec<(Offset, u8)>>>,
    /// Orientation-invariant fingerprint of the constrained points: bit per `{|dx|, |dy|}`.
    mask: u128,
    /// For windows up to 7x7: per orientation, per state, the bit set of positions that
    /// exclude that state (bit `(dx+3)*7 + dy+3`). Covering is then four `u64` subset tests.
    planes: Option<[[u64; 4]; 8]>,
}

fn planes(p: &Pattern) -> Option<[[u64; 4]; 8]> {
    let mut out = [[0u64; 4]; 8];
    for t in Orientation::ALL {
        for (o, s) in &p.cells {
            let at = transform(t, *o);
            if at.dx.abs() > 3 || at.dy.abs() > 3 {
                return None;
            }
            let bit = 1u64 << ((at.dx + 3) * 7 + at.dy + 3);
            for (b, plane) in out[t.index() as usize].iter_mut().enumerate() {
                if s & (1 << b) == 0 {
                    *plane |= bit;
                }
            }
        }
    }
    Some(out)
}

/// Every orientation keeps `{|dx|, |dy|}`, so a pattern can only cover another whose
/// fingerprint includes its own, whatever orientations are involved.
fn fingerprint(at: Offset) -> u32 {
    let (a, b) = (
        at.dx.unsigned_abs().min(at.dy.unsigned_abs()) as u32,
        at.dx.unsigned_abs().max(at.dy.unsigned_abs()) as u32,
    );
    (b * (b + 1) / 2 + a) % 128
}

fn shape(p: &Pattern) -> Shape<'_> {
    shape_with(p, true)
}

/// `fast`: use bit planes when the pattern fits them (tests compare both paths).
fn shape_with(p: &Pattern, fast: bool) -> Shape<'_> {
    let planes = if fast { planes(p) } else { None };
    // The general path's variants are only needed when the bit planes do not fit.
    let variants = if planes.is_some() {
        Vec::new()
    } else {
        Orientation::ALL
            .into_iter()
            .map(|t| {
                (p.allowed & (1 << t.index()) != 0).then(|| {
                    let mut v: Vec<(Offset, u8)> = p
                        .cells
                        .iter()
                        .map(|(o, s)| (transform(t, *o), *s))
                        .collect();
                    v.sort();
                    v
                })
            })
            .collect()
    };
    let mask = p
        .cells
        .keys()
        .fold(0u128, |m, o| m | 1u128 << fingerprint(*o));
    Shape {
        pattern: p,
        variants,
        mask,
        planes,
    }
}

/// Every position matching `narrow` in its drawn orientation matches `wide` in orientation
/// `t`: each of `wide`'s constraints allows at least what `narrow` allows there.
fn covers(wide: &[(Offset, u8)], narrow: &Pattern) -> bool {
    wide.iter()
        .all(|(o, s)| narrow.allowed_at(*o) & !s & 15 == 0)
}

/// Can `earlier` hide every match of `later`?
fn subsumes(earlier: &Shape, later: &Shape) -> bool {
    let (e, l) = (earlier.pattern, later.pattern);
    if !e.tests.is_empty() || matches!(e.result, Some(ResultSpec::Reject { .. }) | None) {
        return false;
    }
    // Each of `earlier`'s constraints needs a constrained point of `later` under it.
    if e.cells.len() > l.cells.len() || earlier.mask & !later.mask != 0 {
        return false;
    }
    if let (Some(ep), Some(lp)) = (&earlier.planes, &later.planes) {
        // Board frame: `later` matching in `u` lays `lp[u]` on the board; `earlier` in `v`
        // covers it when every state `earlier` excludes somewhere, `later` excludes there too.
        return (0..8).filter(|u| l.allowed & (1 << u) != 0).all(|u| {
            (0..8)
                .filter(|v| e.allowed & (1 << v) != 0)
                .any(|v| (0..4).all(|b| ep[v][b] & !lp[u][b] == 0))
        });
    }
    // Each orientation `u` of `later` must be covered by some orientation of `earlier`.
    Orientation::ALL
        .into_iter()
        .filter(|u| l.allowed & (1 << u.index()) != 0)
        .all(|u| {
            // Bring both into `later`'s frame: `earlier` in orientation v, seen from u^-1.
            earlier.variants.iter().any(|cells| {
                cells.as_ref().is_some_and(|cells| {
                    let back = u.inverse();
                    let mapped: Vec<(Offset, u8)> = cells
                        .iter()
                        .map(|(o, s)| (transform(back, *o), *s))
                        .collect();
                    covers(&mapped, l)
                })
            })
        })
}

/// Collect the patterns of a class that can hide others: top-level patterns and members of
/// globs whose header is derived (a written header may be stricter than its members).
fn candidates<'a>(
    nodes: &'a [Node],
    out: &mut Vec<&'a Pattern>,
    all: &mut Vec<&'a Pattern>,
    free: bool,
) {
    for n in nodes {
        match n {
            Node::Pattern(p) => {
                all.push(p);
                if free {
                    out.push(p);
                }
            }
            Node::Glob(g) => candidates(&g.members, out, all, free && g.derived),
        }
    }
}

/// Warnings for patterns an earlier one always hides (`best` and `first` classes only).
pub fn unreachable(program: &ir::Program) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for class in program
        .classes
        .iter()
        .filter(|c| matches!(c.mode, Mode::Best | Mode::First))
    {
        let mut hiders = Vec::new();
        let mut all = Vec::new();
        candidates(&class.nodes, &mut hiders, &mut all, true);
        let hiders: Vec<Shape> = hiders.into_iter().map(shape).collect();
        for later in all.iter().map(|p| shape(p)) {
            let l = later.pattern;
            let hider = hiders.iter().find(|e| {
                let p = e.pattern;
                p.source_order < l.source_order && p.priority >= l.priority && subsumes(e, &later)
            });
            if let Some(e) = hider {
                let p = e.pattern;
                warnings.push(
                    Diagnostic::warning(
                        codes::UNREACHABLE_PATTERN,
                        format!(
                            "pattern `{}` can never be reported: `{}` matches wherever it does",
                            name(program, l.id),
                            name(program, p.id)
                        ),
                        l.file,
                        l.span,
                        "unreachable",
                    )
                    .with_label(
                        p.file,
                        p.span,
                        "matches first, at higher or equal priority",
                    ),
                );
            }
        }
    }
    warnings
}

fn name(program: &ir::Program, id: u32) -> &str {
    program
        .debug
        .get(id as usize)
        .map(|d| d.name.as_str())
        .unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lens_vm::spec::{Offset, TestExpr, TestSpec};

    fn pat(order: u32, priority: i32, allowed: u8, cells: &[((i16, i16), u8)]) -> Pattern {
        let mut p = Pattern::empty(order, order, 0, Default::default());
        p.priority = priority;
        p.allowed = allowed;
        p.cells = cells
            .iter()
            .map(|&((x, y), s)| (Offset::new(x, y), s))
            .collect();
        p.result = Some(ResultSpec::Move {
            at: Offset::FOCUS,
            value: 1,
            bits: 0,
            sequence: None,
        });
        p
    }

    fn program(mode: Mode, pats: Vec<Pattern>) -> ir::Program {
        let mut prog = ir::Program::default();
        for p in &pats {
            prog.debug.push(lens_vm::spec::PatternDebug {
                name: format!("p{}", p.id),
                file: 0,
                start: 0,
                end: 0,
                attrs: vec![],
            });
        }
        prog.classes.push(ir::Class {
            name: "c".into(),
            mode,
            focus: 4,
            width: 5,
            height: 5,
            orient: lens_vm::spec::OrientPolicy::All,
            default_value: None,
            nodes: pats.into_iter().map(Node::Pattern).collect(),
        });
        prog
    }

    #[test]
    fn wider_earlier_pattern_hides_narrower() {
        let wide = pat(0, 0, 1, &[((1, 0), 3)]);
        let narrow = pat(1, 0, 1, &[((1, 0), 1), ((0, 1), 4)]);
        let w = unreachable(&program(Mode::Best, vec![wide.clone(), narrow.clone()]));
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("`p1`"), "{}", w[0].message);
        // Not in `all` mode, not when the wide one comes later with lower priority.
        assert!(unreachable(&program(Mode::All, vec![wide.clone(), narrow.clone()])).is_empty());
        let mut late = wide.clone();
        late.source_order = 5;
        late.priority = -1;
        assert!(unreachable(&program(Mode::Best, vec![narrow.clone(), late])).is_empty());
    }

    #[test]
    fn tests_or_reject_do_not_hide() {
        let mut wide = pat(0, 0, 1, &[((1, 0), 3)]);
        wide.tests.push(TestSpec {
            expr: TestExpr::Int(1),
            cost: 0,
        });
        let narrow = pat(1, 0, 1, &[((1, 0), 1)]);
        assert!(unreachable(&program(Mode::First, vec![wide.clone(), narrow.clone()])).is_empty());
        wide.tests.clear();
        wide.result = Some(ResultSpec::Reject { at: Offset::FOCUS });
        assert!(unreachable(&program(Mode::First, vec![wide, narrow])).is_empty());
    }

    #[test]
    fn rotated_duplicate_is_hidden_only_with_orientations() {
        // Earlier: friend east, all orientations. Later: friend north, identity only.
        let east = pat(0, 0, 0xff, &[((1, 0), 1)]);
        let north = pat(1, 0, 1, &[((0, -1), 1)]);
        assert_eq!(
            unreachable(&program(Mode::Best, vec![east.clone(), north.clone()])).len(),
            1
        );
        let east_only = pat(0, 0, 1, &[((1, 0), 1)]);
        assert!(unreachable(&program(Mode::Best, vec![east_only, north])).is_empty());
    }

    #[test]
    fn bit_plane_path_agrees_with_the_general_path() {
        let pats = [
            pat(0, 0, 0xff, &[((1, 0), 1)]),
            pat(1, 0, 1, &[((0, -1), 1)]),
            pat(2, 0, 0b101, &[((1, 0), 3), ((0, 1), 4)]),
            pat(3, 0, 0xff, &[((-1, 0), 1), ((0, -1), 4), ((2, 2), 6)]),
            pat(4, 0, 0x0f, &[((0, 1), 1), ((1, 0), 4), ((-2, -2), 2)]),
        ];
        for a in &pats {
            for b in &pats {
                let (fa, fb) = (shape(a), shape(b));
                assert!(fa.planes.is_some() && fb.planes.is_some());
                let (sa, sb) = (shape_with(a, false), shape_with(b, false));
                assert_eq!(
                    subsumes(&fa, &fb),
                    subsumes(&sa, &sb),
                    "{} over {}",
                    a.id,
                    b.id
                );
            }
        }
    }
}
