//! Where the class program writes its matches: a [`MatchBuf`] of full [`Match`]es (results
//! mapped to the board, pattern ids and priorities read), or a [`HitBuf`] of compact [`Hit`]s
//! (focus, pattern, orientation: 8 bytes) that the caller resolves to a [`Match`] only for the
//! hits it reads ([`Hit::resolve`]).
//!
//! Both receive the same matches in the same order: the class program decides (tests, globs,
//! rejects, modes) before it writes.

#[cfg(feature = "alloc")]
use super::{CallScratch, Host, Query};
use super::{DEFAULT_PATTERN, Match, MatchBuf, MatchResult, OutBuf, map_result};
#[cfg(feature = "alloc")]
use crate::board::BoardView;
use crate::geometry::Orientation;
use crate::rom::{ClassId, Rom};

/// A match in compact form: its focus, the ROM's pattern index and the orientation it is
/// reported in. [`Hit::resolve`] gives the full [`Match`] (the same one a [`MatchBuf`] would
/// have received).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Focus column.
    pub x: u8,
    /// Focus row.
    pub y: u8,
    /// The orientation the match is reported in (index of [`Orientation`]).
    pub orientation: u8,
    /// Index of the pattern in the ROM (not its `PatternSpec::id`: see [`Hit::pattern_id`]);
    /// [`DEFAULT_PATTERN`] for a class default.
    pub pattern: u32,
}

impl Hit {
    /// An empty slot, to fill a [`HitBuf`]'s storage.
    pub const EMPTY: Hit = Hit {
        x: 0,
        y: 0,
        orientation: 0,
        pattern: 0,
    };

    /// The focus as board coordinates.
    pub fn focus(&self) -> (i32, i32) {
        (self.x as i32, self.y as i32)
    }

    /// The pattern's `PatternSpec::id` (what [`Match::pattern`] holds).
    pub fn pattern_id(&self, rom: &Rom<'_>) -> u32 {
        if self.pattern == DEFAULT_PATTERN {
            DEFAULT_PATTERN
        } else {
            rom.pattern(self.pattern).id()
        }
    }

    /// The full match: result mapped to board coordinates, pattern id, priority. `class` is
    /// the class the hit was found in (for a class default's value).
    pub fn resolve(&self, rom: &Rom<'_>, class: ClassId) -> Match {
        let focus = self.focus();
        if self.pattern == DEFAULT_PATTERN {
            let value = rom
                .class(class)
                .and_then(|c| c.default_value())
                .unwrap_or(0);
            return Match {
                pattern: DEFAULT_PATTERN,
                orientation: 0,
                focus,
                result: MatchResult::Value { value, bits: 0 },
                priority: i32::MIN,
            };
        }
        let pat = rom.pattern(self.pattern);
        let t = Orientation::new(self.orientation).unwrap_or(Orientation::IDENTITY);
        Match {
            pattern: pat.id(),
            orientation: self.orientation,
            focus,
            result: pat
                .result()
                .map_or(MatchResult::None, |r| map_result(r, t, focus.0, focus.1)),
            priority: pat.priority(),
        }
    }
}

/// Caller-owned buffer of compact hits: `HitBuf::new(&mut [Hit::EMPTY; 256])`.
pub type HitBuf<'b> = OutBuf<'b, Hit>;

