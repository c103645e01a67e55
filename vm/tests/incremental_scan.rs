//! `IncrementalScan` equals a whole-board `Rom::scan` after every step of random games (plays
//! with captures, passes, undos, setup removals, several steps between some updates) on boards
//! of several sizes, for random classes of every kind (packed and general fields, globs,
//! rejects, tests reading liberties and nearby points, defaults, all three modes), both
//! perspectives and an orientation subset; the reported difference (in scan order) turns the
//! old set into the new one, with the filter's survivor refill forced on one size and both
//! rematch paths (per-entry facts, class program) present, and the instruction-set levels
//! (`matching::simd`: the filter's ANDs) in rotation over the sizes; the same queries as one group
//! (`IncrementalGroup`) give each set alone's matches, runs and difference after every update;
//! updates (and `Codes3x3::update`) never allocate, a small journal's dropped records
//! included. Undos restored from the journal (and the updates that must match instead: an
//! undo then another play, several steps at once, a removal, undos beyond a small journal,
//! the update after `invalidate`) equal full scans; the journal keeps within its budget.
//! Sets and groups in entry mode (`with_entry_results`: plain classes only) equal their
//! match-mode twins after every step, journal restores and pool compactions included.
//! Needs no external data.

mod incremental_support;

use std::collections::BTreeSet;

use incremental_support::{Did, Rng as StepRng, assert_entry_twin, random_step};
use lens_test_support::fixtures::*;
use lens_vm::board::Board;
use lens_vm::incremental::{DEFAULT_JOURNAL_BYTES, IncrementalGroup, IncrementalScan, MatchId};
use lens_vm::matching::simd::{self, Simd};
use lens_vm::spec::{ClassNode, ClassSpec, Mode, RomSpec};
use lens_vm::*;

/// Capacity of the sets with an orientation subset on boards up to 9x9: just above their
/// largest set (1,010 matches), so their match pools are compacted during the games.
const SMALL: usize = 1030;

