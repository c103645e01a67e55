//! The Lens compiler: sources -> checked AST -> IR -> optimised ROM image.
pub mod disasm;
pub mod import;
pub mod stats;
