//! The reference board and the [`BoardView`] trait.
//!
//! [`Board`] is a plain Go board for sizes 5..=25 with captures, simple ko and suicide rejected,
//! strings with exact liberty counts kept incrementally, a Zobrist hash, per-colour row
//! bitboards, and an undo stack. It never allocates: every array is sized for 25x25 and the
//! undo history has a fixed capacity ([`HISTORY_CAPACITY`] records).
//!
//! Coordinates: `x` is the column from the left (west), `y` the row from the top (north), both
//! from 0. [`coords`] converts GTP vertices (`"D4"`) and SGF points (`"dd"`).
//!
//! Rules: simple ko only (an immediate single-stone recapture); positional superko is left to
//! the engine ([`Board::stones_hash`] is the hash to keep for it). [`Board::hash`] covers the
//! stones, the side to move and the ko point, with keys from a fixed seed ([`zobrist_keys`]).
//! Setup stones: [`Board::place`] adds one (undoable); [`Board::remove`] (SGF `AE`) takes one
//! away and clears the undo history.
//!
//! Size: about 56 KB, mostly the undo history (1024 records of 42 bytes) and the captured
//! stones kept for undo; the position itself is ~9 KB of per-cell arrays. Play + undo of a
//! typical move runs ~470 instructions (callgrind, 19x19 mid-game; `benches/board.rs`).
//!
//! ```
//! use lens_vm::board::{Board, BoardView, Colour::*, PlayError};
//! let mut b = Board::new(9).unwrap();
//! b.play(Black, 2, 2).unwrap();
//! assert_eq!(b.play(White, 2, 2), Err(PlayError::Occupied));
//! let before = b.hash();
//! b.play(White, 3, 2).unwrap();
//! assert_eq!(b.liberties(2, 2), 3);
//! assert_eq!(b.row_bits(White, 2), Some(0b1000));
//! assert!(b.undo());
//! assert_eq!(b.hash(), before);
//! ```

pub mod coords;
mod diagram;
mod error;
mod layout;
mod play;
mod view;
mod zobrist;

pub use coords::{CoordError, format_sgf_point, format_vertex, parse_sgf_point, parse_vertex};
pub use diagram::{DiagramError, DiagramErrorKind};
pub use error::{MovesError, PlayError};
pub use layout::{MAX_SIZE, MIN_SIZE};
pub use view::{BoardView, Colour, Point};

use layout::{Cells, EMPTY, OFF, cell, code};
use zobrist::KEYS;

/// Empty rows and columns around the stone rows (a 7x7 window's reach).
const ROW_PAD: usize = 3;
/// Padded stone rows per colour: 25 + 2 * 3 <= 32.
const ROW_SLOTS: usize = 32;
const _: () = assert!(MAX_SIZE as usize + 2 * ROW_PAD <= ROW_SLOTS);

/// Where a colour code's stones start in a padded row (`Board::rows`): black 0, white 32.
#[inline(always)]
const fn colour_shift(code: u8) -> usize {
    (code as usize - 1) * 32
}

/// How many moves (plays, passes, placements) can be undone. A move beyond it fails with
/// [`PlayError::HistoryFull`]; [`Board::clear_history`] makes the current position the base.
pub const HISTORY_CAPACITY: usize = 1024;
/// Every stone captured within the history is kept for undo: at most the stones that existed
/// when the history began (625) plus one per recorded move.
const CAPTURE_CAPACITY: usize = HISTORY_CAPACITY + 625;

/// What a history record undoes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Play,
    Place,
    Pass,
}

/// One undo record (32 bytes). Captured stones live in [`Board::captured`], from `cap_start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Undo {
    kind: Kind,
    /// Colour code of the stone played (plays and placements).
    colour: u8,
    prev_to_move: Colour,
    prev_ko_colour: u8,
    prev_ko: u16,
    point: u16,
    /// The string head the new stone joined (the stone itself when it joined nothing).
    base: u16,
    base_libs: u16,
    base_count: u16,
    /// Heads merged into `base`, in merge order (the new stone included), with their liberties.
    merged: [u16; 4],
    merged_libs: [u16; 4],
    n_merged: u8,
    n_groups: u8,
    /// Sizes of the captured strings, stored one after the other from `cap_start`.
    groups: [u16; 4],
    cap_start: u16,
}

