//! The optional `sliced` section: bit-sliced copies of the packed classes' absence masks
//! (docs/performance.md, "One match call and the view"). For a block of `64 * bw` entries and each view bit,
//! one row of `bw` u64 words holds the set of entries that forbid that bit. A match call ORs
//! the rows of the bits set in its view; the zero bits are the candidates, in entry order.
//! The section is the exact transpose of the `masks` section (the loader checks it), so the
//! mask kernel and the sliced kernel agree by construction; an image without it still loads
//! and runs the mask kernel. Byte layout: `docs/rom-format.md`, "sliced".
//!
//! Format v4 appends [`PAIR_ROWS`] rows per block: one per pair of word-0 points and joint
//! state (the OR of the two points' rows), so a call ORs one row per pair instead of two
//! (9 word-0 rows instead of 17 for a focus away from the edge). Older images have no pair
//! rows and are matched with the single rows.

use super::records::{SlicedIndexRec, sliced_index_at};
use super::wire::u64_at;
use super::{ClassInfo, LoadError, LoadErrorKind, Rom, Section};

/// First table row of each view word (row = `ROW_BASE[w] + bit`).
pub const ROW_BASE: [usize; 3] = [0, 63, 126];
/// View bits used per word (12 edge + 17 x 3; 21 x 3; 11 x 3).
pub const ROW_BITS: [usize; 3] = [63, 63, 33];
/// Largest block, in u64 words per row (512 entries).
pub const MAX_BLOCK_WORDS: usize = 8;

/// Word-0 point pairs with rows of their own (format v4): pair `k` joins the points in ring
/// slots `1 + 2k` and `2 + 2k` (the focus, slot 0, keeps its single rows).
pub const PAIRS: usize = 8;
/// Pair rows per block: per pair, one per joint state (3 x 3: friend, foe, empty).
pub const PAIR_ROWS: usize = PAIRS * 9;
/// The first format version whose `sliced` blocks carry pair rows.
pub const PAIRS_SINCE: u32 = 4;

/// The first format version whose `sliced` tables are 64-byte aligned in the file: the section
/// starts at a multiple of [`TABLE_ALIGN`] bytes and each class's tables at a multiple of
/// [`TABLE_ALIGN`] bytes of the section (zero records pad the index and the tables), so a
/// 512-entry row is one cache line of an image held 64-aligned ([`crate::AlignedRom`]).
pub const ALIGNED_SINCE: u32 = 6;
/// Alignment of the `sliced` section and of each class's tables, in bytes (format v6).
pub const TABLE_ALIGN: usize = 64;
/// [`TABLE_ALIGN`] in 8-byte records.
const ALIGN_RECORDS: usize = TABLE_ALIGN / 8;

static WRITE_ALIGNED: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(true);

/// Whether the writer writes format v6 (the default: `sliced` tables 64-byte aligned), or v5's
/// layout under a v5 header (tables where the sections fall), for a baseline in the same bench
/// run (feature `bench-internals`).
#[cfg(feature = "bench-internals")]
pub fn set_write_aligned(on: Option<bool>) {
    WRITE_ALIGNED.store(on.unwrap_or(true), core::sync::atomic::Ordering::Relaxed);
}

/// The format version the writer writes ([`set_write_aligned`]).
pub(crate) fn write_version() -> u32 {
    if WRITE_ALIGNED.load(core::sync::atomic::Ordering::Relaxed) {
        super::FORMAT_VERSION
    } else {
        ALIGNED_SINCE - 1
    }
}

static WRITE_PAIRS: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(true);

/// Whether the writer adds the pair rows (the default; off: the blocks of format v3, which
/// a v4 loader still accepts, for a baseline in the same bench run; feature
/// `bench-internals`).
#[cfg(feature = "bench-internals")]
pub fn set_write_pair_rows(on: Option<bool>) {
    WRITE_PAIRS.store(on.unwrap_or(true), core::sync::atomic::Ordering::Relaxed);
}

