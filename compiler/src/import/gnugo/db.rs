//! The mkpat `.db` format: a line-oriented parser that follows mkpat's own state machine
//! (`patterns/mkpat.c`, `main`): `Pattern NAME` lines, a main diagram ending at a blank or `#`
//! line, the mandatory colon line, an optional constraint diagram, `;` constraint lines and `>`
//! action lines; directives (`attribute_map`, `goal_elements`, `callback_data`) between patterns.
//!
//! Errors name the file and line and never abort the whole file: a broken pattern is skipped
//! and reported, the rest is kept.

use std::collections::BTreeMap;
use std::fmt;

/// A parse error: `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbError {
    pub file: String,
    /// 1-based line number.
    pub line: u32,
    /// The pattern the error belongs to, if any.
    pub pattern: Option<String>,
    pub message: String,
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(p) = &self.pattern {
            write!(f, "pattern {p}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for DbError {}

/// A directive line (`attribute_map general`, `goal_elements none`, `callback_data XOxo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub line: u32,
    pub name: String,
    pub value: String,
}

/// One parsed `.db` file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Database {
    /// The file name as given (used in errors and the report).
    pub file: String,
    pub directives: Vec<Directive>,
    pub patterns: Vec<DbPattern>,
}

/// Which sides of a diagram are drawn as board edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DbEdges {
    pub north: bool,
    pub south: bool,
    pub west: bool,
    pub east: bool,
}

/// A main diagram: the body cells (edge rows and columns removed) and the edges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DbDiagram {
    /// Body rows, each `width` cells, as written (`.XOxo,!*?QY`).
    pub rows: Vec<Vec<char>>,
    /// The text after the cells of each body row (GNU Go's row comments), trimmed.
    pub row_comments: Vec<Option<String>>,
    pub edges: DbEdges,
    /// Line of the first diagram row.
    pub line: u32,
}

impl DbDiagram {
    pub fn height(&self) -> usize {
        self.rows.len()
    }
    pub fn width(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }
    /// The cell at (row, col) of the body.
    pub fn cell(&self, row: usize, col: usize) -> char {
        self.rows[row][col]
    }
}

/// The colon line `:<symmetry>,<classes>[,name(value)...][,helper]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ColonLine {
    pub line: u32,
    pub symmetry: char,
    /// Class letters as written (`-` is a placeholder and kept).
    pub classes: String,
    /// `name(value)` attributes in order; values are kept as written (numbers or labels).
    pub attributes: Vec<(String, String)>,
    /// A hand-written C helper (`None` for `NULL` or absent).
    pub helper: Option<String>,
}

/// One pattern block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DbPattern {
    pub name: String,
    /// Line of the `Pattern` line.
    pub line: u32,
    /// `#` comment lines inside the block and text after the name, in order (without `#`).
    pub comments: Vec<String>,
    pub diagram: DbDiagram,
    pub colon: ColonLine,
    /// Labels of the constraint diagram: label -> (row, col) of the body, first occurrence
    /// (as mkpat's `label_coords`).
    pub labels: BTreeMap<char, (usize, usize)>,
    /// Concatenated `;` lines (without the `;`), with the line of the first one.
    pub constraint: Option<(u32, String)>,
    /// Concatenated `>` lines (without the `>`), with the line of the first one.
    pub action: Option<(u32, String)>,
}

impl DbPattern {
    /// Position (row, col) of the `*` cell, if any.
    pub fn move_cell(&self) -> Option<(usize, usize)> {
        self.cells()
            .find(|&(_, _, c)| c == '*')
            .map(|(r, c, _)| (r, c))
    }
    /// Every body cell as (row, col, symbol) in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize, char)> + '_ {
        self.diagram
            .rows
            .iter()
            .enumerate()
            .flat_map(|(r, row)| row.iter().enumerate().map(move |(c, &ch)| (r, c, ch)))
    }
}

/// A Lens identifier for a file stem (`patterns2.db` -> `patterns2`).
pub fn stem_ident(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.strip_suffix(".db").unwrap_or(base);
    let mut s: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "db_");
    }
    s
}

