//! Ring order over any field: the canonical numbering of offsets that compact pattern records
//! use for their cells. Offsets are sorted by Chebyshev ring, then Manhattan distance, then
//! `dy`, then `dx` — the order of the packed masks' ring (`rom/layout.rs`; the 7x7 window of the packed
//! masks) extended to every radius, and the order the compiler lists a pattern's cells in, so a
//! record's cells need no positions of their own when dense and small gaps when sparse.

/// Largest offset a compact record can name (the ROM's offset limit: fields up to 49x49
/// positions are numbered, 25x25 are used).
pub const MAX_RADIUS: i32 = 24;

/// Number of positions up to and including ring `r`.
pub const fn positions_within(r: i32) -> u32 {
    ((2 * r + 1) * (2 * r + 1)) as u32
}

/// The points of ring `r` at Manhattan distance `r + s` (0 <= s <= r), in `(dy, dx)` order;
/// returns how many (4 or 8; 1 for the focus).
fn group(r: i32, s: i32, out: &mut [(i32, i32); 8]) -> usize {
    if r == 0 {
        out[0] = (0, 0);
        return 1;
    }
    // |dx| = r and |dy| = s, or |dy| = r and |dx| = s.
    let mut n = 0;
    let mut push = |p: (i32, i32)| {
        if !out[..n].contains(&p) {
            out[n] = p;
            n += 1;
        }
    };
    for (ax, ay) in [(r, s), (s, r)] {
        for sx in [-1, 1] {
            for sy in [-1, 1] {
                push((sx * ax, sy * ay));
            }
        }
    }
    let pts = &mut out[..n];
    // insertion sort by (dy, dx): at most 8 points
    for i in 1..pts.len() {
        let mut j = i;
        while j > 0 && (pts[j].1, pts[j].0) < (pts[j - 1].1, pts[j - 1].0) {
            pts.swap(j, j - 1);
            j -= 1;
        }
    }
    n
}

/// Ring-order index of `(dx, dy)`; `None` beyond [`MAX_RADIUS`].
pub fn index_of(dx: i32, dy: i32) -> Option<u32> {
    let r = dx.abs().max(dy.abs());
    if r > MAX_RADIUS {
        return None;
    }
    let mut i = if r == 0 { 0 } else { positions_within(r - 1) };
    let s_of = dx.abs() + dy.abs() - r;
    let mut buf = [(0, 0); 8];
    for s in 0..=r {
        let n = group(r, s, &mut buf);
        if s == s_of {
            let k = buf[..n].iter().position(|&p| p == (dx, dy))?;
            return Some(i + k as u32);
        }
        i += n as u32;
    }
    None
}

/// The offset with ring-order index `i`; `None` beyond [`MAX_RADIUS`].
pub fn point_at(i: u32) -> Option<(i32, i32)> {
    if i >= positions_within(MAX_RADIUS) {
        return None;
    }
    let mut r = 0;
    while positions_within(r) <= i {
        r += 1;
    }
    let mut k = i - if r == 0 { 0 } else { positions_within(r - 1) };
    let mut buf = [(0, 0); 8];
    for s in 0..=r {
        let n = group(r, s, &mut buf) as u32;
        if k < n {
            return Some(buf[k as usize]);
        }
        k -= n;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extends_the_packed_window_order() {
        for (k, &(dx, dy)) in crate::rom::layout::RING.iter().enumerate() {
            assert_eq!(index_of(dx as i32, dy as i32), Some(k as u32));
            assert_eq!(point_at(k as u32), Some((dx as i32, dy as i32)));
        }
    }

    #[test]
    fn is_the_sorted_order_at_every_radius() {
        // Brute force: sort the whole square by (ring, manhattan, dy, dx).
        let r = 9;
        let mut pts = [(0i32, 0i32); 19 * 19];
        let mut n = 0;
        for dy in -r..=r {
            for dx in -r..=r {
                pts[n] = (dx, dy);
                n += 1;
            }
        }
        let key = |&(x, y): &(i32, i32)| (x.abs().max(y.abs()), x.abs() + y.abs(), y, x);
        pts.sort_by_key(key);
        for (i, &(dx, dy)) in pts.iter().enumerate() {
            assert_eq!(index_of(dx, dy), Some(i as u32), "{dx},{dy}");
            assert_eq!(point_at(i as u32), Some((dx, dy)));
        }
        assert_eq!(index_of(25, 0), None);
        assert_eq!(point_at(positions_within(MAX_RADIUS)), None);
        assert_eq!(point_at(positions_within(MAX_RADIUS) - 1), Some((24, 24)));
    }
}
