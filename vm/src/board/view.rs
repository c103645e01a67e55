//! The board interface the matcher reads. The reference [`super`] board implements it; an
//! engine with its own board implements it to drive the VM without copying.

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub const fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

/// What occupies a point (absolute colours; the matcher applies the perspective).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Point {
    Empty,
    Stone(Colour),
    /// Outside the board.
    Off,
}

/// Read access to a square Go board. Coordinates are `x` (column, 0 = left/west) and `y`
/// (row, 0 = top/north); anything outside `0..size` is [`Point::Off`].
pub trait BoardView {
    /// Side length (5..=25).
    fn size(&self) -> u8;
    /// State of a point; must return `Off` for any coordinate outside the board.
    fn point(&self, x: i32, y: i32) -> Point;
    /// Liberties of the string at `(x, y)`; 0 for empty or off-board points.
    fn liberties(&self, x: i32, y: i32) -> u16;
    /// Optional fast path: the row bitboard of `colour` for row `y` (bit `x` set = stone),
    /// kept incrementally by boards that have it; the kernel cuts views from it.
    #[inline]
    fn row_bits(&self, _colour: Colour, _y: i32) -> Option<u32> {
        None
    }
}
