//! Candidate sets over the foci alone (docs/performance.md, "Candidate sets over the foci").
//!
//! An anchor class's foci are the stones of one colour: 15-110 of the 361 points. A plan scan
//! whose foci fit in [`MAX_FOCI`] numbers them `0..n` and walks its trie with sets of one or
//! two words instead of the board's six. A plane becomes "bit `i`: the point at focus `i` +
//! `(dx, dy)` is in the allowed states", built from four one-hot sets per offset (black,
//! white, empty, off), read from a padded board of point codes. The one-hot sets are in
//! absolute colours, so the classes of both perspectives over the same foci (patterns.db's
//! and patterns2.db's O-anchored classes for Black, their X-anchored ones for White) share
//! them; a plan's keys are numbered densely once ([`CompactKeys`]) and their planes are
//! combined from the one-hot sets on first use in each scan, so the walk reads one word (or
//! two) per key from a table that stays in the first-level cache.

use alloc::vec::Vec;

use super::by_pattern;
use super::plan::{Key, Node};
use super::{CACHED, ENTRY_BITS, HITS, MAX_SIDE, MAX_WORDS, SIDE};
use crate::board::{BoardView, Colour};
use crate::matching::simd;

/// Most foci of a compact scan (two words per set).
pub(super) const MAX_FOCI: usize = 128;
/// Most foci of a walk over all stones ([`collect_stones`]: four words per set).
pub(super) const MAX_STONES: usize = 256;
/// Words of a compact set: of one colour's stones, of all stones.
const W: usize = MAX_FOCI / 64;
pub(super) const W_ALL: usize = MAX_STONES / 64;
/// Plane words of a slot: of one colour's stones, of all stones.
const PLANES: usize = OFFS * 16 * W;
pub(super) const PLANES_ALL: usize = OFFS * 16 * W_ALL;
/// Codes are kept this far beyond the board (the plane cache's reach).
const PAD: i32 = CACHED;
/// Side of the padded code board.
const PS: i32 = MAX_SIDE + 2 * PAD;
/// Offsets `(dx, dy)` with `|dx|, |dy| <= CACHED`.
const OFFS: usize = SIDE * SIDE;
/// Zero words on each side of a board-wide plane in [`Position`]: a shift by an offset of
/// up to `CACHED * (MAX_SIDE + 1)` bits reads within it.
const PADW: usize = 4;
const PW: usize = MAX_WORDS + 2 * PADW;

/// The position the compact scans read: point codes (the portable gather) and board-wide
/// bit planes (the `pext` gather).
#[derive(Clone, Debug)]
pub(super) struct Position {
    /// Point codes of the padded board, row `y + PAD`, column `x + PAD`.
    codes: [u8; (PS * PS) as usize],
    /// Black, white and "none" points (on the board, reported as none of the three states),
    /// bit `y * s + x` of words `PADW..`.
    planes: [[u64; PW]; 3],
    /// Per `dx` in `-CACHED..=CACHED`: the points whose column `x + dx` is on the board.
    cols: [[u64; MAX_WORDS]; SIDE],
    s: i32,
    /// Whether any point is "none" (else that plane is not gathered).
    none: bool,
}

/// Code of a point: black, white, empty, off the board (index of its one-hot set); an on-board
/// point the board reports as none of these matches no state.
const BLACK: u8 = 0;
const WHITE: u8 = 1;
const EMPTY: u8 = 2;
const OFF: u8 = 3;
const NONE: u8 = 4;

/// A plan's trie for walks over the foci: one stream of `u16` holding every node in preorder,
/// so that a walk reads forward through memory (about a third of the memory of the plan's
/// own trie):
///
/// * `n_keys`, `n_entries`, `n_kids`;
/// * the keys to AND at the node, as planes `offset * 16 + allowed` (offset `(dy + CACHED) *
///   SIDE + dx + CACHED`; allowed states seen from Black: bit 0 black, 1 white, 2 empty,
///   3 off; [`for_white`] swaps the colours): all of the root's, a child's after its first
///   (its parent tests that one);
/// * the entries ending there, two words each: the index relative to the class (22 bits)
///   and the covers (8 bits);
/// * the children, two words each: the plane of its first key (13 bits) and its offset in
///   the stream (19 bits), so that a parent tests all its children's first keys in one
///   branch-free pass.
#[derive(Clone, Debug)]
pub(super) struct CompactKeys {
    pub walk: Vec<u16>,
}

/// Children tested in one pass of [`Walk::visit`].
const KIDS: usize = 16;
/// Pending children of [`Walk::run`] (on the stack: up to 40 bytes each).
const PENDING: usize = 256;
/// The pending children a walk takes (at most [`PENDING`]; lowered only by tests, to force
/// [`Walk::visit`] for the children that find the stack full).
static PENDING_LIMIT: core::sync::atomic::AtomicUsize =
    core::sync::atomic::AtomicUsize::new(PENDING);

