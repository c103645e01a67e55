//! Building the packed 7x7 view words of a focus point ([`crate::rom::layout`]).

use crate::board::{BoardView, Colour, Point};
use crate::rom::layout::{POINT_BITS, RING, edge_bit};

/// The edge thermometer bits of word 0 at `(x, y)` on a board of side `s`.
#[inline]
fn edges(s: i32, x: i32, y: i32) -> u64 {
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

/// The three view words at `(x, y)` seen from `persp` (friend = `persp`). Cuts the window
/// from the board's row bitboards when it has them (7 row cuts instead of 49 point reads).
#[inline]
pub fn build<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    if b.row_bits(Colour::Black, y.clamp(0, s - 1)).is_none() {
        return build_points(b, persp, x, y);
    }
    let mut rows = [[0u32; 3]; 7];
    b.window_rows(x - 3, y - 3, 7, &mut rows);
    // The perspective: friend = word 0 of the cut for Black, word 1 for White.
    let (fi, oi) = match persp {
        Colour::Black => (0, 1),
        Colour::White => (1, 0),
    };
    let mut v = [edges(s, x, y), 0, 0];
    for (k, &(dx, dy)) in RING.iter().enumerate() {
        let r = rows[(dy + 3) as usize];
        let c = (dx + 3) as u32;
        let st = if (r[fi] >> c) & 1 != 0 {
            0
        } else if (r[oi] >> c) & 1 != 0 {
            1
        } else if (r[2] >> c) & 1 != 0 {
            continue;
        } else {
            2
        };
        let (w, bit) = POINT_BITS[k][st];
        v[w as usize] |= 1u64 << bit;
    }
    v
}

/// The same words read point by point (boards without row bitboards).
pub fn build_points<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    let mut v = [edges(s, x, y), 0, 0];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

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
                for y in -1..=size as i32 {
                    for x in -1..=size as i32 {
                        for p in [Colour::Black, Colour::White] {
                            assert_eq!(
                                build(&b, p, x, y),
                                build_points(&b, p, x, y),
                                "size {size} at ({x},{y}) {p:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
