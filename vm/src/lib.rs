//! `lens-vm`: load a Lens ROM image zero-copy and match it against a Go board.
//!
//! Load an image with [`Rom::from_bytes`] (it is validated once, in one pass; every later read
//! is in range), match one class at one point with [`Rom::match_at`], or over the whole board
//! with [`Rom::scan`]. Matching never allocates: matches go into a caller-owned [`MatchBuf`],
//! working memory is the caller's [`FocusScratch`] (one call, 17 bytes) or [`Scratch`] (scans,
//! about 355 KiB). Which kernel and which instruction set serve a call is decided in one place,
//! `matching/dispatch.rs` ([`matching::simd`] for the instruction set).
//!
//! A rejected image is a [`LoadError`]: the byte offset of the field at fault and a typed
//! [`LoadErrorKind`]. The wire format itself (`docs/rom-format.md`) stays private to [`rom`];
//! an embedder reads images only through [`Rom`] and [`rom::CompactRom`].
//!
//! Features (all off by default; the core is `no_std` without dependencies):
//! - `alloc`: owned buffers, [`spec`] (the compiler's hand-off to the writer), the writer
//!   ([`rom::write`]) and `CompactRom::expand`;
//! - `std`: file loading and `std::error::Error` impls;
//! - `metadata`: the compact image's names and spans (serde + bincode);
//! - `builder`: everything the compiler needs to write images (`alloc` + `metadata`);
//! - `bench-internals`: hooks for this workspace's tests and benches only (`internals`,
//!   `Rom::without_lut`, ...), no stability promise.
//!
//! ```
//! use lens_vm::spec::{CellSpec, ClassNode, ClassSpec, Mode, Offset, OrientPolicy, PatternSpec,
//!     ResultSpec, RomSpec};
//! use lens_vm::{board::Board, rom, Colour, FocusScratch, Match, MatchBuf, MatchResult, NoHost,
//!     Orientations, Query, Rom, Scratch};
//!
//! // An image (normally written by `lensc compile`): one 3x3 class, one pattern "an empty
//! // point with a friendly stone above it: play there", in all 8 orientations.
//! let pattern = PatternSpec {
//!     id: 0,
//!     priority: 0,
//!     cells: vec![CellSpec { at: Offset::new(0, -1), allowed: 1 }], // 1 = friend
//!     orientations: (0..8).collect(),
//!     covers: (0..8).map(|o| 1u8 << o).collect(),
//!     tests: vec![],
//!     result: Some(ResultSpec::Move { at: Offset::FOCUS, value: 7, bits: 0, sequence: None }),
//! };
//! let spec = RomSpec {
//!     classes: vec![ClassSpec {
//!         name: "extend".into(),
//!         mode: Mode::All,
//!         focus: 4, // empty
//!         width: 3,
//!         height: 3,
//!         orient: OrientPolicy::All,
//!         default_value: None,
//!         nodes: vec![ClassNode::Pattern(pattern)],
//!     }],
//!     ..RomSpec::default()
//! };
//! let bytes = rom::write(&spec);
//!
//! // Load, then match at one point and over the board.
//! let rom = Rom::from_bytes(&bytes).expect("a valid image");
//! let q = Query {
//!     class: rom.class_by_name("extend").unwrap(),
//!     perspective: Colour::Black,
//!     orientations: Orientations::All,
//! };
//! let mut board = Board::new(9).unwrap();
//! board.place(Colour::Black, 4, 4).unwrap();
//! let mut slots = [Match::EMPTY; 16];
//! let mut out = MatchBuf::new(&mut slots);
//! rom.match_at(&board, &NoHost, &q, 4, 5, &mut FocusScratch::new(), &mut out);
//! assert!(matches!(out.as_slice()[0].result, MatchResult::Move { x: 4, y: 5, value: 7, .. }));
//!
//! // Every empty neighbour of the stone matches (once per orientation reaching it).
//! let mut scratch = Box::new(Scratch::new());
//! let mut slots = [Match::EMPTY; 64];
//! let mut out = MatchBuf::new(&mut slots);
//! rom.scan(&board, &NoHost, &q, &mut scratch, &mut out);
//! let mut foci: Vec<(i32, i32)> = out.as_slice().iter().map(|m| m.focus).collect();
//! foci.dedup();
//! assert_eq!(foci, [(4, 3), (3, 4), (5, 4), (4, 5)]);
//! ```
#![no_std]
// Every public item says what it is, its units and its errors (CI builds with all features).
#![deny(missing_docs)]
// The only `unsafe` is `matching::simd` (calls into `#[target_feature]` code after detection).
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod board;
pub mod geometry;
pub mod incremental;
#[cfg(feature = "bench-internals")]
pub mod internals;
pub mod matching;
pub mod reference;
pub mod rom;
#[cfg(feature = "alloc")]
pub mod spec;

pub use board::{BoardView, Colour, Point};
pub use matching::{
    CallScratch, FocusScratch, Hit, HitBuf, Host, HostArg, Match, MatchBuf, MatchResult, NoHost,
    Orientations, OutBuf, Query, Scratch,
};
#[cfg(feature = "alloc")]
pub use rom::RomBuf;
pub use rom::{AlignedRom, ClassId, ClassInfo, LensId, LoadError, LoadErrorKind, Rom};