/// Sets how many pending children a walk keeps on its stack (`None`: all [`PENDING`]); the
/// others are visited by recursion. Every setting gives the same hits.
#[cfg(feature = "bench-internals")]
pub(crate) fn set_walk_pending(limit: Option<usize>) {
    let limit = limit.map_or(PENDING, |n| n.clamp(1, PENDING));
    PENDING_LIMIT.store(limit, core::sync::atomic::Ordering::Relaxed);
}

/// Children visited by recursion because the walk's stack was full, over every walk with
/// this scratch.
#[cfg(feature = "bench-internals")]
pub(crate) fn walk_fallbacks(sc: &super::ScanScratch) -> usize {
    sc.compact.fallbacks
}

/// Bits of a plane index in a child's first word.
pub(super) const PLANE_BITS: u32 = 13;
pub(super) const PLANE: u16 = (1 << PLANE_BITS) - 1;

/// Plane `id` of a key seen from White (friend and foe swapped) or Black (as it is): the
/// perspective is a constant of each walk, so Black's costs nothing.
#[inline(always)]
fn for_white<const WHITE: bool>(id: u16) -> usize {
    let id = id as usize;
    if WHITE {
        id ^ (((id ^ (id >> 1)) & 1) * 3)
    } else {
        id
    }
}

impl CompactKeys {
    /// `None` when a key reaches beyond the cached offsets (or the trie is too large for
    /// the stream's fields).
    pub(super) fn new(keys: &[Key], nodes: &[Node], entries: &[(u32, u8)]) -> Option<Self> {
        Self::with_offsets(keys, nodes, entries).map(|(c, _)| c)
    }

    /// [`CompactKeys::new`], and each node's offset in the stream.
    pub(super) fn with_offsets(
        keys: &[Key],
        nodes: &[Node],
        entries: &[(u32, u8)],
    ) -> Option<(Self, Vec<usize>)> {
        let mut ids = Vec::with_capacity(keys.len());
        for k in keys {
            let (dx, dy) = (k.dx as i32, k.dy as i32);
            if dx.abs() > CACHED || dy.abs() > CACHED {
                return None;
            }
            let off = ((dy + CACHED) as usize * SIDE + (dx + CACHED) as usize) << 4;
            ids.push((off | (k.allowed as usize & 0xF)) as u16);
        }
        // The children of every node (every child is made around a shared key: it has one).
        let mut kids: Vec<Vec<usize>> = (0..nodes.len()).map(|_| Vec::new()).collect();
        for (i, n) in nodes.iter().enumerate() {
            let mut c = i + 1;
            while c < n.skip as usize {
                if nodes[c].k1 <= nodes[c].k0 {
                    return None;
                }
                kids[i].push(c);
                c = nodes[c].skip as usize;
            }
        }
        let own = |i: usize| nodes[i].k0 as usize + usize::from(i > 0)..nodes[i].k1 as usize;
        let mut at = Vec::with_capacity(nodes.len());
        let mut len = 0usize;
        for (i, n) in nodes.iter().enumerate() {
            let (nk, ne, nc) = (own(i).len(), (n.e1 - n.e0) as usize, kids[i].len());
            if nk.max(ne).max(nc) >= 1 << 16 {
                return None;
            }
            at.push(len);
            len += 3 + nk + 2 * ne + 2 * nc;
        }
        if len >= 1 << (32 - PLANE_BITS) {
            return None;
        }
        let mut w: Vec<u16> = Vec::with_capacity(len);
        for (i, n) in nodes.iter().enumerate() {
            w.extend([own(i).len(), (n.e1 - n.e0) as usize, kids[i].len()].map(|v| v as u16));
            w.extend(own(i).map(|k| ids[k]));
            for &(r, cov) in &entries[n.e0 as usize..n.e1 as usize] {
                w.extend([r as u16, (r >> 16) as u16 | (cov as u16) << 8]);
            }
            for &k in &kids[i] {
                let (a, id) = (at[k], ids[nodes[k].k0 as usize]);
                w.extend([id | ((a & 7) as u16) << PLANE_BITS, (a >> 3) as u16]);
            }
        }
        Some((CompactKeys { walk: w }, at))
    }
}

/// The one-hot sets of one foci set (see the module docs), `P` plane words.
#[derive(Clone, Debug)]
pub(super) struct Slot<const P: usize> {
    /// The foci (board bits) this slot numbers; `valid` false: unused.
    foci: [u64; MAX_WORDS],
    valid: bool,
    /// Whether the sets are seen from each focus's colour (bit 0 its colour, 1 the other)
    /// instead of in absolute colours (the walks over all stones).
    relative: bool,
    /// The foci that are white stones (numbered bits; for relative sets).
    white: [u64; W_ALL],
    pub(super) n: usize,
    /// Padded-board index of focus `i`.
    pad: [u16; MAX_STONES],
    /// Board point of focus `i`.
    pub(super) point: [u16; MAX_STONES],
    /// Per board word (bit `y * s + x` at word `(y * s + x) / 64`), the number of its first
    /// focus: where the `pext` gather puts that word's foci.
    base: [u16; MAX_WORDS],
    /// Offsets whose planes are built.
    pub(super) built: [u64; OFFS.div_ceil(64)],
    /// Per offset, the planes of the 16 allowed-state sets, `words` = `n.div_ceil(64)` words
    /// each: plane `id` at `id * words` (one-word sets stay dense).
    pub(super) planes: [u64; P],
}

