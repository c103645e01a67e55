//! Helpers called from the grammar's actions: literal conversions with range checks, keyword
//! words that are not reserved (`best`, `up`, `urgent`, ...), point classification, raw diagram
//! splitting and syntax-error diagnostics. Nothing here depends on lalrpop except [`recovery`].

use crate::ast::*;
use crate::diagnostics::Diagnostic;
use crate::parser::lexer::{LexError, Tok};
use crate::source::FileId;
use lalrpop_util::{ErrorRecovery, ParseError};

pub const SYNTAX: &str = "lens::syntax";
pub const UNEXPECTED_EOF: &str = "lens::unexpected_eof";
pub const BAD_LITERAL: &str = "lens::bad_literal";
pub const UNKNOWN_WORD: &str = "lens::unknown_keyword";
pub const NOT_A_POINT: &str = "lens::not_a_point";

/// The items of a list that survived error recovery (`None` marks a reported error), unboxed.
/// One exact allocation: `flatten` hides the length, so `collect` would grow step by step.
pub fn unboxed<T>(v: Vec<Option<Box<T>>>) -> Vec<T> {
    let mut out = Vec::with_capacity(v.len());
    out.extend(v.into_iter().flatten().map(|b| *b));
    out
}

/// As [`unboxed`], for items stored inline.
pub fn present<T>(v: Vec<Option<T>>) -> Vec<T> {
    let mut out = Vec::with_capacity(v.len());
    out.extend(v.into_iter().flatten());
    out
}

