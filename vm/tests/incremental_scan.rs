//! `IncrementalScan` equals a whole-board `Rom::scan` after every step of random games (plays
//! with captures, passes, undos, setup removals, several steps between some updates) on boards
//! of several sizes, for random classes of every kind (packed and general fields, globs,
//! rejects, tests reading liberties and nearby points, defaults, all three modes), both
//! perspectives and an orientation subset; the reported difference (in scan order) turns the
//! old set into the new one, with the filter's survivor refill forced on one size and both
//! rematch paths (per-entry facts, class program) present; the same queries as one group
//! (`IncrementalGroup`) give each set alone's matches, runs and difference after every update;
//! updates (and `Codes3x3::update`) never allocate.
//! Needs no external data.

mod incremental_support;

use std::collections::BTreeSet;

use incremental_support::{Did, Rng as StepRng, random_step};
use lens_test_support::fixtures::*;
use lens_vm::board::Board;
use lens_vm::incremental::{IncrementalGroup, IncrementalScan, MatchId};
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
    // Plain classes (mode all, no default, globs, tests or rejects: every hit is its match,
    // as in GNU Go's databases), one on empty points and one anchored on friend stones.
    for (name, focus) in [("plain_empty", E), ("plain_friend", F)] {
        let nodes = (0..30)
            .map(|_| {
                let mut p = random_pattern(&mut rng, next_id, 3, false);
                p.result = Some(lens_vm::spec::ResultSpec::Value { value: 1, bits: 0 });
                next_id += 1;
                ClassNode::Pattern(p)
            })
            .collect();
        let mut c = class(name, Mode::All, 7, nodes);
        c.focus = focus;
        classes.push(c);
    }
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
    for size in [7u8, 9, 13, 19] {
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
                // Each focus's run is the full scan's matches there.
                for y in -1..=size as i32 {
                    for x in -1..=size as i32 {
                        let want: Vec<Match> = out
                            .as_slice()
                            .iter()
                            .filter(|m| m.focus == (x, y))
                            .copied()
                            .collect();
                        assert_eq!(set.matches_at(x, y), want.as_slice(), "({x}, {y})");
                    }
                }
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
    assert!(compared > 20_000, "{compared} matches compared");
    assert!(changes > 2_000, "{changes} changes");
}

/// Whether `part` lists some of `whole`'s matches in `whole`'s order.
fn in_order(part: &[Match], whole: &[Match]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|m| rest.any(|w| w == m))
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
    let spec = RomSpec {
        classes: vec![
            random_class(&mut rng, "packed", 40, 2, &mut next_id, 4),
            random_class(&mut rng, "general", 20, 5, &mut next_id, 4),
        ],
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
    let mut scratch = Scratch::new();
    let mut b = Board::new(13).unwrap();
    let mut codes = lens_vm::incremental::Codes3x3::new(&b);
    let mut steps = StepRng(3);
    let mut changed = 0;
    for _ in 0..300 {
        random_step(&mut steps, &mut b);
        ARMED.with(|a| a.set(true));
        for set in &mut sets {
            set.update(&rom, &b, &NoHost, &mut scratch);
            changed += set.appeared().len();
            // Assembling the whole set does not allocate either.
            std::hint::black_box(set.matches());
        }
        group.update(&rom, &b, &NoHost, &mut scratch);
        for j in 0..queries.len() {
            changed += group.set(j).appeared().len();
            std::hint::black_box(group.matches(j));
        }
        codes.update(&b);
        ARMED.with(|a| a.set(false));
    }
    assert!(changed > 100, "{changed}");
    assert_eq!(ALLOCS.load(std::sync::atomic::Ordering::SeqCst), 0);
}
