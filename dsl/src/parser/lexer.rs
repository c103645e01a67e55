//! The lexer (logos). Independent of the parser generator: it yields `(start, Tok, end)` triples
//! and keeps comments aside (trivia for the formatter).
//!
//! A `diagram { ... }` block is lexed as ONE token: diagram symbols (`.`, `?`, `|`, `-`, `+`, ...)
//! would clash with ordinary tokens, and rows are source lines, which ordinary tokens forget.

use crate::ast::Comment;
use logos::{Lexer, Logos};

/// Why a piece of text is not a token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LexError {
    #[default]
    InvalidChar,
    /// `diagram` not followed by `{`.
    DiagramWithoutBrace,
    /// `diagram {` without the closing `}`.
    UnclosedDiagram,
    UnterminatedString,
    BadNumber,
}

impl LexError {
    pub fn message(&self) -> &'static str {
        match self {
            LexError::InvalidChar => "unexpected character",
            LexError::DiagramWithoutBrace => "`diagram` must be followed by `{`",
            LexError::UnclosedDiagram => "unclosed diagram: no `}` before the end of the file",
            LexError::UnterminatedString => "unterminated string literal",
            LexError::BadNumber => "number out of range",
        }
    }
}

#[derive(Logos, Clone, Copy, Debug, PartialEq)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Tok<'src> {
    #[regex(r"//[^\n]*", allow_greedy = true)]
    Comment(&'src str),

    /// The whole `diagram { ... }` block, braces included.
    #[token("diagram", lex_diagram)]
    Diagram(&'src str),

    // Hard keywords (item and statement starters, state words).
    #[token("include")]
    Include,
    #[token("global")]
    Global,
    #[token("extern")]
    Extern,
    #[token("cost")]
    Cost,
    #[token("class")]
    Class,
    #[token("mode")]
    Mode,
    #[token("focus")]
    Focus,
    #[token("field")]
    Field,
    #[token("orient")]
    Orient,
    #[token("default")]
    Default,
    #[token("pattern")]
    Pattern,
    #[token("priority")]
    Priority,
    #[token("symmetry")]
    Symmetry,
    #[token("orientations")]
    Orientations,
    #[token("legend")]
    Legend,
    #[token("where")]
    Where,
    #[token("reject")]
    Reject,
    #[token("value")]
    Value,
    #[token("bits")]
    Bits,
    #[token("seq")]
    Seq,
    #[token("sequence")]
    Sequence,
    #[token("pass")]
    Pass,
    #[token("tenuki")]
    Tenuki,
    #[token("attr")]
    Attr,
    #[token("glob")]
    Glob,
    #[token("header")]
    Header,
    #[token("lens")]
    Lens,
    #[token("joseki")]
    Joseki,
    #[token("friend")]
    Friend,
    #[token("foe")]
    Foe,
    #[token("empty")]
    Empty,
    #[token("off")]
    Off,
    #[token("any")]
    Any,
    #[token("stone")]
    Stone,
    #[token("anything")]
    Anything,
    #[token("true")]
    True,
    #[token("false")]
    False,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'src str),
    /// Decimal or `0x` hexadecimal.
    #[regex(r"[0-9]+", lex_dec)]
    #[regex(r"0x[0-9A-Fa-f]+", lex_hex)]
    Int(u64),
    #[regex(r"[0-9]+\.[0-9]+")]
    Float(&'src str),
    /// `5x5`: a field size.
    #[regex(r"[1-9][0-9]*x[0-9]+", lex_size)]
    Size((u8, u8)),
    /// A string literal with its quotes; escapes `\"` and `\\`.
    #[token("\"", lex_string)]
    Str(&'src str),

    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("=")]
    Assign,
    #[token("=>")]
    Arrow,
    #[token("*")]
    Star,
    #[token("|")]
    Pipe,
    #[token("||")]
    OrOr,
    #[token("&&")]
    AndAnd,
    #[token("!")]
    Bang,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("/")]
    Slash,
    #[token("\\")]
    Backslash,
    /// Other single characters, usable only as legend symbols.
    #[regex(r"[#@$%^~&?.'\[\]]", |lex| lex.slice().chars().next())]
    Sym(char),
}

fn lex_dec<'s>(lex: &mut Lexer<'s, Tok<'s>>) -> Result<u64, LexError> {
    lex.slice().parse().map_err(|_| LexError::BadNumber)
}

