//! Orientation variants: which of the 8 transforms give distinct patterns.
//!
//! A variant is everything that depends on orientation: the cells, the points named in tests,
//! the result point and the points of the result's move sequence. Two orientations whose
//! variants are equal would report the same matches twice, so only the first (lowest index)
//! is compiled and it `covers` the other.

use lens_dsl::ast::Symmetry;
use lens_vm::geometry::Orientation;
use lens_vm::spec::{Offset, ResultSpec, SeqNodeSpec, SequenceSpec, States, TestExpr};

use crate::ir::Pattern;

/// Apply an orientation to an offset.
pub fn transform(t: Orientation, at: Offset) -> Offset {
    let (x, y) = t.apply(at.dx as i32, at.dy as i32);
    Offset::new(x as i16, y as i16)
}

/// The same expression with every point mapped through `f` (lens-vm's
/// `TestExpr::map_points`, which knows where each predicate's points are).
pub fn map_test(e: &TestExpr, f: &impl Fn(Offset) -> Offset) -> TestExpr {
    e.map_points(f)
}

/// Everything orientation-dependent about a pattern, in one orientation.
#[derive(PartialEq, Debug)]
struct Variant {
    cells: Vec<(Offset, States)>,
    tests: Vec<TestExpr>,
    result: Option<ResultSpec>,
    sequence: Vec<SeqNodeSpec>,
}

fn variant(p: &Pattern, sequences: &[SequenceSpec], t: Orientation) -> Variant {
    let f = |o: Offset| transform(t, o);
    let mut cells: Vec<(Offset, States)> = p.cells.iter().map(|(o, s)| (f(*o), *s)).collect();
    cells.sort();
    // Tests are ANDed, so their order does not matter; compare them as a multiset by a
    // canonical order (their debug text is stable and total).
    let mut tests: Vec<TestExpr> = p.tests.iter().map(|t| map_test(&t.expr, &f)).collect();
    tests.sort_by_cached_key(|e| format!("{e:?}"));
    let mut sequence = Vec::new();
    let result = p.result.map(|r| match r {
        ResultSpec::Move {
            at,
            value,
            bits,
            sequence: seq,
        } => {
            if let Some(s) = seq.and_then(|i| sequences.get(i as usize)) {
                sequence = s
                    .nodes
                    .iter()
                    .map(|n| SeqNodeSpec {
                        at: n.at.map(f),
                        depth: n.depth,
                    })
                    .collect();
            }
            ResultSpec::Move {
                at: f(at),
                value,
                bits,
                sequence: seq,
            }
        }
        ResultSpec::Reject { at } => ResultSpec::Reject { at: f(at) },
        v @ ResultSpec::Value { .. } => v,
    });
    Variant {
        cells,
        tests,
        result,
        sequence,
    }
}

/// The transforms that map the pattern onto itself (bit `t` set for orientation `t`).
pub fn detect_group(p: &Pattern, sequences: &[SequenceSpec]) -> u8 {
    let base = variant(p, sequences, Orientation::IDENTITY);
    let mut group = 1u8;
    for t in Orientation::ALL.into_iter().skip(1) {
        if variant(p, sequences, t) == base {
            group |= 1 << t.index();
        }
    }
    group
}

/// The orientation whose action on the unit vectors is `(e1, e2)`.
fn orientation_mapping(e1: (i32, i32), e2: (i32, i32)) -> u8 {
    Orientation::ALL
        .into_iter()
        .find(|t| t.apply(1, 0) == e1 && t.apply(0, 1) == e2)
        .map(|t| t.index())
        .expect("a symmetry of the square")
}

/// The group of transforms a declared symmetry stands for (bit set over orientations).
pub fn declared_group(s: Symmetry) -> u8 {
    // Images of east (1,0) and south (0,1) under each generating mirror/rotation (y down).
    let vertical = orientation_mapping((-1, 0), (0, 1)); // `|`: x -> -x
    let horizontal = orientation_mapping((1, 0), (0, -1)); // `-`: y -> -y
    let diagonal = orientation_mapping((0, 1), (1, 0)); // `\`: (x,y) -> (y,x)
    let anti = orientation_mapping((0, -1), (-1, 0)); // `/`: (x,y) -> (-y,-x)
    let half_turn = orientation_mapping((-1, 0), (0, -1));
    let bit = |t: u8| 1u8 << t;
    match s {
        Symmetry::None => 1,
        Symmetry::Vertical => 1 | bit(vertical),
        Symmetry::Horizontal => 1 | bit(horizontal),
        Symmetry::Diagonal => 1 | bit(diagonal),
        Symmetry::AntiDiagonal => 1 | bit(anti),
        Symmetry::Cross => 1 | bit(vertical) | bit(horizontal) | bit(half_turn),
        Symmetry::DiagonalCross => 1 | bit(diagonal) | bit(anti) | bit(half_turn),
        Symmetry::Rotation180 => 1 | bit(half_turn),
        Symmetry::Full => 0xff,
    }
}

