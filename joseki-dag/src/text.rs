//! The text source format for hand-written joseki: the body syntax of the `.lens` language's
//! `joseki NAME { ... }` blocks, so a block's body can be handed over as it stands.
//!
//! ```text
//! d4 ( c6:urgent f3 | e3:trick tenuki )
//! ```
//! * moves are corner-frame coordinates (`a1` is the corner point; column letter, row number),
//!   colours alternate from black (the corner's first mover); `tenuki` or `pass` passes;
//! * `:TYPE` sets the type (`urgent normal complex trick bad ignore`, plus `minor` and
//!   `tenuki-ok`); `:repeat` gives the move the colour of the previous one (the other side
//!   played elsewhere without a recorded tenuki); `:reverse` sets Fotland's colour-reverse flag;
//! * `( A | B | ... )` branches; moves written after a branch continue every alternative;
//! * `setup(x:c3 o:d4 e:e5)` adds setup stones (`x` the first mover's colour, `o` the other,
//!   `e` removes a stone); the walker never enters lines below a setup;
//! * `#` starts a comment that runs to the end of the line.

use crate::model::{Move, MoveType, Point, Rel, SetupStone, Step, Tree};
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("offset {offset}: {reason}")]
pub struct TextError {
    pub offset: usize,
    pub reason: String,
}

#[derive(Debug, Clone)]
enum Node {
    Move {
        point: Point,
        kind: MoveType,
        repeat: bool,
        reverse: bool,
    },
    Setup(Vec<SetupStone>),
    Branch(Vec<Vec<Node>>),
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn err<T>(&self, at: usize, reason: impl Into<String>) -> Result<T, TextError> {
        Err(TextError {
            offset: at,
            reason: reason.into(),
        })
    }

    fn skip_ws(&mut self) {
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b'#' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn word(&mut self) -> (usize, &str) {
        let start = self.pos;
        while self.pos < self.src.len()
            && (self.src[self.pos].is_ascii_alphanumeric() || self.src[self.pos] == b'-')
        {
            self.pos += 1;
        }
        (
            start,
            std::str::from_utf8(&self.src[start..self.pos]).unwrap_or(""),
        )
    }

    fn seq(&mut self, depth: usize) -> Result<Vec<Node>, TextError> {
        if depth > 1000 {
            return self.err(self.pos, "branches nested more than 1000 deep");
        }
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            let Some(&c) = self.src.get(self.pos) else {
                return Ok(out);
            };
            match c {
                b'(' => {
                    let open = self.pos;
                    self.pos += 1;
                    let mut alts = vec![self.seq(depth + 1)?];
                    loop {
                        self.skip_ws();
                        match self.src.get(self.pos) {
                            Some(b'|') => {
                                self.pos += 1;
                                alts.push(self.seq(depth + 1)?);
                            }
                            Some(b')') => {
                                self.pos += 1;
                                break;
                            }
                            _ => return self.err(open, "unclosed `(`"),
                        }
                    }
                    out.push(Node::Branch(alts));
                }
                b'|' | b')' => return Ok(out),
                c if c.is_ascii_alphabetic() => out.push(self.item()?),
                _ => return self.err(self.pos, format!("unexpected character `{}`", c as char)),
            }
        }
    }

    fn item(&mut self) -> Result<Node, TextError> {
        let (start, w) = self.word();
        let w = w.to_string();
        if w == "setup" {
            return self.setup(start);
        }
        let point = if w == "tenuki" || w == "pass" {
            Point::Pass
        } else {
            self.coord(start, &w)?
        };
        let (mut kind, mut repeat, mut reverse) = (MoveType::Normal, false, false);
        while self.src.get(self.pos) == Some(&b':') {
            self.pos += 1;
            let (at, a) = self.word();
            let a = a.to_string();
            match a.as_str() {
                "repeat" => repeat = true,
                "reverse" => reverse = true,
                _ => match MoveType::from_name(&a) {
                    Some(t) => kind = t,
                    None => return self.err(at, format!("unknown annotation `{a}`")),
                },
            }
        }
        Ok(Node::Move {
            point,
            kind,
            repeat,
            reverse,
        })
    }

