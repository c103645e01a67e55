//! Building the packed 7x7 view words of a focus point ([`crate::rom::layout`]).

use crate::board::{BoardView, Colour, Point};
use crate::rom::layout::{
    POINT_BITS, RING, WORD_BASE, WORD_FIRST, WORD_POINTS, edge_bit, point_bit,
};

/// The edge thermometer bits of word 0 at `(x, y)` on a board of side `s`, branch-free: the
/// bits of direction `dir` for `r` in `(d, 3]` where `d` is the distance to that edge (a
/// thermometer is `0b111 << d` cut to 3 bits, all three when the focus itself is off).
#[inline]
fn edges(s: i32, x: i32, y: i32) -> u64 {
    #[inline]
    fn thermo(d: i32) -> u64 {
        (0b111u64 << d.clamp(0, 3)) & 0b111
    }
    thermo(y)
        | thermo(s - 1 - x) << edge_bit(1, 1)
        | thermo(s - 1 - y) << edge_bit(2, 1)
        | thermo(x) << edge_bit(3, 1)
}

/// `RING_ROWS[dy][bits]`: the ring-order bits (bit `k` = point `RING[k]`) of the points of
/// window row `dy` (0..7, north first) whose column bits (bit `dx`, west first) are in `bits`.
/// 7 KiB: cutting a view is 7 lookups per state plane instead of 49 point tests.
static RING_ROWS: [[u64; 128]; 7] = ring_rows();

const fn ring_rows() -> [[u64; 128]; 7] {
    // Ring index of each window point, row-major.
    let mut at = [0u8; 49];
    let mut k = 0;
    while k < 49 {
        let (dx, dy) = RING[k];
        at[((dy + 3) * 7 + dx + 3) as usize] = k as u8;
        k += 1;
    }
    let mut t = [[0u64; 128]; 7];
    let mut dy = 0;
    while dy < 7 {
        let mut bits = 0;
        while bits < 128 {
            let mut v = 0u64;
            let mut dx = 0;
            while dx < 7 {
                if bits >> dx & 1 != 0 {
                    v |= 1 << at[dy * 7 + dx];
                }
                dx += 1;
            }
            t[dy][bits] = v;
            bits += 1;
        }
        dy += 1;
    }
    t
}

/// The three view words from the ring-order planes of friend, foe and empty points (the
/// empty plane may have bits above the 49 points: they are dropped).
#[inline(always)]
fn pack(edges: u64, f: u64, o: u64, e: u64) -> [u64; 3] {
    const fn part(w: usize) -> (u32, u32, u64) {
        (
            WORD_FIRST[w] as u32,
            WORD_POINTS[w] as u32,
            (1 << WORD_POINTS[w]) - 1,
        )
    }
    let [(_, n0, m0), (f1, n1, m1), (f2, n2, m2)] = [part(0), part(1), part(2)];
    let b0 = WORD_BASE[0];
    // Friend and foe planes hold 49 bits: the last word's parts need no mask.
    [
        edges | (f & m0) << b0 | (o & m0) << (b0 + n0) | (e & m0) << (b0 + 2 * n0),
        (f >> f1 & m1) | (o >> f1 & m1) << n1 | (e >> f1 & m1) << (2 * n1),
        f >> f2 | (o >> f2) << n2 | (e >> f2 & m2) << (2 * n2),
    ]
}

/// Where the edge thermometer bits sit in an [`EDGE`] entry (above the 49 ring bits).
const EDGE_SHIFT: u32 = 52;

/// `EDGE[side][d]`, `d` (0..32) the distance of an on-board focus from the board's edge on
/// `side` (0 west, 1 east, 2 north, 3 south): the ring-order bits of the window points beyond
/// that edge, and at [`EDGE_SHIFT`] the thermometer bits of that direction. An on-board
/// focus's off-board points and edge bits are four lookups with no branch.
static EDGE: [[u64; 32]; 4] = edge_table();

const fn edge_table() -> [[u64; 32]; 4] {
    let mut t = [[0u64; 32]; 4];
    let mut d = 0;
    while d < 32 {
        let thermo = (0b111u64 << if d < 3 { d } else { 3 }) & 0b111;
        let mut k = 0;
        while k < 49 {
            let (dx, dy) = (RING[k].0 as i32, RING[k].1 as i32);
            let beyond = [dx < -d, dx > d, dy < -d, dy > d];
            let mut side = 0;
            while side < 4 {
                if beyond[side] {
                    t[side][d as usize] |= 1 << k;
                }
                side += 1;
            }
            k += 1;
        }
        // Thermometer directions: 0 N, 1 E, 2 S, 3 W.
        t[0][d as usize] |= thermo << (EDGE_SHIFT + edge_bit(3, 1));
        t[1][d as usize] |= thermo << (EDGE_SHIFT + edge_bit(1, 1));
        t[2][d as usize] |= thermo << (EDGE_SHIFT + edge_bit(0, 1));
        t[3][d as usize] |= thermo << (EDGE_SHIFT + edge_bit(2, 1));
        d += 1;
    }
    t
}

