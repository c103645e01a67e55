//! Orientations (the 8 symmetries of the square) and point offsets.
//!
//! Shared by the compiler (which precomputes all 8 variants of every pattern) and the VM
//! (which maps results and tests back to board coordinates), so both agree by construction.
//!
//! Offsets are `(dx, dy)` relative to the focus with `dx` growing east (right) and `dy` growing
//! south (down), as a diagram is drawn. Orientation `t` (0..8) first mirrors east-west when
//! `t & 4` is set, then rotates clockwise by `(t & 3)` quarter turns. Orientation 0 is the
//! pattern as drawn. The "up" direction of a variant is where the drawn north ends up.

/// One of the 8 symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation(u8);

impl Orientation {
    /// All 8 orientations in index order.
    pub const ALL: [Orientation; 8] = [
        Orientation(0),
        Orientation(1),
        Orientation(2),
        Orientation(3),
        Orientation(4),
        Orientation(5),
        Orientation(6),
        Orientation(7),
    ];
    /// The drawn orientation (no turn, no mirror).
    pub const IDENTITY: Orientation = Orientation(0);

    /// `None` unless `index < 8`.
    pub const fn new(index: u8) -> Option<Orientation> {
        if index < 8 {
            Some(Orientation(index))
        } else {
            None
        }
    }
    /// The orientation's number, 0..8 (mirror when `& 4`, then `& 3` quarter turns clockwise).
    pub const fn index(self) -> u8 {
        self.0
    }
    /// Whether the transform includes a mirror.
    pub const fn is_mirrored(self) -> bool {
        self.0 & 4 != 0
    }

    /// Apply to an offset.
    #[inline]
    pub const fn apply(self, dx: i32, dy: i32) -> (i32, i32) {
        let (mut x, mut y) = if self.0 & 4 != 0 { (-dx, dy) } else { (dx, dy) };
        let mut r = self.0 & 3;
        while r > 0 {
            // clockwise quarter turn with y pointing down: north (0,-1) -> east (1,0)
            let nx = -y;
            let ny = x;
            x = nx;
            y = ny;
            r -= 1;
        }
        (x, y)
    }

    /// The inverse transform: `t.inverse().apply(t.apply(p)) == p`.
    pub const fn inverse(self) -> Orientation {
        if self.0 & 4 != 0 {
            // mirrors composed with rotations are involutions
            self
        } else {
            Orientation((4 - (self.0 & 3)) & 3)
        }
    }

    /// `self` after `first`: `(self.compose(first)).apply(p) == self.apply(first.apply(p))`.
    pub fn compose(self, first: Orientation) -> Orientation {
        // Small group: find it by probing two independent vectors.
        let a = self.apply_pair(first, 1, 0);
        let b = self.apply_pair(first, 0, 1);
        let mut i = 0;
        while i < 8 {
            let t = Orientation(i);
            if t.apply(1, 0) == a && t.apply(0, 1) == b {
                return t;
            }
            i += 1;
        }
        unreachable!()
    }

    fn apply_pair(self, first: Orientation, dx: i32, dy: i32) -> (i32, i32) {
        let (x, y) = first.apply(dx, dy);
        self.apply(x, y)
    }

    /// Where the drawn north `(0, -1)` points after the transform.
    pub const fn up(self) -> (i32, i32) {
        self.apply(0, -1)
    }
}

/// The four orthogonal neighbour directions, in the order N, E, S, W.
pub const DIRECTIONS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_distinct_transforms() {
        let mut seen = [(0, 0, 0, 0); 8];
        for (i, t) in Orientation::ALL.iter().enumerate() {
            let a = t.apply(1, 0);
            let b = t.apply(0, 1);
            seen[i] = (a.0, a.1, b.0, b.1);
        }
        for i in 0..8 {
            for j in 0..i {
                assert_ne!(seen[i], seen[j], "orientations {i} and {j} coincide");
            }
        }
    }

    #[test]
    fn inverse_and_compose() {
        for t in Orientation::ALL {
            for (dx, dy) in [(1, 2), (-3, 1), (0, -1)] {
                let (x, y) = t.apply(dx, dy);
                assert_eq!(t.inverse().apply(x, y), (dx, dy));
                for u in Orientation::ALL {
                    assert_eq!(u.compose(t).apply(dx, dy), u.apply(x, y));
                }
            }
        }
    }

    #[test]
    fn rotation_is_clockwise() {
        assert_eq!(Orientation(1).up(), (1, 0));
        assert_eq!(Orientation(2).up(), (0, 1));
        assert_eq!(Orientation(4).apply(1, 0), (-1, 0));
    }
}