pub fn unescape(quoted: &str) -> String {
    let inner = &quoted[1..quoted.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(c) => out.push(c),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

pub fn u32(file: FileId, diags: &mut Vec<Diagnostic>, n: u64, span: Span) -> Spanned<u32> {
    let v = u32::try_from(n).unwrap_or_else(|_| {
        diags.push(Diagnostic::error(
            BAD_LITERAL,
            "number too large",
            file,
            span,
            "does not fit in 32 bits",
        ));
        0
    });
    Spanned::new(v, span)
}

pub fn i32(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    neg: bool,
    n: u64,
    span: Span,
) -> Spanned<i32> {
    let v = i64::try_from(n)
        .ok()
        .map(|v| if neg { -v } else { v })
        .and_then(|v| i32::try_from(v).ok());
    let v = v.unwrap_or_else(|| {
        diags.push(Diagnostic::error(
            BAD_LITERAL,
            "number out of range",
            file,
            span,
            "must fit in a signed 32-bit integer",
        ));
        0
    });
    Spanned::new(v, span)
}

pub fn int_expr(file: FileId, diags: &mut Vec<Diagnostic>, n: u64, span: Span) -> Expr {
    let v = i64::try_from(n).unwrap_or_else(|_| {
        diags.push(Diagnostic::error(
            BAD_LITERAL,
            "number out of range",
            file,
            span,
            "must fit in a signed 64-bit integer",
        ));
        0
    });
    Expr::Int(Spanned::new(v, span))
}

pub fn attr_int(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    neg: bool,
    n: u64,
    span: Span,
) -> Spanned<AttrValue> {
    let v = i64::try_from(n).unwrap_or_else(|_| {
        diags.push(Diagnostic::error(
            BAD_LITERAL,
            "number out of range",
            file,
            span,
            "must fit in a signed 64-bit integer",
        ));
        0
    });
    Spanned::new(AttrValue::Int(if neg { -v } else { v }), span)
}

fn unknown_word(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    what: &str,
    word: &str,
    allowed: &str,
    span: Span,
) {
    diags.push(
        Diagnostic::error(
            UNKNOWN_WORD,
            format!("unknown {what} `{word}`"),
            file,
            span,
            format!("not a {what}"),
        )
        .with_help(crate::diagnostics::with_suggestion(
            word,
            allowed.split(", "),
            format!("expected one of: {allowed}"),
        )),
    );
}

pub fn arg_kind(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    w: &str,
    span: Span,
) -> Spanned<ArgKind> {
    let k = match w {
        "point" => ArgKind::Point,
        "int" => ArgKind::Int,
        "color" | "colour" => ArgKind::Color,
        _ => {
            unknown_word(file, diags, "argument kind", w, "point, int, color", span);
            ArgKind::Point
        }
    };
    Spanned::new(k, span)
}

/// The result of an `extern`: only `int` is written (a condition is the default).
pub fn extern_result(file: FileId, diags: &mut Vec<Diagnostic>, w: &str, span: Span) {
    if w != "int" {
        unknown_word(file, diags, "extern result", w, "int", span);
    }
}

pub fn mode(file: FileId, diags: &mut Vec<Diagnostic>, w: &str, span: Span) -> Spanned<MatchMode> {
    let m = match w {
        "best" => MatchMode::Best,
        "all" => MatchMode::All,
        "first" => MatchMode::First,
        _ => {
            unknown_word(file, diags, "match mode", w, "best, all, first", span);
            MatchMode::Best
        }
    };
    Spanned::new(m, span)
}

pub fn orient(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    w: &str,
    span: Span,
) -> Spanned<OrientPolicy> {
    let o = match w {
        "all" => OrientPolicy::All,
        "up" => OrientPolicy::Up,
        "identity" => OrientPolicy::Identity,
        _ => {
            unknown_word(
                file,
                diags,
                "orientation policy",
                w,
                "all, up, identity",
                span,
            );
            OrientPolicy::All
        }
    };
    Spanned::new(o, span)
}

pub fn symmetry_int(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    n: u64,
    span: Span,
) -> Spanned<Symmetry> {
    if n != 8 {
        unknown_word(
            file,
            diags,
            "symmetry",
            &n.to_string(),
            "8, |, -, \\, /, +, X, O, full",
            span,
        );
    }
    Spanned::new(Symmetry::None, span)
}

pub fn symmetry_word(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    w: &str,
    span: Span,
) -> Spanned<Symmetry> {
    let s = match w {
        "X" => Symmetry::DiagonalCross,
        "O" => Symmetry::Rotation180,
        "full" => Symmetry::Full,
        _ => {
            unknown_word(
                file,
                diags,
                "symmetry",
                w,
                "8, |, -, \\, /, +, X, O, full",
                span,
            );
            Symmetry::None
        }
    };
    Spanned::new(s, span)
}

pub fn joseki_kind(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    w: &str,
    span: Span,
) -> Spanned<JosekiMoveType> {
    let k = match w {
        "urgent" => JosekiMoveType::Urgent,
        "normal" => JosekiMoveType::Normal,
        "complex" => JosekiMoveType::Complex,
        "trick" => JosekiMoveType::Trick,
        "bad" => JosekiMoveType::Bad,
        "ignore" => JosekiMoveType::Ignore,
        _ => {
            unknown_word(
                file,
                diags,
                "joseki move type",
                w,
                "urgent, normal, complex, trick, bad, ignore",
                span,
            );
            JosekiMoveType::Normal
        }
    };
    Spanned::new(k, span)
}

pub fn orientations(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    ns: Vec<Spanned<u64>>,
    span: Span,
) -> Spanned<Vec<u8>> {
    let mut out = Vec::with_capacity(ns.len());
    for n in ns {
        if n.node > 7 {
            diags.push(Diagnostic::error(
                BAD_LITERAL,
                "orientation out of range",
                file,
                n.span,
                "orientations are 0..=7",
            ));
        } else {
            out.push(n.node as u8);
        }
    }
    Spanned::new(out, span)
}

pub fn legend_ident(
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    w: &str,
    span: Span,
) -> Spanned<char> {
    let mut chars = w.chars();
    let c = chars.next().unwrap_or('?');
    if chars.next().is_some() {
        diags.push(Diagnostic::error(
            SYNTAX,
            format!("legend symbol `{w}` is longer than one character"),
            file,
            span,
            "a legend defines one diagram symbol",
        ));
    }
    Spanned::new(c, Span::new(span.start, span.start + c.len_utf8()))
}

/// `a`..`z` + digits: a lens frame coordinate (`d4`: col 4, row 4, both 1-based).
pub fn coord(w: &str) -> Option<PointRef> {
    let b = w.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit) {
        let row: u32 = w[1..].parse().ok()?;
        if (1..=255).contains(&row) {
            return Some(PointRef::Coord {
                col: b[0] - b'a' + 1,
                row: row as u8,
            });
        }
    }
    None
}

/// A single character is a label; a letter + digits a coordinate.
pub fn point_of(w: &str) -> Option<PointRef> {
    let mut chars = w.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(PointRef::Label(c)),
        _ => coord(w),
    }
}