/// An output of the class program (see the module docs).
pub(crate) trait Sink {
    /// Entries stored so far.
    fn stored(&self) -> usize;
    /// Stores `m`, found as pattern index `p` (counted as dropped when full).
    fn put(&mut self, m: &Match, p: u32);
    /// Whether this output stores compact hits (then [`Sink::put_hit`] stores a match).
    const HITS: bool = false;
    /// Stores the match of pattern index `p` at `(x, y)` in orientation `t` (outputs with
    /// [`Sink::HITS`] only: nothing else of the match is needed).
    #[inline(always)]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) whole-board scan
    fn put_hit(&mut self, _x: i32, _y: i32, _t: u8, _p: u32) {}
    /// [`Sink::put_hit`] when `keep`, without a branch on `keep` ([`OutBuf::push_if`]).
    #[inline(always)]
    fn put_hit_if(&mut self, _x: i32, _y: i32, _t: u8, _p: u32, _keep: bool) {}
    /// Stores, when `keep`, the match of pattern index `p` at the focus `(x, y)` in
    /// orientation `t`, known from an entry's facts: its result of kind `kind` ([`Plain`]) at
    /// `at` (already mapped), the pattern's other fields in `f` (read only by outputs without
    /// [`Sink::HITS`]). Without a branch on `kind` or `keep`: in a class of mixed results
    /// both are as random as the patterns that match (docs/performance.md, "Cheaper results").
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn put_plain(
        &mut self,
        (x, y): (i32, i32),
        t: u8,
        p: u32,
        kind: u8,
        at: (i32, i32),
        f: &PatFact,
        keep: bool,
    ) {
        let _ = (x, y, t, p, kind, at, f, keep);
    }
    /// Stores `m` (pattern index `p`'s match at focus (0, 0), orientation 0) moved to the focus
    /// `(x, y)` in orientation `t`, a move result to `mv` (the whole-board scan's writing).
    #[inline(always)]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) whole-board scan
    fn put_moved(&mut self, m: &Match, p: u32, t: u8, focus: (i32, i32), mv: (i32, i32)) {
        let mut m = *m;
        move_match(&mut m, t, focus, mv);
        self.put(&m, p);
    }
    /// Whether a reject at `(x, y)` was stored since entry `start` (`rom` resolves compact
    /// entries).
    fn rejected_since(&self, rom: &Rom<'_>, start: usize, x: i32, y: i32) -> bool;
}

/// `m` (a template at focus (0, 0), orientation 0) moved to `focus` in orientation `t`, a move
/// result to `mv`: [`Sink::put_moved`]'s one patch, in place.
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) whole-board scan
fn move_match(m: &mut Match, t: u8, focus: (i32, i32), mv: (i32, i32)) {
    m.orientation = t;
    m.focus = focus;
    if let MatchResult::Move { x, y, .. } = &mut m.result {
        (*x, *y) = mv;
    }
}

impl Sink for MatchBuf<'_> {
    #[inline(always)]
    fn stored(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn put(&mut self, m: &Match, _p: u32) {
        self.push(*m);
    }
    /// The template copied whole into the slot, then patched there: built field by field in
    /// registers it cost 78 instructions a match, copied whole 63 (docs/performance.md, "Whole
    /// `Match`es from a template").
    #[inline(always)]
    fn put_moved(&mut self, m: &Match, _p: u32, t: u8, focus: (i32, i32), mv: (i32, i32)) {
        let Some(slot) = self.slots.get_mut(self.len) else {
            self.dropped += 1;
            return;
        };
        *slot = *m;
        move_match(slot, t, focus, mv);
        self.len += 1;
    }
    #[inline(always)]
    fn put_plain(
        &mut self,
        focus: (i32, i32),
        t: u8,
        _p: u32,
        kind: u8,
        at: (i32, i32),
        f: &PatFact,
        keep: bool,
    ) {
        let (x, y) = at;
        let result = match kind {
            Plain::MOVE => MatchResult::Move {
                x,
                y,
                value: f.value,
                bits: f.bits,
                sequence: (f.sequence != crate::rom::NONE).then_some(f.sequence),
            },
            Plain::REJECT => MatchResult::Reject { x, y },
            _ => MatchResult::Value {
                value: f.value,
                bits: f.bits,
            },
        };
        let m = Match {
            pattern: f.id,
            orientation: t,
            focus,
            result,
            priority: f.priority,
        };
        self.push_if(keep, m);
    }
    fn rejected_since(&self, _rom: &Rom<'_>, start: usize, x: i32, y: i32) -> bool {
        MatchBuf::rejected_since(self, start, x, y)
    }
}

impl Sink for HitBuf<'_> {
    #[inline(always)]
    fn stored(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn put(&mut self, m: &Match, p: u32) {
        self.push(Hit {
            x: m.focus.0 as u8,
            y: m.focus.1 as u8,
            orientation: m.orientation,
            pattern: p,
        });
    }
    const HITS: bool = true;
    #[inline(always)]
    fn put_hit(&mut self, x: i32, y: i32, t: u8, p: u32) {
        self.push(Hit {
            x: x as u8,
            y: y as u8,
            orientation: t,
            pattern: p,
        });
    }
    #[inline(always)]
    fn put_hit_if(&mut self, x: i32, y: i32, t: u8, p: u32, keep: bool) {
        let h = Hit {
            x: x as u8,
            y: y as u8,
            orientation: t,
            pattern: p,
        };
        self.push_if(keep, h);
    }
    fn rejected_since(&self, rom: &Rom<'_>, start: usize, x: i32, y: i32) -> bool {
        self.slots[start.min(self.len)..self.len].iter().any(|h| {
            h.pattern != DEFAULT_PATTERN
                && matches!(
                    h.resolve(rom, ClassId(0)).result,
                    MatchResult::Reject { x: rx, y: ry } if rx == x && ry == y
                )
        })
    }
}

