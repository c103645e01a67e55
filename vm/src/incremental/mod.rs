//! Incremental matching: what an engine keeps up to date move by move instead of rescanning
//! the whole board (`docs/embedding.md`, "Incremental matching").
//!
//! - [`Codes3x3`]: every point's 3x3 neighbourhood code (the lookup tables' key) with the
//!   atari bits of its orthogonal neighbours, Pachi style; no allocation.
//! - [`IncrementalScan`] (feature `alloc`): a class's whole-board match set, re-matched only
//!   where a move can change it, with the matches that appeared and vanished; memory is
//!   allocated once, at construction.
//! - [`IncrementalGroup`] (feature `alloc`): several such sets (classes, both colours)
//!   brought up to date by one update that reads and diffs the board once.
//! - [`EntryHit`] (feature `alloc`): a set's match as `(focus, ROM entry)` in entry mode
//!   ([`IncrementalScan::with_entry_results`], plain classes): the runs and the difference
//!   kept as entries, a [`crate::Match`] built only when asked for.
//!
//! Both find what changed by comparing the board's stone rows with a copy of their own
//! ([`crate::BoardView::window_rows`]), so they follow plays, captures, undos and setup edits
//! on the reference board or on an engine's own [`crate::BoardView`] alike: call `update`
//! after the board changed, as often or as rarely as needed.

mod codes;
#[cfg(feature = "alloc")]
mod group;
#[cfg(feature = "alloc")]
pub(crate) mod scan;
mod snapshot;

pub use codes::{ATARI_SHIFT, CODE_MASK, Codes3x3, STATE_SHIFT, swap_colours};
#[cfg(feature = "alloc")]
pub use group::IncrementalGroup;
#[cfg(feature = "alloc")]
pub use scan::{DEFAULT_JOURNAL_BYTES, EntryHit, IncrementalScan, MatchId, Reach, Update};
