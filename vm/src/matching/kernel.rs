//! Per-focus geometric filters without tables of their own: packed absence masks with early
//! exit on word 0 (packed classes when the image has neither a lookup table nor bit-sliced
//! tables for them), and the general paths for fields larger than 7x7. Which filter serves a
//! call is decided in [`super::dispatch`].

use super::Geometry;
use crate::board::{BoardView, Colour};
use crate::geometry::Orientation;
use crate::rom::{ClassInfo, Rom};

/// The packed mask kernel: a class's mask words against one view.
pub(crate) struct Packed<'a> {
    w0: &'a [u8],
    w1: &'a [u8],
    w2: &'a [u8],
    words: usize,
    v: [u64; 3],
    first: u32,
}

impl<'a> Packed<'a> {
    pub(crate) fn new(class: &ClassInfo<'a>, v: [u64; 3]) -> Self {
        let words = class.words();
        let w = |k: usize| if words > k { class.mask_words(k) } else { &[] };
        Packed {
            w0: class.mask_words(0),
            w1: w(1),
            w2: w(2),
            words,
            v,
            first: class.first_entry(),
        }
    }
}

#[inline]
fn word(bytes: &[u8], i: usize) -> u64 {
    crate::rom::wire::u64_at(bytes, i * 8)
}

impl Geometry for Packed<'_> {
    #[inline]
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        let (a, b) = ((from - self.first) as usize, (end - self.first) as usize);
        let w0 = self.w0.get(a * 8..b * 8)?;
        let v0 = self.v[0];
        for (k, c) in w0.chunks_exact(8).enumerate() {
            let m = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            if m & v0 != 0 {
                continue;
            }
            let i = a + k;
            if self.words > 1 && word(self.w1, i) & self.v[1] != 0 {
                continue;
            }
            if self.words > 2 && word(self.w2, i) & self.v[2] != 0 {
                continue;
            }
            return Some(self.first + i as u32);
        }
        None
    }
}

/// Point by point over the stored cells (fields larger than the packed window; also the
/// reference matcher's geometry).
pub(crate) struct Cells<'r, 'a, B: ?Sized> {
    pub rom: &'r Rom<'a>,
    pub board: &'r B,
    pub persp: Colour,
    pub x: i32,
    pub y: i32,
}

impl<B: BoardView + ?Sized> Cells<'_, '_, B> {
    pub(crate) fn entry_holds(&self, e: u32) -> bool {
        let (p, o, _) = self.rom.entry(e);
        let t = Orientation::new(o).unwrap_or(Orientation::IDENTITY);
        self.rom.pattern(p).cells().all(|(dx, dy, allowed)| {
            let (ox, oy) = t.apply(dx as i32, dy as i32);
            allowed & (1 << super::state(self.board, self.persp, self.x + ox, self.y + oy)) != 0
        })
    }
}

impl<B: BoardView + ?Sized> Geometry for Cells<'_, '_, B> {
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        (from..end).find(|&e| self.entry_holds(e))
    }
}

/// The general path on boards with row bitboards: the whole board is cut once per focus
/// (one row cut per row), so each cell is a couple of bit tests instead of a `point()` call,
/// and each variant checks its cells near the focus first (they reject most variants).
pub(crate) struct Grid<'r, 'a> {
    rom: &'r Rom<'a>,
    /// Per row: `[friend, foe]` bits (perspective applied).
    rows: [[u32; 2]; 32],
    size: i32,
    x: i32,
    y: i32,
}

/// Cells within this Chebyshev distance of the focus are checked in the first pass.
const NEAR: i32 = 2;

impl<'r, 'a> Grid<'r, 'a> {
    /// Whether the board has row bitboards that fit a row word.
    pub(crate) fn fits<B: BoardView + ?Sized>(b: &B) -> bool {
        (1..=32).contains(&(b.size() as i32)) && b.row_bits(Colour::Black, 0).is_some()
    }

    /// `None` when the board has no row bitboards (or is wider than a row word).
    pub(crate) fn new<B: BoardView + ?Sized>(
        rom: &'r Rom<'a>,
        b: &B,
        persp: Colour,
        x: i32,
        y: i32,
    ) -> Option<Self> {
        let size = b.size() as i32;
        if !Self::fits(b) {
            return None;
        }
        let mut cut = [[0u32; 3]; 32];
        b.window_rows(0, 0, size as u32, &mut cut[..size as usize]);
        let (fi, oi) = match persp {
            Colour::Black => (0, 1),
            Colour::White => (1, 0),
        };
        let mut rows = [[0u32; 2]; 32];
        for (r, c) in rows.iter_mut().zip(cut.iter()).take(size as usize) {
            *r = [c[fi], c[oi]];
        }
        Some(Grid {
            rom,
            rows,
            size,
            x,
            y,
        })
    }

    /// State of a board point: 0 friend, 1 foe, 2 empty, 3 off.
    #[inline]
    fn state(&self, px: i32, py: i32) -> u8 {
        if px < 0 || py < 0 || px >= self.size || py >= self.size {
            return 3;
        }
        let r = self.rows[py as usize];
        let bit = 1u32 << px;
        if r[0] & bit != 0 {
            0
        } else if r[1] & bit != 0 {
            1
        } else {
            2
        }
    }

    fn entry_holds(&self, e: u32) -> bool {
        let (p, o, _) = self.rom.entry(e);
        let t = Orientation::new(o).unwrap_or(Orientation::IDENTITY);
        let holds = |&(dx, dy, allowed): &(i8, i8, u8)| {
            let (ox, oy) = t.apply(dx as i32, dy as i32);
            allowed & (1 << self.state(self.x + ox, self.y + oy)) != 0
        };
        let near = |&(dx, dy, _): &(i8, i8, u8)| (dx as i32).abs().max((dy as i32).abs()) <= NEAR;
        let pat = self.rom.pattern(p);
        pat.cells().filter(near).all(|c| holds(&c))
            && pat.cells().filter(|c| !near(c)).all(|c| holds(&c))
    }
}

impl Geometry for Grid<'_, '_> {
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        (from..end).find(|&e| self.entry_holds(e))
    }
}
