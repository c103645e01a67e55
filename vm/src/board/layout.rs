//! The padded cell layout shared by every board size: a 27x27 grid whose outer ring (and, for
//! boards smaller than 25, everything beyond the board) is marked off-board, so neighbour
//! lookups need no bounds checks.

/// Smallest board side the reference board supports.
pub const MIN_SIZE: u8 = 5;
/// Largest board side the reference board supports.
pub const MAX_SIZE: u8 = 25;
/// Row stride of the padded grid.
pub const STRIDE: usize = MAX_SIZE as usize + 2;
pub const CELLS: usize = STRIDE * STRIDE;

/// Cell contents (`colour_code` of a stone is 1 for Black, 2 for White).
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const OFF: u8 = 3;

use super::Colour;

#[inline(always)]
pub const fn code(c: Colour) -> u8 {
    match c {
        Colour::Black => BLACK,
        Colour::White => WHITE,
    }
}

#[inline(always)]
pub const fn colour_of(code: u8) -> Colour {
    if code == BLACK {
        Colour::Black
    } else {
        Colour::White
    }
}

/// Cell index of an on-board point (caller checks bounds).
#[inline(always)]
pub const fn cell(x: i32, y: i32) -> usize {
    (y as usize + 1) * STRIDE + x as usize + 1
}

/// `(x, y)` of a cell index.
#[inline(always)]
pub const fn xy(cell: usize) -> (i32, i32) {
    ((cell % STRIDE) as i32 - 1, (cell / STRIDE) as i32 - 1)
}

/// The four orthogonal neighbours (north, west, east, south). Valid for every on-board cell.
#[inline(always)]
pub const fn neighbours(cell: usize) -> [usize; 4] {
    [cell - STRIDE, cell - 1, cell + 1, cell + STRIDE]
}

/// Per-cell arrays are allocated with a power-of-two length and indexed through a mask: every
/// cell index is `< CELLS` by construction, and the mask lets the compiler drop bounds checks
/// from the hot loops (an index can never panic; slots past `CELLS` stay off-board and unused).
pub const SLOTS: usize = 1024;
const MASK: usize = SLOTS - 1;
const _: () = assert!(SLOTS >= CELLS);

#[derive(Clone, PartialEq, Eq)]
pub struct Cells<T>(pub [T; SLOTS]);

impl<T: Copy> Cells<T> {
    pub const fn filled(v: T) -> Cells<T> {
        Cells([v; SLOTS])
    }
    #[inline(always)]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.0.swap(a & MASK, b & MASK);
    }
}

impl<T> core::ops::Index<usize> for Cells<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & MASK]
    }
}

impl<T> core::ops::IndexMut<usize> for Cells<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & MASK]
    }
}
