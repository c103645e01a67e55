//! Differential test: the bit-sliced kernel, the early-exit packed kernel (and the general
//! path) against the
//! point-by-point reference matcher, over >= 10^6 random (position, pattern variant, focus,
//! orientation set, perspective) cases, with zero disagreements, on every instruction-set path
//! the machine supports (`matching::simd`, forced one by one), the sliced kernel with every
//! survivor limit in turn (`internals::set_survivor_limit`), its blocks paired and not
//! (`internals::set_paired_blocks`).

use lens_test_support::fixtures::*;
use lens_vm::matching::simd::{self, Simd};
use lens_vm::matching::{HitPlan, KeptViews};
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;

fn random_class(rng: &mut Rng, name: &str, n: usize, r: i16, next_id: &mut u32) -> ClassSpec {
    let mut nodes = Vec::new();
    while nodes.len() < n {
        if rng.chance(0.05) {
            nodes.push(random_glob(rng, next_id, r));
        } else {
            nodes.push(ClassNode::Pattern(random_pattern(rng, *next_id, r, true)));
            *next_id += 1;
        }
    }
    let size = (2 * r + 1) as u8;
    ClassSpec {
        name: name.into(),
        mode: [Mode::All, Mode::Best, Mode::First][rng.below(3) as usize],
        focus: if rng.chance(0.8) { E } else { F | X | E },
        width: size,
        height: size,
        orient: OrientPolicy::All,
        default_value: rng.chance(0.3).then_some(-1),
        nodes,
    }
}

fn count_variants(nodes: &[ClassNode]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            ClassNode::Pattern(p) => p.orientations.len(),
            ClassNode::Glob { header, members } => {
                header.orientations.len() + count_variants(members)
            }
        })
        .sum()
}

#[test]
fn kernel_agrees_with_reference() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut next_id = 0;
    // 3x3, 5x5, 7x7 (packed) and 9x9, 11x11 (general) classes.
    let classes: Vec<ClassSpec> = [(1i16, 60usize), (2, 120), (3, 200), (4, 40), (5, 20)]
        .iter()
        .enumerate()
        .map(|(i, &(r, n))| random_class(&mut rng, &format!("c{i}"), n, r, &mut next_id))
        .collect();
    let variants: Vec<usize> = classes.iter().map(|c| count_variants(&c.nodes)).collect();
    let spec = RomSpec {
        toolchain: "diff".into(),
        classes,
        ..RomSpec::default()
    };
    let bytes = rom::write(&spec);
    let rom = Rom::from_bytes(&bytes).unwrap();
    // The same classes with the `sliced` section, in 512-entry blocks (what lensc writes) and
    // in 64-entry blocks (many block boundaries inside runs and globs).
    let sliced_bytes: Vec<Vec<u8>> = [8u8, 1]
        .iter()
        .map(|&bw| {
            let opts = rom::WriteOptions {
                sliced_block_words: bw,
                ..Default::default()
            };
            rom::write_with(&spec, &opts)
        })
        .collect();
    // The compact profile: each pattern once, expanded at load back to the fast image (with
    // the sliced tables), in the rotation below.
    let compact = rom::write_with(
        &spec,
        &rom::WriteOptions {
            profile: rom::Profile::Compact,
            ..Default::default()
        },
    );
    let expanded = rom::CompactRom::from_bytes(&compact)
        .expect("compact image loads")
        .expand(&rom::WriteOptions {
            sliced_block_words: 8,
            ..Default::default()
        })
        .expect("compact image expands");
    let mut sliced_bytes = sliced_bytes;
    sliced_bytes.push(expanded);
    let sliced: Vec<Rom<'_>> = sliced_bytes
        .iter()
        .map(|b| Rom::from_bytes(b).unwrap())
        .collect();
    assert!(!rom.has_sliced() && sliced.iter().all(|r| r.has_sliced()));
    // The plain facts (format v5) come with the sliced tables: the sliced images (and the
    // mask kernel on them, below) write plain matches from them, `rom` from the records.
    assert!(!rom.has_pattern_facts() && sliced.iter().all(|r| r.has_pattern_facts()));
    // Every instruction-set path this machine has (sliced ORs, view cut), forced one by one.
    // Per-entry facts (`HitPlan`) of every class of the sliced images.
    let facts: Vec<Vec<HitPlan>> = sliced
        .iter()
        .map(|r| {
            (0..r.class_count())
                .map(|c| HitPlan::new(r, ClassId(c as u32)).unwrap())
                .collect()
        })
        .collect();
    let paths: Vec<Simd> = Simd::supported().collect();
    for &path in &paths {
        simd::force(Some(path)).unwrap();
        agree(&mut rng, &rom, &sliced, &facts, &variants, path);
    }
    simd::force(None).unwrap();
    internals::set_survivor_limit(None);
    internals::set_paired_blocks(None);
    println!("paths: {paths:?}");
}