pub fn point(file: FileId, diags: &mut Vec<Diagnostic>, w: &str, span: Span) -> Spanned<PointRef> {
    let p = point_of(w).unwrap_or_else(|| {
        diags.push(
            Diagnostic::error(NOT_A_POINT, format!("`{w}` is not a point"), file, span, "expected a point")
                .with_help("a point is `*` (the focus), a one-letter diagram label, or a lens coordinate such as `d4`"),
        );
        PointRef::Focus
    });
    Spanned::new(p, span)
}

/// An identifier in an expression: a point if it looks like one, else a name.
pub fn ident_expr(w: &str, span: Span) -> Expr {
    match point_of(w) {
        Some(p) => Expr::Point(Spanned::new(p, span)),
        None => Expr::Name(Spanned::new(w.to_string(), span)),
    }
}

pub fn binary(lhs: Expr, op: Spanned<BinOp>, rhs: Expr) -> Expr {
    let span = lhs.span().join(rhs.span());
    Expr::Binary {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        span,
    }
}

pub fn unary(op: Spanned<UnOp>, e: Expr) -> Expr {
    let span = op.span.join(e.span());
    Expr::Unary {
        op,
        expr: Box::new(e),
        span,
    }
}

/// Splits the raw `diagram { ... }` token (starting at byte `start`) into rows: one per source
/// line that holds cells or a comment; cells are the non-whitespace characters before `//`.
///
/// Runs once per pattern on every load, so it works on bytes: rows and cells are counted before
/// their vectors are allocated (one exact allocation each), and only non-ASCII cells take the
/// `char` path.
pub fn diagram(raw: &str, start: usize) -> Diagram {
    let bytes = raw.as_bytes();
    let open = bytes
        .iter()
        .position(|&b| b == b'{')
        .unwrap_or(raw.len().saturating_sub(1));
    let close = raw.len() - 1; // the lexer guarantees the closing `}`
    let body = &raw[open + 1..close.max(open + 1)];
    let body_start = start + open + 1;
    let line_count = body.bytes().filter(|&b| b == b'\n').count() + 1;
    let mut rows = Vec::with_capacity(line_count);
    let mut line_start = 0;
    for line in body.split('\n') {
        let base = body_start + line_start;
        line_start += line.len() + 1;
        let comment_at = comment_start(line.as_bytes());
        let (cells_part, comment) = match comment_at {
            Some(i) => (&line[..i], Some((i, line[i..].trim_end()))),
            None => (line, None),
        };
        let cells = row_cells(cells_part, base);
        if cells.is_empty() && comment.is_none() {
            continue;
        }
        let first = cells
            .first()
            .map(|c| c.span.start)
            .or(comment.map(|(i, _)| base + i))
            .unwrap_or(base);
        let last = match comment {
            Some((i, text)) => base + i + text.len(),
            None => cells.last().map(|c| c.span.end).unwrap_or(base),
        };
        rows.push(DiagramRow {
            cells,
            comment: comment.map(|(_, t)| t.to_string()),
            span: Span::new(first, last),
        });
    }
    Diagram {
        rows,
        span: Span::new(start, start + raw.len()),
    }
}

