//! The LENS/field language front end: lexer (logos), parser (lalrpop), AST with spans,
//! checks that need no compilation, and the canonical formatter.
//!
//! Public API (the contract the compiler, the importer and the CLI use):
//! - [`parse`]: one file's text -> AST + syntax diagnostics (with error recovery);
//! - [`load_paths`] / [`load_str`]: read files, follow `include`s (cycles and missing files are
//!   diagnostics), giving a [`Program`];
//! - [`check()`]: every front-end check on a program;
//! - [`diagram::analyse`]: a diagram + legend -> a [`diagram::Grid`] of allowed states per offset;
//! - [`fmt::format`]: canonical source text;
//! - [`render_human`] / [`render_json`]: diagnostics as human text (miette) or JSON lines;
//! - [`builtins`]: the built-in test table.
//!
//! ```
//! let (program, diags) = lens_dsl::load_str("demo.lens", "class c { field 3x3; }\n\
//!     pattern p : c { diagram {\n X . .\n . * .\n . . .\n } => * 5; }");
//! assert!(diags.is_empty());
//! assert!(lens_dsl::check(&program).is_empty());
//! ```

pub mod ast;
pub mod builtins;
pub mod check;
pub mod diagnostics;
pub mod diagram;
pub mod fmt;
pub mod load;
pub mod parser;
pub mod render;
pub mod source;

pub use check::check;
pub use diagnostics::{Diagnostic, Label, Severity, did_you_mean};
pub use load::{load_paths, load_str};
pub use parser::parse;
pub use render::{render_human, render_json};
pub use source::{FileId, SourceFile, SourceMap};

/// All files of one compilation after include resolution, in a deterministic order: the roots
/// in the order given, each followed by (first occurrences of) the files it includes.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub sources: SourceMap,
    /// Parsed files; `files[i].0` indexes `sources`.
    pub files: Vec<(FileId, ast::File)>,
}

impl Program {
    /// The parsed file with this id.
    pub fn file(&self, id: FileId) -> Option<&ast::File> {
        self.files.iter().find(|(f, _)| *f == id).map(|(_, a)| a)
    }
}

/// Convenience for tools: load + check, all diagnostics in one list (loader/parser first).
pub fn load_and_check(paths: &[std::path::PathBuf]) -> (Program, Vec<Diagnostic>) {
    let (program, mut diags) = load_paths(paths);
    diags.extend(check(&program));
    (program, diags)
}
