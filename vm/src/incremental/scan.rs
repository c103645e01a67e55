//! A class's whole-board match set kept up to date move by move ([`IncrementalScan`]).
//!
//! The set keeps, for every focus, the *geometric hits*: the class entries (oriented
//! variants) whose cells all hold there. A point that changes from state `a` to state `b`
//! can only turn on the entries that have a cell at some offset `d` allowing `b` but not `a`
//! (at focus `point - d`), and only turn off hits that have a cell there; a transition index
//! built once per class (`(offset, a, b)` -> entries) lists the former, so an update checks
//! those entries at those foci (a 3x3 absence mask first, then every cell) and re-checks the
//! few hits near the change. Foci whose hits changed (and, for classes whose tests read
//! liberties or further points, the foci with hits that those reads reach) run the ordinary
//! class program over their hits (tests, globs, modes, rejects, defaults): the kept matches
//! of exactly those foci are replaced, and the difference is reported as `appeared` and
//! `vanished`. Matches are identified by [`MatchId`] (focus, pattern, orientation), stable
//! from move to move.

use alloc::vec;
use alloc::vec::Vec;

use super::snapshot::{POINTS, PointSet, Snapshot, walk_string};
use crate::board::{BoardView, Colour, MAX_SIZE};
use crate::geometry::Orientation;
use crate::matching::{Ctx, Geometry, Host, Match, MatchBuf, Query, Scratch, run_class};
use crate::rom::bytecode::{Op, decode};
use crate::rom::lut::NEIGHBOURS;
use crate::rom::{ClassId, Rom};

/// A match's identity within one class and perspective: its focus, pattern and reported
/// orientation (a class reports at most one match per triple; a class default has pattern
/// [`crate::matching::DEFAULT_PATTERN`]). Ordered by focus row, column, pattern, orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MatchId(pub u64);

impl MatchId {
    /// The id of a match.
    pub fn of(m: &Match) -> MatchId {
        let (x, y) = (m.focus.0 as u64 & 0xFF, m.focus.1 as u64 & 0xFF);
        MatchId(y << 48 | x << 40 | (m.pattern as u64) << 8 | m.orientation as u64)
    }
    /// The match's focus `(x, y)`.
    pub fn focus(self) -> (i32, i32) {
        ((self.0 >> 40 & 0xFF) as i32, (self.0 >> 48 & 0xFF) as i32)
    }
    /// The match's pattern id ([`Match::pattern`]).
    pub fn pattern(self) -> u32 {
        (self.0 >> 8) as u32
    }
    /// The orientation (0..8) the pattern matched in.
    pub fn orientation(self) -> u8 {
        self.0 as u8
    }
}

/// How far from its focus a class's matches look (Chebyshev distance, any orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Points whose state a cell or test reads.
    pub state: i32,
    /// Points whose state a test reads (0 when no test reads the board).
    pub tests: i32,
    /// Points whose string's liberties a test reads (`libs`, `atari`, `nbr_atari`), if any.
    pub libs: Option<i32>,
    /// A test reads the whole board (`dist`): every move rescans every focus.
    pub global: bool,
    /// A test asks the host (globals, marks, externs): the set is exact only while the
    /// host's answers stay the same; call [`IncrementalScan::invalidate`] when they change.
    pub host: bool,
}

