//! The bit-sliced kernel for packed classes (docs/performance.md, "One match call"): per block of
//! `64 * bw` entries, OR the table rows of the bits set in the view; the zero bits of the
//! result are the entries whose masks pass, found lowest first (= priority order). Blocks are
//! computed lazily, so a glob skipped by its header costs nothing, and a block whose word-0
//! rows already exclude every entry skips its other rows.

use super::{Geometry, simd};
use crate::rom::sliced::{ClassSlices, MAX_BLOCK_WORDS, ROW_BASE};

/// At most 12 edge bits + 49 point bits are set in a view.
const MAX_ROWS: usize = 64;

pub(crate) struct Sliced<'a> {
    bytes: &'a [u8],
    bw: usize,
    /// Bytes per block.
    block_bytes: usize,
    first: u32,
    /// Byte offsets (within a block) of the rows of the view's set bits, word-0 rows first.
    rows: [u32; MAX_ROWS],
    nrows: usize,
    nrows0: usize,
    /// The block `cand` holds (`u32::MAX`: none yet).
    block: u32,
    /// Candidate entries of `block` (bit set = all mask words pass).
    cand: [u64; MAX_BLOCK_WORDS],
}

impl<'a> Sliced<'a> {
    pub(crate) fn new(s: ClassSlices<'a>, words: usize, view: &[u64; 3], first: u32) -> Self {
        let row_bytes = s.bw * 8;
        let mut rows = [0u32; MAX_ROWS];
        let mut n = 0;
        let mut n0 = 0;
        for (w, &v) in view.iter().enumerate().take(words) {
            let mut m = v & (u64::MAX >> (64 - crate::rom::sliced::ROW_BITS[w]));
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
        Sliced {
            bytes: s.bytes,
            bw: s.bw,
            block_bytes: s.rows * row_bytes,
            first,
            rows,
            nrows: n,
            nrows0: n0,
            block: u32::MAX,
            cand: [0; MAX_BLOCK_WORDS],
        }
    }

    #[inline]
    fn compute(&mut self, block: u32) {
        let base = block as usize * self.block_bytes;
        let table = self.bytes.get(base..base + self.block_bytes).unwrap_or(&[]);
        let rows0 = &self.rows[..self.nrows0];
        let rows1 = &self.rows[self.nrows0..self.nrows];
        self.cand = [0; MAX_BLOCK_WORDS];
        let out = &mut self.cand;
        // The row ORs at the current instruction-set level ([`super::simd`]).
        match self.bw {
            1 => simd::run(Block::<1> {
                table,
                rows0,
                rows1,
                out,
            }),
            2 => simd::run(Block::<2> {
                table,
                rows0,
                rows1,
                out,
            }),
            4 => simd::run(Block::<4> {
                table,
                rows0,
                rows1,
                out,
            }),
            _ => simd::run(Block::<8> {
                table,
                rows0,
                rows1,
                out,
            }),
        }
        self.block = block;
    }
}

/// ORs `BW`-word rows of `table` at the given byte offsets into `acc` (kept in registers: a
/// fixed-size copy, rows read as `BW` whole words).
#[inline(always)]
fn or_rows<const BW: usize>(table: &[u8], rows: &[u32], acc: &mut [u64; BW]) {
    let mut a = *acc;
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
    *acc = a;
}

/// The candidates of one block of `64 * BW` entries, as a [`simd::Kernel`].
struct Block<'t, const BW: usize> {
    table: &'t [u8],
    rows0: &'t [u32],
    rows1: &'t [u32],
    out: &'t mut [u64; MAX_BLOCK_WORDS],
}

impl<const BW: usize> simd::Kernel for Block<'_, BW> {
    type Out = ();
    #[inline(always)]
    fn run(self) {
        candidates::<BW>(self.table, self.rows0, self.rows1, self.out)
    }
}

/// The candidates of one block: entries forbidding none of the view's bits. Word-0 rows first;
/// when they already exclude every entry the other rows are skipped.
#[inline(always)]
fn candidates<const BW: usize>(
    table: &[u8],
    rows0: &[u32],
    rows1: &[u32],
    out: &mut [u64; MAX_BLOCK_WORDS],
) {
    let mut acc = [0u64; BW];
    or_rows::<BW>(table, rows0, &mut acc);
    if acc.iter().all(|&a| a == u64::MAX) {
        return;
    }
    or_rows::<BW>(table, rows1, &mut acc);
    for (o, a) in out.iter_mut().zip(acc) {
        *o = !a;
    }
}

impl Geometry for Sliced<'_> {
    #[inline]
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        let per_block = 64 * self.bw as u32;
        let (mut i, end) = (from.checked_sub(self.first)?, end.checked_sub(self.first)?);
        while i < end {
            let block = i / per_block;
            if block != self.block {
                self.compute(block);
            }
            let mut u = ((i % per_block) / 64) as usize;
            let mut word = self.cand[u] & (u64::MAX << (i % 64));
            loop {
                if word != 0 {
                    let hit = block * per_block + u as u32 * 64 + word.trailing_zeros();
                    return (hit < end).then_some(self.first + hit);
                }
                u += 1;
                if u >= self.bw {
                    break;
                }
                word = self.cand[u];
            }
            i = (block + 1) * per_block;
        }
        None
    }
}