/// Symbols allowed in a main diagram body (mkpat's `VALID_PATTERN_CHARS` without the obsolete `a`).
const BODY_CHARS: &str = ".XOxo,!*?QY";
/// mkpat's `VALID_PATTERN_CHARS` (a diagram row stops at the first other character).
const MKPAT_PATTERN_CHARS: &str = ".XOxo,a!*?QY";
const EDGE_CHARS: &str = "+-|";
/// mkpat's `VALID_CONSTRAINT_LABELS`: any letter except `oxOXQY`.
pub const LABEL_CHARS: &str = "abcdefghijklmnpqrstuvwyzABCDEFGHIJKLMNPRSTUVWZ";

pub fn is_label(c: char) -> bool {
    LABEL_CHARS.contains(c)
}

const DIRECTIVES: [&str; 3] = ["attribute_map", "goal_elements", "callback_data"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Before the first pattern or after a finished one, waiting for `Pattern`.
    Outside,
    /// After the `Pattern` line, before the first diagram row.
    BeforeDiagram,
    /// Reading the main diagram.
    Diagram,
    /// Diagram ended, waiting for the colon line.
    BeforeColon,
    /// After the colon line: optional constraint diagram, `;` and `>` lines.
    AfterColon,
    /// Reading the constraint diagram.
    ConstraintDiagram,
    /// Constraint diagram ended (or `;`/`>` seen): only `;`/`>` lines now.
    Lines,
}

struct Raw {
    line: u32,
    text: String,
}

struct Builder {
    pat: DbPattern,
    main_rows: Vec<Raw>,
    constraint_rows: Vec<Raw>,
    colon: Option<Raw>,
    constraint: Option<(u32, String)>,
    action: Option<(u32, String)>,
}

