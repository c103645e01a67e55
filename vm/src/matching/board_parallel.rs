//! Board-parallel whole-board scan (docs/performance.md, "Whole-board scan: board-parallel").
//!
//! Instead of matching every entry at every focus, each oriented entry is matched at all foci
//! at once: the board is held as bit planes over the anchor points (bit `y * size + x`), and an
//! entry's candidate anchors are the AND, over its constrained cells, of the plane "the point
//! at `anchor + offset` is in the cell's allowed states" (off-board points included). Most
//! entries die after a few cells (the set empties). Survivors become `(focus, entry)` hits,
//! bucketed by focus; every focus with hits (or a class default) then runs the ordinary class
//! program ([`super::run_class_with`]: tests, globs, results, modes, rejects) over exactly those
//! entries, so the matches and their order are those of the per-point scan.
//!
//! Planes are derived at scan time from the board and the ROM as it is: packed classes read
//! their absence masks (a ring point with a forbidden-state set, or an edge thermometer bit),
//! general classes their stored cells through the entry's orientation. Both become a plane
//! keyed by `(dx, dy, allowed)`, built once per scan and kept in a [`ScanScratch`] cache.

use super::dispatch::Keys;
use super::{Ctx, Geometry, Host, Orientations, Query, Scratch, Sink, focus_ok, run_class_with};
use crate::board::{BoardView, Colour};
use crate::geometry::Orientation;
use crate::rom::layout::{RING, WORD_BASE, WORD_FIRST, WORD_POINTS};
use crate::rom::records::EntryRec;
use crate::rom::{ClassInfo, Kernel, MAX_GLOB_DEPTH, Rom, Section};

#[cfg(feature = "alloc")]
mod by_pattern;
#[cfg(feature = "alloc")]
mod compact;
#[cfg(all(feature = "alloc", feature = "bench-internals"))]
pub(crate) use compact::{pattern_walks, set_walk_pending, walk_fallbacks};
#[cfg(feature = "alloc")]
mod plan;
#[cfg(feature = "alloc")]
pub use plan::ScanPlan;
// The incremental scan's rematch of plain classes.
#[cfg(feature = "alloc")]
pub(crate) use plan::{Fact, plain_facts, put_plain};
#[cfg(feature = "alloc")]
mod set;
#[cfg(feature = "alloc")]
pub use set::ScanSet;

/// Largest board handled: 25 x 25 = 625 bits.
const MAX_WORDS: usize = 10;
/// Largest side the plane math supports (bit rows of `window_rows` are 32 wide).
const MAX_SIDE: i32 = 25;
/// Offsets with `|dx|, |dy| <= CACHED` have cached planes; others are built on the fly.
const CACHED: i32 = 8;
const SIDE: usize = (2 * CACHED + 1) as usize;
/// Cache keys: offset x allowed-state set (4 bits).
const KEYS: usize = SIDE * SIDE * 16;
/// Words of cached planes (planes of `N` words: `POOL / N` of them).
const POOL: usize = 16384;
/// Geometric hits (focus, entry) per pass; a pass with more is split into row bands.
const HITS: usize = 16384;
/// Column masks for `dx` in `-MAX_SIDE + 1 ..= MAX_SIDE - 1`, index `dx + COL0`.
const COL0: i32 = MAX_SIDE - 1;
const COLS: usize = (2 * MAX_SIDE - 1) as usize;
/// Entry indices are stored relative to the class in the low bits of a hit.
const ENTRY_BITS: u32 = 22;
/// Trie depth (nodes with children) of a scan plan: its stack of candidate sets.
const STACK: usize = 24;

