//! Building the packed 7x7 view words of a focus point ([`crate::rom::layout`]).

use crate::board::{BoardView, Colour, Point};
use crate::rom::layout::{POINT_BITS, RING, edge_bit};

/// The three view words at `(x, y)` seen from `persp` (friend = `persp`).
#[inline]
pub fn build<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> [u64; 3] {
    let s = b.size() as i32;
    let mut v = [0u64; 3];
    for r in 1..=3 {
        if y - r < 0 {
            v[0] |= 1 << edge_bit(0, r as u32);
        }
        if x + r >= s {
            v[0] |= 1 << edge_bit(1, r as u32);
        }
        if y + r >= s {
            v[0] |= 1 << edge_bit(2, r as u32);
        }
        if x - r < 0 {
            v[0] |= 1 << edge_bit(3, r as u32);
        }
    }
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
