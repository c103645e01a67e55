//! What a move changed, found by comparing the board's stone rows with a copy kept from the
//! last update: one row cut per board row, through [`BoardView::window_rows`] (a few shifts on
//! boards with row bitboards, `point()` reads otherwise). It sees plays, captures, undos,
//! setup edits and any sequence of them alike, on the reference board or an engine's own.

use crate::board::{BoardView, MAX_SIZE};

const ROWS: usize = MAX_SIZE as usize;
/// Points of the largest board.
pub(crate) const POINTS: usize = ROWS * ROWS;

/// The stones of a position, per colour and row (bit `x` of `rows[c][y]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Snapshot {
    pub size: u8,
    /// `[black, white]` rows.
    pub rows: [[u32; ROWS]; 2],
}

/// A changed point and the state it holds now (0 black, 1 white, 2 empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Changed {
    pub x: i32,
    pub y: i32,
    pub state: u8,
}

impl Snapshot {
    pub const EMPTY: Snapshot = Snapshot {
        size: 0,
        rows: [[0; ROWS]; 2],
    };

    /// The stones of `board` (boards outside 5..=25 give size 0: nothing to track).
    pub fn read<B: BoardView + ?Sized>(board: &B) -> Snapshot {
        Snapshot::read_as(board, false)
    }

    /// [`Snapshot::read`], with the colours' rows swapped when `swap` (White's perspective).
    /// Boards that keep padded rows ([`BoardView::padded_rows`]) give them with two shifts a
    /// row; others through [`BoardView::window_rows`].
    #[inline]
    pub fn read_as<B: BoardView + ?Sized>(board: &B, swap: bool) -> Snapshot {
        let size = board.size();
        let mut s = Snapshot::EMPTY;
        if !(crate::board::MIN_SIZE..=MAX_SIZE).contains(&size) {
            return s;
        }
        s.size = size;
        let n = size as usize;
        let (b, w) = if swap { (1, 0) } else { (0, 1) };
        if let Some(rows) = board.padded_rows() {
            // Row `y` at `rows[y + 3]`: black at bits `x + 3`, white at bits `x + 35`.
            let m = (1u64 << size) - 1;
            for (y, &r) in rows[3..3 + n].iter().enumerate() {
                s.rows[b][y] = (r >> 3 & m) as u32;
                s.rows[w][y] = (r >> 35 & m) as u32;
            }
            return s;
        }
        let mut cut = [[0u32; 3]; ROWS];
        board.window_rows(0, 0, size as u32, &mut cut[..n]);
        for (y, c) in cut[..n].iter().enumerate() {
            s.rows[b][y] = c[0];
            s.rows[w][y] = c[1];
        }
        s
    }

    /// Calls `f` for every point whose state differs in `now` (same size), row by row.
    #[inline]
    pub fn diff(&self, now: &Snapshot, mut f: impl FnMut(Changed)) {
        for y in 0..now.size as usize {
            let (b, w) = (now.rows[0][y], now.rows[1][y]);
            let mut d = (self.rows[0][y] ^ b) | (self.rows[1][y] ^ w);
            while d != 0 {
                let x = d.trailing_zeros();
                d &= d - 1;
                let state = if b >> x & 1 != 0 {
                    0
                } else if w >> x & 1 != 0 {
                    1
                } else {
                    2
                };
                f(Changed {
                    x: x as i32,
                    y: y as i32,
                    state,
                });
            }
        }
    }

    /// State of an on-board point: 0 black, 1 white, 2 empty.
    #[inline]
    pub fn state(&self, x: i32, y: i32) -> u8 {
        let (b, w) = (self.rows[0][y as usize], self.rows[1][y as usize]);
        if b >> x & 1 != 0 {
            0
        } else if w >> x & 1 != 0 {
            1
        } else {
            2
        }
    }

    #[inline]
    pub fn on_board(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.size as u32 && (y as u32) < self.size as u32
    }
}

/// A set of board points, bit `y * 32 + x` (no allocation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointSet([u32; ROWS]);