#[test]
fn incremental_sets_equal_full_scans_on_random_games() {
    let mut rng = Rng(0x1C2E);
    let mut steps = StepRng(0x5EED);
    let mut next_id = 0;
    let mut classes: Vec<ClassSpec> = [(1i16, 30usize), (2, 40), (3, 40), (4, 20), (8, 10)]
        .iter()
        .enumerate()
        .map(|(i, &(r, n))| random_class(&mut rng, &format!("c{i}"), n, r, &mut next_id, 4))
        .collect();
    classes.extend(plain_classes(&mut rng, &mut next_id));
    let spec = RomSpec {
        toolchain: "incremental".into(),
        classes,
        ..RomSpec::default()
    };
    let opts = rom::WriteOptions {
        sliced_block_words: 8,
        lut_max_bytes: u32::MAX,
        lut_max_bytes_per_variant: 0,
        profile: rom::Profile::Fast,
    };
    let bytes = rom::write_with(&spec, &opts);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let mut scratch = Scratch::new();
    let mut slots = vec![Match::EMPTY; 1 << 14];
    let mut compared = 0;
    let mut changes = 0;
    // One path per vector level the machine has (the filter's ANDs take the level).
    let mut levels: Vec<Simd> = Simd::supported().collect();
    levels.dedup_by_key(|s| s.vector);
    for (round, size) in [7u8, 9, 13, 19].into_iter().enumerate() {
        simd::force(Some(levels[round % levels.len()])).unwrap();
        let mut sets: Vec<IncrementalScan> = rom
            .classes()
            .flat_map(|c| {
                [
                    (Colour::Black, Orientations::All),
                    (Colour::White, Orientations::All),
                    (Colour::Black, Orientations::Set(0b1010_0110)),
                ]
                .map(|(perspective, orientations)| {
                    let q = Query {
                        class: c.id(),
                        perspective,
                        orientations,
                    };
                    // A small capacity for one on small boards: its match pool is compacted often.
                    let subset = orientations != Orientations::All;
                    let capacity = if size <= 9 && subset { SMALL } else { 1 << 14 };
                    IncrementalScan::new(&rom, q, capacity).unwrap()
                })
            })
            .collect();
        // Both rematch paths: per-entry facts (plain classes) and the class program.
        let by_facts = sets.iter().filter(|s| s.rematches_by_facts()).count();
        assert!(
            0 < by_facts && by_facts < sets.len(),
            "{by_facts} of {}",
            sets.len()
        );
        // The same queries as one group (one read per update): each of its sets equals the
        // set alone after every update.
        let queries: Vec<Query> = sets.iter().map(|s| *s.query()).collect();
        let mut group = IncrementalGroup::new(&rom, &queries, 1 << 14).unwrap();
        assert_eq!(group.sets().len(), queries.len());
        // On 9x9 the filter checks its held survivors after every word (the refill path).
        internals::set_survivor_flush((size == 9).then_some(0));
        let mut b = Board::new(size).unwrap();
        for i in 0..90 {
            let mut did = random_step(&mut steps, &mut b);
            if i % 7 == 0 {
                // Several changes between two updates.
                did = random_step(&mut steps, &mut b);
            }
            let mut changed = 0;
            for set in &mut sets {
                let was = set.matches().to_vec();
                let before: BTreeSet<MatchId> = was.iter().map(MatchId::of).collect();
                changed = set.update(&rom, &b, &NoHost, &mut scratch).changed;
                assert_eq!(set.dropped(), 0);
                let mut out = MatchBuf::new(&mut slots);
                rom.scan(&b, &NoHost, set.query(), &mut scratch, &mut out);
                assert!(
                    set.matches() == out.as_slice(),
                    "size {size}, step {i} ({did:?}), class {}, {:?}",
                    rom.class(set.query().class).unwrap().name(),
                    set.query()
                );
                let mut patched = before;
                for m in set.vanished() {
                    assert!(patched.remove(&MatchId::of(m)));
                }
                for m in set.appeared() {
                    assert!(patched.insert(MatchId::of(m)));
                }
                let after: BTreeSet<MatchId> = set.matches().iter().map(MatchId::of).collect();
                assert_eq!(patched, after);
                // Both lists in scan order (as the sets before and after list them).
                assert!(
                    in_order(set.appeared(), out.as_slice()),
                    "appeared in scan order"
                );
                assert!(in_order(set.vanished(), &was), "vanished in scan order");
                // Each focus's run is the full scan's matches there (off-board foci too).
                assert_runs(set, out.as_slice(), -1..=size as i32, "");
                changes += set.appeared().len() + set.vanished().len();
                compared += out.len();
            }
            let gu = group.update(&rom, &b, &NoHost, &mut scratch);
            for (j, alone) in sets.iter_mut().enumerate() {
                let what = || format!("group set {j}, size {size}, step {i} ({did:?})");
                assert_eq!(group.set(j).dropped(), 0);
                assert!(group.matches(j) == alone.matches(), "{}", what());
                let g = group.set(j);
                assert!(g.appeared() == alone.appeared(), "{} appeared", what());
                assert!(g.vanished() == alone.vanished(), "{} vanished", what());
                for y in -1..=size as i32 {
                    for x in -1..=size as i32 {
                        assert!(g.matches_at(x, y) == alone.matches_at(x, y), "{}", what());
                    }
                }
            }
            assert_eq!(gu.changed, changed);
            let _ = did == Did::Nothing;
        }
    }
    internals::set_survivor_flush(None);
    simd::force(None).unwrap();
    assert!(compared > 20_000, "{compared} matches compared");
    assert!(changes > 2_000, "{changes} changes");
}

/// Whether `part` lists some of `whole`'s matches in `whole`'s order.
fn in_order(part: &[Match], whole: &[Match]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|m| rest.any(|w| w == m))
}

/// Asserts that `set`'s run at each focus `(x, y)`, both in `range`, is `full`'s matches
/// there (a full scan's, in its order).
fn assert_runs(
    set: &IncrementalScan,
    full: &[Match],
    range: std::ops::RangeInclusive<i32>,
    what: &str,
) {
    for y in range.clone() {
        for x in range.clone() {
            let want: Vec<Match> = full.iter().filter(|m| m.focus == (x, y)).copied().collect();
            assert_eq!(set.matches_at(x, y), want.as_slice(), "{what} ({x}, {y})");
        }
    }
}