    fn coord(&self, at: usize, w: &str) -> Result<Point, TextError> {
        let b = w.as_bytes();
        let ok = b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit);
        let x = b[0].wrapping_sub(b'a') as u32 + 1;
        let y: u32 = if ok { w[1..].parse().unwrap_or(0) } else { 0 };
        if !ok || !(1..=25).contains(&x) || !(1..=25).contains(&y) {
            return self.err(
                at,
                format!("`{w}` is not a move (a corner-frame point like `d4`, `tenuki` or `pass`)"),
            );
        }
        Ok(Point::at(x as u8, y as u8))
    }

    fn setup(&mut self, start: usize) -> Result<Node, TextError> {
        self.skip_ws();
        if self.src.get(self.pos) != Some(&b'(') {
            return self.err(start, "`setup` needs `(x:c3 o:d4 ...)`");
        }
        self.pos += 1;
        let mut stones = Vec::new();
        loop {
            self.skip_ws();
            match self.src.get(self.pos) {
                Some(b')') => {
                    self.pos += 1;
                    break;
                }
                None => return self.err(start, "unclosed `setup(`"),
                _ => {}
            }
            let (at, c) = self.word();
            let colour = match c {
                "x" => Some(Rel::Same),
                "o" => Some(Rel::Opposite),
                "e" => None,
                _ => return self.err(at, "a setup stone is `x:POINT`, `o:POINT` or `e:POINT`"),
            };
            if self.src.get(self.pos) != Some(&b':') {
                return self.err(self.pos, "expected `:` after the setup colour");
            }
            self.pos += 1;
            let (pat, p) = self.word();
            let p = p.to_string();
            match self.coord(pat, &p)? {
                Point::At { x, y } => stones.push(SetupStone { x, y, colour }),
                Point::Pass => return self.err(pat, "a setup stone needs a point"),
            }
        }
        Ok(Node::Setup(stones))
    }
}

/// Parse a joseki body into a new tree (transpositions merged).
pub fn parse_text(text: &str) -> Result<Tree, TextError> {
    let mut tree = Tree::new();
    parse_text_into(&mut tree, text)?;
    tree.canonicalize();
    Ok(tree)
}