impl<T> OutBuf<'_, T> {
    /// Stores `t` when `keep` (counts it as dropped when full), without a branch on `keep`:
    /// the free slot is written either way and counted only when kept.
    #[inline(always)]
    fn push_if(&mut self, keep: bool, t: T) {
        match self.slots.get_mut(self.len) {
            Some(slot) => {
                *slot = t;
                self.len += keep as usize;
            }
            None => self.dropped += keep as usize,
        }
    }
}

/// The rejected points of one call at one focus: a bit per point of the largest board, so a
/// move is checked against the rejects in one step (points off that grid ask the sink).
#[derive(Clone, Copy)]
pub(crate) struct Rejected {
    bits: [u64; 10],
    /// Rejects stored so far (0: `bits` not cleared yet).
    count: usize,
    /// Rejects outside the grid (off the board): the first [`OUTSIDE`] of them.
    outside: [(i32, i32); OUTSIDE],
    /// How many rejects lay outside the grid.
    outside_count: usize,
}

/// Off-board rejects kept in [`Rejected`]; beyond that, moves are checked against the sink.
const OUTSIDE: usize = 8;

impl Rejected {
    /// No rejects yet.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Rejected {
            bits: [0; 10],
            count: 0,
            outside: [(0, 0); OUTSIDE],
            outside_count: 0,
        }
    }

    /// Where `(x, y)` sits in the grid (`None` off it): computed once per match, for both
    /// [`Rejected::has_at`] and [`Rejected::add_if_at`].
    #[inline(always)]
    pub(crate) fn index(x: i32, y: i32) -> Option<usize> {
        ((0..25).contains(&x) && (0..25).contains(&y)).then_some((y * 25 + x) as usize)
    }

    /// Notes a reject at `(x, y)`.
    pub(crate) fn add(&mut self, x: i32, y: i32) {
        self.count += 1;
        match Self::index(x, y) {
            Some(i) => self.bits[i >> 6] |= 1 << (i & 63),
            None => {
                if self.outside_count < OUTSIDE {
                    self.outside[self.outside_count] = (x, y);
                }
                self.outside_count += 1;
            }
        }
    }

    /// Notes a reject at `(x, y)` (grid index `at`, [`Rejected::index`]) when `cond`
    /// (without a branch on `cond` on the board).
    #[inline(always)]
    pub(crate) fn add_if_at(&mut self, at: Option<usize>, cond: bool, x: i32, y: i32) {
        match at {
            Some(i) => {
                self.bits[i >> 6] |= (cond as u64) << (i & 63);
                self.count += cond as usize;
            }
            None if cond => self.add(x, y),
            None => {}
        }
    }

    /// Whether a move at `(x, y)` was rejected since `start` of `out`.
    #[inline(always)]
    pub(crate) fn has<S: Sink + ?Sized>(
        &self,
        rom: &Rom<'_>,
        out: &S,
        start: usize,
        x: i32,
        y: i32,
    ) -> bool {
        self.has_at(Self::index(x, y), rom, out, start, x, y)
    }

    /// [`Rejected::has`] with the grid index `at` ([`Rejected::index`]) known.
    #[inline(always)]
    pub(crate) fn has_at<S: Sink + ?Sized>(
        &self,
        at: Option<usize>,
        rom: &Rom<'_>,
        out: &S,
        start: usize,
        x: i32,
        y: i32,
    ) -> bool {
        if self.count == 0 {
            return false;
        }
        match at {
            Some(i) => self.bits[i >> 6] & (1 << (i & 63)) != 0,
            None if self.outside_count <= OUTSIDE => {
                self.outside[..self.outside_count].contains(&(x, y))
            }
            None => out.rejected_since(rom, start, x, y),
        }
    }
}

