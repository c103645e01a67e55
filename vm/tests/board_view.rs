//! `BoardView::window_rows`: the row-bitboard fast path and the point-by-point fallback both
//! equal a cell-by-cell reading of the board, for windows anywhere (also off the board).

use lens_vm::board::{Board, BoardView, Colour, Point};
use proptest::prelude::*;

/// Board views without the row-bitboard fast path, and with rows but the default `window7`.
use lens_vm::internals::{PointsOnly, RowsOnly};

fn expected(b: &Board, x0: i32, y0: i32, width: u32, rows: usize) -> Vec<[u32; 3]> {
    (0..rows)
        .map(|i| {
            let mut r = [0u32; 3];
            for j in 0..width {
                match b.point(x0 + j as i32, y0 + i as i32) {
                    Point::Stone(Colour::Black) => r[0] |= 1 << j,
                    Point::Stone(Colour::White) => r[1] |= 1 << j,
                    Point::Empty => {}
                    Point::Off => r[2] |= 1 << j,
                }
            }
            r
        })
        .collect()
}

fn random_board(size: u8, seed: u64) -> Board {
    let mut b = Board::new(size).unwrap();
    let mut state = seed;
    let n = size as i32;
    for _ in 0..n * n {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let p = (state >> 33) as i32 % (n * n);
        let _ = b.play(b.to_move(), p % n, p / n);
    }
    b
}

proptest! {
    #[test]
    fn window_rows_match_points(size in 5u8..=25, seed in any::<u64>(), x0 in -40i32..40, y0 in -40i32..40,
                                width in 1u32..=32, rows in 0usize..12) {
        let b = random_board(size, seed);
        let want = expected(&b, x0, y0, width, rows);
        let mut fast = vec![[9u32; 3]; rows];
        b.window_rows(x0, y0, width, &mut fast);
        prop_assert_eq!(&fast, &want);
        let mut slow = vec![[9u32; 3]; rows];
        PointsOnly(&b).window_rows(x0, y0, width, &mut slow);
        prop_assert_eq!(&slow, &want);
    }
}

proptest! {
    /// The 7x7 window rows of an on-board point: the reference board's padded rows and the
    /// default cut from `row_bits` both equal the point reads; a board without row bitboards
    /// has none.
    #[test]
    fn window7_matches_points(size in 5u8..=25, seed in any::<u64>(), x in 0i32..25, y in 0i32..25) {
        let b = random_board(size, seed);
        let (x, y) = (x % size as i32, y % size as i32);
        let want = expected(&b, x - 3, y - 3, 7, 7);
        let want = [0, 1].map(|c| core::array::from_fn(|i| want[i][c] as u8));
        prop_assert_eq!(b.window7(x, y), Some(want));
        prop_assert_eq!(RowsOnly(&b).window7(x, y), Some(want));
        prop_assert_eq!(PointsOnly(&b).window7(x, y), None);
    }
}

#[test]
fn window_around_a_corner() {
    let b = Board::from_diagram(
        "X O . . .
         . X . . .
         . . . . .
         . . . . .
         . . . . O",
    )
    .unwrap();
    let mut out = [[0u32; 3]; 3];
    // A 3x3 window centred on (0,0): the row above and the column to the left are off-board.
    b.window_rows(-1, -1, 3, &mut out);
    assert_eq!(out[0], [0, 0, 0b111]);
    assert_eq!(out[1], [0b010, 0b100, 0b001]);
    assert_eq!(out[2], [0b100, 0, 0b001]);
    b.window_rows(3, 3, 3, &mut out);
    assert_eq!(out[1], [0, 0b010, 0b100]);
    assert_eq!(out[2], [0, 0, 0b111]);
}