/// Reusable working memory of the board-parallel scan (about 355 KiB with `alloc`; lives inside
/// [`super::Scratch`]). Nothing in it is allocated per scan.
#[derive(Clone, Debug)]
pub struct ScanScratch {
    /// Cache directory: key -> plane slot + 1 (0: not built; `dir[KEYS]`, the key of
    /// uncached offsets, stays 0).
    dir: [u16; KEYS + 1],
    pool: [u64; POOL],
    /// Pool slots taken by cached planes.
    used: usize,
    /// The friend, foe and empty planes (and board size) the cache was built for: a scan of
    /// the same position (another class, the same perspective) keeps the cached planes.
    seen: [[u64; MAX_WORDS]; 3],
    seen_size: i32,
    /// Column masks of the board size `cols_size` (0: not built yet).
    cols: [[u64; MAX_WORDS]; COLS],
    cols_size: i32,
    /// Hits as `focus << ENTRY_BITS | entry - first_entry`, sorted before use: by focus, then
    /// entry.
    raw: [u32; HITS],
    /// A scan plan's candidate set at each trie depth.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    stack: [[u64; MAX_WORDS]; STACK + 1],
    /// A plan scan's candidate sets over the foci alone.
    #[cfg(feature = "alloc")]
    compact: compact::CompactScratch,
}

impl Default for ScanScratch {
    fn default() -> Self {
        Self::new()
    }
}

impl ScanScratch {
    /// Zeroed scratch (part of [`super::Scratch`]; no allocation).
    pub const fn new() -> Self {
        ScanScratch {
            dir: [0; KEYS + 1],
            pool: [0; POOL],
            used: 0,
            seen: [[0; MAX_WORDS]; 3],
            seen_size: 0,
            cols: [[0; MAX_WORDS]; COLS],
            cols_size: 0,
            raw: [0; HITS],
            stack: [[0; MAX_WORDS]; STACK + 1],
            #[cfg(feature = "alloc")]
            compact: compact::CompactScratch::new(),
        }
    }

    /// Empties the plane cache unless it was built for the same position and perspective.
    fn keep_planes_of<const N: usize>(&mut self, p: &Planes<N>) {
        let same = self.seen_size == p.s && (0..3).all(|k| self.seen[k][..N] == p.st[k][..]);
        if !same {
            self.dir = [0; KEYS + 1];
            self.used = 0;
            for k in 0..3 {
                self.seen[k][..N].copy_from_slice(&p.st[k]);
            }
            self.seen_size = p.s;
        }
    }

    /// Column masks: bit `y * s + x` set when `0 <= x + dx < s`.
    fn build_cols(&mut self, s: i32) {
        if self.cols_size == s {
            return;
        }
        for (i, col) in self.cols.iter_mut().enumerate() {
            let dx = i as i32 - COL0;
            *col = [0; MAX_WORDS];
            let (lo, hi) = ((-dx).max(0), (s - dx).min(s));
            if lo >= hi {
                continue;
            }
            for y in 0..s {
                set_range(col, y * s + lo, y * s + hi);
            }
        }
        self.cols_size = s;
    }
}

/// Set bits `lo..hi` of a multi-word bit set.
fn set_range(w: &mut [u64], lo: i32, hi: i32) {
    for p in lo..hi {
        w[(p >> 6) as usize] |= 1u64 << (p & 63);
    }
}

/// Bits `lo..hi` restricted to word `i`.
#[inline]
fn range_word(i: usize, lo: i32, hi: i32) -> u64 {
    let base = i as i32 * 64;
    let a = lo.clamp(base, base + 64) - base;
    let b = hi.clamp(base, base + 64) - base;
    if b <= a {
        0
    } else {
        (u64::MAX >> (64 - (b - a))) << a
    }
}

/// `out[p] = t[p + k]` over the multi-word bit set (zeros shifted in).
#[inline]
fn shift<const N: usize>(t: &[u64; N], k: i32) -> [u64; N] {
    let mut out = [0u64; N];
    let get = |j: i64| -> u64 {
        if j >= 0 && (j as usize) < N {
            t[j as usize]
        } else {
            0
        }
    };
    let (q, r) = ((k.unsigned_abs() / 64) as i64, k.unsigned_abs() % 64);
    for (i, o) in out.iter_mut().enumerate() {
        let i = i as i64;
        *o = if k >= 0 {
            let lo = get(i + q) >> r;
            if r > 0 {
                lo | get(i + q + 1) << (64 - r)
            } else {
                lo
            }
        } else {
            let hi = get(i - q) << r;
            if r > 0 {
                hi | get(i - q - 1) >> (64 - r)
            } else {
                hi
            }
        };
    }
    out
}

/// The board as seen from one perspective: friend, foe, empty and on-board planes.
struct Planes<const N: usize> {
    st: [[u64; N]; 3],
    board: [u64; N],
    s: i32,
}