const NO_UNDO: Undo = Undo {
    kind: Kind::Pass,
    colour: 0,
    prev_to_move: Colour::Black,
    prev_ko_colour: 0,
    prev_ko: 0,
    point: 0,
    base: 0,
    base_libs: 0,
    base_count: 0,
    merged: [0; 4],
    merged_libs: [0; 4],
    n_merged: 0,
    n_groups: 0,
    groups: [0; 4],
    cap_start: 0,
};

/// The reference board. See the [module docs](self).
///
/// Strings are circular lists (`next`) with a representative stone (`head`); liberty count and
/// stone count are stored at the head. Every field that has no meaning (an empty point's
/// `head`/`next`, `libs`/`count` of a non-head) is kept at 0, so [`PartialEq`] compares the
/// whole position bit for bit, and `undo` restores it exactly.
// (`repr(C)`: the rows and the size, which the view cut reads together, first and in the
// same page; left to the compiler, the size landed 46 KiB after the rows.)
#[derive(Clone)]
#[repr(C)]
pub struct Board {
    /// The stone rows: bit `x + ROW_PAD` of `rows[y + ROW_PAD]` is a black stone at `(x, y)`,
    /// bit `x + ROW_PAD + 32` a white one. Three empty rows and columns on every side, so the
    /// 7x7 window of any on-board point is seven loads and shifts for both colours, with no
    /// bounds work ([`BoardView::window7`]).
    rows: [u64; ROW_SLOTS],
    size: u8,
    to_move: Colour,
    /// Ko cell (0 = none; cell 0 is off-board) and the colour code that may not retake there.
    ko: u16,
    ko_colour: u8,
    stone_hash: u64,
    colour: Cells<u8>,
    head: Cells<u16>,
    next: Cells<u16>,
    libs: Cells<u16>,
    count: Cells<u16>,
    history_len: usize,
    captured_len: usize,
    history: [Undo; HISTORY_CAPACITY],
    captured: [u16; CAPTURE_CAPACITY],
}

impl PartialEq for Board {
    /// Same position and internal string structure, same live history. Hash included.
    fn eq(&self, o: &Board) -> bool {
        self.size == o.size
            && self.to_move == o.to_move
            && self.ko == o.ko
            && self.ko_colour == o.ko_colour
            && self.stone_hash == o.stone_hash
            && self.colour == o.colour
            && self.head == o.head
            && self.next == o.next
            && self.libs == o.libs
            && self.count == o.count
            && self.rows == o.rows
            && self.history_len == o.history_len
            && self.captured_len == o.captured_len
            && self.history[..self.history_len] == o.history[..o.history_len]
            && self.captured[..self.captured_len] == o.captured[..o.captured_len]
    }
}
impl Eq for Board {}

impl core::fmt::Debug for Board {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Board {{ hash: {:#018x}, history: {}, ko: {:?}\n{}}}",
            self.hash(),
            self.history_len,
            self.ko_point(),
            self
        )
    }
}

impl Board {
    /// An empty board with Black to move; `None` unless `5 <= size <= 25`.
    pub fn new(size: u8) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let mut colour = Cells::filled(OFF);
        for y in 0..size as i32 {
            for x in 0..size as i32 {
                colour[cell(x, y)] = EMPTY;
            }
        }
        Some(Board {
            size,
            to_move: Colour::Black,
            ko: 0,
            ko_colour: 0,
            stone_hash: 0,
            colour,
            head: Cells::filled(0),
            next: Cells::filled(0),
            libs: Cells::filled(0),
            count: Cells::filled(0),
            rows: [0; ROW_SLOTS],
            history_len: 0,
            captured_len: 0,
            history: [NO_UNDO; HISTORY_CAPACITY],
            captured: [0; CAPTURE_CAPACITY],
        })
    }

