//! The bit-sliced kernel for packed classes (docs/performance.md, "One match call"): per block of
//! `64 * bw` entries, OR the table rows of the bits set in the view; the zero bits of the
//! result are the entries whose masks pass, found lowest first (= priority order).
//!
//! The word-0 rows (edges, focus, ring 1, half of ring 2) come first; with a format-v4 image,
//! one row per pair of those points in their joint state (9 rows instead of 17 for a focus
//! away from the edge; a pair with a point off the board takes the other's single row).
//! After them most blocks
//! of real patterns keep no entry (the block is done) or a few: up to [`survivor_limit`] of
//! them can be checked against their word-1 and word-2 masks (two loads each) instead of ORing
//! the block's ~40 other rows (by default none are: with format v6's tables on cache lines
//! the rows read faster than the scattered masks). The word-0 rows of two consecutive blocks are ORed in one pass
//! over the row offsets (half the loop and bounds work per row). One kernel call computes a
//! run of blocks and keeps the ones with candidates; blocks are computed only when a run asks
//! for them, so a glob skipped by its header costs nothing.

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use super::{Geometry, simd};
use crate::rom::ClassInfo;
use crate::rom::layout::{WORD_BASE, WORD_POINTS};
use crate::rom::sliced::{
    ClassSlices, MAX_BLOCK_WORDS, PAIRS, ROW_BASE, ROW_BITS, pair_row, pair_slots,
};
use crate::rom::wire::u64_at;

/// At most 12 edge bits + 49 point bits are set in a view.
const MAX_ROWS: usize = 64;

/// Blocks with candidates one kernel call keeps (it stops when this many are found).
const LIVE: usize = 8;

/// Rows ORed after the word-0 rows before one more "any entry left?" test.
const GROUP: usize = 12;

/// Default [`survivor_limit`]: every row ORed. With the tables on cache lines (format v6) the
/// block's other ~40 rows read faster than the survivors' two scattered mask loads each (4,
/// the default before, measured 0.89-0.99x in the same rounds; docs/performance.md, "Session
/// 10").
const SURVIVOR_LIMIT: u32 = 0;

static LIMIT: AtomicU32 = AtomicU32::new(SURVIVOR_LIMIT);

static BLOCK_PAIRS: AtomicBool = AtomicBool::new(true);

static PAIR_ROWS: AtomicBool = AtomicBool::new(true);

/// Blocks with at most this many entries left after the word-0 rows check those entries'
/// other mask words instead of ORing the other rows (`0`: always OR every row).
pub fn survivor_limit() -> u32 {
    LIMIT.load(Ordering::Relaxed)
}

/// Sets [`survivor_limit`] (`None`: the default), for tests and benches: every limit gives the
/// same matches.
#[cfg(feature = "bench-internals")]
pub fn set_survivor_limit(limit: Option<u32>) {
    LIMIT.store(limit.unwrap_or(SURVIVOR_LIMIT), Ordering::Relaxed);
}

/// Whether the word-0 rows of two consecutive blocks are ORed in one pass (the default), or
/// one block at a time.
pub fn paired_blocks() -> bool {
    BLOCK_PAIRS.load(Ordering::Relaxed)
}

/// Sets [`paired_blocks`] (`None`: the default), for tests and benches: both give the same
/// matches.
#[cfg(feature = "bench-internals")]
pub fn set_paired_blocks(pairs: Option<bool>) {
    BLOCK_PAIRS.store(pairs.unwrap_or(true), Ordering::Relaxed);
}

/// Whether the pair rows of a format-v4 image are ORed (the default), or the single rows of
/// each point (the kernel of older images).
pub fn pair_rows() -> bool {
    PAIR_ROWS.load(Ordering::Relaxed)
}

/// Sets [`pair_rows`] (`None`: the default), for tests and benches: both give the same
/// matches.
#[cfg(feature = "bench-internals")]
pub fn set_pair_rows(on: Option<bool>) {
    PAIR_ROWS.store(on.unwrap_or(true), Ordering::Relaxed);
}