impl<const P: usize> Slot<P> {
    const fn new(relative: bool) -> Self {
        Slot {
            foci: [0; MAX_WORDS],
            valid: false,
            relative,
            white: [0; W_ALL],
            n: 0,
            pad: [0; MAX_STONES],
            point: [0; MAX_STONES],
            base: [0; MAX_WORDS],
            built: [0; OFFS.div_ceil(64)],
            planes: [0; P],
        }
    }

    /// Numbers the foci `band` (at most `P / (OFFS * 16) * 64` of them) unless it already does.
    fn number<const N: usize>(&mut self, band: &[u64; N], s: i32, pos: &Position) {
        if self.valid && self.foci[..N] == band[..] && self.foci[N..] == [0; MAX_WORDS][N..] {
            return;
        }
        self.foci = [0; MAX_WORDS];
        self.foci[..N].copy_from_slice(band);
        self.valid = true;
        self.built = [0; OFFS.div_ceil(64)];
        self.white = [0; W_ALL];
        let mut n = 0;
        for (w, &bits) in band.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let p = w as i32 * 64 + bits.trailing_zeros() as i32;
                bits &= bits - 1;
                let (x, y) = (p % s, p / s);
                self.point[n] = p as u16;
                self.pad[n] = ((y + PAD) * PS + x + PAD) as u16;
                if n == 0 || self.point[n - 1] as i32 >> 6 != w as i32 {
                    self.base[w] = n as u16;
                }
                if n < MAX_STONES && pos.codes[self.pad[n] as usize] == WHITE {
                    self.white[n / 64] |= 1 << (n % 64);
                }
                n += 1;
            }
        }
        self.n = n;
    }
}

/// Working memory of the compact scans (part of [`super::ScanScratch`], about 110 KiB).
#[derive(Clone, Debug)]
pub(super) struct CompactScratch {
    /// The position as codes and as bit planes.
    pos: Position,
    /// The board rows (`window_rows`) and size the position is of.
    rows: [[u32; 3]; MAX_SIDE as usize],
    size: i32,
    slots: [Slot<PLANES>; 2],
    /// The slot to take next for a new foci set.
    next: usize,
    /// Children visited by recursion because a walk's stack was full (all walks so far).
    fallbacks: usize,
    /// Walks over patterns done (all walks so far).
    pattern_walks: usize,
    /// The scratch of the walks over all stones ([`collect_stones`]), allocated on first use
    /// (about 230 KiB: `Scratch` stays small for callers that never take that path).
    stones: Option<alloc::boxed::Box<Stones>>,
}

/// Most patterns of a trie over patterns whose hits are written as runs ([`Runs`]).
pub(super) const RUN_PATTERNS: usize = 4096;

/// Where a walk over patterns wrote each pattern's hits (one run per pattern and walk, in
/// entry order: [`by_pattern`]), so that [`sorted_runs`] orders them by one pass by focus.
#[derive(Clone, Debug)]
pub(super) struct Runs {
    /// The patterns with a run.
    pub bits: [u64; RUN_PATTERNS / 64],
    /// Per pattern with a run: its start in the hits and its length.
    pub at: [(u16, u16); RUN_PATTERNS],
}

/// Working memory of the walks over all stones.
#[derive(Clone, Debug)]
struct Stones {
    slot: Slot<PLANES_ALL>,
    /// The runs of the last walk over patterns.
    runs: Runs,
    /// The hits sorted ([`sorted_hits`]).
    sorted: [u32; HITS],
    /// The radix sort's counts ([`sorted_hits`]): per digit of the entry, then per focus.
    counts: [[u32; 1 << (32 - ENTRY_BITS)]; 4],
}

impl CompactScratch {
    pub(super) const fn new() -> Self {
        CompactScratch {
            pos: Position {
                codes: [OFF; (PS * PS) as usize],
                planes: [[0; PW]; 3],
                cols: [[0; MAX_WORDS]; SIDE],
                s: 0,
                none: false,
            },
            rows: [[0; 3]; MAX_SIDE as usize],
            size: 0,
            slots: [Slot::new(false), Slot::new(false)],
            next: 0,
            fallbacks: 0,
            pattern_walks: 0,
            stones: None,
        }
    }