/// The three view words at `(x, y)` seen from `persp` (friend = `persp`): the board's kept
/// words when it has them ([`BoardView::view7`], [`KeptViews`]), else by the view cut the
/// current instruction-set path takes ([`super::simd::Cut`]): `build_tables`, the BMI2 `pext`
/// gather (`build_with`) or the AVX-512 BITALG bit shuffles and VBMI byte permutes
/// (`build_shuffled`).
#[inline]
pub fn build<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    if let Some(v) = b.view7(persp, x, y) {
        return v;
    }
    super::simd::view(b, persp, x, y)
}

/// The view words of many foci of one board seen from `persp` ([`build`] at each): `out[i]`
/// for `foci[i]`, as many as both slices hold (the rest of `out` is left as it was); returns
/// that many. The instruction-set path is resolved once, and its cut runs in one loop with
/// its constants loaded once (docs/performance.md, "One match call and the view"): what a
/// caller that cuts the views of several foci of a position pays per view. Exported through
/// `internals` only (feature `bench-internals`) until the public API takes view words.
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))]
pub fn cut_views<B: BoardView + ?Sized>(
    b: &B,
    persp: Colour,
    foci: &[(i32, i32)],
    out: &mut [[u64; 3]],
) -> usize {
    super::simd::views(b, persp, foci, out)
}

/// `cut` at every focus of `foci` (writing the words into its last argument), the board's
/// kept words first ([`cut_views`]).
#[inline(always)]
pub(crate) fn each<B: BoardView + ?Sized>(
    b: &B,
    persp: Colour,
    foci: &[(i32, i32)],
    out: &mut [[u64; 3]],
    cut: impl Fn(&B, Colour, i32, i32, &mut [u64; 3]),
) -> usize {
    for (&(x, y), o) in foci.iter().zip(out.iter_mut()) {
        match b.view7(persp, x, y) {
            Some(v) => *o = v,
            None => cut(b, persp, x, y, o),
        }
    }
    foci.len().min(out.len())
}

/// The view words cut from the board's row bitboards when it has them (docs/performance.md,
/// "One match call and the view") instead of 49 point reads: the friend and foe stones of
/// the 7 window rows ([`BoardView::window7`]), one table lookup per row and colour into ring
/// order; the empty plane is what is neither a stone nor off the board (two lookups).
#[inline]
pub fn build_tables<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    if let Some([black, white]) = window(b, x, y) {
        let (mut bp, mut wp) = (0u64, 0u64);
        for (i, t) in RING_ROWS.iter().enumerate() {
            bp |= t[(black[i] & 0x7F) as usize];
            wp |= t[(white[i] & 0x7F) as usize];
        }
        return on_board(b.size(), persp, x, y, bp, wp);
    }
    off_board(b, persp, x, y)
}

/// The black and white window rows of an on-board focus, when the board has row bitboards.
#[inline(always)]
fn window<B: BoardView + ?Sized>(b: &B, x: i32, y: i32) -> Option<[[u8; 7]; 2]> {
    let s = b.size() as u32;
    if (x as u32) < s && (y as u32) < s {
        b.window7(x, y)
    } else {
        None
    }
}

/// The view words of an on-board focus from the ring-order planes of black and white stones.
#[inline(always)]
fn on_board(s: u8, persp: Colour, x: i32, y: i32, black: u64, white: u64) -> [u64; 3] {
    let (f, o) = match persp {
        Colour::Black => (black, white),
        Colour::White => (white, black),
    };
    let (far, at) = (s as i32 - 1, |side: usize, d: i32| {
        EDGE[side][d as usize & 31]
    });
    let off = at(0, x) | at(1, far - x) | at(2, y) | at(3, far - y);
    // (`pack` keeps the empty plane to its 49 bits.)
    pack(off >> EDGE_SHIFT, f, o, !(f | o | off))
}

/// A focus off the board ([`BoardView::window_rows`]), or a board without row bitboards
/// (point reads).
#[cold]
#[inline(never)]
fn off_board<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    if b.row_bits(Colour::Black, y.clamp(0, s - 1)).is_none() {
        return build_points(b, persp, x, y);
    }
    build_rows(b, persp, x, y)
}

