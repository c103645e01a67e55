//! The canonical formatter (`lensc fmt`): prints an AST back as source, 4-space indentation, one
//! statement per line, diagrams with one space between cells. Comments (the lexer's trivia) are
//! printed where they were: before the next element, or at the end of the line they ended.
//! Comments inside an expression or a one-line construct move to the line after it. Blank lines
//! between statements are kept (at most one); block items at top level are separated by one.
//! The output parses to the same AST modulo spans, and formatting it again changes nothing.

use crate::ast::*;
use crate::diagram::state_set_text;

/// Formats a parsed file; `text` is the source it was parsed from (for comments and blank lines).
pub fn format(file: &File, text: &str) -> String {
    let mut p = Printer {
        text,
        comments: &file.comments,
        next: 0,
        out: String::new(),
        indent: 0,
        last_end: 0,
        fresh: true,
        kind: None,
    };
    let mut prev_block = false;
    for item in &file.items {
        let block = !matches!(item, Item::Include(_) | Item::Global(_) | Item::Extern(_));
        let kind_changed = match (p.kind, item_kind(item)) {
            (Some(a), b) => a != b,
            (None, _) => false,
        };
        p.leading(item_span(item).start, block || prev_block || kind_changed);
        p.item(item);
        p.kind = Some(item_kind(item));
        prev_block = block;
    }
    p.leading(usize::MAX, false);
    while p.out.ends_with("\n\n") {
        p.out.pop();
    }
    if !p.out.is_empty() && !p.out.ends_with('\n') {
        p.out.push('\n');
    }
    p.out
}

fn item_kind(i: &Item) -> u8 {
    match i {
        Item::Include(_) => 0,
        Item::Global(_) => 1,
        Item::Extern(_) => 2,
        _ => 3,
    }
}

pub fn item_span(i: &Item) -> Span {
    match i {
        Item::Include(x) => x.span,
        Item::Global(x) => x.span,
        Item::Extern(x) => x.span,
        Item::Class(x) => x.span,
        Item::Pattern(x) => x.span,
        Item::Glob(x) => x.span,
        Item::Lens(x) => x.span,
        Item::Joseki(x) => x.span,
    }
}

struct Printer<'a> {
    text: &'a str,
    comments: &'a [Comment],
    next: usize,
    out: String,
    indent: usize,
    /// Source offset of the last thing printed (for blank-line detection).
    last_end: usize,
    /// Nothing printed yet in the current block (no blank line before the first element).
    fresh: bool,
    /// Kind of the previous top-level item (a change of kind gets a blank line).
    kind: Option<u8>,
}

impl<'a> Printer<'a> {
    fn blank_between(&self, a: usize, b: usize) -> bool {
        let (a, b) = (a.min(self.text.len()), b.min(self.text.len()));
        if a >= b {
            return false;
        }
        let seg = &self.text[a..b];
        let pieces: Vec<&str> = seg.split('\n').collect();
        pieces.len() > 2
            && pieces[1..pieces.len() - 1]
                .iter()
                .any(|p| p.trim().is_empty())
    }

