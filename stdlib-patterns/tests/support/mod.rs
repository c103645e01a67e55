//! The `.cases` file format (see docs/stdlib.md): sections `pattern NAME` / `lens NAME`, each
//! with cases `match at POINTS -> RESULT` or `no-match at POINTS`, followed by board rows.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SectionKind {
    Pattern,
    Lens,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Move { at: String, value: i32 },
    Reject { at: String },
    Value { value: i32 },
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expect::Move { at, value } => write!(f, "move {at} value {value}"),
            Expect::Reject { at } => write!(f, "reject {at}"),
            Expect::Value { value } => write!(f, "value {value}"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Case {
    /// `file:line` of the case line, for messages.
    pub origin: String,
    /// The focus point (patterns) or the endpoints (lenses), GTP coordinates.
    pub points: Vec<String>,
    /// `None` for `no-match`.
    pub expect: Option<Expect>,
    /// Board rows as written (`X` black, `O` white, `.` empty).
    pub board: String,
    /// Match for Black instead of White (`as B`).
    pub as_black: bool,
}

#[derive(Clone, Debug)]
pub struct Section {
    pub kind: SectionKind,
    pub name: String,
    pub origin: String,
    pub cases: Vec<Case>,
}

/// Every `*.cases` file of a directory, sorted by name.
pub fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cases"))
        .collect();
    v.sort();
    v
}

fn parse_expect(text: &str) -> Result<Expect, String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    match w.as_slice() {
        ["move", at, "value", v] => Ok(Expect::Move {
            at: at.to_string(),
            value: v.parse().map_err(|_| format!("bad value {v:?}"))?,
        }),
        ["reject", at] => Ok(Expect::Reject { at: at.to_string() }),
        ["value", v] => Ok(Expect::Value {
            value: v.parse().map_err(|_| format!("bad value {v:?}"))?,
        }),
        _ => Err(format!("bad expected result {text:?}")),
    }
}

/// Parses one file; errors carry `file:line: reason`.
pub fn parse(file: &str, text: &str) -> Result<Vec<Section>, String> {
    let mut sections: Vec<Section> = Vec::new();
    let mut in_case = false;
    for (i, raw) in text.lines().enumerate() {
        let origin = format!("{file}:{}", i + 1);
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            in_case = false;
            continue;
        }
        let head = |kind, rest: &str| Section {
            kind,
            name: rest.trim().to_string(),
            origin: origin.clone(),
            cases: Vec::new(),
        };
        if let Some(rest) = line.strip_prefix("pattern ") {
            sections.push(head(SectionKind::Pattern, rest));
            in_case = false;
        } else if let Some(rest) = line.strip_prefix("lens ") {
            sections.push(head(SectionKind::Lens, rest));
            in_case = false;
        } else if line.starts_with("match at ") || line.starts_with("no-match at ") {
            let section = sections
                .last_mut()
                .ok_or_else(|| format!("{origin}: case before any `pattern`/`lens` line"))?;
            let positive = line.starts_with("match");
            let rest = line.split_once(" at ").map(|x| x.1).unwrap_or("");
            let (points, expect) = match rest.split_once("->") {
                Some((p, e)) if positive => (
                    p,
                    Some(parse_expect(e).map_err(|m| format!("{origin}: {m}"))?),
                ),
                None if !positive => (rest, None),
                _ => {
                    return Err(format!(
                        "{origin}: `match` needs `-> RESULT`, `no-match` must not have one"
                    ));
                }
            };
            let points: Vec<String> = points.split_whitespace().map(str::to_string).collect();
            if points.is_empty() {
                return Err(format!("{origin}: no point after `at`"));
            }
            section.cases.push(Case {
                origin,
                points,
                expect,
                board: String::new(),
                as_black: false,
            });
            in_case = true;
        } else if in_case && (line == "as B" || line == "as W") {
            let case = sections
                .last_mut()
                .and_then(|s| s.cases.last_mut())
                .expect("in a case");
            case.as_black = line == "as B";
        } else if in_case {
            let case = sections
                .last_mut()
                .and_then(|s| s.cases.last_mut())
                .expect("in a case");
            case.board.push_str(line);
            case.board.push('\n');
        } else {
            return Err(format!("{origin}: unexpected line {line:?}"));
        }
    }
    Ok(sections)
}

/// Swaps the colours of a board diagram (`X` <-> `O`).
pub fn swap_colours(board: &str) -> String {
    board
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect()
}
