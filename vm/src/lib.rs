//! `lens-vm`: load a Lens ROM image zero-copy and match it against a Go board.
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod geometry;
#[cfg(feature = "builder")]
pub mod spec;
pub mod board;
