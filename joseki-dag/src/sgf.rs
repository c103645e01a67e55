//! SGF import (with the `sgf-parse` crate) into the corner-frame DAG.
//!
//! * Text before the first `(;` (GNU Go's licence header) is skipped.
//! * Each line is tied to the nearest corner of its first stone; `(x, y)` is the 1-based distance
//!   from that corner's edges, whatever the distance (moves far from the corner are kept).
//! * Colours are relative to the line's first move; a colour repeat (the other side tenuki'd
//!   without a recorded pass) is kept as a move of the repeated colour; passes (`B[]`, `tt` on
//!   boards up to 19) are kept as tenuki moves.
//! * Mid-tree `AB`/`AW`/`AE` become a setup edge holding their stones (corner frame, relative
//!   colours); the lines below it stay apart from the same moves played without those stones,
//!   and the walker enters them once the stones are played.
//! * Conventions (`Conventions::Auto`) come from the form of the move comments, per file
//!   ([`detect`]): GNU Go's class comments (a first line of one class character), Pachi's
//!   first-line tags, else plain. Marks (`MA`, `SQ`) are no evidence.
//! * Types: GNU Go's class is the first character of the move's comment (`U` urgent, `J`/`S`
//!   normal, `j`/`s` minor, `T` trick, `t` tenuki-ok, `0`/`a`/`A` bad); Pachi's first-line tags
//!   `<bad>` bad, `<don't>`/`<avoid>` ignore, `<tenuki>` tenuki-ok (`<later>`, `<3x3>` are hints
//!   for Pachi's own engine and leave the move normal); plain dictionaries carry no types.
//!   Markup (`MA`, `SQ`, `LB`, ...) and comment-only nodes are transparent.
//!
//! Errors carry a byte offset into the text; a structural pre-scan finds it, because
//! `sgf-parse` reports only the kind of error.

use crate::model::{Cursor, Move, MoveType, Point, Rel, SetupStone, Step, Tree};
use sgf_parse::SgfNode;
use sgf_parse::go::{self, Prop};

/// Which file's conventions give the move types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Conventions {
    /// Detected from the form of the move comments ([`detect`]): GNU Go's class comments,
    /// Pachi's first-line tags, plain when neither is clear.
    #[default]
    Auto,
    GnuGo,
    Pachi,
    Plain,
}

impl Conventions {
    /// The name used by the CLI (`auto`, `gnugo`, `pachi`, `plain`).
    pub const fn name(self) -> &'static str {
        match self {
            Conventions::Auto => "auto",
            Conventions::GnuGo => "gnugo",
            Conventions::Pachi => "pachi",
            Conventions::Plain => "plain",
        }
    }
}

/// What one file's move comments look like, and the conventions used for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Detected {
    /// The conventions the types were read with (never `Auto`).
    pub conventions: Conventions,
    /// `true` when chosen by [`detect`] (`Conventions::Auto`), `false` when given.
    pub auto: bool,
    /// Move comments in GNU Go's class form: a first line that is one class character.
    pub class_comments: usize,
    /// Move comments whose first line is Pachi tags only (`<bad>`, `<don't> <3x3>`, ...).
    pub tag_comments: usize,
    /// Other move comments (ordinary text), not counting GNU Go's `#`, `:`, `;`, `>` lines.
    pub other_comments: usize,
    /// Pachi's josekifix `[override]` sections (a comment line `[override]` and its
    /// `key = value` lines: play this move when a board pattern, ladders and more hold). Not
    /// imported: a book move has no such conditions. The move itself stays a book move;
    /// `lensc joseki` warns with this count.
    pub pachi_overrides: usize,
}

impl std::fmt::Display for Detected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}; move comments: {} GNU Go class, {} Pachi tag, {} other)",
            self.conventions.name(),
            if self.auto { "detected" } else { "given" },
            self.class_comments,
            self.tag_comments,
            self.other_comments
        )?;
        if self.pachi_overrides > 0 {
            write!(
                f,
                "; {} Pachi [override] sections not imported",
                self.pachi_overrides
            )?;
        }
        Ok(())
    }
}

/// Pachi's josekifix `[override]` sections in a comment (any node).
fn override_sections(comment: &str) -> usize {
    comment
        .lines()
        .filter(|l| l.trim().eq_ignore_ascii_case("[override]"))
        .count()
}

