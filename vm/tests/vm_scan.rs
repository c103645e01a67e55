//! Differential test of the whole-board scan: `Rom::scan` (board-parallel) against the
//! reference matcher's scan and the per-point scan (`Rom::scan_points`), match for match and in
//! the same order, over random classes of every kind (packed 3x3..7x7, general 9x9..25x25,
//! globs, rejects, tests, defaults, all three modes), boards of every size class (5..25, with
//! and without row bitboards), both perspectives and all orientation-set kinds, on every
//! instruction-set path the machine supports (`matching::simd`, in rotation).

use lens_test_support::fixtures::*;
use lens_vm::matching::simd::{self, Simd};
use lens_vm::spec::{ClassNode, ClassSpec, Mode, RomSpec};
use lens_vm::*;

fn image(rng: &mut Rng) -> Vec<u8> {
    rom::write(&spec(rng))
}

/// The same classes as `lensc` writes them: with the bit-sliced tables (512-entry blocks) and
/// 3x3 lookup tables, so the dispatch takes its per-focus paths for those classes.
fn image_with_tables(rng: &mut Rng) -> Vec<u8> {
    let opts = rom::WriteOptions {
        sliced_block_words: 8,
        lut_max_bytes: u32::MAX,
        lut_max_bytes_per_variant: 0,
        profile: rom::Profile::Fast,
    };
    rom::write_with(&spec(rng), &opts)
}

fn spec(rng: &mut Rng) -> RomSpec {
    let mut next_id = 0;
    // radius 1-3: packed; 4, 8 (offsets at the plane cache's edge), 12 (25x25 fields): general.
    let mut classes: Vec<ClassSpec> = [
        (1i16, 30usize),
        (2, 40),
        (3, 60),
        (4, 30),
        (8, 20),
        (12, 10),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(r, n))| random_class(rng, &format!("c{i}"), n, r, &mut next_id, 3))
    .collect();
    // A class matching everywhere in 8 orientations, 96 times over: more geometric hits than
    // the board-parallel scratch holds (16384) on a board, even on one row of 25 (the scan
    // splits the board into row bands, then matches such a row point by point).
    let mut anything = Vec::new();
    for _ in 0..96 {
        let mut p = pattern(next_id, &[(0, 1, F | X | E | OFF)], None);
        p.result = Some(lens_vm::spec::ResultSpec::Value { value: 1, bits: 0 });
        anything.push(ClassNode::Pattern(p));
        next_id += 1;
    }
    // Patterns of more than 128 cells (read in stored order, not regrouped): 160 on-board
    // cells within radius 8 and two exact ones.
    let mut big = Vec::new();
    for k in 0..2i16 {
        let mut cells: Vec<(i16, i16, u8)> = (-8..=8i16)
            .flat_map(|dy| (-8..=8i16).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && (dx + dy + k) % 2 == 0)
            .take(160)
            .map(|(dx, dy)| (dx, dy, F | X | E))
            .collect();
        cells.push((0, 1, E));
        cells.push((1, k, F | X));
        let mut p = pattern(next_id, &cells, None);
        p.result = Some(lens_vm::spec::ResultSpec::Value { value: 2, bits: 0 });
        big.push(ClassNode::Pattern(p));
        next_id += 1;
    }
    classes.push(class("big", Mode::All, 17, big));
    let mut all = class("everywhere", Mode::First, 3, anything);
    all.focus = F | X | E;
    classes.push(all);
    RomSpec {
        toolchain: "scan".into(),
        classes,
        ..RomSpec::default()
    }
}

