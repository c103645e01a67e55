//! Diagnostics with spans, shared by the front end and the compiler. Rendering (human with
//! miette, JSON one object per line) happens only at the edges (CLI, build scripts).

use crate::ast::Span;
use crate::source::FileId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One labelled place in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable machine code, e.g. `lens::ragged_diagram`.
    pub code: &'static str,
    pub message: String,
    /// The primary label first.
    pub labels: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        file: FileId,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: vec![Label {
                file,
                span,
                message: label.into(),
            }],
            help: None,
        }
    }
    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        file: FileId,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(code, message, file, span, label)
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn with_label(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            file,
            span,
            message: message.into(),
        });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The closest of `candidates` to a misspelt `word` (`priorty` -> `priority`), if one is close
/// enough to be worth suggesting: an edit distance (transpositions count once) of at most a
/// third of the word's length, and at least 1.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|&(d, _)| d <= limit)
        // Ties resolve to the first candidate in sorted order, so the message is deterministic.
        .min_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(b.1)))
        .map(|(_, c)| c)
}

/// `help` with `did you mean `X`?` in front when `word` is close to a candidate.
pub fn with_suggestion<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    help: String,
) -> String {
    match did_you_mean(word, candidates) {
        Some(c) => format!("did you mean `{c}`? {help}"),
        None => help,
    }
}

#[cfg(test)]
mod suggestion_tests {
    use super::did_you_mean;

    #[test]
    fn suggests_close_words_only() {
        let kw = ["priority", "diagram", "where", "symmetry"];
        assert_eq!(did_you_mean("priorty", kw), Some("priority"));
        assert_eq!(did_you_mean("digaram", kw), Some("diagram"));
        assert_eq!(
            did_you_mean("libz", ["libs", "line", "atari"]),
            Some("libs")
        );
        assert_eq!(did_you_mean("shpe", ["shape", "connect"]), Some("shape"));
        assert_eq!(did_you_mean("banana", kw), None);
        assert_eq!(
            did_you_mean("where", kw),
            None,
            "an exact word is not a suggestion"
        );
    }
}