/// What the class program may write of an entry's match without reading its pattern's and
/// result's records (only when it has no tests): its result's kind and its offset as the
/// entry's own orientation maps it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plain {
    /// [`Plain::NO`] (tests, no result, or read from the ROM), `MOVE`, `REJECT` or `VALUE`.
    pub kind: u8,
    pub dx: i8,
    pub dy: i8,
}

impl Plain {
    // The numbers of the image's `plain` field (`rom/facts.rs`).
    pub const NO: u8 = crate::rom::facts::NOT_PLAIN;
    pub const MOVE: u8 = crate::rom::facts::MOVE;
    pub const REJECT: u8 = crate::rom::facts::REJECT;

    /// A result of kind `kind` at the stored offset `(dx, dy)`, as orientation `o` maps it.
    #[inline(always)]
    pub(crate) fn turned(kind: u8, dx: i8, dy: i8, o: u8) -> Plain {
        let [a, b, c, d] = TURN[o as usize & 7];
        let (dx, dy) = (dx as i32, dy as i32);
        Plain {
            kind,
            dx: (a * dx + b * dy) as i8,
            dy: (c * dx + d * dy) as i8,
        }
    }

    /// The result's point for a match at `(x, y)` reported in orientation `t` of an entry of
    /// orientation `o`: the stored offset as is when `t == o` (every match of a query of all
    /// orientations), else turned from `o` to `t` ([`RETURN`]).
    #[inline(always)]
    pub(crate) fn at(self, o: u8, t: u8, x: i32, y: i32) -> (i32, i32) {
        let (dx, dy) = (self.dx as i32, self.dy as i32);
        if t == o {
            return (x + dx, y + dy);
        }
        let [a, b, c, d] = RETURN[o as usize & 7][t as usize & 7];
        (x + a * dx + b * dy, y + c * dx + d * dy)
    }
}

/// `[a, b, c, d]` per orientation: it maps `(dx, dy)` to `(a dx + b dy, c dx + d dy)`
/// ([`Orientation::apply`] as a matrix, without its loop over quarter turns).
pub(crate) const TURN: [[i32; 4]; 8] = {
    let mut m = [[0; 4]; 8];
    let mut t = 0;
    while t < 8 {
        let o = match Orientation::new(t as u8) {
            Some(o) => o,
            None => Orientation::IDENTITY,
        };
        let (a, c) = o.apply(1, 0);
        let (b, d) = o.apply(0, 1);
        m[t] = [a, b, c, d];
        t += 1;
    }
    m
};

/// `RETURN[o][t]`: [`TURN`]`[t]` after the inverse of `TURN[o]` (its transpose: the turns
/// are orthogonal), mapping an offset as orientation `o` places it to where `t` does.
pub(crate) const RETURN: [[[i32; 4]; 8]; 8] = {
    let mut m = [[[0; 4]; 8]; 8];
    let mut o = 0;
    while o < 8 {
        // The inverse of `o`: its transpose.
        let [a, b, c, d] = TURN[o];
        let inv = [a, c, b, d];
        let mut t = 0;
        while t < 8 {
            let [p, q, r, s] = TURN[t];
            m[o][t] = [
                p * inv[0] + q * inv[2],
                p * inv[1] + q * inv[3],
                r * inv[0] + s * inv[2],
                r * inv[1] + s * inv[3],
            ];
            t += 1;
        }
        o += 1;
    }
    m
};

/// What a full [`Match`] of a plain pattern (no tests) takes from the pattern's and its
/// result's records: the image's `pattern_facts` record (format v5), kept per pattern in a
/// [`HitPlan`] too, so that a `Match` is written from the facts (one more read, not two
/// dependent ones).
pub(crate) type PatFact = crate::rom::records::PatFactRec;

