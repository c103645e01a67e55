//! The optional `lut` section (format v2): direct lookup tables for 3x3 classes, Pachi/Fuego
//! style (docs/performance.md, "3x3 lookup tables"). For a packed class whose masks only test the focus,
//! its 8 neighbours and the distance-1 edge bits, the geometric filter is a function of the
//! focus state and a 16-bit neighbourhood code (8 neighbours x {friend, foe, empty, off}), so
//! it is stored as a table from that code to the *set of entries whose masks pass*, in entry
//! (= priority) order. The VM then runs the class program unchanged (tests, orientation
//! filters, globs, rejects, modes) over that candidate list instead of scanning masks.
//!
//! Two levels: a directory indexed by (focus state, diagonal neighbours) selects a
//! deduplicated block of 256 slots indexed by the orthogonal neighbours; a slot holds the id of
//! a deduplicated entry set. The loader checks every slot against the class masks, so the
//! lookup kernel and the mask kernel agree by construction. Byte layout: `docs/rom-format.md`,
//! "lut".

use super::layout::{RING, edge_bit, point_bit};
use super::records::{LutIndexRec, lut_index_at};
use super::wire::{u8_at, u16_at, u32_at};
use super::{ClassInfo, Kernel, LoadError, LoadErrorKind, NONE, Rom, Section};
use crate::board::{BoardView, Colour};

/// Most entries a class may have to get a table (entry sets are `[u64; SET_WORDS]` bitsets in
/// the writer and the loader; list items are u16).
pub const MAX_ENTRIES: usize = 512;
const SET_WORDS: usize = MAX_ENTRIES / 64;
/// u32 words before a class's directory: block count, set count, list length, slot width
/// (1: u8 set ids, when there are at most 256 sets; 2: u16).
pub const HEADER_WORDS: usize = 4;
/// Slots per block (the orthogonal neighbours' 4 x 2 bits).
pub const BLOCK_SLOTS: usize = 256;

/// The 8 neighbours in code order: ring 1 of the packed masks' ring (orthogonals N, W, E, S,
/// then diagonals NW, NE, SW, SE). Neighbour `i` owns code bits `2i..2i+2`, so the low byte
/// holds the orthogonals and the high byte the diagonals.
pub const NEIGHBOURS: [(i8, i8); 8] = [
    RING[1], RING[2], RING[3], RING[4], RING[5], RING[6], RING[7], RING[8],
];

/// Edge direction (0 N, 1 E, 2 S, 3 W) of the orthogonal neighbours 0..4.
const ORTH_DIR: [u32; 4] = [0, 3, 1, 2];

/// The word-0 mask bits a class may use to get a table: the three state bits of the focus and
/// of the 8 neighbours, and the distance-1 edge bits.
pub const ELIGIBLE_BITS: u64 = eligible_bits();

const fn eligible_bits() -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < 9 {
        let mut s = 0;
        while s < 3 {
            m |= 1 << point_bit(k, s).1;
            s += 1;
        }
        k += 1;
    }
    let mut d = 0;
    while d < 4 {
        m |= 1 << edge_bit(d, 1);
        d += 1;
    }
    m
}

/// Whether masks (word 0 of each entry; the other words all zero) can be tabled.
pub fn eligible(words: usize, n: usize, mut word0: impl Iterator<Item = u64>) -> bool {
    words == 1 && (1..=MAX_ENTRIES).contains(&n) && word0.all(|m| m & !ELIGIBLE_BITS == 0)
}

/// The focus state and neighbourhood code at `(x, y)` from `persp` (states 0 friend, 1 foe,
/// 2 empty, 3 off; the code holds 2 bits per neighbour in [`NEIGHBOURS`] order). One 3x3
/// window cut (from the row bitboards when the board has them).
#[inline]
pub fn code<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> (u8, u16) {
    let mut rows = [[0u32; 3]; 3];
    b.window_rows(x - 1, y - 1, 3, &mut rows);
    let (fi, oi) = match persp {
        Colour::Black => (0, 1),
        Colour::White => (1, 0),
    };
    // friend 0, foe 1, empty 2, off 3 (the three row words are disjoint).
    let state = |r: [u32; 3], bit: i8| {
        let bit = bit as u32;
        2 - 2 * (r[fi] >> bit & 1) - (r[oi] >> bit & 1) + (r[2] >> bit & 1)
    };
    let mut c = 0u32;
    for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
        c |= state(rows[(dy + 1) as usize], dx + 1) << (2 * i);
    }
    (state(rows[1], 1) as u8, c as u16)
}