/// The ring slots of pair `k`'s two points (word-0 point indices).
pub const fn pair_slots(k: usize) -> (usize, usize) {
    (1 + 2 * k, 2 + 2 * k)
}

/// Row (from the block's first pair row) of pair `k` with its first point in state `s` and
/// its second in state `t` (0 friend, 1 foe, 2 empty).
pub const fn pair_row(k: usize, s: usize, t: usize) -> usize {
    k * 9 + s * 3 + t
}

/// The word-0 view bits (single rows) of pair `k`'s two points in state `s`.
const fn pair_bits(k: usize, s: usize) -> [usize; 2] {
    let (a, b) = pair_slots(k);
    let base = ROW_BASE[0] + crate::rom::layout::WORD_BASE[0] as usize;
    let n = crate::rom::layout::WORD_POINTS[0];
    [base + s * n + a, base + s * n + b]
}

/// Rows per block of a class with `words` mask words: its single rows (one per view bit),
/// then, with `pairs`, the [`PAIR_ROWS`].
pub const fn block_rows(words: usize, pairs: bool) -> usize {
    rows(words) + if pairs { PAIR_ROWS } else { 0 }
}

/// Single rows (one per view bit) per block of a class with `words` mask words.
pub const fn rows(words: usize) -> usize {
    match words {
        1 => ROW_BASE[0] + ROW_BITS[0],
        2 => ROW_BASE[1] + ROW_BITS[1],
        3 => ROW_BASE[2] + ROW_BITS[2],
        _ => 0,
    }
}

/// Block words the writer picks for a class of `n` entries when blocks may hold up to
/// `64 * max` entries: the smallest power of two that holds the class, capped at `max`
/// (small classes do not pay for a 512-entry block).
pub const fn block_words(n: usize, max: usize) -> usize {
    let mut bw = 1;
    while bw < max && bw * 64 < n {
        bw *= 2;
    }
    bw
}

/// The sliced tables of one packed class.
#[derive(Clone, Copy, Debug)]
pub struct ClassSlices<'a> {
    /// The class's blocks: `blocks x rows x bw` little-endian u64 words.
    pub bytes: &'a [u8],
    /// u64 words per row (1, 2, 4 or 8): a block holds `64 * bw` entries.
    pub bw: usize,
    /// Rows per block ([`block_rows`] of the class's mask words).
    pub rows: usize,
    /// The block's first pair row (format v4; `None`: single rows only).
    pub pairs: Option<usize>,
}

impl<'a> Rom<'a> {
    /// Whether the image carries the optional `sliced` section.
    pub fn has_sliced(&self) -> bool {
        self.t(Section::Sliced).base != 0
    }

    /// The same image with the `sliced` section ignored: matching uses the mask kernel (for
    /// benchmarks and differential tests that compare the two kernels; feature
    /// `bench-internals`).
    #[cfg(feature = "bench-internals")]
    pub fn without_sliced(&self) -> Rom<'a> {
        let mut r = *self;
        r.t[Section::Sliced.index()] = super::wire::Table::empty(Section::Sliced.record_len());
        r
    }

    /// The sliced tables of a packed class; `None` when the image has no `sliced` section or
    /// the class has none (general kernel, no entries).
    #[inline]
    pub fn class_slices(&self, class: &ClassInfo<'a>) -> Option<ClassSlices<'a>> {
        let t = self.t(Section::Sliced);
        if t.data.is_empty() {
            return None;
        }
        let r: SlicedIndexRec = t.rec(class.index);
        let bw = r.block_words as usize;
        if bw == 0 {
            return None;
        }
        let rows = r.rows as usize;
        let first = r.first as usize;
        let n = class.entry_count() as usize;
        let len = n.div_ceil(64 * bw) * rows * bw;
        let bytes = t.data.get(first * 8..(first + len) * 8)?;
        // (The loader accepted only these two row counts.)
        let single = self::rows(class.words());
        let pairs = (rows == block_rows(class.words(), true)).then_some(single);
        Some(ClassSlices {
            bytes,
            bw,
            rows,
            pairs,
        })
    }
}

