//! Packed version 4's board-aware point model. The decoder replays each line on a board anyway,
//! and joseki moves are shape moves: every candidate point gets a few features from the
//! position (its 3x3 neighbourhood and the eight points two steps away, colour-normalised to
//! the side to move; its distance to the same side's last point; its lines from the edges; captures
//! and ataris next to it), and each feature value a strength (a Bradley-Terry "gamma") learned
//! while coding: times chosen over times expected (one online minorization-maximization step
//! per coded point). Version 3's distribution is the prior the strengths multiply: a product
//! of experts, renormalised with integers by the range coder's quantization. Integer
//! arithmetic only.

use crate::board::{MAX, Replay};
use std::sync::OnceLock;

/// Feature groups: 3x3 pattern, the ring two steps out, distance to a2 (the same side's last
/// point), lines, tactics.
const G: usize = 5;
/// The first two groups are the patterns (thousands of values).
const PATTERN_GROUPS: usize = 2;
/// One candidate's feature values, one per group.
pub(super) type Features = [u16; G];

/// Coulom's distance dx + dy + max(dx, dy), capped.
const DIST_CAP: u32 = 17;
const LINE_CAP: i32 = 6;

/// 1.0 in the strengths' 16.16 fixed point.
const ONE: u32 = 1 << 16;
/// Strengths stay within 1/4096..=1024.
const GAMMA_MIN: u64 = 1 << 4;
const GAMMA_MAX: u64 = 1 << 26;
/// A prior of this many quarter virtual wins and expected wins (strength 1) per value.
const PRIOR: u64 = 3;

/// The board's points as 0 empty, 1 own, 2 the opponent's, 3 off the frame, with a margin
/// of two off-frame points: index `(y + 1) * W + x + 1` for 1-based (x, y).
const W: usize = MAX + 4;
const WI: isize = W as isize;

/// The eight neighbours' (dx, dy), in code order (2 bits each); the ring two steps out is the
/// same scaled by 2, so one symmetry table serves both.
const RING: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Every 8-point code's class under the 8 symmetries of the square, numbered densely (in
/// order of the classes' smallest codes), and the number of classes.
fn classes() -> &'static (Vec<u16>, u32) {
    static TABLE: OnceLock<(Vec<u16>, u32)> = OnceLock::new();
    TABLE.get_or_init(|| {
        let slot = |d: (isize, isize)| RING.iter().position(|&r| r == d).unwrap_or(0);
        // The 8 symmetries: (dx, dy) mirrored in x and y (bits 0, 1), then swapped (bit 2).
        let sym = |t: usize, (x, y): (isize, isize)| {
            let (x, y) = (
                if t & 1 != 0 { -x } else { x },
                if t & 2 != 0 { -y } else { y },
            );
            if t & 4 != 0 { (y, x) } else { (x, y) }
        };
        let perms: Vec<[usize; 8]> = (0..8)
            .map(|t| std::array::from_fn(|k| slot(sym(t, RING[k]))))
            .collect();
        let mut id = vec![u16::MAX; 1 << 16];
        let mut count = 0u32;
        for c in 0..1u32 << 16 {
            let min = perms
                .iter()
                .map(|p| (0..8).fold(0u32, |a, k| a | (c >> (2 * k) & 3) << (2 * p[k])))
                .min()
                .unwrap_or(c) as usize;
            if id[min] == u16::MAX {
                id[min] = count as u16;
                count += 1;
            }
            id[c as usize] = id[min];
        }
        (id, count)
    })
}

/// Each group's number of values. The last value of every group is the pass; the pattern
/// groups also have the two occupied states before it, the distance groups "no such point".
fn sizes() -> [usize; G] {
    let p = classes().1 as usize + 3;
    [
        p,
        p,
        DIST_CAP as usize + 3,
        (LINE_CAP * LINE_CAP) as usize + 1,
        17,
    ]
}

fn pass() -> Features {
    sizes().map(|k| k as u16 - 1)
}

/// Per grid index, the liberties of its group (capped at 3; 0 off the groups).
fn liberties(g: &[u8; W * W], stones: &[usize]) -> [u8; W * W] {
    let mut libs = [0u8; W * W];
    let mut seen = [0u16; W * W];
    let (mut stamp, mut group, mut stack) = (0u16, Vec::new(), Vec::new());
    for &start in stones {
        if libs[start] != 0 {
            continue;
        }
        // A new stamp per group marks its stones and its liberties once each.
        let c = g[start];
        stamp += 1;
        let mut count = 0u8;
        group.clear();
        stack.push(start);
        seen[start] = stamp;
        while let Some(i) = stack.pop() {
            group.push(i);
            for j in [i - 1, i + 1, i - W, i + W] {
                if seen[j] == stamp {
                    continue;
                }
                if g[j] == 0 {
                    seen[j] = stamp;
                    count = count.saturating_add(1);
                } else if g[j] == c {
                    seen[j] = stamp;
                    stack.push(j);
                }
            }
        }
        for &i in &group {
            libs[i] = count.clamp(1, 3);
        }
    }
    libs
}

