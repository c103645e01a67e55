//! Play+undo on the reference board against baselines measured in the same run:
//! - `copy_make`: clone the board, then play on the copy (what engines without undo do);
//! - `play_recount`: play, then count the liberties of every string from scratch by flood fill
//!   (what a board without incremental liberty counts pays to know them), then undo.
//!
//!
//! And `BoardView::window_rows` cutting a 7x7 window around every point of the 19x19 position
//! from the row bitboards (`window_7x7/row_bits`) against the point-by-point fallback of a
//! board without bitboards (`window_7x7/points`).
//!
//! Positions are mid-game 19x19 and 9x9 boards from a fixed pseudo-random game; each iteration
//! plays and undoes every legal move of the position once, so the figures are per move.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lens_vm::board::{Board, BoardView, Colour, Point};

/// A deterministic random game of `moves` moves (players never fill their own eyes).
fn position(size: u8, moves: usize, seed: u64) -> Board {
    let mut b = Board::new(size).unwrap();
    let mut state = seed;
    let n = size as i32;
    let mut played = 0;
    let mut tries = 0;
    while played < moves && tries < 100_000 {
        tries += 1;
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let p = (state >> 33) as i32 % (n * n);
        let (x, y) = (p % n, p / n);
        let c = b.to_move();
        let own_eye = [(0, -1), (-1, 0), (1, 0), (0, 1)].iter().all(|(dx, dy)| {
            matches!(b.point(x + dx, y + dy), Point::Off)
                || b.point(x + dx, y + dy) == Point::Stone(c)
        });
        if !own_eye && b.play(c, x, y).is_ok() {
            played += 1;
        }
    }
    b.clear_history();
    b
}

/// Sum of the liberties of all strings, by flood fill over `BoardView::point` with fixed arrays.
fn recount(b: &Board) -> u32 {
    let n = b.size() as i32;
    let mut seen = [false; 625];
    let mut stack = [(0i32, 0i32); 625];
    let mut total = 0;
    for start in 0..n * n {
        let (sx, sy) = (start % n, start / n);
        let Point::Stone(c) = b.point(sx, sy) else {
            continue;
        };
        if seen[start as usize] {
            continue;
        }
        let mut lib = [0u32; 20];
        let mut libs = 0;
        seen[start as usize] = true;
        stack[0] = (sx, sy);
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (x, y) = stack[top];
            for (dx, dy) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
                let (nx, ny) = (x + dx, y + dy);
                let i = (ny * n + nx) as usize;
                match b.point(nx, ny) {
                    Point::Empty if lib[i / 32] & (1 << (i % 32)) == 0 => {
                        lib[i / 32] |= 1 << (i % 32);
                        libs += 1;
                    }
                    Point::Stone(c2) if c2 == c && !seen[i] => {
                        seen[i] = true;
                        stack[top] = (nx, ny);
                        top += 1;
                    }
                    _ => {}
                }
            }
        }
        total += libs;
    }
    total
}

/// The board seen through `point()` only (no row-bitboard fast path).
use lens_vm::internals::PointsOnly;

fn windows(b: &impl BoardView) -> u32 {
    let n = b.size() as i32;
    let mut acc = 0;
    let mut out = [[0u32; 3]; 7];
    for y in 0..n {
        for x in 0..n {
            b.window_rows(black_box(x - 3), black_box(y - 3), 7, &mut out);
            acc ^= out[3][0] ^ out[3][1] ^ out[6][2];
        }
    }
    acc
}

fn bench_windows(c: &mut Criterion) {
    let board = position(19, 150, 7);
    let mut g = c.benchmark_group("board/window_7x7");
    g.throughput(Throughput::Elements(19 * 19));
    g.bench_function("row_bits", |bench| {
        bench.iter(|| black_box(windows(&board)))
    });
    g.bench_function("points", |bench| {
        bench.iter(|| black_box(windows(&PointsOnly(&board))))
    });
    g.finish();
}

fn legal_moves(b: &Board) -> Vec<(i32, i32)> {
    let n = b.size() as i32;
    (0..n * n)
        .map(|p| (p % n, p / n))
        .filter(|&(x, y)| b.check_play(b.to_move(), x, y).is_ok())
        .collect()
}

fn bench(c: &mut Criterion) {
    for (name, size, moves) in [("19x19_150", 19u8, 150usize), ("9x9_40", 9, 40)] {
        let board = position(size, moves, 7);
        let legal = legal_moves(&board);
        let colour: Colour = board.to_move();
        let mut g = c.benchmark_group(format!("board/{name}"));
        g.throughput(Throughput::Elements(legal.len() as u64));
        g.bench_function("play_undo", |bench| {
            let mut b = board.clone();
            bench.iter(|| {
                for &(x, y) in &legal {
                    b.play(colour, x, y).unwrap();
                    black_box(b.hash());
                    b.undo();
                }
            })
        });
        g.bench_function("copy_make", |bench| {
            bench.iter(|| {
                for &(x, y) in &legal {
                    let mut copy = board.clone();
                    copy.play(colour, x, y).unwrap();
                    black_box(copy.hash());
                }
            })
        });
        g.bench_function("play_recount", |bench| {
            let mut b = board.clone();
            bench.iter(|| {
                for &(x, y) in &legal {
                    b.play(colour, x, y).unwrap();
                    black_box(recount(&b));
                    b.undo();
                }
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench, bench_windows
}
criterion_main!(benches);
