//! Moves and their undo. Every change made by a move is either reversible from its record
//! (string merges are cycle splices, undone by the same swap in reverse order) or recomputable
//! from the restored neighbourhood (liberty increments from captures), so undo is exact.

use super::layout::{EMPTY, SLOTS, STRIDE, cell, code, neighbours};
use super::zobrist::KEYS;
use super::{
    Board, CAPTURE_CAPACITY, Colour, HISTORY_CAPACITY, Kind, PlayError, ROW_PAD, Undo, colour_shift,
};

/// Distinct values among up to 4 candidates (string heads around a point).
#[derive(Clone, Copy)]
struct Heads {
    /// Unused slots hold 0, which is never a string head.
    h: [u16; 4],
    n: usize,
}

impl Heads {
    #[inline(always)]
    fn new() -> Heads {
        Heads { h: [0; 4], n: 0 }
    }
    /// Adds a head (never 0) unless present; fixed work, no loop over `n`.
    #[inline(always)]
    fn add(&mut self, v: u16) -> bool {
        let h = self.h;
        if (h[0] == v) | (h[1] == v) | (h[2] == v) | (h[3] == v) {
            return false;
        }
        self.h[self.n & 3] = v;
        self.n += 1;
        true
    }
    #[inline(always)]
    fn as_slice(&self) -> &[u16] {
        &self.h[..self.n.min(4)]
    }
}

impl Board {
    /// Whether `colour` may play at `(x, y)` now (the checks of [`Board::play`], nothing changed).
    pub fn check_play(&self, colour: Colour, x: i32, y: i32) -> Result<(), PlayError> {
        if !self.on_board(x, y) {
            return Err(PlayError::OffBoard);
        }
        let p = cell(x, y);
        if self.colour[p] != EMPTY {
            return Err(PlayError::Occupied);
        }
        let me = code(colour);
        if p == self.ko as usize && self.ko_colour == me {
            return Err(PlayError::Ko);
        }
        for n in neighbours(p) {
            let c = self.colour[n];
            if c == EMPTY {
                return Ok(());
            }
            let l = self.libs[self.head[n] as usize];
            if (c == me && l > 1) || (c == 3 - me && l == 1) {
                return Ok(());
            }
        }
        Err(PlayError::Suicide)
    }

    /// Plays a stone of `colour` at `(x, y)`: captures opponent strings left without liberties,
    /// rejects suicide and an immediate ko recapture. On success the opponent is to move.
    pub fn play(&mut self, colour: Colour, x: i32, y: i32) -> Result<(), PlayError> {
        if self.history_len == HISTORY_CAPACITY {
            return Err(PlayError::HistoryFull);
        }
        self.check_play(colour, x, y)?;
        let p = cell(x, y);
        let me = code(colour);
        let mut rec = self.record(Kind::Play, p, me);
        let captured = self.put(p, me, &mut rec);
        // Simple ko: a single stone captured a single stone and now stands alone in atari.
        if captured == 1 && self.count[p] == 1 && self.libs[p] == 1 && self.head[p] as usize == p {
            self.ko = self.captured[self.captured_len - 1];
            self.ko_colour = 3 - me;
        } else {
            self.ko = 0;
            self.ko_colour = 0;
        }
        self.to_move = colour.opponent();
        self.history[self.history_len] = rec;
        self.history_len += 1;
        Ok(())
    }

    /// A pass by `colour`: clears the ko, the opponent is to move. Fails only when the history is full.
    pub fn pass(&mut self, colour: Colour) -> Result<(), PlayError> {
        if self.history_len == HISTORY_CAPACITY {
            return Err(PlayError::HistoryFull);
        }
        let rec = self.record(Kind::Pass, 0, code(colour));
        self.ko = 0;
        self.ko_colour = 0;
        self.to_move = colour.opponent();
        self.history[self.history_len] = rec;
        self.history_len += 1;
        Ok(())
    }

