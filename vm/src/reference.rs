//! The reference matcher: the oracle for differential tests. It reads every pattern's cells
//! point by point through the variant's orientation (no masks, no views) and evaluates lens
//! fields by checking their state cells directly (no decision tree). Same API and semantics as
//! [`Rom::match_at`], [`Rom::scan`] and [`Rom::eval_lens`].

use crate::board::{BoardView, Colour};
use crate::matching::{Ctx, Host, MatchBuf, Query, Scratch, focus_ok, run_class};
use crate::rom::{LensId, Rom};

/// [`Rom::match_at`], point by point: the same matches in the same order.
#[allow(clippy::too_many_arguments)]
pub fn match_at<B: BoardView + ?Sized, H: Host + ?Sized>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    x: i32,
    y: i32,
    scratch: &mut impl crate::matching::CallScratch,
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
    let mut g = crate::matching::kernel_cells(rom, board, q.perspective, x, y);
    run_class(
        &ctx,
        &class,
        q.orientations.mask_at(x, y),
        &mut g,
        scratch,
        out,
    )
}

/// [`Rom::scan`] as [`match_at`] at every point, row by row.
pub fn scan<B: BoardView + ?Sized, H: Host + ?Sized>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    scratch: &mut Scratch,
    out: &mut MatchBuf<'_>,
) -> usize {
    let s = board.size() as i32;
    let mut n = 0;
    for y in 0..s {
        for x in 0..s {
            n += match_at(rom, board, host, q, x, y, scratch, out);
        }
    }
    n
}

/// [`Rom::eval_lens`] checking every field's cells directly (no decision tree).
pub fn eval_lens<B: BoardView + ?Sized, H: Host + ?Sized>(
    rom: &Rom<'_>,
    lens: LensId,
    endpoints: &[(i32, i32)],
    perspective: Colour,
    board: &B,
    host: &H,
    out: &mut MatchBuf<'_>,
) -> usize {
    crate::matching::eval_lens_impl(rom, lens, endpoints, perspective, board, host, out, true)
}