/// Scans `q` three ways and compares them; returns the match count and whether the
/// board-parallel path took the scan (rather than falling back to the per-point path).
fn check<B: BoardView>(
    rom: &Rom<'_>,
    board: &B,
    q: &Query,
    area: lens_vm::matching::Area,
    (plan, facts): (&lens_vm::matching::ScanPlan, &lens_vm::matching::HitPlan),
    scratch: &mut Scratch,
    bufs: &mut [Vec<Match>; 3],
) -> (usize, bool) {
    let [fast, points, slow] = bufs;
    let mut b = MatchBuf::new(points);
    let mut c = MatchBuf::new(slow);
    let nb = rom.scan_points(board, &NoHost, q, scratch, &mut b);
    let nc = reference::scan(rom, board, &NoHost, q, scratch, &mut c);
    assert_eq!(c.dropped(), 0, "output buffer too small");
    assert_eq!(nb, nc, "counts differ (points): {q:?}");
    assert_eq!(
        b.as_slice(),
        c.as_slice(),
        "scan_points vs reference: {q:?}"
    );
    let mut a = MatchBuf::new(fast);
    let took = rom.scan_parallel(board, &NoHost, q, scratch, &mut a);
    if let Some(na) = took {
        assert_eq!(na, nc, "counts differ (board-parallel): {q:?}");
        assert_eq!(
            a.as_slice(),
            c.as_slice(),
            "scan_parallel vs reference: {q:?}"
        );
    } else {
        assert!(a.is_empty(), "a declined scan writes nothing");
    }
    let mut a = MatchBuf::new(fast);
    assert_eq!(rom.scan(board, &NoHost, q, scratch, &mut a), nc);
    assert_eq!(a.as_slice(), c.as_slice(), "scan vs reference: {q:?}");
    let mut a = MatchBuf::new(fast);
    assert_eq!(plan.scan(rom, board, &NoHost, q, scratch, &mut a), nc);
    assert_eq!(a.as_slice(), c.as_slice(), "plan scan vs reference: {q:?}");

    // Compact hits, resolved, are the same matches in the same order.
    let mut hit_slots = vec![lens_vm::matching::Hit::EMPTY; c.len() + 1];
    let resolved = |h: &lens_vm::matching::HitBuf<'_>| -> Vec<Match> {
        h.as_slice()
            .iter()
            .map(|h| h.resolve(rom, q.class))
            .collect()
    };
    let mut h = lens_vm::matching::HitBuf::new(&mut hit_slots);
    assert_eq!(rom.scan_hits(board, &NoHost, q, scratch, &mut h), nc);
    assert_eq!(resolved(&h), c.as_slice(), "scan_hits vs reference: {q:?}");
    let mut h = lens_vm::matching::HitBuf::new(&mut hit_slots);
    assert_eq!(plan.scan_hits(rom, board, &NoHost, q, scratch, &mut h), nc);
    assert_eq!(
        resolved(&h),
        c.as_slice(),
        "plan scan_hits vs reference: {q:?}"
    );
    // The plan's planes forced, with sets over the foci (when the plan has them and the foci
    // fit) and over the whole board; survivors straight to matches (plain classes) and
    // through the class program.
    for plan in [
        plan,
        &plan.clone().without_foci_sets(),
        &plan.clone().without_plain(),
    ] {
        let mut a = MatchBuf::new(fast);
        if let Some(n) = plan.scan_parallel(rom, board, &NoHost, q, scratch, &mut a) {
            assert_eq!(n, nc);
            assert_eq!(
                a.as_slice(),
                c.as_slice(),
                "plan planes (over foci: {}, plain: {}) vs reference: {q:?}",
                plan.over_foci(),
                plan.plain()
            );
        }
        let mut h = lens_vm::matching::HitBuf::new(&mut hit_slots);
        assert_eq!(plan.scan_hits(rom, board, &NoHost, q, scratch, &mut h), nc);
        assert_eq!(
            resolved(&h),
            c.as_slice(),
            "plan scan_hits (plain: {}) vs reference: {q:?}",
            plan.plain()
        );
    }
    let mut fast2 = vec![Match::EMPTY; fast.len()];
    for y in area.y0..area.y1 {
        for x in area.x0..area.x1 {
            let mut a = MatchBuf::new(fast);
            let n = rom.match_at(board, &NoHost, q, x, y, scratch, &mut a);
            let mut h = lens_vm::matching::HitBuf::new(&mut hit_slots);
            assert_eq!(
                rom.match_hits_at(board, &NoHost, q, x, y, scratch, &mut h),
                n
            );
            assert_eq!(
                resolved(&h),
                a.as_slice(),
                "match_hits_at ({x}, {y}): {q:?}"
            );
            // Through the per-entry facts (plain matches written without their records).
            let mut h = lens_vm::matching::HitBuf::new(&mut hit_slots);
            assert_eq!(
                facts.match_hits_at(rom, board, &NoHost, q, x, y, scratch, &mut h),
                n
            );
            assert_eq!(
                resolved(&h),
                a.as_slice(),
                "HitPlan::match_hits_at ({x}, {y}): {q:?}"
            );
            // Full matches through the same facts.
            let mut m = MatchBuf::new(&mut fast2);
            assert_eq!(
                facts.match_at(rom, board, &NoHost, q, x, y, scratch, &mut m),
                n
            );
            assert_eq!(
                m.as_slice(),
                a.as_slice(),
                "HitPlan::match_at ({x}, {y}): {q:?}"
            );
        }
    }
    // The rescan of an area: the whole scan's matches at the foci inside it.
    let inside = |m: &&Match| {
        let (x, y) = m.focus;
        x >= area.x0 && x < area.x1 && y >= area.y0 && y < area.y1
    };
    let want: Vec<Match> = c.as_slice().iter().filter(inside).copied().collect();
    let mut a = MatchBuf::new(fast);
    let n = rom.scan_area(board, &NoHost, q, area, scratch, &mut a);
    assert_eq!(n, want.len(), "scan_area count: {q:?} {area:?}");
    assert_eq!(
        a.as_slice(),
        &want[..],
        "scan_area vs reference: {q:?} {area:?}"
    );
    let mut a = MatchBuf::new(fast);
    let n = plan.scan_area(rom, board, &NoHost, q, area, scratch, &mut a);
    assert_eq!(n, want.len(), "plan scan_area count: {q:?} {area:?}");
    assert_eq!(
        a.as_slice(),
        &want[..],
        "plan scan_area vs reference: {q:?} {area:?}"
    );
    (nc, took.is_some())
}