    /// Point codes of `board` (kept, with the slots, while the position stays the same).
    pub(super) fn position<B: BoardView + ?Sized>(&mut self, board: &B, s: i32) {
        let mut rows = [[0u32; 3]; MAX_SIDE as usize];
        board.window_rows(0, 0, s as u32, &mut rows[..s as usize]);
        if s == self.size && rows == self.rows {
            return;
        }
        self.rows = rows;
        self.size = s;
        for slot in &mut self.slots {
            slot.valid = false;
        }
        if let Some(st) = &mut self.stones {
            st.slot.valid = false;
        }
        let pos = &mut self.pos;
        if pos.s != s {
            for (i, col) in pos.cols.iter_mut().enumerate() {
                let dx = i as i32 - CACHED;
                *col = [0; MAX_WORDS];
                let (lo, hi) = ((-dx).max(0), (s - dx).min(s));
                for y in 0..s {
                    super::set_range(col, y * s + lo, y * s + hi);
                }
            }
            pos.s = s;
        }
        pos.codes = [OFF; (PS * PS) as usize];
        pos.planes = [[0; PW]; 3];
        pos.none = false;
        let line = (1u64 << s) - 1;
        for (y, r) in rows.iter().take(s as usize).enumerate() {
            for x in 0..s as usize {
                let bit = |w: u32| w >> x & 1 != 0;
                let c = if bit(r[0]) {
                    BLACK
                } else if bit(r[1]) {
                    WHITE
                } else if bit(r[2]) {
                    NONE
                } else {
                    EMPTY
                };
                pos.codes[((y as i32 + PAD) * PS + x as i32 + PAD) as usize] = c;
            }
            let (b, w) = (r[0] as u64 & line, r[1] as u64 & line);
            pos.none |= r[2] as u64 & line & !b & !w != 0;
            let at = y as i32 * s;
            for (plane, bits) in
                pos.planes
                    .iter_mut()
                    .zip([b, w & !b, r[2] as u64 & line & !b & !w])
            {
                let mut words = [0u64; MAX_WORDS];
                super::put(&mut words, at, bits);
                for (o, v) in plane[PADW..].iter_mut().zip(words) {
                    *o |= v;
                }
            }
        }
    }

    /// The slot numbering the foci `band` (at most [`MAX_FOCI`] of them), reused when a
    /// previous scan of this position had the same foci.
    fn slot<const N: usize>(&mut self, band: &[u64; N], s: i32) -> usize {
        let same = |sl: &Slot<PLANES>| {
            sl.valid && sl.foci[..N] == band[..] && sl.foci[N..] == [0; MAX_WORDS][N..]
        };
        if let Some(i) = self.slots.iter().position(same) {
            return i;
        }
        let i = self.next;
        self.next = (i + 1) % self.slots.len();
        self.slots[i].valid = false;
        self.slots[i].number(band, s, &self.pos);
        i
    }
}

/// The slot's one-hot sets at offset `off` (by [`simd::gather`]: `pext` over the board's bit
/// planes, or the portable gather of the foci's codes), then their 16 unions.
#[cold]
#[inline(never)]
pub(super) fn build_offset<const P: usize>(sl: &mut Slot<P>, pos: &Position, off: usize) {
    let n = sl.n;
    let h = simd::gather(OneHot { sl, pos, off });
    for w in 0..n.div_ceil(64) {
        // Set `a`: set `a` without its lowest state, or that state's one-hot set.
        let words = n.div_ceil(64);
        let planes = &mut sl.planes[(off << 4) * words..((off << 4) + 16) * words];
        planes[w] = 0;
        for a in 1..16usize {
            planes[a * words + w] =
                planes[(a & (a - 1)) * words + w] | h[a.trailing_zeros() as usize][w];
        }
    }
    sl.built[off >> 6] |= 1 << (off & 63);
}

/// Word `w` of the set of all `n` numbered foci (stones): foci `64 w..` that exist, as a mask.
#[inline(always)]
pub(super) fn existing(n: usize, w: usize) -> u64 {
    if n >= (w + 1) * 64 {
        u64::MAX
    } else if n > w * 64 {
        u64::MAX >> (64 - (n - w * 64))
    } else {
        0
    }
}

/// The one-hot sets of a slot's foci at one offset: per state (black or the focus's colour,
/// white or the other, empty, off the board), a bit per focus.
struct OneHot<'a, const P: usize> {
    sl: &'a Slot<P>,
    pos: &'a Position,
    off: usize,
}

impl<const P: usize> OneHot<'_, P> {
    /// Foci `64 w..` that exist, as a mask.
    #[inline(always)]
    fn all(&self, w: usize) -> u64 {
        existing(self.sl.n, w)
    }

    /// Black and white made relative to each focus's colour, when the slot's sets are.
    #[inline(always)]
    fn finish(&self, mut h: [[u64; W_ALL]; 4]) -> [[u64; W_ALL]; 4] {
        if self.sl.relative {
            let [b, wh, ..] = &mut h;
            let words = self.sl.n.div_ceil(64);
            for ((b, wh), f) in b
                .iter_mut()
                .zip(wh.iter_mut())
                .zip(&self.sl.white)
                .take(words)
            {
                (*b, *wh) = (*b & !f | *wh & f, *wh & !f | *b & f);
            }
        }
        h
    }
}

