//! Reading sources and following `include`s into a [`Program`].
//!
//! Order is deterministic: the roots in the order given (a directory = its `*.lens` files, sorted,
//! recursively), each followed by the first occurrences of the files it includes (depth first).
//! A file reached twice is loaded once; an include that leads back to a file still being loaded is
//! a cycle; both cycles and missing files are diagnostics at the `include`.

use crate::ast::{Item, Span};
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::FileId;
use crate::{Program, parse};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const MISSING_FILE: &str = "lens::missing_file";
pub const MISSING_INCLUDE: &str = "lens::missing_include";
pub const INCLUDE_CYCLE: &str = "lens::include_cycle";

struct Loader {
    program: Program,
    diags: Vec<Diagnostic>,
    /// Canonical path -> file id, for every file loaded or being loaded.
    seen: BTreeMap<PathBuf, FileId>,
    /// Canonical paths of the files on the current include chain.
    stack: Vec<PathBuf>,
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// A diagnostic about a file as a whole (no source span to show).
fn file_error(code: &'static str, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        code,
        message,
        labels: Vec::new(),
        help: None,
    }
}

impl Loader {
    fn new() -> Self {
        Loader {
            program: Program::default(),
            diags: Vec::new(),
            seen: BTreeMap::new(),
            stack: Vec::new(),
        }
    }

    /// Parses `text` as file `name` and follows its includes relative to `dir`.
    fn add_text(&mut self, name: String, text: String, dir: &Path, key: Option<PathBuf>) {
        let id = self.program.sources.add(name, text);
        if let Some(k) = &key {
            self.seen.insert(k.clone(), id);
            self.stack.push(k.clone());
        }
        let (ast, diags) = parse(id, &self.program.sources.get(id).text);
        self.diags.extend(diags);
        let includes: Vec<(String, Span)> = ast
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Include(inc) => Some((inc.path.node.clone(), inc.path.span)),
                _ => None,
            })
            .collect();
        self.program.files.push((id, ast));
        for (path, span) in includes {
            self.include(id, dir, &path, span);
        }
        if key.is_some() {
            self.stack.pop();
        }
    }

    fn include(&mut self, from: FileId, dir: &Path, path: &str, span: Span) {
        let full = dir.join(path);
        let key = canonical(&full);
        if let Some(pos) = self.stack.iter().position(|k| *k == key) {
            let chain: Vec<String> = self.stack[pos..]
                .iter()
                .map(|k| {
                    k.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                })
                .chain(std::iter::once(
                    key.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                ))
                .collect();
            self.diags.push(
                Diagnostic::error(INCLUDE_CYCLE, format!("include cycle: {}", chain.join(" -> ")), from, span, "this include closes the cycle")
                    .with_help("an included file must not include (directly or indirectly) a file that includes it"),
            );
            return;
        }
        if self.seen.contains_key(&key) {
            return;
        }
        match std::fs::read_to_string(&full) {
            Ok(text) => {
                let sub_dir = full.parent().map(Path::to_path_buf).unwrap_or_default();
                self.add_text(full.display().to_string(), text, &sub_dir, Some(key));
            }
            Err(e) => self.diags.push(
                Diagnostic::error(
                    MISSING_INCLUDE,
                    format!("cannot read included file `{}`: {e}", full.display()),
                    from,
                    span,
                    "included here",
                )
                .with_help("include paths are relative to the including file"),
            ),
        }
    }

    fn add_path(&mut self, path: &Path) {
        if path.is_dir() {
            let mut files = Vec::new();
            collect_lens_files(path, &mut files);
            if files.is_empty() {
                self.diags.push(file_error(
                    MISSING_FILE,
                    format!("no `.lens` files in directory `{}`", path.display()),
                ));
            }
            for f in files {
                self.add_file(&f);
            }
        } else {
            self.add_file(path);
        }
    }

    fn add_file(&mut self, path: &Path) {
        let key = canonical(path);
        if self.seen.contains_key(&key) {
            return;
        }
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                self.add_text(path.display().to_string(), text, &dir, Some(key));
            }
            Err(e) => self.diags.push(file_error(
                MISSING_FILE,
                format!("cannot read `{}`: {e}", path.display()),
            )),
        }
    }
}

/// All `*.lens` files under `dir`, sorted by path, recursively.
pub fn collect_lens_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_lens_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "lens") {
            out.push(p);
        }
    }
}

/// Loads files and directories (a directory = all `*.lens` in it, sorted, recursive), following
/// includes. Syntax errors, missing files and include cycles are returned as diagnostics.
pub fn load_paths(paths: &[PathBuf]) -> (Program, Vec<Diagnostic>) {
    let mut l = Loader::new();
    for p in paths {
        l.add_path(p);
    }
    (l.program, l.diags)
}

/// Loads one source given as text (e.g. stdin); its includes are resolved relative to the
/// current directory.
pub fn load_str(name: &str, text: &str) -> (Program, Vec<Diagnostic>) {
    let mut l = Loader::new();
    l.add_text(name.to_string(), text.to_string(), Path::new(""), None);
    (l.program, l.diags)
}