/// Where a `//` comment starts in a line, if anywhere.
fn comment_start(line: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(k) = line[i..].iter().position(|&b| b == b'/') {
        i += k;
        if line.get(i + 1) == Some(&b'/') {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// `char::is_whitespace` restricted to ASCII (it includes the vertical tab, unlike
/// `u8::is_ascii_whitespace`).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The non-whitespace characters of one diagram line (before any comment), with their spans.
fn row_cells(part: &str, base: usize) -> Vec<Spanned<char>> {
    let pb = part.as_bytes();
    if pb.is_ascii() {
        // ASCII (the usual case): whitespace is one byte, every other byte is a cell.
        let n = pb.iter().filter(|&&b| !is_space(b)).count();
        let mut cells = Vec::with_capacity(n);
        for (i, &b) in pb.iter().enumerate() {
            if !is_space(b) {
                cells.push(Spanned::new(b as char, Span::new(base + i, base + i + 1)));
            }
        }
        return cells;
    }
    part.char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| Spanned::new(c, Span::new(base + i, base + i + c.len_utf8())))
        .collect()
}

pub fn describe(tok: &Tok<'_>) -> String {
    match tok {
        Tok::Diagram(_) => "a diagram".into(),
        Tok::Ident(s) => format!("identifier `{s}`"),
        Tok::Int(n) => format!("number `{n}`"),
        Tok::Float(f) => format!("number `{f}`"),
        Tok::Size((w, h)) => format!("size `{w}x{h}`"),
        Tok::Str(s) => format!("string {s}"),
        Tok::Sym(c) => format!("`{c}`"),
        Tok::Comment(_) => "a comment".into(),
        other => format!("`{}`", keyword_text(other)),
    }
}

fn keyword_text(tok: &Tok<'_>) -> &'static str {
    use Tok::*;
    match tok {
        Include => "include",
        Global => "global",
        Extern => "extern",
        Cost => "cost",
        Class => "class",
        Mode => "mode",
        Focus => "focus",
        Field => "field",
        Orient => "orient",
        Default => "default",
        Pattern => "pattern",
        Priority => "priority",
        Symmetry => "symmetry",
        Orientations => "orientations",
        Legend => "legend",
        Where => "where",
        Reject => "reject",
        Value => "value",
        Bits => "bits",
        Seq => "seq",
        Sequence => "sequence",
        Pass => "pass",
        Tenuki => "tenuki",
        Attr => "attr",
        Glob => "glob",
        Header => "header",
        Lens => "lens",
        Joseki => "joseki",
        Friend => "friend",
        Foe => "foe",
        Empty => "empty",
        Off => "off",
        Any => "any",
        Stone => "stone",
        Anything => "anything",
        True => "true",
        False => "false",
        LBrace => "{",
        RBrace => "}",
        LParen => "(",
        RParen => ")",
        Semi => ";",
        Comma => ",",
        Colon => ":",
        Assign => "=",
        Arrow => "=>",
        Star => "*",
        Pipe => "|",
        OrOr => "||",
        AndAnd => "&&",
        Bang => "!",
        EqEq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Plus => "+",
        Minus => "-",
        Slash => "/",
        Backslash => "\\",
        Diagram(_) | Ident(_) | Int(_) | Float(_) | Size(_) | Str(_) | Sym(_) | Comment(_) => "?",
    }
}

fn expected_list(expected: &[String]) -> Option<String> {
    if expected.is_empty() {
        return None;
    }
    let names: Vec<String> = expected
        .iter()
        .map(|e| {
            let e = e.trim_matches('"');
            match e {
                "ident" => "identifier".to_string(),
                "int" => "number".to_string(),
                "float" => "number".to_string(),
                "size" => "size (e.g. `5x5`)".to_string(),
                "string" => "string".to_string(),
                "sym" => "symbol".to_string(),
                "diagram" => "`diagram`".to_string(),
                "\\\\" => "`\\`".to_string(),
                other => format!("`{other}`"),
            }
        })
        .collect();
    let mut names: Vec<String> = names.into_iter().fold(Vec::new(), |mut v, n| {
        if !v.contains(&n) {
            v.push(n);
        }
        v
    });
    const MAX: usize = 10;
    let more = names.len().saturating_sub(MAX);
    names.truncate(MAX);
    let mut s = format!("expected {}", names.join(", "));
    if more > 0 {
        s.push_str(&format!(" (or {more} more)"));
    }
    Some(s)
}

/// A parse error as a diagnostic; `eof` is the file length (for errors at the end).
pub fn parse_error(
    file: FileId,
    e: ParseError<usize, Tok<'_>, LexError>,
    eof: usize,
) -> Diagnostic {
    match e {
        ParseError::InvalidToken { location } => Diagnostic::error(
            SYNTAX,
            "invalid token",
            file,
            Span::new(location, location + 1),
            "here",
        ),
        ParseError::UnrecognizedEof { location, expected } => {
            let loc = location.min(eof);
            let d = Diagnostic::error(
                UNEXPECTED_EOF,
                "unexpected end of file",
                file,
                Span::new(loc, loc),
                "the file ends here",
            );
            match expected_list(&expected) {
                Some(h) => d.with_help(h),
                None => d,
            }
        }
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => {
            let d = Diagnostic::error(
                SYNTAX,
                format!("unexpected {}", describe(&tok)),
                file,
                Span::new(l, r),
                "unexpected here",
            );
            let help = expected_list(&expected);
            // A misspelt keyword (`priorty`) lexes as an identifier where a keyword was due.
            let keywords = expected
                .iter()
                .map(|e| e.trim_matches('"'))
                .filter(|e| e.len() > 1 && e.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
            let suggestion = match tok {
                Tok::Ident(word) => crate::diagnostics::did_you_mean(word, keywords),
                _ => None,
            };
            match (suggestion, help) {
                (Some(k), Some(h)) => d.with_help(format!("did you mean `{k}`? {h}")),
                (Some(k), None) => d.with_help(format!("did you mean `{k}`?")),
                (None, Some(h)) => d.with_help(h),
                (None, None) => d,
            }
        }
        ParseError::ExtraToken { token: (l, tok, r) } => Diagnostic::error(
            SYNTAX,
            format!("unexpected {}", describe(&tok)),
            file,
            Span::new(l, r),
            "extra token",
        ),
        ParseError::User { error } => {
            Diagnostic::error(SYNTAX, error.message(), file, Span::new(0, 0), "here")
        }
    }
}

pub fn recovery(file: FileId, e: ErrorRecovery<usize, Tok<'_>, LexError>) -> Diagnostic {
    // `usize::MAX` marks "unknown" so callers patch EOF positions; the parser knows the length.
    parse_error(file, e.error, usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(d: &Diagram) -> Vec<Vec<(char, usize, usize)>> {
        d.rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|c| (c.node, c.span.start, c.span.end))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn diagram_rows_cells_spans_and_comments() {
        // Byte offsets: the token starts at 10; the body after `{` at 20.
        let raw = "diagram {\n O.* // top\n\x0bX \u{00B7}a\n\n // only a comment\n}";
        let d = diagram(raw, 10);
        assert_eq!(d.span, Span::new(10, 10 + raw.len()));
        assert_eq!(
            cells(&d),
            vec![
                vec![('O', 21, 22), ('.', 22, 23), ('*', 23, 24)],
                // The vertical tab is whitespace (as `char::is_whitespace` says); `·` is two bytes.
                vec![('X', 33, 34), ('\u{00B7}', 35, 37), ('a', 37, 38)],
                vec![],
            ]
        );
        assert_eq!(d.rows[0].comment.as_deref(), Some("// top"));
        assert_eq!(d.rows[0].span, Span::new(21, 31));
        assert_eq!(d.rows[2].comment.as_deref(), Some("// only a comment"));
        assert_eq!(d.rows[1].comment, None);
    }

    #[test]
    fn single_slashes_are_cells_not_comments() {
        let d = diagram("diagram {\n / * /\n}", 0);
        assert_eq!(
            cells(&d),
            vec![vec![('/', 11, 12), ('*', 13, 14), ('/', 15, 16)]]
        );
        assert_eq!(d.rows[0].comment, None);
    }
}