    fn separate(&mut self, pos: usize, force: bool) {
        if self.out.is_empty() || self.fresh {
            return;
        }
        if (force || self.blank_between(self.last_end, pos)) && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    fn push_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    /// Prints the comments that start before `pos` on their own lines, then prepares for an
    /// element at `pos` (`force`: a blank line before the first thing printed).
    fn leading(&mut self, pos: usize, force: bool) {
        let mut force = force;
        while let Some(c) = self.comments.get(self.next) {
            if c.span.start >= pos {
                break;
            }
            self.separate(c.span.start, force);
            force = false;
            self.push_indent();
            self.out.push_str(&c.text);
            self.out.push('\n');
            self.last_end = self.last_end.max(c.span.end);
            self.next += 1;
            self.fresh = false;
        }
        if pos != usize::MAX {
            self.separate(pos, force);
        }
    }

    /// A comment starting after `end` on the same source line goes at the end of this line.
    fn trailing(&mut self, end: usize) {
        if let Some(c) = self.comments.get(self.next) {
            if c.span.start >= end
                && !self
                    .text
                    .get(end..c.span.start)
                    .is_some_and(|s| s.contains('\n'))
            {
                self.out.push_str("  ");
                self.out.push_str(&c.text);
                self.last_end = self.last_end.max(c.span.end);
                self.next += 1;
            }
        }
    }

    /// One line of output for an element that ends at source offset `end`.
    fn line(&mut self, s: &str, end: usize) {
        self.push_indent();
        self.out.push_str(s);
        self.trailing(end);
        self.out.push('\n');
        self.last_end = self.last_end.max(end);
        self.fresh = false;
    }

    /// Opens a block: `header {`; `after` is where to look for the `{` in the source.
    fn open(&mut self, header: &str, after: usize, block_end: usize) {
        let brace = self
            .text
            .get(after..block_end.min(self.text.len()))
            .and_then(|s| s.find('{'))
            .map(|i| after + i + 1)
            .unwrap_or(after);
        self.line(&format!("{header} {{"), brace);
        self.indent += 1;
        self.fresh = true;
    }

    fn close(&mut self, block_end: usize) {
        self.leading(block_end.saturating_sub(1), false);
        self.indent -= 1;
        self.fresh = false;
        self.line("}", block_end);
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Include(i) => self.line(
                &format!("include {};", string_lit(&i.path.node)),
                i.span.end,
            ),
            Item::Global(g) => self.line(&format!("global {};", g.name.node), g.span.end),
            Item::Extern(e) => {
                let ps: Vec<&str> = e.params.iter().map(|p| arg_kind(p.node)).collect();
                self.line(
                    &format!(
                        "extern {}({}){} cost {};",
                        e.name.node,
                        ps.join(", "),
                        if e.returns_int { ": int" } else { "" },
                        e.cost.node
                    ),
                    e.span.end,
                )
            }
            Item::Class(c) => {
                self.open(
                    &format!("class {}", c.name.node),
                    c.name.span.end,
                    c.span.end,
                );
                for o in &c.options {
                    let (s, span) = class_option(o);
                    self.leading(span.start, false);
                    self.line(&s, span.end + 1);
                }
                self.close(c.span.end);
            }
            Item::Pattern(p) => self.pattern(p),
            Item::Glob(g) => self.glob(g),
            Item::Lens(l) => self.lens(l),
            Item::Joseki(j) => {
                self.open(
                    &format!("joseki {}", j.name.node),
                    j.name.span.end,
                    j.span.end,
                );
                for (depth, l) in joseki_lines(&j.body, self.indent * 4) {
                    self.indent += depth;
                    self.push_indent();
                    self.indent -= depth;
                    self.out.push_str(&l);
                    self.out.push('\n');
                }
                self.last_end = self.last_end.max(j.span.end.saturating_sub(1));
                self.fresh = false;
                self.close(j.span.end);
            }
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        let header = match &p.class {
            Some(c) => format!("pattern {} : {}", p.name.node, c.node),
            None => format!("pattern {}", p.name.node),
        };
        let after = p
            .class
            .as_ref()
            .map(|c| c.span.end)
            .unwrap_or(p.name.span.end);
        self.open(&header, after, p.span.end);
        self.pattern_items(&p.items);
        self.close(p.span.end);
    }

    fn pattern_items(&mut self, items: &[PatternItem]) {
        for it in items {
            if let Some(pos) = pattern_item_start(it) {
                self.leading(pos, false);
            }
            self.pattern_item(it);
        }
    }

    fn pattern_item(&mut self, it: &PatternItem) {
        match it {
            PatternItem::Priority(v) => self.line(&format!("priority {};", v.node), v.span.end + 1),
            PatternItem::Symmetry(s) => {
                self.line(&format!("symmetry {};", symmetry(s.node)), s.span.end + 1)
            }
            PatternItem::Orientations(o) => {
                let ns: Vec<String> = o.node.iter().map(u8::to_string).collect();
                let s = if ns.is_empty() {
                    "orientations;".to_string()
                } else {
                    format!("orientations {};", ns.join(" "))
                };
                self.line(&s, o.span.end + 1)
            }
            PatternItem::Diagram(d) => self.diagram(d),
            PatternItem::Legend(entries) => self.legend(entries),
            PatternItem::Where(e) => self.line(&format!("where {};", expr(e, 0)), e.span().end + 1),
            PatternItem::Result(r) => {
                self.line(&format!("=> {};", result(r)), result_span(r).end + 1)
            }
            PatternItem::Sequence(s) => {
                let body = seq_words(&s.body).join(" ");
                let line = if body.is_empty() {
                    format!("sequence {} {{ }}", s.name.node)
                } else {
                    format!("sequence {} {{ {} }}", s.name.node, body)
                };
                self.line(&line, s.span.end)
            }
            PatternItem::Attr { key, value, span } => self.line(
                &format!("attr {} = {};", key.node, attr_value(&value.node)),
                span.end,
            ),
        }
    }

    fn diagram(&mut self, d: &Diagram) {
        self.line("diagram {", d.span.start + "diagram".len());
        self.indent += 1;
        for r in &d.rows {
            let cells: Vec<String> = r.cells.iter().map(|c| c.node.to_string()).collect();
            let mut s = cells.join(" ");
            if let Some(c) = &r.comment {
                if !s.is_empty() {
                    s.push_str("  ");
                }
                s.push_str(c);
            }
            self.push_indent();
            self.out.push_str(&s);
            self.out.push('\n');
        }
        self.indent -= 1;
        self.line("}", d.span.end);
    }

    fn legend(&mut self, entries: &[LegendEntry]) {
        let entry = |e: &LegendEntry| {
            format!(
                "{} = {}{};",
                e.symbol.node,
                state_set_text(e.states.node),
                if e.focus { ", focus" } else { "" }
            )
        };
        let (first, last) = match (entries.first(), entries.last()) {
            (Some(f), Some(l)) => (f.span.start, l.span.end),
            _ => {
                self.line("legend { }", self.last_end);
                return;
            }
        };
        let inner_comments = self.comments[self.next..]
            .iter()
            .any(|c| c.span.start >= first && c.span.start < last);
        if entries.len() <= 2 && !inner_comments {
            let body: Vec<String> = entries.iter().map(entry).collect();
            self.line(
                &format!("legend {{ {} }}", body.join(" ")),
                last + self.after_brace(last),
            );
        } else {
            self.line("legend {", first);
            self.indent += 1;
            self.fresh = true;
            for e in entries {
                self.leading(e.span.start, false);
                self.line(&entry(e), e.span.end);
            }
            let close = last + self.after_brace(last);
            self.leading(close.saturating_sub(1), false);
            self.indent -= 1;
            self.line("}", close);
        }
    }

    /// Bytes from `pos` to just after the next `}` (the end of a legend block).
    fn after_brace(&self, pos: usize) -> usize {
        self.text
            .get(pos..)
            .and_then(|s| s.find('}'))
            .map(|i| i + 1)
            .unwrap_or(0)
    }

    fn glob(&mut self, g: &Glob) {
        let header = match &g.class {
            Some(c) => format!("glob {} : {}", g.name.node, c.node),
            None => format!("glob {}", g.name.node),
        };
        let after = g
            .class
            .as_ref()
            .map(|c| c.span.end)
            .unwrap_or(g.name.span.end);
        self.open(&header, after, g.span.end);
        if let Some(h) = &g.header {
            self.leading(h.span.start, false);
            self.open("header", h.span.start, h.span.end);
            self.pattern_items(&h.items);
            self.close(h.span.end);
        }
        for m in &g.members {
            match m {
                GlobMember::Pattern(p) => {
                    self.leading(p.span.start, true);
                    self.pattern(p)
                }
                GlobMember::Glob(inner) => {
                    self.leading(inner.span.start, true);
                    self.glob(inner)
                }
            }
        }
        self.close(g.span.end);
    }

    fn lens(&mut self, l: &Lens) {
        let eps: Vec<String> = l.endpoints.iter().map(|p| point(&p.node)).collect();
        let after = l
            .endpoints
            .last()
            .map(|p| p.span.end)
            .unwrap_or(l.name.span.end);
        self.open(
            &format!(
                "lens {} {}({})",
                l.lens_type.node,
                l.name.node,
                eps.join(", ")
            ),
            after,
            l.span.end,
        );
        for f in &l.fields {
            self.leading(f.span.start, false);
            let items: Vec<String> = f
                .items
                .iter()
                .map(|i| match i {
                    FieldItem::State {
                        point: p, states, ..
                    } => format!("{} {}", point(&p.node), state_set_text(states.node)),
                    FieldItem::Test(e) => expr(e, 0),
                })
                .collect();
            let body = if items.is_empty() {
                "field { }".to_string()
            } else {
                format!("field {{ {} }}", items.join("; "))
            };
            self.line(&format!("{body} => {};", result(&f.result)), f.span.end);
        }
        self.close(l.span.end);
    }
}

fn pattern_item_start(it: &PatternItem) -> Option<usize> {
    Some(match it {
        PatternItem::Priority(v) => v.span.start,
        PatternItem::Symmetry(s) => s.span.start,
        PatternItem::Orientations(o) => o.span.start,
        PatternItem::Diagram(d) => d.span.start,
        PatternItem::Legend(e) => return e.first().map(|e| e.span.start),
        PatternItem::Where(e) => e.span().start,
        PatternItem::Result(r) => result_span(r).start,
        PatternItem::Sequence(s) => s.span.start,
        PatternItem::Attr { span, .. } => span.start,
    })
}

fn class_option(o: &ClassOption) -> (String, Span) {
    match o {
        ClassOption::Mode(m) => (
            format!(
                "mode {};",
                match m.node {
                    MatchMode::Best => "best",
                    MatchMode::All => "all",
                    MatchMode::First => "first",
                }
            ),
            m.span,
        ),
        ClassOption::Focus(f) => (
            format!(
                "focus {};",
                match f.node {
                    FocusStatus::Empty => "empty",
                    FocusStatus::Friend => "friend",
                    FocusStatus::Foe => "foe",
                    FocusStatus::Any => "any",
                }
            ),
            f.span,
        ),
        ClassOption::Field(s) => (format!("field {}x{};", s.node.width, s.node.height), s.span),
        ClassOption::Orient(o) => (
            format!(
                "orient {};",
                match o.node {
                    OrientPolicy::All => "all",
                    OrientPolicy::Up => "up",
                    OrientPolicy::Identity => "identity",
                }
            ),
            o.span,
        ),
        ClassOption::Default(v) => (format!("default {};", v.node), v.span),
    }
}

pub fn arg_kind(k: ArgKind) -> &'static str {
    match k {
        ArgKind::Point => "point",
        ArgKind::Int => "int",
        ArgKind::Color => "color",
    }
}

