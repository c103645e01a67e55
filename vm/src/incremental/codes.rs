//! Pachi-style 3x3 neighbourhood codes kept up to date move by move ([`Codes3x3`]).
//!
//! Each point holds one `u32`: its 8 neighbours' states in the order and encoding of the
//! lookup tables ([`crate::rom::lut::code`], 2 bits each, Black as the friend), the atari bits
//! of its 4 orthogonal neighbours, and its own state. A move changes the codes of the 8
//! neighbours of each point it changed (the stone, the captured stones), and the atari bits
//! around the strings whose liberty count crossed 1: that is all [`Codes3x3::update`] touches.
//! A 3x3 class with a lookup table then answers from one load and two table reads
//! ([`Codes3x3::match_at`]), no window cut.

use super::snapshot::{POINTS, PointSet, Snapshot, walk_string};
use crate::board::{BoardView, Colour, MAX_SIZE};
use crate::matching::{CallScratch, Ctx, Host, MatchBuf, Query, Scratch, match_lut_key};
use crate::rom::Rom;
use crate::rom::lut::NEIGHBOURS;

/// Row stride of the padded grid: a border of off-board points all round, so the neighbours
/// of every board point have a slot.
const STRIDE: usize = MAX_SIZE as usize + 2;
const SLOTS: usize = STRIDE * STRIDE;

/// Bits of a code word: the neighbourhood code (bits 0..16).
pub const CODE_MASK: u32 = 0xFFFF;
/// The first atari bit: bit `ATARI_SHIFT + i` is set when orthogonal neighbour `i` (north,
/// west, east, south: `NEIGHBOURS` order) is a stone whose string has exactly one liberty.
pub const ATARI_SHIFT: u32 = 16;
/// The point's own state (0 black, 1 white, 2 empty, 3 off) sits at bits 20..22.
pub const STATE_SHIFT: u32 = 20;

/// State code of an off-board point.
const OFF: u32 = 3;

#[inline(always)]
const fn slot(x: i32, y: i32) -> usize {
    (y + 1) as usize * STRIDE + (x + 1) as usize
}

/// Slot offset of neighbour `i` ([`NEIGHBOURS`] order).
#[inline(always)]
const fn delta(i: usize) -> isize {
    let (dx, dy) = NEIGHBOURS[i];
    dy as isize * STRIDE as isize + dx as isize
}

/// The neighbour index under which a point is seen from its neighbour `i`: north <-> south,
/// west <-> east, and the diagonals likewise.
#[inline(always)]
const fn opposite(i: usize) -> usize {
    if i < 4 { 3 - i } else { 11 - i }
}

/// Swaps friend and foe (0 <-> 1) in every 2-bit state of the low 16 bits: a code with Black
/// as the friend becomes White's.
#[inline(always)]
pub const fn swap_colours(code: u16) -> u16 {
    code ^ (!code >> 1 & 0x5555)
}

/// The 3x3 codes of every point of one board, updated from the board after each change.
/// How the codes are kept: `vm/src/incremental/codes.rs`. About 3 KB; no allocation.
#[derive(Clone)]
pub struct Codes3x3 {
    snap: Snapshot,
    words: [u32; SLOTS],
    /// Stones whose string had exactly one liberty at the last update.
    in_atari: PointSet,
}

impl core::fmt::Debug for Codes3x3 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Codes3x3 {{ size: {} }}", self.snap.size)
    }
}

impl Codes3x3 {
    /// The codes of `board`, computed from scratch.
    pub fn new<B: BoardView + ?Sized>(board: &B) -> Codes3x3 {
        let mut c = Codes3x3 {
            snap: Snapshot::EMPTY,
            words: [0; SLOTS],
            in_atari: PointSet::new(),
        };
        c.rebuild(board);
        c
    }

    /// Recomputes every code from `board` (what [`Codes3x3::update`] does incrementally).
    pub fn rebuild<B: BoardView + ?Sized>(&mut self, board: &B) {
        self.snap = Snapshot::read(board);
        self.in_atari = PointSet::new();
        // Everything off-board, then the board points' states into their neighbours.
        let all_off = (0..8).fold(0, |a, i| a | OFF << (2 * i)) | OFF << STATE_SHIFT;
        self.words = [all_off; SLOTS];
        let n = self.snap.size as i32;
        for y in 0..n {
            for x in 0..n {
                let s = self.snap.state(x, y);
                self.set_state(slot(x, y), s as u32);
            }
        }
        for y in 0..n {
            for x in 0..n {
                if self.snap.state(x, y) != 2 && board.liberties(x, y) == 1 {
                    self.set_atari(x, y, true);
                }
            }
        }
    }

