//! Helpers shared by the workspace's tests and benches (a dev-dependency, never published):
//! lens-vm fixtures (a seeded PRNG, a tiny board, random and sample `RomSpec`s), the exhaustive
//! 3x3 neighbourhoods of the lookup-table tests, and this thread's CPU time for benches on a
//! shared machine.

pub mod fixtures;
pub mod lut;
pub mod placement;
pub mod thread_cpu;