/// The byte offsets (in a block) of the word-0 rows of `v0`'s set bits through the pair rows
/// that start at row `base`: edge bits and the focus by their single rows, each pair by its
/// joint row, or by its one on-board point's single row. Returns the rows written.
#[inline]
fn pair_row_list(v0: u64, base: usize, row_bytes: usize, rows: &mut [u32; MAX_ROWS]) -> usize {
    const N: u32 = WORD_POINTS[0] as u32;
    const B: u32 = WORD_BASE[0];
    let single = |bit: u32| ((ROW_BASE[0] + bit as usize) * row_bytes) as u32;
    let mut n = 0;
    // Edge bits, then the focus (slot 0: one of its three bits).
    let mut m = v0 & ((1 << B) - 1);
    m |= v0 & (1 << B | 1 << (B + N) | 1 << (B + 2 * N));
    while m != 0 {
        rows[n] = single(m.trailing_zeros());
        m &= m - 1;
        n += 1;
    }
    let all = (1u64 << N) - 1;
    let (f, o, e) = (v0 >> B & all, v0 >> (B + N) & all, v0 >> (B + 2 * N) & all);
    // Per point: its state (0 friend, 1 foe, 2 empty) and whether it is on the board.
    let state = |k: u32| ((o >> k & 1) + 2 * (e >> k & 1)) as usize;
    let on = f | o | e;
    for k in 0..PAIRS {
        let (a, b) = pair_slots(k);
        let (a, b) = (a as u32, b as u32);
        let (sa, sb) = (state(a), state(b));
        rows[n] = match (on >> a & 1, on >> b & 1) {
            (1, 1) => ((base + pair_row(k, sa, sb)) * row_bytes) as u32,
            (1, _) => single(B + sa as u32 * N + a),
            (_, 1) => single(B + sb as u32 * N + b),
            _ => continue,
        };
        n += 1;
    }
    n
}

pub(crate) struct Sliced<'a> {
    bytes: &'a [u8],
    bw: usize,
    /// Bytes per block.
    block_bytes: usize,
    first: u32,
    /// Entries in the class.
    n: u32,
    /// The class's word-1 and word-2 masks (entry order; empty when it has fewer words).
    masks: [&'a [u8]; 2],
    /// View words 1 and 2.
    v12: [u64; 2],
    limit: u32,
    pairs: bool,
    /// Byte offsets (within a block) of the rows of the view's set bits, word-0 rows first.
    rows: [u32; MAX_ROWS],
    nrows: usize,
    nrows0: usize,
    /// Blocks `lo..hi` are computed; those with candidates are `live_block[..nlive]`
    /// (ascending), their candidates (bit set = every mask word passes) in `live`.
    lo: u32,
    hi: u32,
    nlive: usize,
    /// The cursor: the lowest candidate from entry `resume` on (relative to `first`) is the
    /// lowest bit of `rest` (at entry `rest_base`), else of the words `open` of live block
    /// `cur`, else of the live blocks after it, else in the blocks from `hi` on. A query from
    /// `resume` (the class programs ask from the last hit + 1, or from the end of the last
    /// query) continues from it instead of finding its block and word again.
    resume: u32,
    cur: usize,
    open: u32,
    rest: u64,
    rest_base: u32,
    live_block: [u32; LIVE],
    /// Per live block, bit `u` set when word `u` of its candidates is not zero.
    live_words: [u8; LIVE],
    live: [[u64; MAX_BLOCK_WORDS]; LIVE],
}

impl<'a> Sliced<'a> {
    #[inline]
    pub(crate) fn new(s: ClassSlices<'a>, class: &ClassInfo<'a>, view: &[u64; 3]) -> Self {
        let words = class.words();
        let row_bytes = s.bw * 8;
        let mut rows = [0u32; MAX_ROWS];
        let mut n = 0;
        let mut n0 = 0;
        let pairs = s.pairs.filter(|_| pair_rows());
        for (w, &v) in view.iter().enumerate().take(words) {
            if let (0, Some(base)) = (w, pairs) {
                n = pair_row_list(v, base, row_bytes, &mut rows);
                n0 = n;
                continue;
            }
            let mut m = v & (u64::MAX >> (64 - ROW_BITS[w]));
            while m != 0 && n < MAX_ROWS {
                let bit = m.trailing_zeros() as usize;
                m &= m - 1;
                rows[n] = ((ROW_BASE[w] + bit) * row_bytes) as u32;
                n += 1;
            }
            if w == 0 {
                n0 = n;
            }
        }
        let mask = |w: usize| if words > w { class.mask_words(w) } else { &[] };
        Sliced {
            bytes: s.bytes,
            bw: s.bw,
            block_bytes: s.rows * row_bytes,
            first: class.first_entry(),
            n: class.entry_count(),
            masks: [mask(1), mask(2)],
            v12: [view[1], view[2]],
            limit: survivor_limit(),
            pairs: paired_blocks(),
            rows,
            nrows: n,
            nrows0: n0,
            lo: 0,
            hi: 0,
            nlive: 0,
            resume: u32::MAX,
            cur: 0,
            open: 0,
            rest: 0,
            rest_base: 0,
            live_block: [0; LIVE],
            live_words: [0; LIVE],
            live: [[0; MAX_BLOCK_WORDS]; LIVE],
        }
    }