/// The ring order's runs over the window in row-major order (bit `(dy + 3) * 7 + dx + 3`):
/// the points of one (Chebyshev, Manhattan) distance pair are consecutive in ring order and
/// ordered there as in row-major order (the ring sorts by distances, then `dy`, then `dx`), so
/// a `pext` of the row-major plane by the run's mask gives the run's ring bits: `(mask,
/// first ring index)` per run.
const RING_RUNS: [(u64, u32); 10] = ring_runs();

const fn ring_runs() -> [(u64, u32); 10] {
    let mut runs = [(0u64, 0u32); 10];
    let mut n = 0;
    let mut k = 0;
    while k < 49 {
        let (dx, dy) = RING[k];
        let at = ((dy as i32 + 3) * 7 + dx as i32 + 3) as u32;
        let new = k == 0 || {
            let (px, py) = RING[k - 1];
            let (a, b) = (distances(dx, dy), distances(px, py));
            a.0 != b.0 || a.1 != b.1
        };
        if new {
            runs[n] = (0, k as u32);
            n += 1;
        }
        runs[n - 1].0 |= 1 << at;
        k += 1;
    }
    runs
}

/// (Chebyshev, Manhattan) distance of a window point from the focus.
const fn distances(x: i8, y: i8) -> (u8, u8) {
    let (ax, ay) = (x.unsigned_abs(), y.unsigned_abs());
    (if ax > ay { ax } else { ay }, ax + ay)
}

/// [`build_tables`] with the ring order gathered by `pext` ([`RING_RUNS`]): the rows are
/// packed row-major, then one `pext` per run and colour. Compiled into the BMI2 path of
/// [`super::simd`], which passes the intrinsic.
#[inline(always)]
pub(crate) fn build_with<B: BoardView + ?Sized>(
    b: &B,
    persp: Colour,
    x: i32,
    y: i32,
    pext: impl Fn(u64, u64) -> u64,
) -> [u64; 3] {
    let ring = |rm: u64| {
        RING_RUNS
            .iter()
            .fold(0u64, |acc, &(mask, first)| acc | pext(rm, mask) << first)
    };
    if let Some([black, white]) = window(b, x, y) {
        let rows = |r: [u8; 7]| {
            (r.iter().enumerate()).fold(0u64, |acc, (i, &v)| acc | ((v & 0x7F) as u64) << (7 * i))
        };
        return on_board(b.size(), persp, x, y, ring(rows(black)), ring(rows(white)));
    }
    off_board(b, persp, x, y)
}

/// Index bytes of the first shuffle of [`build_shuffled`], the same in every lane (a padded
/// row rotated so that the window's west column is bit 0 for the friend stones, bit 32 for
/// the foe): byte `j` picks bit `j` (friend) or `32 + j` (foe). What byte 7 picks is never
/// read: [`WORD_PERM`] reads bytes `8 * i + j` with `i, j < 7` only.
pub(crate) const FRIEND_INDEX: u64 = 0x0706_0504_0302_0100;
/// [`FRIEND_INDEX`] for the foe stones.
pub(crate) const FOE_INDEX: u64 = FRIEND_INDEX + 0x2020_2020_2020_2020;
/// Bit of window point `(dx, dy)` in a row-major plane of [`build_shuffled`].
const fn plane_bit(dx: i8, dy: i8) -> u8 {
    (8 * (dy + 3) + dx + 3) as u8
}

/// `OFF_ROWS[side][d]`: [`EDGE`] as a row-major plane (bit [`plane_bit`]): the window points
/// beyond the edge on `side` (0 west, 1 east, 2 north, 3 south) of a focus `d` from it.
const OFF_ROWS: [[u64; 32]; 4] = off_rows();

const fn off_rows() -> [[u64; 32]; 4] {
    let mut t = [[0u64; 32]; 4];
    let mut d = 0;
    while d < 32 {
        let mut k = 0;
        while k < 49 {
            let (dx, dy) = RING[k];
            let (x, y) = (dx as i32, dy as i32);
            let beyond = [x < -d, x > d, y < -d, y > d];
            let mut side = 0;
            while side < 4 {
                if beyond[side] {
                    t[side][d as usize] |= 1 << plane_bit(dx, dy);
                }
                side += 1;
            }
            k += 1;
        }
        d += 1;
    }
    t
}

/// The state byte of a window point in [`build_shuffled`]'s byte plane (one value per state,
/// so that one byte compare per view bit reads any of them, [`WORD_TEST`]): a friend stone.
pub(crate) const FRIEND_FLAG: u8 = 1;
/// [`FRIEND_FLAG`] for a foe stone.
pub(crate) const FOE_FLAG: u8 = 2;
/// [`FRIEND_FLAG`] for an empty point (in none of the planes).
pub(crate) const EMPTY_FLAG: u8 = 0;
/// [`FRIEND_FLAG`] for a point off the board.
pub(crate) const OFF_FLAG: u8 = 4;
/// What [`WORD_TEST`] holds for a bit that holds nothing: no state byte.
const NO_STATE: u8 = 0xFF;