impl Reach {
    /// The reach of class `class` of `rom`, from its patterns' cells and test code.
    pub fn of(rom: &Rom<'_>, class: ClassId) -> Option<Reach> {
        let info = rom.class(class)?;
        let mut r = Reach {
            state: 0,
            tests: 0,
            libs: None,
            global: false,
            host: false,
        };
        let cheb = |dx: i8, dy: i8| (dx as i32).abs().max((dy as i32).abs());
        let mut last = u32::MAX;
        for e in info.first_entry()..info.first_entry() + info.entry_count() {
            let (p, _, _) = rom.entry(e);
            if p == last {
                continue;
            }
            last = p;
            let pat = rom.pattern(p);
            for (dx, dy, _) in pat.cells() {
                r.state = r.state.max(cheb(dx, dy));
            }
            for (code, _) in pat.tests() {
                let mut pc = 0;
                while let Ok((op, next)) = decode(code, pc) {
                    pc = next;
                    let (d, libs) = match op {
                        Op::Libs(dx, dy) | Op::Atari(dx, dy) => (cheb(dx, dy), true),
                        Op::NbrAtari(dx, dy, _) => (cheb(dx, dy) + 1, true),
                        Op::Count { dx, dy, radius, .. } => (cheb(dx, dy) + radius as i32, false),
                        Op::Any(dx, dy, _) => (cheb(dx, dy) + 4, false),
                        Op::Adj(dx, dy) | Op::Empty8(dx, dy) => (cheb(dx, dy) + 1, false),
                        Op::Empty25(dx, dy) => (cheb(dx, dy) + 2, false),
                        Op::Dist(..) => {
                            r.global = true;
                            (0, false)
                        }
                        Op::Mark(..) | Op::Global(_) | Op::Extern { .. } => {
                            r.host = true;
                            (0, false)
                        }
                        Op::Int(_) | Op::Line(..) | Op::Not | Op::Neg | Op::Bin(_) => (0, false),
                    };
                    r.state = r.state.max(d);
                    r.tests = r.tests.max(d);
                    if libs {
                        r.libs = Some(r.libs.unwrap_or(0).max(d));
                    }
                }
            }
        }
        Some(r)
    }
}

/// What one [`IncrementalScan::update`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Update {
    /// Points whose state changed since the last update.
    pub changed: usize,
    /// Entries checked at a focus (the transition index's candidates and the kept hits
    /// re-checked).
    pub checked: usize,
    /// Of those, the ones that passed the 3x3 absence mask and had their farther cells read.
    pub verified: usize,
    /// Foci whose class program ran again.
    pub rematched: usize,
}

/// One cell of an oriented entry, in board orientation.
#[derive(Clone, Copy, Debug)]
struct Cell {
    dx: i8,
    dy: i8,
    allowed: u8,
}

/// Offsets the transition index covers (farther cells can only be off the board).
const SPAN: i32 = MAX_SIZE as i32 - 1;
const SIDE: usize = 2 * SPAN as usize + 1;

#[inline(always)]
fn point_index(x: i32, y: i32) -> usize {
    y as usize * MAX_SIZE as usize + x as usize
}

/// The match set of one query (class, perspective, orientations) over a whole board, kept
/// up to date by [`IncrementalScan::update`] after each play, undo or edit. All memory is
/// allocated by [`IncrementalScan::new`] (about `entries / 8 * 625` bytes of hit sets plus
/// the class's transition index, and `capacity` matches); updates never allocate.
#[derive(Clone, Debug)]
pub struct IncrementalScan {
    query: Query,
    reach: Reach,
    focus: u8,
    first: u32,
    entries: usize,
    /// u64 words per hit set.
    words: usize,
    /// Per entry: its cells (`starts[e]..starts[e + 1]`), nearest the focus first; those
    /// from `far[e]` on lie beyond the 3x3 square (the `near` mask covers the others).
    starts: Vec<u32>,
    far: Vec<u32>,
    cells: Vec<Cell>,
    /// Per entry: the states its cells forbid on the focus and its 8 neighbours, bit
    /// `4 * i + state` for neighbour `i` ([`NEIGHBOURS`] order), bits 32.. the focus.
    near: Vec<u64>,
    /// Distinct cell offsets (index into the `SIDE x SIDE` grid), each with its 9
    /// transition buckets `gain_at[k * 9 + a * 3 + b]..[.. + 1]` into `gains`.
    offsets: Vec<(i8, i8)>,
    gain_at: Vec<u32>,
    gains: Vec<u32>,
    /// `near` of each entry of `gains`, side by side (a branch-free filter streams them).
    gain_near: Vec<u64>,
    snap: Snapshot,
    valid: bool,
    /// Geometric hits per point (`words` u64 per point, [`point_index`]) and their count.
    hits: Vec<u64>,
    count: Vec<u32>,
    capacity: usize,
    /// The set, in [`Rom::scan`] order (foci row by row, the class program's order within a
    /// focus).
    matches: Vec<Match>,
    spare: Vec<Match>,
    /// Output slots of the rematches.
    fresh: Vec<Match>,
    appeared: Vec<Match>,
    vanished: Vec<Match>,
    dropped: usize,
}