impl<const P: usize> simd::Gather for OneHot<'_, P> {
    type Out = [[u64; W_ALL]; 4];

    /// Each board word of black, white and "none" points shifted by the offset and masked by
    /// where the target is on the board, then `pext` by the word's foci into their numbers:
    /// about 3 x 6 words instead of a byte read per focus.
    #[inline(always)]
    fn pext(self, pext: impl Fn(u64, u64) -> u64) -> Self::Out {
        let (pos, sl) = (self.pos, self.sl);
        let s = pos.s;
        let (dx, dy) = (
            (self.off % SIDE) as i32 - CACHED,
            (self.off / SIDE) as i32 - CACHED,
        );
        let k = dy * s + dx;
        let (q, r) = (k >> 6, (k & 63) as u32);
        // Target rows on the board: y + dy in 0..s.
        let (lo, hi) = ((-dy).max(0) * s, (s - dy).min(s) * s);
        let col = &pos.cols[(dx + CACHED) as usize];
        // Black, white, none, off; one spare word for the spill of the last.
        let mut c = [[0u64; W_ALL + 1]; 4];
        for (i, &m) in sl
            .foci
            .iter()
            .enumerate()
            .take(((s * s) as usize).div_ceil(64))
        {
            if m == 0 {
                continue;
            }
            let j = (PADW as i32 + i as i32 + q) as usize;
            let on = col[i] & super::range_word(i, lo, hi);
            let at = sl.base[i] as usize;
            let (a, sh) = (at >> 6, (at & 63) as u32);
            for (t, v) in c.iter_mut().enumerate() {
                if t == 2 && !pos.none {
                    continue;
                }
                let bits = if t < 3 {
                    let p = &pos.planes[t];
                    ((p[j] >> r) | ((p[j + 1] << 1) << (63 - r))) & on
                } else {
                    !on
                };
                let g = pext(bits, m);
                v[a] |= g << sh;
                v[a + 1] |= (g >> 1) >> (63 - sh);
            }
        }
        let mut h = [[0u64; W_ALL]; 4];
        for w in 0..self.sl.n.div_ceil(64) {
            let all = self.all(w);
            let (b, wh, none, off) = (c[0][w], c[1][w], c[2][w], c[3][w]);
            h[0][w] = b;
            h[1][w] = wh;
            h[2][w] = all & !(b | wh | none | off);
            h[3][w] = off & all;
        }
        self.finish(h)
    }

    /// The foci's codes at the offset read in a row, then as three bit planes: eight codes
    /// at a time, each bit gathered from the eight bytes by one multiplication.
    #[inline(always)]
    fn portable(self) -> Self::Out {
        let (pos, sl) = (self.pos, self.sl);
        let (dx, dy) = (
            (self.off % SIDE) as i32 - CACHED,
            (self.off / SIDE) as i32 - CACHED,
        );
        let delta = (dy * PS + dx) as isize;
        let n = sl.n;
        let mut row = [0u8; MAX_STONES];
        for (r, &p) in row.iter_mut().zip(&sl.pad[..n]) {
            *r = pos.codes[(p as isize + delta) as usize];
        }
        let mut b = [[0u64; W_ALL]; 3];
        for (j, eight) in row.chunks_exact(8).enumerate().take(n.div_ceil(8)) {
            let x = u64::from_le_bytes([
                eight[0], eight[1], eight[2], eight[3], eight[4], eight[5], eight[6], eight[7],
            ]);
            for (k, plane) in b.iter_mut().enumerate() {
                let bits =
                    ((x >> k) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
                plane[j / 8] |= bits << (8 * (j % 8));
            }
        }
        let mut h = [[0u64; W_ALL]; 4];
        for w in 0..n.div_ceil(64) {
            let (b0, b1, b2) = (b[0][w], b[1][w], b[2][w]);
            let low = self.all(w) & !b2;
            h[0][w] = low & !b1 & !b0;
            h[1][w] = low & !b1 & b0;
            h[2][w] = low & b1 & !b0;
            h[3][w] = low & b1 & b0;
        }
        self.finish(h)
    }
}

/// The plan's geometric hits on the foci `band` (at most [`MAX_FOCI`]), as
/// [`super::plan::collect`] gives them; `Err((stream read, stream length))` past the scratch's hits.
pub(super) fn collect<const N: usize>(
    ck: &CompactKeys,
    qfilter: u8,
    persp: Colour,
    sc: &mut super::ScanScratch,
    band: &[u64; N],
    s: i32,
) -> Result<usize, (u64, u64)> {
    let cs = &mut sc.compact;
    let si = cs.slot(band, s);
    let CompactScratch {
        pos,
        slots,
        fallbacks,
        ..
    } = cs;
    let sl = &mut slots[si];
    let raw = &mut sc.raw;
    match (sl.n <= 64, persp == Colour::White) {
        (true, false) => walk::<1, false, PLANES>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
        (true, true) => walk::<1, true, PLANES>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
        (false, false) => walk::<2, false, PLANES>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
        (false, true) => walk::<2, true, PLANES>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
    }
}