/// GNU Go's class characters (`patterns/joseki.c`, `identify_move_type`).
const GNUGO_CLASSES: &[char] = &['U', 'u', 'J', 'j', 'S', 's', 'T', 't', '0', 'a', 'A'];
/// Pachi's tags (its `joseki/README`).
const PACHI_TAGS: &[&str] = &["bad", "don't", "avoid", "tenuki", "later", "3x3"];

/// The form of one move comment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// GNU Go: the first line is one class character (further lines are `#` comments, the
    /// `:` colon line, `;` constraints, `>` actions).
    Class,
    /// GNU Go's other lines (`#`, `:`, `;`, `>` first), or empty: no evidence either way.
    Neutral,
    /// Pachi: the first line is tags only.
    Tags,
    Other,
}

fn comment_form(comment: &str) -> Form {
    let first = comment.lines().next().unwrap_or("").trim_end();
    let mut chars = first.chars();
    match (chars.next(), chars.next()) {
        (None, _) => return Form::Neutral,
        (Some(c), None) if GNUGO_CLASSES.contains(&c) => return Form::Class,
        (Some('#' | ':' | ';' | '>'), _) => return Form::Neutral,
        _ => {}
    }
    // Tags only: `<tag>` words separated by blanks.
    let mut rest = first.trim();
    let mut tags = 0;
    while let Some(r) = rest.strip_prefix('<') {
        let Some(end) = r.find('>') else { break };
        if !PACHI_TAGS.contains(&&r[..end]) {
            break;
        }
        tags += 1;
        rest = r[end + 1..].trim_start();
    }
    if tags > 0 && rest.is_empty() {
        Form::Tags
    } else {
        Form::Other
    }
}

/// The conventions of a file from its move comments (`Conventions::Auto`):
/// * GNU Go when class comments are at least 4 in 5 of the class and other comments (GNU Go's
///   own files have a stray sentence or two among hundreds of class letters), and no Pachi tags;
/// * Pachi when some comment's first line is Pachi tags and none is a GNU Go class (Pachi's
///   files also hold untagged remarks, which type nothing);
/// * plain otherwise: ordinary comments, `MA`/`SQ` marks or not, give no types.
pub fn detect(root: &SgfNode<Prop>) -> Detected {
    let mut d = Detected::default();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let mut has_move = false;
        let mut comment = None;
        for p in n.properties() {
            match p {
                Prop::B(_) | Prop::W(_) => has_move = true,
                Prop::C(t) => comment = Some(&t.text),
                _ => {}
            }
        }
        d.pachi_overrides += comment.map_or(0, |c| override_sections(c));
        if let (true, Some(c)) = (has_move, comment) {
            match comment_form(c) {
                Form::Class => d.class_comments += 1,
                Form::Tags => d.tag_comments += 1,
                Form::Other => d.other_comments += 1,
                Form::Neutral => {}
            }
        }
        stack.extend(n.children());
    }
    d.conventions = decide(&d);
    d.auto = true;
    d
}

fn decide(d: &Detected) -> Conventions {
    if d.class_comments > 0 && d.tag_comments == 0 && d.class_comments >= 4 * d.other_comments {
        Conventions::GnuGo
    } else if d.tag_comments > 0 && d.class_comments == 0 {
        Conventions::Pachi
    } else {
        Conventions::Plain
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}offset {offset}: {reason}", file.as_ref().map(|f| format!("{f}: ")).unwrap_or_default())]
pub struct SgfError {
    pub file: Option<String>,
    pub offset: usize,
    pub reason: String,
}

impl SgfError {
    fn at(offset: usize, reason: impl Into<String>) -> SgfError {
        SgfError {
            file: None,
            offset,
            reason: reason.into(),
        }
    }
    /// Name the file in the message.
    pub fn with_file(mut self, file: impl Into<String>) -> SgfError {
        self.file = Some(file.into());
        self
    }
}

/// Deepest node nesting accepted (sgf-parse drops nodes recursively).
const MAX_DEPTH: usize = 5000;

/// Import one SGF file into a new tree (transpositions merged, vertices canonical).
pub fn import_sgf(text: &str, conventions: Conventions) -> Result<Tree, SgfError> {
    let mut tree = Tree::new();
    import_sgf_into(&mut tree, text, conventions)?;
    tree.canonicalize();
    Ok(tree)
}

/// Import one SGF file and add its lines to `tree` (for unions of several files). Call
/// [`Tree::canonicalize`] when done. Returns the conventions used (detected for `Auto`).
pub fn import_sgf_into(
    tree: &mut Tree,
    text: &str,
    conventions: Conventions,
) -> Result<Detected, SgfError> {
    let start = find_start(text)?;
    let body = &text[start..];
    let node_offsets = prescan(body).map_err(|e| SgfError::at(e.offset + start, e.reason))?;
    let trees = sgf_parse::parse(body).map_err(|e| SgfError::at(start, format!("SGF: {e}")))?;
    let roots = trees
        .iter()
        .map(|gt| gt.as_go_node())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| SgfError::at(start, format!("SGF: {e}")))?;
    // One verdict for the file, from the comments of all its game trees.
    let mut found = Detected::default();
    for root in &roots {
        let d = detect(root);
        found.class_comments += d.class_comments;
        found.tag_comments += d.tag_comments;
        found.other_comments += d.other_comments;
        found.pachi_overrides += d.pachi_overrides;
    }
    let used = match conventions {
        Conventions::Auto => {
            let mut d = found;
            d.conventions = Conventions::Auto;
            d.conventions = decide(&d);
            d.auto = true;
            d
        }
        c => Detected {
            conventions: c,
            auto: false,
            ..found
        },
    };
    let mut index = 0usize;
    for root in roots {
        import_game(
            tree,
            root,
            used.conventions,
            &node_offsets,
            start,
            &mut index,
        )?;
    }
    Ok(used)
}

