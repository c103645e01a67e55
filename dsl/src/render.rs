//! Rendering diagnostics: human text through miette's graphical handler (one source snippet per
//! file, labels in other files as related notes) and JSON, one object per diagnostic.

use crate::diagnostics::{Diagnostic, Severity};
use crate::source::{FileId, SourceMap};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use std::fmt;
use std::sync::Arc;

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let offset = (0..=offset)
        .rev()
        .find(|&o| text.is_char_boundary(o))
        .unwrap_or(0);
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, text[line_start..offset].chars().count() + 1)
}

struct Adapter {
    message: String,
    code: &'static str,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<NamedSource<Arc<str>>>,
    labels: Vec<LabeledSpan>,
    related: Vec<Adapter>,
}

impl fmt::Debug for Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl fmt::Display for Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for Adapter {}

impl miette::Diagnostic for Adapter {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.code.is_empty() {
            None
        } else {
            Some(Box::new(self.code))
        }
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

fn clamp_span(text: &str, s: crate::ast::Span) -> miette::SourceSpan {
    let start = s.start.min(text.len());
    let end = s.end.clamp(start, text.len());
    (start, end - start).into()
}

fn adapter(sources: &SourceMap, texts: &[Arc<str>], d: &Diagnostic) -> Adapter {
    let primary_file: Option<FileId> = d.labels.first().map(|l| l.file);
    let mut labels = Vec::new();
    let mut related = Vec::new();
    for (i, l) in d.labels.iter().enumerate() {
        let Some(text) = texts.get(l.file as usize) else {
            continue;
        };
        let span = clamp_span(text, l.span);
        let msg = if l.message.is_empty() {
            None
        } else {
            Some(l.message.clone())
        };
        if Some(l.file) == primary_file {
            labels.push(if i == 0 {
                LabeledSpan::new_primary_with_span(msg, span)
            } else {
                LabeledSpan::new_with_span(msg, span)
            });
        } else {
            related.push(Adapter {
                message: if l.message.is_empty() {
                    "related location".into()
                } else {
                    l.message.clone()
                },
                code: "",
                severity: miette::Severity::Advice,
                help: None,
                source: Some(NamedSource::new(
                    sources.get(l.file).name.clone(),
                    texts[l.file as usize].clone(),
                )),
                labels: vec![LabeledSpan::new_primary_with_span(None, span)],
                related: Vec::new(),
            });
        }
    }
    let source = primary_file
        .filter(|f| (*f as usize) < texts.len())
        .map(|f| NamedSource::new(sources.get(f).name.clone(), texts[f as usize].clone()));
    Adapter {
        message: d.message.clone(),
        code: d.code,
        severity: match d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        },
        help: d.help.clone(),
        source,
        labels,
        related,
    }
}

/// Renders diagnostics as human text (miette's graphical report, one per diagnostic, each naming
/// its file). `color = false` gives plain text (tests, `NO_COLOR`, pipes).
pub fn render_human(sources: &SourceMap, diags: &[Diagnostic], color: bool) -> String {
    let texts: Vec<Arc<str>> = sources
        .files
        .iter()
        .map(|f| Arc::from(f.text.as_str()))
        .collect();
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false);
    let mut out = String::new();
    for d in diags {
        let a = adapter(sources, &texts, d);
        if handler.render_report(&mut out, &a).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, d.message));
        }
    }
    out
}

/// One diagnostic as a single-line JSON object (no trailing newline):
/// `{"severity","code","message","file","line","column","labels":[{"file","start","end","line","column","message"}],"help"}`.
pub fn render_json(sources: &SourceMap, d: &Diagnostic) -> String {
    let label_json = |l: &crate::diagnostics::Label| {
        let f = sources.files.get(l.file as usize);
        let (line, column) = f.map(|f| line_col(&f.text, l.span.start)).unwrap_or((0, 0));
        serde_json::json!({
            "file": f.map(|f| f.name.as_str()),
            "start": l.span.start,
            "end": l.span.end,
            "line": line,
            "column": column,
            "message": l.message,
        })
    };
    let primary = d.labels.first().map(label_json);
    let v = serde_json::json!({
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "code": d.code,
        "message": d.message,
        "file": primary.as_ref().and_then(|p| p["file"].as_str().map(str::to_string)),
        "line": primary.as_ref().map(|p| p["line"].clone()),
        "column": primary.as_ref().map(|p| p["column"].clone()),
        "labels": d.labels.iter().map(label_json).collect::<Vec<_>>(),
        "help": d.help,
    });
    v.to_string()
}