    /// Places a setup stone (SGF `AB`/`AW`): no captures; it must not leave its own string or
    /// an adjacent opponent string without liberties. Clears the ko, keeps the side to move;
    /// undoable.
    pub fn place(&mut self, colour: Colour, x: i32, y: i32) -> Result<(), PlayError> {
        if self.history_len == HISTORY_CAPACITY {
            return Err(PlayError::HistoryFull);
        }
        if !self.on_board(x, y) {
            return Err(PlayError::OffBoard);
        }
        let p = cell(x, y);
        if self.colour[p] != EMPTY {
            return Err(PlayError::Occupied);
        }
        let me = code(colour);
        let mut own_ok = false;
        for n in neighbours(p) {
            let c = self.colour[n];
            let l = self.libs[self.head[n] as usize];
            if c == EMPTY || (c == me && l > 1) {
                own_ok = true;
            } else if c == 3 - me && l == 1 {
                return Err(PlayError::WouldCapture);
            }
        }
        if !own_ok {
            return Err(PlayError::Suicide);
        }
        let mut rec = self.record(Kind::Place, p, me);
        self.put(p, me, &mut rec);
        self.ko = 0;
        self.ko_colour = 0;
        self.history[self.history_len] = rec;
        self.history_len += 1;
        Ok(())
    }

    /// Removes a stone as a setup edit (SGF `AE`). Strings are recomputed from scratch and the
    /// undo history is cleared (a removal may split a string, which the undo records do not
    /// describe); the ko is cleared, the side to move kept. An empty point is
    /// [`PlayError::Empty`].
    pub fn remove(&mut self, x: i32, y: i32) -> Result<(), PlayError> {
        if !self.on_board(x, y) {
            return Err(PlayError::OffBoard);
        }
        let p = cell(x, y);
        let c = self.colour[p];
        if c == EMPTY {
            return Err(PlayError::Empty);
        }
        self.clear_stone(p, c);
        self.rebuild_strings();
        self.clear_history();
        self.ko = 0;
        self.ko_colour = 0;
        Ok(())
    }

    /// Takes back the last play, pass or placement; `false` when the history is empty.
    pub fn undo(&mut self) -> bool {
        if self.history_len == 0 {
            return false;
        }
        self.history_len -= 1;
        let rec = self.history[self.history_len];
        if rec.kind != Kind::Pass {
            self.unput(&rec);
        }
        self.ko = rec.prev_ko;
        self.ko_colour = rec.prev_ko_colour;
        self.to_move = rec.prev_to_move;
        true
    }

    fn record(&self, kind: Kind, p: usize, me: u8) -> Undo {
        Undo {
            kind,
            colour: me,
            prev_to_move: self.to_move,
            prev_ko_colour: self.ko_colour,
            prev_ko: self.ko,
            point: p as u16,
            base: p as u16,
            base_libs: 0,
            base_count: 0,
            merged: [0; 4],
            merged_libs: [0; 4],
            n_merged: 0,
            n_groups: 0,
            groups: [0; 4],
            cap_start: self.captured_len as u16,
        }
    }

    #[inline(always)]
    fn set_stone(&mut self, p: usize, c: u8) {
        self.colour[p] = c;
        let (x, y) = ((p % STRIDE) - 1, (p / STRIDE) - 1);
        self.rows[y + ROW_PAD] |= 1 << (x + ROW_PAD + colour_shift(c));
        self.stone_hash ^= KEYS.stones[c as usize - 1][p];
    }

    #[inline(always)]
    fn clear_stone(&mut self, p: usize, c: u8) {
        self.colour[p] = EMPTY;
        let (x, y) = ((p % STRIDE) - 1, (p / STRIDE) - 1);
        self.rows[y + ROW_PAD] &= !(1 << (x + ROW_PAD + colour_shift(c)));
        self.stone_hash ^= KEYS.stones[c as usize - 1][p];
    }