/// Parse one `.db` file. Returns the patterns that parsed and every error (one per broken
/// pattern or line); a broken pattern is left out of the database.
pub fn parse_db(file: &str, text: &str) -> (Database, Vec<DbError>) {
    let mut db = Database {
        file: file.to_string(),
        ..Default::default()
    };
    let mut errors = Vec::new();
    let mut state = State::Outside;
    let mut cur: Option<Builder> = None;

    let err = |line: u32, pattern: Option<&str>, message: String| DbError {
        file: file.to_string(),
        line,
        pattern: pattern.map(str::to_string),
        message,
    };

    for (idx, raw_line) in text.lines().enumerate() {
        let line_no = idx as u32 + 1;
        let line = raw_line.trim_end();
        let first = line.chars().next();
        let words: Vec<&str> = line.split_whitespace().collect();

        // Commands: `Pattern NAME` and the directives (recognised in any state, as mkpat does).
        let command = words
            .first()
            .copied()
            .filter(|w| *w == "Pattern" || DIRECTIVES.contains(w));
        if let (Some(cmd), Some(arg)) = (command, words.get(1)) {
            if let Some(b) = cur.take() {
                finish(b, state, &mut db, &mut errors, file);
            }
            state = State::Outside;
            if cmd == "Pattern" {
                let rest = line.split_once("Pattern").map_or("", |x| x.1).trim();
                let after_name = rest[arg.len()..].trim();
                let mut pat = DbPattern {
                    name: arg.to_string(),
                    line: line_no,
                    ..Default::default()
                };
                if !after_name.is_empty() {
                    pat.comments.push(after_name.to_string());
                }
                cur = Some(Builder {
                    pat,
                    main_rows: Vec::new(),
                    constraint_rows: Vec::new(),
                    colon: None,
                    constraint: None,
                    action: None,
                });
                state = State::BeforeDiagram;
            } else {
                let value = words[1..].join(" ");
                db.directives.push(Directive {
                    line: line_no,
                    name: cmd.to_string(),
                    value,
                });
            }
            continue;
        }

        let pname = cur.as_ref().map(|b| b.pat.name.clone());
        match first {
            None | Some('#') => {
                if let (Some('#'), Some(b)) = (first, cur.as_mut()) {
                    b.pat.comments.push(line[1..].trim().to_string());
                }
                state = match state {
                    State::Diagram => State::BeforeColon,
                    State::ConstraintDiagram => State::Lines,
                    s => s,
                };
            }
            Some(c) if MKPAT_PATTERN_CHARS.contains(c) || EDGE_CHARS.contains(c) || is_label(c) => {
                match (state, cur.as_mut()) {
                    (State::BeforeDiagram | State::Diagram, Some(b)) => {
                        b.main_rows.push(Raw {
                            line: line_no,
                            text: line.to_string(),
                        });
                        state = State::Diagram;
                    }
                    (State::AfterColon | State::ConstraintDiagram, Some(b)) => {
                        b.constraint_rows.push(Raw {
                            line: line_no,
                            text: line.to_string(),
                        });
                        state = State::ConstraintDiagram;
                    }
                    _ => {
                        errors.push(err(
                            line_no,
                            pname.as_deref(),
                            "a diagram row is not expected here".into(),
                        ));
                    }
                }
            }
            Some(':') => match (state, cur.as_mut()) {
                (State::Diagram | State::BeforeColon, Some(b)) => {
                    b.colon = Some(Raw {
                        line: line_no,
                        text: line.to_string(),
                    });
                    state = State::AfterColon;
                }
                _ => errors.push(err(
                    line_no,
                    pname.as_deref(),
                    "unexpected colon line".into(),
                )),
            },
            Some(';') | Some('>') => {
                let ok = matches!(
                    state,
                    State::AfterColon | State::ConstraintDiagram | State::Lines
                );
                match (ok, cur.as_mut()) {
                    (true, Some(b)) => {
                        let slot = if first == Some(';') {
                            &mut b.constraint
                        } else {
                            &mut b.action
                        };
                        let body = &line[1..];
                        match slot {
                            Some((_, s)) => {
                                s.push(' ');
                                s.push_str(body.trim());
                            }
                            None => *slot = Some((line_no, body.trim().to_string())),
                        }
                        state = State::Lines;
                    }
                    _ => {
                        let what = if first == Some(';') {
                            "constraint"
                        } else {
                            "action"
                        };
                        errors.push(err(
                            line_no,
                            pname.as_deref(),
                            format!("unexpected {what} line"),
                        ));
                    }
                }
            }
            Some(_) => {
                errors.push(err(
                    line_no,
                    pname.as_deref(),
                    format!("malformed line `{line}`"),
                ));
            }
        }
    }
    if let Some(b) = cur.take() {
        finish(b, state, &mut db, &mut errors, file);
    }
    (db, errors)
}

/// Close a pattern block: build the diagram, the colon line and the labels, or report why not.
fn finish(b: Builder, state: State, db: &mut Database, errors: &mut Vec<DbError>, file: &str) {
    let Builder {
        mut pat,
        main_rows,
        constraint_rows,
        colon,
        constraint,
        action,
    } = b;
    let e = |line: u32, message: String| DbError {
        file: file.to_string(),
        line,
        pattern: Some(pat.name.clone()),
        message,
    };
    if state == State::BeforeDiagram {
        errors.push(e(pat.line, "empty pattern (no diagram)".into()));
        return;
    }
    let Some(colon) = colon else {
        errors.push(e(pat.line, "no colon line (`:symmetry,classes`)".into()));
        return;
    };
    let diagram = match parse_main_diagram(&main_rows) {
        Ok(d) => d,
        Err((line, msg)) => {
            errors.push(e(line, msg));
            return;
        }
    };
    pat.diagram = diagram;
    let stars = pat.cells().filter(|&(_, _, c)| c == '*').count();
    if stars > 1 {
        errors.push(e(
            pat.diagram.line,
            format!("{stars} `*` cells (at most one move)"),
        ));
        return;
    }
    match parse_colon(&colon.text) {
        Ok(mut c) => {
            c.line = colon.line;
            pat.colon = c;
        }
        Err(msg) => {
            errors.push(e(colon.line, msg));
            return;
        }
    }
    if !constraint_rows.is_empty() {
        match parse_constraint_diagram(&pat.diagram, &constraint_rows) {
            Ok(labels) => pat.labels = labels,
            Err((line, msg)) => {
                errors.push(e(line, msg));
                return;
            }
        }
    }
    pat.constraint = constraint.filter(|(_, s)| !s.trim().is_empty());
    pat.action = action.filter(|(_, s)| !s.trim().is_empty());
    db.patterns.push(pat);
}