/// The board on the grid, colours relative to `own`, and the grid indices of its stones.
fn grid(board: &Replay, own: u8) -> ([u8; W * W], Vec<usize>) {
    let size = board.size() as usize;
    let map = if own == 1 { [0, 1, 2, 3] } else { [0, 2, 1, 3] };
    let mut g = [3u8; W * W];
    let mut stones = Vec::new();
    for (y, row) in board.cells().chunks_exact(MAX).take(size).enumerate() {
        let at = (y + 2) * W + 2;
        for (x, &c) in row[..size].iter().enumerate() {
            g[at + x] = map[c as usize & 3];
            if c != 0 {
                stones.push(at + x);
            }
        }
    }
    (g, stones)
}

/// The pattern class of the eight points `scale` steps around grid index `i`.
fn pattern(g: &[u8; W * W], i: usize, scale: isize) -> u16 {
    let mut code = 0usize;
    for (k, (dx, dy)) in RING.iter().enumerate() {
        let j = (i as isize + scale * (dy * WI + dx)) as usize;
        code |= (g[j] as usize) << (2 * k);
    }
    classes().0[code]
}

/// The learned strengths, per group and value.
pub(super) struct Shape {
    /// The largest coordinate (point symbols 1 + (x-1)*n + (y-1)).
    n: usize,
    /// Every point's features on the empty board (distances left to fill in).
    base: Vec<Features>,
    wins: [Vec<u32>; G],
    /// Expected wins, 16 fractional bits.
    expected: [Vec<u64>; G],
    /// Strengths, 16.16 fixed point.
    gamma: [Vec<u32>; G],
    /// Scratch: each value's summed weight in the current decision, and which were touched.
    acc: [Vec<u64>; G],
    touched: Vec<(u8, u16)>,
}

impl Shape {
    pub(super) fn new(n: usize, board: &Replay) -> Shape {
        let (g, _) = grid(board, 1);
        let size = board.size() as i32;
        let line = |v: i32| (v.min(size + 1 - v).clamp(1, LINE_CAP) - 1) as u16;
        let mut base = vec![pass()];
        for s in 1..=n * n {
            let (x, y) = ((s - 1) / n + 1, (s - 1) % n + 1);
            let (lx, ly) = (line(x as i32), line(y as i32));
            let i = (y + 1) * W + x + 1;
            base.push([
                pattern(&g, i, 1),
                pattern(&g, i, 2),
                DIST_CAP as u16 + 1,
                lx.min(ly) * LINE_CAP as u16 + lx.max(ly),
                0,
            ]);
        }
        let sizes = sizes();
        Shape {
            n,
            base,
            wins: sizes.map(|k| vec![0; k]),
            expected: sizes.map(|k| vec![0; k]),
            gamma: sizes.map(|k| vec![ONE; k]),
            acc: sizes.map(|k| vec![0; k]),
            touched: Vec::new(),
        }
    }