/// Where the class program reads an entry: `(pattern index, orientation, covers, plain)`.
pub(crate) trait Entries {
    fn get(&self, rom: &Rom<'_>, e: u32) -> (u32, u8, u8, Plain);
    /// The facts of pattern index `p` whose entry `get` called plain.
    fn pattern(&self, rom: &Rom<'_>, p: u32) -> PatFact;
}

/// The ROM's entry records, with their plain facts in a format-v5 image with `pattern_facts`
/// (`rom/facts.rs`; nothing is known plain in other images).
pub(crate) struct FromRom;

impl Entries for FromRom {
    #[inline(always)]
    fn get(&self, rom: &Rom<'_>, e: u32) -> (u32, u8, u8, Plain) {
        let (p, o, cov, plain) = rom.entry_plain(e);
        let (kind, dx, dy) = crate::rom::facts::decode(plain);
        (p, o, cov, Plain::turned(kind, dx, dy, o))
    }
    #[inline(always)]
    fn pattern(&self, rom: &Rom<'_>, p: u32) -> PatFact {
        rom.pat_fact(p)
    }
}

/// One fact per entry of a class, 8 bytes: covers (bits 0-7), orientation (8-10), the
/// result's kind when the pattern has no tests (11-12, [`Plain`]), its offset as the entry's
/// orientation maps it (dx 16-23, dy 24-31), the pattern index (32-63). One load per
/// candidate (a second, per-pattern table of 4-byte entries measured slower).
#[cfg(feature = "alloc")]
#[derive(Clone, Copy)]
pub(crate) struct Facts<'f> {
    facts: &'f [u64],
    first: u32,
    /// Per pattern index from `pat0` ([`PatFact`]).
    pats: &'f [PatFact],
    pat0: u32,
}

#[cfg(feature = "alloc")]
impl Entries for Facts<'_> {
    #[inline(always)]
    fn get(&self, rom: &Rom<'_>, e: u32) -> (u32, u8, u8, Plain) {
        let Some(&f) = self.facts.get(e.wrapping_sub(self.first) as usize) else {
            return FromRom.get(rom, e);
        };
        let plain = Plain {
            kind: (f >> 11) as u8 & 3,
            dx: (f >> 16) as i8,
            dy: (f >> 24) as i8,
        };
        ((f >> 32) as u32, (f >> 8) as u8 & 7, f as u8, plain)
    }
    #[inline(always)]
    fn pattern(&self, _rom: &Rom<'_>, p: u32) -> PatFact {
        self.pats
            .get(p.wrapping_sub(self.pat0) as usize)
            .copied()
            .unwrap_or_default()
    }
}

/// The [`PatFact`] of pattern index `p` (`rom/facts.rs` derives it, as the writer does).
#[cfg(feature = "alloc")]
fn pat_fact(rom: &Rom<'_>, p: u32) -> PatFact {
    crate::rom::facts::derived(rom, p as usize).1
}

/// The fact of entry `e` (see [`Facts`]).
#[cfg(feature = "alloc")]
fn fact(rom: &Rom<'_>, e: u32) -> u64 {
    let (p, o, cov) = rom.entry(e);
    let (kind, dx, dy) = crate::rom::facts::decode(crate::rom::facts::derived(rom, p as usize).0);
    // The offset as the entry's own orientation places it ([`Plain::at`]).
    let Plain { dx, dy, .. } = Plain::turned(kind, dx, dy, o);
    (p as u64) << 32
        | (dy as u8 as u64) << 24
        | (dx as u8 as u64) << 16
        | (kind as u64) << 11
        | ((o & 7) as u64) << 8
        | cov as u64
}

/// The per-entry facts of one class, derived from a ROM once at load (feature `alloc`; no
/// change to the image): each oriented entry's pattern, orientation and covers, and for a
/// pattern without tests its result's kind and offset, in 8 bytes. Through it,
/// [`HitPlan::match_hits_at`] writes the [`Hit`] of such a match (and applies its reject)
/// without reading the pattern's and the result's records, which lie at scattered places
/// (docs/performance.md, "Cheaper results").
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct HitPlan {
    class: ClassId,
    /// What ties the facts to their ROM: source hash, total entries, class first entry and count.
    fingerprint: (u64, usize, u32, u32),
    /// Per entry (see [`Facts`]).
    facts: alloc::vec::Vec<u64>,
    /// Per pattern index from `pat0`, for `Match` output ([`PatFact`]).
    pats: alloc::vec::Vec<PatFact>,
    pat0: u32,
}