/// The geometric hits of a walk over all the stones `stones` (at most [`MAX_STONES`]) with
/// keys seen from each focus's colour (friend: the focus's colour; a [`super::ScanSet`]'s
/// trie), as [`collect`] gives them.
pub(super) fn collect_stones<const N: usize>(
    ck: &CompactKeys,
    qfilter: u8,
    sc: &mut super::ScanScratch,
    stones: &[u64; N],
    s: i32,
) -> Result<usize, (u64, u64)> {
    let CompactScratch {
        pos,
        stones: st,
        fallbacks,
        ..
    } = &mut sc.compact;
    let sl = &mut stones_numbered(st, pos, stones, s).slot;
    let raw = &mut sc.raw;
    match sl.n.div_ceil(64) {
        0 | 1 => walk::<1, false, PLANES_ALL>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
        2 => walk::<2, false, PLANES_ALL>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
        3 => walk::<3, false, PLANES_ALL>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
        _ => walk::<4, false, PLANES_ALL>(&ck.walk, qfilter, pos, sl, raw, fallbacks),
    }
}

/// The stones' scratch (allocated on first use) with `stones` numbered.
fn stones_numbered<'a, const N: usize>(
    st: &'a mut Option<alloc::boxed::Box<Stones>>,
    pos: &Position,
    stones: &[u64; N],
    s: i32,
) -> &'a mut Stones {
    let st = st.get_or_insert_with(|| {
        alloc::boxed::Box::new(Stones {
            slot: Slot::new(true),
            runs: Runs {
                bits: [0; RUN_PATTERNS / 64],
                at: [(0, 0); RUN_PATTERNS],
            },
            sorted: [0; HITS],
            counts: [[0; 1 << (32 - ENTRY_BITS)]; 4],
        })
    });
    st.slot.number(stones, s, pos);
    st
}

/// The geometric hits of a walk over patterns ([`by_pattern`]) on all the stones `stones`, as
/// [`collect_stones`] gives them; `limit` bounds its pending children.
pub(super) fn collect_patterns<const N: usize>(
    pt: &by_pattern::PatternTrie,
    qfilter: u8,
    sc: &mut super::ScanScratch,
    stones: &[u64; N],
    s: i32,
    limit: usize,
) -> Result<usize, by_pattern::Stop> {
    let CompactScratch {
        pos,
        stones: st,
        pattern_walks,
        ..
    } = &mut sc.compact;
    let st = stones_numbered(st, pos, stones, s);
    let r = by_pattern::collect(
        pt,
        qfilter,
        pos,
        &mut st.slot,
        &mut sc.raw,
        &mut st.runs,
        limit,
    );
    *pattern_walks += usize::from(r.is_ok());
    r
}

/// Walks over patterns done with this scratch.
#[cfg(feature = "bench-internals")]
pub(crate) fn pattern_walks(sc: &super::ScanScratch) -> usize {
    sc.compact.pattern_walks
}

/// The pending children a walk takes (see [`set_walk_pending`]).
pub(super) fn pending_limit() -> usize {
    PENDING_LIMIT.load(core::sync::atomic::Ordering::Relaxed)
}

/// Hits past the scratch: the stream offset reached (for the band-splitting estimate).
struct Full(usize);

/// One trie walk over the foci of a slot, from White's perspective when `WHITE`.
struct Walk<'w, const K: usize, const WHITE: bool, const P: usize> {
    /// The plan's stream ([`CompactKeys`]).
    blob: &'w [u16],
    qfilter: u8,
    pos: &'w Position,
    sl: &'w mut Slot<P>,
    raw: &'w mut [u32; HITS],
    hits: usize,
    /// Children visited by [`Walk::visit`] because the stack was full.
    fallbacks: usize,
}