    /// Brings the codes up to date with `board` after any number of plays, captures, undos or
    /// setup edits (the points that changed are found by comparing stone rows). Returns how
    /// many points changed. A board of another size is rebuilt.
    pub fn update<B: BoardView + ?Sized>(&mut self, board: &B) -> usize {
        let now = Snapshot::read(board);
        if now.size != self.snap.size {
            self.rebuild(board);
            return POINTS;
        }
        // Two passes over the row diff (no list to fill): states, then liberties.
        let old = self.snap;
        self.snap = now;
        let mut n = 0;
        old.diff(&now, |c| {
            n += 1;
            let p = slot(c.x, c.y);
            self.set_state(p, c.state as u32);
            if c.state == 2 && self.in_atari.remove(c.x, c.y) {
                self.point_atari(p, false);
            }
        });
        if n == 0 {
            return 0;
        }
        // Liberty counts change only for strings next to a changed point (or holding one):
        // walk a string when it holds a new stone (pieces may have merged), else only when
        // the atari status of its stone next to the change flipped.
        let mut seen = PointSet::new();
        let mut stack = [(0i8, 0i8); POINTS];
        old.diff(&now, |c| {
            if c.state != 2 {
                self.walk(board, c.x, c.y, true, &mut seen, &mut stack);
            }
            for &(dx, dy) in &NEIGHBOURS[..4] {
                let (x, y) = (c.x + dx as i32, c.y + dy as i32);
                if now.on_board(x, y) && now.state(x, y) != 2 {
                    self.walk(board, x, y, false, &mut seen, &mut stack);
                }
            }
        });
        n
    }

    fn walk<B: BoardView + ?Sized>(
        &mut self,
        board: &B,
        x: i32,
        y: i32,
        force: bool,
        seen: &mut PointSet,
        stack: &mut [(i8, i8); POINTS],
    ) {
        if seen.contains(x, y) {
            return;
        }
        let atari = board.liberties(x, y) == 1;
        if !force && self.in_atari.contains(x, y) == atari {
            return;
        }
        walk_string(board, x, y, seen, stack, |sx, sy| {
            self.set_atari(sx, sy, atari)
        });
    }

    /// Writes state `s` of the point at slot `p` into its own word and its neighbours' codes.
    #[inline(always)]
    fn set_state(&mut self, p: usize, s: u32) {
        let w = &mut self.words[p];
        *w = *w & !(3 << STATE_SHIFT) | s << STATE_SHIFT;
        for i in 0..8 {
            let q = (p as isize + delta(i)) as usize;
            let shift = 2 * opposite(i) as u32;
            let w = &mut self.words[q % SLOTS];
            *w = *w & !(3 << shift) | s << shift;
        }
    }

    #[inline(always)]
    fn set_atari(&mut self, x: i32, y: i32, atari: bool) {
        if atari {
            self.in_atari.insert(x, y);
        } else {
            self.in_atari.remove(x, y);
        }
        self.point_atari(slot(x, y), atari);
    }

    /// Sets or clears the atari bit that the 4 orthogonal neighbours of slot `p` keep for it.
    #[inline(always)]
    fn point_atari(&mut self, p: usize, atari: bool) {
        for i in 0..4 {
            let q = (p as isize + delta(i)) as usize;
            let bit = 1 << (ATARI_SHIFT + opposite(i) as u32);
            let w = &mut self.words[q % SLOTS];
            *w = if atari { *w | bit } else { *w & !bit };
        }
    }

    /// Board size the codes describe.
    pub fn size(&self) -> u8 {
        self.snap.size
    }

    /// The whole word of `(x, y)` (see [`CODE_MASK`], [`ATARI_SHIFT`], [`STATE_SHIFT`]): a
    /// key for an engine's own 3x3 tables, Black as the friend. Outside the board: 0.
    #[inline]
    pub fn word(&self, x: i32, y: i32) -> u32 {
        if self.snap.on_board(x, y) {
            self.words[slot(x, y)]
        } else {
            0
        }
    }

    /// The focus state and neighbourhood code of `(x, y)` from `persp`, equal to
    /// `rom::lut::code` on the board: the key of a class's lookup table. Outside
    /// the board: `(3, 0xFFFF)`.
    #[inline]
    pub fn code(&self, persp: Colour, x: i32, y: i32) -> (u8, u16) {
        if !self.snap.on_board(x, y) {
            return (OFF as u8, 0xFFFF);
        }
        let w = self.words[slot(x, y)];
        let (s, c) = ((w >> STATE_SHIFT & 3) as u16, w as u16);
        match persp {
            Colour::Black => (s as u8, c),
            Colour::White => ((swap_colours(s) & 3) as u8, swap_colours(c)),
        }
    }

    /// Atari bits of `(x, y)`'s orthogonal neighbours (bit `i`: neighbour `i` of
    /// `NEIGHBOURS`, north, west, east, south, is a stone in atari).
    #[inline]
    pub fn atari(&self, x: i32, y: i32) -> u8 {
        (self.word(x, y) >> ATARI_SHIFT & 0xF) as u8
    }

    /// [`Rom::match_at`] for a class with a lookup table, keyed by the kept code instead of a
    /// window cut: the same matches. Classes without a table take [`Rom::match_at`]. The
    /// codes must be up to date with `board`.
    #[allow(clippy::too_many_arguments)]
    pub fn match_at<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        x: i32,
        y: i32,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        let Some(class) = rom.class(q.class) else {
            return 0;
        };
        let Some(lut) = rom.class_lut(&class) else {
            return rom.match_at(board, host, q, x, y, scratch, out);
        };
        let (fs, code) = self.code(q.perspective, x, y);
        if class.focus() & (1 << fs) == 0 || fs == OFF as u8 {
            return 0;
        }
        let ctx = Ctx {
            rom,
            board,
            host,
            persp: q.perspective,
            x,
            y,
        };
        // Through the dispatch's lookup arm, with the key this structure keeps.
        let stack = &mut scratch.focus_scratch().active;
        let qmask = q.orientations.mask_at(x, y);
        match_lut_key(&ctx, &class, lut, (fs, code), qmask, stack, out)
    }
}
