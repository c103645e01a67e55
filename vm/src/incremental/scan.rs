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
//! from move to move. A set of a plain class can keep entries instead of matches
//! ([`IncrementalScan::with_entry_results`]: [`EntryHit`] records, `match_of` on demand).

#[path = "journal.rs"]
mod journal;

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::snapshot::{POINTS, PointSet, Snapshot, walk_string};
use crate::board::{BoardView, Colour, MAX_SIZE};
use crate::geometry::Orientation;
use crate::matching::simd::{and_rows, prefetch, prefetch_in};
use crate::matching::{
    Ctx, Fact, Geometry, Host, Match, MatchBuf, Query, Scratch, plain_facts, put_plain, run_class,
};
use crate::rom::bytecode::{OpReach, decode};
use crate::rom::lut::NEIGHBOURS;
use crate::rom::{ClassId, Rom};
pub use journal::DEFAULT_JOURNAL_BYTES;
use journal::Journal;

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

/// A match of a set in entry mode ([`IncrementalScan::with_entry_results`]): its focus and
/// the ROM entry (pattern and orientation variant, [`Rom::entry`]) whose geometric hit it
/// is; [`IncrementalScan::match_of`] builds the [`Match`]. Eight bytes, `Copy`; ordered as
/// the set's matches are (focus row, column, then entry: the class program's order at a
/// focus of a plain class).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EntryHit {
    /// [`point_index`] of the focus (row-major: scan order).
    point: u16,
    entry: u32,
}

