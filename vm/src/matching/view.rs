//! Building the packed 7x7 view words of a focus point ([`crate::rom::layout`]).

use crate::board::{BoardView, Colour, Point};
use crate::rom::layout::{POINT_BITS, RING, WORD_BASE, WORD_FIRST, WORD_POINTS, edge_bit};

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

/// The three view words from the ring-order planes of friend, foe and empty points.
#[inline]
fn pack(edges: u64, f: u64, o: u64, e: u64) -> [u64; 3] {
    let mut v = [edges, 0, 0];
    for (w, word) in v.iter_mut().enumerate() {
        let (first, n) = (WORD_FIRST[w] as u32, WORD_POINTS[w] as u32);
        let m = (1u64 << n) - 1;
        let base = WORD_BASE[w];
        *word |= ((f >> first) & m) << base
            | ((o >> first) & m) << (base + n)
            | ((e >> first) & m) << (base + 2 * n);
    }
    v
}

/// `LINE_RING[0][m]`: the ring-order bits of the window columns in `m` (bit `dx + 3`);
/// `LINE_RING[1][m]`: of the window rows in `m` (bit `dy + 3`). The off-board points of a
/// window are one lookup in each, so the empty plane needs no per-row work.
static LINE_RING: [[u64; 128]; 2] = line_ring();

const fn line_ring() -> [[u64; 128]; 2] {
    let mut t = [[0u64; 128]; 2];
    let mut m = 0;
    while m < 128 {
        let mut k = 0;
        while k < 49 {
            let (dx, dy) = RING[k];
            if m >> (dx + 3) & 1 != 0 {
                t[0][m] |= 1 << k;
            }
            if m >> (dy + 3) & 1 != 0 {
                t[1][m] |= 1 << k;
            }
            k += 1;
        }
        m += 1;
    }
    t
}

/// Bit `j` (0..7): line `c - 3 + j` of a board of side `s` is on the board.
#[inline]
fn on_lines(s: i32, c: i32) -> usize {
    let full = (1u64 << s.clamp(0, 32)) - 1;
    let shift = 3 - c;
    let v = if shift >= 0 {
        full << shift.min(63)
    } else {
        full >> (-shift).min(63)
    };
    (v & 0x7F) as usize
}

/// The three view words at `(x, y)` seen from `persp` (friend = `persp`), by the view cut
/// the current instruction-set path takes ([`super::simd`]): `build_tables`, or the BMI2
/// `pext` gather.
#[inline]
pub fn build<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    if super::simd::pext() {
        return super::simd::view_pext(b, persp, x, y);
    }
    build_tables(b, persp, x, y)
}

/// The view words cut from the board's row bitboards when it has them (docs/performance.md,
/// "One match call and the view") instead of 49 point reads: per window row, one shift per colour and one table
/// lookup per colour; the empty plane is what is neither a stone nor off the board (two more
/// lookups).
#[inline]
pub fn build_tables<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    if inside(s, x, y)
        && let Some(v) = interior(b, persp, x, y, |i, row| RING_ROWS[i][row as usize], |p| p)
    {
        return v;
    }
    if b.row_bits(Colour::Black, y.clamp(0, s - 1)).is_none() {
        return build_points(b, persp, x, y);
    }
    if (x as u32) >= s as u32 {
        return build_rows(b, persp, x, y);
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, t) in RING_ROWS.iter().enumerate() {
        let row = y - 3 + i as i32;
        if (row as u32) < s as u32 {
            // Column x - 3 + j lands on bit j (x >= 0, so the shift is at most 3 left).
            let cut = |bits: Option<u32>| ((bits.unwrap_or(0) as u64) << 3 >> x) as usize & 0x7F;
            black |= t[cut(b.row_bits(Colour::Black, row))];
            white |= t[cut(b.row_bits(Colour::White, row))];
        }
    }
    finish(s, x, y, persp, black, white)
}

