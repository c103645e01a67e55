//! The packed mask bit layout (format v1), shared by the writer (which packs pattern masks)
//! and the kernel (which builds board views): defined once so both agree by construction.
//!
//! Fields up to 7x7 are matched against a 7x7 window of the board around the focus, held in
//! three 64-bit words. A pattern stores *absence* bits (the states it forbids); a variant
//! matches when `view & mask == 0` in every word.
//!
//! * Edge thermometer, 12 bits in word 0 (bits 0..12): bit `3*dir + (r-1)` is set in a view
//!   when the point `r` steps from the focus in direction `dir` (N, E, S, W) is off the board.
//!   A point `(dx, dy)` is off the board exactly when one of the thermometer bits for
//!   `|dx|` east/west or `|dy|` north/south is set, so "this point must be on the board" is
//!   an AND of absence bits.
//! * Points in ring order: the focus, then Chebyshev ring 1, 2, 3; within a ring orthogonal
//!   points first (by Manhattan distance), then row-major. Word 0 holds the first 17 points
//!   (focus, ring 1, the 8 nearest of ring 2), word 1 the next 21, word 2 the last 11. Inside a
//!   word the bits are grouped: all friend bits, then all foe bits, then all empty bits.
//!   An off-board point sets none of its three bits.
//!
//! Word 0 therefore rejects most patterns on edge layout and the innermost points, the cheapest
//! and most selective test, so the kernels read it first and most entries stop there.

/// Points of the 7x7 window in ring order.
pub const RING: [(i8, i8); 49] = ring_order();
/// Points per word.
pub const WORD_POINTS: [usize; 3] = [17, 21, 11];
/// First point index of each word.
pub const WORD_FIRST: [usize; 3] = [0, 17, 38];
/// Bit where the point slots of each word start (word 0 begins with the thermometer).
pub const WORD_BASE: [u32; 3] = [12, 0, 0];
/// Largest |dx| or |dy| of the packed window.
#[cfg(feature = "alloc")]
pub const PACKED_RADIUS: i32 = 3;

const fn ring_order() -> [(i8, i8); 49] {
    // Selection sort by (chebyshev, manhattan, dy, dx); const-evaluable.
    let mut pts = [(0i8, 0i8); 49];
    let mut n = 0;
    let mut dy = -3;
    while dy <= 3 {
        let mut dx = -3;
        while dx <= 3 {
            pts[n] = (dx as i8, dy as i8);
            n += 1;
            dx += 1;
        }
        dy += 1;
    }
    let mut i = 0;
    while i < 49 {
        let mut best = i;
        let mut j = i + 1;
        while j < 49 {
            if key(pts[j]) < key(pts[best]) {
                best = j;
            }
            j += 1;
        }
        let t = pts[i];
        pts[i] = pts[best];
        pts[best] = t;
        i += 1;
    }
    pts
}

const fn key(p: (i8, i8)) -> i32 {
    let ax = if p.0 < 0 { -p.0 } else { p.0 } as i32;
    let ay = if p.1 < 0 { -p.1 } else { p.1 } as i32;
    let cheb = if ax > ay { ax } else { ay };
    ((cheb * 16 + (ax + ay)) * 16 + (p.1 as i32 + 8)) * 16 + (p.0 as i32 + 8)
}

/// Index of `(dx, dy)` in [`RING`], `None` outside the 7x7 window (one table lookup: the
/// writer packs every cell of every variant through it).
pub const fn ring_index(dx: i32, dy: i32) -> Option<usize> {
    if dx < -3 || dx > 3 || dy < -3 || dy > 3 {
        return None;
    }
    Some(RING_INDEX[((dy + 3) * 7 + dx + 3) as usize] as usize)
}

/// [`RING`] inverted: the ring index of each window point, row-major from `(-3, -3)`.
const RING_INDEX: [u8; 49] = ring_inverse();

const fn ring_inverse() -> [u8; 49] {
    let mut t = [0u8; 49];
    let mut k = 0;
    while k < 49 {
        let (dx, dy) = RING[k];
        t[((dy as i32 + 3) * 7 + dx as i32 + 3) as usize] = k as u8;
        k += 1;
    }
    t
}

/// `(word, bit)` of state `s` (0 friend, 1 foe, 2 empty) of the point with ring index `k`.
pub const fn point_bit(k: usize, s: u32) -> (usize, u32) {
    let w = if k < 17 {
        0
    } else if k < 38 {
        1
    } else {
        2
    };
    let slot = (k - WORD_FIRST[w]) as u32;
    (w, WORD_BASE[w] + s * WORD_POINTS[w] as u32 + slot)
}

/// Bit (in word 0) of "the point `r` (1..=3) steps in direction `dir` (0 N, 1 E, 2 S, 3 W)
/// is off the board".
pub const fn edge_bit(dir: u32, r: u32) -> u32 {
    dir * 3 + (r - 1)
}

/// Per ring index: `(word, bit)` for friend, foe, empty.
pub const POINT_BITS: [[(u8, u8); 3]; 49] = point_bits();