#[test]
fn board_parallel_scan_equals_reference_scan() {
    scans_equal_reference(image(&mut Rng(0x5ca9_0b0a_4d00_0001)), false);
}

/// The same with lookup and bit-sliced tables: `Rom::scan`, `scan_area` and the plan scans
/// take the per-focus lookup and sliced kernels where the dispatch finds them cheaper.
#[test]
fn scans_with_tables_equal_reference_scan() {
    scans_equal_reference(image_with_tables(&mut Rng(0x5ca9_0b0a_4d00_0001)), true);
}

fn scans_equal_reference(bytes: Vec<u8>, tables: bool) {
    let mut rng = Rng(0x5ca9_0b0a_4d00_0001 ^ 0x77);
    let rom = Rom::from_bytes(&bytes).unwrap();
    assert_eq!(rom.has_sliced() && rom.has_lut(), tables);
    let mut bufs = [
        vec![Match::EMPTY; 1 << 15],
        vec![Match::EMPTY; 1 << 15],
        vec![Match::EMPTY; 1 << 15],
    ];
    let mut scratch = Scratch::new();
    let plans: Vec<_> = (0..rom.class_count())
        .map(|c| lens_vm::matching::ScanPlan::new(&rom, ClassId(c as u32)).unwrap())
        .collect();
    assert!(plans.iter().all(|p| p.fits(&rom)));
    // Packed classes (keys within 3 points) take the sets over the foci.
    assert!(plans.iter().any(|p| p.over_foci()));
    // Some classes skip the class program on their survivors, not all.
    assert!(plans.iter().any(|p| p.plain()));
    assert!(plans.iter().any(|p| !p.plain()));
    let facts: Vec<_> = (0..rom.class_count())
        .map(|c| lens_vm::matching::HitPlan::new(&rom, ClassId(c as u32)).unwrap())
        .collect();
    assert!(facts.iter().all(|f| f.fits(&rom)));
    // Some entries are plain (the facts' shortcut is taken), not all (the records' path too).
    let plain: usize = facts.iter().map(|f| f.plain_count()).sum();
    assert!(plain > 0 && plain < rom.entry_count(), "{plain} plain");
    let mut matches = [0usize; 16];
    let mut declined = [0usize; 16];
    // The instruction-set paths (plane ANDs, sliced ORs, view cut) in rotation, a round each.
    let paths: Vec<Simd> = Simd::supported().collect();
    for round in 0..12 {
        simd::force(Some(paths[round % paths.len()])).unwrap();
        let size = [5u8, 7, 9, 13, 19, 25][round % 6];
        let density = 0.2 + rng.below(5) as f64 * 0.1;
        let board = TestBoard::random(&mut rng, size, density);
        let rows_board = to_board(&board);
        for c in 0..rom.class_count() {
            for perspective in [Colour::Black, Colour::White] {
                let (x, y) = (rng.below(size as u64) as i32, rng.below(size as u64) as i32);
                let orientations = match rng.below(4) {
                    0 => Orientations::Set(rng.below(256) as u8),
                    1 => Orientations::Up { toward: (x, y) },
                    _ => Orientations::All,
                };
                let q = Query {
                    class: ClassId(c as u32),
                    perspective,
                    orientations,
                };
                // Around a point, up to 4 away (partly off the board near the edges).
                let r = rng.below(5) as i32;
                let area = lens_vm::matching::Area::around(x, y, r);
                for (n, took) in [
                    check(
                        &rom,
                        &board,
                        &q,
                        area,
                        (&plans[c], &facts[c]),
                        &mut scratch,
                        &mut bufs,
                    ),
                    check(
                        &rom,
                        &rows_board,
                        &q,
                        area,
                        (&plans[c], &facts[c]),
                        &mut scratch,
                        &mut bufs,
                    ),
                ] {
                    matches[c] += n;
                    declined[c] += usize::from(!took);
                }
            }
        }
    }
    simd::force(None).unwrap();
    // Every class produced matches (the comparison is not vacuous).
    for (c, &n) in matches.iter().enumerate().take(rom.class_count()) {
        assert!(n > 0, "class {c} never matched");
    }
    println!("matches per class: {:?}", &matches[..rom.class_count()]);
    // The board-parallel path took every scan (boards up to 25x25).
    assert!(declined.iter().all(|&d| d == 0), "{declined:?}");
}