/// Whether a code can come from a board: no two opposite orthogonals off, and a diagonal off
/// exactly when one of its two orthogonals is. Slots of other codes are "don't care" (the
/// writer stores the empty set 0 there and block 0 for directory rows without any such code;
/// the loader checks only these codes against the masks).
#[cfg(any(test, feature = "bench-internals"))]
pub fn realizable(code: u16) -> bool {
    let off = |i: u32| (code >> (2 * i)) & 3 == 3;
    let (n, w, e, s) = (off(0), off(1), off(2), off(3));
    if (n && s) || (w && e) {
        return false;
    }
    off(4) == (n || w) && off(5) == (n || e) && off(6) == (s || w) && off(7) == (s || e)
}

/// For a diagonal byte (code bits 8..16) that some board shows: the states each orthogonal
/// neighbour can take with it (bit per state: off exactly where both its diagonals are off).
fn orth_states(hi: usize) -> Option<[u8; 4]> {
    let off = |i: usize| (hi >> (2 * i)) & 3 == 3;
    let (nw, ne, sw, se) = (off(0), off(1), off(2), off(3));
    let (n, w, e, s) = (nw && ne, nw && sw, ne && se, sw && se);
    let ok =
        !(n && s || w && e) && nw == (n || w) && ne == (n || e) && sw == (s || w) && se == (s || e);
    let st = |o: bool| if o { 8 } else { 7 };
    ok.then_some([st(n), st(w), st(e), st(s)])
}

type Set = [u64; SET_WORDS];

/// Per position (0 the focus, 1..=8 the neighbours in code order) and state (0 friend, 1 foe,
/// 2 empty, 3 off): the entries whose masks admit it. The candidates of a neighbourhood are the
/// intersection over the 9 positions: the view of a real board sets the state bit of every
/// on-board point and the distance-1 edge bit of an off-board orthogonal neighbour (an
/// off-board diagonal sets nothing; its "must be on board" cells forbid the orthogonal edge
/// bits), and an eligible mask tests nothing else.
struct Pass([[Set; 4]; 9]);

impl Pass {
    fn new(n: usize, mask: impl Fn(usize) -> u64) -> Pass {
        let mut p = [[[0u64; SET_WORDS]; 4]; 9];
        for e in 0..n.min(MAX_ENTRIES) {
            let m = mask(e);
            let (w, b) = (e / 64, 1u64 << (e % 64));
            for (k, pos) in p.iter_mut().enumerate() {
                for (s, set) in pos.iter_mut().enumerate() {
                    let ok = if s < 3 {
                        m >> point_bit(k, s as u32).1 & 1 == 0
                    } else if k == 0 {
                        false // the focus is on the board
                    } else if k <= 4 {
                        m >> edge_bit(ORTH_DIR[k - 1], 1) & 1 == 0
                    } else {
                        true
                    };
                    if ok {
                        set[w] |= b;
                    }
                }
            }
        }
        Pass(p)
    }

    /// Calls `f(slot, candidates)` for the values of the 4 neighbours at positions
    /// `first..first + 4` whose states are in `states` (bit per state, per neighbour; slot =
    /// their 8 code bits), starting from `base`.
    fn each<F: FnMut(usize, &Set)>(&self, first: usize, base: &Set, states: [u8; 4], mut f: F) {
        let and = |a: &Set, b: &Set| -> Set { core::array::from_fn(|i| a[i] & b[i]) };
        let p = &self.0;
        let of = |k: usize| (0..4usize).filter(move |s| states[k] >> s & 1 != 0);
        for s0 in of(0) {
            let c0 = and(base, &p[first][s0]);
            for s1 in of(1) {
                let c1 = and(&c0, &p[first + 1][s1]);
                for s2 in of(2) {
                    let c2 = and(&c1, &p[first + 2][s2]);
                    for s3 in of(3) {
                        let c3 = and(&c2, &p[first + 3][s3]);
                        f(s0 | s1 << 2 | s2 << 4 | s3 << 6, &c3);
                    }
                }
            }
        }
    }

    /// Calls `f(hi, lo, candidates)` for every code some board shows (7,641), focus state `fs`.
    fn each_code<F: FnMut(usize, usize, &Set)>(&self, fs: usize, mut f: F) {
        self.each(5, &self.0[0][fs], [15; 4], |hi, diag| {
            if let Some(orth) = orth_states(hi) {
                self.each(1, diag, orth, |lo, cand| f(hi, lo, cand));
            }
        });
    }
}