/// `WORD_PERM[w][bit]`: the byte of the state plane (row-major, [`plane_bit`]) that bit
/// `bit` of view word `w` reads, and `WORD_TEST[w][bit]` the state it is set for there: a
/// point's friend, foe or empty bit reads the point; an edge thermometer bit of `r` steps in
/// a direction reads the point `r` steps away for [`OFF_FLAG`]. Bits that hold nothing ask
/// for [`NO_STATE`].
/// (`const`, not `static`: each use site gets its own copy beside its code, read
/// RIP-relative, instead of a load of the table's address from the GOT first; each row on
/// its own cache line.)
pub(crate) const WORD_PERM: Rows64 = Rows64(word_tables().0);
/// See [`WORD_PERM`].
pub(crate) const WORD_TEST: Rows64 = Rows64(word_tables().1);

/// Three 64-byte rows, each on one cache line (one 512-bit load, not split).
#[repr(align(64))]
pub(crate) struct Rows64(pub [[u8; 64]; 3]);

const fn word_tables() -> ([[u8; 64]; 3], [[u8; 64]; 3]) {
    let (mut perm, mut test) = ([[0u8; 64]; 3], [[NO_STATE; 64]; 3]);
    let mut k = 0;
    while k < 49 {
        let (dx, dy) = RING[k];
        let mut st = 0;
        while st < 3 {
            let (w, bit) = POINT_BITS[k][st];
            perm[w as usize][bit as usize] = plane_bit(dx, dy);
            test[w as usize][bit as usize] = [FRIEND_FLAG, FOE_FLAG, EMPTY_FLAG][st];
            st += 1;
        }
        k += 1;
    }
    let mut dir = 0;
    while dir < 4 {
        let mut r = 1;
        while r <= 3 {
            let (dx, dy) = [(0, -r), (r, 0), (0, r), (-r, 0)][dir as usize];
            let bit = edge_bit(dir, r as u32) as usize;
            perm[0][bit] = plane_bit(dx, dy);
            test[0][bit] = OFF_FLAG;
            r += 1;
        }
        dir += 1;
    }
    (perm, test)
}

/// [`build_tables`] with bit shuffles and byte permutes (AVX-512 BITALG and VBMI).
/// `planes(rows, r)` rotates the 7 padded rows ([`BoardView::padded_rows`]) right by `r` (the
/// focus column, `+ 32` seen from White) and cuts the row-major planes `[friend, foe]` (bit
/// [`plane_bit`]: window row `i`, column `j` at `8 * i + j`; the 8th row 0) with one
/// `vpshufbitqmb` each ([`FRIEND_INDEX`], [`FOE_INDEX`]: output bit `8 * l + i` is bit
/// `index[8 * l + i] & 63` of lane `l`). `words(friend, foe, off)` takes those planes and the
/// off-board one ([`OFF_ROWS`], four lookups), makes one byte per point holding its state's
/// flag ([`FRIEND_FLAG`]..[`OFF_FLAG`]; empty where in none) and per word permutes those
/// bytes into bit order and tests each for its bit's flag ([`WORD_PERM`], [`WORD_TEST`]),
/// which gives the word straight in a mask register. Boards without padded rows
/// give their [`BoardView::window7`] bytes as the planes. Compiled into the BITALG path of
/// [`super::simd`], which passes the intrinsics.
#[inline(always)]
pub(crate) fn build_shuffled<B: BoardView + ?Sized>(
    b: &B,
    persp: Colour,
    x: i32,
    y: i32,
    planes: impl Fn(&[u64; 7], u32) -> [u64; 2],
    words: impl Fn(u64, u64, u64) -> [u64; 3],
    out: &mut [u64; 3],
) {
    let s = b.size() as i32;
    if (x as u32) < s as u32 && (y as u32) < s as u32 {
        let at = |side: usize, d: i32| OFF_ROWS[side][d as usize & 31];
        let off = at(0, x) | at(1, s - 1 - x) | at(2, y) | at(3, s - 1 - y);
        if let Some(rows) = b.padded_rows() {
            let mut lanes = [0; 7];
            lanes.copy_from_slice(&rows[(y as usize).min(25)..][..7]);
            let r = (x as u32 & 31) | ((persp == Colour::White) as u32 * 32);
            let [f, o] = planes(&lanes, r);
            *out = words(f, o, off);
            return;
        }
        if let Some(w) = b.window7(x, y) {
            let [black, white] =
                w.map(|r| u64::from_le_bytes([r[0], r[1], r[2], r[3], r[4], r[5], r[6], 0]));
            *out = match persp {
                Colour::Black => words(black, white, off),
                Colour::White => words(white, black, off),
            };
            return;
        }
    }
    *out = off_board(b, persp, x, y);
}