fn agree(
    rng: &mut Rng,
    rom: &Rom<'_>,
    sliced: &[Rom<'_>],
    facts: &[Vec<HitPlan>],
    variants: &[usize],
    path: Simd,
) {
    let mut hit_slots = [Hit::EMPTY; 512];
    let rng = &mut *rng;
    let mut cases = 0usize;
    let mut matches = 0usize;
    let mut fast = [Match::EMPTY; 512];
    let mut slow = [Match::EMPTY; 512];
    let mut rows = [Match::EMPTY; 512];
    let mut slow_rows = [Match::EMPTY; 512];
    let mut calls = 0usize;
    let mut scratch = Scratch::new();
    let mut kept = Box::new(KeptViews::new());
    // Each call checks every variant of its class at once, so 10^6 variant cases are only
    // ~1,500 calls; the floor on calls gives each rotation below (3 images x 4 survivor limits
    // x paired or not x pair rows or not) a few hundred calls per path.
    while cases < 1_000_000 || calls < 12_000 {
        let size = [5u8, 7, 9, 13, 19][rng.below(5) as usize];
        let density = 0.2 + rng.below(5) as f64 * 0.1;
        let board = TestBoard::random(rng, size, density);
        // The same position on the reference board, which has row bitboards: the kernel cuts
        // its views from them there (the TestBoard exercises the point-by-point fallback).
        let rows_board = to_board(&board);
        // And with its views kept (`KeptViews`): the kernels read them instead of a cut.
        let with_views = kept.sync(&rows_board);
        for _ in 0..40 {
            let c = rng.below(rom.class_count() as u64) as usize;
            let x = rng.below(size as u64) as i32;
            let y = rng.below(size as u64) as i32;
            let perspective = if rng.below(2) == 0 {
                Colour::Black
            } else {
                Colour::White
            };
            let orientations = match rng.below(4) {
                0 => Orientations::Set(rng.below(256) as u8),
                1 => {
                    let (dx, dy) = lens_vm::geometry::DIRECTIONS[rng.below(4) as usize];
                    Orientations::Up {
                        toward: (x + dx, y + dy),
                    }
                }
                _ => Orientations::All,
            };
            let q = Query {
                class: ClassId(c as u32),
                perspective,
                orientations,
            };
            let mut a = MatchBuf::new(&mut fast);
            let mut b = MatchBuf::new(&mut slow);
            let na = rom.match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut a);
            let nb = reference::match_at(rom, &board, &NoHost, &q, x, y, &mut scratch, &mut b);
            assert_eq!(
                na, nb,
                "count differs: class {c} at ({x},{y}) {q:?}\n{board:?}"
            );
            assert_eq!(
                a.as_slice(),
                b.as_slice(),
                "matches differ: class {c} at ({x},{y}) {q:?}"
            );
            // (to_board skips illegal placements, so compare against the reference there.)
            let mut r = MatchBuf::new(&mut rows);
            let mut rb = MatchBuf::new(&mut slow_rows);
            let nr = rom.match_at(&rows_board, &NoHost, &q, x, y, &mut scratch, &mut r);
            let nrb =
                reference::match_at(rom, &rows_board, &NoHost, &q, x, y, &mut scratch, &mut rb);
            assert_eq!(
                nr, nrb,
                "count differs (row bitboards): class {c} at ({x},{y}) {q:?}"
            );
            assert_eq!(
                r.as_slice(),
                rb.as_slice(),
                "matches differ (row bitboards): class {c} at ({x},{y}) {q:?}"
            );
            // The sliced kernel, on both boards, against the same reference answers.
            calls += 1;
            let s = &sliced[calls % 3];
            // The sliced kernel's survivor checks: the default (never: every row ORed), at most
            // four (the default before format v6), at most one, always.
            internals::set_survivor_limit([None, Some(4), Some(1), Some(u32::MAX)][calls / 3 % 4]);
            // Word-0 rows of two blocks in one pass, or one block at a time.
            internals::set_paired_blocks(Some((calls / 12).is_multiple_of(2)));
            // Word-0 pair rows (format v4), or each point's single rows (older images).
            internals::set_pair_rows(Some((calls / 24).is_multiple_of(2)));
            let mut sa = MatchBuf::new(&mut fast);
            let ns = s.match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut sa);
            assert_eq!(
                (ns, sa.as_slice()),
                (nb, b.as_slice()),
                "sliced kernel (or expanded compact image {}) differs: class {c} at ({x},{y}) {q:?}",
                calls % 3
            );
            // Compact hits through the per-entry facts, resolved: the same matches.
            let mut h = HitBuf::new(&mut hit_slots);
            let f = &facts[calls % 3][c];
            let nh = f.match_hits_at(s, &board, &NoHost, &q, x, y, &mut scratch, &mut h);
            let resolved: Vec<Match> = h.as_slice().iter().map(|h| h.resolve(s, q.class)).collect();
            assert_eq!(
                (nh, &resolved[..]),
                (nb, b.as_slice()),
                "HitPlan differs: class {c} at ({x},{y}) {q:?}"
            );
            // Full matches through the same facts.
            let mut pm = MatchBuf::new(&mut fast);
            let np = f.match_at(s, &board, &NoHost, &q, x, y, &mut scratch, &mut pm);
            assert_eq!(
                (np, pm.as_slice()),
                (nb, b.as_slice()),
                "HitPlan::match_at differs: class {c} at ({x},{y}) {q:?}"
            );
            let mut sr = MatchBuf::new(&mut fast);
            let nsr = s.match_at(&rows_board, &NoHost, &q, x, y, &mut scratch, &mut sr);
            assert_eq!(
                (nsr, sr.as_slice()),
                (nrb, rb.as_slice()),
                "sliced kernel differs (row bitboards): class {c} at ({x},{y}) {q:?}"
            );
            // The mask kernel with the plain facts.
            let mut mf = MatchBuf::new(&mut fast);
            let nmf = s
                .without_sliced()
                .match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut mf);
            assert_eq!(
                (nmf, mf.as_slice()),
                (nb, b.as_slice()),
                "mask kernel with plain facts differs: class {c} at ({x},{y}) {q:?}"
            );
            // Both kernels on the same board with kept views (views read, not cut).
            for (kernel, r) in [(rom, "masks"), (s, "sliced")] {
                let mut kv = MatchBuf::new(&mut fast);
                let nk = kernel.match_at(&with_views, &NoHost, &q, x, y, &mut scratch, &mut kv);
                assert_eq!(
                    (nk, kv.as_slice()),
                    (nrb, rb.as_slice()),
                    "{r} kernel differs (kept views): class {c} at ({x},{y}) {q:?}"
                );
            }
            cases += variants[c];
            matches += na;
        }
    }
    assert!(
        matches > 1000,
        "the random set should produce matches ({matches})"
    );
    println!(
        "{path:?}: {calls} calls, {cases} oriented-variant cases, {matches} matches, 0 disagreements"
    );
}