impl EntryHit {
    #[inline(always)]
    fn new(point: usize, entry: u32) -> EntryHit {
        EntryHit {
            point: point as u16,
            entry,
        }
    }
    /// The focus `(x, y)`.
    pub fn focus(self) -> (i32, i32) {
        let p = self.point as i32;
        (p % MAX_SIZE as i32, p / MAX_SIZE as i32)
    }
    /// The ROM entry ([`Rom::entry`]: pattern index, orientation, covers).
    pub fn entry(self) -> u32 {
        self.entry
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
                    // Each instruction's reach is defined beside its encoding (rom/bytecode.rs).
                    let (d, libs) = match op.reach() {
                        OpReach::Near { radius, libs } => (radius, libs),
                        OpReach::Board => {
                            r.global = true;
                            (0, false)
                        }
                        OpReach::Host => {
                            r.host = true;
                            (0, false)
                        }
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
    /// Entries put through the 3x3 filter at a focus (the members of the transition index's
    /// buckets that were read, and every entry at a focus matched from scratch).
    pub checked: usize,
    /// Of those, the ones that passed the 3x3 filter and had their farther cells read.
    pub verified: usize,
    /// Foci whose class program ran again.
    pub rematched: usize,
    /// Sets brought back from their journal instead of matching (the update undid the
    /// last recorded one): 1 or 0 for a set, the count for a group.
    pub restored: usize,
}

/// One cell of an oriented entry, in board orientation.
#[derive(Clone, Copy, Debug)]
struct Cell {
    dx: i8,
    dy: i8,
    allowed: u8,
    /// The cell's offset slot in the transition index ([`NO_SLOT`] beyond the board's span).
    slot: u16,
}

/// Farthest offset a cell on the board can have from an on-board focus.
const MAX_SPAN: i32 = MAX_SIZE as i32 - 1;
const NO_SLOT: u16 = u16::MAX;
/// Points the bucket filter reads: the focus's 3x3 square (its 8 neighbours in
/// [`NEIGHBOURS`] order, then the focus) and 8 more, chosen per offset slot of the change
/// ([`Index::picks`]).
const FILTERED: usize = 17;
/// Buckets of every entry (matching a focus from scratch), one per set of states of the
/// focus's four orthogonal neighbours (the first four of [`NEIGHBOURS`], 2 bits each): an
/// entry is in each bucket whose states it allows there, so a focus reads only the entries
/// its own neighbours allow.
const ALL: usize = 256;
/// Points the filter of an [`ALL`] bucket reads: the rest of the focus's 5x5 square (the
/// focus, its 4 diagonal neighbours and the 16 points of its ring), per bucket in the order
/// that empties words soonest ([`Index::all_picks`]).
const ALL_FILTERED: usize = 21;

/// u64 per cache line: each bucket's rows start one.
const LINE: usize = 8;
/// Words of a bucket ANDed together (one load per point: [`and_rows`]).
const CHUNK: usize = 8;

#[inline(always)]
fn point_index(x: i32, y: i32) -> usize {
    y as usize * MAX_SIZE as usize + x as usize
}

/// A list of entries with their filter: bit `j` of row `(s * points + i) * words + w`
/// (`words` = `len / 64` rounded up; `points`: [`FILTERED`], or [`ALL_FILTERED`] for the
/// [`ALL`] buckets) says whether member `64 * w + j` allows state `s` at filtered point `i`,
/// so ANDing the rows that the states around the focus and at the slot's picks
/// ([`Index::picks`]) select leaves exactly the members those points allow. A (state, point)
/// row of up to 8 words is one load, and the rows of points in the same state (mostly empty)
/// are side by side: fewer lines than one block of every row per word.
#[derive(Clone, Copy, Debug, Default)]
struct Bucket {
    members: u32,
    len: u32,
    rows: u32,
    /// Bit `4 * i + s`: some member allows state `s` at filtered point `i` (0..9: the
    /// focus's 3x3), so most buckets a focus cannot use are passed over unread.
    near: u64,
    /// The same over the change's 8 neighbours ([`NEIGHBOURS`] order; not filter rows):
    /// one read of the change's states serves every focus it could visit (folded into
    /// [`Index::gain_rows`], so most foci whose bucket fails are not visited at all).
    change: u32,
}

/// A focus an update visits for one change: its bucket's slot.
#[derive(Clone, Copy, Debug, Default)]
struct Visit {
    x: i8,
    y: i8,
    slot: u16,
}

/// A visited focus whose bucket passed its summaries: the states the filter reads.
#[derive(Clone, Copy, Debug, Default)]
struct Cand {
    x: i8,
    y: i8,
    bucket: Bucket,
    st: [u8; FILTERED],
}

/// Survivors of a whole-class pass's filter held before their window masks are read (a word
/// adds at most 64).
const HELD: usize = 128;
/// Survivors of the filter held before their ids are read (then checked, and the list
/// refilled).
const SURVIVORS: usize = 512;
/// The filter checks its held survivors once more than this many are held (a word adds at
/// most 64, so the list stays within [`SURVIVORS`]); lowered by tests to force the refill.
static FLUSH: AtomicUsize = AtomicUsize::new(SURVIVORS - 64);

/// Sets after how many held survivors the filter checks them (`None`: the default; at most
/// 448), for tests: every setting gives the same sets.
#[cfg(feature = "bench-internals")]
pub fn set_survivor_flush(after: Option<usize>) {
    let after = after.map_or(SURVIVORS - 64, |n| n.min(SURVIVORS - 64));
    FLUSH.store(after, Ordering::Relaxed);
}

/// What a class's matches need from the board, built once per class and shared by the
/// perspectives ([`IncrementalScan::for_perspective`]): the oriented entries' cells and the
/// transition index. States are from the query's perspective, so both colours read the
/// same index.
#[derive(Debug)]
struct Index {
    focus: u8,
    first: u32,
    entries: usize,
    /// Per entry: its cells (`starts[e]..starts[e + 1]`), nearest the focus first; those
    /// `far[e][0]..far[e][1]` (the end repeated: one read for the far check) lie beyond the
    /// 7x7 window that `win` covers.
    starts: Vec<u32>,
    far: Vec<[u32; 2]>,
    /// Per entry, per state (friend, foe, empty, off): the points of the 7x7 window around
    /// the focus (bit [`win_bit`]) where a cell refuses that state; the entry holds in the
    /// window when no state plane of the focus's [`View7`] meets its mask.
    win: Vec<[u64; 4]>,
    cells: Vec<Cell>,
    /// Cells reach at most `span` from the focus (capped at the board's span); the offset
    /// `(dx, dy)` has slot `grid[(dy + span) * side + dx + span]` ([`NO_SLOT`]: no cell).
    span: i32,
    side: usize,
    grid: Vec<u16>,
    /// Per slot, the filter's points 9..17 for a change at that offset (padded-state
    /// deltas from the focus, [`PAD`]): the 8 points that refuse the most on-board states
    /// over the slot's bucket members, among the change's 8 neighbours and the focus's 5x5
    /// ring (both inside the padding's 2-point border). The change's neighbours alone (the
    /// first choice) repeat the focus's 3x3 when the change is near the focus and read
    /// points beyond most patterns' cells when it is far.
    picks: Vec<[i16; 8]>,
    /// Per [`ALL`] bucket, its filter's points for matching a focus from scratch (padded-state
    /// deltas, as `picks`): the focus's 5x5 square but its orthogonal neighbours (the
    /// bucket's key), those where its members refuse the most on-board states first.
    all_picks: Vec<[i16; ALL_FILTERED]>,
    /// u64 words per bitmap over the slots.
    slot_words: usize,
    /// Per entry, `3 * slot_words` u64: the slots where one of its cells refuses state `b`
    /// (friend, foe, empty), ORed into a focus's break bitmaps when the entry becomes a hit
    /// (one copy instead of a walk over its cells).
    refusals: Vec<u64>,
    /// The same by offset: per state `b` (friend, foe, empty) and slot, a bitmap over the
    /// entries (`entry_words` u64 from [`Index::drops_at`]) of those with a cell there
    /// refusing `b`, so a change drops a focus's hits one word at a time.
    drops: Vec<u64>,
    /// u64 words per bitmap over the entries (a focus's hit set, a drop bitmap).
    entry_words: usize,
    /// Offsets that some cell has.
    slots: usize,
    /// Per row `dy + span` of the offsets: bit `span - dx` when the bucket of `(dx, dy)`
    /// can gain (`gain_rows`, per transition `t = a * 3 + b`, neighbour `i` of the change and
    /// its state `s`, at `((t * 8 + i) * 4 + s) * side`: not empty, and some member allows
    /// `s` there, i.e. its `change` summary; the 8 rows of a change's neighbours ANDed), or
    /// when some entry refuses `b` there (`break_rows`, per `b`), so an update visits only
    /// the foci where a change can gain or break something (a row of foci is a shift away).
    gain_rows: Vec<u64>,
    break_rows: Vec<u64>,
    /// Per slot, `buckets[(a * 3 + b) * slots + slot]` (one change reads one stretch): the
    /// entries with a cell there allowing
    /// `b` but not `a` (those a change from `a` to `b` there can complete); the last
    /// [`ALL`] hold every entry (matching a focus from scratch).
    buckets: Vec<Bucket>,
    members: Vec<u32>,
    rows: Vec<u64>,
    /// Per entry, its match when the class is plain (`matching::ScanPlan`'s facts: every
    /// geometric hit is a match, in entry order); `None`: the class program runs.
    plain: Option<Vec<Fact>>,
}

impl Index {
    fn new(rom: &Rom<'_>, class: ClassId) -> Option<Index> {
        let info = rom.class(class)?;
        let (first, n) = (info.first_entry(), info.entry_count() as usize);
        let cheb = |x: i32, y: i32| x.abs().max(y.abs());
        let mut starts = Vec::with_capacity(n + 1);
        let mut far = Vec::with_capacity(n);
        let mut cells = Vec::new();
        let mut span = 0;
        for r in 0..n {
            let (p, o, _) = rom.entry(first + r as u32);
            let t = Orientation::new(o).unwrap_or(Orientation::IDENTITY);
            starts.push(cells.len() as u32);
            let at = cells.len();
            for (dx, dy, allowed) in rom.pattern(p).cells() {
                let (x, y) = t.apply(dx as i32, dy as i32);
                cells.push(Cell {
                    dx: x as i8,
                    dy: y as i8,
                    allowed,
                    slot: NO_SLOT,
                });
                if cheb(x, y) <= MAX_SPAN {
                    span = span.max(cheb(x, y));
                }
            }
            // Nearest cells first: they reject most candidates.
            let dist = |c: &Cell| cheb(c.dx as i32, c.dy as i32);
            cells[at..].sort_by_key(dist);
            let near = cells[at..].iter().take_while(|c| dist(c) <= WIN).count();
            far.push([(at + near) as u32, cells.len() as u32]);
        }
        starts.push(cells.len() as u32);
        let win = (0..n)
            .map(|r| {
                let mut m = [0u64; 4];
                for c in &cells[starts[r] as usize..far[r][0] as usize] {
                    let bit = 1u64 << win_bit(c.dx as i32, c.dy as i32);
                    for (s, m) in m.iter_mut().enumerate() {
                        if c.allowed >> s & 1 == 0 {
                            *m |= bit;
                        }
                    }
                }
                m
            })
            .collect();
        let side = 2 * span as usize + 1;
        let cell_at = |c: &Cell| {
            let (x, y) = (c.dx as i32, c.dy as i32);
            (cheb(x, y) <= span).then(|| (y + span) as usize * side + (x + span) as usize)
        };
        // Slots in grid order (deterministic), one per offset some cell has.
        let mut grid = vec![NO_SLOT; side * side];
        for c in &cells {
            if let Some(g) = cell_at(c) {
                grid[g] = 0;
            }
        }
        let mut slots = 0u16;
        for g in grid.iter_mut().filter(|g| **g == 0) {
            *g = slots;
            slots += 1;
        }
        for c in cells.iter_mut() {
            if let Some(g) = cell_at(c) {
                c.slot = grid[g];
            }
        }
        // The states entry `r` allows at the filtered points: its 3x3 square and `more`.
        let filtered = |cells: &[Cell], starts: &[u32], r: usize, more: &[(i32, i32); 8]| {
            let square = NEIGHBOURS.map(|(x, y)| (x as i32, y as i32));
            let (near, more) = (
                allowed_at(cells, starts, r, &square),
                allowed_at(cells, starts, r, more),
            );
            let mut f = [0u8; FILTERED];
            f[..8].copy_from_slice(&near);
            f[8] = allowed_at(cells, starts, r, &[(0, 0)])[0];
            f[9..].copy_from_slice(&more);
            f
        };
        // (slot, a * 3 + b, entry) for every cell allowing b but not a.
        let mut keyed: Vec<(u16, u8, u32, i8, i8)> = Vec::new();
        for r in 0..n {
            for c in &cells[starts[r] as usize..starts[r + 1] as usize] {
                if c.slot == NO_SLOT {
                    continue;
                }
                for a in 0..3u8 {
                    for b in 0..3u8 {
                        if a != b && c.allowed >> b & 1 != 0 && c.allowed >> a & 1 == 0 {
                            keyed.push((c.slot, a * 3 + b, r as u32, c.dx, c.dy));
                        }
                    }
                }
            }
        }
        keyed.sort_unstable();
        keyed.dedup();
        let picks = pick_points(&cells, &starts, &keyed, slots as usize);
        // A focus state no entry allows at its focus cell starts no match: the class's
        // declared focus narrowed by its entries' own (a class declared `focus any` whose
        // patterns all anchor on stones visits stones only).
        let entry_focus = (0..n).fold(0u8, |acc, r| {
            let own = cells[starts[r] as usize..starts[r + 1] as usize]
                .iter()
                .find(|c| (c.dx, c.dy) == (0, 0))
                .map_or(0xF, |c| c.allowed);
            acc | own
        });
        let mut ix = Index {
            focus: info.focus() & entry_focus,
            first,
            entries: n,
            starts,
            far,
            win,
            cells,
            span,
            side,
            grid,
            all_picks: vec![[0; ALL_FILTERED]; ALL],
            picks: picks
                .iter()
                .map(|p| p.map(|(x, y)| (y * PAD as i32 + x) as i16))
                .collect(),
            slot_words: (slots as usize).div_ceil(64).max(1),
            refusals: Vec::new(),
            drops: Vec::new(),
            entry_words: n.div_ceil(64).max(1),
            slots: slots as usize,
            gain_rows: vec![0; 9 * 8 * 4 * side],
            break_rows: vec![0; 3 * side],
            buckets: vec![Bucket::default(); slots as usize * 9 + ALL],
            members: Vec::with_capacity(keyed.len() + n),
            rows: Vec::new(),
            plain: plain_facts(rom, &info),
        };
        let mut i = 0;
        while i < keyed.len() {
            let (slot, t) = (keyed[i].0, keyed[i].1);
            let j = i + keyed[i..]
                .iter()
                .take_while(|k| (k.0, k.1) == (slot, t))
                .count();
            let members: Vec<_> = keyed[i..j]
                .iter()
                .map(|k| {
                    let f = filtered(&ix.cells, &ix.starts, k.2 as usize, &picks[slot as usize]);
                    (k.2, f)
                })
                .collect();
            let (dx, dy) = (keyed[i].3 as i32, keyed[i].4 as i32);
            let nb = NEIGHBOURS.map(|(x, y)| (dx + x as i32, dy + y as i32));
            let change = keyed[i..j].iter().fold(0u32, |c, k| {
                let f = filtered(&ix.cells, &ix.starts, k.2 as usize, &nb);
                (9..FILTERED).fold(c, |c, p| c | (f[p] as u32 & 0xF) << (4 * (p - 9)))
            });
            ix.buckets[t as usize * slots as usize + slot as usize] =
                ix.add_bucket(members, change);
            i = j;
        }
        let mirrored = |dx: i8, dy: i8| ((dy as i32 + span) as usize, 1u64 << (span - dx as i32));
        for &(slot, t, _, dx, dy) in &keyed {
            let (row, bit) = mirrored(dx, dy);
            let change = ix.buckets[t as usize * slots as usize + slot as usize].change;
            for k in (0..32).filter(|k| change >> k & 1 != 0) {
                ix.gain_rows[(t as usize * 32 + k) * side + row] |= bit;
            }
        }
        for c in ix.cells.iter().filter(|c| c.slot != NO_SLOT) {
            let (row, bit) = mirrored(c.dx, c.dy);
            for b in 0..3 {
                if c.allowed >> b & 1 == 0 {
                    ix.break_rows[b * side + row] |= bit;
                }
            }
        }
        let sw = ix.slot_words;
        ix.refusals = vec![0; n * 3 * sw];
        ix.drops = vec![0; 3 * ix.slots * ix.entry_words];
        for r in 0..n {
            for c in &ix.cells[ix.starts[r] as usize..ix.starts[r + 1] as usize] {
                if c.slot == NO_SLOT {
                    continue;
                }
                let (i, bit) = (c.slot as usize / 64, 1u64 << (c.slot % 64));
                for b in 0..3 {
                    if c.allowed >> b & 1 == 0 {
                        ix.refusals[(r * 3 + b) * sw + i] |= bit;
                        let at = ix.drops_at(b as u8, c.slot) + r / 64;
                        ix.drops[at] |= 1 << (r % 64);
                    }
                }
            }
        }
        // Matching a focus from scratch: every entry, in the bucket of each set of states
        // it allows at the focus's orthogonal neighbours, filtered by the rest of the 5x5
        // square, where the bucket's entries refuse the most first.
        let square: Vec<(i32, i32)> = (-2..=2)
            .flat_map(|y| (-2..=2).map(move |x| (x, y)))
            .filter(|&(x, y): &(i32, i32)| x.abs() + y.abs() != 1)
            .collect();
        let orthogonal: [(i32, i32); 4] =
            core::array::from_fn(|i| (NEIGHBOURS[i].0 as i32, NEIGHBOURS[i].1 as i32));
        let keys: Vec<[u8; 4]> = (0..n)
            .map(|r| allowed_at(&ix.cells, &ix.starts, r, &orthogonal))
            .collect();
        for k in 0..ALL {
            let key = [k >> 6, k >> 4 & 3, k >> 2 & 3, k & 3];
            let split: Vec<usize> = (0..n)
                .filter(|&r| (0..4).all(|i| keys[r][i] >> key[i] & 1 != 0))
                .collect();
            if split.is_empty() {
                continue;
            }
            let picks: [(i32, i32); ALL_FILTERED] =
                most_refused(&ix.cells, &ix.starts, &square, split.iter().copied());
            ix.all_picks[k] = picks.map(|(x, y)| (y * PAD as i32 + x) as i16);
            let members = split
                .iter()
                .map(|&r| (r as u32, allowed_at(&ix.cells, &ix.starts, r, &picks)))
                .collect();
            let at = slots as usize * 9 + k;
            ix.buckets[at] = ix.add_bucket(members, u32::MAX);
        }
        ix.aligned_rows();
        Some(ix)
    }

    /// Adds a bucket of `members` with the states each allows at the `N` filtered points (its
    /// `near` summary from the first 9: a change's bucket, [`FILTERED`] points).
    fn add_bucket<const N: usize>(
        &mut self,
        mut members: Vec<(u32, [u8; N])>,
        change: u32,
    ) -> Bucket {
        // Members with like neighbourhoods side by side: the filter leaves whole words empty
        // after the first points and stops early there.
        members.sort_by_key(|&(r, allow)| (allow, r));
        let words = members.len().div_ceil(64);
        // Each bucket's rows from a cache line (the base is aligned in `aligned_rows`).
        self.rows.resize(self.rows.len().next_multiple_of(LINE), 0);
        let mut b = Bucket {
            members: self.members.len() as u32,
            len: members.len() as u32,
            rows: self.rows.len() as u32,
            near: 0,
            change,
        };
        self.rows.resize(self.rows.len() + words * 4 * N, 0);
        let rows = &mut self.rows[b.rows as usize..];
        for (k, (r, allow)) in members.into_iter().enumerate() {
            if N == FILTERED {
                for (i, &allowed) in allow[..9].iter().enumerate() {
                    b.near |= (allowed as u64 & 0xF) << (4 * i);
                }
            }
            for (i, &allowed) in allow.iter().enumerate() {
                for s in 0..4 {
                    if allowed >> s & 1 != 0 {
                        rows[(s * N + i) * words + k / 64] |= 1 << (k % 64);
                    }
                }
            }
            self.members.push(r);
        }
        b
    }

    /// Moves the rows to a 64-byte boundary in memory (so that each bucket's rows, which
    /// start at a multiple of 8 u64, start a cache line) and the buckets' offsets with them.
    fn aligned_rows(&mut self) {
        let mut rows: Vec<u64> = Vec::with_capacity(self.rows.len() + LINE);
        let skew = rows.as_ptr().align_offset(64);
        let skew = if skew < LINE { skew } else { 0 };
        rows.resize(skew, 0);
        rows.extend_from_slice(&self.rows);
        self.rows = rows;
        for b in &mut self.buckets {
            b.rows += skew as u32;
        }
    }

    /// Calls `f(w, bits)` for every word `w` of bucket `b` that the states `st` leave
    /// non-empty (bit `j`: member `64 * w + j` allows all of them), in order: a bucket of
    /// one word with scalar ANDs, out at the point that empties it; larger ones up to
    /// [`CHUNK`] words at a time ([`and_rows`]: one load per point), out when all are empty
    /// (from the fourth point on in both).
    #[inline(always)]
    fn words(&self, b: Bucket, st: &[u8], mut f: impl FnMut(usize, u64)) {
        let words = (b.len as usize).div_ceil(64);
        let block = &self.rows[b.rows as usize..b.rows as usize + words * 4 * st.len()];
        if words == 1 {
            let mut acc = u64::MAX;
            for (i, &s) in st.iter().enumerate() {
                acc &= block[(s & 3) as usize * st.len() + i];
                if i >= 3 && acc == 0 {
                    return;
                }
            }
            f(0, acc);
            return;
        }
        let mut from = 0;
        while from < words {
            let n = (words - from).min(CHUNK);
            let acc = and_rows(block, st, words, from, n, 3);
            for (l, &bits) in acc[..n].iter().enumerate() {
                if bits != 0 {
                    f(from + l, bits);
                }
            }
            from += CHUNK;
        }
    }

    /// Asks for the rows that a filter of `b` at states `st` reads for its first
    /// [`CHUNK`] words: those of the first four points for a bucket of one word (most are
    /// left early), of all 17 for larger ones (a point's row of up to 8 words is one line,
    /// and most chunks read most points).
    #[inline(always)]
    fn prefetch_rows(&self, b: Bucket, st: &[u8; FILTERED]) {
        let words = (b.len as usize).div_ceil(64);
        let points = if words == 1 { 4 } else { FILTERED };
        for (i, &s) in st[..points].iter().enumerate() {
            prefetch_in(
                &self.rows,
                b.rows as usize + ((s & 3) as usize * FILTERED + i) * words,
            );
        }
    }

    /// Calls `f` with every member of `b` that the states `st` (at the bucket's filtered
    /// points) allow and whose window masks `win` accepts.
    #[inline(always)]
    fn filter(
        &self,
        b: Bucket,
        st: &[u8],
        mut win: impl FnMut(&[u64; 4]) -> bool,
        mut f: impl FnMut(usize),
    ) {
        let members = &self.members[b.members as usize..(b.members + b.len) as usize];
        // The survivors' window masks are asked for in batches before any is read, so their
        // misses overlap.
        let mut held = [0u32; HELD];
        let mut n = 0;
        let mut check = |held: &[u32]| {
            for &r in held {
                if win(&self.win[r as usize]) {
                    f(r as usize);
                }
            }
        };
        self.words(b, st, |w, mut acc| {
            if n + acc.count_ones() as usize > HELD {
                check(&held[..n]);
                n = 0;
            }
            while acc != 0 {
                let j = w * 64 + acc.trailing_zeros() as usize;
                acc &= acc - 1;
                let r = members[j];
                prefetch(&self.win[r as usize]);
                held[n] = r;
                n += 1;
            }
        });
        check(&held[..n]);
    }

    /// Whether every cell of entry `r` beyond the 7x7 window holds at focus `(x, y)` (the
    /// caller checked the window with [`View7::holds`]).
    #[inline]
    fn holds_far(&self, snap: &Snapshot, r: usize, x: i32, y: i32) -> bool {
        let [from, end] = self.far[r];
        let cells = &self.cells[from as usize..end as usize];
        cells
            .iter()
            .all(|c| c.allowed >> state(snap, x + c.dx as i32, y + c.dy as i32) & 1 != 0)
    }

    /// Where the drop bitmap of state `b` at slot `slot` starts in `drops`.
    #[inline(always)]
    fn drops_at(&self, b: u8, slot: u16) -> usize {
        (b as usize * self.slots + slot as usize) * self.entry_words
    }

    /// Adds the slots where entry `r` refuses each state to a point's break bitmaps (which
    /// stay a superset when hits go: a stale bit only costs a look at the hits).
    #[inline]
    fn add_breaks(&self, breaks: &mut [u64], r: usize) {
        let n = 3 * self.slot_words;
        for (d, s) in breaks.iter_mut().zip(&self.refusals[r * n..(r + 1) * n]) {
            *d |= s;
        }
    }

    #[inline(always)]
    fn focus_ok(&self, s: u8) -> bool {
        s < 3 && self.focus >> s & 1 != 0
    }
}

/// The states entry `r` allows at each of `points` (offsets from the focus; `0xF`, any,
/// where it has no cell).
fn allowed_at<const N: usize>(
    cells: &[Cell],
    starts: &[u32],
    r: usize,
    points: &[(i32, i32); N],
) -> [u8; N] {
    let cells = &cells[starts[r] as usize..starts[r + 1] as usize];
    points.map(|p| {
        cells
            .iter()
            .filter(|c| (c.dx as i32, c.dy as i32) == p)
            .fold(0xFu8, |a, c| a & c.allowed)
    })
}

#[inline(always)]
fn cheb(x: i32, y: i32) -> i32 {
    x.abs().max(y.abs())
}

/// Per slot, the filter's 8 points beyond the focus's 3x3 (offsets from the focus; see
/// [`Index::picks`]): of the change's 8 neighbours and the focus's 5x5 ring (not the
/// change itself), those where the slot's bucket members (`keyed`, sorted by slot) refuse
/// the most on-board states; ties go to the earlier candidate (neighbours first).
fn pick_points(
    cells: &[Cell],
    starts: &[u32],
    keyed: &[(u16, u8, u32, i8, i8)],
    slots: usize,
) -> Vec<[(i32, i32); 8]> {
    let mut picks = vec![[(0, 0); 8]; slots];
    let mut i = 0;
    while i < keyed.len() {
        let (slot, dx, dy) = (keyed[i].0, keyed[i].3 as i32, keyed[i].4 as i32);
        let j = i + keyed[i..].iter().take_while(|k| k.0 == slot).count();
        let mut cand: Vec<(i32, i32)> = Vec::with_capacity(24);
        let near = NEIGHBOURS
            .iter()
            .map(|&(x, y)| (dx + x as i32, dy + y as i32));
        let ring = (-2..=2).flat_map(|y| (-2..=2).map(move |x| (x, y)));
        for q in near.chain(ring) {
            if cheb(q.0, q.1) > 1 && q != (dx, dy) && !cand.contains(&q) {
                cand.push(q);
            }
        }
        picks[slot as usize] = most_refused(
            cells,
            starts,
            &cand,
            keyed[i..j].iter().map(|k| k.2 as usize),
        );
        i = j;
    }
    picks
}

/// The `N` points of `cand` (in its order among equals) where the entries `members` refuse
/// the most on-board states (a cell allowing `k` of friend, foe, empty scores `3 - k`), most
/// first: the filter points that empty the most bucket words. Missing ones are `(0, 0)`.
fn most_refused<const N: usize>(
    cells: &[Cell],
    starts: &[u32],
    cand: &[(i32, i32)],
    members: impl Iterator<Item = usize>,
) -> [(i32, i32); N] {
    let mut score = vec![0u64; cand.len()];
    for r in members {
        for c in &cells[starts[r] as usize..starts[r + 1] as usize] {
            if let Some(q) = cand.iter().position(|&q| q == (c.dx as i32, c.dy as i32)) {
                score[q] += 3 - (c.allowed & 7).count_ones() as u64;
            }
        }
    }
    let mut order: Vec<usize> = (0..cand.len()).collect();
    order.sort_by_key(|&q| core::cmp::Reverse(score[q]));
    let mut picks = [(0, 0); N];
    for (p, &q) in picks.iter_mut().zip(&order) {
        *p = cand[q];
    }
    picks
}

/// Half the side of the window that entry masks cover (7x7: 49 bits of a u64).
const WIN: i32 = 3;

/// Bit of offset `(dx, dy)` (|dx|, |dy| <= [`WIN`]) in a 7x7 window word.
#[inline(always)]
fn win_bit(dx: i32, dy: i32) -> u32 {
    ((dy + WIN) * 7 + dx + WIN) as u32
}

/// The 7x7 window around a focus as four state planes (friend, foe, empty, off; bit
/// [`win_bit`]), cut from the snapshot's stone rows.
struct View7([u64; 4]);

impl View7 {
    #[inline]
    fn cut(snap: &Snapshot, x: i32, y: i32) -> View7 {
        let full = (1u64 << snap.size) - 1;
        // Row bits x-3..=x+3 at 0..7 (shifted left first so that x-3 < 0 reads zeros).
        let cut = |bits: u64| (bits << WIN >> x) & 0x7F;
        let (mut f, mut o, mut on) = (0u64, 0u64, 0u64);
        for k in 0..7 {
            let yy = y - WIN + k;
            if (yy as u32) < snap.size as u32 {
                let sh = 7 * k as u32;
                f |= cut(snap.rows[0][yy as usize] as u64) << sh;
                o |= cut(snap.rows[1][yy as usize] as u64) << sh;
                on |= cut(full) << sh;
            }
        }
        let all = (1u64 << 49) - 1;
        View7([f, o, on & !(f | o), all & !on])
    }

    /// Whether an entry with window masks `m` ([`Index::win`]) holds in this window.
    #[inline(always)]
    fn holds(&self, m: &[u64; 4]) -> bool {
        let p = &self.0;
        (p[0] & m[0]) | (p[1] & m[1]) | (p[2] & m[2]) | (p[3] & m[3]) == 0
    }
}

/// State of a point in a perspective snapshot: 0 friend, 1 foe, 2 empty, 3 off.
#[inline(always)]
fn state(snap: &Snapshot, x: i32, y: i32) -> u8 {
    if snap.on_board(x, y) {
        snap.state(x, y)
    } else {
        3
    }
}

/// The summary bits ([`Bucket::near`] or [`Bucket::change`]) of the states `st`.
#[inline(always)]
fn present(st: &[u8]) -> u64 {
    st.iter()
        .enumerate()
        .fold(0, |p, (i, &s)| p | 1 << (4 * i + s as usize))
}

/// Calls `f` with the hit words of a point that may be non-zero: bit `g` of its `summary`
/// ([`IncrementalScan`]'s `nonzero`) covers words `g * group..(g + 1) * group`.
#[inline(always)]
fn for_hit_words(summary: u64, group: usize, words: usize, mut f: impl FnMut(usize)) {
    let mut s = summary;
    while s != 0 {
        let g = s.trailing_zeros() as usize;
        s &= s - 1;
        for w in g * group..((g + 1) * group).min(words) {
            f(w);
        }
    }
}

/// The groups of `summary` that still hold a hit in `hits` (one point's words).
fn nonzero_groups(hits: &[u64], summary: u64, group: usize) -> u64 {
    let (mut s, mut keep) = (summary, 0);
    while s != 0 {
        let g = s.trailing_zeros() as usize;
        s &= s - 1;
        let end = ((g + 1) * group).min(hits.len());
        if hits[g * group..end].iter().any(|&w| w != 0) {
            keep |= 1 << g;
        }
    }
    keep
}

/// Sets hit word `i` (point `i / words`, [`IncrementalScan`]'s `hits`) to `v`: every write of
/// a hit word during an update goes through here, noted in the journal (a whole-board
/// rebuild clears them all, and the journal).
#[inline(always)]
fn put_word(hits: &mut [u64], log: &mut Journal, i: usize, v: u64) {
    log.word(i, hits[i]);
    hits[i] = v;
}

/// Side of the padded states ([`IncrementalScan`]'s `pad`): the largest board with a border
/// of 2 off-board points on every side.
const PAD: usize = MAX_SIZE as usize + 4;

/// Index of on-board point `(x, y)` in the padded states.
#[inline(always)]
fn pad_index(x: i32, y: i32) -> usize {
    (y + 2) as usize * PAD + (x + 2) as usize
}

/// The padded states of `snap` (0 friend, 1 foe, 2 empty, 3 off) into `pad`.
fn fill_pad(pad: &mut [u8], snap: &Snapshot) {
    pad.fill(3);
    for y in 0..snap.size as i32 {
        for x in 0..snap.size as i32 {
            pad[pad_index(x, y)] = snap.state(x, y);
        }
    }
}

/// Sets the states of the focus's 8 neighbours ([`NEIGHBOURS`] order) and of the focus
/// (`st[..9]`; or the neighbours alone into a slice of 8, for a changed point), read from
/// the padded states: one byte each.
#[inline(always)]
fn read_states(pad: &[u8], x: i32, y: i32, st: &mut [u8]) {
    // The 3x3 square as three rows of 3 (three bounds checks, not nine).
    let at = pad_index(x, y) - PAD - 1;
    let sq: [&[u8]; 3] = core::array::from_fn(|r| &pad[at + r * PAD..][..3]);
    for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
        st[i] = sq[(dy + 1) as usize][(dx + 1) as usize];
    }
    if let Some(s) = st.get_mut(8) {
        *s = sq[1][1];
    }
}

/// The board as updates read it from one perspective, kept from update to update: what
/// does not depend on the class. A set alone keeps one; a group
/// ([`super::IncrementalGroup`]) keeps one per perspective for all its sets.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    /// The board at the last read (rows 0 friend, 1 foe).
    snap: Snapshot,
    valid: bool,
    /// The points the last read found changed, `(x, y, old state, new state)` (capacity:
    /// every point; a field, not a local array, so a read does not clear 2.5 KB per call).
    changes: Vec<(i8, i8, u8, u8)>,
    /// The states of `snap` with a border off the board ([`PAD`]), for the filter's 17
    /// points: kept up to date point by point.
    pad: Vec<u8>,
    /// Per padded point ([`pad_index`]; kept for the on-board ones): the summary bits
    /// ([`present`]) of its 3x3 states, kept by XOR as points change, so a visit checks a
    /// bucket's `near` summary with one read and reads the nine states only when it passes.
    near: Vec<u64>,
}