fn find_start(text: &str) -> Result<usize, SgfError> {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(p) = b[i..].iter().position(|&c| c == b'(') {
        let at = i + p;
        let mut j = at + 1;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if b.get(j) == Some(&b';') {
            return Ok(at);
        }
        i = at + 1;
    }
    Err(SgfError::at(0, "no SGF game tree (`(;`) found"))
}

/// Structural scan: balanced trees, closed values, identifiers where expected, bounded depth.
/// Returns the offset of every node (`;`) in document order.
fn prescan(b: &str) -> Result<Vec<usize>, SgfError> {
    let b = b.as_bytes();
    let mut nodes = Vec::new();
    let mut depth = 0usize;
    let mut open = Vec::new(); // offsets of unclosed `(`
    let mut node_depth = 0usize; // nodes on the current path, for the recursion bound
    let mut path_nodes: Vec<usize> = Vec::new(); // node_depth at each open `(`
    let mut in_node = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                if depth > 0 && !in_node {
                    return Err(SgfError::at(i, "a variation must follow a node"));
                }
                open.push(i);
                path_nodes.push(node_depth);
                depth += 1;
                in_node = false;
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if b.get(j) != Some(&b';') {
                    return Err(SgfError::at(i, "a game tree must start with a node `;`"));
                }
            }
            b')' => {
                if depth == 0 {
                    return Err(SgfError::at(i, "`)` without a matching `(`"));
                }
                depth -= 1;
                open.pop();
                node_depth = path_nodes.pop().unwrap_or(0);
                in_node = depth > 0;
            }
            b';' => {
                if depth == 0 {
                    return Err(SgfError::at(i, "node outside a game tree"));
                }
                nodes.push(i);
                node_depth += 1;
                if node_depth > MAX_DEPTH {
                    return Err(SgfError::at(
                        i,
                        format!("nodes nested more than {MAX_DEPTH} deep"),
                    ));
                }
                in_node = true;
            }
            c if c.is_ascii_whitespace() => {}
            c if c.is_ascii_alphabetic() => {
                if !in_node {
                    return Err(SgfError::at(i, "property outside a node"));
                }
                let id = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                if !b[id..i].iter().any(u8::is_ascii_uppercase) {
                    return Err(SgfError::at(
                        id,
                        "property identifier without an upper-case letter",
                    ));
                }
                let mut values = 0;
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if b.get(i) != Some(&b'[') {
                        break;
                    }
                    let vstart = i;
                    i += 1;
                    loop {
                        match b.get(i) {
                            None => {
                                return Err(SgfError::at(
                                    vstart,
                                    "property value `[` never closed",
                                ));
                            }
                            Some(b'\\') => i += 2,
                            Some(b']') => break,
                            Some(_) => i += 1,
                        }
                    }
                    i += 1;
                    values += 1;
                }
                if values == 0 {
                    return Err(SgfError::at(id, "property without a value"));
                }
                continue;
            }
            _ => {
                if depth == 0 {
                    // Trailing text after the collection is tolerated only if it is whitespace.
                    return Err(SgfError::at(i, "text after the last game tree"));
                }
                return Err(SgfError::at(
                    i,
                    format!("unexpected character `{}`", c as char),
                ));
            }
        }
        i += 1;
    }
    if let Some(&o) = open.last() {
        return Err(SgfError::at(o, "`(` never closed"));
    }
    Ok(nodes)
}