pub fn symmetry(s: Symmetry) -> &'static str {
    match s {
        Symmetry::None => "8",
        Symmetry::Vertical => "|",
        Symmetry::Horizontal => "-",
        Symmetry::Diagonal => "\\",
        Symmetry::AntiDiagonal => "/",
        Symmetry::Cross => "+",
        Symmetry::DiagonalCross => "X",
        Symmetry::Rotation180 => "O",
        Symmetry::Full => "full",
    }
}

pub fn string_lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn attr_value(v: &AttrValue) -> String {
    match v {
        AttrValue::Int(i) => i.to_string(),
        AttrValue::Float(f) => {
            let s = format!("{f:?}");
            if s.contains('.') {
                s
            } else {
                format!("{f:.1}")
            }
        }
        AttrValue::Str(s) => string_lit(s),
    }
}

pub fn point(p: &PointRef) -> String {
    match p {
        PointRef::Focus => "*".into(),
        PointRef::Label(c) => c.to_string(),
        PointRef::Coord { col, row } => {
            format!("{}{}", (b'a' + col.saturating_sub(1)) as char, row)
        }
    }
}

pub fn result_span(r: &ResultSpec) -> Span {
    match r {
        ResultSpec::Move { span, .. }
        | ResultSpec::Reject { span, .. }
        | ResultSpec::Value { span, .. } => *span,
    }
}