    /// Plays the moves in order (`None` = pass) on an empty board of `size`.
    pub fn from_moves(
        size: u8,
        moves: &[(Colour, Option<(i32, i32)>)],
    ) -> Result<Board, MovesError> {
        let mut b = Board::new(size).ok_or(MovesError::BadSize(size))?;
        for (index, &(c, m)) in moves.iter().enumerate() {
            let r = match m {
                Some((x, y)) => b.play(c, x, y),
                None => b.pass(c),
            };
            r.map_err(|error| MovesError::Illegal { index, error })?;
        }
        Ok(b)
    }

    /// The board side (5..=25).
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The side to move: the opponent of the last player (plays and passes); placements leave it.
    #[inline]
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Sets the side to move (not recorded in the history; meant for setting up positions).
    pub fn set_to_move(&mut self, c: Colour) {
        self.to_move = c;
    }

    /// The point the player to move may not play at because of simple ko, if any.
    ///
    /// Precisely: the point where [`Board::ko_colour`] may not retake on its next move.
    #[inline]
    pub fn ko_point(&self) -> Option<(i32, i32)> {
        (self.ko != 0).then(|| layout::xy(self.ko as usize))
    }

    /// The colour barred from the ko point (the opponent of the player who just captured).
    pub fn ko_colour(&self) -> Option<Colour> {
        (self.ko != 0).then(|| layout::colour_of(self.ko_colour))
    }

    /// The Zobrist hash of the position: stones, XOR a key when White is to move, XOR a key of
    /// the ko point when there is one. Keys come from a fixed seed ([`zobrist_keys`]), so the
    /// value is the same on every run and platform.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.stone_hash;
        if self.to_move == Colour::White {
            h ^= KEYS.white_to_move;
        }
        if self.ko != 0 {
            h ^= KEYS.ko[self.ko as usize];
        }
        h
    }

    /// The hash of the stones alone (for positional superko checks).
    #[inline]
    pub fn stones_hash(&self) -> u64 {
        self.stone_hash
    }

    /// How many moves can be undone.
    #[inline]
    pub fn history_len(&self) -> usize {
        self.history_len
    }

    /// Forgets the undo history: the current position becomes the base.
    pub fn clear_history(&mut self) {
        self.history_len = 0;
        self.captured_len = 0;
    }

    /// The state of `(x, y)`; [`Point::Off`] outside the board.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> Point {
        if self.on_board(x, y) {
            match self.colour[cell(x, y)] {
                EMPTY => Point::Empty,
                c => Point::Stone(layout::colour_of(c)),
            }
        } else {
            Point::Off
        }
    }

    /// Number of stones of the string at `(x, y)` (0 for empty or off-board points).
    pub fn string_size(&self, x: i32, y: i32) -> u16 {
        if !self.on_board(x, y) {
            return 0;
        }
        let c = cell(x, y);
        if self.colour[c] == EMPTY {
            0
        } else {
            self.count[self.head[c] as usize]
        }
    }

    /// Whether two points hold stones of the same string.
    pub fn same_string(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        if !self.on_board(a.0, a.1) || !self.on_board(b.0, b.1) {
            return false;
        }
        let (ca, cb) = (cell(a.0, a.1), cell(b.0, b.1));
        self.colour[ca] != EMPTY && self.colour[cb] != EMPTY && self.head[ca] == self.head[cb]
    }

    /// Calls `f(x, y)` for every stone of the string at `(x, y)` (nothing for an empty point).
    pub fn for_each_stone(&self, x: i32, y: i32, mut f: impl FnMut(i32, i32)) {
        if !self.on_board(x, y) || self.colour[cell(x, y)] == EMPTY {
            return;
        }
        let start = cell(x, y);
        let mut s = start;
        loop {
            let (sx, sy) = layout::xy(s);
            f(sx, sy);
            s = self.next[s] as usize;
            if s == start {
                break;
            }
        }
    }

    /// The row bitboard of `colour` for row `y` (bit `x` set = stone); 0 outside the board.
    #[inline]
    pub fn row(&self, colour: Colour, y: i32) -> u32 {
        if (y as u32) < self.size as u32 {
            (self.rows[y as usize + ROW_PAD] >> (ROW_PAD + colour_shift(code(colour)))) as u32
        } else {
            0
        }
    }

    #[inline(always)]
    fn on_board(&self, x: i32, y: i32) -> bool {
        (x as u32) < self.size as u32 && (y as u32) < self.size as u32
    }
}