impl PointSet {
    pub const fn new() -> PointSet {
        PointSet([0; ROWS])
    }
    /// Adds an on-board point; `true` when it was not there.
    #[inline]
    pub fn insert(&mut self, x: i32, y: i32) -> bool {
        let (r, b) = (&mut self.0[y as usize], 1u32 << x);
        let new = *r & b == 0;
        *r |= b;
        new
    }
    /// Removes a point; `true` when it was there.
    #[inline]
    pub fn remove(&mut self, x: i32, y: i32) -> bool {
        let (r, b) = (&mut self.0[y as usize], 1u32 << x);
        let had = *r & b != 0;
        *r &= !b;
        had
    }
    /// Row `y` as bits `x`.
    #[inline]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub fn row(&self, y: i32) -> u32 {
        self.0[y as usize]
    }
    #[inline]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub fn is_empty(&self) -> bool {
        // Branch-free (vectorised): most sets asked are empty or nearly.
        self.0.iter().fold(0, |a, &r| a | r) == 0
    }
    #[inline]
    pub fn contains(&self, x: i32, y: i32) -> bool {
        self.0[y as usize] >> x & 1 != 0
    }
    /// Calls `f(x, y)` for every point, row by row.
    #[inline]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) scan walks a set
    pub fn for_each(&self, mut f: impl FnMut(i32, i32)) {
        // The non-empty rows first, without a branch per row (vectorised): a set is a few
        // points on a few rows.
        let mut rows = self
            .0
            .iter()
            .enumerate()
            .fold(0u32, |m, (y, &r)| m | ((r != 0) as u32) << y);
        while rows != 0 {
            let y = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let mut r = self.0[y];
            while r != 0 {
                let x = r.trailing_zeros();
                r &= r - 1;
                f(x as i32, y as i32);
            }
        }
    }
}

/// Calls `f(x, y)` for every stone of the string at the on-board stone `(x, y)` that `seen`
/// does not hold yet, adding them to `seen` (a flood fill over `point()` reads, so it works
/// on any [`BoardView`]; `stack` holds up to [`POINTS`] points).
pub(crate) fn walk_string<B: BoardView + ?Sized>(
    board: &B,
    x: i32,
    y: i32,
    seen: &mut PointSet,
    stack: &mut [(i8, i8); POINTS],
    mut f: impl FnMut(i32, i32),
) {
    let colour = board.point(x, y);
    if !seen.insert(x, y) {
        return;
    }
    let mut n = 1;
    stack[0] = (x as i8, y as i8);
    while n > 0 {
        n -= 1;
        let (sx, sy) = (stack[n].0 as i32, stack[n].1 as i32);
        f(sx, sy);
        for (dx, dy) in crate::geometry::DIRECTIONS {
            let (qx, qy) = (sx + dx, sy + dy);
            if board.point(qx, qy) == colour && seen.insert(qx, qy) {
                stack[n] = (qx as i8, qy as i8);
                n += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Colour, Point};

    /// A board that answers `point()` only (no rows): the snapshot takes `window_rows`.
    use crate::internals::PointsOnly as Points;

    /// The padded-rows read equals the `point()` read, both perspectives, on boards of every
    /// size filled by random legal plays.
    #[test]
    fn padded_rows_read_equals_point_read() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for size in [5u8, 9, 13, 19, 25] {
            let mut board = Board::new(size).unwrap();
            for k in 0..size as usize * size as usize {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let (x, y) = (
                    (seed % size as u64) as i32,
                    (seed / 64 % size as u64) as i32,
                );
                let colour = if k % 2 == 0 {
                    Colour::Black
                } else {
                    Colour::White
                };
                let _ = board.play(colour, x, y);
                assert!(board.padded_rows().is_some());
                for swap in [false, true] {
                    let fast = Snapshot::read_as(&board, swap);
                    assert_eq!(fast, Snapshot::read_as(&Points(&board), swap), "{size} {k}");
                    for y in 0..size as i32 {
                        for x in 0..size as i32 {
                            let want = match (board.point(x, y), swap) {
                                (Point::Stone(Colour::Black), false)
                                | (Point::Stone(Colour::White), true) => 0,
                                (Point::Stone(_), _) => 1,
                                _ => 2,
                            };
                            assert_eq!(fast.state(x, y), want);
                        }
                    }
                }
            }
        }
    }
}