impl<const N: usize> Planes<N> {
    fn new<B: BoardView + ?Sized>(b: &B, persp: Colour, s: i32) -> Self {
        let mut rows = [[0u32; 3]; MAX_SIDE as usize];
        b.window_rows(0, 0, s as u32, &mut rows[..s as usize]);
        let (fi, oi) = match persp {
            Colour::Black => (0, 1),
            Colour::White => (1, 0),
        };
        let line = (1u64 << s) - 1;
        let mut p = Planes {
            st: [[0; N]; 3],
            board: [0; N],
            s,
        };
        for (y, r) in rows.iter().take(s as usize).enumerate() {
            let (f, o) = (r[fi] as u64 & line, r[oi] as u64 & line);
            let e = line & !f & !o & !(r[2] as u64);
            let at = y as i32 * s;
            for (plane, bits) in [(0, f), (1, o), (2, e)] {
                put(&mut p.st[plane], at, bits);
            }
            put(&mut p.board, at, line);
        }
        p
    }

    /// Anchors whose point at `(dx, dy)` is in `allowed` (bit 0 friend, 1 foe, 2 empty, 3 off).
    fn plane(&self, cols: &[[u64; MAX_WORDS]; COLS], dx: i32, dy: i32, allowed: u8) -> [u64; N] {
        let mut out = [0u64; N];
        self.plane_into(cols, dx, dy, allowed, &mut out);
        out
    }

    /// [`Planes::plane`] written into `out` (a pool slot).
    fn plane_into(
        &self,
        cols: &[[u64; MAX_WORDS]; COLS],
        dx: i32,
        dy: i32,
        allowed: u8,
        out: &mut [u64],
    ) {
        let s = self.s;
        let mut on = [0u64; N];
        if dx.abs() < s && dy.abs() < s {
            let (lo, hi) = ((-dy).max(0) * s, (s - dy).min(s) * s);
            let col = &cols[(dx + COL0) as usize];
            for (i, w) in on.iter_mut().enumerate() {
                *w = col[i] & range_word(i, lo, hi);
            }
        }
        let mut t = [0u64; N];
        for (i, w) in t.iter_mut().enumerate() {
            for k in 0..3 {
                if allowed & (1 << k) != 0 {
                    *w |= self.st[k][i];
                }
            }
        }
        let sh = shift(&t, dy * s + dx);
        let off = if allowed & 8 != 0 { u64::MAX } else { 0 };
        for (i, o) in out.iter_mut().enumerate().take(N) {
            *o = sh[i] & on[i] | self.board[i] & !on[i] & off;
        }
    }
}

/// OR `bits` (at most 25 of them) into the bit set at position `at`.
fn put<const N: usize>(w: &mut [u64; N], at: i32, bits: u64) {
    let (i, o) = ((at >> 6) as usize, at & 63);
    w[i] |= bits << o;
    if o > 0 && i + 1 < N {
        w[i + 1] |= bits >> (64 - o);
    }
}

/// The candidate-set computation of one scan: planes, cache and the running AND.
struct Filter<'s, const N: usize> {
    planes: Planes<N>,
    sc: &'s mut ScanScratch,
    acc: [u64; N],
}