/// A plan asked about another class, or used with another ROM, does not apply its trie: the
/// scan goes to `Rom::scan` and its matches are still right.
#[test]
fn scan_plan_of_another_class_or_rom_falls_back() {
    let mut rng = Rng(0x5ca9_0b0a_4d00_0002);
    let bytes = image(&mut rng);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let other_bytes = image(&mut rng);
    let other = Rom::from_bytes(&other_bytes).unwrap();
    let plan = lens_vm::matching::ScanPlan::new(&rom, ClassId(0)).unwrap();
    assert!(plan.fits(&rom));
    assert!(!plan.fits(&other), "another layout is detected");
    assert!(lens_vm::matching::ScanPlan::new(&rom, ClassId(999)).is_none());
    let facts = lens_vm::matching::HitPlan::new(&rom, ClassId(0)).unwrap();
    assert!(facts.fits(&rom) && !facts.fits(&other));
    assert!(lens_vm::matching::HitPlan::new(&rom, ClassId(999)).is_none());
    let board = to_board(&TestBoard::random(&mut rng, 19, 0.4));
    let mut scratch = Scratch::new();
    let (mut a, mut b) = (vec![Match::EMPTY; 1 << 15], vec![Match::EMPTY; 1 << 15]);
    let mut seen = 0;
    for (r, c) in [(&rom, 1u32), (&rom, 2), (&other, 0), (&other, 3)] {
        let q = Query {
            class: ClassId(c),
            perspective: Colour::White,
            orientations: Orientations::All,
        };
        let mut want = MatchBuf::new(&mut a);
        let n = reference::scan(r, &board, &NoHost, &q, &mut scratch, &mut want);
        let mut got = MatchBuf::new(&mut b);
        assert_eq!(plan.scan(r, &board, &NoHost, &q, &mut scratch, &mut got), n);
        assert_eq!(got.as_slice(), want.as_slice(), "class {c}");
        seen += n;
        // The per-entry facts of class 0 of `rom` likewise: another class or ROM takes the
        // records' path.
        let mut hs = vec![lens_vm::matching::Hit::EMPTY; 1 << 12];
        for (x, y) in [(3, 3), (9, 9), (0, 18), (15, 4)] {
            let mut want = MatchBuf::new(&mut a);
            let n = reference::match_at(r, &board, &NoHost, &q, x, y, &mut scratch, &mut want);
            let mut got = lens_vm::matching::HitBuf::new(&mut hs);
            assert_eq!(
                facts.match_hits_at(r, &board, &NoHost, &q, x, y, &mut scratch, &mut got),
                n
            );
            let resolved: Vec<Match> = got
                .as_slice()
                .iter()
                .map(|h| h.resolve(r, q.class))
                .collect();
            assert_eq!(resolved, want.as_slice(), "facts: class {c} at ({x}, {y})");
        }
    }
    assert!(seen > 0);
}