    /// Puts a legal stone on `p`, captures, merges; returns the number of stones captured.
    fn put(&mut self, p: usize, me: u8, rec: &mut Undo) -> usize {
        let opp = 3 - me;
        self.set_stone(p, me);
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.count[p] = 1;

        // One pass over the neighbours: count empties, collect friendly strings, and take the
        // liberty `p` from opponent strings, capturing those left with none.
        let mut own = Heads::new();
        let mut opp_seen = Heads::new();
        let mut empties = 0u16;
        let mut n_captured = 0;
        for n in neighbours(p) {
            let c = self.colour[n];
            if c == EMPTY {
                empties += 1;
            } else if c == me {
                own.add(self.head[n]);
            } else if c == opp {
                let h = self.head[n];
                if opp_seen.add(h) {
                    self.libs[h as usize] -= 1;
                    if self.libs[h as usize] == 0 {
                        let k = self.capture(h as usize, me);
                        rec.groups[rec.n_groups as usize] = k as u16;
                        rec.n_groups += 1;
                        n_captured += k;
                    }
                }
            }
        }
        if n_captured > 0 {
            // Captured neighbours are empty now (and captures bumped `libs[p]`).
            empties = neighbours(p)
                .iter()
                .map(|&n| (self.colour[n] == EMPTY) as u16)
                .sum();
        }
        if own.n == 0 {
            self.libs[p] = empties;
            return n_captured;
        }
        self.libs[p] = 0;

        // Join the friendly strings around `p` into the largest of them.
        let mut base = own.h[0] as usize;
        for &h in &own.as_slice()[1..] {
            if self.count[h as usize] > self.count[base] {
                base = h as usize;
            }
        }
        rec.base = base as u16;
        rec.base_libs = self.libs[base];
        rec.base_count = self.count[base];
        // The merged string's liberties: those of `base` minus `p`, plus the liberties of `p`
        // and of the other joined strings that `base` does not touch, each counted once.
        // Counted before anything joins, as `touches` looks for stones of `base`; only the
        // smaller strings are walked.
        let mut l = self.libs[base] - 1;
        if own.n == 1 {
            // The common case: only `p`'s own neighbours, distinct by construction.
            if empties > 0 {
                for n in neighbours(p) {
                    if self.colour[n] == EMPTY && !self.touches(n, base) {
                        l += 1;
                    }
                }
            }
        } else {
            l += self.new_liberties(p, base, &own);
        }
        // `p` joins `base`: a one-stone cycle splice; then the other strings.
        rec.merged[0] = p as u16;
        rec.n_merged = 1;
        self.head[p] = base as u16;
        self.next.swap(base, p);
        self.count[base] += 1;
        self.count[p] = 0;
        for &h in own.as_slice() {
            if h as usize != base {
                self.merge(base, h as usize, rec);
            }
        }
        self.libs[base] = l;
        n_captured
    }

    /// Empty points next to `p` or to the strings of `own` other than `base` that `base` does
    /// not touch, each counted once (before any of them joins `base`).
    #[inline(never)]
    fn new_liberties(&self, p: usize, base: usize, own: &Heads) -> u16 {
        let mut marks = [0u64; SLOTS / 64];
        let mut l = 0;
        let mut visit = |q: usize, l: &mut u16| {
            if self.colour[q] == EMPTY {
                let (w, b) = ((q / 64) % (SLOTS / 64), 1u64 << (q % 64));
                if marks[w] & b == 0 {
                    marks[w] |= b;
                    if !self.touches(q, base) {
                        *l += 1;
                    }
                }
            }
        };
        for n in neighbours(p) {
            visit(n, &mut l);
        }
        for &h in own.as_slice() {
            let h = h as usize;
            if h == base {
                continue;
            }
            let mut s = h;
            loop {
                for n in neighbours(s) {
                    visit(n, &mut l);
                }
                s = self.next[s] as usize;
                if s == h {
                    break;
                }
            }
        }
        l
    }

    /// Whether the empty point `q` is adjacent to a stone of the string headed by `h`
    /// (`head` is 0 on empty and off-board cells, and no string has head 0).
    #[inline(always)]
    fn touches(&self, q: usize, h: usize) -> bool {
        let h = h as u16;
        let [a, b, c, d] = neighbours(q);
        (self.head[a] == h) | (self.head[b] == h) | (self.head[c] == h) | (self.head[d] == h)
    }

    /// Merges the string headed by `o` into the one headed by `base`.
    #[inline(never)]
    fn merge(&mut self, base: usize, o: usize, rec: &mut Undo) {
        let i = rec.n_merged as usize;
        rec.merged[i] = o as u16;
        rec.merged_libs[i] = self.libs[o];
        rec.n_merged += 1;
        let mut s = o;
        loop {
            self.head[s] = base as u16;
            s = self.next[s] as usize;
            if s == o {
                break;
            }
        }
        self.next.swap(base, o);
        self.count[base] += self.count[o];
        self.libs[o] = 0;
        self.count[o] = 0;
    }