impl<const N: usize> Filter<'_, N> {
    /// `acc &= plane(dx, dy, allowed)`; false when the candidate set is now empty.
    #[inline(always)]
    fn and(&mut self, dx: i32, dy: i32, allowed: u8) -> bool {
        let allowed = allowed & 0xF;
        if allowed == 0xF {
            return true;
        }
        let slot = if dx.abs() <= CACHED && dy.abs() <= CACHED {
            let key =
                (((dy + CACHED) as usize * SIDE + (dx + CACHED) as usize) << 4) | allowed as usize;
            match self.sc.dir[key] {
                0 => self.miss(Some(key), dx, dy, allowed),
                d => d as usize - 1,
            }
        } else {
            self.miss(None, dx, dy, allowed)
        };
        let p = &self.sc.pool[slot * N..slot * N + N];
        let mut any = 0;
        for (a, w) in self.acc.iter_mut().zip(p) {
            *a &= w;
            any |= *a;
        }
        any != 0
    }

    /// Builds a plane that is not cached yet into the pool: cached under `key` while there is
    /// room, else into the pool's last slot (kept for such temporaries). Returns its slot.
    #[cold]
    #[inline(never)]
    fn miss(&mut self, key: Option<usize>, dx: i32, dy: i32, allowed: u8) -> usize {
        let temp = POOL / N - 1;
        let slot = match key {
            Some(key) if self.sc.used < temp => {
                self.sc.dir[key] = self.sc.used as u16 + 1;
                self.sc.used += 1;
                self.sc.used - 1
            }
            _ => temp,
        };
        let sc = &mut *self.sc;
        self.planes.plane_into(
            &sc.cols,
            dx,
            dy,
            allowed,
            &mut sc.pool[slot * N..slot * N + N],
        );
        slot
    }

    /// The packed absence masks of one entry ([`packed_constraints`]).
    #[inline(always)]
    fn packed(&mut self, masks: [u64; 3], words: usize) -> bool {
        packed_constraints(masks, words, |dx, dy, allowed| self.and(dx, dy, allowed))
    }

    /// The cells of one entry (its pattern's cells, ordered once per pattern) through its
    /// orientation.
    #[inline(always)]
    fn cells(&mut self, cells: &Ordered, rom: &Rom<'_>, p: u32, t: Orientation) -> bool {
        let [ax, ay, bx, by] = MATRIX[t.index() as usize];
        let mut one = |(dx, dy, allowed): (i8, i8, u8)| {
            let (dx, dy) = (dx as i32, dy as i32);
            self.and(ax * dx + bx * dy, ay * dx + by * dy, allowed)
        };
        if cells.fits {
            cells.groups[0][..cells.n].iter().all(|&c| one(c))
        } else {
            rom.pattern(p).cells().all(one)
        }
    }
}

/// The constraints of a packed entry's absence masks as `(dx, dy, allowed states)`, most
/// selective first: word 0's points (ring order: the focus and its nearest neighbours), its
/// edge thermometer bits, then words 1 and 2. Stops at, and returns, the first `false` of `f`.
#[inline(always)]
fn packed_constraints(
    masks: [u64; 3],
    words: usize,
    mut f: impl FnMut(i32, i32, u8) -> bool,
) -> bool {
    for (w, &m) in masks.iter().enumerate().take(words.min(3)) {
        let (base, np) = (WORD_BASE[w], WORD_POINTS[w] as u32);
        let slots = (1u64 << np) - 1;
        let (fr, o, e) = (
            (m >> base) & slots,
            (m >> (base + np)) & slots,
            (m >> (base + 2 * np)) & slots,
        );
        let mut any = fr | o | e;
        while any != 0 {
            let k = any.trailing_zeros();
            any &= any - 1;
            let forbidden = ((fr >> k) & 1) | ((o >> k) & 1) << 1 | ((e >> k) & 1) << 2;
            let (dx, dy) = RING[WORD_FIRST[w] + k as usize];
            // An off-board point sets none of its state bits: off is always allowed here.
            if !f(dx as i32, dy as i32, 0xF & !forbidden as u8) {
                return false;
            }
        }
        if w == 0 {
            let mut edge = m & 0xFFF;
            while edge != 0 {
                let b = edge.trailing_zeros() as i32;
                edge &= edge - 1;
                let r = b % 3 + 1;
                let (dx, dy) = match b / 3 {
                    0 => (0, -r),
                    1 => (r, 0),
                    2 => (0, r),
                    _ => (-r, 0),
                };
                // The thermometer bit forbids "off the board" at that point.
                if !f(dx, dy, 7) {
                    return false;
                }
            }
        }
    }
    true
}

/// Most cells stored per pattern in [`Ordered`]; longer patterns are read in stored order.
const LOCAL_CELLS: usize = 128;

/// The cells of the current pattern, most selective first: the 8 oriented entries of a
/// pattern are consecutive, so the ordering is paid once per pattern.
struct Ordered {
    pattern: u32,
    fits: bool,
    n: usize,
    /// `groups[0][..n]` holds the ordered cells; groups 1 and 2 are staging.
    groups: [[(i8, i8, u8); LOCAL_CELLS]; 3],
}