    /// Computes the blocks from block `b0` on, up to the one holding entry `end - 1` or until
    /// [`LIVE`] blocks with candidates are found. Out of line: [`Geometry::next`] stays small
    /// (it runs once per candidate, this once per run of blocks).
    #[inline(never)]
    fn refill(&mut self, b0: u32, end: u32) {
        let per_block = 64 * self.bw as u32;
        let b1 = end.min(self.n).div_ceil(per_block).max(b0 + 1);
        let b_last = self.n.saturating_sub(1) / per_block;
        let rows0 = &self.rows[..self.nrows0];
        let rows1 = &self.rows[self.nrows0..self.nrows];
        macro_rules! chunk {
            ($bw:literal) => {
                simd::run(Chunk::<$bw> {
                    bytes: self.bytes,
                    block_bytes: self.block_bytes,
                    rows0,
                    rows1,
                    b0,
                    b1,
                    b_last,
                    pad: pad::<$bw>(self.n - b_last * per_block),
                    limit: self.limit,
                    pairs: self.pairs,
                    masks: self.masks,
                    v12: self.v12,
                    live_block: &mut self.live_block,
                    live_words: &mut self.live_words,
                    live: &mut self.live,
                })
            };
        }
        // The row ORs at the current instruction-set level ([`super::simd`]).
        let (nlive, b) = match self.bw {
            1 => chunk!(1),
            2 => chunk!(2),
            4 => chunk!(4),
            _ => chunk!(8),
        };
        (self.lo, self.hi, self.nlive) = (b0, b, nlive);
        self.point_at(0);
    }

    /// The cursor at the start of live block `c` (past the last one: nothing left below `hi`).
    #[inline(always)]
    fn point_at(&mut self, c: usize) {
        self.cur = c;
        self.open = if c < self.nlive {
            self.live_words[c & (LIVE - 1)] as u32
        } else {
            0
        };
        self.rest = 0;
    }

    /// Puts the cursor on the lowest candidate from entry `i` on (computing blocks from the
    /// one holding `i`, up to the one holding `end - 1`, when `i` lies outside `lo..hi`).
    #[inline(never)]
    fn seek(&mut self, i: u32, end: u32) {
        let shift = self.shift();
        let block = i >> shift;
        if block < self.lo || block >= self.hi {
            self.refill(block, end);
        }
        let c = self.live_block[..self.nlive]
            .iter()
            .position(|&b| b >= block)
            .unwrap_or(self.nlive);
        self.point_at(c);
        if c < self.nlive && self.live_block[c] == block {
            // Within the block holding `i`: the entries from `i` on.
            let skip = i - (block << shift);
            let (su, sb) = (skip / 64, skip % 64);
            self.open &= u32::MAX << su;
            if self.open & 1 << su != 0 {
                self.open &= !(1 << su);
                self.rest = self.live[c][su as usize & (MAX_BLOCK_WORDS - 1)] & u64::MAX << sb;
                self.rest_base = (block << shift) + su * 64;
            }
        }
        self.resume = i;
    }

    /// Entries per block, as a shift (`64 * bw`, a power of two).
    #[inline(always)]
    fn shift(&self) -> u32 {
        6 + self.bw.trailing_zeros()
    }
}

/// The bits of a block past its first `live` entries.
fn pad<const BW: usize>(live: u32) -> [u64; BW] {
    let mut p = [0; BW];
    for (u, x) in p.iter_mut().enumerate() {
        let left = live.saturating_sub(u as u32 * 64);
        if left < 64 {
            *x = u64::MAX << left;
        }
    }
    p
}

