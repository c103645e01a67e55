//! GNU Go constraint expressions (`;` lines): the C subset the databases use, parsed into a
//! small AST so that autohelper calls can be mapped onto Lens built-ins or `extern` predicates.
//!
//! Grammar (C precedence): `?:` < `||` < `&&` < `== !=` < `< <= > >=` < `+ -` < unary `! -` <
//! primary (number, name, label, `*`, call, parenthesis). `?` as a call argument is GNU Go's
//! tenuki (a pass in a move sequence).

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum CExpr {
    /// A number as written (`2`, `0.7`).
    Num(String),
    /// A name that is not a call (a C constant such as `WIN`).
    Name(String),
    /// A one-letter label, or `*` (the move).
    Label(char),
    /// `?` as a call argument: tenuki.
    Tenuki,
    Call(String, Vec<CExpr>),
    Not(Box<CExpr>),
    Neg(Box<CExpr>),
    Bin(&'static str, Box<CExpr>, Box<CExpr>),
    Ternary(Box<CExpr>, Box<CExpr>, Box<CExpr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CParseError {
    /// Byte offset into the constraint text.
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for CParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.offset + 1, self.message)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(String),
    Ident(String),
    Op(&'static str),
}

const OPS: [&str; 17] = [
    "&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "+", "-", "(", ")", ",", "?", ":", "*",
];

fn lex(text: &str) -> Result<Vec<(usize, Tok)>, CParseError> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() || (c == '.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            out.push((start, Tok::Num(text[start..i].to_string())));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Ident(text[start..i].to_string())));
            continue;
        }
        if c == ';' && text[i + 1..].trim().is_empty() {
            // A trailing `;` closes the C statement.
            break;
        }
        match OPS.iter().find(|op| text[i..].starts_with(*op)) {
            Some(op) => {
                out.push((start, Tok::Op(op)));
                i += op.len();
            }
            None => {
                return Err(CParseError {
                    offset: i,
                    message: format!("unexpected character `{c}`"),
                });
            }
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.1)
    }
    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.0)
    }
    fn err<T>(&self, message: impl Into<String>) -> Result<T, CParseError> {
        Err(CParseError {
            offset: self.offset(),
            message: message.into(),
        })
    }
    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(&Tok::Op(op_static(op))) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, op: &str) -> Result<(), CParseError> {
        if self.eat(op) {
            Ok(())
        } else {
            self.err(format!("expected `{op}`"))
        }
    }

    fn ternary(&mut self) -> Result<CExpr, CParseError> {
        let c = self.binary(0)?;
        if self.eat("?") {
            let a = self.ternary()?;
            self.expect(":")?;
            let b = self.ternary()?;
            return Ok(CExpr::Ternary(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    fn binary(&mut self, level: usize) -> Result<CExpr, CParseError> {
        const LEVELS: [&[&str]; 5] = [
            &["||"],
            &["&&"],
            &["==", "!="],
            &["<", "<=", ">", ">="],
            &["+", "-"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op(op)) if LEVELS[level].contains(op) => *op,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.binary(level + 1)?;
            lhs = CExpr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn unary(&mut self) -> Result<CExpr, CParseError> {
        if self.eat("!") {
            return Ok(CExpr::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            return Ok(CExpr::Neg(Box::new(self.unary()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<CExpr, CParseError> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(CExpr::Num(n))
            }
            Some(Tok::Op("*")) => {
                self.pos += 1;
                Ok(CExpr::Label('*'))
            }
            Some(Tok::Op("(")) => {
                self.pos += 1;
                let e = self.ternary()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            let tenuki = self.peek() == Some(&Tok::Op("?"))
                                && matches!(
                                    self.toks.get(self.pos + 1).map(|t| &t.1),
                                    Some(Tok::Op(",")) | Some(Tok::Op(")"))
                                );
                            if tenuki {
                                self.pos += 1;
                                args.push(CExpr::Tenuki);
                            } else {
                                args.push(self.ternary()?);
                            }
                            if self.eat(")") {
                                break;
                            }
                            self.expect(",")?;
                        }
                    }
                    return Ok(CExpr::Call(name, args));
                }
                let mut cs = name.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) if c.is_ascii_alphabetic() => Ok(CExpr::Label(c)),
                    _ => Ok(CExpr::Name(name)),
                }
            }
            Some(t) => self.err(format!("unexpected `{}`", tok_text(&t))),
            None => self.err("unexpected end of the constraint"),
        }
    }
}

fn op_static(op: &str) -> &'static str {
    OPS.iter().find(|o| **o == op).copied().unwrap_or("")
}

fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Num(s) | Tok::Ident(s) => s.clone(),
        Tok::Op(o) => o.to_string(),
    }
}