impl Frame {
    pub(crate) fn new() -> Frame {
        Frame {
            snap: Snapshot::EMPTY,
            valid: false,
            changes: Vec::with_capacity(POINTS),
            pad: vec![3; PAD * PAD],
            near: vec![0; PAD * PAD],
        }
    }

    /// Brings the frame to `now` (the changed points into `changes`, the padded states and
    /// summaries point by point); `true` when it was rebuilt instead (the first read, or
    /// another board size): then every set matches the whole board.
    pub(crate) fn advance(&mut self, now: &Snapshot) -> bool {
        self.changes.clear();
        if !self.valid || now.size != self.snap.size {
            fill_pad(&mut self.pad, now);
            let mut st = [0u8; 9];
            for y in 0..now.size as i32 {
                for x in 0..now.size as i32 {
                    read_states(&self.pad, x, y, &mut st);
                    self.near[pad_index(x, y)] = present(&st);
                }
            }
            (self.snap, self.valid) = (*now, true);
            return true;
        }
        let (list, snap) = (&mut self.changes, &self.snap);
        snap.diff(now, |c| {
            list.push((c.x as i8, c.y as i8, snap.state(c.x, c.y), c.state));
        });
        for &(x, y, a, b) in &self.changes {
            let at = pad_index(x as i32, y as i32);
            self.pad[at] = b;
            // The point is neighbour `i` of the point `-(nx, ny)` away, and the 3x3
            // centre (summary point 8) of itself.
            let flip = |i: usize| (1u64 << (4 * i + a as usize)) ^ (1 << (4 * i + b as usize));
            self.near[at] ^= flip(8);
            for (i, &(nx, ny)) in NEIGHBOURS.iter().enumerate() {
                let q = at as isize - (ny as isize * PAD as isize + nx as isize);
                self.near[q as usize] ^= flip(i);
            }
        }
        self.snap = *now;
        false
    }
}