#[cfg(feature = "alloc")]
impl HitPlan {
    /// The facts of class `class` of `rom`; `None` when there is no such class.
    pub fn new(rom: &Rom<'_>, class: ClassId) -> Option<HitPlan> {
        let info = rom.class(class)?;
        let (first, count) = (info.first_entry(), info.entry_count());
        let facts: alloc::vec::Vec<u64> = (first..first + count).map(|e| fact(rom, e)).collect();
        let ps = || facts.iter().map(|f| (f >> 32) as u32);
        let pat0 = ps().min().unwrap_or(0);
        let pat_end = ps().max().map_or(pat0, |p| p + 1);
        Some(HitPlan {
            class,
            fingerprint: (rom.source_hash(), rom.entry_count(), first, count),
            pats: (pat0..pat_end).map(|p| pat_fact(rom, p)).collect(),
            pat0,
            facts,
        })
    }

    /// The class these facts describe.
    pub fn class(&self) -> ClassId {
        self.class
    }

    /// Entries whose matches are written from the facts alone (patterns without tests, with a
    /// result): for tests and statistics.
    pub fn plain_count(&self) -> usize {
        let kind = |&f: &u64| (f >> 11) as u8 & 3;
        self.facts.iter().filter(|f| kind(f) != Plain::NO).count()
    }

    /// Whether the facts were derived from `rom` (same source hash and class layout): else
    /// [`HitPlan::match_hits_at`] takes [`Rom::match_hits_at`].
    pub fn fits(&self, rom: &Rom<'_>) -> bool {
        rom.class(self.class).is_some_and(|c| {
            self.fingerprint
                == (
                    rom.source_hash(),
                    rom.entry_count(),
                    c.first_entry(),
                    c.entry_count(),
                )
        })
    }

    /// [`Rom::match_hits_at`] through the facts: the same hits in the same order. A query of
    /// another class, or facts of another ROM, take [`Rom::match_hits_at`].
    #[allow(clippy::too_many_arguments)]
    pub fn match_hits_at<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        x: i32,
        y: i32,
        scratch: &mut impl CallScratch,
        out: &mut HitBuf<'_>,
    ) -> usize {
        if q.class != self.class || !self.fits(rom) {
            return rom.match_hits_at(board, host, q, x, y, scratch, out);
        }
        super::dispatch::match_at_from(rom, board, host, q, x, y, scratch, &self.src(), out)
    }

    /// [`Rom::match_at`] through the facts: the same matches in the same order, a plain
    /// pattern's `Match` written from its entry's and its pattern's facts (no record reads). A
    /// query of another class, or facts of another ROM, take [`Rom::match_at`].
    #[allow(clippy::too_many_arguments)]
    pub fn match_at<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        x: i32,
        y: i32,
        scratch: &mut impl CallScratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        if q.class != self.class || !self.fits(rom) {
            return rom.match_at(board, host, q, x, y, scratch, out);
        }
        super::dispatch::match_at_from(rom, board, host, q, x, y, scratch, &self.src(), out)
    }

    fn src(&self) -> Facts<'_> {
        Facts {
            facts: &self.facts,
            first: self.fingerprint.2,
            pats: &self.pats,
            pat0: self.pat0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `RETURN[o][t]` after `TURN[o]` is `TURN[t]`, and an offset stored as `o` maps it is
    /// placed where `t` places the raw one ([`Plain::at`]), for every pair.
    #[test]
    fn turns_between_orientations_compose() {
        let mul = |[p, q, r, s]: [i32; 4], [a, b, c, d]: [i32; 4]| {
            [p * a + q * c, p * b + q * d, r * a + s * c, r * b + s * d]
        };
        for o in 0..8u8 {
            for t in 0..8u8 {
                let turn = |m: [i32; 4], (dx, dy): (i32, i32)| {
                    (m[0] * dx + m[1] * dy, m[2] * dx + m[3] * dy)
                };
                let rel = RETURN[o as usize][t as usize];
                assert_eq!(mul(rel, TURN[o as usize]), TURN[t as usize], "{o} -> {t}");
                for (dx, dy) in [(1, 0), (0, 1), (2, -3), (-1, 2)] {
                    let (sx, sy) = turn(TURN[o as usize], (dx, dy));
                    let stored = Plain {
                        kind: Plain::MOVE,
                        dx: sx as i8,
                        dy: sy as i8,
                    };
                    let (wx, wy) = turn(TURN[t as usize], (dx, dy));
                    assert_eq!(stored.at(o, t, 5, 7), (5 + wx, 7 + wy), "{o} -> {t}");
                }
            }
        }
    }
}