/// Split a diagram row into its cells and the trailing comment: cells run up to the first
/// character that is not a diagram symbol (mkpat stops there too).
fn split_row(text: &str, allowed: impl Fn(char) -> bool) -> (Vec<char>, Option<String>) {
    let mut cells = Vec::new();
    let mut rest = "";
    for (i, c) in text.char_indices() {
        if allowed(c) {
            cells.push(c);
        } else {
            rest = &text[i..];
            break;
        }
    }
    let comment = rest.trim();
    (cells, (!comment.is_empty()).then(|| comment.to_string()))
}

fn is_edge_row(cells: &[char]) -> bool {
    !cells.is_empty() && cells.iter().all(|&c| c == '-' || c == '+') && cells.contains(&'-')
}

fn parse_main_diagram(rows: &[Raw]) -> Result<DbDiagram, (u32, String)> {
    let allowed = |c: char| BODY_CHARS.contains(c) || EDGE_CHARS.contains(c) || c == 'a';
    let mut parsed: Vec<(u32, Vec<char>, Option<String>)> = rows
        .iter()
        .map(|r| {
            let (cells, comment) = split_row(&r.text, allowed);
            (r.line, cells, comment)
        })
        .collect();
    let mut d = DbDiagram {
        line: rows.first().map_or(0, |r| r.line),
        ..Default::default()
    };
    let mut north_row = None;
    let mut south_row = None;
    if parsed.first().is_some_and(|(_, c, _)| is_edge_row(c)) {
        d.edges.north = true;
        north_row = Some(parsed.remove(0));
    }
    if parsed.last().is_some_and(|(_, c, _)| is_edge_row(c)) {
        d.edges.south = true;
        south_row = parsed.pop();
    }
    if parsed.is_empty() {
        return Err((d.line, "the diagram has no rows between its edges".into()));
    }
    d.edges.west = parsed[0].1.first() == Some(&'|');
    d.edges.east = parsed[0].1.len() > 1 && parsed[0].1.last() == Some(&'|');
    let mut width = None;
    for (line, cells, comment) in parsed {
        let mut body: &[char] = &cells;
        if d.edges.west {
            match body.split_first() {
                Some(('|', r)) => body = r,
                _ => {
                    return Err((
                        line,
                        "every row needs the west edge `|` of the first row".into(),
                    ));
                }
            }
        }
        if d.edges.east {
            match body.split_last() {
                Some(('|', r)) => body = r,
                _ => {
                    return Err((
                        line,
                        "every row needs the east edge `|` of the first row".into(),
                    ));
                }
            }
        }
        for &c in body {
            match c {
                'a' => {
                    return Err((
                        line,
                        "`a` (obsolete half-eye marker) is not supported by mkpat either".into(),
                    ));
                }
                '|' | '-' | '+' => {
                    return Err((line, format!("edge symbol `{c}` inside the diagram body")));
                }
                _ => {}
            }
        }
        if body.is_empty() {
            return Err((line, "empty diagram row".into()));
        }
        match width {
            None => width = Some(body.len()),
            Some(w) if w != body.len() => {
                return Err((
                    line,
                    format!(
                        "not rectangular: row has {} cells, the first row {w}",
                        body.len()
                    ),
                ));
            }
            _ => {}
        }
        d.rows.push(body.to_vec());
        d.row_comments.push(comment);
    }
    let width = width.unwrap_or(0);
    let full = width + d.edges.west as usize + d.edges.east as usize;
    for edge_row in [&north_row, &south_row].into_iter().flatten() {
        let (line, cells, _) = edge_row;
        if cells.len() != full {
            return Err((
                *line,
                format!(
                    "not rectangular: edge line has {} cells, the rows {full}",
                    cells.len()
                ),
            ));
        }
        let corner_ok =
            |i: usize, edge: bool| (cells[i] == '+') == edge || !edge && cells[i] == '-';
        if !corner_ok(0, d.edges.west) || !corner_ok(full - 1, d.edges.east) {
            return Err((*line, "corner `+` does not agree with the `|` edges".into()));
        }
        if cells[1..full - 1].contains(&'+') {
            return Err((*line, "`+` inside an edge line".into()));
        }
    }
    if d.rows.len() > 19 || width > 19 {
        return Err((
            d.line,
            format!("diagram {}x{} is larger than 19x19", width, d.rows.len()),
        ));
    }
    Ok(d)
}

