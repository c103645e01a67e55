//! Undo from a journal: each [`IncrementalScan`] update that matched records what it changed
//! (the changed points, the hit words it wrote, the break bitmaps it cleared, the runs it
//! replaced), so that an update whose changes exactly reverse the last record's (an undo of
//! the last play, captures included) brings the set back from the record instead of
//! matching. A child of `scan` (it restores the set's private state).
//!
//! The journal's lists are allocated at construction from a byte budget and never grow: when
//! one is full the oldest records go (half of them at a time, so the shifts are rare); a
//! record that alone does not fit, a whole-board rebuild, a pool compaction (which moves the
//! runs the records point to) or a match lost for lack of room empties the journal, and the
//! next undo matches as any update does.

use alloc::vec::Vec;
use core::mem::size_of;

use super::{EntryHit, IncrementalScan, Update};
use crate::board::MAX_SIZE;
use crate::incremental::snapshot::Snapshot;

/// The journal's default budget per set, in bytes (see [`IncrementalScan::with_journal`]).
pub const DEFAULT_JOURNAL_BYTES: usize = 256 << 10;

/// One update's record: where its parts end in the journal's lists (each starts where the
/// previous record's ends).
#[derive(Clone, Copy, Debug, Default)]
struct Rec {
    changes: u32,
    words: u32,
    runs: u32,
    breaks: u32,
    /// The pool's length before the update: the runs it placed were appended after it.
    pool: u32,
}

impl Rec {
    /// This record's ends minus `base`'s (the front of the lists moved by `base`).
    fn minus(self, base: Rec) -> Rec {
        Rec {
            changes: self.changes - base.changes,
            words: self.words - base.words,
            runs: self.runs - base.runs,
            breaks: self.breaks - base.breaks,
            pool: self.pool,
        }
    }
}

/// Parts of the budget (in 1/64ths) per list (records, changes, words, runs, breaks), from
/// what the bench's records hold on average (GNU Go's ten sets, per set and update: about
/// 1.2 changed points, about 10 hit words (estimated), 1.8 runs and 0.44 foci matched from
/// scratch, whose break bitmaps are kept, 16 u64 each), with room to spare in the small
/// lists.
const SHARES: [usize; 5] = [6, 2, 38, 6, 12];

/// What the updates since the last rebuild changed, newest last ([`IncrementalScan`]'s
/// `journal`).
#[derive(Clone, Debug)]
pub(crate) struct Journal {
    recs: Vec<Rec>,
    /// Changed points `(x, y, old state, new state)`, as the frame's diff lists them.
    changes: Vec<(i8, i8, u8, u8)>,
    /// Hit words written: `(index into hits, value before the write)`, in write order.
    words: Vec<(u32, u64)>,
    /// Runs replaced: `(point, old start, old length)`, in write order (scan order: each
    /// rematched focus once).
    runs: Vec<(u32, u32, u32)>,
    /// Break bitmaps cleared (by a focus matched from scratch): the point, then its
    /// `3 * slot_words` u64 before, in write order.
    breaks: Vec<u64>,
    /// The lists' fixed capacities (`recs`, `changes`, `words`, `runs`, `breaks`) and the
    /// budget they came from.
    caps: [usize; 5],
    budget: usize,
    /// The current update is being recorded (its parts follow the last record's), with
    /// the pool this long before it.
    open: bool,
    pool: u32,
}

impl Journal {
    /// A journal of at most `bytes` bytes (0: none; updates then place runs in place).
    pub(crate) fn new(bytes: usize) -> Journal {
        let sizes = [
            size_of::<Rec>(),
            size_of::<(i8, i8, u8, u8)>(),
            size_of::<(u32, u64)>(),
            size_of::<(u32, u32, u32)>(),
            size_of::<u64>(),
        ];
        let caps: [usize; 5] = core::array::from_fn(|k| bytes * SHARES[k] / 64 / sizes[k]);
        let caps = if caps.contains(&0) { [0; 5] } else { caps };
        Journal {
            recs: Vec::with_capacity(caps[0]),
            changes: Vec::with_capacity(caps[1]),
            words: Vec::with_capacity(caps[2]),
            runs: Vec::with_capacity(caps[3]),
            breaks: Vec::with_capacity(caps[4]),
            caps,
            budget: bytes,
            open: false,
            pool: 0,
        }
    }

    /// The budget the journal was made with.
    pub(crate) fn budget(&self) -> usize {
        self.budget
    }

    /// Whether the journal records anything (a budget of 0 does not).
    pub(crate) fn on(&self) -> bool {
        self.caps[0] > 0
    }

    /// The bytes the journal's lists take.
    pub(crate) fn bytes(&self) -> usize {
        self.recs.capacity() * size_of::<Rec>()
            + self.changes.capacity() * size_of::<(i8, i8, u8, u8)>()
            + self.words.capacity() * size_of::<(u32, u64)>()
            + self.runs.capacity() * size_of::<(u32, u32, u32)>()
            + self.breaks.capacity() * size_of::<u64>()
    }

