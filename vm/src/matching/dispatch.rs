//! The one place that decides how a class is matched. Every entry point goes through here:
//! [`Rom::match_at`], [`Rom::scan`], [`Rom::scan_area`], [`Rom::scan_points`] and the scans of a
//! [`ScanPlan`](super::ScanPlan); the kernels themselves (`kernel.rs`, `lut.rs`, `sliced.rs`,
//! `board_parallel.rs`) only filter entries and never choose among each other.
//!
//! Three choices, made in this order:
//!
//! 1. **Scan strategy** ([`ScanKernel`], scans only): the board-parallel plane scan (every entry
//!    against all foci at once; from the ROM, or from a [`ScanPlan`](super::ScanPlan)'s trie)
//!    or one call per focus. Planes unless the scan cannot take them (a board wider than 25, a
//!    class of 2^22 entries or more) or the per-focus kernel is cheaper for these foci: a class
//!    with a 3x3 lookup table, or a small area with bit-sliced tables (costs measured by
//!    `cargo bench -p lens-vm --bench scan`, see [`per_focus_is_cheaper`]).
//! 2. **Per-focus kernel** ([`FocusKernel`], chosen once per call or once per scan): for packed
//!    classes (fields up to 7x7) the lookup table when the image has one for the class, else the
//!    bit-sliced tables when it has them, else the early-exit mask kernel; for general classes
//!    the row-bitboard grid when the board has row bitboards, else point by point.
//! 3. **Instruction set** ([`super::simd`]): with `std`, detected once at run time (AVX2,
//!    AVX-512, BMI2); without `std`, what the build's `target_feature`s allow; forceable for
//!    tests and benchmarks. The sliced kernel, the plane ANDs and the view cut are compiled
//!    once per level and picked there.
//!
//! The compact profile ([`crate::rom::CompactRom`]) has no kernels of its own: a compact image
//! is expanded at load to the fast layout (`CompactRom::expand`), so it reaches this dispatch
//! as a fast [`Rom`] and every choice above applies to it unchanged.
//!
//! Every path gives the same matches in the same order (the differential tests force each one).

use super::board_parallel::{self, Area};
use super::kernel::{Cells, Grid, Packed};
use super::results::{Entries, FromRom};
use super::{
    CallScratch, Ctx, Host, Query, Scratch, Sink, focus_ok, run_class_from, run_class_with, view,
};
use crate::board::BoardView;
use crate::rom::lut::ClassLut;
use crate::rom::sliced::ClassSlices;
use crate::rom::{ClassInfo, Kernel, MAX_GLOB_DEPTH, Rom};

/// The geometric filter of one class at one focus (step 2 of the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) enum FocusKernel<'a> {
    /// The class's 3x3 lookup table (`lut` section).
    Lut(ClassLut<'a>),
    /// The class's bit-sliced tables (`sliced` section).
    Sliced(ClassSlices<'a>),
    /// The packed absence masks, early exit on word 0.
    Masks,
    /// A general class on a board with row bitboards: the board cut once per focus.
    Grid,
    /// A general class, point by point through [`BoardView::point`].
    Cells,
}

impl<'a> FocusKernel<'a> {
    /// The per-focus kernel for `class` of `rom` on `board`.
    pub(crate) fn choose<B: BoardView + ?Sized>(
        rom: &Rom<'a>,
        class: &ClassInfo<'a>,
        board: &B,
    ) -> Self {
        match class.kernel() {
            Kernel::Packed => {
                if let Some(lut) = rom.class_lut(class) {
                    FocusKernel::Lut(lut)
                } else if let Some(s) = rom.class_slices(class) {
                    FocusKernel::Sliced(s)
                } else {
                    FocusKernel::Masks
                }
            }
            Kernel::General if Grid::fits(board) => FocusKernel::Grid,
            Kernel::General => FocusKernel::Cells,
        }
    }
}

/// How a scan visits its foci (step 1 of the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScanKernel {
    /// Board-parallel bit planes ([`board_parallel`]).
    Planes,
    /// One [`FocusKernel`] call per focus, row by row.
    PerFocus,
}

