//! A tiny replay board in the corner frame, only to recognise positions (transpositions) and
//! diagonal symmetry while building the DAG. Stones are relative colours (1 = the corner's first
//! mover, 2 = the other side); captures are applied so that different orders that capture the
//! same stones meet.
//!
//! Why not lens-vm's `board::Board` (captures and a Zobrist hash too): that board plays a game,
//! this one replays what a book records. The book's lines have colour repeats (the other side's
//! tenuki unrecorded), so an immediate ko recapture or a suicide in a line is data, not an
//! error: this board takes every move (a suicide removes its group) where lens-vm's rejects
//! them; it ignores points off the frame; and it is 640 bytes, cloned at every SGF node by the
//! import's cursors, where lens-vm's carries a 56 KB undo history. Its hash keys only stones
//! (the position key adds the counts and the side that moved last).

pub(crate) const MAX: usize = 25;

#[derive(Clone)]
pub(crate) struct Replay {
    size: u8,
    cells: [u8; MAX * MAX],
    pub(crate) hash: u64,
}

fn zobrist(index: usize, colour: u8) -> u64 {
    // splitmix64 of a fixed per-(point, colour) counter: deterministic everywhere.
    let mut z = (index as u64 * 3 + colour as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Replay {
    pub(crate) fn new(size: u8) -> Replay {
        Replay {
            size: size.clamp(2, MAX as u8),
            cells: [0; MAX * MAX],
            hash: 0,
        }
    }

    fn idx(&self, x: u8, y: u8) -> Option<usize> {
        // x, y are 1-based corner-frame coordinates.
        if x == 0 || y == 0 || x > self.size || y > self.size {
            None
        } else {
            Some((y as usize - 1) * MAX + x as usize - 1)
        }
    }

    fn set(&mut self, i: usize, c: u8) {
        if self.cells[i] != 0 {
            self.hash ^= zobrist(i, self.cells[i]);
        }
        self.cells[i] = c;
        if c != 0 {
            self.hash ^= zobrist(i, c);
        }
    }

    /// Put a stone (or clear, `c == 0`) without captures: setup stones.
    pub(crate) fn place(&mut self, x: u8, y: u8, c: u8) {
        if let Some(i) = self.idx(x, y) {
            self.set(i, c);
        }
    }

    /// Play a stone of colour `c` (1 or 2) with captures. Off-board points are ignored.
    pub(crate) fn play(&mut self, x: u8, y: u8, c: u8) {
        let Some(i) = self.idx(x, y) else { return };
        self.set(i, c);
        let other = 3 - c;
        for n in self.neighbours(i).into_iter().flatten() {
            if self.cells[n] == other && !self.has_liberty(n) {
                self.remove_group(n);
            }
        }
        if !self.has_liberty(i) {
            self.remove_group(i); // suicide: the data may contain it; keep the replay total
        }
    }

    /// The points, row by row (`(y - 1) * MAX + x - 1` for 1-based (x, y)): 0 empty, 1 or 2
    /// a relative colour (Packed version 4 reads shapes from them).
    pub(crate) fn cells(&self) -> &[u8; MAX * MAX] {
        &self.cells
    }

    pub(crate) fn size(&self) -> u8 {
        self.size
    }

    fn neighbours(&self, i: usize) -> [Option<usize>; 4] {
        let (x, y) = (i % MAX, i / MAX);
        let s = self.size as usize;
        [
            (x > 0).then(|| i - 1),
            (x + 1 < s).then(|| i + 1),
            (y > 0).then(|| i - MAX),
            (y + 1 < s).then(|| i + MAX),
        ]
    }

    fn group(&self, start: usize, out: &mut Vec<usize>) {
        let c = self.cells[start];
        out.clear();
        out.push(start);
        let mut seen = [false; MAX * MAX];
        seen[start] = true;
        let mut k = 0;
        while k < out.len() {
            let i = out[k];
            k += 1;
            for n in self.neighbours(i).into_iter().flatten() {
                if !seen[n] && self.cells[n] == c {
                    seen[n] = true;
                    out.push(n);
                }
            }
        }
    }

    fn has_liberty(&self, start: usize) -> bool {
        let mut g = Vec::new();
        self.group(start, &mut g);
        g.iter().any(|&i| {
            self.neighbours(i)
                .into_iter()
                .flatten()
                .any(|n| self.cells[n] == 0)
        })
    }

    fn remove_group(&mut self, start: usize) {
        let mut g = Vec::new();
        self.group(start, &mut g);
        for i in g {
            self.set(i, 0);
        }
    }

    /// Non-empty and unchanged by the x <-> y reflection (the corner's diagonal).
    pub(crate) fn diagonally_symmetric(&self) -> bool {
        let s = self.size as usize;
        let mut any = false;
        for y in 0..s {
            for x in 0..s {
                let c = self.cells[y * MAX + x];
                any |= c != 0;
                if c != self.cells[x * MAX + y] {
                    return false;
                }
            }
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::Replay;

    #[test]
    fn captures_make_different_orders_meet() {
        // Black surrounds a white stone on the edge and captures it; the position equals the
        // one where white never played there, apart from the side to move.
        let mut a = Replay::new(19);
        for (x, y, c) in [(2, 1, 1), (1, 1, 2), (1, 2, 1)] {
            a.play(x, y, c);
        }
        let mut b = Replay::new(19);
        b.play(1, 2, 1);
        b.play(2, 1, 1);
        assert_eq!(a.hash, b.hash, "the white stone at (1, 1) was captured");
        assert!(a.diagonally_symmetric());
        b.play(3, 1, 2);
        assert!(!b.diagonally_symmetric());
    }

    #[test]
    fn suicide_and_off_board_do_not_panic() {
        let mut r = Replay::new(5);
        r.play(2, 1, 1);
        r.play(1, 2, 1);
        r.play(1, 1, 2); // suicide: removed again
        r.play(0, 3, 1);
        r.play(6, 6, 1);
        let mut s = Replay::new(5);
        s.play(2, 1, 1);
        s.play(1, 2, 1);
        assert_eq!(r.hash, s.hash);
    }
}