fn lex_hex<'s>(lex: &mut Lexer<'s, Tok<'s>>) -> Result<u64, LexError> {
    u64::from_str_radix(&lex.slice()[2..], 16).map_err(|_| LexError::BadNumber)
}

fn lex_size<'s>(lex: &mut Lexer<'s, Tok<'s>>) -> Result<(u8, u8), LexError> {
    let (w, h) = lex.slice().split_once('x').ok_or(LexError::BadNumber)?;
    Ok((
        w.parse().map_err(|_| LexError::BadNumber)?,
        h.parse().map_err(|_| LexError::BadNumber)?,
    ))
}

fn lex_string<'s>(lex: &mut Lexer<'s, Tok<'s>>) -> Result<&'s str, LexError> {
    let rest = lex.remainder();
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        match c {
            '\n' => break,
            '\\' if !escaped => escaped = true,
            '"' if !escaped => {
                lex.bump(i + 1);
                return Ok(lex.slice());
            }
            _ => escaped = false,
        }
    }
    let line_len = rest.find('\n').unwrap_or(rest.len());
    lex.bump(line_len);
    Err(LexError::UnterminatedString)
}

fn lex_diagram<'s>(lex: &mut Lexer<'s, Tok<'s>>) -> Result<&'s str, LexError> {
    let rest = lex.remainder();
    let ws = rest.len() - rest.trim_start().len();
    if !rest[ws..].starts_with('{') {
        return Err(LexError::DiagramWithoutBrace);
    }
    // Find the closing brace, ignoring `//` comments inside the block. Bytes, not chars: the
    // three markers are ASCII and never occur inside a multi-byte UTF-8 sequence.
    let body = &rest.as_bytes()[ws + 1..];
    let mut i = 0;
    while let Some(k) = body[i..].iter().position(|&b| b == b'}' || b == b'/') {
        i += k;
        if body[i] == b'}' {
            lex.bump(ws + 1 + i + 1);
            return Ok(lex.slice());
        }
        if body.get(i + 1) == Some(&b'/') {
            // A comment: skip to the end of its line.
            match body[i..].iter().position(|&b| b == b'\n') {
                Some(nl) => i += nl + 1,
                None => break,
            }
        } else {
            i += 1;
        }
    }
    lex.bump(rest.len());
    Err(LexError::UnclosedDiagram)
}

/// A lexer error with its byte range.
#[derive(Clone, Debug, PartialEq)]
pub struct SpannedLexError {
    pub error: LexError,
    pub start: usize,
    pub end: usize,
}

/// The token stream the parser pulls from: comments and lexical errors are set aside (trivia
/// for the formatter, diagnostics), so the parser sees only tokens. Streaming (rather than
/// collecting a token vector first) keeps large files out of fresh memory.
pub struct Tokens<'s> {
    lex: logos::Lexer<'s, Tok<'s>>,
    pub comments: Vec<Comment>,
    pub errors: Vec<SpannedLexError>,
}

impl<'s> Tokens<'s> {
    pub fn new(text: &'s str) -> Self {
        Tokens {
            lex: Tok::lexer(text),
            comments: Vec::new(),
            errors: Vec::new(),
        }
    }
}