/// The lookup table of one class.
#[derive(Clone, Copy, Debug)]
pub struct ClassLut<'a> {
    /// The class's table bytes (header, directory, blocks, set offsets, list).
    bytes: &'a [u8],
    focus: u8,
    blocks_at: usize,
    /// Bytes per block slot (1 or 2).
    width: usize,
    offsets_at: usize,
    list_at: usize,
}

impl<'a> ClassLut<'a> {
    /// The table at the start of `bytes` (which may run on past it), cut to its own length.
    fn new(bytes: &'a [u8], focus: u8) -> Self {
        // Counts are capped so that the offsets cannot overflow (the loader checks them).
        let nblocks = (u32_at(bytes, 0) as usize).min(4 * BLOCK_SLOTS);
        let nsets = (u32_at(bytes, 4) as usize).min(1 << 16);
        let nlist = (u32_at(bytes, 8) as usize).min((1 << 16) * MAX_ENTRIES);
        let width = if u32_at(bytes, 12) == 1 { 1 } else { 2 };
        let blocks_at = HEADER_WORDS * 4 + focus.count_ones() as usize * BLOCK_SLOTS * 2;
        let offsets_at = blocks_at + nblocks * BLOCK_SLOTS * width;
        let list_at = offsets_at + (nsets + 1) * 4;
        let end = list_at + nlist.div_ceil(2) * 4;
        ClassLut {
            bytes: bytes.get(..end).unwrap_or(bytes),
            focus,
            blocks_at,
            width,
            offsets_at,
            list_at,
        }
    }

    /// Total bytes of the class's table.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }
    /// Whether the table has no bytes (never, for a table the loader accepted).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
    /// Deduplicated blocks and entry sets.
    pub fn counts(&self) -> (u32, u32) {
        (u32_at(self.bytes, 0), u32_at(self.bytes, 4))
    }

    /// Set id in block slot `i` (counting over all blocks).
    #[inline]
    fn slot(&self, i: usize) -> usize {
        if self.width == 1 {
            u8_at(self.bytes, self.blocks_at + i) as usize
        } else {
            u16_at(self.bytes, self.blocks_at + i * 2) as usize
        }
    }

    /// The candidate entries (relative to the class's first entry, ascending) for a focus
    /// state in the class's focus set and a neighbourhood [`code`]: little-endian u16 items.
    #[inline]
    pub(crate) fn candidates(&self, focus_state: u8, code: u16) -> LutSet<'a> {
        let rank = (self.focus & ((1u8 << focus_state) - 1)).count_ones() as usize;
        let dir = HEADER_WORDS * 4 + (rank * BLOCK_SLOTS + (code >> 8) as usize) * 2;
        let block = u16_at(self.bytes, dir) as usize;
        let set = self.slot(block * BLOCK_SLOTS + (code & 0xFF) as usize);
        let at = self.offsets_at + set * 4;
        let (a, b) = (
            u32_at(self.bytes, at) as usize,
            u32_at(self.bytes, at + 4) as usize,
        );
        LutSet(
            self.bytes
                .get(self.list_at + a * 2..self.list_at + b * 2)
                .unwrap_or(&[]),
        )
    }
}

/// One entry set: u16 entry indices relative to the class's first entry, ascending.
#[derive(Clone, Copy, Debug)]
pub struct LutSet<'a>(pub &'a [u8]);

impl LutSet<'_> {
    pub fn len(&self) -> usize {
        self.0.len() / 2
    }
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        u16_at(self.0, i * 2) as u32
    }
}

impl<'a> Rom<'a> {
    /// Whether the image carries the optional `lut` section.
    pub fn has_lut(&self) -> bool {
        self.t(Section::Lut).base != 0
    }

    /// The same image with the `lut` section ignored (matching uses the sliced or mask
    /// kernel; feature `bench-internals`, for benchmarks and differential tests).
    #[cfg(feature = "bench-internals")]
    pub fn without_lut(&self) -> Rom<'a> {
        let mut r = *self;
        r.t[Section::Lut.index()] = super::wire::Table::empty(Section::Lut.record_len());
        r
    }

    /// The lookup table of a class; `None` when the image has no `lut` section or the class
    /// has no table.
    #[inline]
    pub fn class_lut(&self, class: &ClassInfo<'a>) -> Option<ClassLut<'a>> {
        let t = self.t(Section::Lut);
        if t.data.is_empty() {
            return None;
        }
        let first = t.rec::<LutIndexRec>(class.index).first;
        if first == NONE {
            return None;
        }
        let bytes = t.data.get(first as usize * 4..)?;
        Some(ClassLut::new(bytes, class.focus()))
    }
}