impl IncrementalScan {
    /// The (empty) incremental set of `query` on `rom`, holding at most `capacity` matches;
    /// the first [`IncrementalScan::update`] matches the whole board. `None` when the class
    /// does not exist.
    pub fn new(rom: &Rom<'_>, query: Query, capacity: usize) -> Option<IncrementalScan> {
        let class = rom.class(query.class)?;
        let reach = Reach::of(rom, query.class)?;
        let (first, n) = (class.first_entry(), class.entry_count() as usize);
        let mut starts = Vec::with_capacity(n + 1);
        let mut far = Vec::with_capacity(n);
        let mut cells = Vec::new();
        let mut near = Vec::with_capacity(n);
        // (offset grid index, a * 3 + b, entry) for every cell allowing b but not a.
        let mut keyed: Vec<(u32, u8, u32)> = Vec::new();
        for r in 0..n {
            let (p, o, _) = rom.entry(first + r as u32);
            let t = Orientation::new(o).unwrap_or(Orientation::IDENTITY);
            starts.push(cells.len() as u32);
            let at = cells.len();
            let mut forbid = 0u64;
            for (dx, dy, allowed) in rom.pattern(p).cells() {
                let (x, y) = t.apply(dx as i32, dy as i32);
                cells.push(Cell {
                    dx: x as i8,
                    dy: y as i8,
                    allowed,
                });
                let banned = (!allowed & 0xF) as u64;
                if (x, y) == (0, 0) {
                    forbid |= banned << 32;
                } else if let Some(i) = NEIGHBOURS
                    .iter()
                    .position(|&(nx, ny)| (nx as i32, ny as i32) == (x, y))
                {
                    forbid |= banned << (4 * i);
                }
                if x.abs() <= SPAN && y.abs() <= SPAN {
                    let g = ((y + SPAN) as usize * SIDE + (x + SPAN) as usize) as u32;
                    for a in 0..3u8 {
                        for b in 0..3u8 {
                            if a != b && allowed >> b & 1 != 0 && allowed >> a & 1 == 0 {
                                keyed.push((g, a * 3 + b, r as u32));
                            }
                        }
                    }
                }
            }
            // Nearest cells first: they reject most candidates.
            let dist = |c: &Cell| (c.dx as i32).abs().max((c.dy as i32).abs());
            cells[at..].sort_by_key(dist);
            far.push((at + cells[at..].iter().take_while(|c| dist(c) <= 1).count()) as u32);
            near.push(forbid);
        }
        starts.push(cells.len() as u32);
        keyed.sort_unstable();
        keyed.dedup();
        let mut offsets: Vec<(i8, i8)> = Vec::new();
        let mut gain_at = Vec::new();
        let mut gains = Vec::with_capacity(keyed.len());
        let mut i = 0;
        while i < keyed.len() {
            let g = keyed[i].0;
            let (x, y) = (
                (g as usize % SIDE) as i32 - SPAN,
                (g as usize / SIDE) as i32 - SPAN,
            );
            offsets.push((x as i8, y as i8));
            for bucket in 0..9u8 {
                gain_at.push(gains.len() as u32);
                while i < keyed.len() && keyed[i].0 == g && keyed[i].1 == bucket {
                    gains.push(keyed[i].2);
                    i += 1;
                }
            }
        }
        gain_at.push(gains.len() as u32);
        let gain_near = gains.iter().map(|&r| near[r as usize]).collect();
        let words = n.div_ceil(64).max(1);
        Some(IncrementalScan {
            query,
            reach,
            focus: class.focus(),
            first,
            entries: n,
            words,
            starts,
            far,
            cells,
            near,
            offsets,
            gain_at,
            gains,
            gain_near,
            snap: Snapshot::EMPTY,
            valid: false,
            hits: vec![0; POINTS * words],
            count: vec![0; POINTS],
            capacity,
            matches: Vec::with_capacity(capacity),
            spare: Vec::with_capacity(capacity),
            fresh: vec![Match::EMPTY; capacity],
            appeared: Vec::with_capacity(capacity),
            vanished: Vec::with_capacity(capacity),
            dropped: 0,
        })
    }