/// ORs `BW`-word rows of `table` at the given byte offsets into `a` (kept in registers: a
/// fixed-size value, rows read as `BW` whole words).
#[inline(always)]
fn or_rows<const BW: usize>(table: &[u8], rows: &[u32], mut a: [u64; BW]) -> [u64; BW] {
    for &r in rows {
        let r = r as usize;
        let Some(row) = table.get(r..r + BW * 8) else {
            continue;
        };
        let (words, _) = row.as_chunks::<8>();
        for (x, w) in a.iter_mut().zip(words) {
            *x |= u64::from_le_bytes(*w);
        }
    }
    a
}

/// The candidates of blocks `b0..b1` of `64 * BW` entries, as a [`simd::Kernel`]: keeps the
/// blocks with candidates and returns how many and the first block not computed.
struct Chunk<'t, const BW: usize> {
    bytes: &'t [u8],
    block_bytes: usize,
    rows0: &'t [u32],
    rows1: &'t [u32],
    b0: u32,
    b1: u32,
    /// The class's last block and its bits past the class's end.
    b_last: u32,
    pad: [u64; BW],
    /// [`survivor_limit`].
    limit: u32,
    /// [`paired_blocks`].
    pairs: bool,
    masks: [&'t [u8]; 2],
    v12: [u64; 2],
    live_block: &'t mut [u32; LIVE],
    live_words: &'t mut [u8; LIVE],
    live: &'t mut [[u64; MAX_BLOCK_WORDS]; LIVE],
}

impl<const BW: usize> simd::Kernel for Chunk<'_, BW> {
    type Out = (usize, u32);
    #[inline(always)]
    fn run(self) -> (usize, u32) {
        chunk::<BW>(self)
    }
}

/// [`or_rows`] for two blocks at once (`t1` as long as `t0`): one pass over the offsets, two
/// rows per offset (half the loop and bounds work per row).
#[inline(always)]
fn or_rows2<const BW: usize>(
    t0: &[u8],
    t1: &[u8],
    rows: &[u32],
    mut a: [u64; BW],
    mut b: [u64; BW],
) -> ([u64; BW], [u64; BW]) {
    let t1 = t1.get(..t0.len()).unwrap_or(&[]);
    for &r in rows {
        let r = r as usize;
        let (Some(x), Some(y)) = (t0.get(r..r + BW * 8), t1.get(r..r + BW * 8)) else {
            continue;
        };
        let (xs, _) = x.as_chunks::<8>();
        let (ys, _) = y.as_chunks::<8>();
        for ((p, q), (w, v)) in a.iter_mut().zip(b.iter_mut()).zip(xs.iter().zip(ys)) {
            *p |= u64::from_le_bytes(*w);
            *q |= u64::from_le_bytes(*v);
        }
    }
    (a, b)
}

/// Per pair of blocks (unless [`paired_blocks`] is off, and for a class's last block): the
/// word-0 rows of both in one pass over the row offsets, then each block on its own
/// ([`settle`]).
#[inline(always)]
fn chunk<const BW: usize>(mut c: Chunk<'_, BW>) -> (usize, u32) {
    let bb = c.block_bytes;
    let mut nlive = 0;
    let mut b = c.b0;
    while b < c.b1 && nlive + 2 <= LIVE {
        let base = b as usize * bb;
        let start = |blk: u32| if blk == c.b_last { c.pad } else { [0; BW] };
        if c.pairs && b < c.b_last {
            let two = c.bytes.get(base..base + 2 * bb).unwrap_or(&[]);
            let (t0, t1) = two.split_at(two.len() / 2);
            let (a0, a1) = or_rows2::<BW>(t0, t1, c.rows0, start(b), start(b + 1));
            settle::<BW>(&mut c, &mut nlive, b, t0, a0);
            settle::<BW>(&mut c, &mut nlive, b + 1, t1, a1);
            b += 2;
        } else {
            let t = c.bytes.get(base..base + bb).unwrap_or(&[]);
            let a = or_rows::<BW>(t, c.rows0, start(b));
            settle::<BW>(&mut c, &mut nlive, b, t, a);
            b += 1;
        }
    }
    (nlive, b)
}