impl<const K: usize, const WHITE: bool, const P: usize> Walk<'_, K, WHITE, P> {
    /// The plane index of key `id` (`offset * 16 + allowed`, seen from Black) in this walk's
    /// perspective, its offset built on first use.
    #[inline(always)]
    fn resolve(&mut self, id: u16) -> usize {
        let id = for_white::<WHITE>(id & PLANE);
        let off = id >> 4;
        if self.sl.built[off >> 6] >> (off & 63) & 1 == 0 {
            build_offset(self.sl, self.pos, off);
        }
        id
    }

    /// The plane at index `id` (resolved) over the foci.
    #[inline(always)]
    fn at(&self, id: usize) -> [u64; K] {
        let mut p = [0u64; K];
        p.copy_from_slice(&self.sl.planes[id * K..id * K + K]);
        p
    }

    /// The plane of key `id` over the foci.
    #[inline(always)]
    fn plane(&mut self, id: u16) -> [u64; K] {
        let id = self.resolve(id);
        self.at(id)
    }

    /// The keys and entries of the node at stream offset `at` (its first word `nk` already
    /// read) on the foci `acc` (not empty; its first key already ANDed in unless it is the
    /// root): the foci left and where its children start, `None` when no focus is left.
    #[inline(always)]
    fn body(
        &mut self,
        at: usize,
        nk: u16,
        mut acc: [u64; K],
    ) -> Result<Option<([u64; K], usize)>, Full> {
        let blob = self.blob;
        let (nk, ne) = (nk as usize, blob[at + 1] as usize);
        let keys = at + 3;
        for &id in &blob[keys..keys + nk] {
            let p = self.plane(id);
            let mut any = 0;
            for w in 0..K {
                acc[w] &= p[w];
                any |= acc[w];
            }
            if any == 0 {
                return Ok(None);
            }
        }
        let ents = keys + nk;
        for e in blob[ents..ents + 2 * ne].chunks_exact(2) {
            if (e[1] >> 8) as u8 & self.qfilter == 0 {
                continue;
            }
            let r = e[0] as u32 | ((e[1] & 0xFF) as u32) << 16;
            for (w, &bits) in acc.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let f = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.hits == HITS {
                        return Err(Full(at));
                    }
                    self.raw[self.hits] = (self.sl.point[f] as u32) << ENTRY_BITS | r;
                    self.hits += 1;
                }
            }
        }
        Ok(Some((acc, ents + 2 * ne)))
    }

    /// The whole trie from the root, depth first with an explicit stack of pending children
    /// (each with its set, its first key already ANDed in, and its first word read when
    /// pushed): no call, frame or per-visit arrays per node. A child that finds the stack full
    /// is visited by [`Walk::visit`].
    fn run(&mut self, all: [u64; K]) -> Result<(), Full> {
        let blob = self.blob;
        let mut stack = [(0u32, 0u16, [0u64; K]); PENDING];
        let limit = PENDING_LIMIT.load(core::sync::atomic::Ordering::Relaxed);
        stack[0] = (0, blob[0], all);
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (at, nk, acc) = stack[top];
            let at = at as usize;
            let nkids = blob[at + 2] as usize;
            let Some((acc, kids)) = self.body(at, nk, acc)? else {
                continue;
            };
            for kid in blob[kids..kids + 2 * nkids].chunks_exact(2) {
                let p = self.plane(kid[0]);
                let mut set = acc;
                let mut any = 0;
                for w in 0..K {
                    set[w] &= p[w];
                    any |= set[w];
                }
                if any == 0 {
                    continue;
                }
                let a = (kid[1] as usize) << 3 | (kid[0] >> PLANE_BITS) as usize;
                if top < limit.min(PENDING) {
                    stack[top] = (a as u32, blob[a], set);
                    top += 1;
                } else {
                    self.fallbacks += 1;
                    self.visit(a, blob[a], set)?;
                }
            }
        }
        Ok(())
    }

    /// The node at stream offset `at` (see [`Walk::body`]), then its children whose first key
    /// leaves some foci: leaves in place, inner nodes by recursion (for a child that finds
    /// [`Walk::run`]'s stack full).
    fn visit(&mut self, at: usize, nk: u16, acc: [u64; K]) -> Result<(), Full> {
        let blob = self.blob;
        let nkids = blob[at + 2] as usize;
        let Some((acc, kids)) = self.body(at, nk, acc)? else {
            return Ok(());
        };
        for chunk in blob[kids..kids + 2 * nkids].chunks(2 * KIDS) {
            // The children's first keys in one pass: the survivors' planes and places packed
            // (each written, counted only when some focus is left).
            let mut kept = [0u32; KIDS];
            let mut n = 0;
            for kid in chunk.chunks_exact(2) {
                let id = self.resolve(kid[0]);
                let p = self.at(id);
                let mut any = 0;
                for w in 0..K {
                    any |= acc[w] & p[w];
                }
                let place = (kid[1] as u32) << 3 | (kid[0] >> PLANE_BITS) as u32;
                kept[n] = place << PLANE_BITS | id as u32;
                n += usize::from(any != 0);
            }
            // The survivors' first words read before any is visited: the loads overlap
            // instead of each visit waiting for its own.
            let mut heads = [(0u16, 0u16); KIDS];
            for (h, &k) in heads.iter_mut().zip(&kept[..n]) {
                let a = (k >> PLANE_BITS) as usize;
                *h = (blob[a], blob[a + 2]);
            }
            for (&(nk, nkids), &k) in heads.iter().zip(&kept[..n]) {
                let p = self.at((k & PLANE as u32) as usize);
                let mut set = acc;
                for w in 0..K {
                    set[w] &= p[w];
                }
                let a = (k >> PLANE_BITS) as usize;
                if nkids == 0 {
                    self.body(a, nk, set)?;
                } else {
                    self.visit(a, nk, set)?;
                }
            }
        }
        Ok(())
    }
}

