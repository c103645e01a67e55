//! `lens-vm`: load a Lens ROM image zero-copy and match it against a Go board.
#![no_std]
// The only `unsafe` is `matching::simd` (calls into `#[target_feature]` code after detection).
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod board;
pub mod geometry;
pub mod incremental;
pub mod matching;
pub mod reference;
pub mod rom;
#[cfg(feature = "alloc")]
pub mod spec;

pub use board::{BoardView, Colour, Point};
pub use matching::{
    CallScratch, FocusScratch, Host, HostArg, Match, MatchBuf, MatchResult, NoHost, Orientations,
    Query, Scratch,
};
pub use rom::{AlignedRom, ClassId, ClassInfo, LensId, LoadError, LoadErrorKind, Rom};