    /// The features of every point symbol (0 the pass) in the position on `board` (an empty
    /// board's, `Shape::new`'s, plus its stones), with `own` (1 or 2) to move; a2 is the point
    /// before the last on the line (0: none). The distance to the last point is left to
    /// version 3's relative models (as a feature here it measured worse).
    pub(super) fn features(&self, board: &Replay, own: u8, a2: usize) -> Vec<Features> {
        let n = self.n;
        let (g, stones) = grid(board, own);
        let mut out = self.base.clone();
        if a2 != 0 {
            // Coulom's distance to a2 (the base holds "no such point").
            let (ax, ay) = ((a2 - 1) / n, (a2 - 1) % n);
            for (x, col) in out[1..].chunks_exact_mut(n).enumerate() {
                let dx = x.abs_diff(ax) as u32;
                for (y, f) in col.iter_mut().enumerate() {
                    let dy = y.abs_diff(ay) as u32;
                    f[2] = (dx + dy + dx.max(dy)).min(DIST_CAP) as u16;
                }
            }
        }
        if stones.is_empty() {
            return out;
        }
        let libs = liberties(&g, &stones);
        let occupied = classes().1;
        // Only the points up to two steps from a stone differ from the empty board.
        let mut near = [false; W * W];
        for &st in &stones {
            for dy in -2..=2 {
                for dx in -2..=2 {
                    near[(st as isize + dy * WI + dx) as usize] = true;
                }
            }
        }
        for y in 1..=n {
            for x in 1..=n {
                let i = (y + 1) * W + x + 1;
                if !near[i] {
                    continue;
                }
                let f = &mut out[1 + (x - 1) * n + (y - 1)];
                if g[i] != 0 {
                    f[0] = occupied as u16 + (g[i] == 2) as u16;
                    f[1] = f[0];
                    continue;
                }
                f[0] = pattern(&g, i, 1);
                f[1] = pattern(&g, i, 2);
                let mut t = 0u16;
                for k in [i - 1, i + 1, i - W, i + W] {
                    t |= match (g[k], libs[k]) {
                        (2, 1) => 1,
                        (2, 2) => 2,
                        (1, 1) => 4,
                        (1, 2) => 8,
                        _ => 0,
                    };
                }
                f[4] = t;
            }
        }
        out
    }

    /// Multiply version 3's weights `w` (real frame) by each candidate's strengths, and sum
    /// each feature value's weight for [`Shape::update`].
    pub(super) fn apply(&mut self, w: &mut [u64], f: &[Features]) {
        // Version 3's weights scaled to a total below 2^24, each at least 1.
        let total: u128 = w.iter().map(|&v| v as u128).sum();
        let shift = (128 - total.leading_zeros()).saturating_sub(24);
        // Each group's tables as local slices (the compiler cannot tell they don't alias).
        let gamma: [&[u32]; G] = std::array::from_fn(|g| &self.gamma[g][..]);
        let [a0, a1, a2, a3, a4] = &mut self.acc;
        let (a0, a1, small) = (
            &mut a0[..],
            &mut a1[..],
            [&mut a2[..], &mut a3[..], &mut a4[..]],
        );
        let [s2, s3, s4] = small;
        for (v, fs) in w.iter_mut().zip(f) {
            let mut p = gamma[0][fs[0] as usize] as u64;
            for g in 1..G {
                p = ((p * gamma[g][fs[g] as usize] as u64) >> 16).min(1 << 38);
            }
            let v = {
                *v = (((*v >> shift).max(1) * p) >> 16).max(1);
                *v
            };
            // The pattern groups are large: note which of their values are in play.
            for (g, a) in [(0, &mut *a0), (1, &mut *a1)] {
                let a = &mut a[fs[g] as usize];
                if *a == 0 {
                    self.touched.push((g as u8, fs[g]));
                }
                *a += v;
            }
            s2[fs[2] as usize] += v;
            s3[fs[3] as usize] += v;
            s4[fs[4] as usize] += v;
        }
    }