fn bad(offset: usize, why: &'static str) -> LoadError {
    LoadError {
        offset,
        reason: LoadErrorKind::Malformed(why),
    }
}

/// Validates the section (when present) against the classes and masks already validated:
/// index records, tiling, and every table bit equal to the transposed mask bit (padding bits
/// zero). O(section bits).
pub(super) fn validate(rom: &Rom<'_>) -> Result<(), LoadError> {
    if !rom.has_sliced() {
        return Ok(());
    }
    let t = *rom.t(Section::Sliced);
    let nclass = rom.class_count();
    if t.len() < nclass {
        return Err(bad(t.base, "sliced section shorter than its class index"));
    }
    let aligned = rom.format_version() >= ALIGNED_SINCE;
    let mut cursor = nclass;
    for class in rom.classes() {
        let c = class.index;
        let r: SlicedIndexRec = t.rec(c);
        let (first, bw, rows_c) = (r.first as usize, r.block_words as usize, r.rows);
        if r.reserved != 0 {
            return Err(bad(
                t.at(c, sliced_index_at::reserved),
                "reserved field is not zero",
            ));
        }
        if aligned {
            // The records up to the next 64-byte boundary pad (zero).
            let line = cursor.next_multiple_of(ALIGN_RECORDS).min(t.len());
            if let Some(p) = (cursor..line).find(|&i| u64_at(t.data, i * 8) != 0) {
                return Err(bad(t.base + p * 8, "sliced padding record is not zero"));
            }
            cursor = cursor.next_multiple_of(ALIGN_RECORDS);
        }
        if first != cursor {
            return Err(bad(
                t.at(c, sliced_index_at::first),
                "sliced class tables do not continue the previous ones",
            ));
        }
        let n = class.entry_count() as usize;
        let packed = class.kernel() == super::Kernel::Packed && n > 0;
        if !packed {
            if bw != 0 || rows_c != 0 {
                return Err(bad(
                    t.at(c, sliced_index_at::block_words),
                    "sliced tables for a class without packed entries",
                ));
            }
            continue;
        }
        if !matches!(bw, 1 | 2 | 4 | 8) {
            return Err(bad(
                t.at(c, sliced_index_at::block_words),
                "sliced block words not 1, 2, 4 or 8",
            ));
        }
        let words = class.words();
        let single = rows(words);
        let pairs = rows_c as usize == block_rows(words, true);
        if rows_c as usize != single && !pairs {
            return Err(bad(
                t.at(c, sliced_index_at::rows),
                "sliced row count does not match the class's mask words",
            ));
        }
        if pairs && rom.format_version() < PAIRS_SINCE {
            return Err(bad(
                t.at(c, sliced_index_at::rows),
                "sliced pair rows in an image of format version 3 or older",
            ));
        }
        let rows = rows_c as usize;
        let blocks = n.div_ceil(64 * bw);
        let len = blocks * rows * bw;
        if first + len > t.len() {
            return Err(bad(
                t.at(c, sliced_index_at::first),
                "sliced class tables out of bounds",
            ));
        }
        // Every table word equals the transpose of the 64 masks it covers.
        let masks = rom.t(Section::Masks).data;
        for blk in 0..blocks {
            for u in 0..bw {
                let e0 = blk * 64 * bw + u * 64;
                for w in 0..words {
                    for bit in 0..ROW_BITS[w] {
                        let mut want = 0u64;
                        for i in 0..64.min(n.saturating_sub(e0)) {
                            let m = u64_at(masks, (class.mask_first() + w * n + e0 + i) * 8);
                            want |= (m >> bit & 1) << i;
                        }
                        let r = first + (blk * rows + ROW_BASE[w] + bit) * bw + u;
                        if u64_at(t.data, r * 8) != want {
                            return Err(bad(
                                t.base + r * 8,
                                "sliced table disagrees with the class masks",
                            ));
                        }
                    }
                }
                // Every pair row is the OR of its two points' rows (checked above).
                for k in 0..PAIRS * pairs as usize {
                    for s in 0..3 {
                        for tt in 0..3 {
                            let row = |i: usize| first + (blk * rows + i) * bw + u;
                            let [a, _] = pair_bits(k, s);
                            let [_, b] = pair_bits(k, tt);
                            let want = u64_at(t.data, row(a) * 8) | u64_at(t.data, row(b) * 8);
                            let r = row(single + pair_row(k, s, tt));
                            if u64_at(t.data, r * 8) != want {
                                return Err(bad(
                                    t.base + r * 8,
                                    "sliced pair row is not the OR of its two points' rows",
                                ));
                            }
                        }
                    }
                }
            }
        }
        cursor += len;
    }
    if cursor != t.len() {
        return Err(bad(
            t.base + cursor * 8,
            "sliced records not covered by any class",
        ));
    }
    Ok(())
}

