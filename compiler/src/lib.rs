//! The Lens compiler: sources -> checked AST -> IR -> optimised ROM image.
pub mod import;