impl BoardView for Board {
    #[inline]
    fn size(&self) -> u8 {
        self.size
    }
    #[inline]
    fn point(&self, x: i32, y: i32) -> Point {
        self.get(x, y)
    }
    #[inline]
    fn liberties(&self, x: i32, y: i32) -> u16 {
        if !self.on_board(x, y) {
            return 0;
        }
        let c = cell(x, y);
        if self.colour[c] == EMPTY {
            0
        } else {
            self.libs[self.head[c] as usize]
        }
    }
    #[inline]
    fn row_bits(&self, colour: Colour, y: i32) -> Option<u32> {
        Some(self.row(colour, y))
    }
    /// Seven loads and shifts of the padded rows: no bounds or off-board work.
    #[inline]
    fn window7(&self, x: i32, y: i32) -> Option<[[u8; 7]; 2]> {
        // (A bad coordinate gives garbage, not a panic: the shift is masked, and the row
        // index clamped so that `y + 6` stays in the array, which drops the bounds checks.)
        let (sh, y) = (x as u32 & 31, (y as u32).min(MAX_SIZE as u32) as usize);
        let w: [u64; 7] = core::array::from_fn(|i| self.rows[y + i] >> sh);
        Some([w.map(|v| v as u8 & 0x7F), w.map(|v| (v >> 32) as u8 & 0x7F)])
    }
    #[inline]
    fn padded_rows(&self) -> Option<&[u64; 32]> {
        Some(&self.rows)
    }
    /// The default method's row-bitboard path, reading the rows directly.
    #[inline]
    fn window_rows(&self, x0: i32, y0: i32, width: u32, out: &mut [[u32; 3]]) {
        let width = width.clamp(1, 32);
        let wmask = (u64::MAX >> (64 - width)) as u32;
        let (right, left) = if x0 >= 0 {
            (x0.min(63) as u32, 0)
        } else {
            (0, x0.unsigned_abs().min(63))
        };
        let cut = |bits: u32| -> u32 { (((bits as u64) >> right) << left) as u32 & wmask };
        let off = !cut((1u32 << self.size) - 1) & wmask;
        let mut y = y0;
        for row in out.iter_mut() {
            *row = if (y as u32) < self.size as u32 {
                let r = self.rows[y as usize + ROW_PAD] >> ROW_PAD;
                let [b, w] = [r as u32, (r >> 32) as u32];
                [cut(b), cut(w), off]
            } else {
                [0, 0, wmask]
            };
            y = y.saturating_add(1);
        }
    }
}

/// The Zobrist keys the hash is built from, for engines and tests that recompute it:
/// `stone(colour, x, y)`, `ko(x, y)` and `white_to_move()`.
pub mod zobrist_keys {
    pub use super::zobrist::SEED;
    use super::{Colour, KEYS, cell, code};

    fn inside(x: i32, y: i32) -> bool {
        (x as u32) < super::MAX_SIZE as u32 && (y as u32) < super::MAX_SIZE as u32
    }
    /// Key of a stone of `colour` at `(x, y)`; 0 outside `0..25`.
    pub fn stone(colour: Colour, x: i32, y: i32) -> u64 {
        if inside(x, y) {
            KEYS.stones[code(colour) as usize - 1][cell(x, y)]
        } else {
            0
        }
    }
    /// Key of the ko point `(x, y)`; 0 outside `0..25`.
    pub fn ko(x: i32, y: i32) -> u64 {
        if inside(x, y) { KEYS.ko[cell(x, y)] } else { 0 }
    }
    /// Key XORed in when White is to move.
    pub fn white_to_move() -> u64 {
        KEYS.white_to_move
    }
}
