//! A counting global allocator proves that matching calls never allocate.

use lens_test_support::fixtures::*;
use lens_vm::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, Ordering::SeqCst);
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
                    produced +=
                        reference::match_at(rom, b, &NoHost, &q, 1, 1, &mut scratch, &mut out);
                }
            }
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
