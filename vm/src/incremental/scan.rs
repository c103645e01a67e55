//! A class's whole-board match set kept up to date move by move ([`IncrementalScan`]).
//!
//! After a move only the foci whose field (and the points their tests read) holds a changed
//! point can gain or lose a match. `update` finds the changed points by comparing stone rows
//! with its last snapshot, rescans the rectangle of foci they can reach (the class's
//! [`Reach`], through a [`ScanPlan`]), splices that rectangle's matches into the kept set and
//! reports the difference as two lists, `appeared` and `vanished`. Matches are identified by
//! [`MatchId`] (focus, pattern, orientation), stable from move to move.

use alloc::vec::Vec;

use super::snapshot::{POINTS, PointSet, Snapshot, walk_string};
use crate::board::BoardView;
use crate::matching::{Area, Host, Match, MatchBuf, Query, ScanPlan, Scratch};
use crate::rom::bytecode::{Op, decode};
use crate::rom::{ClassId, Rom};

/// A match's identity within one class and perspective: its focus, pattern and reported
/// orientation (a class reports at most one match per triple; a class default has pattern
/// [`crate::matching::DEFAULT_PATTERN`]). Ordered by focus row, column, pattern, orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MatchId(pub u64);

impl MatchId {
    pub fn of(m: &Match) -> MatchId {
        let (x, y) = (m.focus.0 as u64 & 0xFF, m.focus.1 as u64 & 0xFF);
        MatchId(y << 48 | x << 40 | (m.pattern as u64) << 8 | m.orientation as u64)
    }
    pub fn focus(self) -> (i32, i32) {
        ((self.0 >> 40 & 0xFF) as i32, (self.0 >> 48 & 0xFF) as i32)
    }
    pub fn pattern(self) -> u32 {
        (self.0 >> 8) as u32
    }
    pub fn orientation(self) -> u8 {
        self.0 as u8
    }
}

/// How far from its focus a class's matches look (Chebyshev distance, any orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Points whose state a cell or test reads.
    pub state: i32,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Update {
    /// Points whose state changed since the last update.
    pub changed: usize,
    /// The foci rescanned (empty when nothing changed).
    pub area: Area,
}

/// The match set of one query (class, perspective, orientations) over a whole board, kept
/// up to date by [`IncrementalScan::update`] after each play, undo or edit. All memory is
/// allocated by [`IncrementalScan::new`] (`capacity` matches); updates never allocate.
#[derive(Clone, Debug)]
pub struct IncrementalScan {
    query: Query,
    plan: ScanPlan,
    reach: Reach,
    snap: Snapshot,
    valid: bool,
    capacity: usize,
    /// The set, in [`Rom::scan`] order (foci row by row, the class program's order within a
    /// focus).
    matches: Vec<Match>,
    spare: Vec<Match>,
    /// Output slots of the rescans.
    fresh: Vec<Match>,
    appeared: Vec<Match>,
    vanished: Vec<Match>,
    dropped: usize,
}

impl IncrementalScan {
    /// The (empty) incremental set of `query` on `rom`, holding at most `capacity` matches;
    /// the first [`IncrementalScan::update`] scans the whole board. `None` when the class
    /// does not exist.
    pub fn new(rom: &Rom<'_>, query: Query, capacity: usize) -> Option<IncrementalScan> {
        Some(IncrementalScan {
            query,
            plan: ScanPlan::new(rom, query.class)?,
            reach: Reach::of(rom, query.class)?,
            snap: Snapshot::EMPTY,
            valid: false,
            capacity,
            matches: Vec::with_capacity(capacity),
            spare: Vec::with_capacity(capacity),
            fresh: alloc::vec![Match::EMPTY; capacity],
            appeared: Vec::with_capacity(capacity),
            vanished: Vec::with_capacity(capacity),
            dropped: 0,
        })
    }