/// Whether the whole 7x7 window of `(x, y)` lies on a board of side `s` (most foci of a
/// 19x19 board: no off-board points, no edge bits).
#[inline(always)]
fn inside(s: i32, x: i32, y: i32) -> bool {
    ((x - 3) as u32) <= (s - 7) as u32 && ((y - 3) as u32) <= (s - 7) as u32 && s >= 7
}

/// The view of a focus whose window is [`inside`] the board: one shift per row and colour, no
/// bounds or edge work. `row(i, bits)` places window row `i`'s column bits (west first) in a
/// plane, `order` turns a plane into ring order. `None` when the board has no row bitboards.
#[inline(always)]
fn interior<B: BoardView + ?Sized>(
    b: &B,
    persp: Colour,
    x: i32,
    y: i32,
    row: impl Fn(usize, u32) -> u64,
    order: impl Fn(u64) -> u64,
) -> Option<[u64; 3]> {
    let (fc, oc) = match persp {
        Colour::Black => (Colour::Black, Colour::White),
        Colour::White => (Colour::White, Colour::Black),
    };
    b.row_bits(fc, y)?;
    let sh = (x - 3) as u32;
    let (mut f, mut o) = (0u64, 0u64);
    for i in 0..7 {
        let r = y - 3 + i as i32;
        f |= row(i, b.row_bits(fc, r).unwrap_or(0) >> sh & 0x7F);
        o |= row(i, b.row_bits(oc, r).unwrap_or(0) >> sh & 0x7F);
    }
    let (f, o) = (order(f), order(o));
    Some(pack(0, f, o, !(f | o) & ((1u64 << 49) - 1)))
}

/// The view words from the ring-order planes of black and white stones.
#[inline(always)]
fn finish(s: i32, x: i32, y: i32, persp: Colour, black: u64, white: u64) -> [u64; 3] {
    let off = LINE_RING[0][!on_lines(s, x) & 0x7F] | LINE_RING[1][!on_lines(s, y) & 0x7F];
    let empty = !(black | white | off) & ((1u64 << 49) - 1);
    let (f, o) = match persp {
        Colour::Black => (black, white),
        Colour::White => (white, black),
    };
    pack(edges(s, x, y), f, o, empty)
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
    let s = b.size() as i32;
    let ring = |rm: u64| {
        RING_RUNS
            .iter()
            .fold(0u64, |acc, &(mask, first)| acc | pext(rm, mask) << first)
    };
    if inside(s, x, y)
        && let Some(v) = interior(b, persp, x, y, |i, r| (r as u64) << (7 * i), ring)
    {
        return v;
    }
    if b.row_bits(Colour::Black, y.clamp(0, s - 1)).is_none() {
        return build_points(b, persp, x, y);
    }
    if (x as u32) >= s as u32 {
        return build_rows(b, persp, x, y);
    }
    let (mut black, mut white) = (0u64, 0u64);
    for i in 0..7 {
        let row = y - 3 + i;
        if (row as u32) < s as u32 {
            let cut = |bits: Option<u32>| ((bits.unwrap_or(0) as u64) << 3 >> x) & 0x7F;
            black |= cut(b.row_bits(Colour::Black, row)) << (7 * i);
            white |= cut(b.row_bits(Colour::White, row)) << (7 * i);
        }
    }
    finish(s, x, y, persp, ring(black), ring(white))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

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
                for y in -4..=size as i32 + 3 {
                    for x in -4..=size as i32 + 3 {
                        for p in [Colour::Black, Colour::White] {
                            let want = build_points(&b, p, x, y);
                            assert_eq!(build(&b, p, x, y), want, "size {size} at ({x},{y}) {p:?}");
                            assert_eq!(build_tables(&b, p, x, y), want, "tables: ({x},{y})");
                            let gathered = build_with(&b, p, x, y, soft_pext);
                            assert_eq!(gathered, want, "pext gather: {size} ({x},{y})");
                            assert_eq!(build_rows(&b, p, x, y), want, "rows: {size} ({x},{y})");
                        }
                    }
                }
            }
        }
    }
}
