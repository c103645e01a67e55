//! A counting global allocator proves that matching calls (and view cuts) never allocate.

use lens_test_support::fixtures::*;
use lens_vm::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    /// This thread's armed allocations (the tests run on parallel threads).
    static MINE: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
            MINE.with(|m| m.set(m.get() + 1));
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
            MINE.with(|m| m.set(m.get() + 1));
        }
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn match_scan_and_lens_calls_do_not_allocate() {
    let plain = rom::write(&sample_spec(false));
    let sliced = rom::write_with(&sample_spec(false), &rom::WriteOptions::COMPILER);
    // (With the plain facts of format v5: a test-free pattern's match is written from them.)
    assert!(Rom::from_bytes(&sliced).unwrap().has_pattern_facts());
    // The reference board: no heap on reads (the test board's flood fill would allocate).
    let boards: Vec<_> = sample_boards().iter().map(to_board).collect();
    let mut slots = vec![Match::EMPTY; 4096];
    let mut scratch = Scratch::new();
    // Scan plans are built (allocating) before the counter is armed; their scans must not.
    let roms = [
        Rom::from_bytes(&plain).unwrap(),
        Rom::from_bytes(&sliced).unwrap(),
    ];
    let plans: Vec<Vec<matching::ScanPlan>> = roms
        .iter()
        .map(|rom| {
            (0..rom.class_count())
                .map(|c| matching::ScanPlan::new(rom, ClassId(c as u32)).unwrap())
                .collect()
        })
        .collect();
    // Likewise the per-entry facts of compact hits.
    let facts: Vec<Vec<matching::HitPlan>> = roms
        .iter()
        .map(|rom| {
            (0..rom.class_count())
                .map(|c| matching::HitPlan::new(rom, ClassId(c as u32)).unwrap())
                .collect()
        })
        .collect();
    let mut hit_slots = vec![matching::Hit::EMPTY; 4096];
    // The batch view cut, on every path this machine has (foci off the board too).
    let foci: Vec<(i32, i32)> = (-1..8).flat_map(|y| (-1..8).map(move |x| (x, y))).collect();
    let mut views = vec![[0u64; 3]; foci.len()];
    ARMED.with(|a| a.set(true));
    let mut produced = 0;
    for ((rom, plans), facts) in roms.iter().zip(&plans).zip(&facts) {
        for b in &boards {
            for (c, (plan, facts)) in plans.iter().zip(facts).enumerate() {
                for persp in [Colour::Black, Colour::White] {
                    let q = Query {
                        class: ClassId(c as u32),
                        perspective: persp,
                        orientations: Orientations::All,
                    };
                    let mut out = MatchBuf::new(&mut slots);
                    produced += rom.scan(b, &NoHost, &q, &mut scratch, &mut out);
                    let mut out = MatchBuf::new(&mut slots);
                    produced += plan.scan(rom, b, &NoHost, &q, &mut scratch, &mut out);
                    let mut out = MatchBuf::new(&mut slots);
                    produced += rom.match_at(b, &NoHost, &q, 2, 2, &mut scratch, &mut out);
                    let mut out = matching::HitBuf::new(&mut hit_slots);
                    produced +=
                        facts.match_hits_at(rom, b, &NoHost, &q, 2, 2, &mut scratch, &mut out);
                    let mut out = MatchBuf::new(&mut slots);
                    produced += facts.match_at(rom, b, &NoHost, &q, 2, 2, &mut scratch, &mut out);
                    let mut out = MatchBuf::new(&mut slots);
                    produced +=
                        reference::match_at(rom, b, &NoHost, &q, 1, 1, &mut scratch, &mut out);
                }
            }
            for path in matching::simd::Simd::supported() {
                matching::simd::force(Some(path)).unwrap();
                for persp in [Colour::Black, Colour::White] {
                    produced += matching::cut_views(b, persp, &foci, &mut views);
                }
            }
            matching::simd::force(None).unwrap();
            let mut out = MatchBuf::new(&mut slots);
            produced += rom.eval_lens(
                LensId(0),
                &[(1, 1), (1, 3)],
                Colour::Black,
                b,
                &NoHost,
                &mut out,
            );
        }
    }
    ARMED.with(|a| a.set(false));
    assert!(produced > 0);
    // The counter itself works:
    ARMED.with(|a| a.set(true));
    let v = std::hint::black_box(vec![1u8; 10]);
    ARMED.with(|a| a.set(false));
    drop(v);
    assert_eq!(
        ALLOCS.load(Ordering::SeqCst),
        1,
        "loading and matching must not allocate"
    );
}

/// A `ScanSet`'s scans allocate nothing once its first scan has allocated the scratch of the
/// walk over all stones (here: two plain classes anchored on friend and foe stones, which take
/// that walk).
#[test]
fn scan_set_scans_do_not_allocate_after_the_first() {
    let mut rng = Rng(0x5ca9_0b0a_4d00_0004);
    let mut classes = Vec::new();
    for (i, focus) in [F, X].into_iter().enumerate() {
        let nodes = (0..30u32)
            .map(|k| {
                let id = 30 * i as u32 + k;
                let mut p = random_pattern(&mut rng, id, 2, false);
                p.cells.truncate(3);
                p.result = Some(lens_vm::spec::ResultSpec::Value {
                    value: id as i32,
                    bits: 0,
                });
                lens_vm::spec::ClassNode::Pattern(p)
            })
            .collect();
        let mut c = class(&format!("c{i}"), lens_vm::spec::Mode::All, 5, nodes);
        c.focus = focus;
        classes.push(c);
    }
    let bytes = rom::write(&lens_vm::spec::RomSpec {
        toolchain: "alloc".into(),
        classes,
        ..Default::default()
    });
    let rom = Rom::from_bytes(&bytes).unwrap();
    let set = matching::ScanSet::new(&rom, &[ClassId(0), ClassId(1)]).unwrap();
    assert_eq!(set.walked(), 2);
    let boards: Vec<_> = sample_boards().iter().map(to_board).collect();
    let mut slots = vec![Match::EMPTY; 4 * 4096];
    let mut scratch = Scratch::new();
    let mut scan = |b: &board::Board, scratch: &mut Scratch| {
        let mut chunks = slots.chunks_mut(4096);
        let mut outs: [MatchBuf; 4] =
            std::array::from_fn(|_| MatchBuf::new(chunks.next().unwrap()));
        let walked = set.scan_shared(&rom, b, Orientations::All, scratch, &mut outs);
        assert!(walked.is_some());
        let mut chunks = slots.chunks_mut(4096);
        let mut outs: [MatchBuf; 4] =
            std::array::from_fn(|_| MatchBuf::new(chunks.next().unwrap()));
        set.scan(&rom, b, &NoHost, Orientations::All, scratch, &mut outs)
    };
    scan(&boards[0], &mut scratch);
    let before = MINE.with(|m| m.get());
    ARMED.with(|a| a.set(true));
    let mut produced = 0;
    for b in &boards {
        produced += scan(b, &mut scratch);
    }
    ARMED.with(|a| a.set(false));
    assert!(produced > 0);
    assert_eq!(MINE.with(|m| m.get()), before, "a set scan allocated");
}