fn bad(offset: usize, why: &'static str) -> LoadError {
    LoadError {
        offset,
        reason: LoadErrorKind::Malformed(why),
    }
}

/// Validates the section (when present) against the classes and masks already validated:
/// index records, tiling, header counts, every directory and block id in range, set offsets
/// non-decreasing, list items ascending and in range, and every slot equal to the candidates
/// the class masks give. O(section size + 2^16 x focus states x entries / 64) per class.
pub(super) fn validate(rom: &Rom<'_>) -> Result<(), LoadError> {
    if !rom.has_lut() {
        return Ok(());
    }
    let t = *rom.t(Section::Lut);
    let nclass = rom.class_count();
    if t.len() < nclass {
        return Err(bad(t.base, "lut section shorter than its class index"));
    }
    let mut cursor = nclass;
    for class in rom.classes() {
        let c = class.index;
        let first = t.rec::<LutIndexRec>(c).first;
        if first == NONE {
            continue;
        }
        if first as usize != cursor {
            return Err(bad(
                t.at(c, lut_index_at::first),
                "lut class table does not continue the previous one",
            ));
        }
        let n = class.entry_count() as usize;
        let ok = class.kernel() == Kernel::Packed
            && class.focus() != 0
            && eligible(
                class.words(),
                n,
                (0..n).map(|e| rom.entry_masks(&class, class.first_entry() + e as u32)[0]),
            );
        if !ok {
            return Err(bad(
                t.at(c, lut_index_at::first),
                "lut table for a class that is not a 3x3 packed class of at most 512 entries",
            ));
        }
        cursor = validate_class(rom, &class, &t, first as usize)?;
    }
    if cursor != t.len() {
        return Err(bad(
            t.base + cursor * 4,
            "lut records not covered by any class",
        ));
    }
    Ok(())
}