/// The match set of one query (class, perspective, orientations) over a whole board, kept
/// up to date by [`IncrementalScan::update`] after each play, undo or edit; an update that
/// exactly undoes the last recorded one is restored from a journal instead of matched
/// ([`IncrementalScan::with_journal`]). All memory is allocated by [`IncrementalScan::new`]
/// (hit sets of `entries / 8 * 625` bytes, the class's transition index, shared with
/// [`IncrementalScan::for_perspective`], six buffers of `capacity` matches and the journal,
/// [`DEFAULT_JOURNAL_BYTES`], whose budget the match pool gets again so that the old runs
/// it restores stay there); updates never allocate.
#[derive(Clone, Debug)]
pub struct IncrementalScan {
    query: Query,
    reach: Reach,
    ix: Arc<Index>,
    /// u64 words per hit set (the index's `entry_words`, kept here for the hot loops).
    words: usize,
    /// The board at the last update, from the query's perspective (rows 0 friend, 1 foe).
    snap: Snapshot,
    valid: bool,
    /// Geometric hits per point (`words` u64 per point, [`point_index`]) and their count.
    hits: Vec<u64>,
    count: Vec<u32>,
    /// Per point, which groups of `group` hit words may be non-zero (bit `g`: words
    /// `g * group..`), so drops and rematches read a point's few words, not all `words`.
    nonzero: Vec<u64>,
    group: usize,
    /// The points whose `count` is not 0.
    with_hits: PointSet,
    /// Per point and state `b`, `3 * slot_words` u64: the slots where one of the point's
    /// hits has a cell refusing `b` (a superset: only hits there can break).
    breaks: Vec<u64>,
    capacity: usize,
    /// Each focus's matches (the class program's order): `pool[runs[p].0..][..runs[p].1]`
    /// ([`point_index`]). A rematched focus overwrites its run when the new one fits, or
    /// appends it; the pool (twice the capacity) is compacted (through `matches`) when full,
    /// so an update costs what its rematched foci hold, not the whole set.
    pool: Vec<Match>,
    runs: Vec<(u32, u32)>,
    /// Plain classes: the entry each pool slot's match came from (a run's entries ascend),
    /// so a rematch diffs a focus's entries against its hits instead of its matches
    /// ([`IncrementalScan::rematch_plain`]); empty for other classes.
    ents: Vec<u32>,
    /// Plain classes: the entries of `fresh`'s matches; compaction's copy of `ents`.
    fresh_ents: Vec<u32>,
    ents_tmp: Vec<u32>,
    /// Matches held in runs (at most `capacity`).
    live: usize,
    /// The whole set in [`Rom::scan`] order (foci row by row), assembled from the runs when
    /// asked for ([`IncrementalScan::matches`]); `assembled` says it is up to date.
    matches: Vec<Match>,
    assembled: bool,
    /// Output slots of the rematches.
    fresh: Vec<Match>,
    appeared: Vec<Match>,
    vanished: Vec<Match>,
    /// Entry mode ([`IncrementalScan::with_entry_results`]): the runs are `ents` alone (no
    /// `pool`), and the difference is `(focus, entry)` records, not matches.
    entry_mode: bool,
    appeared_entries: Vec<EntryHit>,
    vanished_entries: Vec<EntryHit>,
    dropped: usize,
    /// An update's lists per change (capacity fixed here: every offset of the span for the
    /// first two, [`SURVIVORS`] for the last).
    visits: Vec<Visit>,
    cands: Vec<Cand>,
    survivors: Vec<(u32, u32)>,
    /// The board as this set alone reads it (a group keeps one per perspective instead).
    frame: Option<Box<Frame>>,
    /// What the last updates changed, so that one undoing the last is a restore
    /// (`journal.rs`).
    journal: Journal,
}