/// `vpshufbitqmb` bit by bit (the instruction's definition), for tests of [`build_shuffled`]
/// on any machine.
#[cfg(test)]
fn soft_bitshuffle(src: [u64; 8], index: [u8; 64]) -> u64 {
    (0..64).fold(0, |acc, n| acc | (src[n / 8] >> (index[n] & 63) & 1) << n)
}

/// [`build_shuffled`]'s steps done bit by bit.
#[cfg(test)]
fn soft_shuffled<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let lanes = |w: u64| -> [u8; 64] { core::array::from_fn(|n| w.to_le_bytes()[n % 8]) };
    let planes = |rows: &[u64; 7], r: u32| {
        let rows = core::array::from_fn(|i| rows.get(i).map_or(0, |v| v.rotate_right(r)));
        [FRIEND_INDEX, FOE_INDEX].map(|i| soft_bitshuffle(rows, lanes(i)))
    };
    // The state bytes (each plane's flag ORed in), one byte permute (`vpermb`) and one byte
    // compare (`vpcmpeqb`) per word.
    let words = |f: u64, o: u64, off: u64| {
        let plane: [u8; 64] = core::array::from_fn(|n| {
            [(f, FRIEND_FLAG), (o, FOE_FLAG), (off, OFF_FLAG)]
                .iter()
                .fold(EMPTY_FLAG, |v, &(p, flag)| v | ((p >> n & 1) as u8 * flag))
        });
        core::array::from_fn(|w| {
            (0..64).fold(0u64, |acc, n| {
                let hit = plane[WORD_PERM.0[w][n] as usize & 63] == WORD_TEST.0[w][n];
                acc | (hit as u64) << n
            })
        })
    };
    let mut out = [0; 3];
    build_shuffled(b, persp, x, y, planes, words, &mut out);
    out
}

/// The portable `pext` (bit by bit), for tests of [`build_with`] on any machine.
#[cfg(test)]
fn soft_pext(v: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut k = 0;
    while mask != 0 {
        let bit = mask.trailing_zeros();
        out |= (v >> bit & 1) << k;
        k += 1;
        mask &= mask - 1;
    }
    out
}

/// The same words cut with [`BoardView::window_rows`] (any focus, on the board or off it).
fn build_rows<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    let mut rows = [[0u32; 3]; 7];
    b.window_rows(x - 3, y - 3, 7, &mut rows);
    let (mut black, mut white, mut empty) = (0u64, 0u64, 0u64);
    for (t, r) in RING_ROWS.iter().zip(rows.iter()) {
        black |= t[(r[0] & 0x7F) as usize];
        white |= t[(r[1] & 0x7F) as usize];
        empty |= t[(!(r[0] | r[1] | r[2]) & 0x7F) as usize];
    }
    let (f, o) = match persp {
        Colour::Black => (black, white),
        Colour::White => (white, black),
    };
    pack(edges(s, x, y), f, o, empty)
}

/// The same words read point by point (boards without row bitboards).
pub fn build_points<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    let mut v = [edges_by_steps(s, x, y), 0, 0];
    for (k, &(dx, dy)) in RING.iter().enumerate() {
        let st = match b.point(x + dx as i32, y + dy as i32) {
            Point::Stone(c) if c == persp => 0,
            Point::Stone(_) => 1,
            Point::Empty => 2,
            Point::Off => continue,
        };
        let (w, bit) = POINT_BITS[k][st];
        v[w as usize] |= 1u64 << bit;
    }
    v
}

/// The thermometer bits step by step (the definition; [`edges`] computes the same).
fn edges_by_steps(s: i32, x: i32, y: i32) -> u64 {
    let mut v = 0u64;
    for r in 1..=3 {
        if y - r < 0 {
            v |= 1 << edge_bit(0, r as u32);
        }
        if x + r >= s {
            v |= 1 << edge_bit(1, r as u32);
        }
        if y + r >= s {
            v |= 1 << edge_bit(2, r as u32);
        }
        if x - r < 0 {
            v |= 1 << edge_bit(3, r as u32);
        }
    }
    v
}

/// Side of [`KeptViews`]'s padded focus grid: every point within 3 of a 25x25 board, so the
/// 49 foci that see a stone need no bounds work.
const KEPT_SIDE: usize = crate::board::MAX_SIZE as usize + 6;

