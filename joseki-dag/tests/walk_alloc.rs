//! A counting global allocator proves that the walker's lookup path never allocates: the
//! engine lookup, the cursor (play, copy, lookup), the per-frame walk and the frame listing,
//! with the transition table (`Walker::new`) and without it (`Walker::in_place`).

use lens_joseki::{
    BoardMove, Colour, Continuation, Encoding, Frame, MoveType, Point, Rel, Walker, encode,
    parse_text,
};
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

fn armed<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCS.load(Ordering::SeqCst);
    ARMED.with(|a| a.set(true));
    let r = f();
    ARMED.with(|a| a.set(false));
    (r, ALLOCS.load(Ordering::SeqCst) - before)
}

#[test]
fn lookups_do_not_allocate() {
    // Types, a tenuki, a colour repeat, a far move, a setup line, a transposition.
    let mut t = parse_text(
        "( d4 ( c6:urgent ( d6 c7 | f3 ) | f3 ( c6 d6 | d3 ) | e3:trick tenuki c3 | c3 d3 q17 ) \
         | c4 ( e3 ( d5 | c6 ) | d3 c3 | d5:repeat ) | c3 d3 | e3 c3 d4 | setup(o:c3) d4 e3 )",
    )
    .unwrap();
    t.canonicalize();
    for enc in Encoding::WALKABLE {
        let blob = encode(&t, enc);
        let table = Walker::new(&blob).unwrap();
        let scan = Walker::in_place(&blob).unwrap();
        for w in [&table, &scan] {
            let variants: Vec<Vec<BoardMove>> = (0..8u8)
                .map(|o| {
                    let f = Frame::orientation(19, o);
                    [(4, 4), (3, 6), (4, 6), (3, 7)]
                        .iter()
                        .enumerate()
                        .map(|(k, &(x, y))| BoardMove {
                            colour: if k % 2 == 0 {
                                Colour::Black
                            } else {
                                Colour::White
                            },
                            at: f.to_board(x, y),
                        })
                        .collect()
                })
                .collect();
            let line = [
                (Rel::Same, Point::at(4, 4)),
                (Rel::Opposite, Point::at(5, 3)),
                (Rel::Same, Point::Pass),
                (Rel::Opposite, Point::at(3, 3)),
            ];
            let mut out = [Continuation::EMPTY; 16];
            let mut frame_out = [(Rel::Same, Point::Pass, MoveType::Normal); 16];
            let (found, allocs) = armed(|| {
                let mut found = 0;
                for m in &variants {
                    for corner in [None, Some(0), Some(3)] {
                        let r = w.lookup(19, m, corner, Colour::Black, &mut out);
                        found += r.in_book() as usize;
                    }
                    let mut c = w.cursor(19, None);
                    for &mv in m {
                        c.play(mv);
                        let saved = c;
                        found += saved.lookup(Colour::White, &mut out).continuations;
                    }
                    let f = Frame::orientation(19, 0);
                    found += w.follow(&f, m, Colour::Black, &mut out).followed;
                    found += w.lookup_corner(19, 1, m, Colour::Black, &mut out).followed;
                }
                found += w.frame_next(&line, &mut frame_out).map_or(0, |r| r.0);
                found += w.follow_frame(&line, &mut frame_out).unwrap_or(0);
                found
            });
            assert_eq!(allocs, 0, "{enc:?} {w:?}: the lookup path allocated");
            assert!(
                found > 8 * 3,
                "{enc:?}: the lookups found the lines ({found})"
            );
        }
    }
    // The counter itself works.
    let (v, allocs) = armed(|| std::hint::black_box(vec![1u8; 10]));
    drop(v);
    assert_eq!(allocs, 1);
}