/// `ScanSet::scan` (the plain anchor classes walked together over all stones, both colours,
/// the others by their own plans) gives every class's list for each colour as the reference
/// does, on every board size, orientation-set kind and instruction-set path; with more than
/// 256 stones (25x25, dense) the shared walk steps aside and the plans scan alone.
#[test]
fn scan_set_equals_reference_scans() {
    let mut rng = Rng(0x5ca9_0b0a_4d00_0003);
    let mut next_id = 0;
    let mut classes = Vec::new();
    // Plain classes (mode all, no default, globs, tests or rejects) anchored on a friend or a
    // foe stone: they join the walk; radius 1-3 (packed) and 4, 8 (general).
    for (i, &(r, focus)) in [(1i16, F), (2, X), (3, F), (4, X), (8, F), (3, X)]
        .iter()
        .enumerate()
    {
        let mut nodes = Vec::new();
        for _ in 0..[40, 40, 60, 30, 20, 50][i] {
            let mut p = random_pattern(&mut rng, next_id, r, false);
            p.cells.truncate(3 + rng.below(3) as usize);
            // Values and moves (the shared walk writes a move's point turned by the entry's
            // orientation and moved to the focus).
            p.result = Some(if rng.below(2) == 0 {
                lens_vm::spec::ResultSpec::Value {
                    value: next_id as i32,
                    bits: 0,
                }
            } else {
                lens_vm::spec::ResultSpec::Move {
                    at: lens_vm::spec::Offset {
                        dx: rng.below(2 * r as u64 + 1) as i16 - r,
                        dy: rng.below(2 * r as u64 + 1) as i16 - r,
                    },
                    value: next_id as i32,
                    bits: 1,
                    sequence: None,
                }
            });
            nodes.push(ClassNode::Pattern(p));
            next_id += 1;
        }
        let mut c = class(&format!("plain{i}"), Mode::All, (2 * r + 1) as u8, nodes);
        c.focus = focus;
        classes.push(c);
    }
    // Classes that cannot join: foci on empty points, a mode other than `all`.
    let mut c = random_class(&mut rng, "empty_focus", 30, 2, &mut next_id, 3);
    c.focus = E;
    classes.push(c);
    let mut c = random_class(&mut rng, "first", 30, 3, &mut next_id, 3);
    c.focus = F;
    c.mode = Mode::First;
    classes.push(c);
    let spec = RomSpec {
        toolchain: "scan".into(),
        classes,
        ..RomSpec::default()
    };
    let bytes = rom::write(&spec);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let ids: Vec<ClassId> = (0..rom.class_count() as u32).map(ClassId).collect();
    let set = lens_vm::matching::ScanSet::new(&rom, &ids).unwrap();
    assert_eq!(
        set.walked(),
        6,
        "the six plain anchor classes share the walk"
    );
    assert!(lens_vm::matching::ScanSet::new(&rom, &[ClassId(999)]).is_none());
    // The shared walk over patterns (sets over focus x orientation), and the same set walking
    // oriented entries (every fourth round).
    let oriented = set.clone().without_pattern_walk();
    assert!(set.by_pattern() && !oriented.by_pattern());
    // The walk over patterns writes each pattern's hits as a run in entry order (sorted by
    // focus alone); the same set sorting them by focus and entry (every fourth round).
    let unsorted = set.clone().without_runs();
    assert!(set.sorts_by_runs() && unsorted.by_pattern() && !unsorted.sorts_by_runs());
    let mut slots = vec![Match::EMPTY; (2 * ids.len()) << 13];
    let mut hit_slots = vec![Hit::EMPTY; (2 * ids.len()) << 13];
    let mut want = vec![Match::EMPTY; 1 << 13];
    let mut scratch = Scratch::new();
    let paths: Vec<Simd> = Simd::supported().collect();
    let mut matches = vec![0usize; ids.len()];
    let mut taken = [0usize; 2];
    // Shared walks whose offset planes were gathered portably / with `pext`.
    let mut gathers = [0usize; 2];
    // Children the walks visited by recursion, their stack forced small (1 or 3 pending) or
    // left whole.
    let mut fallbacks = [0usize; 2];
    // Walks over patterns: by the oriented set; by the other, with the stack whole / forced
    // small (a walk over patterns that fills it is declined: the oriented walk serves).
    let mut pattern_walks = [0usize; 3];
    for round in 0..24 {
        simd::force(Some(paths[round % paths.len()])).unwrap();
        let pending = [None, Some(1), Some(3)][round % 3];
        lens_vm::internals::set_walk_pending(pending);
        let before = lens_vm::internals::walk_fallbacks(&scratch);
        let walks_before = lens_vm::internals::pattern_walks(&scratch);
        let by_pattern = round % 4 != 3;
        let set = match round % 4 {
            3 => &oriented,
            1 => &unsorted,
            _ => &set,
        };
        let size = [5u8, 7, 9, 13, 19, 25][round % 6];
        let density = 0.1 + rng.below(7) as f64 * 0.1;
        let board = TestBoard::random(&mut rng, size, density);
        let rows_board = to_board(&board);
        let (x, y) = (rng.below(size as u64) as i32, rng.below(size as u64) as i32);
        let orientations = match rng.below(4) {
            0 => Orientations::Set(rng.below(256) as u8),
            1 => Orientations::Up { toward: (x, y) },
            _ => Orientations::All,
        };
        for b in [&board as &dyn BoardView, &rows_board] {
            // The shared walk alone first.
            let mut outs: Vec<MatchBuf> = slots.chunks_mut(1 << 13).map(MatchBuf::new).collect();
            let walked = set.scan_shared(&rom, b, orientations, &mut scratch, &mut outs);
            let stones = (0..size as i32)
                .flat_map(|y| (0..size as i32).map(move |x| (x, y)))
                .filter(|&(x, y)| matches!(b.point(x, y), lens_vm::board::Point::Stone(_)))
                .count();
            // Declined past 256 stones (or more hits than the scratch holds).
            assert!(stones <= 256 || walked.is_none(), "{stones} stones");
            taken[usize::from(walked.is_some())] += 1;
            if walked.is_some() {
                gathers[usize::from(paths[round % paths.len()].pext_offsets())] += 1;
            }
            // The compact-hit form, through the shared walk alone and whole.
            let mut hit_outs: Vec<HitBuf> =
                hit_slots.chunks_mut(1 << 13).map(HitBuf::new).collect();
            let walked_hits =
                set.scan_shared_hits(&rom, b, orientations, &mut scratch, &mut hit_outs);
            assert_eq!(walked_hits, walked, "scan_shared_hits and scan_shared");
            let mut hit_outs: Vec<HitBuf> =
                hit_slots.chunks_mut(1 << 13).map(HitBuf::new).collect();
            let n_hits = set.scan_hits(&rom, b, &NoHost, orientations, &mut scratch, &mut hit_outs);
            let mut outs: Vec<MatchBuf> = slots.chunks_mut(1 << 13).map(MatchBuf::new).collect();
            let n = set.scan(&rom, b, &NoHost, orientations, &mut scratch, &mut outs);
            assert_eq!(n_hits, n);
            for (i, &class) in ids.iter().enumerate() {
                for k in 0..2 {
                    let resolved: Vec<Match> = hit_outs[2 * i + k]
                        .as_slice()
                        .iter()
                        .map(|h| h.resolve(&rom, class))
                        .collect();
                    assert_eq!(
                        resolved.as_slice(),
                        outs[2 * i + k].as_slice(),
                        "hits, class {i}"
                    );
                }
            }
            let mut total = 0;
            for (i, &class) in ids.iter().enumerate() {
                for (k, perspective) in [Colour::Black, Colour::White].into_iter().enumerate() {
                    let q = Query {
                        class,
                        perspective,
                        orientations,
                    };
                    let mut w = MatchBuf::new(&mut want);
                    let nw = reference::scan(&rom, b, &NoHost, &q, &mut scratch, &mut w);
                    assert_eq!(w.dropped(), 0);
                    assert_eq!(
                        outs[2 * i + k].as_slice(),
                        w.as_slice(),
                        "class {i}, {perspective:?}, size {size}, {orientations:?}"
                    );
                    total += nw;
                    matches[i] += nw;
                }
            }
            assert_eq!(n, total);
        }
        fallbacks[usize::from(pending.is_some())] +=
            lens_vm::internals::walk_fallbacks(&scratch) - before;
        let kind = if !by_pattern {
            0
        } else {
            1 + usize::from(pending == Some(1))
        };
        pattern_walks[kind] += lens_vm::internals::pattern_walks(&scratch) - walks_before;
    }
    // The walk over patterns served the set that has one, never the oriented one, and was
    // declined with room for one pending node.
    assert!(
        pattern_walks[0] == 0 && pattern_walks[1] > 0 && pattern_walks[2] == 0,
        "{pattern_walks:?}"
    );
    lens_vm::internals::set_walk_pending(None);
    simd::force(None).unwrap();
    // The stack held every pending child of these small tries; forced small, the walks took
    // the recursion.
    assert_eq!(fallbacks[0], 0, "{fallbacks:?}");
    assert!(fallbacks[1] > 0, "{fallbacks:?}");
    assert!(matches.iter().all(|&n| n > 0), "{matches:?}");
    println!(
        "shared walk declined / taken: {taken:?}; offsets gathered portably / by pext: {gathers:?}"
    );
    assert!(gathers[0] > 0, "the portable gather");
    assert!(
        gathers[1] > 0 || !paths.iter().any(|p| p.pext_offsets()),
        "the pext gather, on a CPU that has it"
    );
    // Both: the walk over all stones, and the plans alone past 256 stones.
    assert!(taken[0] > 0 && taken[1] > 0, "{taken:?}");
}
