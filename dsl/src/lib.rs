//! The LENS/field language front end: lexer (logos), parser (lalrpop), AST with spans,
//! checks that need no compilation, and the canonical formatter.
//!
//! Public API (the contract the compiler, the importer and the CLI use):
//! - [`parse`]: one file's text -> AST + syntax diagnostics (with error recovery);
//! - [`load_paths`] / [`load_str`]: read files, follow `include`s (cycles and missing files are
//!   diagnostics), giving a [`Program`];
//! - [`check`]: every front-end check on a program;
//! - [`diagram::analyse`]: a diagram + legend -> a [`diagram::Grid`] of allowed states per offset;
//! - [`fmt::format`]: canonical source text;
//! - [`render`]: diagnostics as human text (miette) or JSON lines.

pub mod ast;
pub mod diagnostics;
pub mod source;

pub use diagnostics::{Diagnostic, Label, Severity};
pub use source::{FileId, SourceFile, SourceMap};

/// All files of one compilation after include resolution, in a deterministic order: the roots
/// in the order given, each followed by (first occurrences of) the files it includes.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub sources: SourceMap,
    /// Parsed files; `files[i].0` indexes `sources`.
    pub files: Vec<(FileId, ast::File)>,
}