/// Selectivity group of an allowed-state set (bit 0 friend, 1 foe, 2 empty, 3 off) on a
/// typical position: 0 = one stone colour or off-board (rarest), 1 = either stone colour or
/// empty, 2 = wider sets.
const GROUP: [u8; 16] = [
    0, 0, 0, 1, // nothing, friend, foe, stone
    1, 2, 2, 2, // empty, empty|friend, empty|foe, on board
    0, 0, 0, 1, // off, off|friend, off|foe, off|stone
    1, 2, 2, 2, // off|empty, ..., anything
];

impl Ordered {
    const fn new() -> Self {
        Ordered {
            pattern: u32::MAX,
            fits: false,
            n: 0,
            groups: [[(0, 0, 0); LOCAL_CELLS]; 3],
        }
    }

    /// Loads pattern `p` unless it is the current one. Cells are grouped by [`GROUP`] (three
    /// groups, stored order within a group: one pass, cheaper than a sort per pattern).
    fn load(&mut self, rom: &Rom<'_>, p: u32) {
        if self.pattern == p {
            return;
        }
        self.pattern = p;
        let mut len = [0usize; 3];
        self.fits = true;
        for c in rom.pattern(p).cells() {
            let g = GROUP[(c.2 & 0xF) as usize] as usize;
            if len[g] == LOCAL_CELLS {
                self.fits = false;
                return;
            }
            self.groups[g][len[g]] = c;
            len[g] += 1;
        }
        let n = len[0] + len[1] + len[2];
        if n > LOCAL_CELLS {
            self.fits = false;
            return;
        }
        let (g0, rest) = self.groups.split_at_mut(1);
        let (g1, g2) = rest.split_at_mut(1);
        g0[0][len[0]..len[0] + len[1]].copy_from_slice(&g1[0][..len[1]]);
        g0[0][len[0] + len[1]..n].copy_from_slice(&g2[0][..len[2]]);
        self.n = n;
    }
}

/// Per orientation: the images of (1, 0) and (0, 1), `[ax, ay, bx, by]`.
const MATRIX: [[i32; 4]; 8] = {
    let mut m = [[0; 4]; 8];
    let mut o = 0;
    while o < 8 {
        let t = match Orientation::new(o as u8) {
            Some(t) => t,
            None => Orientation::IDENTITY,
        };
        let (ax, ay) = t.apply(1, 0);
        let (bx, by) = t.apply(0, 1);
        m[o] = [ax, ay, bx, by];
        o += 1;
    }
    m
};

/// Hits of one focus, as a [`Geometry`] for [`run_class_with`]: the entries whose cells all hold.
struct Hits<'h> {
    /// Hits of this focus (`focus << ENTRY_BITS | entry - first`), ascending.
    list: &'h [u32],
    first: u32,
}

impl Geometry for Hits<'_> {
    #[inline]
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        const ENTRY: u32 = (1 << ENTRY_BITS) - 1;
        let from = from.saturating_sub(self.first);
        let i = self.list.partition_point(|&h| h & ENTRY < from);
        let e = self.first + (*self.list.get(i)? & ENTRY);
        (e < end).then_some(e)
    }
}

/// A rectangle of foci: columns `x0..x1`, rows `y0..y1` (clipped to the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// First column.
    pub x0: i32,
    /// First row.
    pub y0: i32,
    /// One past the last column.
    pub x1: i32,
    /// One past the last row.
    pub y1: i32,
}

impl Area {
    /// Every point of any board.
    pub const ALL: Area = Area {
        x0: 0,
        y0: 0,
        x1: MAX_SIDE,
        y1: MAX_SIDE,
    };

    /// The foci whose field can contain the point `(x, y)`, for a class whose cells lie
    /// within `radius` of the focus (for a centred field, `(max(width, height) - 1) / 2`):
    /// after a move at `(x, y)` only their matches can change.
    pub const fn around(x: i32, y: i32, radius: i32) -> Area {
        Area {
            x0: x - radius,
            y0: y - radius,
            x1: x + radius + 1,
            y1: y + radius + 1,
        }
    }
}

/// Whether the plane scan can take `class` on `board` (the board at most 25 wide, entry
/// indices fit in a hit).
pub(crate) fn fits<B: BoardView + ?Sized>(class: &ClassInfo<'_>, board: &B) -> bool {
    (1..=MAX_SIDE).contains(&(board.size() as i32)) && class.entry_count() < 1 << ENTRY_BITS
}