/// The frame of one line: which corner, and the colour of its first move.
#[derive(Clone, Copy)]
struct Frame {
    left: bool,
    top: bool,
    base_black: bool,
}

struct Ctx<'a> {
    conventions: Conventions,
    size: u8,
    offsets: &'a [usize],
    start: usize,
}

impl Ctx<'_> {
    fn to_corner(&self, f: &Frame, p: go::Point) -> (u8, u8) {
        let n = self.size;
        let x = if f.left { p.x + 1 } else { n - p.x };
        let y = if f.top { p.y + 1 } else { n - p.y };
        (x, y)
    }
    fn frame_for(&self, p: go::Point, base_black: bool) -> Frame {
        let n = self.size as i32;
        let (x, y) = (p.x as i32, p.y as i32);
        Frame {
            left: x <= n - 1 - x,
            top: y <= n - 1 - y,
            base_black,
        }
    }
    fn on_board(&self, p: go::Point) -> bool {
        p.x < self.size && p.y < self.size
    }
}

fn import_game(
    tree: &mut Tree,
    root: &SgfNode<Prop>,
    conventions: Conventions,
    offsets: &[usize],
    start: usize,
    index: &mut usize,
) -> Result<(), SgfError> {
    let mut size = 19u8;
    if let Some(Prop::SZ((w, h))) = root.get_property("SZ") {
        if *w != *h || *w < 2 || *w > 25 {
            let at = offsets.get(*index).map_or(start, |o| o + start);
            return Err(SgfError::at(
                at,
                format!("board size {w}x{h} not supported (square, 2..=25)"),
            ));
        }
        size = *w;
    }
    let ctx = Ctx {
        conventions,
        size,
        offsets,
        start,
    };
    let mut stack: Vec<(&SgfNode<Prop>, Cursor, Option<Frame>)> =
        vec![(root, tree.root_cursor(), None)];
    while let Some((node, cur, frame)) = stack.pop() {
        let at = ctx.offsets.get(*index).map_or(ctx.start, |o| o + ctx.start);
        *index += 1;
        let (cur, frame) = import_node(tree, &ctx, node, cur, frame, at)?;
        for child in node.children().collect::<Vec<_>>().into_iter().rev() {
            stack.push((child, cur.clone(), frame));
        }
    }
    Ok(())
}

fn first_move_black(node: &SgfNode<Prop>) -> Option<bool> {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        for p in n.properties() {
            match p {
                Prop::B(_) => return Some(true),
                Prop::W(_) => return Some(false),
                _ => {}
            }
        }
        stack.extend(n.children().collect::<Vec<_>>().into_iter().rev());
    }
    None
}

