//! The import report: per file, patterns imported fully, imported with externs, and not
//! imported (with the reason); parse errors, directives, actions and the extern table.

use std::fmt::Write as _;

use super::db::{DbError, Directive};
use super::mkpat::{AnchorMode, Mkpat, MkpatSource};

/// An extern predicate collected from the constraints of one file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExternDecl {
    pub name: String,
    /// `point` or `int` per parameter.
    pub params: Vec<&'static str>,
    pub cost: u32,
    /// `: int`: the engine returns a number; otherwise a condition.
    pub returns_int: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PatternOutcome {
    /// Geometry and every test mapped onto Lens built-ins.
    Full { name: String },
    /// Imported; the engine must supply these extern predicates.
    WithExterns { name: String, externs: Vec<String> },
    /// Left out of the output.
    NotImported {
        name: String,
        line: u32,
        reason: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct FileReport {
    pub file: String,
    /// The anchor colours applied (`mkpat.anchor`).
    pub anchor: AnchorMode,
    /// The mkpat options applied, and where they came from.
    pub mkpat: Mkpat,
    pub mkpat_source: MkpatSource,
    /// GNU Go's `matchpat` convention for this database (`plain`, `ANCHOR_COLOR`, `ANCHOR_OTHER`).
    pub call_mode: &'static str,
    pub geometric_only: bool,
    pub outcomes: Vec<PatternOutcome>,
    /// Lines that could not be parsed (those patterns are left out).
    pub errors: Vec<DbError>,
    pub directives: Vec<Directive>,
    /// `>` actions carried as `attr gnugo_action`.
    pub actions_carried: usize,
    pub externs: Vec<ExternDecl>,
    /// Engine variables the constraints read (C globals such as `doing_scoring`).
    pub globals: Vec<String>,
    /// Classes emitted, with their pattern counts.
    pub classes: Vec<(String, usize)>,
}

impl FileReport {
    pub fn full(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|o| matches!(o, PatternOutcome::Full { .. }))
            .count()
    }
    pub fn with_externs(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|o| matches!(o, PatternOutcome::WithExterns { .. }))
            .count()
    }
    /// Patterns not imported, parse errors included.
    pub fn not_imported(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|o| matches!(o, PatternOutcome::NotImported { .. }))
            .count()
            + self.errors.len()
    }
    pub fn imported(&self) -> usize {
        self.full() + self.with_externs()
    }

    /// Human-readable text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {} imported ({} fully, {} with externs), {} not imported; mkpat {} ({}); anchors {}{}, GNU Go calls it {}{}",
            self.file,
            self.imported(),
            self.full(),
            self.with_externs(),
            self.not_imported(),
            self.mkpat,
            self.mkpat_source.as_str(),
            self.anchor.as_str(),
            if self.mkpat.centre_anchor {
                " nearest the middle"
            } else {
                ""
            },
            self.call_mode,
            if self.geometric_only {
                "; geometric only (constraints dropped)"
            } else {
                ""
            }
        );
        for (c, n) in &self.classes {
            let _ = writeln!(s, "  class {c}: {n} patterns");
        }
        for e in &self.errors {
            let _ = writeln!(s, "  not imported: {e}");
        }
        for o in &self.outcomes {
            if let PatternOutcome::NotImported { name, line, reason } = o {
                let _ = writeln!(
                    s,
                    "  not imported: {}:{line}: pattern {name}: {reason}",
                    self.file
                );
            }
        }
        for d in &self.directives {
            let _ = writeln!(
                s,
                "  directive carried as a comment: {} {} (line {})",
                d.name, d.value, d.line
            );
        }
        if self.actions_carried > 0 {
            let _ = writeln!(
                s,
                "  actions carried as `attr gnugo_action`: {}",
                self.actions_carried
            );
        }
        if !self.globals.is_empty() {
            let _ = writeln!(
                s,
                "  globals ({}): {}",
                self.globals.len(),
                self.globals.join(" ")
            );
        }
        if !self.externs.is_empty() {
            let names: Vec<String> = self
                .externs
                .iter()
                .map(|e| format!("{}/{}", e.name, e.params.len()))
                .collect();
            let _ = writeln!(s, "  externs ({}): {}", self.externs.len(), names.join(" "));
        }
        s
    }
}