/// One block after its word-0 rows (`acc`): none left: done; at most `limit` left: check them
/// against their other mask words ([`survivors`]); else OR the other rows. Keeps the block
/// when candidates are left.
#[inline(always)]
fn settle<const BW: usize>(
    c: &mut Chunk<'_, BW>,
    nlive: &mut usize,
    blk: u32,
    table: &[u8],
    acc: [u64; BW],
) {
    if acc.iter().fold(u64::MAX, |x, &a| x & a) == u64::MAX {
        return;
    }
    let left: u32 = acc.iter().map(|a| (!a).count_ones()).sum();
    if left <= c.limit && !c.rows1.is_empty() {
        survivors::<BW>(c, nlive, blk, &acc);
        return;
    }
    // The other rows: the first few, then (unless they left no entry) the rest.
    let (near, far) = c.rows1.split_at(GROUP.min(c.rows1.len()));
    let acc = or_rows::<BW>(table, near, acc);
    if acc.iter().fold(u64::MAX, |x, &a| x & a) == u64::MAX {
        return;
    }
    let acc = or_rows::<BW>(table, far, acc);
    let mut cand = [0u64; MAX_BLOCK_WORDS];
    let mut words = 0u32;
    for (u, (o, a)) in cand.iter_mut().zip(acc).enumerate() {
        *o = !a;
        words |= ((a != u64::MAX) as u32) << u;
    }
    keep::<BW>(c, nlive, blk, words, cand);
}

/// The few survivors of a block after its word-0 rows: their word-1 and word-2 masks against
/// the view. Out of line: scalar work, kept from the row loop's registers.
#[inline(never)]
fn survivors<const BW: usize>(c: &mut Chunk<'_, BW>, nlive: &mut usize, blk: u32, acc: &[u64; BW]) {
    let e0 = blk as usize * 64 * BW;
    let mut open = 0u32;
    for (u, &a) in acc.iter().enumerate() {
        open |= ((a != u64::MAX) as u32) << u;
    }
    let mut words = 0u32;
    let mut cand = [0u64; MAX_BLOCK_WORDS];
    while open != 0 {
        let u = open.trailing_zeros() as usize;
        open &= open - 1;
        let mut m = !acc[u];
        let mut keep = m;
        while m != 0 {
            let bit = m.trailing_zeros();
            m &= m - 1;
            let at = (e0 + u * 64 + bit as usize) * 8;
            let clash = (u64_at(c.masks[0], at) & c.v12[0]) | (u64_at(c.masks[1], at) & c.v12[1]);
            if clash != 0 {
                keep &= !(1 << bit);
            }
        }
        cand[u] = keep;
        words |= ((keep != 0) as u32) << u;
    }
    keep::<BW>(c, nlive, blk, words, cand);
}

/// Keeps block `blk` with its candidates `cand` (`words`: bit `u` set when word `u` is not
/// zero) unless none are left.
#[inline(always)]
fn keep<const BW: usize>(
    c: &mut Chunk<'_, BW>,
    nlive: &mut usize,
    blk: u32,
    words: u32,
    cand: [u64; MAX_BLOCK_WORDS],
) {
    if words != 0 {
        c.live_block[*nlive] = blk;
        c.live_words[*nlive] = words as u8;
        c.live[*nlive] = cand;
        *nlive += 1;
    }
}

impl Geometry for Sliced<'_> {
    /// Inline in the class program's loop (once per candidate; a call and its saved registers
    /// were ~15 of its ~40 instructions); the block work stays out of line (`seek`, `refill`).
    #[inline(always)]
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        let (i, end) = (from.checked_sub(self.first)?, end.checked_sub(self.first)?);
        if i >= end {
            return None;
        }
        if i != self.resume {
            self.seek(i, end);
        }
        loop {
            if self.rest != 0 {
                let hit = self.rest_base + self.rest.trailing_zeros();
                if hit >= end {
                    // Not consumed: still the lowest candidate from `end` on.
                    self.resume = end;
                    return None;
                }
                self.rest &= self.rest - 1;
                self.resume = hit + 1;
                return Some(self.first + hit);
            }
            if self.open != 0 {
                let u = self.open.trailing_zeros();
                self.open &= self.open - 1;
                let c = self.cur;
                self.rest = self.live[c & (LIVE - 1)][u as usize & (MAX_BLOCK_WORDS - 1)];
                self.rest_base = (self.live_block[c & (LIVE - 1)] << self.shift()) + u * 64;
                continue;
            }
            if self.cur + 1 < self.nlive {
                self.point_at(self.cur + 1);
                continue;
            }
            // Every live block passed: the blocks from `hi` on, if any lie below `end`.
            let h = self.hi << self.shift();
            if h >= end || h >= self.n {
                self.cur = self.nlive;
                self.resume = end;
                return None;
            }
            self.refill(self.hi, end);
        }
    }
}