/// Counts allocations made on this thread while armed.
struct Counting;
static ALLOCS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
thread_local! {
    static ARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        unsafe { std::alloc::System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: std::alloc::Layout, n: usize) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        unsafe { std::alloc::System.realloc(p, l, n) }
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn updates_do_not_allocate() {
    let mut rng = Rng(7);
    let mut next_id = 0;
    let mut classes = vec![
        random_class(&mut rng, "packed", 40, 2, &mut next_id, 4),
        random_class(&mut rng, "general", 20, 5, &mut next_id, 4),
    ];
    classes.extend(plain_classes(&mut rng, &mut next_id));
    let spec = RomSpec {
        classes,
        ..RomSpec::default()
    };
    let bytes = rom::write(&spec);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let mut sets: Vec<IncrementalScan> = rom
        .classes()
        .map(|c| {
            let q = Query {
                class: c.id(),
                perspective: Colour::Black,
                orientations: Orientations::All,
            };
            IncrementalScan::new(&rom, q, 4096).unwrap()
        })
        .collect();
    // One with a small journal: records are dropped (and restored) without allocating.
    let small = sets[0].for_perspective(Colour::White).with_journal(4 << 10);
    // A group of both classes, both colours (White's sets share Black's index).
    let queries: Vec<Query> = sets
        .iter()
        .flat_map(|s| {
            [Colour::Black, Colour::White].map(|perspective| Query {
                perspective,
                ..*s.query()
            })
        })
        .collect();
    let mut group = IncrementalGroup::new(&rom, &queries, 4096).unwrap();
    // Entry mode: the plain classes' sets, and a group of them.
    let plain: Vec<Query> = sets
        .iter()
        .filter(|s| s.entry_results_supported())
        .map(|s| *s.query())
        .collect();
    assert_eq!(plain.len(), 2);
    let mut entry_group = IncrementalGroup::new(&rom, &plain, 4096)
        .unwrap()
        .with_entry_results()
        .unwrap();
    let entry_sets: Vec<IncrementalScan> = sets
        .iter()
        .filter_map(|s| s.for_perspective(Colour::White).with_entry_results())
        .collect();
    sets.extend(entry_sets);
    sets.push(small);
    let mut scratch = Scratch::new();
    let mut b = Board::new(13).unwrap();
    let mut codes = lens_vm::incremental::Codes3x3::new(&b);
    let mut steps = StepRng(3);
    let (mut changed, mut restored, mut entry_changes) = (0, 0, 0);
    for _ in 0..300 {
        random_step(&mut steps, &mut b);
        ARMED.with(|a| a.set(true));
        for set in &mut sets {
            restored += set.update(&rom, &b, &NoHost, &mut scratch).restored;
            changed += set.appeared().len();
            // Assembling the whole set does not allocate either.
            std::hint::black_box(set.matches());
        }
        group.update(&rom, &b, &NoHost, &mut scratch);
        for j in 0..queries.len() {
            changed += group.set(j).appeared().len();
            std::hint::black_box(group.matches(j));
        }
        entry_group.update(&rom, &b, &NoHost, &mut scratch);
        for j in 0..plain.len() {
            let g = entry_group.set(j);
            // Matches built from entries (one at a time, and the whole set) allocate nothing.
            entry_changes += g.appeared_entries().len();
            for &h in g.appeared_entries() {
                std::hint::black_box(g.match_of(h));
            }
            std::hint::black_box(entry_group.matches(j));
        }
        codes.update(&b);
        ARMED.with(|a| a.set(false));
    }
    assert!(changed > 100, "{changed}");
    assert!(entry_changes > 100, "{entry_changes}");
    assert!(restored > 10, "{restored} restores");
    assert_eq!(ALLOCS.load(std::sync::atomic::Ordering::SeqCst), 0);
}

/// Two plain classes of 30 random patterns (mode all, no default, globs, tests or rejects:
/// every hit is its match, as in GNU Go's databases), one on empty points and one anchored
/// on friend stones.
fn plain_classes(rng: &mut Rng, next_id: &mut u32) -> Vec<ClassSpec> {
    [("plain_empty", E), ("plain_friend", F)]
        .into_iter()
        .map(|(name, focus)| {
            let nodes = (0..30)
                .map(|_| {
                    let mut p = random_pattern(rng, *next_id, 3, false);
                    p.result = Some(lens_vm::spec::ResultSpec::Value { value: 1, bits: 0 });
                    *next_id += 1;
                    ClassNode::Pattern(p)
                })
                .collect();
            let mut c = class(name, Mode::All, 7, nodes);
            c.focus = focus;
            c
        })
        .collect()
}

/// A ROM of random classes of every kind (as the first test, smaller) and two plain ones.
fn journal_rom() -> Vec<u8> {
    let mut rng = Rng(0xD0_0D);
    let mut next_id = 0;
    let mut classes: Vec<ClassSpec> = [(1i16, 20usize), (2, 30), (3, 30)]
        .iter()
        .enumerate()
        .map(|(i, &(r, n))| random_class(&mut rng, &format!("j{i}"), n, r, &mut next_id, 4))
        .collect();
    classes.extend(plain_classes(&mut rng, &mut next_id));
    rom::write(&RomSpec {
        toolchain: "journal".into(),
        classes,
        ..RomSpec::default()
    })
}

/// Updates every set (and the group) to `b`, checks each against a full scan (matches,
/// runs, a difference in scan order that turns the old set into the new one, the group's
/// sets equal to the sets alone) and returns the restores: (per set alone, the group's).
fn update_and_check(
    rom: &Rom<'_>,
    sets: &mut [IncrementalScan],
    group: &mut IncrementalGroup,
    b: &Board,
    scratch: &mut Scratch,
    what: &str,
) -> (Vec<usize>, usize) {
    let mut slots = vec![Match::EMPTY; 1 << 14];
    let mut restored = Vec::new();
    for set in sets.iter_mut() {
        let was = set.matches().to_vec();
        let u = set.update(rom, b, &NoHost, scratch);
        restored.push(u.restored);
        let mut out = MatchBuf::new(&mut slots);
        rom.scan(b, &NoHost, set.query(), scratch, &mut out);
        assert!(set.matches() == out.as_slice(), "{what}: {:?}", set.query());
        let mut patched: BTreeSet<MatchId> = was.iter().map(MatchId::of).collect();
        for m in set.vanished() {
            assert!(patched.remove(&MatchId::of(m)), "{what}: vanished");
        }
        for m in set.appeared() {
            assert!(patched.insert(MatchId::of(m)), "{what}: appeared");
        }
        let after: BTreeSet<MatchId> = set.matches().iter().map(MatchId::of).collect();
        assert_eq!(patched, after, "{what}");
        assert!(in_order(set.appeared(), out.as_slice()), "{what}: order");
        assert!(in_order(set.vanished(), &was), "{what}: order");
        assert_runs(set, out.as_slice(), 0..=b.size() as i32 - 1, what);
    }
    let gu = group.update(rom, b, &NoHost, scratch);
    for (j, alone) in sets.iter_mut().enumerate() {
        assert!(group.matches(j) == alone.matches(), "{what}: group set {j}");
        assert!(
            group.set(j).appeared() == alone.appeared(),
            "{what}: group {j}"
        );
        assert!(
            group.set(j).vanished() == alone.vanished(),
            "{what}: group {j}"
        );
    }
    (restored, gu.restored)
}

/// Undo from the journal: an update that exactly reverses the last recorded one (a play's
/// undo, captures included; a setup edit put back) restores every set, and anything else
/// matches: an undo followed by a different play, two steps in one update, a removal, an
/// undo beyond a small journal's depth, the first update after `invalidate`. Every set is
/// compared with a full scan after every update.
#[test]
fn undos_restore_from_the_journal_and_other_updates_match() {
    let bytes = journal_rom();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let mut sets: Vec<IncrementalScan> = rom
        .classes()
        .flat_map(|c| {
            [Colour::Black, Colour::White].map(|perspective| {
                let q = Query {
                    class: c.id(),
                    perspective,
                    orientations: Orientations::All,
                };
                IncrementalScan::new(&rom, q, 1 << 14).unwrap()
            })
        })
        .collect();
    let n = sets.len();
    // One more set with a journal of a few records (the last).
    sets.push(
        sets[0]
            .for_perspective(Colour::Black)
            .with_journal(24 << 10),
    );
    let queries: Vec<Query> = sets.iter().map(|s| *s.query()).collect();
    let mut group = IncrementalGroup::new(&rom, &queries, 1 << 14).unwrap();
    let mut scratch = Scratch::new();
    let mut b = Board::new(11).unwrap();
    let mut steps = StepRng(0xC0FFEE);
    let mut go = |b: &Board, what: &str| {
        update_and_check(&rom, &mut sets, &mut group, b, &mut scratch, what)
    };
    let all = |r: &(Vec<usize>, usize)| r.0[..n].iter().all(|&k| k == 1) && r.1 >= n;
    let none = |r: &(Vec<usize>, usize)| r.0.iter().all(|&k| k == 0) && r.1 == 0;
    go(&b, "empty board");
    // 40 plays, each matched.
    let mut played = Vec::new();
    while played.len() < 40 {
        let c = b.to_move();
        let (x, y) = (steps.below(11) as i32, steps.below(11) as i32);
        if b.play(c, x, y).is_ok() {
            played.push((c, x, y));
            assert!(none(&go(&b, "play")), "a play restored");
        }
    }
    // An undo restores; a different play then matches; its undo restores, and so does the
    // undo of the move before (its record is still there).
    b.undo();
    assert!(all(&go(&b, "undo")), "undo not restored");
    let c = b.to_move();
    let (px, py) = (played[39].1, played[39].2);
    let other = (0..11)
        .flat_map(|y| (0..11).map(move |x| (x, y)))
        .find(|&(x, y)| (x, y) != (px, py) && b.check_play(c, x, y).is_ok())
        .unwrap();
    b.play(c, other.0, other.1).unwrap();
    assert!(none(&go(&b, "a different play")));
    b.undo();
    assert!(all(&go(&b, "its undo")));
    b.undo();
    assert!(all(&go(&b, "the undo before")));
    // Undo the rest: the default journals restore every undo; the small one runs out.
    let (mut small, mut undos) = (0, 0);
    while b.undo() {
        let r = go(&b, "undo back");
        assert!(
            r.0[..n].iter().all(|&k| k == 1),
            "undo {undos} not restored"
        );
        undos += 1;
        small += r.0[n];
    }
    assert_eq!(undos, 38);
    assert!(
        0 < small && small < undos,
        "small journal restored {small} of {undos}"
    );
    // Two steps in one update (an undo and another play): matched, and so is the undo of
    // that play (the journal's last record is the two steps').
    for _ in 0..3 {
        let c = b.to_move();
        let free = |b: &Board| {
            (0..121)
                .map(|i| (i % 11, i / 11))
                .find(|&(x, y)| b.check_play(c, x, y).is_ok())
                .unwrap()
        };
        let (x, y) = free(&b);
        b.play(c, x, y).unwrap();
        go(&b, "play");
    }
    b.undo();
    let c = b.to_move();
    let (x, y) = (0..121)
        .map(|i| (10 - i % 11, 10 - i / 11))
        .find(|&(x, y)| b.check_play(c, x, y).is_ok())
        .unwrap();
    b.play(c, x, y).unwrap();
    assert!(go(&b, "two steps").0[..n].iter().all(|&k| k == 0));
    b.undo();
    assert!(go(&b, "undo of the second").0[..n].iter().all(|&k| k == 0));
    // A capture, and its undo: every point the capture changed goes back.
    let mut b = Board::new(11).unwrap();
    go(&b, "new board");
    for (c, x, y) in [
        (Colour::Black, 5, 4),
        (Colour::White, 5, 5),
        (Colour::Black, 4, 5),
        (Colour::White, 9, 9),
        (Colour::Black, 6, 5),
    ] {
        b.play(c, x, y).unwrap();
        go(&b, "setting up a capture");
    }
    b.play(Colour::White, 0, 0).unwrap();
    go(&b, "tenuki");
    b.play(Colour::Black, 5, 6).unwrap();
    assert_eq!(b.get(5, 5), lens_vm::board::Point::Empty, "captured");
    let r = go(&b, "capture");
    assert!(none(&r));
    b.undo();
    assert!(all(&go(&b, "capture undone")));
    // A removal (an edit) matches; putting the stone back is its exact reverse.
    b.remove(4, 5).unwrap();
    assert!(none(&go(&b, "removal")));
    b.place(Colour::Black, 4, 5).unwrap();
    assert!(all(&go(&b, "stone put back")));
    // After `invalidate` the whole board is matched again (not recorded): the journal is
    // emptied, so the undo of that update matches; the next play's undo restores.
    for s in &mut sets {
        s.invalidate();
    }
    group.invalidate();
    let mut go = |b: &Board, what: &str| {
        update_and_check(&rom, &mut sets, &mut group, b, &mut scratch, what)
    };
    b.play(Colour::White, 10, 10).unwrap();
    go(&b, "after invalidate");
    b.play(Colour::Black, 10, 9).unwrap();
    go(&b, "play");
    b.undo();
    assert!(all(&go(&b, "undo of the play after the rebuild")));
    b.undo();
    assert!(none(&go(&b, "undo of the rebuilt update")));
}

/// Capacities of the small entry-mode twins: just above the plain classes' largest set in
/// the games below (108 matches: their pools are compacted, nothing is dropped), and below
/// most of them (matches are dropped too).
const SNUG: usize = 112;
const TINY: usize = 40;

/// Entry mode (`with_entry_results`) on the plain classes: after every step of random games
/// (plays, captures, undos restored from the journal, removals, several steps at once,
/// board sizes changing between rounds), each entry-mode set, and each set of an entry-mode
/// group, gives through `match_of` exactly its match-mode twin's difference, runs and set,
/// also with a capacity small enough that its pool is compacted and matches are dropped.
/// Classes with a program (tests, rejects, defaults, globs, modes) refuse the mode, and so
/// does a group holding one.
#[test]
fn entry_mode_equals_match_mode_on_random_games() {
    let bytes = journal_rom();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let mut scratch = Scratch::new();
    let (mut queries, mut every) = (Vec::new(), Vec::new());
    for c in rom.classes() {
        for (perspective, orientations) in [
            (Colour::Black, Orientations::All),
            (Colour::White, Orientations::All),
            (Colour::Black, Orientations::Set(0b1010_0110)),
        ] {
            let q = Query {
                class: c.id(),
                perspective,
                orientations,
            };
            every.push(q);
            let set = IncrementalScan::new(&rom, q, 1 << 14).unwrap();
            if set.entry_results_supported() {
                queries.push(q);
            } else {
                assert!(set.with_entry_results().is_none(), "{}", c.name());
            }
        }
    }
    assert_eq!(queries.len(), 6, "the two plain classes' queries");
    assert!(every.len() > queries.len());
    let group_of = |qs: &[Query]| IncrementalGroup::new(&rom, qs, 1 << 14).unwrap();
    assert!(group_of(&every).with_entry_results().is_none());
    let mut groups = (
        group_of(&queries).with_entry_results().unwrap(),
        group_of(&queries),
    );
    // (entry mode, match mode) twins: roomy and tiny capacities, and the other colour's set
    // from an entry-mode set (it keeps the mode).
    let mut twins: Vec<(IncrementalScan, IncrementalScan)> = [1 << 14, SNUG, TINY]
        .into_iter()
        .flat_map(|cap| {
            // Two sets built alike (a clone's pool would not keep its capacity).
            queries.iter().map(move |&q| {
                // The snug and tiny sets with a small journal: a set's pool keeps the
                // journal's budget again as room, so the default's would put off compactions.
                let set = || {
                    let s = IncrementalScan::new(&rom, q, cap).unwrap();
                    if cap < 1 << 14 {
                        s.with_journal(4 << 10)
                    } else {
                        s
                    }
                };
                (set().with_entry_results().unwrap(), set())
            })
        })
        .collect();
    let other = (
        twins[0].0.for_perspective(Colour::White),
        twins[0].1.for_perspective(Colour::White),
    );
    twins.push(other);
    // A journal given after the mode keeps the mode (the set is rebuilt with its pool).
    let journalled = (
        IncrementalScan::new(&rom, queries[0], 1 << 14)
            .unwrap()
            .with_entry_results()
            .unwrap()
            .with_journal(24 << 10),
        IncrementalScan::new(&rom, queries[0], 1 << 14)
            .unwrap()
            .with_journal(24 << 10),
    );
    assert!(journalled.0.entry_results() && !journalled.1.entry_results());
    twins.push(journalled);
    let mut steps = StepRng(0xE1);
    let (mut changes, mut restored) = (0, 0);
    // Per capacity (roomy, snug, tiny): changes, restores, matches dropped.
    let mut by_cap = [[0usize; 3]; 3];
    for size in [13u8, 9, 11] {
        let mut b = Board::new(size).unwrap();
        for i in 0..120 {
            let mut did = random_step(&mut steps, &mut b);
            if i % 9 == 0 {
                did = random_step(&mut steps, &mut b);
            }
            let what = || format!("size {size}, step {i} ({did:?})");
            for (k, (e, m)) in twins.iter_mut().enumerate() {
                let u = e.update(&rom, &b, &NoHost, &mut scratch);
                assert_eq!(u, m.update(&rom, &b, &NoHost, &mut scratch), "{}", what());
                let n = assert_entry_twin(e, m, size as i32, &what);
                assert!(e.matches() == m.matches(), "{}", what());
                restored += u.restored;
                changes += n;
                let c = &mut by_cap[(k / queries.len()).min(2)];
                c[0] += n;
                c[1] += u.restored;
                c[2] = c[2].max(m.dropped());
            }
            let (ge, gm) = &mut groups;
            let u = ge.update(&rom, &b, &NoHost, &mut scratch);
            assert_eq!(u, gm.update(&rom, &b, &NoHost, &mut scratch));
            for j in 0..queries.len() {
                let what = || format!("group set {j}, {}", what());
                assert_entry_twin(ge.set(j), gm.set(j), size as i32, &what);
                assert!(ge.matches(j) == gm.matches(j), "{}", what());
            }
        }
    }
    assert!(changes > 3_000, "{changes} changes");
    assert!(restored > 50, "{restored} restores");
    // A hit of one plain class is no match of the other's set.
    let (a, b) = (&twins[0].0, &twins[3].0);
    assert_ne!(a.query().class, b.query().class);
    let hit = a.entries().next().expect("a hit");
    assert!(a.match_of(hit).is_some() && b.match_of(hit).is_none());
    // A pool is compacted at the latest after its capacity of entries placed (most
    // changes place one): the snug sets were compacted many times, restored undos from
    // their journals between compactions, and dropped nothing; the tiny ones dropped.
    // (A compaction empties the journal: the snug sets restore fewer undos than the roomy.)
    let [roomy, snug, tiny] = by_cap;
    assert!(snug[0] > 10 * SNUG && snug[1] > 10, "snug sets: {snug:?}");
    assert!(snug[1] < roomy[1], "no compaction: {snug:?} {roomy:?}");
    assert_eq!(snug[2], 0, "the snug sets dropped matches");
    assert!(tiny[0] > 10 * TINY && tiny[2] > 0, "tiny sets: {tiny:?}");
}

/// The journal takes at most its budget, allocated at construction (no growth while
/// updates push and drop records), serves deeper undos with a larger budget, and a budget
/// of 0 keeps none.
#[test]
fn the_journal_stays_within_its_budget() {
    let bytes = journal_rom();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let q = Query {
        class: rom.classes().nth(1).unwrap().id(),
        perspective: Colour::Black,
        orientations: Orientations::All,
    };
    let mut scratch = Scratch::new();
    let mut depths = Vec::new();
    for budget in [0usize, 2 << 10, 8 << 10, 32 << 10, DEFAULT_JOURNAL_BYTES] {
        let mut set = IncrementalScan::new(&rom, q, 1 << 12)
            .unwrap()
            .with_journal(budget);
        let taken = set.journal_bytes();
        assert!(taken <= budget, "{taken} > {budget}");
        // The other colour's set (sharing the index) keeps the same budget.
        assert_eq!(set.for_perspective(Colour::White).journal_bytes(), taken);
        assert!(budget == 0 || taken > budget / 2, "{taken} of {budget}");
        let mut b = Board::new(13).unwrap();
        let mut steps = StepRng(11);
        let mut deepest = 0;
        set.update(&rom, &b, &NoHost, &mut scratch);
        for _ in 0..150 {
            let c = b.to_move();
            let (x, y) = (steps.below(13) as i32, steps.below(13) as i32);
            if b.play(c, x, y).is_ok() {
                set.update(&rom, &b, &NoHost, &mut scratch);
                deepest = deepest.max(set.journal_depth());
                assert_eq!(set.journal_bytes(), taken);
            }
        }
        let held = set.journal_depth();
        let (mut restored, mut undos) = (0, 0);
        while b.undo() {
            restored += set.update(&rom, &b, &NoHost, &mut scratch).restored;
            undos += 1;
        }
        // The records held are the last plays': each of their undos restores.
        assert_eq!(restored, held);
        if budget == DEFAULT_JOURNAL_BYTES {
            assert_eq!(restored, undos);
        }
        if budget == 0 {
            assert_eq!((taken, deepest, restored), (0, 0, 0));
        }
        // Every record held at the deepest point was restored, nothing more.
        assert!(restored <= deepest, "{restored} > {deepest}");
        depths.push(deepest);
    }
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert!(depths[1] < depths[4], "{depths:?}");
    assert!(depths[1] > 0, "{depths:?}");
}