pub fn result(r: &ResultSpec) -> String {
    match r {
        ResultSpec::Move {
            point: p,
            value,
            bits,
            sequence,
            ..
        } => {
            let mut s = format!("{} {}", point(&p.node), value.node);
            if let Some(b) = bits {
                s.push_str(&format!(" bits {:#x}", b.node));
            }
            if let Some(q) = sequence {
                s.push_str(&format!(" seq {}", q.node));
            }
            s
        }
        ResultSpec::Reject { point: p, .. } => format!("reject {}", point(&p.node)),
        ResultSpec::Value { value, bits, .. } => {
            let mut s = format!("value {}", value.node);
            if let Some(b) = bits {
                s.push_str(&format!(" bits {:#x}", b.node));
            }
            s
        }
    }
}

fn seq_words(nodes: &[SeqNode]) -> Vec<String> {
    let mut out = Vec::new();
    for n in nodes {
        match n {
            SeqNode::Move(p) => out.push(point(&p.node)),
            SeqNode::Pass(_) => out.push("pass".into()),
            SeqNode::Branch { alternatives, .. } => {
                out.push("(".into());
                for (i, a) in alternatives.iter().enumerate() {
                    if i > 0 {
                        out.push("|".into());
                    }
                    out.extend(seq_words(a));
                }
                out.push(")".into());
            }
        }
    }
    out
}

fn joseki_kind(k: JosekiMoveType) -> &'static str {
    match k {
        JosekiMoveType::Urgent => "urgent",
        JosekiMoveType::Normal => "normal",
        JosekiMoveType::Complex => "complex",
        JosekiMoveType::Trick => "trick",
        JosekiMoveType::Bad => "bad",
        JosekiMoveType::Ignore => "ignore",
    }
}