/// `TOGGLE[colour][k]`: where (relative to the stone's focus in the flat grid) and which bits
/// (the stone's, from Black, and the empty one) flip in the view of the focus that sees a
/// stone of `colour` (0 black, 1 white) at ring point `k`, when it comes or goes.
static TOGGLE: [[(isize, u64); 49]; 2] = toggles();

const fn toggles() -> [[(isize, u64); 49]; 2] {
    let mut t = [[(0isize, 0u64); 49]; 2];
    let mut k = 0;
    while k < 49 {
        let (dx, dy) = (RING[k].0 as isize, RING[k].1 as isize);
        let mut c = 0;
        while c < 2 {
            let (w, stone) = point_bit(k, c as u32);
            let (_, empty) = point_bit(k, 2);
            // The focus sees the stone at `(dx, dy)`: it is at `stone - (dx, dy)`.
            let at = -3 * (dy * KEPT_SIDE as isize + dx) + w as isize;
            t[c][k] = (at, 1 << stone | 1 << empty);
            c += 1;
        }
        k += 1;
    }
    t
}

/// The view words of every focus of one board, seen from Black, kept up to date from the
/// board's stone rows: a view is then one load (and a swap of the friend and foe bits for
/// White) instead of a cut. [`KeptViews::sync`] brings them up to date with a board (each
/// changed stone flips one word of each of the 49 foci that see it) and hands out the board
/// with its views, which the matcher reads through [`BoardView::view7`]. About 23 KiB: keep
/// it in a `Box` (or a static) beside the board. No allocation.
#[derive(Clone)]
pub struct KeptViews {
    /// Side of the board the views are of (0: none yet).
    size: u8,
    /// The stone rows at the last sync, `[black, white]`.
    rows: [[u32; 2]; crate::board::MAX_SIZE as usize],
    /// The three words of focus `(x, y)` from `3 * ((y + 3) * KEPT_SIDE + x + 3)` (foci off
    /// the board: 0).
    views: [u64; 3 * KEPT_SIDE * KEPT_SIDE],
}

impl Default for KeptViews {
    fn default() -> Self {
        Self::new()
    }
}

impl KeptViews {
    /// No views yet (the first [`KeptViews::sync`] builds them).
    pub const fn new() -> KeptViews {
        KeptViews {
            size: 0,
            rows: [[0; 2]; crate::board::MAX_SIZE as usize],
            views: [0; 3 * KEPT_SIDE * KEPT_SIDE],
        }
    }

    /// Brings the views up to date with `board` (any position: plays, captures, undos and
    /// edits alike, found by comparing its stone rows with the last ones; a new size starts
    /// over) and returns the board with its views for the matcher. The borrows keep both
    /// unchanged while it is used.
    pub fn sync<'a, B: BoardView + ?Sized>(&'a mut self, board: &'a B) -> WithViews<'a, B> {
        // (A board larger than the grid keeps no views: the matcher cuts them.)
        let s = Some(board.size())
            .filter(|&s| s <= crate::board::MAX_SIZE)
            .unwrap_or(0);
        if s != self.size {
            self.reset(s);
        }
        let n = s as usize;
        let mut rows = [[0u32; 3]; crate::board::MAX_SIZE as usize];
        board.window_rows(0, 0, s as u32, &mut rows[..n]);
        for (y, (now, was)) in rows[..n].iter().zip(self.rows.iter_mut()).enumerate() {
            if now[..2] == was[..] {
                continue;
            }
            for c in 0..2 {
                let mut diff = now[c] ^ was[c];
                while diff != 0 {
                    toggle(&mut self.views, c, diff.trailing_zeros() as usize, y);
                    diff &= diff - 1;
                }
                was[c] = now[c];
            }
        }
        WithViews { board, views: self }
    }

    /// Empty views of a board of side `s`: edges and empty points only.
    fn reset(&mut self, s: u8) {
        self.size = s;
        self.rows = [[0; 2]; crate::board::MAX_SIZE as usize];
        self.views = [0; 3 * KEPT_SIDE * KEPT_SIDE];
        for y in 0..s as i32 {
            for x in 0..s as i32 {
                let v = on_board(s, Colour::Black, x, y, 0, 0);
                self.views[3 * at(x, y)..][..3].copy_from_slice(&v);
            }
        }
    }
}

/// A stone of colour `c` (0 black, 1 white) came or went at `(x, y)`: every focus that
/// sees it flips its bits.
fn toggle(views: &mut [u64], c: usize, x: usize, y: usize) {
    let stone = 3 * at(x as i32, y as i32) as isize;
    for &(d, bits) in TOGGLE[c & 1].iter() {
        if let Some(v) = views.get_mut((stone + d) as usize) {
            *v ^= bits;
        }
    }
}