#[inline(always)]
fn walk<const K: usize, const WHITE: bool, const P: usize>(
    blob: &[u16],
    qfilter: u8,
    pos: &Position,
    sl: &mut Slot<P>,
    raw: &mut [u32; HITS],
    fallbacks: &mut usize,
) -> Result<usize, (u64, u64)> {
    let all: [u64; K] = core::array::from_fn(|w| existing(sl.n, w));
    if blob.is_empty() || all.iter().all(|&w| w == 0) {
        return Ok(0);
    }
    let mut wk = Walk::<K, WHITE, P> {
        blob,
        qfilter,
        pos,
        sl,
        raw,
        hits: 0,
        fallbacks: 0,
    };
    let r = wk.run(all);
    *fallbacks += wk.fallbacks;
    match r {
        Ok(()) => Ok(wk.hits),
        Err(Full(at)) => Err((at as u64, blob.len() as u64)),
    }
}

/// The hits `raw[..hits]` of a walk over all stones ([`collect_stones`]) in ascending order
/// (focus, then entry; entries below `entries`, foci below `points`): a radix sort, all its
/// counts taken in one pass, then one stable pass per digit of the entry (up to 8 bits each,
/// the lowest first) and one by focus.
pub(super) fn sorted_hits(
    sc: &mut super::ScanScratch,
    hits: usize,
    points: usize,
    entries: usize,
) -> &[u32] {
    let bits = usize::BITS - entries.saturating_sub(1).leading_zeros();
    let (Some(st), true) = (sc.compact.stones.as_deref_mut(), bits <= ENTRY_BITS) else {
        sc.raw[..hits].sort_unstable();
        return &sc.raw[..hits];
    };
    let points = points.min(1 << (32 - ENTRY_BITS));
    let (raw, sorted) = (&mut sc.raw[..hits], &mut st.sorted[..hits]);
    let in_raw = match bits.div_ceil(8) {
        0 => radix::<0>(raw, sorted, &mut st.counts, 0, points),
        1 => radix::<1>(raw, sorted, &mut st.counts, bits, points),
        2 => radix::<2>(raw, sorted, &mut st.counts, bits.div_ceil(2), points),
        _ => radix::<3>(raw, sorted, &mut st.counts, bits.div_ceil(3), points),
    };
    if in_raw {
        &sc.raw[..hits]
    } else {
        &st.sorted[..hits]
    }
}

/// The hits `raw[..hits]` of a walk over patterns that wrote runs ([`Runs`]) in ascending
/// order (focus, then entry; foci below `points`): the runs taken in pattern order are in
/// entry order, so one count and one stable pass by focus sort them.
pub(super) fn sorted_runs(sc: &mut super::ScanScratch, hits: usize, points: usize) -> &[u32] {
    let Some(st) = sc.compact.stones.as_deref_mut() else {
        return &sc.raw[..0];
    };
    const FOCI: usize = 1 << (32 - ENTRY_BITS);
    let raw = &sc.raw[..hits];
    let counts = &mut st.counts[0];
    counts[..points.min(FOCI)].fill(0);
    for &h in raw {
        counts[(h >> ENTRY_BITS) as usize % FOCI] += 1;
    }
    let mut sum = 0;
    for v in &mut counts[..points.min(FOCI)] {
        (*v, sum) = (sum, sum + *v);
    }
    for (w, &bits) in st.runs.bits.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (at, len) = st.runs.at[i];
            for &h in raw.get(at as usize..(at + len) as usize).unwrap_or(&[]) {
                let k = (h >> ENTRY_BITS) as usize % FOCI;
                st.sorted[counts[k] as usize] = h;
                counts[k] += 1;
            }
        }
    }
    &st.sorted[..hits]
}

/// Radix sort of `a` by `D` digits of `width` bits, then by focus (`points` of them), through
/// `b`: whether the result is in `a`.
#[inline(always)]
fn radix<const D: usize>(
    a: &mut [u32],
    b: &mut [u32],
    counts: &mut [[u32; 1 << (32 - ENTRY_BITS)]; 4],
    width: u32,
    points: usize,
) -> bool {
    const FOCI: usize = 1 << (32 - ENTRY_BITS);
    let mask = (1u32 << width) - 1;
    let key = |h: u32, d: usize| {
        if d < D {
            (h >> (d as u32 * width) & mask) as usize % FOCI
        } else {
            (h >> ENTRY_BITS) as usize % FOCI
        }
    };
    let used = |d: usize| if d < D { 1usize << width } else { points };
    for (d, c) in counts.iter_mut().enumerate().take(D + 1) {
        c[..used(d)].fill(0);
    }
    for &h in a.iter() {
        for d in 0..D {
            counts[d][key(h, d)] += 1;
        }
        counts[D][key(h, D)] += 1;
    }
    for (d, c) in counts.iter_mut().enumerate().take(D + 1) {
        let mut sum = 0;
        for v in &mut c[..used(d)] {
            (*v, sum) = (sum, sum + *v);
        }
    }
    let (mut src, mut dst) = (a, b);
    for d in 0..=D {
        for &h in src.iter() {
            let k = key(h, d);
            dst[counts[d][k] as usize] = h;
            counts[d][k] += 1;
        }
        core::mem::swap(&mut src, &mut dst);
    }
    D % 2 == 1
}