    /// The query the set tracks.
    pub fn query(&self) -> &Query {
        &self.query
    }
    /// How far the class looks from a focus (what an update re-checks around a change).
    pub fn reach(&self) -> Reach {
        self.reach
    }

    /// The current set, in [`Rom::scan`] order: equal to a whole-board scan of the board at
    /// the last update (unless [`IncrementalScan::dropped`] is non-zero).
    pub fn matches(&self) -> &[Match] {
        &self.matches
    }
    /// Matches in the set after the last update that were not in it before (scan order).
    pub fn appeared(&self) -> &[Match] {
        &self.appeared
    }
    /// Matches in the set before the last update that are not in it now (scan order).
    pub fn vanished(&self) -> &[Match] {
        &self.vanished
    }
    /// Matches lost for lack of room since the set was last rebuilt: non-zero means the set
    /// (and the diff) are partial; build with a larger capacity.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The next update matches the whole board again (after the host's answers changed).
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// State of a point from the query's perspective in `snap`: 0 friend, 1 foe, 2 empty, 3 off.
    #[inline(always)]
    fn state(&self, snap: &Snapshot, x: i32, y: i32) -> u8 {
        if !snap.on_board(x, y) {
            return 3;
        }
        let s = snap.state(x, y);
        if s < 2 && self.query.perspective == Colour::White {
            s ^ 1
        } else {
            s
        }
    }