/// Parse one constraint (all `;` lines of a pattern joined).
pub fn parse(text: &str) -> Result<CExpr, CParseError> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        end: text.len(),
    };
    let e = p.ternary()?;
    if p.pos != p.toks.len() {
        return p.err("unexpected text after the expression");
    }
    Ok(e)
}

/// The same expression with every `?:` moved out of arithmetic and comparisons
/// (`(c ? a : b) + x > 1` is `c ? a + x > 1 : b + x > 1`), so that a `?:` only ever stands where
/// a condition is expected: Lens has conditions over numbers but no conditional number.
pub fn hoist_ternaries(e: CExpr) -> CExpr {
    use CExpr::*;
    match e {
        Bin(op, l, r) => {
            let (l, r) = (hoist_ternaries(*l), hoist_ternaries(*r));
            if op == "&&" || op == "||" {
                return Bin(op, Box::new(l), Box::new(r));
            }
            match (l, r) {
                (Ternary(c, a, b), r) => hoist_ternaries(Ternary(
                    c,
                    Box::new(Bin(op, a, Box::new(r.clone()))),
                    Box::new(Bin(op, b, Box::new(r))),
                )),
                (l, Ternary(c, a, b)) => hoist_ternaries(Ternary(
                    c,
                    Box::new(Bin(op, Box::new(l.clone()), a)),
                    Box::new(Bin(op, Box::new(l), b)),
                )),
                (l, r) => Bin(op, Box::new(l), Box::new(r)),
            }
        }
        Neg(x) => match hoist_ternaries(*x) {
            Ternary(c, a, b) => Ternary(c, Box::new(Neg(a)), Box::new(Neg(b))),
            x => Neg(Box::new(x)),
        },
        Not(x) => Not(Box::new(hoist_ternaries(*x))),
        Ternary(c, a, b) => Ternary(
            Box::new(hoist_ternaries(*c)),
            Box::new(hoist_ternaries(*a)),
            Box::new(hoist_ternaries(*b)),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_calls() {
        let e = parse("lib(a)>1 && !attack(b) || x").unwrap();
        let CExpr::Bin("||", l, r) = e else {
            panic!("{e:?}")
        };
        assert_eq!(*r, CExpr::Label('x'));
        let CExpr::Bin("&&", ll, lr) = *l else {
            panic!()
        };
        assert_eq!(
            *ll,
            CExpr::Bin(
                ">",
                Box::new(CExpr::Call("lib".into(), vec![CExpr::Label('a')])),
                Box::new(CExpr::Num("1".into()))
            )
        );
        assert_eq!(
            *lr,
            CExpr::Not(Box::new(CExpr::Call(
                "attack".into(),
                vec![CExpr::Label('b')]
            )))
        );
    }

    #[test]
    fn tenuki_ternary_and_star() {
        let e = parse("oplay_attack(*,?,a) ? xlib(*) : b").unwrap();
        let CExpr::Ternary(c, _, _) = e else { panic!() };
        assert_eq!(
            *c,
            CExpr::Call(
                "oplay_attack".into(),
                vec![CExpr::Label('*'), CExpr::Tenuki, CExpr::Label('a')]
            )
        );
        assert_eq!(
            parse("xplay_attack(*,A)<WIN").unwrap(),
            CExpr::Bin(
                "<",
                Box::new(CExpr::Call(
                    "xplay_attack".into(),
                    vec![CExpr::Label('*'), CExpr::Label('A')]
                )),
                Box::new(CExpr::Name("WIN".into()))
            )
        );
    }

    #[test]
    fn errors_have_offsets() {
        let e = parse("lib(a) > ").unwrap_err();
        assert_eq!(e.offset, 9);
        let e = parse("lib(a) $ 2").unwrap_err();
        assert_eq!(e.offset, 7);
        assert!(parse("if (a) b").is_err());
        assert!(parse("(((").is_err());
    }
}
