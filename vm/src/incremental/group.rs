//! Many incremental sets brought up to date by one update ([`IncrementalGroup`]): what an
//! engine holds when it wants several classes for both colours after every move, as one
//! `ScanSet` call gives them on the whole board.
//!
//! The work that does not depend on the class is done once per update, not once per set:
//! the board is read and diffed once, and the padded states and 3x3 summaries are kept once
//! per perspective (White's frame is Black's with the colours swapped). Each set keeps its
//! own hits, matches and difference; sets of one class share its transition index (both
//! colours read the same index through their own frame's states).

use alloc::vec::Vec;

use super::scan::{Frame, IncrementalScan, Update};
use super::snapshot::Snapshot;
use crate::board::{BoardView, Colour};
use crate::matching::{Host, Match, Query, Scratch};
use crate::rom::Rom;

/// The match sets of several queries, brought up to date together by
/// [`IncrementalGroup::update`]; each set equals the same query's [`IncrementalScan`] alone
/// after every update (matches, [`IncrementalScan::matches_at`], appeared, vanished). All
/// memory is allocated by [`IncrementalGroup::new`]; updates never allocate.
#[derive(Clone, Debug)]
pub struct IncrementalGroup {
    sets: Vec<IncrementalScan>,
    /// The board from Black's (0) and White's (1) perspective.
    frames: [Frame; 2],
    /// Which perspectives some set reads.
    used: [bool; 2],
}

impl IncrementalGroup {
    /// The (empty) sets of `queries` on `rom` (in that order), each holding at most
    /// `capacity` matches; queries of one class share its index (built once). The first
    /// [`IncrementalGroup::update`] matches the whole board. `None` when a class does not
    /// exist.
    pub fn new(rom: &Rom<'_>, queries: &[Query], capacity: usize) -> Option<IncrementalGroup> {
        let mut sets: Vec<IncrementalScan> = Vec::with_capacity(queries.len());
        for &q in queries {
            let set = match sets.iter().find(|s| s.query().class == q.class) {
                Some(s) => s.for_query(q),
                None => IncrementalScan::new(rom, q, capacity)?,
            };
            sets.push(set.without_frame());
        }
        let used =
            [Colour::Black, Colour::White].map(|c| queries.iter().any(|q| q.perspective == c));
        Some(IncrementalGroup {
            sets,
            frames: [Frame::new(), Frame::new()],
            used,
        })
    }

    /// The group with a journal of at most `bytes` bytes per set
    /// ([`IncrementalScan::with_journal`]; the default is
    /// [`super::scan::DEFAULT_JOURNAL_BYTES`]).
    pub fn with_journal(self, bytes: usize) -> IncrementalGroup {
        IncrementalGroup {
            sets: self
                .sets
                .into_iter()
                .map(|s| s.with_journal(bytes))
                .collect(),
            ..self
        }
    }

    /// The group with every set in entry mode ([`IncrementalScan::with_entry_results`]:
    /// each set's difference and runs as [`super::EntryHit`]s, a [`Match`] built by
    /// [`IncrementalScan::match_of`] on demand), or `None` when some set's class is not
    /// plain ([`IncrementalScan::entry_results_supported`]).
    pub fn with_entry_results(self) -> Option<IncrementalGroup> {
        let sets = self
            .sets
            .into_iter()
            .map(IncrementalScan::with_entry_results)
            .collect::<Option<Vec<_>>>()?;
        Some(IncrementalGroup { sets, ..self })
    }

    /// The sets, in the order of the queries.
    pub fn sets(&self) -> &[IncrementalScan] {
        &self.sets
    }
    /// Set `i` (query `i`).
    pub fn set(&self, i: usize) -> &IncrementalScan {
        &self.sets[i]
    }
    /// Set `i`'s whole match set ([`IncrementalScan::matches`]; built on demand in entry
    /// mode; the sets are not lent mutably: one updated alone would no longer follow the
    /// group's frames).
    pub fn matches(&mut self, i: usize) -> &[Match] {
        self.sets[i].matches()
    }

    /// The next update matches the whole board again, for every set.
    pub fn invalidate(&mut self) {
        for s in &mut self.sets {
            s.invalidate();
        }
    }

    /// Brings every set up to date with `board`, as [`IncrementalScan::update`] does for one;
    /// returns the points changed and the sums of the sets' other counts.
    pub fn update<B: BoardView + ?Sized, H: Host + ?Sized>(
        &mut self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        scratch: &mut Scratch,
    ) -> Update {
        let black = Snapshot::read_as(board, false);
        let white = Snapshot {
            size: black.size,
            rows: [black.rows[1], black.rows[0]],
        };
        let mut rebuilt = [false; 2];
        for (k, now) in [black, white].iter().enumerate() {
            if self.used[k] {
                rebuilt[k] = self.frames[k].advance(now);
            }
        }
        let mut total = Update::default();
        for s in &mut self.sets {
            let k = (s.query().perspective == Colour::White) as usize;
            let u = s.apply(rom, board, host, scratch, &self.frames[k], rebuilt[k]);
            total.changed = total.changed.max(u.changed);
            total.checked += u.checked;
            total.verified += u.verified;
            total.rematched += u.rematched;
            total.restored += u.restored;
        }
        total
    }
}