    /// The states of the focus and its 8 neighbours as bits (see `near`).
    #[inline]
    fn present(&self, snap: &Snapshot, x: i32, y: i32) -> u64 {
        let mut p = 1u64 << (32 + self.state(snap, x, y));
        for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
            p |= 1u64 << (4 * i as u32 + self.state(snap, x + dx as i32, y + dy as i32) as u32);
        }
        p
    }

    /// Whether every cell of entry `r` beyond the 3x3 square holds at focus `(x, y)` (the
    /// caller checked `near`).
    #[inline]
    fn holds_far(&self, snap: &Snapshot, r: usize, x: i32, y: i32) -> bool {
        let cells = &self.cells[self.far[r] as usize..self.starts[r + 1] as usize];
        cells
            .iter()
            .all(|c| c.allowed >> self.state(snap, x + c.dx as i32, y + c.dy as i32) & 1 != 0)
    }

    #[inline(always)]
    fn focus_ok(&self, s: u8) -> bool {
        s < 3 && self.focus >> s & 1 != 0
    }

    /// Sets entry `r` at point `p`; `true` when it was not set.
    #[inline(always)]
    fn set_hit(&mut self, p: usize, r: usize) -> bool {
        let w = &mut self.hits[p * self.words + r / 64];
        let bit = 1u64 << (r % 64);
        let new = *w & bit == 0;
        *w |= bit;
        self.count[p] += new as u32;
        new
    }

    /// Every hit of focus `(x, y)` from scratch (empty unless the focus state is allowed).
    fn compute_hits(&mut self, snap: &Snapshot, x: i32, y: i32) -> usize {
        let p = point_index(x, y);
        self.hits[p * self.words..(p + 1) * self.words].fill(0);
        self.count[p] = 0;
        if !self.focus_ok(self.state(snap, x, y)) {
            return 0;
        }
        let present = self.present(snap, x, y);
        let mut i = 0;
        while i < self.entries {
            let end = (i + CHUNK).min(self.entries);
            let (buf, n) = pass_near(&self.near[i..end], present);
            for &k in &buf[..n] {
                let r = i + k as usize;
                if self.holds_far(snap, r, x, y) {
                    self.set_hit(p, r);
                }
            }
            i = end;
        }
        self.entries
    }

    /// Drops the hits of point `p` (focus `(x, y)`) whose cell at offset `(dx, dy)` does not
    /// allow state `b`; returns (hits dropped, hits looked at).
    fn drop_hits(&mut self, p: usize, dx: i8, dy: i8, b: u8) -> (usize, usize) {
        let (mut dropped, mut seen) = (0, 0);
        for w in 0..self.words {
            let mut bits = self.hits[p * self.words + w];
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                seen += 1;
                let r = w * 64 + k;
                let cells = &self.cells[self.starts[r] as usize..self.starts[r + 1] as usize];
                if cells
                    .iter()
                    .any(|c| c.dx == dx && c.dy == dy && c.allowed >> b & 1 == 0)
                {
                    self.hits[p * self.words + w] &= !(1u64 << k);
                    self.count[p] -= 1;
                    dropped += 1;
                }
            }
        }
        (dropped, seen)
    }

    /// Brings the set up to date with `board` (any number of moves, captures, undos or edits
    /// since the last update) and records what appeared and vanished.
    pub fn update<B: BoardView + ?Sized, H: Host + ?Sized>(
        &mut self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        scratch: &mut Scratch,
    ) -> Update {
        let now = Snapshot::read(board);
        self.appeared.clear();
        self.vanished.clear();
        let mut u = Update::default();
        let mut rematch = PointSet::new();
        let size = now.size as i32;
        if !self.valid || now.size != self.snap.size {
            self.dropped = 0;
            self.hits.fill(0);
            self.count.fill(0);
            for y in 0..size {
                for x in 0..size {
                    u.checked += self.compute_hits(&now, x, y);
                    rematch.insert(x, y);
                }
            }
            u.changed = POINTS;
        } else {
            let mut list = [(0i8, 0i8, 0u8, 0u8); POINTS];
            let persp = |s: u8| {
                if s < 2 && self.query.perspective == Colour::White {
                    s ^ 1
                } else {
                    s
                }
            };
            self.snap.diff(&now, |c| {
                let old = persp(self.snap.state(c.x, c.y));
                list[u.changed] = (c.x as i8, c.y as i8, old, persp(c.state));
                u.changed += 1;
            });
            if u.changed == 0 {
                return u;
            }
            for &(cx, cy, a, b) in &list[..u.changed] {
                let (cx, cy) = (cx as i32, cy as i32);
                // The changed point as a focus: its focus test changed.
                let flipped = self.focus_ok(a) != self.focus_ok(b);
                if flipped {
                    u.checked += self.compute_hits(&now, cx, cy);
                    rematch.insert(cx, cy);
                }
                let bucket = (a * 3 + b) as usize;
                for k in 0..self.offsets.len() {
                    let (dx, dy) = self.offsets[k];
                    let (x, y) = (cx - dx as i32, cy - dy as i32);
                    if !now.on_board(x, y) || (flipped && (dx, dy) == (0, 0)) {
                        continue;
                    }
                    let p = point_index(x, y);
                    // Hits with a cell on the changed point that refuses its new state go.
                    if self.count[p] > 0 {
                        let (lost, seen) = self.drop_hits(p, dx, dy, b);
                        u.checked += seen;
                        if lost > 0 {
                            rematch.insert(x, y);
                        }
                    }
                    let (g0, g1) = (
                        self.gain_at[k * 9 + bucket] as usize,
                        self.gain_at[k * 9 + bucket + 1] as usize,
                    );
                    if g0 == g1 || !self.focus_ok(self.state(&now, x, y)) {
                        continue;
                    }
                    let present = self.present(&now, x, y);
                    u.checked += g1 - g0;
                    let mut g = g0;
                    while g < g1 {
                        let end = (g + CHUNK).min(g1);
                        let (buf, n) = pass_near(&self.gain_near[g..end], present);
                        u.verified += n;
                        for &i in &buf[..n] {
                            let r = self.gains[g + i as usize] as usize;
                            if self.holds_far(&now, r, x, y) && self.set_hit(p, r) {
                                rematch.insert(x, y);
                            }
                        }
                        g = end;
                    }
                }
            }
            self.rematch_by_tests(board, &now, &list[..u.changed], &mut rematch);
        }
        self.snap = now;
        self.valid = true;

        // The class program at every focus to rematch, row by row.
        let Some(class) = rom.class(self.query.class) else {
            return u;
        };
        // Taken out for the loop (no allocation: an empty Vec is put in its place).
        let mut fresh = core::mem::take(&mut self.fresh);
        let mut out = MatchBuf::new(&mut fresh);
        let (hits, words, first) = (&self.hits, self.words, self.first);
        let (mut y0, mut y1) = (i32::MAX, i32::MIN);
        rematch.for_each(|x, y| {
            y0 = y0.min(y);
            y1 = y1.max(y + 1);
            u.rematched += 1;
            let p = point_index(x, y);
            if !self.focus_ok(self.state(&self.snap, x, y)) {
                return;
            }
            let ctx = Ctx {
                rom,
                board,
                host,
                persp: self.query.perspective,
                x,
                y,
            };
            let mut g = HitSet {
                words: &hits[p * words..(p + 1) * words],
                first,
            };
            let qmask = self.query.orientations.mask_at(x, y);
            run_class(&ctx, &class, qmask, &mut g, scratch, &mut out);
        });
        let (n, lost) = (out.len(), out.dropped());
        self.fresh = fresh;
        self.dropped += lost;
        if u.rematched > 0 {
            self.splice(&rematch, y0, y1, n);
        }
        u
    }

    /// Adds the foci with hits whose tests read a changed point or the liberties of a string
    /// that a change touched (every focus with hits when a test reads the whole board).
    fn rematch_by_tests<B: BoardView + ?Sized>(
        &self,
        board: &B,
        now: &Snapshot,
        changed: &[(i8, i8, u8, u8)],
        rematch: &mut PointSet,
    ) {
        let r = self.reach;
        if r.tests == 0 && r.libs.is_none() && !r.global {
            return;
        }
        let size = now.size as i32;
        let mut add = |x0: i32, y0: i32, x1: i32, y1: i32| {
            for y in y0.max(0)..(y1 + 1).min(size) {
                for x in x0.max(0)..(x1 + 1).min(size) {
                    if self.count[point_index(x, y)] > 0 {
                        rematch.insert(x, y);
                    }
                }
            }
        };
        if r.global {
            add(0, 0, size - 1, size - 1);
            return;
        }
        let mut b = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for &(x, y, _, _) in changed {
            let (x, y) = (x as i32, y as i32);
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        if r.tests > 0 {
            add(b.0 - r.tests, b.1 - r.tests, b.2 + r.tests, b.3 + r.tests);
        }
        if let Some(l) = r.libs {
            // Liberty counts change only for strings holding or touching a changed point.
            let mut seen = PointSet::new();
            let mut stack = [(0i8, 0i8); POINTS];
            let mut s = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
            for &(cx, cy, _, _) in changed {
                for (dx, dy) in [(0, 0), (0, -1), (-1, 0), (1, 0), (0, 1)] {
                    let (x, y) = (cx as i32 + dx, cy as i32 + dy);
                    if now.on_board(x, y) && now.state(x, y) != 2 && !seen.contains(x, y) {
                        walk_string(board, x, y, &mut seen, &mut stack, |sx, sy| {
                            s = (s.0.min(sx), s.1.min(sy), s.2.max(sx), s.3.max(sy));
                        });
                    }
                }
            }
            if s.0 <= s.2 {
                add(s.0 - l, s.1 - l, s.2 + l, s.3 + l);
            }
        }
    }

    /// Replaces the matches of the foci in `foci` (rows `y0..y1`) by the `n` fresh ones,
    /// recording the difference.
    fn splice(&mut self, foci: &PointSet, y0: i32, y1: i32, n: usize) {
        let key = |m: &Match| (m.focus.1 as i64) << 32 | m.focus.0 as i64;
        let old = &self.matches;
        // Matches of the rows above and below stay as they are.
        let a = old.partition_point(|m| m.focus.1 < y0);
        let b = old.partition_point(|m| m.focus.1 < y1);
        let fresh = &self.fresh[..n];
        self.spare.clear();
        let cap = self.capacity;
        let mut lost = 0;
        let mut keep = |v: &mut Vec<Match>, m: &Match| {
            if v.len() < cap {
                v.push(*m);
            } else {
                lost += 1;
            }
        };
        self.spare.extend_from_slice(&old[..a]);
        let (mut i, mut j) = (a, 0);
        while i < b || j < n {
            let k = match (old.get(i).filter(|_| i < b), fresh.get(j)) {
                (Some(o), Some(f)) => key(o).min(key(f)),
                (Some(o), None) => key(o),
                (None, Some(f)) => key(f),
                (None, None) => break,
            };
            let i0 = i;
            while i < b && key(&old[i]) == k {
                i += 1;
            }
            let j0 = j;
            while j < n && key(&fresh[j]) == k {
                j += 1;
            }
            let (was, is) = (&old[i0..i], &fresh[j0..j]);
            if was
                .first()
                .is_some_and(|m| !foci.contains(m.focus.0, m.focus.1))
            {
                for m in was {
                    keep(&mut self.spare, m);
                }
                continue;
            }
            for m in is {
                keep(&mut self.spare, m);
                if !was.contains(m) {
                    self.appeared.push(*m);
                }
            }
            for m in was {
                if !is.contains(m) {
                    self.vanished.push(*m);
                }
            }
        }
        for m in &old[b..] {
            keep(&mut self.spare, m);
        }
        self.dropped += lost;
        core::mem::swap(&mut self.matches, &mut self.spare);
    }
}

/// Entries filtered at once by [`pass_near`].
const CHUNK: usize = 128;

/// The positions in `near` (at most [`CHUNK`]) whose masks pass `present`, branch-free.
#[inline]
fn pass_near(near: &[u64], present: u64) -> ([u8; CHUNK], usize) {
    let mut buf = [0u8; CHUNK];
    let mut n = 0;
    for (i, &m) in near.iter().enumerate().take(CHUNK) {
        buf[n] = i as u8;
        n += (m & present == 0) as usize;
    }
    (buf, n)
}

/// The geometric filter over one focus's kept hits.
struct HitSet<'h> {
    words: &'h [u64],
    first: u32,
}

impl Geometry for HitSet<'_> {
    #[inline]
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        let (from, end) = ((from - self.first) as usize, (end - self.first) as usize);
        let mut w = from / 64;
        let mut bits = *self.words.get(w)? & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                let r = w * 64 + bits.trailing_zeros() as usize;
                return (r < end).then_some(self.first + r as u32);
            }
            w += 1;
            if w * 64 >= end {
                return None;
            }
            bits = *self.words.get(w)?;
        }
    }
}