/// The plane scan of `q` over `area`, the entries' keys from `keys`. `None` (nothing written)
/// when this scan cannot take the path ([`fits`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
    keys: Keys<'_>,
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    class: &ClassInfo<'_>,
    area: Area,
    scratch: &mut Scratch,
    out: &mut O,
) -> Option<usize> {
    if !fits(class, board) {
        return None;
    }
    let s = board.size() as i32;
    let area = Area {
        x0: area.x0.clamp(0, s),
        y0: area.y0.clamp(0, s),
        x1: area.x1.clamp(0, s),
        y1: area.y1.clamp(0, s),
    };
    if area.x0 >= area.x1 || area.y0 >= area.y1 {
        return Some(0);
    }
    match ((s * s) as usize).div_ceil(64) {
        1..=2 => scan_n::<B, H, O, 2>(keys, rom, board, host, q, class, area, scratch, out),
        3 => scan_n::<B, H, O, 3>(keys, rom, board, host, q, class, area, scratch, out),
        4..=6 => scan_n::<B, H, O, 6>(keys, rom, board, host, q, class, area, scratch, out),
        _ => scan_n::<B, H, O, 10>(keys, rom, board, host, q, class, area, scratch, out),
    }
}

#[allow(clippy::too_many_arguments)]
fn scan_n<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized, const N: usize>(
    keys: Keys<'_>,
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    class: &ClassInfo<'_>,
    area: Area,
    scratch: &mut Scratch,
    out: &mut O,
) -> Option<usize> {
    let s = board.size() as i32;
    let Scratch { active, scan: sc } = &mut *scratch;
    let active = &mut active.active;
    sc.build_cols(s);
    let planes = Planes::<N>::new(board, q.perspective, s);
    sc.keep_planes_of(&planes);
    #[cfg(feature = "alloc")]
    if let Keys::Plan(p) = keys
        && p.compact.is_some()
    {
        sc.compact.position(board, s);
    }
    let mut f = Filter {
        planes,
        sc,
        acc: [0; N],
    };
    // Foci: on the board, in the class's focus states.
    let focus = class.focus() & 7;
    let mut foci = if focus == 7 {
        f.planes.board
    } else {
        f.planes.plane(&f.sc.cols, 0, 0, focus)
    };
    // ... within the area (rows y0..y1 of columns x0..x1).
    if (area.x0, area.x1) != (0, s) {
        let mut cols = [0u64; N];
        for y in area.y0..area.y1 {
            set_range(&mut cols, y * s + area.x0, y * s + area.x1);
        }
        for (w, c) in foci.iter_mut().zip(cols) {
            *w &= c;
        }
    }
    // Rows in bands, the whole board at first. A band with more hits than the scratch holds
    // is split when two passes would do; a match-heavy class (more) is matched point by point
    // from there on, which is then as fast as repeated passes.
    let mut produced = 0;
    let (mut row0, mut rows) = (area.y0, area.y1 - area.y0);
    while row0 < area.y1 {
        let end = (row0 + rows).min(area.y1);
        let mut band = foci;
        for (i, w) in band.iter_mut().enumerate() {
            *w &= range_word(i, row0 * s, end * s);
        }
        let collected = super::simd::run(Collect {
            keys,
            rom,
            class,
            q,
            f: &mut f,
            band: &band,
        });
        match collected {
            Ok(hits) => {
                produced += match keys {
                    #[cfg(feature = "alloc")]
                    Keys::Plan(ScanPlan {
                        plain: Some(facts), ..
                    }) => plan::emit_plain(facts, q, s, &mut f.sc.raw[..hits], out),
                    _ => emit(rom, board, host, q, class, active, f.sc, &band, hits, out),
                };
                row0 = end;
            }
            Err((done, total)) => {
                // Overflowed after `done` of `total` entries (or trie nodes): the hit rate so
                // far sizes the next band (with a margin) so that one retry usually fits.
                let fit = rows as u64 * done * 3 / (total.max(1) * 4);
                if rows == 1 || fit * 2 < rows as u64 {
                    break;
                }
                rows = (fit as i32).clamp(1, rows - 1);
            }
        }
    }
    // The rest, one focus at a time.
    let rest = Area { y0: row0, ..area };
    produced += super::dispatch::per_focus(rom, board, host, q, class, rest, active, out);
    Some(produced)
}