impl<'s> Iterator for Tokens<'s> {
    type Item = Result<Triple<'s>, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let t = self.lex.next()?;
            let span = self.lex.span();
            match t {
                Ok(Tok::Comment(c)) => {
                    let text = c.trim_end();
                    self.comments.push(Comment {
                        text: text.to_string(),
                        span: crate::ast::Span::new(span.start, span.start + text.len()),
                    });
                }
                Ok(tok) => return Some(Ok((span.start, tok, span.end))),
                Err(error) => {
                    // Merge runs of invalid characters into one error.
                    if let Some(last) = self.errors.last_mut() {
                        if last.error == LexError::InvalidChar
                            && error == LexError::InvalidChar
                            && last.end == span.start
                        {
                            last.end = span.end;
                            continue;
                        }
                    }
                    self.errors.push(SpannedLexError {
                        error,
                        start: span.start,
                        end: span.end,
                    })
                }
            }
        }
    }
}

/// Words the lexer turns into keyword tokens, never identifiers (a test keeps this list and the
/// `#[token]`s below in step).
pub const KEYWORDS: &[&str] = &[
    "diagram",
    "include",
    "global",
    "extern",
    "cost",
    "class",
    "mode",
    "focus",
    "field",
    "orient",
    "default",
    "pattern",
    "priority",
    "symmetry",
    "orientations",
    "legend",
    "where",
    "reject",
    "value",
    "bits",
    "seq",
    "sequence",
    "pass",
    "tenuki",
    "attr",
    "glob",
    "header",
    "lens",
    "joseki",
    "friend",
    "foe",
    "empty",
    "off",
    "any",
    "stone",
    "anything",
    "true",
    "false",
];

/// Identifiers with a meaning in some positions: argument kinds (`extern f(point, color)`,
/// `: int`), match modes (`mode best`) and orientation policies (`orient up`).
pub const CONTEXT_WORDS: &[&str] = &[
    "point", "int", "color", "colour", "best", "all", "first", "up", "identity",
];

/// A token with its byte range, as the parser takes it: `(start, token, end)`.
pub type Triple<'s> = (usize, Tok<'s>, usize);

/// Lexes a whole file: tokens for the parser, comments for the formatter, errors for diagnostics.
/// Erroneous text is dropped from the token stream, so the parser still sees everything else.
pub fn tokenize(text: &str) -> (Vec<Triple<'_>>, Vec<Comment>, Vec<SpannedLexError>) {
    let mut stream = Tokens::new(text);
    let tokens = stream.by_ref().flatten().collect();
    (tokens, stream.comments, stream.errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_token_skips_braces_in_comments_and_reports_unclosed() {
        let src = "diagram { O // } not the end\n * } ;";
        let (toks, _, errs) = tokenize(src);
        assert!(errs.is_empty());
        assert_eq!(toks[0].1, Tok::Diagram(&src[..src.len() - 2]));
        assert_eq!(toks[1].1, Tok::Semi);

        let (_, _, errs) = tokenize("diagram { O / }");
        assert!(errs.is_empty(), "a single slash is a cell");
        let (_, _, errs) = tokenize("diagram { O // }");
        assert_eq!(errs[0].error, LexError::UnclosedDiagram);
        let (_, _, errs) = tokenize("diagram O");
        assert_eq!(errs[0].error, LexError::DiagramWithoutBrace);
    }

    #[test]
    fn keyword_list_matches_the_token_attributes() {
        let source = include_str!("lexer.rs");
        let mut declared: Vec<&str> = source
            .split("#[token(\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter(|w| w.bytes().all(|b| b.is_ascii_lowercase()) && !w.is_empty())
            .collect();
        declared.sort_unstable();
        let mut listed = KEYWORDS.to_vec();
        listed.sort_unstable();
        assert_eq!(declared, listed);
        for w in KEYWORDS {
            let text = format!("{w} {{ }}");
            let (toks, _, _) = tokenize(&text);
            assert!(
                !matches!(toks[0].1, Tok::Ident(_)),
                "{w} lexes as an identifier"
            );
        }
        for w in CONTEXT_WORDS {
            let (toks, _, _) = tokenize(w);
            assert_eq!(
                toks[0].1,
                Tok::Ident(w),
                "{w} is a context word, not a keyword"
            );
        }
    }
}
