//! Integration tests live in `tests/tests/`.

/// The third-party joseki files, read in place from `../shared/data` (joseki tests).
pub mod joseki_data;