impl IncrementalScan {
    /// The (empty) incremental set of `query` on `rom`, holding at most `capacity` matches;
    /// the first [`IncrementalScan::update`] matches the whole board. `None` when the class
    /// does not exist.
    pub fn new(rom: &Rom<'_>, query: Query, capacity: usize) -> Option<IncrementalScan> {
        let reach = Reach::of(rom, query.class)?;
        let ix = Arc::new(Index::new(rom, query.class)?);
        Some(IncrementalScan::with_index(
            ix,
            reach,
            query,
            capacity,
            DEFAULT_JOURNAL_BYTES,
        ))
    }

    /// An (empty) set of the same class and orientations for `perspective`, sharing this
    /// set's index (no rebuild; half the memory for both colours), with a journal of the
    /// same budget.
    pub fn for_perspective(&self, perspective: Colour) -> IncrementalScan {
        self.for_query(Query {
            perspective,
            ..self.query
        })
    }

    /// An (empty) set of `query`, whose class must be this set's, sharing this set's index.
    pub(crate) fn for_query(&self, query: Query) -> IncrementalScan {
        debug_assert!(query.class == self.query.class);
        let budget = self.journal.budget();
        let set =
            IncrementalScan::with_index(self.ix.clone(), self.reach, query, self.capacity, budget);
        // This set's class is plain when it is in entry mode.
        match self.entry_mode {
            true => set.into_entry_mode(),
            false => set,
        }
    }

    /// The set without a frame of its own (no memory): for a group's sets, which read the
    /// group's frames and are never updated alone.
    pub(crate) fn without_frame(self) -> IncrementalScan {
        IncrementalScan {
            frame: None,
            ..self
        }
    }

    fn with_index(
        ix: Arc<Index>,
        reach: Reach,
        query: Query,
        capacity: usize,
        journal: usize,
    ) -> Self {
        let words = ix.entry_words;
        let breaks = vec![0; POINTS * 3 * ix.slot_words];
        let offsets = ix.side * ix.side;
        let room = pool_room(capacity, journal);
        let plain = if ix.plain.is_some() { room } else { 0 };
        IncrementalScan {
            query,
            reach,
            ix,
            words,
            snap: Snapshot::EMPTY,
            valid: false,
            hits: vec![0; POINTS * words],
            count: vec![0; POINTS],
            nonzero: vec![0; POINTS],
            group: words.div_ceil(64),
            with_hits: PointSet::new(),
            breaks,
            capacity,
            pool: Vec::with_capacity(room),
            runs: vec![(0, 0); POINTS],
            ents: Vec::with_capacity(plain),
            fresh_ents: vec![0; plain.min(capacity)],
            ents_tmp: Vec::with_capacity(plain.min(capacity)),
            live: 0,
            matches: Vec::with_capacity(capacity),
            assembled: true,
            fresh: vec![Match::EMPTY; capacity],
            appeared: Vec::with_capacity(capacity),
            vanished: Vec::with_capacity(capacity),
            entry_mode: false,
            appeared_entries: Vec::new(),
            vanished_entries: Vec::new(),
            dropped: 0,
            visits: Vec::with_capacity(offsets),
            cands: Vec::with_capacity(offsets),
            survivors: Vec::with_capacity(SURVIVORS),
            frame: Some(Box::new(Frame::new())),
            journal: Journal::new(journal),
        }
    }

    /// The set with a journal of at most `bytes` bytes instead of
    /// [`DEFAULT_JOURNAL_BYTES`] (0: none): an update that exactly undoes the last recorded
    /// one (the same points back to their old states, e.g. an undo of the last play with
    /// its captures) restores the set from it instead of matching; the deepest undo served
    /// grows with the budget (the oldest records go first). The set starts over (its next
    /// update matches the whole board): call this before the first update.
    pub fn with_journal(self, bytes: usize) -> IncrementalScan {
        let (frame, entries) = (self.frame.is_some(), self.entry_mode);
        let mut set =
            IncrementalScan::with_index(self.ix, self.reach, self.query, self.capacity, bytes);
        if !frame {
            set = set.without_frame();
        }
        if entries {
            set = set.into_entry_mode();
        }
        set
    }

    /// The bytes the set's journal takes (allocated at construction).
    pub fn journal_bytes(&self) -> usize {
        self.journal.bytes()
    }

    /// Updates the journal holds (each can be undone by a restore, newest first).
    pub fn journal_depth(&self) -> usize {
        self.journal.depth()
    }

    /// The query the set tracks.
    pub fn query(&self) -> &Query {
        &self.query
    }
    /// How far the class looks from a focus (what an update re-checks around a change).
    pub fn reach(&self) -> Reach {
        self.reach
    }
    /// Whether rematched foci take their matches from per-entry facts (every geometric hit
    /// of the class is its match) instead of the class program; for tests.
    #[cfg(feature = "bench-internals")]
    pub fn rematches_by_facts(&self) -> bool {
        self.ix.plain.is_some()
    }

    /// The current set, in [`Rom::scan`] order: equal to a whole-board scan of the board at
    /// the last update (unless [`IncrementalScan::dropped`] is non-zero). Assembled from the
    /// foci's runs on the first call after an update (a copy of the set; no allocation);
    /// [`IncrementalScan::matches_at`] reads one focus without it.
    ///
    /// In entry mode ([`IncrementalScan::with_entry_results`]) the matches are built from the
    /// entries here, on demand (the same set; [`IncrementalScan::entries`] reads it without).
    pub fn matches(&mut self) -> &[Match] {
        if !self.assembled {
            if self.entry_mode {
                self.matches.clear();
                for p in 0..POINTS {
                    let (start, len) = self.runs[p];
                    for &r in &self.ents[start as usize..(start + len) as usize] {
                        let hit = EntryHit::new(p, self.ix.first + r);
                        self.matches.extend(self.match_of(hit));
                    }
                }
            } else {
                assemble(&mut self.matches, &self.pool, &self.runs);
            }
            self.assembled = true;
        }
        &self.matches
    }
    /// The current matches at focus `(x, y)` (the class program's order); empty off the board.
    /// Empty in entry mode: [`IncrementalScan::entries_at`] and [`IncrementalScan::match_of`].
    pub fn matches_at(&self, x: i32, y: i32) -> &[Match] {
        if !self.snap.on_board(x, y) || self.entry_mode {
            return &[];
        }
        let (start, len) = self.runs[point_index(x, y)];
        &self.pool[start as usize..(start + len) as usize]
    }
    /// Matches in the set after the last update that were not in it before (scan order).
    /// Empty in entry mode: [`IncrementalScan::appeared_entries`].
    pub fn appeared(&self) -> &[Match] {
        &self.appeared
    }
    /// Matches in the set before the last update that are not in it now (scan order).
    /// Empty in entry mode: [`IncrementalScan::vanished_entries`].
    pub fn vanished(&self) -> &[Match] {
        &self.vanished
    }

    /// Whether the set can report entries ([`IncrementalScan::with_entry_results`]): its
    /// class is plain (mode `all`, no default, tests, globs or rejects), so every geometric
    /// hit is one match.
    pub fn entry_results_supported(&self) -> bool {
        self.ix.plain.is_some()
    }

    /// The set in entry mode, or `None` when its class is not plain
    /// ([`IncrementalScan::entry_results_supported`]: a class program's tests, rejects and
    /// defaults make a match more than its entry). Updates then keep each focus's entries
    /// instead of its matches and report the difference as [`EntryHit`]s
    /// ([`IncrementalScan::appeared_entries`], [`IncrementalScan::vanished_entries`],
    /// [`IncrementalScan::entries_at`]); [`IncrementalScan::match_of`] builds a hit's
    /// [`Match`] when the engine asks for it, equal to the one the set would report
    /// otherwise. [`IncrementalScan::matches`] still gives the whole set (built on demand);
    /// [`IncrementalScan::matches_at`], [`IncrementalScan::appeared`] and
    /// [`IncrementalScan::vanished`] are empty. The same capacity, journal and
    /// [`IncrementalScan::dropped`] as in match mode; the match pool is freed.
    pub fn with_entry_results(self) -> Option<IncrementalScan> {
        self.ix.plain.as_ref()?;
        Some(self.into_entry_mode())
    }

    /// [`IncrementalScan::with_entry_results`] of a plain class's set.
    fn into_entry_mode(self) -> IncrementalScan {
        let capacity = self.capacity;
        IncrementalScan {
            entry_mode: true,
            pool: Vec::new(),
            fresh: Vec::new(),
            appeared_entries: Vec::with_capacity(capacity),
            vanished_entries: Vec::with_capacity(capacity),
            // Built from the entries by `matches`: empty until then.
            assembled: false,
            ..self
        }
    }

    /// Whether the set is in entry mode ([`IncrementalScan::with_entry_results`]).
    pub fn entry_results(&self) -> bool {
        self.entry_mode
    }

