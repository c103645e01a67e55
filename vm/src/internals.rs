//! Hooks for this crate's own tests and benches and the workspace's benches (feature
//! `bench-internals`, off by default; no stability promise). An embedder never needs them:
//! they expose the lookup tables' key and lists and the packed view words so that a bench can
//! time one stage alone. The other hooks are methods gated by the same feature:
//! `Rom::without_lut`, `Rom::without_sliced` and `ScanPlan::and_counts`.

pub use crate::matching::{cut_views, view_words};

/// The sliced kernel's survivor limit, block pairing and pair rows (`matching/sliced.rs`):
/// every setting gives the same matches.
pub use crate::matching::sliced::{
    pair_rows, paired_blocks, set_pair_rows, set_paired_blocks, set_survivor_limit, survivor_limit,
};

/// When the incremental filter checks its held survivors (`incremental/scan.rs`): every
/// setting gives the same sets.
#[cfg(feature = "alloc")]
pub use crate::incremental::scan::set_survivor_flush;

/// The `sliced` writer without pair rows (format v3 blocks, still loaded by a v4 VM): a
/// baseline image for benches.
pub use crate::rom::sliced::set_write_pair_rows;

/// The writer without format v6's 64-byte aligned `sliced` tables (off: v5's layout under a v5
/// header): a baseline image for benches.
pub use crate::rom::sliced::set_write_aligned;

/// The writer without the plain facts (format v5's `pattern_facts` section and the entries'
/// `plain` fields; off: format v4's records): a baseline image for benches and the record path
/// for differential tests.
pub use crate::rom::facts::set_write_facts;

/// The lookup tables' window cut and candidate lists (`rom/lut.rs`, "lut" in
/// `docs/rom-format.md`).
pub mod lut {
    pub use crate::rom::lut::{NEIGHBOURS, code, realizable};

    /// How many entries the table lists for a focus state (0 friend, 1 foe, 2 empty) in the
    /// class's focus set and a neighbourhood [`code`].
    pub fn candidates(table: &crate::rom::ClassLut<'_>, focus_state: u8, code: u16) -> usize {
        table.candidates(focus_state, code).len()
    }
}

/// How many pending children the whole-board walks over the foci keep on their stack (`None`:
/// all; the others are visited by recursion), for tests: every setting gives the same matches.
#[cfg(feature = "alloc")]
pub fn set_walk_pending(limit: Option<usize>) {
    crate::matching::set_walk_pending(limit)
}

/// Children the walks over the foci with `scratch` visited by recursion because their stack
/// was full (see [`set_walk_pending`]), over all its scans so far.
#[cfg(feature = "alloc")]
pub fn walk_fallbacks(scratch: &crate::Scratch) -> usize {
    scratch.walk_fallbacks()
}

/// Shared walks of a `ScanSet` with `scratch` done over patterns (sets over focus x
/// orientation) rather than oriented entries, over all its scans so far.
#[cfg(feature = "alloc")]
pub fn pattern_walks(scratch: &crate::Scratch) -> usize {
    scratch.pattern_walks()
}

/// The reference board seen as an engine's own board might be, for tests of the `BoardView`
/// fallbacks: [`PointsOnly`] answers `point()` and `liberties()` only (no row bitboards, so
/// every fast path falls back), [`RowsOnly`] adds `row_bits` but keeps the trait's default
/// `window7` (cut from the rows).
pub struct PointsOnly<'b>(pub &'b crate::board::Board);

impl crate::BoardView for PointsOnly<'_> {
    fn size(&self) -> u8 {
        self.0.size()
    }
    fn point(&self, x: i32, y: i32) -> crate::Point {
        self.0.point(x, y)
    }
    fn liberties(&self, x: i32, y: i32) -> u16 {
        self.0.liberties(x, y)
    }
}

/// See [`PointsOnly`]: row bitboards, default `window7`.
pub struct RowsOnly<'b>(pub &'b crate::board::Board);

impl crate::BoardView for RowsOnly<'_> {
    fn size(&self) -> u8 {
        self.0.size()
    }
    fn point(&self, x: i32, y: i32) -> crate::Point {
        self.0.point(x, y)
    }
    fn liberties(&self, x: i32, y: i32) -> u16 {
        self.0.liberties(x, y)
    }
    fn row_bits(&self, colour: crate::Colour, y: i32) -> Option<u32> {
        self.0.row_bits(colour, y)
    }
}