/// Where the board-parallel scan takes its per-entry plane keys.
#[derive(Clone, Copy)]
pub(crate) enum Keys<'p> {
    /// Derived from the ROM at scan time.
    Rom,
    /// Precomputed in a [`ScanPlan`](super::ScanPlan)'s trie.
    #[cfg(feature = "alloc")]
    Plan(&'p super::ScanPlan),
    #[cfg(not(feature = "alloc"))]
    #[allow(dead_code)]
    Never(core::marker::PhantomData<&'p ()>),
}

/// A single call at one focus: [`Rom::match_at`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn match_at<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    x: i32,
    y: i32,
    scratch: &mut impl CallScratch,
    out: &mut O,
) -> usize {
    match_at_from(rom, board, host, q, x, y, scratch, &FromRom, out)
}

/// [`match_at`] reading the class's entries from `src` (the ROM's own, or a
/// [`super::HitPlan`]'s facts).
#[allow(clippy::too_many_arguments)]
pub(crate) fn match_at_from<
    B: BoardView + ?Sized,
    H: Host + ?Sized,
    S: Entries + ?Sized,
    O: Sink + ?Sized,
>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    x: i32,
    y: i32,
    scratch: &mut impl CallScratch,
    src: &S,
    out: &mut O,
) -> usize {
    let Some(class) = rom.class(q.class) else {
        return 0;
    };
    let kernel = FocusKernel::choose(rom, &class, board);
    let stack = &mut scratch.focus_scratch().active;
    match_focus(rom, board, host, q, &class, kernel, x, y, src, stack, out)
}

/// The class program at one focus through `kernel`, entries read from `src` (nothing when
/// the focus does not admit the class). Scans call it with a kernel chosen once for all their
/// foci.
#[allow(clippy::too_many_arguments)]
pub(crate) fn match_focus<
    B: BoardView + ?Sized,
    H: Host + ?Sized,
    S: Entries + ?Sized,
    O: Sink + ?Sized,
>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    class: &ClassInfo<'_>,
    kernel: FocusKernel<'_>,
    x: i32,
    y: i32,
    src: &S,
    stack: &mut [u8; MAX_GLOB_DEPTH + 1],
    out: &mut O,
) -> usize {
    if !focus_ok(class, board, q.perspective, x, y) {
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
    let first = class.first_entry();
    match kernel {
        FocusKernel::Lut(lut) => {
            let (fs, code) = crate::rom::lut::code(board, q.perspective, x, y);
            let mut g = super::lut::Lut::new(lut.candidates(fs, code), first);
            run_class_from(&ctx, class, qmask, &mut g, src, stack, out)
        }
        FocusKernel::Sliced(s) => {
            let v = view::build(board, q.perspective, x, y);
            let mut g = super::sliced::Sliced::new(s, class, &v);
            run_class_from(&ctx, class, qmask, &mut g, src, stack, out)
        }
        FocusKernel::Masks => {
            let v = view::build(board, q.perspective, x, y);
            let mut g = Packed::new(class, v);
            run_class_from(&ctx, class, qmask, &mut g, src, stack, out)
        }
        FocusKernel::Grid => match Grid::new(rom, board, q.perspective, x, y) {
            Some(mut g) => run_class_from(&ctx, class, qmask, &mut g, src, stack, out),
            None => run_cells(&ctx, class, qmask, stack, out),
        },
        FocusKernel::Cells => run_cells(&ctx, class, qmask, stack, out),
    }
}

/// The lookup kernel at one focus whose 3x3 key `(focus state, code)` the caller already
/// has: the `Lut` arm of [`match_focus`] without the window cut (the incremental codes keep
/// the key of every point up to date).
pub(crate) fn match_lut_key<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
    ctx: &Ctx<'_, '_, B, H>,
    class: &ClassInfo<'_>,
    lut: ClassLut<'_>,
    (fs, code): (u8, u16),
    qmask: u8,
    stack: &mut [u8; MAX_GLOB_DEPTH + 1],
    out: &mut O,
) -> usize {
    let mut g = super::lut::Lut::new(lut.candidates(fs, code), class.first_entry());
    run_class_with(ctx, class, qmask, &mut g, stack, out)
}

fn run_cells<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
    ctx: &Ctx<'_, '_, B, H>,
    class: &ClassInfo<'_>,
    qmask: u8,
    stack: &mut [u8; MAX_GLOB_DEPTH + 1],
    out: &mut O,
) -> usize {
    let mut g = Cells {
        rom: ctx.rom,
        board: ctx.board,
        persp: ctx.persp,
        x: ctx.x,
        y: ctx.y,
    };
    run_class_with(ctx, class, qmask, &mut g, stack, out)
}