/// The distinct variants among the allowed orientations: `(orientations, covers)` as
/// `PatternSpec` wants them (ascending; each covers itself and its duplicates).
pub fn distinct_orientations(p: &Pattern, sequences: &[SequenceSpec]) -> (Vec<u8>, Vec<u8>) {
    let allowed: Vec<Orientation> = Orientation::ALL
        .into_iter()
        .filter(|t| p.allowed & (1 << t.index()) != 0)
        .collect();
    // Cells first (cheap); full variants (tests, result, sequence) only where cells agree.
    let cells: Vec<Vec<(Offset, States)>> = allowed
        .iter()
        .map(|t| {
            let mut c: Vec<(Offset, States)> = p
                .cells
                .iter()
                .map(|(o, s)| (transform(*t, *o), *s))
                .collect();
            c.sort();
            c
        })
        .collect();
    let mut full: Vec<Option<Variant>> = allowed.iter().map(|_| None).collect();
    let mut orientations = Vec::new();
    let mut covers = Vec::new();
    let mut covered = 0u8;
    for i in 0..allowed.len() {
        let t = allowed[i].index();
        if covered & (1 << t) != 0 {
            continue;
        }
        let mut set = 1u8 << t;
        for j in i + 1..allowed.len() {
            let u = allowed[j].index();
            if covered & (1 << u) != 0 || cells[j] != cells[i] {
                continue;
            }
            if full[i].is_none() {
                full[i] = Some(variant(p, sequences, allowed[i]));
            }
            if full[j].is_none() {
                full[j] = Some(variant(p, sequences, allowed[j]));
            }
            if full[i] == full[j] {
                set |= 1 << u;
            }
        }
        covered |= set;
        orientations.push(t);
        covers.push(set);
    }
    (orientations, covers)
}

/// Human name of a symmetry group for diagnostics.
pub fn group_name(group: u8) -> &'static str {
    for s in [
        Symmetry::None,
        Symmetry::Vertical,
        Symmetry::Horizontal,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Cross,
        Symmetry::DiagonalCross,
        Symmetry::Rotation180,
        Symmetry::Full,
    ] {
        if declared_group(s) == group {
            return match s {
                Symmetry::None => "`8` (none)",
                Symmetry::Vertical => "`|`",
                Symmetry::Horizontal => "`-`",
                Symmetry::Diagonal => "`\\`",
                Symmetry::AntiDiagonal => "`/`",
                Symmetry::Cross => "`+`",
                Symmetry::DiagonalCross => "`X`",
                Symmetry::Rotation180 => "`O`",
                Symmetry::Full => "`full`",
            };
        }
    }
    // Quarter-turn symmetry without mirrors has no declaration of its own.
    "quarter-turn rotation"
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn pattern(cells: &[((i16, i16), States)]) -> Pattern {
        let mut p = Pattern::empty(0, 0, 0, Default::default());
        p.cells = cells
            .iter()
            .map(|&((x, y), s)| (Offset::new(x, y), s))
            .collect::<BTreeMap<_, _>>();
        p
    }

    #[test]
    fn declared_groups_are_closed_and_match_their_mirror() {
        assert_eq!(declared_group(Symmetry::Full), 0xff);
        assert_eq!(declared_group(Symmetry::None), 1);
        for s in [
            Symmetry::Cross,
            Symmetry::DiagonalCross,
            Symmetry::Rotation180,
            Symmetry::Vertical,
        ] {
            let g = declared_group(s);
            for a in Orientation::ALL
                .into_iter()
                .filter(|t| g & (1 << t.index()) != 0)
            {
                for b in Orientation::ALL
                    .into_iter()
                    .filter(|t| g & (1 << t.index()) != 0)
                {
                    assert!(g & (1 << a.compose(b).index()) != 0, "{s:?} not closed");
                }
            }
        }
        // `|` mirrors east-west: orientation 4 by the numbering in docs/language.md.
        assert_eq!(declared_group(Symmetry::Vertical), 0b1_0001);
    }

    #[test]
    fn lone_focus_is_fully_symmetric() {
        let p = pattern(&[((0, 0), 4)]);
        assert_eq!(detect_group(&p, &[]), 0xff);
        let (o, c) = distinct_orientations(&p, &[]);
        assert_eq!(o, vec![0]);
        assert_eq!(c, vec![0xff]);
    }

    #[test]
    fn east_west_mirror_pattern_has_four_variants() {
        // friend north, foe both east and west: symmetric under x -> -x only.
        let p = pattern(&[((0, -1), 1), ((1, 0), 2), ((-1, 0), 2)]);
        assert_eq!(detect_group(&p, &[]), declared_group(Symmetry::Vertical));
        let (o, c) = distinct_orientations(&p, &[]);
        assert_eq!(o.len(), 4);
        assert_eq!(c.iter().map(|c| c.count_ones()).sum::<u32>(), 8);
        assert_eq!(c.iter().fold(0, |a, c| a | c), 0xff);
    }

    #[test]
    fn result_point_breaks_symmetry() {
        let mut p = pattern(&[((1, 0), 2), ((-1, 0), 2)]);
        assert_ne!(detect_group(&p, &[]), 1);
        p.result = Some(ResultSpec::Move {
            at: Offset::new(1, 0),
            value: 1,
            bits: 0,
            sequence: None,
        });
        // Only the mirror in the horizontal axis (y -> -y) keeps the result point in place.
        assert_eq!(detect_group(&p, &[]), declared_group(Symmetry::Horizontal));
    }

    #[test]
    fn asymmetric_pattern_keeps_allowed_orientations_only() {
        let mut p = pattern(&[((1, 0), 1), ((0, -1), 2)]);
        p.allowed = 0b0000_0101;
        let (o, c) = distinct_orientations(&p, &[]);
        assert_eq!(o, vec![0, 2]);
        assert_eq!(c, vec![1, 4]);
    }

    #[test]
    fn test_points_take_part_in_symmetry() {
        let mut p = pattern(&[((1, 0), 2), ((-1, 0), 2)]);
        let full = detect_group(&p, &[]);
        p.tests.push(lens_vm::spec::TestSpec {
            expr: TestExpr::Libs(Offset::new(1, 0)),
            cost: 1,
        });
        assert!(detect_group(&p, &[]).count_ones() < full.count_ones());
    }
}