    /// After coding `chosen` with the weights `w` that [`Shape::apply`] gave: one MM step.
    pub(super) fn update(&mut self, w: &[u64], f: &[Features], chosen: usize) {
        let total: u64 = w.iter().sum();
        // Fractions of the total in 32-bit fixed point: scale both below 2^32 first.
        let shift = (64 - total.leading_zeros()).saturating_sub(32);
        let z = (total >> shift).max(1);
        for (g, &v) in f[chosen].iter().enumerate() {
            self.wins[g][v as usize] += 1;
        }
        let mut step = |g: usize, v: usize| {
            let a = std::mem::take(&mut self.acc[g][v]);
            if a == 0 {
                return;
            }
            let frac = ((a >> shift) << 32) / z;
            self.expected[g][v] += frac / self.gamma[g][v] as u64;
            let num = ((self.wins[g][v] as u64) << 32) + (PRIOR << 30);
            let den = self.expected[g][v] + (PRIOR << 14);
            self.gamma[g][v] = (num / den).clamp(GAMMA_MIN, GAMMA_MAX) as u32;
        };
        let touched = std::mem::take(&mut self.touched);
        for &(g, v) in &touched {
            step(g as usize, v as usize);
        }
        for (g, &k) in sizes().iter().enumerate().skip(PATTERN_GROUPS) {
            for v in 0..k {
                step(g, v);
            }
        }
        self.touched = touched;
        self.touched.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(stones: &[(u8, u8, u8)]) -> Replay {
        let mut b = Replay::new(19);
        for &(x, y, c) in stones {
            b.play(x, y, c);
        }
        b
    }

    fn at(n: usize, x: usize, y: usize) -> usize {
        1 + (x - 1) * n + (y - 1)
    }

    #[test]
    fn patterns_are_classes_under_the_squares_symmetries() {
        let (id, count) = classes();
        // 4^8 codes; fewer than a sixth of them remain once rotations and reflections meet.
        assert!(
            (65536 / 8..65536 / 6).contains(&(*count as usize)),
            "{count}"
        );
        // A stone left of the point and the same stone above it are one class; left and
        // diagonal are not.
        let code = |k: usize, v: usize| v << (2 * k);
        assert_eq!(id[code(3, 1)], id[code(1, 1)]);
        assert_ne!(id[code(3, 1)], id[code(0, 1)]);
        assert_ne!(
            id[code(3, 1)],
            id[code(3, 2)],
            "own and opponent stones differ"
        );
    }

    #[test]
    fn features_are_relative_to_the_side_to_move() {
        let n = 19;
        let shape = Shape::new(n, &Replay::new(19));
        // The same shape with colours swapped, each seen by its own side to move.
        let a = board(&[(4, 4, 1), (3, 6, 2), (6, 3, 2)]);
        let b = board(&[(4, 4, 2), (3, 6, 1), (6, 3, 1)]);
        let (fa, fb) = (shape.features(&a, 1, 0), shape.features(&b, 2, 0));
        assert_eq!(fa, fb);
        // Next to a stone the pattern differs from the empty board's; the stone's own point
        // is occupied (own), the opponent's too (the other state); far away nothing changed.
        let empty = shape.features(&Replay::new(19), 1, 0);
        assert_ne!(fa[at(n, 4, 5)][0], empty[at(n, 4, 5)][0]);
        assert_eq!(fa[at(n, 4, 4)][0], classes().1 as u16);
        assert_eq!(fa[at(n, 3, 6)][0], classes().1 as u16 + 1);
        assert_eq!(fa[at(n, 15, 15)], empty[at(n, 15, 15)]);
        assert_eq!(fa[0], pass(), "the pass has its own values");
    }

    #[test]
    fn tactics_see_captures_and_ataris() {
        let n = 19;
        let shape = Shape::new(n, &Replay::new(19));
        // A lone opponent stone on the edge at (1, 2) with (1, 1) and (2, 2) own: its last
        // liberty (1, 3) captures.
        let b = board(&[(1, 1, 1), (2, 2, 1), (1, 2, 2)]);
        let f = shape.features(&b, 1, 0);
        assert_eq!(f[at(n, 1, 3)][4] & 1, 1, "capture");
        // The same point seen by the opponent saves its stone in atari.
        let f = shape.features(&b, 2, 0);
        assert_eq!(f[at(n, 1, 3)][4] & 4, 4, "extend from atari");
        // The opponent's corner stone at (1, 1) has one liberty left, (1, 2): a capture for
        // the side at (2, 1), whose own stone keeps two liberties; for the other side, (1, 2)
        // extends from atari and (2, 2) is an atari on (2, 1).
        let b = board(&[(1, 1, 2), (2, 1, 1)]);
        let f = shape.features(&b, 1, 0);
        assert_eq!(f[at(n, 1, 2)][4] & 1, 1, "capture");
        assert_eq!(f[at(n, 2, 2)][4], 8, "own stone with two liberties");
        let f = shape.features(&b, 2, 0);
        assert_eq!(f[at(n, 1, 2)][4] & 4, 4, "extend from atari");
        assert_eq!(f[at(n, 2, 2)][4], 2, "atari");
        assert_eq!(f[at(n, 9, 9)][4], 0, "nothing next to it");
    }

    #[test]
    fn strengths_learn_what_is_chosen() {
        let n = 19;
        let mut shape = Shape::new(n, &Replay::new(19));
        let b = board(&[(4, 4, 2)]);
        let f = shape.features(&b, 1, 0);
        // Always answering the contact point (4, 5) under a flat prior makes it likelier.
        let chosen = at(n, 4, 5);
        let mut before = vec![1u64 << 20; f.len()];
        shape.apply(&mut before, &f);
        for _ in 0..20 {
            let mut w = vec![1u64 << 20; f.len()];
            shape.apply(&mut w, &f);
            shape.update(&w, &f, chosen);
        }
        let mut after = vec![1u64 << 20; f.len()];
        shape.apply(&mut after, &f);
        let share = |w: &[u64]| w[chosen] as f64 / w.iter().sum::<u64>() as f64;
        assert!(
            share(&after) > 10.0 * share(&before),
            "{} {}",
            share(&before),
            share(&after)
        );
    }
}