/// A packed class's entry masks and its mask word count (writer input).
#[cfg(feature = "alloc")]
pub(super) type ClassMasks = (alloc::vec::Vec<[u64; 3]>, usize);

/// Builds the section from each class's `(packed entry masks, mask words)`; `None` entries
/// (general classes) get an empty index record. `max_bw` caps the block size (1..=8 words).
#[cfg(feature = "alloc")]
pub(super) fn build(classes: &[Option<ClassMasks>], max_bw: usize) -> alloc::vec::Vec<u8> {
    use alloc::vec::Vec;
    let mut index = Vec::new();
    let mut tables: Vec<u64> = Vec::new();
    let aligned = write_version() >= ALIGNED_SINCE;
    for c in classes {
        if aligned {
            // Each class's tables on a 64-byte boundary of the section (zero records pad).
            let at = (classes.len() + tables.len()).next_multiple_of(ALIGN_RECORDS);
            tables.resize(at - classes.len(), 0);
        }
        let first = (classes.len() + tables.len()) as u32;
        let mut rec = SlicedIndexRec {
            first,
            ..SlicedIndexRec::default()
        };
        match c {
            Some((masks, words)) if !masks.is_empty() => {
                let (n, single) = (masks.len(), rows(*words));
                let pairs = WRITE_PAIRS.load(core::sync::atomic::Ordering::Relaxed);
                let rows = block_rows(*words, pairs);
                let bw = block_words(n, max_bw);
                let blocks = n.div_ceil(64 * bw);
                let base = tables.len();
                tables.resize(base + blocks * rows * bw, 0);
                for (i, m) in masks.iter().enumerate() {
                    let (blk, u, bit) = (i / (64 * bw), (i / 64) % bw, i % 64);
                    for w in 0..*words {
                        for b in 0..ROW_BITS[w] {
                            if m[w] >> b & 1 != 0 {
                                tables[base + (blk * rows + ROW_BASE[w] + b) * bw + u] |= 1 << bit;
                            }
                        }
                    }
                }
                // The pair rows: ORs of single rows already written.
                for blk in 0..blocks {
                    for u in 0..bw {
                        let at = |r: usize| base + (blk * rows + r) * bw + u;
                        for k in 0..PAIRS * pairs as usize {
                            for s in 0..3 {
                                for t in 0..3 {
                                    let [a, _] = pair_bits(k, s);
                                    let [_, b] = pair_bits(k, t);
                                    tables[at(single + pair_row(k, s, t))] =
                                        tables[at(a)] | tables[at(b)];
                                }
                            }
                        }
                    }
                }
                (rec.block_words, rec.rows) = (bw as u8, rows as u8);
            }
            _ => {}
        }
        rec.write_to(&mut index);
    }
    for w in tables {
        index.extend_from_slice(&w.to_le_bytes());
    }
    index
}