/// Checks one class table starting at word `first`; returns the word after it.
fn validate_class(
    rom: &Rom<'_>,
    class: &ClassInfo<'_>,
    t: &super::wire::Table<'_>,
    first: usize,
) -> Result<usize, LoadError> {
    let at = |word: usize| t.base + word * 4;
    let data = t.data.get(first * 4..).unwrap_or(&[]);
    let trunc = |w: usize| bad(at(w), "lut class table out of bounds");
    if data.len() < HEADER_WORDS * 4 {
        return Err(trunc(first));
    }
    let (nblocks, nsets, nlist) = (
        u32_at(data, 0) as usize,
        u32_at(data, 4) as usize,
        u32_at(data, 8) as usize,
    );
    let width = u32_at(data, 12);
    if width != 1 && width != 2 || (width == 1 && nsets > 256) {
        return Err(bad(
            at(first + 3),
            "lut slot width not 1 (at most 256 sets) or 2",
        ));
    }
    let k = class.focus().count_ones() as usize;
    if nblocks == 0
        || nblocks > k * BLOCK_SLOTS
        || nsets == 0
        || nsets > 1 << 16
        || nlist > nsets * MAX_ENTRIES
    {
        return Err(bad(at(first), "lut block or set count out of range"));
    }
    let lut = ClassLut::new(data, class.focus());
    let list_words = nlist.div_ceil(2);
    let words = lut.list_at / 4 + list_words;
    if data.len() < words * 4 {
        return Err(trunc(first));
    }
    let byte = |off: usize| t.base + first * 4 + off;
    // directory and block ids
    for i in 0..k * BLOCK_SLOTS {
        let off = HEADER_WORDS * 4 + i * 2;
        if u16_at(data, off) as usize >= nblocks {
            return Err(bad(byte(off), "lut block id out of range"));
        }
    }
    for i in 0..nblocks * BLOCK_SLOTS {
        let off = lut.blocks_at + i * lut.width;
        if lut.slot(i) >= nsets {
            return Err(bad(byte(off), "lut set id out of range"));
        }
    }
    // set offsets and list items
    let n = class.entry_count();
    let mut prev = 0u32;
    for s in 0..=nsets {
        let off = lut.offsets_at + s * 4;
        let v = u32_at(data, off);
        if (s == 0 && v != 0)
            || v < prev
            || v as usize > nlist
            || (s == nsets && v as usize != nlist)
        {
            return Err(bad(
                byte(off),
                "lut set offsets out of order or out of bounds",
            ));
        }
        let a = prev as usize;
        for i in a..v as usize {
            let item = u16_at(data, lut.list_at + i * 2) as u32;
            if item >= n || (i > a && item <= u16_at(data, lut.list_at + (i - 1) * 2) as u32) {
                return Err(bad(
                    byte(lut.list_at + i * 2),
                    "lut entry index out of range or not ascending",
                ));
            }
        }
        prev = v;
    }
    if nlist % 2 == 1 && u16_at(data, lut.list_at + nlist * 2) != 0 {
        return Err(bad(byte(lut.list_at + nlist * 2), "padding is not zero"));
    }
    // every slot against the masks
    let base = class.first_entry();
    let pass = Pass::new(n as usize, |e| rom.entry_masks(class, base + e as u32)[0]);
    let mut bad_slot = None;
    for fs in 0..4u8 {
        if class.focus() & (1 << fs) == 0 {
            continue;
        }
        pass.each_code(fs as usize, |hi, lo, cand| {
            if bad_slot.is_some() {
                return;
            }
            let set = lut.candidates(fs, (hi << 8 | lo) as u16);
            let count: u32 = cand.iter().map(|w| w.count_ones()).sum();
            let same = set.len() == count as usize
                && (0..set.len()).all(|i| {
                    let e = set.get(i) as usize;
                    cand[e / 64] >> (e % 64) & 1 != 0
                });
            if !same {
                let rank = (class.focus() & ((1u8 << fs) - 1)).count_ones() as usize;
                let block = u16_at(data, HEADER_WORDS * 4 + (rank * BLOCK_SLOTS + hi) * 2);
                bad_slot = Some(lut.blocks_at + (block as usize * BLOCK_SLOTS + lo) * lut.width);
            }
        });
    }
    if let Some(off) = bad_slot {
        return Err(bad(
            byte(off),
            "lut entry set disagrees with the class masks",
        ));
    }
    Ok(first + words)
}

/// The table of one class from its word-0 masks (entry order) and focus set, as u32 words;
/// `None` when the class is not eligible or the table would exceed `max_bytes`.
#[cfg(feature = "alloc")]
pub fn build_class(
    words: usize,
    masks: &[u64],
    focus: u8,
    max_bytes: usize,
) -> Option<alloc::vec::Vec<u32>> {
    use alloc::collections::BTreeMap;
    use alloc::vec::Vec;
    if focus == 0 || focus > 15 || !eligible(words, masks.len(), masks.iter().copied()) {
        return None;
    }
    let k = focus.count_ones() as usize;
    let pass = Pass::new(masks.len(), |e| masks[e]);
    // Set 0 is the empty set (also the "don't care" value of unrealizable codes).
    let mut sets: BTreeMap<Set, u16> = BTreeMap::from([([0u64; SET_WORDS], 0)]);
    let mut set_list: Vec<Set> = alloc::vec![[0u64; SET_WORDS]];
    let mut blocks: BTreeMap<Vec<u16>, u16> = BTreeMap::new();
    let mut block_list: Vec<Vec<u16>> = Vec::new();
    // Directory rows without a realizable code keep block 0.
    let mut dir: Vec<u16> = alloc::vec![0; k * BLOCK_SLOTS];
    let mut rank = 0;
    let mut list_len = 0usize;
    let width = |ns: usize| if ns <= 256 { 1 } else { 2 };
    let size = |nb: usize, ns: usize, nl: usize| {
        let blocks = nb * BLOCK_SLOTS * width(ns) / 4;
        (HEADER_WORDS + k * BLOCK_SLOTS / 2 + blocks + ns + 1 + nl.div_ceil(2)) * 4
    };
    let mut overflow = false;
    for fs in 0..4 {
        if focus & (1 << fs) == 0 {
            continue;
        }
        pass.each(5, &pass.0[0][fs], [15; 4], |hi, diag| {
            let Some(orth) = orth_states(hi) else { return };
            if overflow {
                return;
            }
            let mut block = alloc::vec![0u16; BLOCK_SLOTS];
            pass.each(1, diag, orth, |lo, cand| {
                let next = set_list.len();
                let id = *sets.entry(*cand).or_insert_with(|| {
                    set_list.push(*cand);
                    list_len += cand.iter().map(|w| w.count_ones() as usize).sum::<usize>();
                    next as u16
                });
                block[lo] = id;
            });
            let next = block_list.len() as u16;
            let id = *blocks.entry(block.clone()).or_insert_with(|| {
                block_list.push(block);
                next
            });
            dir[rank * BLOCK_SLOTS + hi] = id;
            if set_list.len() >= 1 << 16
                || size(block_list.len(), set_list.len(), list_len) > max_bytes
            {
                overflow = true;
            }
        });
        rank += 1;
    }
    if overflow || block_list.is_empty() {
        return None;
    }
    let mut out: Vec<u32> =
        Vec::with_capacity(size(block_list.len(), set_list.len(), list_len) / 4);
    let w = width(set_list.len());
    out.extend_from_slice(&[
        block_list.len() as u32,
        set_list.len() as u32,
        list_len as u32,
        w as u32,
    ]);
    push_halves(&mut out, &dir);
    if w == 1 {
        for b in &block_list {
            for q in b.chunks(4) {
                out.push(u32::from_le_bytes([
                    q[0] as u8, q[1] as u8, q[2] as u8, q[3] as u8,
                ]));
            }
        }
    } else {
        for b in &block_list {
            push_halves(&mut out, b);
        }
    }
    let mut end = 0u32;
    out.push(0);
    let mut items: Vec<u16> = Vec::with_capacity(list_len);
    for s in &set_list {
        for (w, &bits) in s.iter().enumerate() {
            let mut m = bits;
            while m != 0 {
                items.push((w * 64 + m.trailing_zeros() as usize) as u16);
                m &= m - 1;
            }
        }
        end = items.len() as u32;
        out.push(end);
    }
    debug_assert_eq!(end as usize, list_len);
    push_halves(&mut out, &items);
    Some(out)
}