/// The plane ANDs of one band, as a [`super::simd::Kernel`]: compiled once per vector level.
struct Collect<'c, 's, 'r, const N: usize> {
    keys: Keys<'c>,
    rom: &'c Rom<'r>,
    class: &'c ClassInfo<'r>,
    q: &'c Query,
    f: &'c mut Filter<'s, N>,
    band: &'c [u64; N],
}

impl<const N: usize> super::simd::Kernel for Collect<'_, '_, '_, N> {
    type Out = Result<usize, (u64, u64)>;
    #[inline(always)]
    fn run(self) -> Self::Out {
        match self.keys {
            Keys::Rom => collect(self.rom, self.class, self.q, self.f, self.band),
            #[cfg(feature = "alloc")]
            Keys::Plan(p) => match &p.compact {
                Some(ck)
                    if self
                        .band
                        .iter()
                        .map(|w| w.count_ones() as usize)
                        .sum::<usize>()
                        <= compact::MAX_FOCI =>
                {
                    compact::collect(
                        ck,
                        qfilter(self.q),
                        self.q.perspective,
                        self.f.sc,
                        self.band,
                        self.f.planes.s,
                    )
                }
                _ => plan::collect(p, self.q, self.f, self.band),
            },
            #[cfg(not(feature = "alloc"))]
            Keys::Never(_) => Ok(0),
        }
    }
}

/// The orientations an entry must cover to be reported anywhere: entries never reported
/// under a fixed orientation set are skipped outright (globs only narrow the set further).
#[inline]
fn qfilter(q: &Query) -> u8 {
    match q.orientations {
        Orientations::Set(m) => m,
        Orientations::All | Orientations::Up { .. } => 0xFF,
    }
}

/// The geometric hits of every entry on the foci `band`, bucketed by focus into
/// `sorted`/`start`; `Err((entries done, entries))` when there are more than the scratch holds.
#[inline(always)]
fn collect<const N: usize>(
    rom: &Rom<'_>,
    class: &ClassInfo<'_>,
    q: &Query,
    f: &mut Filter<'_, N>,
    band: &[u64; N],
) -> Result<usize, (u64, u64)> {
    let qfilter = qfilter(q);
    let first = class.first_entry();
    let count = class.entry_count();
    let packed = class.kernel() == Kernel::Packed;
    let words = class.words();
    let mut hits = 0usize;
    let mut ordered = Ordered::new();
    if band.iter().any(|&w| w != 0) {
        // The class's entry records read in one slice.
        let len = EntryRec::LEN;
        let records = rom
            .t(Section::Entries)
            .data
            .get(first as usize * len..(first + count) as usize * len)
            .unwrap_or(&[]);
        for (e, r) in (first..).zip(records.chunks_exact(len)) {
            let EntryRec {
                pattern: p,
                orientation: o,
                covers: cov,
                ..
            } = EntryRec::read(r);
            if cov & qfilter == 0 {
                continue;
            }
            f.acc = *band;
            let alive = if packed {
                f.packed(rom.entry_masks(class, e), words)
            } else {
                let t = Orientation::new(o).unwrap_or(Orientation::IDENTITY);
                ordered.load(rom, p);
                f.cells(&ordered, rom, p, t)
            };
            if !alive {
                continue;
            }
            for (i, &w) in f.acc.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    let pt = i as u32 * 64 + w.trailing_zeros();
                    w &= w - 1;
                    if hits == HITS {
                        return Err(((e - first) as u64, count as u64));
                    }
                    f.sc.raw[hits] = pt << ENTRY_BITS | (e - first);
                    hits += 1;
                }
            }
        }
    }
    Ok(hits)
}