    /// Liberties of the string headed by `h`, counted from scratch.
    #[inline(never)]
    pub(super) fn count_libs(&self, h: usize) -> u16 {
        let mut marks = [0u64; SLOTS / 64];
        let mut l = 0;
        let mut s = h;
        loop {
            for n in neighbours(s) {
                if self.colour[n] == EMPTY {
                    let (w, b) = ((n / 64) % (SLOTS / 64), 1u64 << (n % 64));
                    if marks[w] & b == 0 {
                        marks[w] |= b;
                        l += 1;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        l
    }

    /// Removes the string headed by `h` (captured by colour `me`), saving its stones in cycle
    /// order from the head; returns how many.
    #[cold]
    #[inline(never)]
    fn capture(&mut self, h: usize, me: u8) -> usize {
        let opp = 3 - me;
        let start = self.captured_len;
        let mut s = h;
        loop {
            debug_assert!(self.captured_len < CAPTURE_CAPACITY);
            self.captured[self.captured_len] = s as u16;
            self.captured_len += 1;
            let nx = self.next[s] as usize;
            self.clear_stone(s, opp);
            self.head[s] = 0;
            self.next[s] = 0;
            s = nx;
            if s == h {
                break;
            }
        }
        self.libs[h] = 0;
        self.count[h] = 0;
        // Each removed stone is a new liberty of every distinct friendly string around it.
        for i in start..self.captured_len {
            let q = self.captured[i] as usize;
            let mut seen = Heads::new();
            for n in neighbours(q) {
                if self.colour[n] == me {
                    let hn = self.head[n];
                    if seen.add(hn) {
                        self.libs[hn as usize] += 1;
                    }
                }
            }
        }
        self.captured_len - start
    }

    /// Reverses [`Board::put`] from its record.
    fn unput(&mut self, rec: &Undo) {
        let p = rec.point as usize;
        let me = rec.colour;
        let opp = 3 - me;
        let base = rec.base as usize;
        // Split the merges in reverse order; `p` itself (merged first) needs only the splice.
        for i in (1..rec.n_merged as usize).rev() {
            let o = rec.merged[i] as usize;
            self.next.swap(base, o);
            let mut s = o;
            let mut k = 0;
            loop {
                self.head[s] = o as u16;
                k += 1;
                s = self.next[s] as usize;
                if s == o {
                    break;
                }
            }
            self.count[o] = k;
            self.libs[o] = rec.merged_libs[i];
        }
        if rec.n_merged > 0 {
            self.next.swap(base, p);
            self.libs[base] = rec.base_libs;
            self.count[base] = rec.base_count;
        }
        self.clear_stone(p, me);
        self.head[p] = 0;
        self.next[p] = 0;
        self.libs[p] = 0;
        self.count[p] = 0;

        // Put the captured strings back, then take back the liberties they had given.
        let start = rec.cap_start as usize;
        let mut pos = start;
        for g in 0..rec.n_groups as usize {
            let len = rec.groups[g] as usize;
            let h = self.captured[pos] as usize;
            for i in 0..len {
                let s = self.captured[pos + i] as usize;
                self.set_stone(s, opp);
                self.head[s] = h as u16;
                self.next[s] = self.captured[pos + (i + 1) % len];
            }
            self.libs[h] = 0;
            self.count[h] = len as u16;
            pos += len;
        }
        for i in start..pos {
            let q = self.captured[i] as usize;
            let mut seen = Heads::new();
            for n in neighbours(q) {
                if self.colour[n] == me {
                    let hn = self.head[n];
                    if seen.add(hn) {
                        self.libs[hn as usize] -= 1;
                    }
                }
            }
        }
        self.captured_len = start;
        // Every opponent string around `p` gets `p` back as a liberty.
        let mut seen = Heads::new();
        for n in neighbours(p) {
            if self.colour[n] == opp {
                let h = self.head[n];
                if seen.add(h) {
                    self.libs[h as usize] += 1;
                }
            }
        }
    }
}
