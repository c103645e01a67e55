//! Play, pass, place and undo never touch the heap (a counting global allocator proves it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use lens_vm::board::{Board, BoardView, Colour, Point};

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|a| a.set(a.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCS.with(|a| a.get())
}

#[test]
fn play_and_undo_do_not_allocate() {
    let mut b = Box::new(Board::new(9).unwrap());
    let before = allocations();
    std::hint::black_box(vec![1u8; 3]);
    assert!(allocations() > before, "the counter sees allocations");
    let start = allocations();
    let mut state = 99u64;
    let mut played = 0;
    for _ in 0..5000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let p = (state >> 33) as i32 % 81;
        let (x, y) = (p % 9, p / 9);
        let c = b.to_move();
        let own_eye = [(0, -1), (-1, 0), (1, 0), (0, 1)].iter().all(|(dx, dy)| {
            matches!(b.point(x + dx, y + dy), Point::Off)
                || b.point(x + dx, y + dy) == Point::Stone(c)
        });
        if !own_eye && b.play(c, x, y).is_ok() {
            played += 1;
        }
        if state.is_multiple_of(7) {
            b.undo();
        }
        if state.is_multiple_of(53) {
            let _ = b.pass(Colour::Black);
            let _ = b.place(Colour::White, (x + 1) % 9, y);
        }
        if b.history_len() > 1000 {
            while b.undo() {}
        }
        std::hint::black_box(b.liberties(x, y));
        std::hint::black_box(b.hash());
    }
    while b.undo() {}
    assert_eq!(
        allocations() - start,
        0,
        "allocations during {played} plays"
    );
    assert!(played > 300, "only {played} plays");
    assert_eq!(*b, Board::new(9).unwrap());
}