/// Parse a joseki body and add its lines to `tree`.
pub fn parse_text_into(tree: &mut Tree, text: &str) -> Result<(), TextError> {
    let mut p = Parser {
        src: text.as_bytes(),
        pos: 0,
    };
    let nodes = p.seq(0)?;
    p.skip_ws();
    if p.pos < p.src.len() {
        return p.err(p.pos, format!("unexpected `{}`", p.src[p.pos] as char));
    }
    let root = tree.root_cursor();
    let mut work: Vec<(crate::model::Cursor, Vec<&Node>)> =
        vec![(root, nodes.iter().rev().collect())];
    // Iterative expansion: each work item is a cursor and the remaining nodes (reversed).
    while let Some((mut cur, mut rest)) = work.pop() {
        while let Some(n) = rest.pop() {
            match n {
                Node::Move {
                    point,
                    kind,
                    repeat,
                    reverse,
                } => {
                    let colour = if *repeat {
                        cur.last_colour()
                    } else {
                        cur.last_colour().flip()
                    };
                    let mut m = Move::new(*point, colour).with_kind(*kind);
                    m.colour_reverse = *reverse;
                    cur = tree.step(&cur, Step::Move(m));
                }
                Node::Setup(s) => cur = tree.step(&cur, Step::Setup(s.clone())),
                Node::Branch(alts) => {
                    for alt in alts.iter().rev() {
                        let mut r = rest.clone();
                        r.extend(alt.iter().rev());
                        work.push((cur.clone(), r));
                    }
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Parse a single line (no branches, no setup): `(is_black, point)` per move, black first.
pub fn parse_line(text: &str) -> Result<Vec<(bool, Point)>, TextError> {
    let mut p = Parser {
        src: text.as_bytes(),
        pos: 0,
    };
    let nodes = p.seq(0)?;
    p.skip_ws();
    if p.pos < p.src.len() {
        return p.err(p.pos, format!("unexpected `{}`", p.src[p.pos] as char));
    }
    let mut black = false; // the colour of the previous move (none yet: white "moved")
    let mut out = Vec::new();
    for n in nodes {
        match n {
            Node::Move { point, repeat, .. } => {
                if !repeat {
                    black = !black;
                }
                out.push((black, point));
            }
            _ => return p.err(0, "a move list has no branches or setups"),
        }
    }
    Ok(out)
}

/// Print a tree in the text format (transposed continuations are printed under every order).
pub fn to_text(tree: &Tree) -> String {
    let mut out = String::new();
    // Explicit stack (vertex, colour of the last move, next edge, branching), no recursion.
    let mut stack: Vec<(u32, Rel, usize, bool)> = Vec::new();
    open(tree, 0, Rel::Opposite, &mut out, &mut stack);
    while let Some(top) = stack.last_mut() {
        let (v, last, i, branch) = *top;
        let edges = &tree.vertex(v).edges;
        if i >= edges.len() {
            stack.pop();
            if branch {
                out.push_str(" )");
            }
            continue;
        }
        top.2 += 1;
        if i > 0 {
            out.push_str(" | ");
        } else if !branch && !out.is_empty() {
            out.push(' ');
        }
        let e = &edges[i];
        let next_last = write_step(&e.step, last, &mut out);
        open(tree, e.to, next_last, &mut out, &mut stack);
    }
    out.push('\n');
    out
}

/// A line from the empty corner to vertex `v` (the first found breadth first), in the text
/// format without types: to name a vertex in messages (`Tree::type_conflicts`).
pub fn line_to(tree: &Tree, v: u32) -> Option<String> {
    let n = tree.vertices().len();
    let mut parent: Vec<Option<(u32, usize)>> = vec![None; n];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut queue = std::collections::VecDeque::from([0u32]);
    while let Some(u) = queue.pop_front() {
        if u == v {
            break;
        }
        for (k, e) in tree.vertex(u).edges.iter().enumerate() {
            if !std::mem::replace(&mut seen[e.to as usize], true) {
                parent[e.to as usize] = Some((u, k));
                queue.push_back(e.to);
            }
        }
    }
    if !*seen.get(v as usize)? {
        return None;
    }
    let mut steps = Vec::new();
    let mut at = v;
    while let Some((u, k)) = parent[at as usize] {
        steps.push(&tree.vertex(u).edges[k].step);
        at = u;
    }
    let mut out = String::new();
    let mut last = Rel::Opposite;
    for (i, step) in steps.into_iter().rev().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        last = match step {
            Step::Move(m) => {
                out.push_str(&point_name(m.point));
                if m.colour == last {
                    out.push_str(":repeat");
                }
                m.colour
            }
            other => write_step(other, last, &mut out),
        };
    }
    Some(out)
}

fn open(
    tree: &Tree,
    v: u32,
    last: Rel,
    out: &mut String,
    stack: &mut Vec<(u32, Rel, usize, bool)>,
) {
    let branch = tree.vertex(v).edges.len() > 1;
    if branch {
        out.push_str(if out.is_empty() { "( " } else { " ( " });
    }
    stack.push((v, last, 0, branch));
}

/// A corner-frame point as the text format writes it (`c6`, `tenuki`).
pub fn point_name(p: Point) -> String {
    match p {
        Point::Pass => "tenuki".into(),
        Point::At { x, y } => format!("{}{}", (b'a' + x - 1) as char, y),
    }
}

/// Write one step; returns the colour of the last move after it.
fn write_step(step: &Step, last: Rel, out: &mut String) -> Rel {
    match step {
        Step::Move(m) => {
            out.push_str(&point_name(m.point));
            if m.kind != MoveType::Normal {
                let _ = write!(out, ":{}", m.kind.name());
            }
            if m.colour == last {
                out.push_str(":repeat");
            }
            if m.colour_reverse {
                out.push_str(":reverse");
            }
            m.colour
        }
        Step::Setup(stones) => {
            out.push_str("setup(");
            for (k, s) in stones.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                let c = match s.colour {
                    Some(Rel::Same) => 'x',
                    Some(Rel::Opposite) => 'o',
                    None => 'e',
                };
                let _ = write!(out, "{c}:{}", point_name(Point::at(s.x, s.y)));
            }
            out.push(')');
            last
        }
    }
}