    /// Records held (for tests and the bench).
    pub(crate) fn depth(&self) -> usize {
        self.recs.len()
    }

    /// Forgets every record (and the one being recorded).
    pub(crate) fn clear(&mut self) {
        self.recs.clear();
        self.changes.clear();
        self.words.clear();
        self.runs.clear();
        self.breaks.clear();
        self.open = false;
    }

    /// Where the record being written starts (the last record's ends).
    fn top(&self) -> Rec {
        self.recs.last().copied().unwrap_or_default()
    }

    /// Whether `changes` (the frame's diff) undo the last record's exactly: the same points
    /// in the same order (the diff lists them by position), old and new state swapped.
    pub(crate) fn reverses(&self, changes: &[(i8, i8, u8, u8)]) -> bool {
        let Some(last) = self.recs.last() else {
            return false;
        };
        let from = self
            .recs
            .len()
            .checked_sub(2)
            .map_or(0, |k| self.recs[k].changes as usize);
        let rec = &self.changes[from..last.changes as usize];
        rec.len() == changes.len()
            && rec
                .iter()
                .zip(changes)
                .all(|(&(x, y, a, b), &(u, v, c, d))| (x, y, a, b) == (u, v, d, c))
    }

    /// Starts recording an update of `changes` with the pool `pool` long.
    pub(crate) fn begin(&mut self, changes: &[(i8, i8, u8, u8)], pool: usize) {
        debug_assert!(!self.open);
        if !self.on() {
            return;
        }
        // The record's header must fit when it ends.
        self.open = self.room(0, 1) && self.room(1, changes.len());
        if self.open {
            self.changes.extend_from_slice(changes);
            self.pool = pool as u32;
        }
    }

    /// Notes that hit word `i` held `old` before a write.
    #[inline(always)]
    pub(crate) fn word(&mut self, i: usize, old: u64) {
        if self.open && self.room(2, 1) {
            self.words.push((i as u32, old));
        }
    }

    /// Notes that point `p`'s run was `(start, len)` before `place` replaced it.
    #[inline]
    pub(crate) fn run(&mut self, p: usize, (start, len): (u32, u32)) {
        if self.open && self.room(3, 1) {
            self.runs.push((p as u32, start, len));
        }
    }

    /// Notes point `p`'s break bitmaps `old` before they are cleared.
    #[inline]
    pub(crate) fn breaks(&mut self, p: usize, old: &[u64]) {
        if self.open && self.room(4, 1 + old.len()) {
            self.breaks.push(p as u64);
            self.breaks.extend_from_slice(old);
        }
    }

    /// The record being written cannot be used, nor the older ones (the runs moved).
    pub(crate) fn spoil(&mut self) {
        self.clear();
    }

    /// Ends the update's record (`exact`: no match was lost for lack of room); an update
    /// that could not be recorded whole empties the journal (the older records no longer
    /// lead back from the position it leaves).
    pub(crate) fn end(&mut self, exact: bool) {
        if !self.open || !exact {
            self.clear();
            return;
        }
        self.recs.push(Rec {
            changes: self.changes.len() as u32,
            words: self.words.len() as u32,
            runs: self.runs.len() as u32,
            breaks: self.breaks.len() as u32,
            pool: self.pool,
        });
        self.open = false;
    }

    /// Whether list `k` has room for `n` more, after dropping the oldest records if not;
    /// when even the record being written does not fit, recording stops (`open` false).
    #[inline(always)]
    fn room(&mut self, k: usize, n: usize) -> bool {
        self.len(k) + n <= self.caps[k] || self.make_room(k, n)
    }

    #[inline(always)]
    fn len(&self, k: usize) -> usize {
        match k {
            0 => self.recs.len(),
            1 => self.changes.len(),
            2 => self.words.len(),
            3 => self.runs.len(),
            _ => self.breaks.len(),
        }
    }

    #[inline(never)]
    fn make_room(&mut self, k: usize, n: usize) -> bool {
        while self.len(k) + n > self.caps[k] {
            if self.recs.is_empty() {
                self.clear();
                return false;
            }
            self.drop_oldest(self.recs.len().div_ceil(2));
        }
        true
    }

    /// Drops the `k` oldest records (their parts shifted out of the lists' fronts).
    fn drop_oldest(&mut self, k: usize) {
        let base = self.recs[k - 1];
        self.changes.drain(..base.changes as usize);
        self.words.drain(..base.words as usize);
        self.runs.drain(..base.runs as usize);
        self.breaks.drain(..base.breaks as usize);
        self.recs.drain(..k);
        for r in &mut self.recs {
            *r = r.minus(base);
        }
    }
}