/// Runs the class program, row by row, at every focus of `band` with hits (or a default):
/// `raw[..hits]` sorted, a focus's hits are one run.
#[allow(clippy::too_many_arguments)]
fn emit<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized, const N: usize>(
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    class: &ClassInfo<'_>,
    active: &mut [u8; MAX_GLOB_DEPTH + 1],
    sc: &mut ScanScratch,
    band: &[u64; N],
    hits: usize,
    out: &mut O,
) -> usize {
    let has_default = class.default_value().is_some();
    if hits == 0 && !has_default {
        return 0;
    }
    let list = &mut sc.raw[..hits];
    list.sort_unstable();
    let list = &*list;
    let s = board.size() as i32;
    let first = class.first_entry();
    let mut produced = 0;
    let mut run = |p: usize, hits: &[u32]| {
        let (x, y) = (p as i32 % s, p as i32 / s);
        debug_assert!(focus_ok(class, board, q.perspective, x, y));
        let ctx = Ctx {
            rom,
            board,
            host,
            persp: q.perspective,
            x,
            y,
        };
        let mut g = Hits { list: hits, first };
        produced += run_class_with(
            &ctx,
            class,
            q.orientations.mask_at(x, y),
            &mut g,
            active,
            out,
        );
    };
    // The hits of the focus at `list[at]`: up to the first of another focus.
    let group = |at: usize| {
        let p = list[at] >> ENTRY_BITS;
        at + list[at..].partition_point(|&h| h >> ENTRY_BITS == p)
    };
    let mut at = 0;
    if has_default {
        // Every focus of the band (hits are within it, in the same order).
        for (i, &w) in band.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let p = i * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let a = at;
                if at < hits && (list[at] >> ENTRY_BITS) as usize == p {
                    at = group(at);
                }
                run(p, &list[a..at]);
            }
        }
    } else {
        while at < hits {
            let a = at;
            at = group(at);
            run((list[a] >> ENTRY_BITS) as usize, &list[a..at]);
        }
    }
    produced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::matching::state;

    /// Every plane bit equals "the point at anchor + offset is in the allowed states", for all
    /// offsets up to 25 away and every allowed set, on boards of several sizes, through the
    /// cache, past a full cache (temporary slot) and for uncached offsets.
    #[test]
    fn planes_equal_point_states() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for size in [5u8, 9, 13, 19, 25] {
            let mut b = Board::new(size).unwrap();
            for y in 0..size as i32 {
                for x in 0..size as i32 {
                    match next() % 5 {
                        0 => drop(b.place(Colour::Black, x, y)),
                        1 => drop(b.place(Colour::White, x, y)),
                        _ => {}
                    }
                }
            }
            check_size::<10>(&b, &mut next, false);
            check_size::<10>(&b, &mut next, true);
            if size <= 19 {
                check_size::<6>(&b, &mut next, false);
            }
        }
    }

    fn check_size<const N: usize>(b: &Board, next: &mut impl FnMut() -> u64, full: bool) {
        let s = b.size() as i32;
        let mut sc = ScanScratch::new();
        sc.build_cols(s);
        for persp in [Colour::Black, Colour::White] {
            sc.dir = [0; KEYS + 1];
            // A full cache: every plane goes through the temporary slot.
            sc.used = if full { POOL / N - 1 } else { 0 };
            let mut f = Filter {
                planes: Planes::<N>::new(b, persp, s),
                sc: &mut sc,
                acc: [0; N],
            };
            for _ in 0..400 {
                let dx = (next() % 51) as i32 - 25;
                let dy = (next() % 51) as i32 - 25;
                let allowed = (next() % 15) as u8;
                // Twice: built, then (if cached) read back.
                for _ in 0..2 {
                    f.acc = f.planes.board;
                    let any = f.and(dx, dy, allowed);
                    let mut want_any = false;
                    for y in 0..s {
                        for x in 0..s {
                            let p = (y * s + x) as usize;
                            let want = allowed & (1 << state(b, persp, x + dx, y + dy)) != 0;
                            want_any |= want;
                            let got = f.acc[p >> 6] & (1 << (p & 63)) != 0;
                            assert_eq!(got, want, "size {s} ({x},{y}) d ({dx},{dy}) {allowed:#b}");
                        }
                    }
                    assert_eq!(any, want_any);
                    assert!(
                        f.acc[(s * s) as usize / 64..]
                            .iter()
                            .enumerate()
                            .all(|(i, &w)| {
                                let base = ((s * s) as usize / 64 + i) * 64;
                                (0..64).all(|k| base + k < (s * s) as usize || w & (1 << k) == 0)
                            })
                    );
                }
            }
        }
    }
}