fn joseki_words(nodes: &[JosekiNode]) -> Vec<String> {
    let mut out = Vec::new();
    for n in nodes {
        match n {
            JosekiNode::Move { point: p, kind, .. } => out.push(match kind {
                Some(k) => format!("{}:{}", point(&p.node), joseki_kind(k.node)),
                None => point(&p.node),
            }),
            JosekiNode::Tenuki { kind, .. } => out.push(match kind {
                Some(k) => format!("tenuki:{}", joseki_kind(k.node)),
                None => "tenuki".into(),
            }),
            JosekiNode::Branch { alternatives, .. } => {
                out.push("(".into());
                for (i, a) in alternatives.iter().enumerate() {
                    if i > 0 {
                        out.push("|".into());
                    }
                    out.extend(joseki_words(a));
                }
                out.push(")".into());
            }
        }
    }
    out
}

const WIDTH: usize = 100;

/// Lays a joseki tree out: a line if it fits, else each alternative of a long branch on its own
/// line (`| ` before all but the first), one level deeper. Returns (extra depth, text) lines.
fn joseki_lines(nodes: &[JosekiNode], indent: usize) -> Vec<(usize, String)> {
    let flat = joseki_words(nodes).join(" ");
    if indent + flat.len() <= WIDTH {
        return if flat.is_empty() {
            Vec::new()
        } else {
            vec![(0, flat)]
        };
    }
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut cur = String::new();
    for n in nodes {
        let w = joseki_words(std::slice::from_ref(n)).join(" ");
        let fits = indent + cur.len() + 1 + w.len() <= WIDTH;
        match n {
            JosekiNode::Branch { alternatives, .. } if !fits => {
                cur.push_str(if cur.is_empty() { "(" } else { " (" });
                out.push((0, std::mem::take(&mut cur)));
                for (i, a) in alternatives.iter().enumerate() {
                    let sub = joseki_lines(a, indent + 4 + 2);
                    if sub.is_empty() {
                        out.push((
                            1,
                            if i > 0 {
                                "|".to_string()
                            } else {
                                String::new()
                            },
                        ));
                    }
                    for (k, (d, l)) in sub.into_iter().enumerate() {
                        let text = if k == 0 && i > 0 {
                            format!("| {l}")
                        } else if i > 0 {
                            format!("  {l}")
                        } else {
                            l
                        };
                        out.push((d + 1, text));
                    }
                }
                cur.push(')');
            }
            _ => {
                if !cur.is_empty() {
                    cur.push(' ');
                }
                cur.push_str(&w);
            }
        }
    }
    if !cur.is_empty() {
        out.push((0, cur));
    }
    out.retain(|(_, l)| !l.is_empty());
    out
}

fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Binary { op, .. } => match op.node {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 3,
            BinOp::Add | BinOp::Sub => 4,
        },
        Expr::Unary { .. } => 5,
        _ => 6,
    }
}

pub fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Or => "||",
        BinOp::And => "&&",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
    }
}

pub fn color(s: PointState) -> &'static str {
    match s {
        PointState::Friend => "friend",
        PointState::Foe => "foe",
        PointState::Empty => "empty",
        PointState::Off => "off",
    }
}

/// An expression in canonical form, parenthesised when its precedence is below `min`.
pub fn expr(e: &Expr, min: u8) -> String {
    let s = match e {
        Expr::Int(i) => i.node.to_string(),
        Expr::Bool(b) => b.node.to_string(),
        Expr::Point(p) => point(&p.node),
        Expr::Color(c) => color(c.node).to_string(),
        Expr::Name(n) => n.node.clone(),
        Expr::Call { name, args, .. } => {
            let a: Vec<String> = args.iter().map(|a| expr(a, 0)).collect();
            format!("{}({})", name.node, a.join(", "))
        }
        Expr::Unary {
            op, expr: inner, ..
        } => {
            let o = match op.node {
                UnOp::Not => "!",
                UnOp::Neg => "-",
            };
            format!("{o}{}", expr(inner, 5))
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            let p = prec(e);
            let (lmin, rmin) = match p {
                3 => (4, 4),
                _ => (p, p + 1),
            };
            format!("{} {} {}", expr(lhs, lmin), binop(op.node), expr(rhs, rmin))
        }
    };
    if prec(e) < min { format!("({s})") } else { s }
}