/// Index of focus `(x, y)` (within 3 of the board) in [`KeptViews`]'s grid.
#[inline(always)]
fn at(x: i32, y: i32) -> usize {
    (y + 3) as usize * KEPT_SIDE + (x + 3) as usize
}

/// A board with its [`KeptViews`] ([`KeptViews::sync`]): the same [`BoardView`], whose
/// [`BoardView::view7`] reads the kept words.
#[derive(Clone, Copy)]
pub struct WithViews<'a, B: BoardView + ?Sized> {
    board: &'a B,
    views: &'a KeptViews,
}

impl<'a, B: BoardView + ?Sized> WithViews<'a, B> {
    /// The board.
    pub fn board(&self) -> &'a B {
        self.board
    }
}

impl<B: BoardView + ?Sized> BoardView for WithViews<'_, B> {
    #[inline]
    fn size(&self) -> u8 {
        self.board.size()
    }
    #[inline]
    fn point(&self, x: i32, y: i32) -> Point {
        self.board.point(x, y)
    }
    #[inline]
    fn liberties(&self, x: i32, y: i32) -> u16 {
        self.board.liberties(x, y)
    }
    #[inline]
    fn row_bits(&self, colour: Colour, y: i32) -> Option<u32> {
        self.board.row_bits(colour, y)
    }
    #[inline]
    fn window7(&self, x: i32, y: i32) -> Option<[[u8; 7]; 2]> {
        self.board.window7(x, y)
    }
    #[inline]
    fn padded_rows(&self) -> Option<&[u64; 32]> {
        self.board.padded_rows()
    }
    #[inline]
    fn window_rows(&self, x0: i32, y0: i32, width: u32, out: &mut [[u32; 3]]) {
        self.board.window_rows(x0, y0, width, out)
    }
    #[inline]
    fn view7(&self, persp: Colour, x: i32, y: i32) -> Option<[u64; 3]> {
        let s = self.views.size as u32;
        if (x as u32) >= s || (y as u32) >= s {
            return None;
        }
        let i = 3 * at(x, y);
        let v = [
            self.views.views[i],
            self.views.views[i + 1],
            self.views.views[i + 2],
        ];
        Some(match persp {
            Colour::Black => v,
            Colour::White => swap_sides(v),
        })
    }
}