impl IncrementalScan {
    /// Undoes the last recorded update (the caller checked that the frame's changes reverse
    /// it): hit words back (last write first), counts and the points-with-hits set from
    /// them, the break bitmaps the update cleared back (those it only added bits to stay a
    /// superset, as they may), non-zero summaries widened to cover the words back (a
    /// superset too), runs back, the pool cut to its length before the update.
    /// Appeared and vanished (the record's vanished and appeared) come from the runs: at
    /// each replaced focus in scan order, the old run's matches not in the current one
    /// appear, the current one's not in the old vanish, each in run order (as entries in
    /// entry mode).
    pub(super) fn restore(&mut self, now: &Snapshot, changed: usize) -> Update {
        let j = &mut self.journal;
        let rec = j.recs.pop().expect("a record to restore");
        let from = j.top();
        let (words, group, sw) = (self.words, self.group, self.ix.slot_words);
        for &(i, old) in j.words[from.words as usize..rec.words as usize]
            .iter()
            .rev()
        {
            let i = i as usize;
            let (p, w) = (i / words, i % words);
            let cur = self.hits[i];
            // Written back directly: the journal's own writes are not recorded.
            self.hits[i] = old;
            self.count[p] = self.count[p] + old.count_ones() - cur.count_ones();
            if old != 0 {
                self.nonzero[p] |= 1 << (w / group);
            }
            let (x, y) = (
                (p % MAX_SIZE as usize) as i32,
                (p / MAX_SIZE as usize) as i32,
            );
            if self.count[p] > 0 {
                self.with_hits.insert(x, y);
            } else {
                self.with_hits.remove(x, y);
            }
        }
        // A hit back that was dropped kept its break bits; those of a focus matched from
        // scratch are put back whole (last first).
        let n = 1 + 3 * sw;
        let mut end = rec.breaks as usize;
        while end > from.breaks as usize {
            let e = &j.breaks[end - n..end];
            let p = e[0] as usize;
            self.breaks[p * 3 * sw..(p + 1) * 3 * sw].copy_from_slice(&e[1..]);
            end -= n;
        }
        self.appeared.clear();
        self.vanished.clear();
        self.appeared_entries.clear();
        self.vanished_entries.clear();
        let runs = &j.runs[from.runs as usize..rec.runs as usize];
        let plain = self.ix.plain.is_some();
        let first = self.ix.first;
        for &(p, start, len) in runs {
            let (cs, cl) = self.runs[p as usize];
            let old = start as usize..(start + len) as usize;
            let cur = cs as usize..(cs + cl) as usize;
            if plain {
                // Both runs ascend by entry, and an entry's match is the same in both.
                let (oe, ce) = (&self.ents[old.clone()], &self.ents[cur.clone()]);
                if self.entry_mode {
                    let (app, van) = (&mut self.appeared_entries, &mut self.vanished_entries);
                    let hit = |r: u32| EntryHit::new(p as usize, first + r);
                    merge_entries(oe, ce, |a| app.push(hit(oe[a])), |c| van.push(hit(ce[c])));
                } else {
                    let (app, van, pool) = (&mut self.appeared, &mut self.vanished, &self.pool);
                    merge_entries(
                        oe,
                        ce,
                        |a| app.push(pool[old.start + a]),
                        |c| van.push(pool[cur.start + c]),
                    );
                }
            } else {
                let (o, c) = (&self.pool[old], &self.pool[cur]);
                self.appeared.extend(o.iter().filter(|m| !c.contains(m)));
                self.vanished.extend(c.iter().filter(|m| !o.contains(m)));
            }
        }
        for &(p, start, len) in runs.iter().rev() {
            let p = p as usize;
            self.live = self.live - self.runs[p].1 as usize + len as usize;
            self.runs[p] = (start, len);
        }
        // Every run the update placed was appended after `rec.pool`, and every one of them
        // is replaced above.
        // (Entry mode keeps no matches: the pool is empty.)
        self.pool.truncate(rec.pool as usize);
        if plain {
            self.ents.truncate(rec.pool as usize);
        }
        j.changes.truncate(from.changes as usize);
        j.words.truncate(from.words as usize);
        j.runs.truncate(from.runs as usize);
        j.breaks.truncate(from.breaks as usize);
        self.assembled = false;
        self.snap = *now;
        Update {
            changed,
            restored: 1,
            ..Update::default()
        }
    }
}

/// Walks two runs' entries, both ascending: `only_old(a)` for each of `old[a]` not in `cur`,
/// `only_cur(c)` for each of `cur[c]` not in `old`, in entry order.
#[inline(always)]
fn merge_entries(
    old: &[u32],
    cur: &[u32],
    mut only_old: impl FnMut(usize),
    mut only_cur: impl FnMut(usize),
) {
    let (mut a, mut c) = (0, 0);
    while a < old.len() || c < cur.len() {
        if c == cur.len() || (a < old.len() && old[a] < cur[c]) {
            only_old(a);
            a += 1;
        } else if a == old.len() || cur[c] < old[a] {
            only_cur(c);
            c += 1;
        } else {
            (a, c) = (a + 1, c + 1);
        }
    }
}
