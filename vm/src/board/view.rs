//! The board interface the matcher reads. The reference [`super`] board implements it; an
//! engine with its own board implements it to drive the VM without copying.

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Black (plays first).
    Black,
    /// White.
    White,
}

impl Colour {
    /// The other colour.
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
    /// No stone.
    Empty,
    /// A stone of this colour.
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
    /// Optional fast path for the 7x7 view cut around an on-board point `(x, y)`: the black
    /// and the white stones on rows `y - 3 ..= y + 3` (north first), bit `j` of each standing
    /// for column `x - 3 + j` (7 bits; points off the board read 0). `None` when the board has
    /// no row bitboards. The default cuts [`BoardView::row_bits`]; the reference board keeps
    /// padded rows and answers with seven loads and shifts.
    #[inline]
    fn window7(&self, x: i32, y: i32) -> Option<[[u8; 7]; 2]> {
        let size = self.size() as i32;
        self.row_bits(Colour::Black, y.clamp(0, size - 1))?;
        // Column x - 3 + j lands on bit j (a bad `x` gives 0s, not an overflow).
        let sh = u32::try_from(x).unwrap_or(u32::MAX);
        let cut = |colour| {
            core::array::from_fn(|i| {
                let r = y.saturating_add(i as i32 - 3);
                let bits = if (r as u32) < size as u32 {
                    self.row_bits(colour, r).unwrap_or(0) as u64
                } else {
                    0
                };
                (bits << 3).checked_shr(sh).unwrap_or(0) as u8 & 0x7F
            })
        };
        Some([cut(Colour::Black), cut(Colour::White)])
    }
    /// Optional fast path for the vector view cut: the stone rows with three empty rows and
    /// columns on every side, row `y` at `rows[y + 3]` with its black stones at bits `x + 3`
    /// and its white stones at bits `x + 35` (every other bit 0), so that the window of any
    /// on-board point is seven whole rows. `None` (the default) when the board keeps no such
    /// rows: the cut then reads [`BoardView::window7`].
    #[inline]
    fn padded_rows(&self) -> Option<&[u64; 32]> {
        None
    }
    /// Optional fast path: the packed 7x7 view words (the three words of docs/rom-format.md's
    /// packed layout) of the on-board focus `(x, y)` seen from `persp`, when the board keeps
    /// them ([`crate::matching::KeptViews`]). The default, `None`, has the matcher cut the view.
    #[inline]
    fn view7(&self, _persp: Colour, _x: i32, _y: i32) -> Option<[u64; 3]> {
        None
    }
    /// Cuts a window from the board: `width` (1..=32) columns from column `x0`, `out.len()`
    /// rows from row `y0` (any of them may lie off the board). `out[i]` is
    /// `[black, white, off]` for row `y0 + i`, bit `j` standing for column `x0 + j`; empty
    /// points are the bits in none of the three. Uses [`BoardView::row_bits`] when the board
    /// has it (a few shifts per row), else [`BoardView::point`]. A perspective is a swap of the
    /// first two words.
    #[inline]
    fn window_rows(&self, x0: i32, y0: i32, width: u32, out: &mut [[u32; 3]]) {
        let width = width.clamp(1, 32);
        let wmask = (u64::MAX >> (64 - width)) as u32;
        let size = self.size() as i32;
        // Shift a board-row mask so that column `x0` lands on bit 0 (shifts clamped so that
        // far-away windows give 0 instead of overflowing).
        let (right, left) = if x0 >= 0 {
            (x0.min(63) as u32, 0)
        } else {
            (0, x0.unsigned_abs().min(63))
        };
        let cut = |bits: u64| -> u32 { ((bits >> right) << left) as u32 & wmask };
        let on = cut((1u64 << size.clamp(0, 32)) - 1);
        for (i, row) in out.iter_mut().enumerate() {
            let y = y0.saturating_add(i as i32);
            if y < 0 || y >= size {
                *row = [0, 0, wmask];
                continue;
            }
            match (
                self.row_bits(Colour::Black, y),
                self.row_bits(Colour::White, y),
            ) {
                (Some(b), Some(w)) => *row = [cut(b as u64), cut(w as u64), !on & wmask],
                _ => {
                    let mut r = [0u32, 0, 0];
                    for j in 0..width {
                        let x = x0.saturating_add(j as i32);
                        match self.point(x, y) {
                            Point::Stone(Colour::Black) => r[0] |= 1 << j,
                            Point::Stone(Colour::White) => r[1] |= 1 << j,
                            Point::Empty => {}
                            Point::Off => r[2] |= 1 << j,
                        }
                    }
                    *row = r;
                }
            }
        }
    }
}