    /// Entry mode: the matches in the set after the last update that were not in it before,
    /// as [`IncrementalScan::appeared`] lists them (scan order); empty in match mode.
    pub fn appeared_entries(&self) -> &[EntryHit] {
        &self.appeared_entries
    }
    /// Entry mode: the matches in the set before the last update that are not in it now, as
    /// [`IncrementalScan::vanished`] lists them (scan order); empty in match mode.
    pub fn vanished_entries(&self) -> &[EntryHit] {
        &self.vanished_entries
    }
    /// Entry mode: the current matches at focus `(x, y)`, as [`IncrementalScan::matches_at`]
    /// lists them; none off the board or in match mode.
    pub fn entries_at(&self, x: i32, y: i32) -> impl ExactSizeIterator<Item = EntryHit> + '_ {
        let (p, (start, len)) = match self.snap.on_board(x, y) && self.entry_mode {
            true => (point_index(x, y), self.runs[point_index(x, y)]),
            false => (0, (0, 0)),
        };
        let first = self.ix.first;
        self.ents[start as usize..(start + len) as usize]
            .iter()
            .map(move |&r| EntryHit::new(p, first + r))
    }
    /// Entry mode: the whole set in scan order, as [`IncrementalScan::matches`] lists it
    /// (no copy); none in match mode.
    pub fn entries(&self) -> impl Iterator<Item = EntryHit> + '_ {
        let size = if self.entry_mode {
            self.snap.size as i32
        } else {
            0
        };
        (0..size).flat_map(move |y| (0..size).flat_map(move |x| self.entries_at(x, y)))
    }
    /// The match of `hit` (an entry of this set's class at a focus: one of its
    /// [`EntryHit`]s), equal to the one the set reports in match mode; `None` for an entry
    /// of another class, or of a class that is not plain.
    pub fn match_of(&self, hit: EntryHit) -> Option<Match> {
        let facts = self.ix.plain.as_deref()?;
        let f = facts.get(hit.entry.checked_sub(self.ix.first)? as usize)?;
        let (x, y) = hit.focus();
        let mut slot = [Match::EMPTY];
        let mut one = MatchBuf::new(&mut slot);
        put_plain(f, self.query.orientations.mask_at(x, y), x, y, &mut one);
        one.as_slice().first().copied()
    }

    /// Empties the difference lists (both modes').
    fn clear_diff(&mut self) {
        self.appeared.clear();
        self.vanished.clear();
        self.appeared_entries.clear();
        self.vanished_entries.clear();
    }

    /// The length of the pool that holds the runs (`ents` in entry mode).
    fn pool_len(&self) -> usize {
        match self.entry_mode {
            true => self.ents.len(),
            false => self.pool.len(),
        }
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

    /// Every hit of focus `(x, y)` from scratch (none unless the focus state is allowed);
    /// returns the entries filtered.
    fn compute_hits(&mut self, pad: &[u8], snap: &Snapshot, x: i32, y: i32) -> (usize, usize) {
        let ix = &*self.ix;
        let p = point_index(x, y);
        let (words, group) = (self.words, self.group);
        let base = p * words;
        // The words that may hold a hit (a superset of the non-zero ones) are cleared.
        let (hits, log) = (&mut self.hits, &mut self.journal);
        for_hit_words(self.nonzero[p], group, words, |w| {
            if hits[base + w] != 0 {
                put_word(hits, log, base + w, 0);
            }
        });
        let nonzero = &mut self.nonzero[p];
        *nonzero = 0;
        self.count[p] = 0;
        self.with_hits.remove(x, y);
        let sw = ix.slot_words;
        let breaks = &mut self.breaks[p * 3 * sw..(p + 1) * 3 * sw];
        log.breaks(p, breaks);
        breaks.fill(0);
        if !ix.focus_ok(state(snap, x, y)) {
            return (0, 0);
        }
        let (mut n, mut verified) = (0, 0);
        let at = pad_index(x, y) as isize;
        let k = NEIGHBOURS[..4].iter().fold(0, |k, &(dx, dy)| {
            k << 2 | pad[(at + dy as isize * PAD as isize + dx as isize) as usize] as usize
        });
        let all = ix.buckets[ix.buckets.len() - ALL + k];
        let mut st = [0u8; ALL_FILTERED];
        for (s, &d) in st.iter_mut().zip(&ix.all_picks[k]) {
            *s = pad[(at + d as isize) as usize];
        }
        let view = View7::cut(snap, x, y);
        let win = |m: &[u64; 4]| {
            verified += 1;
            view.holds(m)
        };
        ix.filter(all, &st, win, |r| {
            if ix.holds_far(snap, r, x, y) {
                let i = base + r / 64;
                let v = hits[i] | 1 << (r % 64);
                put_word(hits, log, i, v);
                *nonzero |= 1 << (r / 64 / group);
                ix.add_breaks(breaks, r);
                n += 1;
            }
        });
        self.count[p] = n;
        if n > 0 {
            self.with_hits.insert(x, y);
        }
        (ix.entries, verified)
    }

    /// Drops the hits of focus `(x, y)` whose cell at the change's offset (slot `slot`) does
    /// not allow state `b`; returns (hits dropped, hits looked at).
    fn drop_hits(&mut self, (x, y): (i32, i32), slot: u16, b: u8) -> (usize, usize) {
        let ix = &*self.ix;
        let p = point_index(x, y);
        let (mut dropped, mut seen) = (0, 0);
        let (words, group, summary) = (self.words, self.group, self.nonzero[p]);
        let (hits, log) = (&mut self.hits, &mut self.journal);
        // The entries refusing `b` at the offset, one word per hit word: no walk over the
        // hits (whether a hit goes is not predictable).
        let at = ix.drops_at(b, slot);
        let refuse = &ix.drops[at..at + ix.entry_words];
        for_hit_words(summary, group, words, |w| {
            let word = hits[p * words + w];
            let lost = word & refuse[w];
            seen += word.count_ones() as usize;
            if lost != 0 {
                dropped += lost.count_ones() as usize;
                put_word(hits, log, p * words + w, word & !lost);
            }
        });
        if dropped > 0 {
            self.count[p] -= dropped as u32;
            if self.count[p] == 0 {
                self.with_hits.remove(x, y);
            }
            let hits = &self.hits[p * words..(p + 1) * words];
            self.nonzero[p] = nonzero_groups(hits, summary, group);
        }
        (dropped, seen)
    }

    /// The snapshot of `board` from the query's perspective.
    fn read<B: BoardView + ?Sized>(&self, board: &B) -> Snapshot {
        Snapshot::read_as(board, self.query.perspective == Colour::White)
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
        let now = self.read(board);
        // Taken out for the call (a pointer). A group's sets have none, but are never
        // updated alone.
        let mut frame = self.frame.take().unwrap_or_else(|| Box::new(Frame::new()));
        let rebuilt = frame.advance(&now);
        let u = self.apply(rom, board, host, scratch, &frame, rebuilt);
        self.frame = Some(frame);
        u
    }

    /// An update from `frame`, just advanced to the board from the query's perspective
    /// (`rebuilt`: it was rebuilt, so the whole board is matched again): a restore from the
    /// journal when its changes undo the last recorded update, else matched and recorded.
    pub(crate) fn apply<B: BoardView + ?Sized, H: Host + ?Sized>(
        &mut self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        scratch: &mut Scratch,
        frame: &Frame,
        rebuilt: bool,
    ) -> Update {
        let (now, changes) = (&frame.snap, &frame.changes[..]);
        let again = rebuilt || !self.valid || now.size != self.snap.size;
        if !again && changes.is_empty() {
            self.clear_diff();
            return Update::default();
        }
        if !again && self.journal.reverses(changes) {
            return self.restore(now, changes.len());
        }
        if !again {
            self.journal.begin(changes, self.pool_len());
        }
        let dropped = self.dropped;
        let u = self.rematch_changes(rom, board, host, scratch, frame, rebuilt);
        // A rebuild is not recorded: `end` empties the journal.
        let exact = !again && self.dropped == dropped;
        self.journal.end(exact);
        u
    }

    /// An update by matching (the body of [`IncrementalScan::apply`]).
    fn rematch_changes<B: BoardView + ?Sized, H: Host + ?Sized>(
        &mut self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        scratch: &mut Scratch,
        frame: &Frame,
        rebuilt: bool,
    ) -> Update {
        let now = &frame.snap;
        self.clear_diff();
        let mut u = Update::default();
        let mut rematch = PointSet::new();
        let size = now.size as i32;
        let (pad, near) = (&frame.pad[..], &frame.near[..]);
        if rebuilt || !self.valid || now.size != self.snap.size {
            self.dropped = 0;
            self.hits.fill(0);
            self.nonzero.fill(0);
            self.count.fill(0);
            self.with_hits = PointSet::new();
            for y in 0..size {
                for x in 0..size {
                    let (c, v) = self.compute_hits(pad, now, x, y);
                    (u.checked, u.verified) = (u.checked + c, u.verified + v);
                    rematch.insert(x, y);
                }
            }
            // Foci of a larger board before: their runs go too.
            for (p, &(_, len)) in self.runs.iter().enumerate() {
                let (x, y) = (
                    (p % MAX_SIZE as usize) as i32,
                    (p / MAX_SIZE as usize) as i32,
                );
                if len > 0 && (x >= size || y >= size) {
                    rematch.insert(x, y);
                }
            }
            u.changed = POINTS;
        } else {
            let list = &frame.changes[..];
            u.changed = list.len();
            if u.changed == 0 {
                return u;
            }
            // Per row, the points whose state the class allows at its focus.
            let full = (1u32 << size) - 1;
            let mut focus_rows = [0u32; MAX_SIZE as usize];
            let f = self.ix.focus;
            for (y, r) in focus_rows.iter_mut().enumerate().take(size as usize) {
                let (a, b) = (now.rows[0][y], now.rows[1][y]);
                *r = (if f & 1 != 0 { a } else { 0 })
                    | (if f & 2 != 0 { b } else { 0 })
                    | (if f & 4 != 0 { full & !(a | b) } else { 0 });
            }
            // The index outlives the borrows of `self` below (a count, no copy).
            let ix_arc = self.ix.clone();
            let ix = &*ix_arc;
            let (side, span, sw) = (ix.side, ix.span, ix.slot_words);
            let mut visits = core::mem::take(&mut self.visits);
            let mut cands = core::mem::take(&mut self.cands);
            for &(cx, cy, a, b) in &list[..u.changed] {
                let (cx, cy) = (cx as i32, cy as i32);
                // The changed point as a focus: its focus test changed.
                let flipped = ix.focus_ok(a) != ix.focus_ok(b);
                if flipped {
                    let (c, v) = self.compute_hits(pad, now, cx, cy);
                    (u.checked, u.verified) = (u.checked + c, u.verified + v);
                    rematch.insert(cx, cy);
                }
                let (x0, x1) = ((cx - span).max(0), (cx + span).min(size - 1));
                let window = (u64::MAX >> (63 - x1 + x0) << x0) as u32;
                let t = (a * 3 + b) as usize;
                let mut nb = [0u8; 8];
                read_states(pad, cx, cy, &mut nb);
                let nb_bits = present(&nb) as u32;
                let (y0, y1) = ((cy - span).max(0), (cy + span).min(size - 1));
                // Focus row `y` reads offset row `cy - y + span`: `first + y1 - y`.
                let (first, n) = ((cy - y1 + span) as usize, (y1 - y0) as usize + 1);
                // The gain rows of the change's neighbours' states over the span's offset
                // rows (ANDed per row below; `n` long, so the reads need no bounds checks).
                let gains: [&[u64]; 8] = core::array::from_fn(|i| {
                    &ix.gain_rows[(t * 32 + 4 * i + nb[i] as usize) * side + first..][..n]
                });
                let brks = &ix.break_rows[b as usize * side + first..][..n];
                let buckets = &ix.buckets[t * ix.slots..(t + 1) * ix.slots];
                // The offset masks' bit `span - dx` is focus `cx - dx`: a shift (bits below
                // `2 * span + cx <= 54`, so a u64 holds it).
                let at = |m: u64| (m << cx >> span) as u32 & window;
                // Phase 1: the foci to visit; their buckets and break words are asked for
                // before any is read, so the misses overlap.
                visits.clear();
                for y in y0..=y1 {
                    let k = (y1 - y) as usize;
                    let row = first + k;
                    let gain = at(gains.iter().fold(u64::MAX, |g, r| g & r[k]));
                    let brk = at(brks[k]);
                    let mut foci = focus_rows[y as usize] & (gain | (brk & self.with_hits.row(y)));
                    // Foci within the span's columns: every offset has a grid place.
                    let grid = &ix.grid[row * side..(row + 1) * side];
                    while foci != 0 {
                        let x = foci.trailing_zeros() as i32;
                        foci &= foci - 1;
                        let slot = grid[(cx - x + span) as usize];
                        if slot == NO_SLOT || (flipped && (x, y) == (cx, cy)) {
                            continue;
                        }
                        let p = point_index(x, y);
                        prefetch(&buckets[slot as usize]);
                        if self.count[p] > 0 {
                            prefetch(
                                &self.breaks[p * 3 * sw + b as usize * sw + slot as usize / 64],
                            );
                            // The drop bitmap's word of the focus's first hit word (most
                            // foci hold a few hits, in a word or two).
                            let w = self.nonzero[p].trailing_zeros() as usize * self.group;
                            prefetch_in(&ix.drops, ix.drops_at(b, slot) + w);
                        }
                        visits.push(Visit {
                            x: x as i8,
                            y: y as i8,
                            slot,
                        });
                    }
                }
                // Phase 2: drops, then the buckets' summaries; the filter rows of the foci
                // that pass are asked for.
                cands.clear();
                for v in &visits {
                    let (x, y) = (v.x as i32, v.y as i32);
                    let slot = v.slot;
                    let p = point_index(x, y);
                    // Hits with a cell on the changed point that refuses its new state go.
                    if self.count[p] > 0
                        && self.breaks[p * 3 * sw + b as usize * sw + slot as usize / 64]
                            >> (slot % 64)
                            & 1
                            != 0
                    {
                        let (lost, seen) = self.drop_hits((x, y), slot, b);
                        u.checked += seen;
                        if lost > 0 {
                            rematch.insert(x, y);
                        }
                    }
                    let bucket = buckets[slot as usize];
                    if bucket.len == 0 || bucket.change & nb_bits != nb_bits {
                        continue;
                    }
                    let around = near[pad_index(x, y)];
                    if bucket.near & around != around {
                        continue;
                    }
                    let mut st = [0u8; FILTERED];
                    read_states(pad, x, y, &mut st[..9]);
                    // The picks' states for the filter rows (no summary: the change's
                    // neighbours above already passed most buckets that fail).
                    let at = pad_index(x, y) as isize;
                    for (s, &d) in st[9..].iter_mut().zip(&ix.picks[slot as usize]) {
                        *s = pad[(at + d as isize) as usize];
                    }
                    u.checked += bucket.len as usize;
                    ix.prefetch_rows(bucket, &st);
                    cands.push(Cand {
                        x: v.x,
                        y: v.y,
                        bucket,
                        st,
                    });
                }
                // Phases 3 to 5: the filter, the survivors' ids, their window masks.
                self.settle(ix, now, &cands, &mut rematch, &mut u);
            }
            self.visits = visits;
            self.cands = cands;
            self.rematch_by_tests(board, now, list, &mut rematch);
        }
        self.snap = *now;
        self.valid = true;

        // The class program at every focus to rematch, row by row (often none).
        if rematch.is_empty() {
            return u;
        }
        // Plain classes (every hit is its match) need no class program: each hit's match
        // comes from the facts read at construction, and only the entries gained or lost
        // are looked at.
        if self.ix.plain.is_some() {
            match self.entry_mode {
                true => self.rematch_plain::<true>(&rematch, &mut u),
                false => self.rematch_plain::<false>(&rematch, &mut u),
            }
            return u;
        }
        let Some(class) = rom.class(self.query.class) else {
            return u;
        };
        // Taken out for the loop (no allocation: an empty Vec is put in its place).
        let mut fresh = core::mem::take(&mut self.fresh);
        let mut out = MatchBuf::new(&mut fresh);
        let (hits, words, first) = (&self.hits, self.words, self.ix.first);
        rematch.for_each(|x, y| {
            u.rematched += 1;
            let p = point_index(x, y);
            if !self.snap.on_board(x, y) || !self.ix.focus_ok(state(&self.snap, x, y)) {
                return;
            }
            let qmask = self.query.orientations.mask_at(x, y);
            let hits = &hits[p * words..(p + 1) * words];
            let ctx = Ctx {
                rom,
                board,
                host,
                persp: self.query.perspective,
                x,
                y,
            };
            let mut g = HitSet { words: hits, first };
            run_class(&ctx, &class, qmask, &mut g, scratch, &mut out);
        });
        let (n, lost) = (out.len(), out.dropped());
        self.fresh = fresh;
        self.dropped += lost;
        if u.rematched > 0 {
            self.splice(&rematch, n);
        }
        u
    }

    /// Phases 3 to 5 of an update, for one change: the filter over the candidates' buckets
    /// (the survivors' ids asked for), then [`IncrementalScan::check_survivors`].
    fn settle(
        &mut self,
        ix: &Index,
        now: &Snapshot,
        cands: &[Cand],
        rematch: &mut PointSet,
        u: &mut Update,
    ) {
        let mut surv = core::mem::take(&mut self.survivors);
        surv.clear();
        for (k, c) in cands.iter().enumerate() {
            let b = c.bucket;
            ix.words(b, &c.st, |w, mut acc| {
                while acc != 0 {
                    let j = b.members as usize + w * 64 + acc.trailing_zeros() as usize;
                    acc &= acc - 1;
                    prefetch(&ix.members[j]);
                    surv.push((k as u32, j as u32));
                }
                if surv.len() > FLUSH.load(Ordering::Relaxed) {
                    self.check_survivors(ix, now, cands, &mut surv, rematch, u);
                }
            });
        }
        self.check_survivors(ix, now, cands, &mut surv, rematch, u);
        self.survivors = surv;
    }

    /// Phases 4 and 5: the survivors' entry ids (`(candidate, member)` pairs become
    /// `(candidate, entry)`; their window masks asked for), each checked on its focus's 7x7
    /// window, then those left on their cells beyond; new hits are added. Empties `surv`.
    fn check_survivors(
        &mut self,
        ix: &Index,
        now: &Snapshot,
        cands: &[Cand],
        surv: &mut Vec<(u32, u32)>,
        rematch: &mut PointSet,
        u: &mut Update,
    ) {
        for s in surv.iter_mut() {
            let r = ix.members[s.1 as usize];
            prefetch(&ix.win[r as usize]);
            prefetch(&ix.far[r as usize]);
            s.1 = r;
        }
        // The window check keeps the survivors that pass it in place (their far cells asked
        // for), then the far check.
        let mut kept = 0;
        // One window cut per candidate (its survivors are consecutive).
        let mut view = (u32::MAX, View7([0; 4]));
        for i in 0..surv.len() {
            let (k, r) = surv[i];
            if view.0 != k {
                let c = &cands[k as usize];
                view = (k, View7::cut(now, c.x as i32, c.y as i32));
            }
            u.verified += 1;
            if view.1.holds(&ix.win[r as usize]) {
                surv[kept] = (k, r);
                kept += 1;
                if let Some(c) = ix.cells.get(ix.far[r as usize][0] as usize) {
                    prefetch(c);
                }
            }
        }
        let (words, sw) = (self.words, ix.slot_words);
        for &(k, r) in &surv[..kept] {
            let (x, y, r) = (
                cands[k as usize].x as i32,
                cands[k as usize].y as i32,
                r as usize,
            );
            if !ix.holds_far(now, r, x, y) {
                continue;
            }
            let p = point_index(x, y);
            let (i, bit) = (p * words + r / 64, 1u64 << (r % 64));
            if self.hits[i] & bit == 0 {
                let v = self.hits[i] | bit;
                put_word(&mut self.hits, &mut self.journal, i, v);
                self.nonzero[p] |= 1 << (r / 64 / self.group);
                self.count[p] += 1;
                ix.add_breaks(&mut self.breaks[p * 3 * sw..(p + 1) * 3 * sw], r);
                self.with_hits.insert(x, y);
                rematch.insert(x, y);
            }
        }
        surv.clear();
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
                let (a, b) = (x0.max(0), (x1 + 1).min(size));
                if a < b {
                    let cols = (u64::MAX >> (64 - (b - a)) << a) as u32;
                    let mut row = self.with_hits.row(y) & cols;
                    while row != 0 {
                        rematch.insert(row.trailing_zeros() as i32, y);
                        row &= row - 1;
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

    /// The rematch of a plain class: at each focus of `foci`, its run (in entry order, with
    /// its entries in `ents`) and its hits (in entry order) are merged; an entry in both
    /// keeps its match, a hit gained gives its match from the facts (appeared), an entry
    /// lost gives its old match (vanished). No class program, no match compared. In entry
    /// mode (`ENTRIES`) the runs and the difference are entries alone: no match is built.
    // Out of line, as before the entry mode: inlined, match mode's plays took 0.4 % more
    // instructions (entry mode's 0.3 % fewer).
    #[inline(never)]
    fn rematch_plain<const ENTRIES: bool>(&mut self, foci: &PointSet, u: &mut Update) {
        let ix_arc = self.ix.clone();
        let ix = &*ix_arc;
        let facts = ix.plain.as_deref().unwrap_or(&[]);
        let mut fresh = core::mem::take(&mut self.fresh);
        let mut fents = core::mem::take(&mut self.fresh_ents);
        let (words, group, first) = (self.words, self.group, ix.first);
        foci.for_each(|x, y| {
            u.rematched += 1;
            let p = point_index(x, y);
            let (start, len) = self.runs[p];
            let (start, len) = (start as usize, len as usize);
            let old_e = &self.ents[start..start + len];
            // Entry mode keeps no matches.
            let old = match ENTRIES {
                true => &[][..],
                false => &self.pool[start..start + len],
            };
            let (vanished, vanished_e) = (&mut self.vanished, &mut self.vanished_entries);
            let mut lose = |i: usize| match ENTRIES {
                true => vanished_e.push(EntryHit::new(p, first + old_e[i])),
                false => vanished.push(old[i]),
            };
            // Within the capacity: what does not fit is counted, not kept.
            let room = self.capacity - (self.live - len);
            let (mut n, mut i, mut changed) = (0, 0, false);
            if self.snap.on_board(x, y) && ix.focus_ok(state(&self.snap, x, y)) {
                let qmask = self.query.orientations.mask_at(x, y);
                let hits = &self.hits[p * words..(p + 1) * words];
                for_hit_words(self.nonzero[p], group, words, |w| {
                    let mut bits = hits[w];
                    while bits != 0 {
                        let r = (w * 64 + bits.trailing_zeros() as usize) as u32;
                        bits &= bits - 1;
                        while i < len && old_e[i] < r {
                            lose(i);
                            (i, changed) = (i + 1, true);
                        }
                        let kept = i < len && old_e[i] == r;
                        if kept {
                            i += 1;
                            if !ENTRIES && n < room {
                                fresh[n] = old[i - 1];
                            }
                        } else if ENTRIES {
                            if !facts[r as usize].reports(qmask) {
                                continue;
                            }
                        } else {
                            let mut one = MatchBuf::new(&mut fresh[n.min(room)..]);
                            put_plain(&facts[r as usize], qmask, x, y, &mut one);
                            if one.len() + one.dropped() == 0 {
                                continue;
                            }
                        }
                        if n >= room {
                            self.dropped += 1;
                            if kept {
                                lose(i - 1);
                            }
                            changed = true;
                            continue;
                        }
                        if !kept {
                            match ENTRIES {
                                true => self.appeared_entries.push(EntryHit::new(p, first + r)),
                                false => self.appeared.push(fresh[n]),
                            }
                            changed = true;
                        }
                        fents[n] = r;
                        n += 1;
                    }
                });
            }
            for k in i..len {
                lose(k);
                changed = true;
            }
            if changed {
                let run = if ENTRIES { &[][..] } else { &fresh[..n] };
                self.place::<ENTRIES>(p, run, &fents[..n]);
            }
        });
        self.fresh = fresh;
        self.fresh_ents = fents;
        self.assembled = false;
    }

    /// Makes `run` (and, for plain classes, its entries `ents`) focus `p`'s run: over the old
    /// one when it fits and the set keeps no journal, else appended to the pool (compacted
    /// first when full). With a journal the old run stays where it is until a compaction
    /// (which empties the journal), so a restore only puts `runs[p]` back. In entry mode
    /// (`ENTRIES`) the run is its entries alone (`run` is empty; `ents` is the pool).
    // Out of line, as before the entry mode.
    #[inline(never)]
    fn place<const ENTRIES: bool>(&mut self, p: usize, run: &[Match], ents: &[u32]) {
        self.journal.run(p, self.runs[p]);
        let (start, len) = self.runs[p];
        let keep = if ENTRIES { ents.len() } else { run.len() };
        let (start, len) = (start as usize, len as usize);
        let plain = self.ix.plain.is_some();
        self.live = self.live - len + keep;
        if keep <= len && !self.journal.on() {
            if !ENTRIES {
                self.pool[start..start + keep].copy_from_slice(run);
            }
            if plain {
                self.ents[start..start + keep].copy_from_slice(ents);
            }
            self.runs[p] = (start as u32, keep as u32);
            return;
        }
        self.runs[p] = (0, 0);
        let full = match ENTRIES {
            true => self.ents.len() + keep > self.ents.capacity(),
            false => self.pool.len() + keep > self.pool.capacity(),
        };
        if full {
            // Full: the live runs, assembled in scan order, become the pool's front (the
            // journal's old runs go).
            self.journal.spoil();
            self.assembled = false;
            if !ENTRIES {
                assemble(&mut self.matches, &self.pool, &self.runs);
            }
            if plain {
                assemble(&mut self.ents_tmp, &self.ents, &self.runs);
                self.ents.clear();
                self.ents.extend_from_slice(&self.ents_tmp);
            }
            let mut at = 0;
            for run in self.runs.iter_mut() {
                run.0 = at;
                at += run.1;
            }
            if !ENTRIES {
                self.pool.clear();
                self.pool.extend_from_slice(&self.matches);
            }
        }
        let at = if ENTRIES {
            self.ents.len()
        } else {
            self.pool.len()
        };
        self.runs[p] = (at as u32, keep as u32);
        if !ENTRIES {
            self.pool.extend_from_slice(run);
        }
        if plain {
            self.ents.extend_from_slice(ents);
        }
    }

    /// Replaces the runs of the foci in `foci` by the `n` fresh matches (in focus order) and
    /// records the difference, focus by focus (scan order).
    fn splice(&mut self, foci: &PointSet, n: usize) {
        let key = |m: &Match| (m.focus.1 as i64) << 32 | m.focus.0 as i64;
        let mut j = 0;
        foci.for_each(|x, y| {
            let k = (y as i64) << 32 | x as i64;
            let j0 = j;
            while j < n && key(&self.fresh[j]) == k {
                j += 1;
            }
            let p = point_index(x, y);
            let (start, len) = self.runs[p];
            let (start, len) = (start as usize, len as usize);
            // Within the capacity: what does not fit is counted, not kept.
            let room = self.capacity - (self.live - len);
            let keep = (j - j0).min(room);
            self.dropped += j - j0 - keep;
            let is = &self.fresh[j0..j0 + keep];
            let was = &self.pool[start..start + len];
            // Most rematched foci keep most matches: only the middle differs.
            let same = was.iter().zip(is).take_while(|(o, f)| o == f).count();
            let (w, i) = (&was[same..], &is[same..]);
            let tail = w
                .iter()
                .rev()
                .zip(i.iter().rev())
                .take_while(|(o, f)| o == f)
                .count();
            let (w, i) = (&w[..w.len() - tail], &i[..i.len() - tail]);
            // The pattern first: most pairs differ there, before the whole match is compared.
            let has = |s: &[Match], m: &Match| s.iter().any(|o| o.pattern == m.pattern && o == m);
            for m in i {
                if !has(w, m) {
                    self.appeared.push(*m);
                }
            }
            for m in w {
                if !has(i, m) {
                    self.vanished.push(*m);
                }
            }
            if w.is_empty() && i.is_empty() {
                return;
            }
            let fresh = core::mem::take(&mut self.fresh);
            self.place::<false>(p, &fresh[j0..j0 + keep], &[]);
            self.fresh = fresh;
        });
        self.assembled = false;
    }
}

/// Match slots of a set's pool: the live runs (at most `capacity`), as much again for runs
/// rewritten before a compaction, and, with a journal of `journal` bytes, the journal's
/// budget again in matches: the old runs its records restore stay in the pool until a
/// compaction, which empties the journal, so a class with many matches per move (several
/// files' patterns in one class) would otherwise compact, and lose its undos, every few
/// dozen moves.
fn pool_room(capacity: usize, journal: usize) -> usize {
    2 * capacity + journal / size_of::<Match>()
}

/// The runs of `pool` in point order (scan order) into `out`, within its capacity.
fn assemble<T: Copy>(out: &mut Vec<T>, pool: &[T], runs: &[(u32, u32)]) {
    out.clear();
    for &(start, len) in runs {
        out.extend_from_slice(&pool[start as usize..(start + len) as usize]);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The 7x7 window planes give every point's state (off-board included) at every focus,
    /// edges and corners too, on boards of several sizes.
    #[test]
    fn view7_planes_equal_point_states() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for size in [5u8, 9, 19, 25] {
            let mut snap = Snapshot::EMPTY;
            snap.size = size;
            for y in 0..size as usize {
                for x in 0..size as u32 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match seed % 3 {
                        0 => snap.rows[0][y] |= 1 << x,
                        1 => snap.rows[1][y] |= 1 << x,
                        _ => {}
                    }
                }
            }
            for y in 0..size as i32 {
                for x in 0..size as i32 {
                    let v = View7::cut(&snap, x, y);
                    for dy in -WIN..=WIN {
                        for dx in -WIN..=WIN {
                            let bit = win_bit(dx, dy);
                            let s = state(&snap, x + dx, y + dy);
                            for (k, plane) in v.0.iter().enumerate() {
                                assert_eq!(
                                    plane >> bit & 1 != 0,
                                    k == s as usize,
                                    "{size} ({x}, {y}) + ({dx}, {dy})"
                                );
                            }
                        }
                    }
                    assert_eq!(v.0.iter().fold(0, |a, p| a | p), (1 << 49) - 1);
                }
            }
        }
    }
}
