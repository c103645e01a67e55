//! The Lens standard pattern library.