/// Labels of a constraint diagram, checked against the main diagram's shape.
fn parse_constraint_diagram(
    main: &DbDiagram,
    rows: &[Raw],
) -> Result<BTreeMap<char, (usize, usize)>, (u32, String)> {
    let allowed = |c: char| BODY_CHARS.contains(c) || EDGE_CHARS.contains(c) || is_label(c);
    let mut body_rows = Vec::new();
    for r in rows {
        let (cells, _) = split_row(&r.text, allowed);
        if is_edge_row(&cells) {
            continue;
        }
        let mut body: &[char] = &cells;
        if main.edges.west {
            body = body.strip_prefix(&['|']).unwrap_or(body);
        }
        if main.edges.east {
            body = body.strip_suffix(&['|']).unwrap_or(body);
        }
        body_rows.push((r.line, body.to_vec()));
    }
    if body_rows.len() != main.height() {
        let line = rows.first().map_or(0, |r| r.line);
        return Err((
            line,
            format!(
                "constraint diagram has {} rows, the diagram {}",
                body_rows.len(),
                main.height()
            ),
        ));
    }
    let mut labels = BTreeMap::new();
    for (r, (line, cells)) in body_rows.iter().enumerate() {
        if cells.len() != main.width() {
            return Err((
                *line,
                format!(
                    "constraint row has {} cells, the diagram {}",
                    cells.len(),
                    main.width()
                ),
            ));
        }
        for (c, &ch) in cells.iter().enumerate() {
            let m = main.cell(r, c);
            if "xXoO".contains(ch) && ch != m {
                return Err((*line, format!("`{ch}` does not repeat the diagram's `{m}`")));
            }
            if is_label(ch) {
                labels.entry(ch).or_insert((r, c));
            }
        }
    }
    Ok(labels)
}

/// Parse `:<sym>,<classes>[,name(value)...][,helper]`.
fn parse_colon(text: &str) -> Result<ColonLine, String> {
    let body = text.strip_prefix(':').unwrap_or(text);
    let mut fields = body.split(',');
    let sym_field = fields.next().unwrap_or("").trim();
    let mut chars = sym_field.chars();
    let symmetry = match (chars.next(), chars.next()) {
        (Some(s), None) if "8|-\\/+XO".contains(s) => s,
        _ => {
            return Err(format!(
                "symmetry `{sym_field}` is not one of 8 | - \\ / + X O"
            ));
        }
    };
    let Some(classes) = fields.next() else {
        return Err("the colon line needs a symmetry and a class field".into());
    };
    let classes = classes.trim().to_string();
    const CLASS_LETTERS: &str = "-OXoxsnBAbeEadIJjtTUWFNYCcD";
    if let Some(bad) = classes.chars().find(|c| !CLASS_LETTERS.contains(*c)) {
        return Err(format!("unknown class letter `{bad}`"));
    }
    let mut line = ColonLine {
        symmetry,
        classes,
        ..Default::default()
    };
    for f in fields {
        let f = f.trim();
        if f.is_empty() {
            continue;
        }
        if let Some(open) = f.find('(') {
            let name = f[..open].trim();
            let Some(val) = f[open + 1..].strip_suffix(')') else {
                return Err(format!("attribute `{f}` lacks its closing `)`"));
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("bad attribute name in `{f}`"));
            }
            line.attributes
                .push((name.to_string(), val.trim().to_string()));
        } else if line.helper.is_none() {
            if !f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("bad helper name `{f}`"));
            }
            if f != "NULL" {
                line.helper = Some(f.to_string());
            }
        } else {
            return Err(format!("second helper field `{f}`"));
        }
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\
attribute_map general