/// View words seen from the other side: each word's friend and foe bits trade places.
#[inline(always)]
fn swap_sides(v: [u64; 3]) -> [u64; 3] {
    let mut out = v;
    for (w, word) in out.iter_mut().enumerate() {
        let (b, n) = (WORD_BASE[w], WORD_POINTS[w] as u32);
        let m = (1u64 << n) - 1;
        let (f, o) = (*word >> b & m, *word >> (b + n) & m);
        *word = (*word & !(m << b | m << (b + n))) | f << (b + n) | o << b;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::simd;
    use super::*;
    use crate::board::Board;
    use alloc::{vec, vec::Vec};

    use crate::internals::RowsOnly;

    #[test]
    fn branch_free_edges_equal_the_definition() {
        for s in [1, 2, 5, 19, 25] {
            for y in -5..s + 5 {
                for x in -5..s + 5 {
                    assert_eq!(edges(s, x, y), edges_by_steps(s, x, y), "{s} ({x},{y})");
                }
            }
        }
    }

    /// The row-bitboard cut gives the same words as the point reads, for every focus (edges
    /// and corners included) and both perspectives, on boards of several sizes and densities.
    #[test]
    fn row_cut_equals_point_reads() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for size in [5u8, 9, 19, 25] {
            for density in [2u64, 4, 7] {
                let mut b = Board::new(size).unwrap();
                for y in 0..size as i32 {
                    for x in 0..size as i32 {
                        let r = next() % 10;
                        if r < density {
                            let c = if r % 2 == 0 {
                                Colour::Black
                            } else {
                                Colour::White
                            };
                            let _ = b.place(c, x, y);
                        }
                    }
                }
                // The batch cut on every path, over each row of foci (off the board too)
                // and one list of every focus.
                let foci: Vec<(i32, i32)> = (-4..=size as i32 + 3)
                    .flat_map(|y| (-4..=size as i32 + 3).map(move |x| (x, y)))
                    .collect();
                for p in [Colour::Black, Colour::White] {
                    let want: Vec<[u64; 3]> = foci
                        .iter()
                        .map(|&(x, y)| build_points(&b, p, x, y))
                        .collect();
                    for path in simd::Simd::supported() {
                        simd::force(Some(path)).unwrap();
                        for (f, w) in foci
                            .chunks(size as usize + 8)
                            .zip(want.chunks(size as usize + 8))
                        {
                            let mut out = vec![[0; 3]; f.len() + 1];
                            assert_eq!(cut_views(&b, p, f, &mut out), f.len());
                            assert_eq!(
                                &out[..f.len()],
                                w,
                                "{path:?}: batch, {size}, row {:?}",
                                f[0]
                            );
                            assert_eq!(out[f.len()], [0; 3], "{path:?}: past the foci");
                        }
                        let mut out = vec![[0; 3]; foci.len()];
                        assert_eq!(cut_views(&b, p, &foci, &mut out[..7]), 7);
                        assert_eq!(cut_views(&RowsOnly(&b), p, &foci, &mut out), foci.len());
                        assert_eq!(out, want, "{path:?}: batch, default window7, {size}");
                    }
                    simd::force(None).unwrap();
                }
                for y in -4..=size as i32 + 3 {
                    for x in -4..=size as i32 + 3 {
                        for p in [Colour::Black, Colour::White] {
                            let want = build_points(&b, p, x, y);
                            // Every view cut this machine has (the others by their
                            // portable twins below).
                            for path in simd::Simd::supported() {
                                simd::force(Some(path)).unwrap();
                                let got = build(&b, p, x, y);
                                assert_eq!(got, want, "{path:?}: {size} at ({x},{y}) {p:?}");
                            }
                            simd::force(None).unwrap();
                            assert_eq!(build_tables(&b, p, x, y), want, "tables: ({x},{y})");
                            let gathered = build_with(&b, p, x, y, soft_pext);
                            assert_eq!(gathered, want, "pext gather: {size} ({x},{y})");
                            assert_eq!(build_rows(&b, p, x, y), want, "rows: {size} ({x},{y})");
                            let shuffled = soft_shuffled(&b, p, x, y);
                            assert_eq!(shuffled, want, "bit shuffles: {size} ({x},{y})");
                            let rows = RowsOnly(&b);
                            assert_eq!(build_tables(&rows, p, x, y), want, "default window7");
                            let shuffled = soft_shuffled(&rows, p, x, y);
                            assert_eq!(shuffled, want, "default window7, shuffles: ({x},{y})");
                            let gathered = build_with(&rows, p, x, y, soft_pext);
                            assert_eq!(gathered, want, "default window7, pext: ({x},{y})");
                        }
                    }
                }
            }
        }
    }

    /// Kept views equal the point reads at every on-board focus, from both sides: after a
    /// first sync, after every play (captures included) and undo of a random game, and after
    /// a change of board size.
    #[test]
    fn kept_views_equal_point_reads() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut kept = KeptViews::new();
        let check = |kept: &mut KeptViews, b: &Board, what: &str| {
            let s = b.size() as i32;
            let with = kept.sync(b);
            for y in 0..s {
                for x in 0..s {
                    for p in [Colour::Black, Colour::White] {
                        let want = build_points(b, p, x, y);
                        assert_eq!(with.view7(p, x, y), Some(want), "{what}: ({x},{y}) {p:?}");
                        assert_eq!(build(&with, p, x, y), want, "{what}: build ({x},{y})");
                    }
                }
            }
            for (x, y) in [(-1, 0), (0, -1), (s, 0), (0, s)] {
                assert_eq!(
                    with.view7(Colour::Black, x, y),
                    None,
                    "{what}: off ({x},{y})"
                );
            }
            // The batch cut reads the kept words too (and cuts the foci off the board).
            let foci: Vec<(i32, i32)> = (-1..=s)
                .flat_map(|y| (-1..=s).map(move |x| (x, y)))
                .collect();
            for p in [Colour::Black, Colour::White] {
                let mut out = vec![[0; 3]; foci.len()];
                assert_eq!(cut_views(&with, p, &foci, &mut out), foci.len());
                for (&(x, y), got) in foci.iter().zip(&out) {
                    assert_eq!(
                        *got,
                        build_points(b, p, x, y),
                        "{what}: batch ({x},{y}) {p:?}"
                    );
                }
            }
        };
        for size in [9u8, 5, 19, 25, 19] {
            let mut b = Board::new(size).unwrap();
            check(&mut kept, &b, "empty");
            let s = size as u64;
            for m in 0..3 * s * s {
                let c = b.to_move();
                if b.play(c, next(s) as i32, next(s) as i32).is_err() {
                    continue;
                }
                if m % 7 == 0 {
                    check(&mut kept, &b, "play");
                }
                if next(4) == 0 {
                    assert!(b.undo());
                    check(&mut kept, &b, "undo");
                }
            }
            check(&mut kept, &b, "game");
        }
    }
}