    pub fn query(&self) -> &Query {
        &self.query
    }
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
    /// Matches lost for lack of room since the set was last complete: non-zero means the set
    /// (and the diff) are partial; build with a larger capacity.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The next update rescans the whole board (after the host's answers changed).
    pub fn invalidate(&mut self) {
        self.valid = false;
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
        let whole = Area {
            x0: 0,
            y0: 0,
            x1: now.size as i32,
            y1: now.size as i32,
        };
        let mut changed = 0;
        let area = if !self.valid || now.size != self.snap.size {
            changed = POINTS;
            self.dropped = 0;
            whole
        } else {
            let mut b = Bounds::EMPTY;
            let mut first = None;
            self.snap.diff(&now, |c| {
                changed += 1;
                first.get_or_insert((c.x, c.y));
                b.add(c.x, c.y);
            });
            if changed == 0 {
                return Update {
                    changed,
                    area: Area {
                        x0: 0,
                        y0: 0,
                        x1: 0,
                        y1: 0,
                    },
                };
            }
            if self.reach.global {
                whole
            } else {
                let mut area = b.grown(self.reach.state);
                if let Some(r) = self.reach.libs {
                    let strings = self.strings_next_to_changes(board, &now);
                    area = union(area, strings.grown(r));
                }
                clip(area, now.size as i32)
            }
        };
        self.snap = now;
        self.valid = true;

        let mut out = MatchBuf::new(&mut self.fresh);
        self.plan
            .scan_area(rom, board, host, &self.query, area, scratch, &mut out);
        let (n, lost) = (out.len(), out.dropped());
        self.dropped += lost;
        self.splice(area, n);
        Update { changed, area }
    }

    /// Bounds of the stones of every string that holds a changed point or touches one (the
    /// strings whose liberty count may have changed), on the board as it is now.
    fn strings_next_to_changes<B: BoardView + ?Sized>(&self, board: &B, now: &Snapshot) -> Bounds {
        let mut seen = PointSet::new();
        let mut stack = [(0i8, 0i8); POINTS];
        let mut b = Bounds::EMPTY;
        self.snap.diff(now, |c| {
            let near = [(0, 0), (0, -1), (-1, 0), (1, 0), (0, 1)];
            for (dx, dy) in near {
                let (x, y) = (c.x + dx, c.y + dy);
                if now.on_board(x, y) && now.state(x, y) != 2 && !seen.contains(x, y) {
                    walk_string(board, x, y, &mut seen, &mut stack, |sx, sy| b.add(sx, sy));
                }
            }
        });
        b
    }

    /// Replaces the matches of the foci in `area` by the `n` fresh ones, recording the
    /// difference.
    fn splice(&mut self, area: Area, n: usize) {
        let key = |m: &Match| (m.focus.1 as i64) << 32 | m.focus.0 as i64;
        let inside = |m: &Match| {
            (area.x0..area.x1).contains(&m.focus.0) && (area.y0..area.y1).contains(&m.focus.1)
        };
        let old = &self.matches;
        // Matches of the rows above and below the area stay as they are.
        let a = old.partition_point(|m| m.focus.1 < area.y0);
        let b = old.partition_point(|m| m.focus.1 < area.y1);
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
            if was.first().is_some_and(|m| !inside(m)) {
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

/// A bounding box of points (empty: `x0 > x1`).
#[derive(Clone, Copy)]
struct Bounds {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        x0: i32::MAX,
        y0: i32::MAX,
        x1: i32::MIN,
        y1: i32::MIN,
    };
    #[inline]
    fn add(&mut self, x: i32, y: i32) {
        self.x0 = self.x0.min(x);
        self.y0 = self.y0.min(y);
        self.x1 = self.x1.max(x);
        self.y1 = self.y1.max(y);
    }
    /// The foci within `r` of a point of the box (empty box: empty area).
    fn grown(&self, r: i32) -> Area {
        if self.x0 > self.x1 {
            return Area {
                x0: 0,
                y0: 0,
                x1: 0,
                y1: 0,
            };
        }
        Area {
            x0: self.x0 - r,
            y0: self.y0 - r,
            x1: self.x1 + r + 1,
            y1: self.y1 + r + 1,
        }
    }
}

fn union(a: Area, b: Area) -> Area {
    if a.x0 >= a.x1 || a.y0 >= a.y1 {
        return b;
    }
    if b.x0 >= b.x1 || b.y0 >= b.y1 {
        return a;
    }
    Area {
        x0: a.x0.min(b.x0),
        y0: a.y0.min(b.y0),
        x1: a.x1.max(b.x1),
        y1: a.y1.max(b.y1),
    }
}

fn clip(a: Area, size: i32) -> Area {
    Area {
        x0: a.x0.max(0),
        y0: a.y0.max(0),
        x1: a.x1.min(size),
        y1: a.y1.min(size),
    }
}