# a comment
Pattern EX1                name comment

?X?.?       jump under
O.*oo
o....
-----

:8,ed,value(35.5),shape(-2),NULL

?X?.?
O.*ab
o....
-----

;lib(a)>1
;&& !attack(b)
>antisuji(a)

callback_data X!

Pattern EX2

|O*
|.X
+--

:|,B,helper_fn
";

    #[test]
    fn parses_a_full_block() {
        let (db, errs) = parse_db("t.db", SAMPLE);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(db.directives.len(), 2);
        assert_eq!(db.directives[1].name, "callback_data");
        assert_eq!(db.directives[1].value, "X!");
        assert_eq!(db.patterns.len(), 2);
        let p = &db.patterns[0];
        assert_eq!(p.name, "EX1");
        assert_eq!(p.line, 4);
        assert_eq!(p.diagram.rows.len(), 3);
        assert!(p.diagram.edges.south && !p.diagram.edges.north);
        assert_eq!(p.diagram.row_comments[0].as_deref(), Some("jump under"));
        assert_eq!(p.colon.symmetry, '8');
        assert_eq!(p.colon.classes, "ed");
        assert_eq!(
            p.colon.attributes,
            vec![
                ("value".into(), "35.5".into()),
                ("shape".into(), "-2".into())
            ]
        );
        assert_eq!(p.colon.helper, None);
        assert_eq!(p.labels.get(&'a'), Some(&(1, 3)));
        assert_eq!(p.labels.get(&'b'), Some(&(1, 4)));
        assert_eq!(p.constraint.as_ref().unwrap().1, "lib(a)>1 && !attack(b)");
        assert_eq!(p.action.as_ref().unwrap().1, "antisuji(a)");
        assert_eq!(p.move_cell(), Some((1, 2)));
        let q = &db.patterns[1];
        assert!(q.diagram.edges.west && q.diagram.edges.south && !q.diagram.edges.east);
        assert_eq!(q.diagram.rows, vec![vec!['O', '*'], vec!['.', 'X']]);
        assert_eq!(q.colon.helper.as_deref(), Some("helper_fn"));
    }

    #[test]
    fn errors_name_file_line_and_keep_going() {
        let text =
            "Pattern A\n\n?X\nO*.\n\n:8,-\n\nPattern B\n\nO*\n\n:8,-\n\nPattern C\n\nO*\n\n:q,-\n";
        let (db, errs) = parse_db("bad.db", text);
        assert_eq!(db.patterns.len(), 1);
        assert_eq!(db.patterns[0].name, "B");
        assert_eq!(errs.len(), 2);
        assert_eq!(
            errs[0].to_string(),
            "bad.db:4: pattern A: not rectangular: row has 3 cells, the first row 2"
        );
        assert_eq!(errs[1].line, 18);
        assert!(errs[1].message.contains("symmetry"));
    }

    #[test]
    fn rejects_bad_constraint_diagrams_and_lines() {
        let text = "Pattern A\n\nO*X\n\n:8,-\n\naX\n\n;lib(a)>1\n";
        let (db, errs) = parse_db("c.db", text);
        assert!(db.patterns.is_empty());
        assert_eq!(errs[0].line, 7);
        let text = "; stray\n%% bar\n";
        let (_, errs) = parse_db("d.db", text);
        assert_eq!(errs.len(), 2);
        assert!(errs[0].message.contains("unexpected constraint"));
        assert!(errs[1].message.contains("malformed"));
    }

    #[test]
    fn never_panics_on_garbage() {
        for text in [
            "Pattern",
            "Pattern X\n+",
            "Pattern X\n|\n:8",
            "Pattern X\n-\n-\n:8,",
            ":\n;\n>",
            "Pattern X\nO*\n:8,-,value(",
            "Pattern Y\n|O|\n+-+\n:8,-\nab\n",
        ] {
            let _ = parse_db("g.db", text);
        }
    }
}