const fn point_bits() -> [[(u8, u8); 3]; 49] {
    let mut t = [[(0u8, 0u8); 3]; 49];
    let mut k = 0;
    while k < 49 {
        let mut s = 0;
        while s < 3 {
            let (w, b) = point_bit(k, s as u32);
            t[k][s] = (w as u8, b as u8);
            s += 1;
        }
        k += 1;
    }
    t
}

/// Absence mask of one cell: `allowed` is the set of allowed states (bit 0 friend, 1 foe,
/// 2 empty, 3 off). ORed into `words`. Cells outside the window are ignored (the writer only
/// packs classes whose cells all fit).
pub fn add_cell(words: &mut [u64; 3], dx: i32, dy: i32, allowed: u8) {
    let Some(k) = ring_index(dx, dy) else { return };
    let forbidden = !allowed & 0xF;
    for s in 0..3u32 {
        if forbidden & (1 << s) != 0 {
            let (w, b) = point_bit(k, s);
            words[w] |= 1u64 << b;
        }
    }
    if forbidden & 8 != 0 {
        // "must be on the board": forbid the thermometer bits that would put it off.
        if dy < 0 {
            words[0] |= 1 << edge_bit(0, (-dy) as u32);
        }
        if dx > 0 {
            words[0] |= 1 << edge_bit(1, dx as u32);
        }
        if dy > 0 {
            words[0] |= 1 << edge_bit(2, dy as u32);
        }
        if dx < 0 {
            words[0] |= 1 << edge_bit(3, (-dx) as u32);
        }
    }
}

/// The reading side of the writer's packing (`add_cell`): the allowed states (bit 0 friend,
/// 1 foe, 2 empty, 3 off) each window point of an entry's absence masks admits, in ring order, points that admit
/// every state left out. A point admits "off" unless every thermometer bit that could put it
/// off the board is set; the focus is always on the board.
pub fn mask_cells(words: &[u64; 3]) -> impl Iterator<Item = ((i32, i32), u8)> + '_ {
    RING.iter().enumerate().filter_map(move |(k, &(dx, dy))| {
        let (dx, dy) = (dx as i32, dy as i32);
        let mut allowed = 15u8;
        for (s, &(w, b)) in POINT_BITS[k].iter().enumerate() {
            if words[w as usize] & (1 << b) != 0 {
                allowed &= !(1 << s);
            }
        }
        let needed = [
            (dy < 0).then(|| edge_bit(0, (-dy) as u32)),
            (dx > 0).then(|| edge_bit(1, dx as u32)),
            (dy > 0).then(|| edge_bit(2, dy as u32)),
            (dx < 0).then(|| edge_bit(3, (-dx) as u32)),
        ];
        let mut needed = needed.iter().flatten().peekable();
        if needed.peek().is_some() && needed.all(|&b| words[0] & (1 << b) != 0) {
            allowed &= !8;
        }
        if k == 0 {
            allowed &= 7;
            if allowed == 7 {
                allowed = 15;
            }
        }
        (allowed != 15).then_some(((dx, dy), allowed))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell `add_cell` packs reads back from the masks (`mask_cells`), so the writer's
    /// packing and the disassembler's reading of it cannot drift.
    #[test]
    fn mask_cells_reads_back_add_cell() {
        for &(dx, dy) in RING.iter() {
            let (dx, dy) = (dx as i32, dy as i32);
            for allowed in 1..15u8 {
                let mut words = [0u64; 3];
                add_cell(&mut words, dx, dy, allowed);
                let want = if (dx, dy) == (0, 0) {
                    // The focus is always on the board: "off" is implied.
                    (allowed & 7 != 7).then_some(allowed & 7)
                } else {
                    Some(allowed)
                };
                let mut own = None;
                for (p, a) in mask_cells(&words) {
                    if p == (dx, dy) {
                        own = Some(a);
                    } else {
                        // The edge bits are shared along a side: "on the board" here also
                        // puts the points between it and the focus on the board.
                        assert_eq!(a, 7, "({dx},{dy}) {allowed:04b}: {p:?}");
                    }
                }
                assert_eq!(own, want, "({dx},{dy}) {allowed:04b}");
            }
        }
    }

    #[test]
    fn ring_is_a_permutation_with_focus_first() {
        assert_eq!(RING[0], (0, 0));
        assert_eq!(&RING[1..5], &[(0, -1), (-1, 0), (1, 0), (0, 1)]);
        let mut seen = [false; 49];
        for (i, p) in RING.iter().enumerate() {
            let k = ring_index(p.0 as i32, p.1 as i32).unwrap();
            assert_eq!(k, i);
            assert!(!seen[k]);
            seen[k] = true;
        }
        // ring 1 fully in word 0, ring 3 fully outside it
        for (k, &(dx, dy)) in RING.iter().enumerate() {
            let cheb = dx.abs().max(dy.abs());
            if cheb <= 1 {
                assert!(k < 17);
            }
            if cheb == 3 {
                assert!(k >= 25);
            }
        }
    }

    #[test]
    fn bits_are_distinct_and_fit() {
        let mut used = [0u64; 3];
        used[0] = 0xFFF;
        for k in 0..49 {
            for s in 0..3 {
                let (w, b) = point_bit(k, s);
                assert!(b < 64);
                assert_eq!(used[w] & (1 << b), 0, "bit reused");
                used[w] |= 1 << b;
            }
        }
    }
}