fn import_node(
    tree: &mut Tree,
    ctx: &Ctx,
    node: &SgfNode<Prop>,
    mut cur: Cursor,
    mut frame: Option<Frame>,
    at: usize,
) -> Result<(Cursor, Option<Frame>), SgfError> {
    let mut setup: Vec<(go::Point, Option<bool>)> = Vec::new();
    let mut mv: Option<(bool, go::Move)> = None;
    let mut comment: Option<&str> = None;
    for p in node.properties() {
        match p {
            Prop::AB(s) => setup.extend(s.iter().map(|&q| (q, Some(true)))),
            Prop::AW(s) => setup.extend(s.iter().map(|&q| (q, Some(false)))),
            Prop::AE(s) => setup.extend(s.iter().map(|&q| (q, None))),
            Prop::B(m) => mv = Some((true, *m)),
            Prop::W(m) => mv = Some((false, *m)),
            Prop::C(t) => comment = Some(&t.text),
            Prop::Invalid(id, _)
                if matches!(id.as_str(), "B" | "W" | "AB" | "AW" | "AE" | "SZ") =>
            {
                return Err(SgfError::at(at, format!("invalid value for {id}")));
            }
            _ => {}
        }
    }
    for (q, _) in &setup {
        if !ctx.on_board(*q) {
            return Err(SgfError::at(
                at,
                format!("setup stone ({}, {}) off the board", q.x, q.y),
            ));
        }
    }
    // The first stone of a line chooses the corner; the first move its reference colour.
    let first_stone = setup.first().map(|s| s.0).or(match mv {
        Some((_, go::Move::Move(q))) if ctx.on_board(q) => Some(q),
        _ => None,
    });
    if frame.is_none() && (first_stone.is_some() || mv.is_some()) {
        let base_black = match mv {
            Some((b, _)) => b,
            None => first_move_black(node).unwrap_or(true),
        };
        let q = first_stone.unwrap_or(go::Point { x: 0, y: 0 });
        frame = Some(ctx.frame_for(q, base_black));
    }
    let Some(f) = frame else {
        return Ok((cur, frame));
    };
    let rel = |black: bool| {
        if black == f.base_black {
            Rel::Same
        } else {
            Rel::Opposite
        }
    };
    if !setup.is_empty() {
        let mut stones: Vec<SetupStone> = setup
            .iter()
            .map(|&(q, c)| {
                let (x, y) = ctx.to_corner(&f, q);
                SetupStone {
                    x,
                    y,
                    colour: c.map(rel),
                }
            })
            .collect();
        stones.sort();
        cur = tree.step(&cur, Step::Setup(stones));
    }
    if let Some((black, m)) = mv {
        let point = match m {
            go::Move::Pass => Point::Pass,
            go::Move::Move(q) if !ctx.on_board(q) => {
                if ctx.size <= 19 && q.x == 19 && q.y == 19 {
                    Point::Pass
                } else {
                    return Err(SgfError::at(
                        at,
                        format!("move ({}, {}) off the board", q.x, q.y),
                    ));
                }
            }
            go::Move::Move(q) => {
                let (x, y) = ctx.to_corner(&f, q);
                Point::at(x, y)
            }
        };
        let kind = comment.map_or(MoveType::Normal, |c| classify(ctx.conventions, c));
        cur = tree.step(
            &cur,
            Step::Move(Move::new(point, rel(black)).with_kind(kind)),
        );
    }
    Ok((cur, frame))
}

/// The move type a comment gives under a convention.
pub fn classify(conventions: Conventions, comment: &str) -> MoveType {
    match conventions {
        Conventions::GnuGo => match comment.chars().next() {
            Some('U' | 'u') => MoveType::Urgent,
            Some('j' | 's') => MoveType::Minor,
            Some('T') => MoveType::Trick,
            Some('t') => MoveType::TenukiOk,
            Some('0' | 'a' | 'A') => MoveType::Bad,
            _ => MoveType::Normal,
        },
        Conventions::Pachi => {
            let first = comment.trim_start().lines().next().unwrap_or("");
            if first.contains("<bad>") {
                MoveType::Bad
            } else if first.contains("<don't>") || first.contains("<avoid>") {
                MoveType::Ignore
            } else if first.contains("<tenuki>") {
                MoveType::TenukiOk
            } else {
                MoveType::Normal
            }
        }
        Conventions::Plain | Conventions::Auto => MoveType::Normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pachi_override_sections_are_counted_and_named_not_dropped_silently() {
        // Two override sections (Pachi's josekifix form: a `[override]` line, then metadata),
        // one ordinary comment mentioning the word, and a tag comment.
        let sgf = "(;GM[1]SZ[19];B[pd]C[<bad>];W[qf]C[[override\\]\nname = fix_3_4\naround = qf]\
                   ;B[nc]C[We do not [override\\] here.]\
                   (;W[qc]C[first line\n  [override\\]  \nname = b]AB[dd])(;W[pc]))";
        let mut t = Tree::new();
        let d = import_sgf_into(&mut t, sgf, Conventions::Auto).unwrap();
        assert_eq!(d.pachi_overrides, 2, "{d:?}");
        assert!(
            d.to_string()
                .ends_with("; 2 Pachi [override] sections not imported"),
            "{d}"
        );
        // Their moves are still book moves.
        t.canonicalize();
        assert_eq!(t.tree_moves(), 5);
        // A file without one says nothing about overrides.
        let d = import_sgf_into(&mut Tree::new(), "(;GM[1];B[pd])", Conventions::Auto).unwrap();
        assert_eq!(d.pachi_overrides, 0);
        assert!(!d.to_string().contains("override"), "{d}");
    }
}