#[cfg(feature = "alloc")]
fn push_halves(out: &mut alloc::vec::Vec<u32>, h: &[u16]) {
    for pair in h.chunks(2) {
        out.push(pair[0] as u32 | (pair.get(1).copied().unwrap_or(0) as u32) << 16);
    }
}

/// Builds the section from each class's table (`None`: no table).
#[cfg(feature = "alloc")]
pub(super) fn build(tables: &[Option<alloc::vec::Vec<u32>>]) -> alloc::vec::Vec<u8> {
    let mut index = alloc::vec::Vec::new();
    let mut body = alloc::vec::Vec::new();
    let mut next = tables.len() as u32;
    for t in tables {
        match t {
            Some(words) => {
                LutIndexRec { first: next }.write_to(&mut index);
                next += words.len() as u32;
                for w in words {
                    body.extend_from_slice(&w.to_le_bytes());
                }
            }
            None => LutIndexRec { first: NONE }.write_to(&mut index),
        }
    }
    index.extend_from_slice(&body);
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_ring_one_orthogonals_first() {
        assert_eq!(
            NEIGHBOURS,
            [
                (0, -1),
                (-1, 0),
                (1, 0),
                (0, 1),
                (-1, -1),
                (1, -1),
                (-1, 1),
                (1, 1)
            ]
        );
        // ORTH_DIR names each orthogonal's edge direction (N 0, E 1, S 2, W 3).
        let dir = |(dx, dy): (i8, i8)| match (dx, dy) {
            (0, -1) => 0,
            (1, 0) => 1,
            (0, 1) => 2,
            _ => 3,
        };
        for i in 0..4 {
            assert_eq!(ORTH_DIR[i], dir(NEIGHBOURS[i]));
        }
        assert_eq!(ELIGIBLE_BITS.count_ones(), 9 * 3 + 4);
    }

    #[test]
    fn the_enumerated_codes_are_exactly_the_realizable_ones() {
        let mut n = 0;
        for code in 0..=u16::MAX {
            let (hi, lo) = ((code >> 8) as usize, (code & 0xFF) as usize);
            let listed = orth_states(hi)
                .is_some_and(|o| (0..4).all(|i| o[i] >> ((lo >> (2 * i)) & 3) & 1 != 0));
            assert_eq!(listed, realizable(code), "code {code:#06x}");
            n += listed as usize;
        }
        // centre 3^8, 4 edges 3^5, 4 corners 3^3
        assert_eq!(n, 6561 + 4 * 243 + 4 * 27);
    }
}
