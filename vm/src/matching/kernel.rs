//! The fast paths for packed classes (fields up to 7x7): the 3x3 lookup table when the image
//! has one for the class ([`super::lut`]), the bit-sliced tables when the image has them
//! ([`super::sliced`]), else packed absence masks with early exit on word 0; and the
//! general point-by-point path for larger fields.

use super::{Ctx, Geometry, Host, MatchBuf, Query, Scratch, focus_ok, run_class, view};
use crate::board::{BoardView, Colour};
use crate::geometry::Orientation;
use crate::rom::{ClassInfo, Kernel, Rom};

/// The packed view words of a focus point (exposed for benchmarks and tools).
pub fn view_words<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    view::build(b, persp, x, y)
}

struct Packed<'a> {
    w0: &'a [u8],
    w1: &'a [u8],
    w2: &'a [u8],
    words: usize,
    v: [u64; 3],
    first: u32,
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
struct Grid<'r, 'a> {
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
    /// `None` when the board has no row bitboards (or is wider than a row word).
    fn new<B: BoardView + ?Sized>(
        rom: &'r Rom<'a>,
        b: &B,
        persp: Colour,
        x: i32,
        y: i32,
    ) -> Option<Self> {
        let size = b.size() as i32;
        if !(1..=32).contains(&size) || b.row_bits(Colour::Black, 0).is_none() {
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

#[allow(clippy::too_many_arguments)]
pub(crate) fn match_at<B: BoardView + ?Sized, H: Host + ?Sized>(
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
    if !focus_ok(&class, board, q.perspective, x, y) {
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
    let qmask = q.orientations.mask_at(x, y);
    run_with_kernel(&ctx, &class, qmask, scratch, out)
}

fn run_with_kernel<B: BoardView + ?Sized, H: Host + ?Sized>(
    ctx: &Ctx<'_, '_, B, H>,
    class: &ClassInfo<'_>,
    qmask: u8,
    scratch: &mut Scratch,
    out: &mut MatchBuf<'_>,
) -> usize {
    match class.kernel() {
        Kernel::Packed => {
            if let Some(lut) = ctx.rom.class_lut(class) {
                let (fs, code) = crate::rom::lut::code(ctx.board, ctx.persp, ctx.x, ctx.y);
                let set = lut.candidates(fs, code);
                let mut g = super::lut::Lut::new(set, class.first_entry());
                return run_class(ctx, class, qmask, &mut g, scratch, out);
            }
            let v = view::build(ctx.board, ctx.persp, ctx.x, ctx.y);
            if let Some(slices) = ctx.rom.class_slices(class) {
                let mut g =
                    super::sliced::Sliced::new(slices, class.words(), &v, class.first_entry());
                return run_class(ctx, class, qmask, &mut g, scratch, out);
            }
            let mut g = Packed {
                w0: class.mask_words(0),
                w1: if class.words() > 1 {
                    class.mask_words(1)
                } else {
                    &[]
                },
                w2: if class.words() > 2 {
                    class.mask_words(2)
                } else {
                    &[]
                },
                words: class.words(),
                v,
                first: class.first_entry(),
            };
            run_class(ctx, class, qmask, &mut g, scratch, out)
        }
        Kernel::General => {
            if let Some(mut g) = Grid::new(ctx.rom, ctx.board, ctx.persp, ctx.x, ctx.y) {
                return run_class(ctx, class, qmask, &mut g, scratch, out);
            }
            let mut g = Cells {
                rom: ctx.rom,
                board: ctx.board,
                persp: ctx.persp,
                x: ctx.x,
                y: ctx.y,
            };
            run_class(ctx, class, qmask, &mut g, scratch, out)
        }
    }
}