/// Every focus of `area` (clipped to the board), row by row, one kernel call each.
#[allow(clippy::too_many_arguments)]
pub(crate) fn per_focus<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    class: &ClassInfo<'_>,
    area: Area,
    stack: &mut [u8; MAX_GLOB_DEPTH + 1],
    out: &mut O,
) -> usize {
    let kernel = FocusKernel::choose(rom, class, board);
    let s = board.size() as i32;
    let mut n = 0;
    for y in area.y0.max(0)..area.y1.min(s) {
        for x in area.x0.max(0)..area.x1.min(s) {
            n += match_focus(
                rom, board, host, q, class, kernel, x, y, &FromRom, stack, out,
            );
        }
    }
    n
}

/// Foci of `area` on a board of side `s`.
fn foci(area: Area, s: i32) -> u32 {
    let w = area.x1.min(s) - area.x0.max(0);
    let h = area.y1.min(s) - area.y0.max(0);
    (w.max(0) * h.max(0)) as u32
}

/// Whether one call per focus is cheaper than the plane scan for these foci. The plane scan
/// pays per entry (a few plane ANDs each, whatever the number of foci; about 3x less through
/// a plan's shared trie); a lookup-table call a small fixed cost per focus; a sliced call a
/// cost per block of entries per focus. Measured with `cargo bench -p lens-vm --bench
/// dispatch` (`docs/performance.md`, "One dispatch"), 19x19, same run:
/// * lookup table, 480 entries: per focus 0.48x the plane scan's time on a whole board;
/// * sliced, 3,000 x 8 patterns cut from views: per focus 0.11x (49 foci) and 0.56x (whole
///   board) the plane scan from the ROM; against a plan's scan 0.72x (49 foci) but 1.8x
///   (whole board), crossing near [`SLICED_PLAN_FOCI`] foci.
fn per_focus_is_cheaper(kernel: &FocusKernel<'_>, keys: Keys<'_>, entries: u32, foci: u32) -> bool {
    match kernel {
        FocusKernel::Lut(_) => foci < entries.saturating_mul(2),
        FocusKernel::Sliced(_) => match keys {
            Keys::Rom => true,
            _ => foci <= SLICED_PLAN_FOCI,
        },
        FocusKernel::Masks | FocusKernel::Grid | FocusKernel::Cells => false,
    }
}

/// Up to this many foci, sliced calls beat a plan's scan (see [`per_focus_is_cheaper`]).
const SLICED_PLAN_FOCI: u32 = 64;

/// The scan strategy for `class` over `area` of `board` (step 1 of the module docs).
pub(crate) fn scan_kernel<B: BoardView + ?Sized>(
    keys: Keys<'_>,
    rom: &Rom<'_>,
    class: &ClassInfo<'_>,
    board: &B,
    area: Area,
) -> ScanKernel {
    if !board_parallel::fits(class, board) {
        return ScanKernel::PerFocus;
    }
    let kernel = FocusKernel::choose(rom, class, board);
    let foci = foci(area, board.size() as i32);
    if per_focus_is_cheaper(&kernel, keys, class.entry_count(), foci) {
        ScanKernel::PerFocus
    } else {
        ScanKernel::Planes
    }
}

/// A scan of `area`: [`Rom::scan`], [`Rom::scan_area`] and the plan scans. `strategy`
/// overrides the choice (the forced paths [`Rom::scan_parallel`] and [`Rom::scan_points`]);
/// a forced plane scan that cannot run returns `None` with nothing written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
    keys: Keys<'_>,
    strategy: Option<ScanKernel>,
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    area: Area,
    scratch: &mut Scratch,
    out: &mut O,
) -> Option<usize> {
    let Some(class) = rom.class(q.class) else {
        return Some(0);
    };
    let chosen = strategy.unwrap_or_else(|| scan_kernel(keys, rom, &class, board, area));
    if chosen == ScanKernel::Planes {
        let n = board_parallel::scan(keys, rom, board, host, q, &class, area, scratch, out);
        if n.is_some() || strategy.is_some() {
            return n;
        }
    }
    Some(per_focus(
        rom,
        board,
        host,
        q,
        &class,
        area,
        &mut scratch.active.active,
        out,
    ))
}
