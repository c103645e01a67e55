//! From a parsed `.db` file to `.lens` source text (see `docs/gnugo-import.md`).
//!
//! Conventions that make Lens's matches equal GNU Go's:
//! - the Lens focus is GNU Go's anchor stone (drawn `*`); a class per anchor colour
//!   (`<stem>_anchor_o` with `focus friend`, `<stem>_anchor_x` with `focus foe`);
//! - GNU Go's move `*` becomes a label (its constraint-diagram label, or a free letter);
//! - declared symmetry becomes `orientations` (the transforms GNU Go tries, renumbered);
//! - `?` is "anything on the board", edges and corners are drawn as in GNU Go.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Options;
use super::autohelpers::{self, Mapping, Ret};
use super::cexpr::{self, CExpr};
pub use super::db::stem_ident;
use super::db::{Database, DbPattern};
use super::mkpat::{AnchorColour, AnchorMode, Mkpat};
use super::report::{ExternDecl, FileReport, PatternOutcome};

/// GNU Go transform `ll` (`transformation2[ll]`) as a Lens orientation index.
/// GNU Go offsets are (i, j) = (row down, column right); Lens offsets (dx, dy) = (j, i).
/// GNU Go's order is identity, rot90 cw, rot180, rot90 ccw, then the four mirrors
/// (anti-diagonal, top-bottom, main diagonal, left-right); Lens mirrors left-right first and
/// then turns clockwise, so the mirrors land on 5, 6, 7, 4.
pub const GNUGO_TO_LENS: [u8; 8] = [0, 1, 2, 3, 5, 6, 7, 4];

/// The GNU Go transforms tried for a symmetry character (`trfno`: ll < trfno, `O`: 2..=5).
pub fn gnugo_transforms(symmetry: char) -> &'static [u8] {
    match symmetry {
        '|' | '-' | '\\' | '/' => &[0, 1, 2, 3],
        '+' | 'X' => &[0, 1],
        'O' => &[2, 3, 4, 5],
        _ => &[0, 1, 2, 3, 4, 5, 6, 7],
    }
}

/// The Lens orientations for a symmetry character, ascending.
pub fn lens_orientations(symmetry: char) -> Vec<u8> {
    let mut v: Vec<u8> = gnugo_transforms(symmetry)
        .iter()
        .map(|&ll| GNUGO_TO_LENS[ll as usize])
        .collect();
    v.sort_unstable();
    v
}

/// Allowed states of a GNU Go diagram symbol, as Lens legend text.
fn states_text(symbol: char) -> &'static str {
    match symbol {
        'O' | 'Q' => "friend",
        'X' | 'Y' => "foe",
        'o' => "friend | empty",
        'x' => "foe | empty",
        '?' => "any",
        _ => "empty",
    }
}

pub fn class_name(stem: &str, colour: AnchorColour) -> String {
    match colour {
        AnchorColour::O => format!("{stem}_anchor_o"),
        AnchorColour::X => format!("{stem}_anchor_x"),
    }
}

fn extern_ident(name: &str) -> String {
    if lens_dsl::builtins::is_reserved(name) {
        format!("gnugo_{name}")
    } else {
        name.to_string()
    }
}

/// Point naming inside one pattern.
struct Names {
    /// GNU Go label -> Lens point text.
    labels: BTreeMap<char, String>,
    /// Lens text for GNU Go's `*` (the move).
    mov: String,
}

struct Translator<'a> {
    names: &'a Names,
    externs: &'a mut BTreeMap<String, ExternDecl>,
    /// Engine globals (C variables) of the file.
    globals: &'a mut Vec<String>,
    used: Vec<String>,
    /// The pattern's `value(...)` attribute as written (mkpat's `value` autohelper reads it).
    value: Option<&'a str>,
}

// Lens precedence levels (`docs/language.md`): comparisons do not chain.
const PREC_OR: u8 = 1;
const PREC_AND: u8 = 2;
const PREC_CMP: u8 = 3;
const PREC_ADD: u8 = 4;
const PREC_UNARY: u8 = 5;
const PREC_ATOM: u8 = 6;

/// Lens test types: built-ins such as `libs` are integers, extern predicates are conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Bool,
    Int,
}

/// A translated expression: text, precedence level, type.
#[derive(Clone, Debug)]
struct Tr {
    text: String,
    prec: u8,
    ty: Ty,
}

impl Tr {
    fn new(text: String, prec: u8, ty: Ty) -> Tr {
        Tr { text, prec, ty }
    }
    fn wrapped(&self, min: u8) -> String {
        if self.prec < min {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }
    /// C truthiness: an integer used as a condition is `!= 0`.
    fn into_bool(self) -> Tr {
        match self.ty {
            Ty::Bool => self,
            Ty::Int => Tr::new(
                format!("{} != 0", self.wrapped(PREC_ADD)),
                PREC_CMP,
                Ty::Bool,
            ),
        }
    }
    /// C truth values are numbers: a condition used as one is `int(c)` (1 or 0).
    fn into_int(self) -> Tr {
        match self.ty {
            Ty::Int => self,
            Ty::Bool => Tr::new(
                format!("{}({})", lens_dsl::builtins::TRUTH_VALUE, self.text),
                PREC_ATOM,
                Ty::Int,
            ),
        }
    }
}

fn op_name(op: &str) -> &'static str {
    match op {
        "<" => "lt",
        "<=" => "le",
        ">" => "gt",
        ">=" => "ge",
        "==" => "eq",
        _ => "ne",
    }
}

fn flip(op: &'static str) -> &'static str {
    match op {
        "<" => ">",
        "<=" => ">=",
        ">" => "<",
        ">=" => "<=",
        o => o,
    }
}

/// An extern call before it is written: its Lens name, argument texts and kinds, cost, and
/// what GNU Go's code gives.
struct ExternCall {
    name: String,
    args: Vec<String>,
    kinds: Vec<&'static str>,
    cost: u32,
    ret: Ret,
}

impl Translator<'_> {
    fn point(&self, e: &CExpr) -> Result<String, String> {
        match e {
            CExpr::Label('*') => Ok(self.names.mov.clone()),
            CExpr::Label(c) => self
                .names
                .labels
                .get(c)
                .cloned()
                .ok_or_else(|| format!("label `{c}` is not in the constraint diagram")),
            _ => Err("a point argument must be a label or `*`".into()),
        }
    }

    fn declare(
        &mut self,
        name: String,
        params: Vec<&'static str>,
        cost: u32,
        returns_int: bool,
    ) -> Result<(), String> {
        let decl = ExternDecl {
            name: name.clone(),
            params,
            cost,
            returns_int,
        };
        match self.externs.get(&name) {
            Some(d) if *d != decl => {
                return Err(format!(
                    "`{name}` is called with different argument kinds in this file"
                ));
            }
            Some(_) => {}
            None => {
                self.externs.insert(name.clone(), decl);
            }
        }
        if !self.used.contains(&name) {
            self.used.push(name);
        }
        Ok(())
    }

    /// A call as a Lens extern: numbers are `: int` externs, truth values conditions. (A float
    /// is only compared, inside the engine: see [`Translator::compare`].)
    fn emit_call(&mut self, c: ExternCall) -> Result<Tr, String> {
        if c.ret == Ret::Float {
            return Err(format!(
                "`{}` is a C float: only its comparison with a number is imported",
                c.name
            ));
        }
        let ty = if c.ret == Ret::Int { Ty::Int } else { Ty::Bool };
        self.declare(c.name.clone(), c.kinds, c.cost, ty == Ty::Int)?;
        let text = if c.args.is_empty() {
            c.name
        } else {
            format!("{}({})", c.name, c.args.join(", "))
        };
        Ok(Tr::new(text, PREC_ATOM, ty))
    }

    /// The extern a call or name stands for, if it is one (not a built-in mapping).
    fn as_extern(&mut self, e: &CExpr) -> Result<Option<ExternCall>, String> {
        match e {
            CExpr::Name(n) => match autohelpers::lookup(n) {
                Some(a) if a.params == 0 && !a.variadic => Ok(Some(ExternCall {
                    name: extern_ident(n),
                    args: vec![],
                    kinds: vec![],
                    cost: a.cost.max(1),
                    ret: a.ret,
                })),
                _ => Ok(None),
            },
            CExpr::Call(name, args) => {
                let helper = autohelpers::lookup(name);
                if helper.is_some_and(|h| h.mapping != Mapping::Extern) {
                    return Ok(None);
                }
                let arity_ok = match helper {
                    Some(h) if h.variadic => args.len() >= h.params as usize,
                    Some(h) => args.len() == h.params as usize,
                    None => true,
                };
                if !arity_ok {
                    return Err(format!(
                        "`{name}` takes {} arguments, not {}",
                        helper.map_or(0, |h| h.params),
                        args.len()
                    ));
                }
                let variadic = helper.is_some_and(|h| h.variadic);
                let cost = helper.map_or(autohelpers::UNKNOWN_COST, |h| h.cost.max(1));
                let mut c = ExternCall {
                    name: extern_ident(name),
                    args: vec![],
                    kinds: vec![],
                    cost,
                    // An unknown C function is an int, as C has it.
                    ret: helper.map_or(Ret::Int, |h| h.ret),
                };
                let mut tenukis = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    match a {
                        CExpr::Tenuki if variadic && i > 0 => tenukis.push(i),
                        CExpr::Tenuki => {
                            return Err(format!("`?` (tenuki) is not an argument of `{name}`"));
                        }
                        CExpr::Label(_) => {
                            c.args.push(self.point(a)?);
                            c.kinds.push("point");
                        }
                        other => {
                            let t = self.expr(other)?.into_int();
                            c.args.push(t.text);
                            c.kinds.push("int");
                        }
                    }
                }
                if variadic {
                    // One extern per arity (and tenuki positions): Lens externs have fixed arity.
                    let _ = write!(c.name, "_{}", args.len());
                    for t in &tenukis {
                        let _ = write!(c.name, "_t{t}");
                    }
                }
                if c.args.len() > MAX_EXTERN_ARGS {
                    // mkpat's own limit (`MAXPARAMS`) is the same: GNU Go rejects this call too.
                    return Err(format!(
                        "`{name}` with {} arguments: Lens externs take at most {MAX_EXTERN_ARGS} (the ROM format's limit, and mkpat's)",
                        c.args.len()
                    ));
                }
                Ok(Some(c))
            }
            _ => Ok(None),
        }
    }

    fn expr(&mut self, e: &CExpr) -> Result<Tr, String> {
        Ok(match e {
            CExpr::Num(n) => match n.parse::<i64>() {
                Ok(v) => Tr::new(v.to_string(), PREC_ATOM, Ty::Int),
                Err(_) => {
                    return Err(format!(
                        "non-integer constant `{n}` (Lens tests are integers)"
                    ));
                }
            },
            CExpr::Name(n) | CExpr::Call(n, _) if n == "value" => {
                // mkpat's `value` is the pattern's own `value(...)` (0 when absent): a constant.
                if matches!(e, CExpr::Call(_, args) if !args.is_empty()) {
                    return Err("`value` takes no arguments".into());
                }
                let v = self.value.unwrap_or("0");
                match v.parse::<i64>() {
                    Ok(v) => Tr::new(v.to_string(), PREC_ATOM, Ty::Int),
                    Err(_) => return Err(format!("`value` is `{v}`, not an integer")),
                }
            }
            CExpr::Name(n) => {
                if let Some(v) = autohelpers::constant(n) {
                    return Ok(Tr::new(v.to_string(), PREC_ATOM, Ty::Int));
                }
                if let Some(c) = self.as_extern(e)? {
                    return self.emit_call(c);
                }
                if autohelpers::lookup(n).is_some() {
                    return Err(format!("`{n}` needs arguments"));
                }
                // Any other C name is an engine variable (`doing_scoring`): a Lens global.
                let name = extern_ident(n);
                if name.len() < 2 {
                    return Err(format!("unknown name `{n}`"));
                }
                if !self.globals.contains(&name) {
                    self.globals.push(name.clone());
                }
                if !self.used.contains(&name) {
                    self.used.push(name.clone());
                }
                Tr::new(name, PREC_ATOM, Ty::Int)
            }
            CExpr::Label(_) => return Err("a bare point is not a test".into()),
            CExpr::Tenuki => return Err("`?` (tenuki) outside a move sequence".into()),
            CExpr::Not(inner) => {
                let t = self.expr(inner)?;
                match t.ty {
                    Ty::Int => Tr::new(format!("{} == 0", t.wrapped(PREC_ADD)), PREC_CMP, Ty::Bool),
                    Ty::Bool => {
                        Tr::new(format!("!{}", t.wrapped(PREC_UNARY)), PREC_UNARY, Ty::Bool)
                    }
                }
            }
            CExpr::Neg(inner) => {
                let t = self.expr(inner)?.into_int();
                Tr::new(format!("-{}", t.wrapped(PREC_UNARY)), PREC_UNARY, Ty::Int)
            }
            CExpr::Bin(op, l, r) => match *op {
                "||" | "&&" => {
                    let p = if *op == "||" { PREC_OR } else { PREC_AND };
                    let ls = self.expr(l)?.into_bool();
                    let rs = self.expr(r)?.into_bool();
                    Tr::new(
                        format!("{} {op} {}", ls.wrapped(p), rs.wrapped(p + 1)),
                        p,
                        Ty::Bool,
                    )
                }
                "+" | "-" => {
                    let ls = self.expr(l)?.into_int();
                    let rs = self.expr(r)?.into_int();
                    Tr::new(
                        format!("{} {op} {}", ls.wrapped(PREC_ADD), rs.wrapped(PREC_ADD + 1)),
                        PREC_ADD,
                        Ty::Int,
                    )
                }
                _ => self.compare(op, l, r)?,
            },
            CExpr::Ternary(c, a, b) => {
                // Conditions only: (c && a) || (!c && b).
                let cs = self.expr(c)?.into_bool();
                let as_ = self.expr(a)?.into_bool();
                let bs = self.expr(b)?.into_bool();
                Tr::new(
                    format!(
                        "({} && {}) || (!{} && {})",
                        cs.wrapped(PREC_AND + 1),
                        as_.wrapped(PREC_AND + 1),
                        cs.wrapped(PREC_ATOM),
                        bs.wrapped(PREC_AND + 1)
                    ),
                    PREC_OR,
                    Ty::Bool,
                )
            }
            CExpr::Call(name, args) => self.call(name, args)?,
        })
    }

    /// `a OP b`, typed as C has it: numbers compare as numbers (a condition as its truth
    /// value, `int(c)`); two conditions compare with `==`/`!=` as conditions.
    fn compare(&mut self, op: &'static str, l: &CExpr, r: &CExpr) -> Result<Tr, String> {
        // A C float is compared inside the engine: one predicate with the comparison in its
        // name (`effective_size(a) > 5` is `effective_size_gt(a, 5)`).
        for (call, other, op) in [(l, r, op), (r, l, flip(op))] {
            if let Some(mut c) = self.as_extern(call)?
                && c.ret == Ret::Float
            {
                c.name = format!("{}_{}", c.name, op_name(op));
                match other {
                    // A decimal constant goes in thousandths (`weakness(a) < 0.7` is
                    // `weakness_lt_milli(a, 700)`): Lens numbers are integers.
                    CExpr::Num(n) if n.contains('.') => {
                        let v = n.parse::<f64>().map_err(|_| format!("bad number `{n}`"))?;
                        let milli = (v * 1000.0).round();
                        if (milli - v * 1000.0).abs() > 1e-6 || milli.abs() > i32::MAX as f64 {
                            return Err(format!("`{n}` is not a whole number of thousandths"));
                        }
                        c.name.push_str("_milli");
                        c.args.push((milli as i64).to_string());
                    }
                    _ => c.args.push(self.expr(other)?.into_int().wrapped(PREC_OR)),
                }
                c.kinds.push("int");
                c.ret = Ret::Truth;
                return self.emit_call(c);
            }
        }
        let ls = self.expr(l)?;
        let rs = self.expr(r)?;
        if ls.ty == Ty::Bool && rs.ty == Ty::Bool && (op == "==" || op == "!=") {
            return Ok(Tr::new(
                format!("{} {op} {}", ls.wrapped(PREC_ADD), rs.wrapped(PREC_ADD)),
                PREC_CMP,
                Ty::Bool,
            ));
        }
        let (ls, rs) = (ls.into_int(), rs.into_int());
        Ok(Tr::new(
            format!("{} {op} {}", ls.wrapped(PREC_ADD), rs.wrapped(PREC_ADD)),
            PREC_CMP,
            Ty::Bool,
        ))
    }

    fn call(&mut self, name: &str, args: &[CExpr]) -> Result<Tr, String> {
        let helper = autohelpers::lookup(name);
        match helper.map(|h| h.mapping) {
            Some(Mapping::Libs) => {
                if args.len() != 1 {
                    return Err(format!("`{name}` takes 1 argument"));
                }
                Ok(Tr::new(
                    format!("libs({})", self.point(&args[0])?),
                    PREC_ATOM,
                    Ty::Int,
                ))
            }
            Some(m @ (Mapping::FriendSomewhere | Mapping::FoeSomewhere)) => {
                if args.is_empty() {
                    return Err(format!("`{name}` needs at least one point"));
                }
                let colour = if m == Mapping::FriendSomewhere {
                    "friend"
                } else {
                    "foe"
                };
                let terms = args
                    .iter()
                    .map(|a| Ok(format!("count({}, {colour}, 0)", self.point(a)?)))
                    .collect::<Result<Vec<_>, String>>()?;
                Ok(Tr::new(
                    format!("{} > 0", terms.join(" + ")),
                    PREC_CMP,
                    Ty::Bool,
                ))
            }
            Some(Mapping::Extern) | None => {
                let c = self
                    .as_extern(&CExpr::Call(name.to_string(), args.to_vec()))?
                    .ok_or("not an extern")?;
                self.emit_call(c)
            }
        }
    }
}

/// How far a pattern may reach from GNU Go's anchor to be focused on it: the anchor classes keep
/// fields of at most 19x19, as before wide patterns existed; wider ones go to the `_wide` class.
pub const ANCHOR_REACH: i32 = 9;

/// The largest distance from the focus a class field holds: the ROM format's 25x25
/// (`lens_vm::rom::MAX_FIELD`), used by the `_wide` class only.
pub const MAX_REACH: i32 = (lens_vm::rom::MAX_FIELD as i32 - 1) / 2;
// GNU Go's diagrams stop at 19x19: with edges, 21x21, whose middle reaches 10. All fit.
const _: () = assert!(MAX_REACH >= 10);

/// How far the drawing (edge rows and columns included) reaches from cell (r, c).
pub fn reach(p: &DbPattern, r: usize, c: usize) -> i32 {
    let d = &p.diagram;
    let top = -(d.edges.north as i32);
    let bottom = d.height() as i32 - 1 + d.edges.south as i32;
    let left = -(d.edges.west as i32);
    let right = d.width() as i32 - 1 + d.edges.east as i32;
    [
        top - r as i32,
        bottom - r as i32,
        left - c as i32,
        right - c as i32,
    ]
    .iter()
    .map(|v| v.abs())
    .max()
    .unwrap_or(0)
}

/// Whether some orientation the pattern is tried in maps its drawing (cells, edges, move) onto
/// itself about the focus while moving GNU Go's anchor: one placement, two GNU Go anchors.
fn symmetry_moves_anchor(p: &DbPattern, focus: (usize, usize), anchor: (usize, usize)) -> bool {
    let d = &p.diagram;
    let (h, w) = (d.height() as i32, d.width() as i32);
    let (fr, fc) = (focus.0 as i32, focus.1 as i32);
    let (top, bottom) = (-(d.edges.north as i32), h - 1 + d.edges.south as i32);
    let (left, right) = (-(d.edges.west as i32), w - 1 + d.edges.east as i32);
    let mut cells = Vec::new();
    for r in top..=bottom {
        for c in left..=right {
            let state = if r < 0 || r >= h || c < 0 || c >= w {
                "off"
            } else {
                states_text(d.cell(r as usize, c as usize))
            };
            cells.push((c - fc, r - fr, state));
        }
    }
    let mv = p.move_cell().map(|(r, c)| (c as i32 - fc, r as i32 - fr));
    let a = (anchor.1 as i32 - fc, anchor.0 as i32 - fr);
    let drawn = |t: lens_vm::geometry::Orientation| {
        let mut v: Vec<(i32, i32, &str)> = cells
            .iter()
            .map(|&(x, y, s)| {
                let (tx, ty) = t.apply(x, y);
                (tx, ty, s)
            })
            .collect();
        v.sort_unstable();
        (v, mv.map(|(x, y)| t.apply(x, y)))
    };
    let identity = drawn(lens_vm::geometry::Orientation::IDENTITY);
    lens_orientations(p.colon.symmetry)
        .into_iter()
        .filter_map(lens_vm::geometry::Orientation::new)
        .any(|t| t.apply(a.0, a.1) != a && drawn(t) == identity)
}

/// The Lens focus of a pattern: GNU Go's anchor when the pattern fits a 19x19 field around it,
/// else the cell that reaches least far (first in row-major order on a tie), drawn `@` with its
/// own states, in the file's `_wide` class (`focus any`, fields up to 25x25); `None` if nothing
/// fits. The anchor is then `attr gnugo_anchor_dx/dy` away from the focus.
pub fn focus_of(p: &DbPattern, anchor: (usize, usize, AnchorColour)) -> Option<(usize, usize)> {
    let (ar, ac, _) = anchor;
    if reach(p, ar, ac) <= ANCHOR_REACH {
        return Some((ar, ac));
    }
    p.cells()
        .map(|(r, c, _)| (reach(p, r, c), r, c))
        .min()
        .filter(|&(d, _, _)| d <= MAX_REACH)
        .map(|(_, r, c)| (r, c))
}

/// The class of patterns whose focus is not their anchor.
pub fn wide_class_name(stem: &str) -> String {
    format!("{stem}_wide")
}

/// Every class an import of `stem` may emit: O-anchored, X-anchored, wide (an import emits
/// only those that get patterns).
pub fn class_names(stem: &str) -> [String; 3] {
    [
        class_name(stem, AnchorColour::O),
        class_name(stem, AnchorColour::X),
        wide_class_name(stem),
    ]
}

/// The most arguments a Lens extern takes: the ROM format's limit.
const MAX_EXTERN_ARGS: usize = lens_vm::rom::MAX_ARGS;

/// Letters a label may use in Lens (`o`, `x`, `O`, `X` are symbols).
const FREE_LETTERS: &str = "mnpqrstuvwyzabcdefghijklMNPQRSTUVWYZABCDEFGHIJKL";

fn fmt_number(v: &str) -> String {
    // Attribute values are numbers in every public database; keep them as written.
    match v.parse::<i64>() {
        Ok(i) => i.to_string(),
        Err(_) => match v.parse::<f64>() {
            Ok(f) if f.is_finite() => {
                let s = format!("{f}");
                if s.contains('.') { s } else { format!("{s}.0") }
            }
            _ => format!("\"{}\"", escape(v)),
        },
    }
}

/// Lens string literal body (`"` and `\\` escaped, as the Lens lexer reads them).
fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn comment_text(s: &str) -> String {
    s.replace('\t', " ").trim_end().to_string()
}

/// One converted pattern (text of the `pattern` item) or the reason it was left out.
struct PatternOut {
    text: String,
    /// `None`: the `_wide` class.
    colour: Option<AnchorColour>,
    radius: i32,
    externs: Vec<String>,
}

/// Where a pattern sits: GNU Go's anchor, the Lens focus and the names of its points.
struct Layout {
    anchor: (usize, usize),
    colour: AnchorColour,
    focus: (usize, usize),
    /// The focus is not the anchor: the pattern goes to the file's `_wide` class.
    wide: bool,
    names: Names,
    /// Letters drawn in the diagram: GNU Go's labels, and those given to the move or anchor.
    cell_label: BTreeMap<(usize, usize), char>,
}

fn convert_pattern(
    p: &DbPattern,
    name: &str,
    stem: &str,
    opts: &Options,
    mkpat: &Mkpat,
    externs: &mut BTreeMap<String, ExternDecl>,
    globals: &mut Vec<String>,
) -> Result<PatternOut, String> {
    if p.move_cell().is_none() && !mkpat.connections {
        return Err("no `*` move (mkpat accepts patterns without one only with -c)".into());
    }
    let mut layout = layout(p, mkpat)?;
    let mut wheres = Vec::new();
    if layout.wide && symmetry_moves_anchor(p, layout.focus, layout.anchor) {
        // GNU Go reports one match per anchor, but the compiler merges orientation variants
        // that coincide about the focus. Naming the anchor in a test that always holds (a
        // stone is on the board) makes such variants differ, so each anchor is reported.
        let l = label_at(p, &mut layout.cell_label, layout.anchor, "anchor")?;
        wheres.push(format!("line({l}) > 0"));
    }
    // The constraint (dropped in geometric-only mode).
    let used_externs = if opts.geometric_only {
        Vec::new()
    } else {
        constraint(p, &layout.names, externs, globals, &mut wheres)?
    };

    let mut s = String::new();
    header_text(&mut s, p, name, stem, &layout);
    diagram_text(&mut s, p, &layout);
    for w in &wheres {
        let _ = writeln!(s, "    where {w};");
    }
    let value = p
        .colon
        .attributes
        .iter()
        .find(|(k, _)| k == "value" || k == "minvalue")
        .and_then(|(_, v)| v.parse::<f64>().ok())
        .map_or(0, |v| v.round() as i32);
    if p.move_cell().is_some() {
        let _ = writeln!(s, "    => {} {value};", layout.names.mov);
    } else {
        let _ = writeln!(s, "    => value {value};");
    }
    s.push_str("}\n");

    Ok(PatternOut {
        text: s,
        colour: (!layout.wide).then_some(layout.colour),
        radius: reach(p, layout.focus.0, layout.focus.1),
        externs: used_externs,
    })
}

/// The anchor and focus, and the point names: the focus's label becomes `*`; the move keeps
/// its label or gets a free letter (as does the anchor when it is neither focus nor move).
fn layout(p: &DbPattern, mkpat: &Mkpat) -> Result<Layout, String> {
    let (ar, ac, colour) = mkpat.anchor(p)?;
    let move_cell = p.move_cell();
    let (fr, fc) = focus_of(p, (ar, ac, colour)).ok_or_else(|| {
        format!(
            "no cell within {MAX_REACH} points of every other (Lens fields are at most {size}x{size})",
            size = 2 * MAX_REACH + 1
        )
    })?;
    let mut names = Names {
        labels: BTreeMap::new(),
        mov: "*".into(),
    };
    let mut cell_label: BTreeMap<(usize, usize), char> = BTreeMap::new();
    for (&l, &(r, c)) in &p.labels {
        if (r, c) == (fr, fc) {
            names.labels.insert(l, "*".into());
        } else {
            names.labels.insert(l, l.to_string());
            cell_label.insert((r, c), l);
        }
    }
    if move_cell == Some((fr, fc)) {
        // A wide pattern focused on its move (a whole-board handicap pattern's tengen).
        names.mov = "*".into();
    } else if let Some(mc) = move_cell {
        names.mov = label_at(p, &mut cell_label, mc, "move")?.to_string();
    } else if (fr, fc) != (ar, ac) {
        // No move: GNU Go's `*` is the anchor, which is not the focus here.
        names.mov = label_at(p, &mut cell_label, (ar, ac), "anchor")?.to_string();
    }
    Ok(Layout {
        anchor: (ar, ac),
        colour,
        focus: (fr, fc),
        wide: (fr, fc) != (ar, ac),
        names,
        cell_label,
    })
}

/// The letter drawn at `cell`: its label, else a letter no other point uses (`what` names
/// the point in the error when none is left).
fn label_at(
    p: &DbPattern,
    cell_label: &mut BTreeMap<(usize, usize), char>,
    cell: (usize, usize),
    what: &str,
) -> Result<char, String> {
    if let Some(&l) = cell_label.get(&cell) {
        return Ok(l);
    }
    let l = FREE_LETTERS
        .chars()
        .find(|l| !p.labels.contains_key(l) && !cell_label.values().any(|v| v == l))
        .ok_or_else(|| format!("no free letter left for the {what} label"))?;
    cell_label.insert(cell, l);
    Ok(l)
}

/// The constraint and the helper as `where` conditions; returns the externs they use. The
/// file's externs and globals are only extended when the whole translation succeeds.
fn constraint(
    p: &DbPattern,
    names: &Names,
    externs: &mut BTreeMap<String, ExternDecl>,
    globals: &mut Vec<String>,
    wheres: &mut Vec<String>,
) -> Result<Vec<String>, String> {
    let mut local = externs.clone();
    let mut local_globals = globals.clone();
    let mut t = Translator {
        names,
        externs: &mut local,
        globals: &mut local_globals,
        used: Vec::new(),
        value: p
            .colon
            .attributes
            .iter()
            .find(|(k, _)| k == "value")
            .map(|(_, v)| v.as_str()),
    };
    if let Some((_, text)) = &p.constraint {
        let e = cexpr::parse(text).map_err(|e| format!("constraint: {e}"))?;
        let e = cexpr::hoist_ternaries(e);
        let s = t
            .expr(&e)
            .map_err(|e| format!("constraint: {e}"))?
            .into_bool();
        wheres.push(s.text);
    }
    if let Some(h) = &p.colon.helper {
        // The hand-written C helper gates the pattern; an engine supplies it.
        let arg = names.mov.clone();
        let hn = extern_ident(h);
        t.declare(hn.clone(), vec!["point"], autohelpers::UNKNOWN_COST, false)?;
        wheres.push(format!("{hn}({arg})"));
    }
    let used = t.used;
    *externs = local;
    *globals = local_globals;
    Ok(used)
}

/// GNU Go's comments, the `pattern` line, the `gnugo_*` attributes and the orientations.
fn header_text(s: &mut String, p: &DbPattern, name: &str, stem: &str, layout: &Layout) {
    for c in &p.comments {
        let c = comment_text(c);
        if c.is_empty() {
            s.push_str("//\n");
        } else {
            let _ = writeln!(s, "// {c}");
        }
    }
    let class = if layout.wide {
        wide_class_name(stem)
    } else {
        class_name(stem, layout.colour)
    };
    let _ = writeln!(s, "pattern {name} : {class} {{");
    if name != p.name {
        let _ = writeln!(s, "    attr gnugo_name = \"{}\";", escape(&p.name));
    }
    let _ = writeln!(
        s,
        "    attr gnugo_class = \"{}\";",
        escape(&p.colon.classes)
    );
    let ((ar, ac), (fr, fc)) = (layout.anchor, layout.focus);
    if (fr, fc) != (ar, ac) {
        // GNU Go's anchor, from the focus in the drawn orientation.
        let _ = writeln!(s, "    attr gnugo_anchor_dx = {};", ac as i64 - fc as i64);
        let _ = writeln!(s, "    attr gnugo_anchor_dy = {};", ar as i64 - fr as i64);
    }
    if p.colon.symmetry != '8' {
        let _ = writeln!(
            s,
            "    attr gnugo_symmetry = \"{}\";",
            escape(&p.colon.symmetry.to_string())
        );
    }
    for (k, v) in &p.colon.attributes {
        let _ = writeln!(s, "    attr gnugo_{k} = {};", fmt_number(v));
    }
    if let Some(h) = &p.colon.helper {
        let _ = writeln!(s, "    attr gnugo_helper = \"{}\";", escape(h));
    }
    if let Some((_, a)) = &p.action {
        let _ = writeln!(s, "    attr gnugo_action = \"{}\";", escape(a));
    }
    if p.colon.symmetry != '8' {
        let o: Vec<String> = lens_orientations(p.colon.symmetry)
            .iter()
            .map(u8::to_string)
            .collect();
        let _ = writeln!(s, "    orientations {};", o.join(" "));
    }
}

/// The diagram, GNU Go's drawing with the focus as `*` (`@` in the `_wide` class) and labels
/// in place, and the legend its symbols need.
fn diagram_text(s: &mut String, p: &DbPattern, layout: &Layout) {
    let d = &p.diagram;
    let (w, h) = (d.width(), d.height());
    let edge_row = || {
        let mut r = String::new();
        if d.edges.west {
            r.push('+');
        }
        r.push_str(&"-".repeat(w));
        if d.edges.east {
            r.push('+');
        }
        r
    };
    let mut legend: Vec<String> = Vec::new();
    let mut rows: Vec<(String, Option<String>)> = Vec::new();
    if d.edges.north {
        rows.push((edge_row(), None));
    }
    for r in 0..h {
        let mut row = String::new();
        if d.edges.west {
            row.push('|');
        }
        for c in 0..w {
            let sym = d.cell(r, c);
            let out = if (r, c) == layout.focus && layout.wide {
                legend.push(format!("@ = {}, focus;", states_text(sym)));
                '@'
            } else if (r, c) == layout.focus {
                '*'
            } else if let Some(&l) = layout.cell_label.get(&(r, c)) {
                let states = states_text(sym);
                if l.is_ascii_uppercase() || states != "empty" {
                    let entry = format!("{l} = {states};");
                    if !legend.contains(&entry) {
                        legend.push(entry);
                    }
                }
                l
            } else {
                match sym {
                    'Q' => 'O',
                    'Y' => 'X',
                    '*' => '.',
                    // `,` separates legend entries in Lens, so GNU Go's `,` is drawn `'`.
                    ',' | '!' => {
                        let drawn = if sym == ',' { '\'' } else { '!' };
                        let entry = format!("{drawn} = empty;");
                        if !legend.contains(&entry) {
                            legend.push(entry);
                        }
                        drawn
                    }
                    other => other,
                }
            };
            row.push(out);
        }
        if d.edges.east {
            row.push('|');
        }
        rows.push((row, d.row_comments[r].clone()));
    }
    if d.edges.south {
        rows.push((edge_row(), None));
    }
    s.push_str("    diagram {\n");
    for (row, comment) in rows {
        let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
        match comment {
            Some(cm) => {
                let _ = writeln!(s, "        {}  // {}", cells.join(" "), comment_text(&cm));
            }
            None => {
                let _ = writeln!(s, "        {}", cells.join(" "));
            }
        }
    }
    s.push_str("    }\n");
    if !legend.is_empty() {
        let _ = writeln!(s, "    legend {{ {} }}", legend.join(" "));
    }
}

/// GNU Go's calling convention for a database (how `matchpat` is called on it).
pub fn call_mode(stem: &str) -> &'static str {
    match stem {
        "conn" | "defense" | "influence" => "ANCHOR_COLOR",
        "attack" => "ANCHOR_OTHER",
        _ => "plain",
    }
}

/// Convert a parsed database. The text is not yet formatted (see [`super::import_str`]).
pub fn convert(db: &Database, opts: &Options, report: &mut FileReport) -> String {
    let stem = stem_ident(&db.file);
    let mkpat = report.mkpat.clone();
    let mode = mkpat.anchor;
    let mut externs: BTreeMap<String, ExternDecl> = BTreeMap::new();
    let mut globals: Vec<String> = Vec::new();
    let mut seen_names: BTreeMap<String, usize> = BTreeMap::new();
    let mut outs = Vec::new();
    for p in &db.patterns {
        let n = seen_names.entry(p.name.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 {
            p.name.clone()
        } else {
            format!("{}_{}", p.name, n)
        };
        match convert_pattern(p, &name, &stem, opts, &mkpat, &mut externs, &mut globals) {
            Ok(o) => {
                report.outcomes.push(if o.externs.is_empty() {
                    PatternOutcome::Full {
                        name: p.name.clone(),
                    }
                } else {
                    PatternOutcome::WithExterns {
                        name: p.name.clone(),
                        externs: o.externs.clone(),
                    }
                });
                if p.action.is_some() {
                    report.actions_carried += 1;
                }
                outs.push(o);
            }
            Err(reason) => report.outcomes.push(PatternOutcome::NotImported {
                name: p.name.clone(),
                line: p.line,
                reason,
            }),
        }
    }

    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Imported from GNU Go's `{}` by `lensc import gnugo` (GPL data: do not commit).",
        report.file
    );
    let anchors = match mode {
        AnchorMode::O => "O stones",
        AnchorMode::X => "X stones",
        AnchorMode::Both => "stones of either colour",
    };
    let _ = writeln!(
        s,
        "// mkpat options: {} ({}).",
        mkpat,
        report.mkpat_source.as_str()
    );
    let rule = if mkpat.centre_anchor {
        ", the one nearest the middle (-m)"
    } else if mkpat.fixed_anchor {
        ", the Q/Y mark (-a)"
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "// Anchors: {anchors}{rule}; the focus `*` is GNU Go's anchor, the move is a label."
    );
    let _ = writeln!(
        s,
        "// GNU Go calls this database {}: {}.",
        call_mode(&stem),
        match call_mode(&stem) {
            "ANCHOR_COLOR" => "perspective = the anchor stone's colour",
            "ANCHOR_OTHER" => "perspective = the opposite of the anchor stone's colour",
            _ => "perspective = the side to move, anchors of both colours",
        }
    );
    for d in &db.directives {
        let _ = writeln!(
            s,
            "// gnugo directive (line {}): {} {}",
            d.line, d.name, d.value
        );
    }
    s.push('\n');
    globals.sort();
    for g in &globals {
        let _ = writeln!(s, "global {g};");
    }
    for e in externs.values() {
        let _ = writeln!(
            s,
            "extern {}({}){} cost {};",
            e.name,
            e.params.join(", "),
            if e.returns_int { ": int" } else { "" },
            e.cost
        );
    }
    if !externs.is_empty() || !globals.is_empty() {
        s.push('\n');
    }
    for colour in [Some(AnchorColour::O), Some(AnchorColour::X), None] {
        let members: Vec<&PatternOut> = outs.iter().filter(|o| o.colour == colour).collect();
        if members.is_empty() {
            continue;
        }
        let radius = members.iter().map(|o| o.radius).max().unwrap_or(1).max(1);
        let size = 2 * radius + 1;
        let (focus, cname) = match colour {
            Some(AnchorColour::O) => ("friend", class_name(&stem, AnchorColour::O)),
            Some(AnchorColour::X) => ("foe", class_name(&stem, AnchorColour::X)),
            None => ("any", wide_class_name(&stem)),
        };
        let _ = writeln!(s, "class {cname} {{");
        let _ = writeln!(
            s,
            "    mode all;\n    focus {focus};\n    field {size}x{size};\n    orient all;\n}}\n"
        );
        report.classes.push((cname, members.len()));
    }
    for o in &outs {
        s.push_str(&o.text);
        s.push('\n');
    }
    report.externs = externs.into_values().collect();
    report.globals = globals;
    while s.ends_with("\n\n") {
        s.pop();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::gnugo::{Options, import_str};
    use lens_vm::geometry::Orientation;

    /// GNU Go's `transformation2[ll]` applied to (i, j) = (row down, column right).
    fn gnugo_apply(ll: usize, i: i32, j: i32) -> (i32, i32) {
        const M: [[[i32; 2]; 2]; 8] = [
            [[1, 0], [0, 1]],
            [[0, 1], [-1, 0]],
            [[-1, 0], [0, -1]],
            [[0, -1], [1, 0]],
            [[0, -1], [-1, 0]],
            [[-1, 0], [0, 1]],
            [[0, 1], [1, 0]],
            [[1, 0], [0, -1]],
        ];
        let m = M[ll];
        (m[0][0] * i + m[0][1] * j, m[1][0] * i + m[1][1] * j)
    }

    #[test]
    fn gnugo_transforms_are_lens_orientations() {
        for (ll, &lens) in GNUGO_TO_LENS.iter().enumerate() {
            let o = Orientation::new(lens).unwrap();
            for (i, j) in [(1, 0), (0, 1), (2, -3)] {
                let (ti, tj) = gnugo_apply(ll, i, j);
                // Lens (dx, dy) = GNU Go (j, i).
                assert_eq!(o.apply(j, i), (tj, ti), "ll {ll}");
            }
        }
        assert_eq!(lens_orientations('8'), vec![0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(lens_orientations('|'), vec![0, 1, 2, 3]);
        assert_eq!(lens_orientations('X'), vec![0, 1]);
        assert_eq!(lens_orientations('O'), vec![2, 3, 5, 6]);
    }

    const DB: &str = "\
attribute_map general

Pattern T1

?X?.       hane
.O*o
....
----

:|,OB,value(12.6),shape(-1)

?A?.
.O*b
....
----

;lib(A)>1 && (o_somewhere(b) ? xlib(*) : !attack(A)) && doing_scoring

Pattern T2

O.Y
.*O

:8,-

Pattern T3

...
.*.

:8,-

Pattern T4

O*

:8,-
";

    #[test]
    fn converts_anchor_labels_symmetry_and_tests() {
        let out = import_str("t.db", DB, &Options::default());
        let s = &out.source;
        assert!(s.contains("class t_anchor_o {"), "{s}");
        assert!(s.contains("class t_anchor_x {"), "{s}");
        // T1: the first stone (X at row 0) anchors; `A` is that stone, so `A` becomes `*`.
        assert!(s.contains("pattern T1 : t_anchor_x {"), "{s}");
        assert!(s.contains("orientations 0 1 2 3;"), "{s}");
        assert!(s.contains("attr gnugo_value = 12.6;"), "{s}");
        assert!(s.contains("=> m 13;"), "{s}");
        assert!(
            s.contains("where libs(*) > 1 && (count(b, friend, 0) > 0 && xlib(m) != 0 || !(count(b, friend, 0) > 0) && attack(*) == 0) && doing_scoring != 0;"),
            "{s}"
        );
        assert!(s.contains("legend { b = friend | empty; }"), "{s}");
        assert!(s.contains(". O m b"), "{s}");
        assert!(s.contains("extern xlib(point): int cost 5;"), "{s}");
        assert!(s.contains("global doing_scoring;"), "{s}");
        // T2: an explicit Y anchor wins over the first stone.
        let t2 = &s[s.find("pattern T2").unwrap()..];
        assert!(t2.starts_with("pattern T2 : t_anchor_x {"), "{t2}");
        assert!(t2.contains("O . *"), "{t2}");
        // T3 has no stone: not imported, with the reason.
        assert_eq!(out.report.imported(), 3);
        assert_eq!(out.report.full(), 2);
        assert_eq!(out.report.with_externs(), 1);
        assert!(
            matches!(&out.report.outcomes[2], PatternOutcome::NotImported { name, .. } if name == "T3")
        );
    }

    #[test]
    fn does_surround_is_a_number_and_statuses_are_constants() {
        // GNU Go's `does_surround` returns 0, 1 (surrounded) or 2 (weakly surrounded).
        let db =
            "Pattern S1\n\nO*X\n\n:8,-\n\nOab\n\n;does_surround(*,b)==2 && status(b)!=CRITICAL\n";
        let s = import_str("s.db", db, &Options::default()).source;
        // Dragon statuses are `liberty.h`'s enum values, not engine variables.
        assert!(
            s.contains("where does_surround(a, b) == 2 && status(b) != 2;"),
            "{s}"
        );
        assert!(!s.contains("global"), "{s}");
        assert!(
            s.contains("extern does_surround(point, point): int cost 100;"),
            "{s}"
        );
        let (sources, result) = crate::compile_str("s.lens", &s, &Default::default());
        if let Err(d) = result {
            panic!("{}", lens_dsl::render_human(&sources, &d, false));
        }
    }

    #[test]
    fn engine_numbers_are_typed_as_gnugo_has_them() {
        let db = "Pattern C1\n\nO*X\n\n:8,-\n\nOab\n\n;olib(*) > 1 && 3 < xlib(a) && xplay_attack(*,?,b)<WIN && !lib(b)\n\n\
                  Pattern C2\n\nO*X\n\n:8,-\n\nOab\n\n;olib(a) + lib(b) > 2 && (alive(b) + 1 > 1) && !attack(b) == 1\n\n\
                  Pattern C3\n\nO*X\n\n:8,-\n\nOab\n\n;effective_size(b) >= 5 && (alive(b) ? olib(a) : 2) < 3\n\n\
                  Pattern C4\n\nO*X\n\n:8,-\n\nOab\n\n;weakness(b) < 0.7 && 0.25 <= weakness(b)\n\n\
                  Pattern C5\n\nO*X\n\n:8,-\n\nOab\n\n;lib(b) > 1.5\n\n\
                  Pattern C6\n\nO*X\n\n:8,-,value(40)\n\nOab\n\n;owl_escape_value(b) + value > 45 && value() < 50\n\n\
                  Pattern C7\n\nO*X\n\n:8,-\n\nOab\n\n;(alive(b) ? 2 : -olib(a)) + lib(b) > 3 && (alive(b) ? olib(a) : 0)\n";
        let out = import_str("c.db", db, &Options::default());
        let s = &out.source;
        // Numbers stay numbers: `: int` externs compared in Lens.
        assert!(
            s.contains(
                "where olib(a) > 1 && 3 < xlib(a) && xplay_attack_3_t1(a, b) < 5 && libs(b) == 0;"
            ),
            "{s}"
        );
        assert!(
            s.contains("extern xplay_attack_3_t1(point, point): int cost 100;"),
            "{s}"
        );
        // A truth value used as a number is `int(c)`; `!x == 1` is `(!x) == 1`.
        assert!(
            s.contains(
                "where olib(a) + libs(b) > 2 && int(alive(b)) + 1 > 1 && int(attack(b) == 0) == 1;"
            ),
            "{s}"
        );
        assert!(s.contains("extern alive(point) cost 1;"), "{s}");
        // A C float is compared by the engine; a `?:` compared with a number distributes.
        assert!(
            s.contains(
                "where effective_size_ge(b, 5) && (alive(b) && olib(a) < 3 || !alive(b) && 2 < 3);"
            ),
            "{s}"
        );
        // A decimal compared with a float: in thousandths, the name says so.
        assert!(
            s.contains("where weakness_lt_milli(b, 700) && weakness_ge_milli(b, 250);"),
            "{s}"
        );
        assert!(
            s.contains("extern weakness_lt_milli(point, int) cost 1;"),
            "{s}"
        );
        // mkpat's `value` is the pattern's value attribute.
        assert!(
            s.contains("where owl_escape_value(b) + 40 > 45 && 40 < 50;"),
            "{s}"
        );
        // A `?:` of numbers: the arithmetic and the comparison move into its branches; in a
        // condition, its branches are truth values.
        assert!(
            s.contains("where (alive(b) && 2 + libs(b) > 3 || !alive(b) && -olib(a) + libs(b) > 3) && (alive(b) && olib(a) != 0 || !alive(b) && 0 != 0);"),
            "{s}"
        );
        // A decimal anywhere else has no Lens form: reported, not guessed.
        assert_eq!(out.report.not_imported(), 1);
        let PatternOutcome::NotImported { reason, .. } = &out.report.outcomes[4] else {
            panic!()
        };
        assert!(reason.contains("non-integer"), "{reason}");
    }

    /// Compiles imported text, panicking with the diagnostics; returns the class fields.
    fn fields_of(source: &str) -> Vec<(String, (u8, u8))> {
        let (sources, result) = crate::compile_str("w.lens", source, &Default::default());
        let bytes = match result {
            Ok(c) => c.rom,
            Err(d) => panic!("{}\n{source}", lens_dsl::render_human(&sources, &d, false)),
        };
        let rom = lens_vm::Rom::from_bytes(&bytes).unwrap();
        (0..rom.class_count())
            .map(|i| {
                let c = rom.class(lens_vm::ClassId(i as u32)).unwrap();
                (c.name().to_string(), (c.width(), c.height()))
            })
            .collect()
    }

    #[test]
    fn symmetric_wide_patterns_keep_each_anchor() {
        // 19 columns: the X at column 0 anchors (-b), reaching 18 > 9 points, so the focus is
        // the move at column 9 (`=> *`). Mirrored east-west the drawing is the same about the
        // focus but GNU Go's anchor is the other X: a test naming the anchor keeps the two apart.
        let row = "X........*........X";
        let db =
            format!("Pattern W\n\n{row}\n\n:8,-\n\nPattern V\n\nX........*.......OX\n\n:8,-\n");
        let out = import_str(
            "w.db",
            &db,
            &Options {
                geometric_only: true,
                ..Default::default()
            },
        );
        let s = &out.source;
        let w = &s[s.find("pattern W").unwrap()..s.find("pattern V").unwrap()];
        assert!(w.contains("where line(m) > 0;"), "{w}");
        assert!(w.contains("m = foe;"), "{w}");
        assert!(w.contains("=> * 0;"), "{w}");
        // Not symmetric: no such test.
        let v = &s[s.find("pattern V").unwrap()..];
        assert!(!v.contains("where"), "{v}");
        assert_eq!(fields_of(s), vec![("w_wide".to_string(), (19, 19))]);
    }

    #[test]
    fn patterns_wider_than_19_use_fields_up_to_25() {
        // 19 columns between two edges: every cell reaches at least 10 points (an edge), more
        // than a 19x19 field holds; the middle column reaches exactly 10, so a 21x21 field.
        let db = "Pattern Side\n\n|X........*........X|\n|...................|\n+-------------------+\n\n:|,-\n";
        let out = import_str(
            "w.db",
            db,
            &Options {
                geometric_only: true,
                ..Default::default()
            },
        );
        assert_eq!(out.report.not_imported(), 0, "{}", out.report.to_text());
        assert!(
            out.source.contains("pattern Side : w_wide"),
            "{}",
            out.source
        );
        assert_eq!(
            fields_of(&out.source),
            vec![("w_wide".to_string(), (21, 21))]
        );
    }

    #[test]
    fn geometric_only_drops_tests_and_externs() {
        let out = import_str(
            "t.db",
            DB,
            &Options {
                geometric_only: true,
                ..Default::default()
            },
        );
        assert!(!out.source.contains("where"));
        assert!(!out.source.contains("extern"));
        assert_eq!(out.report.full(), 3);
    }

    #[test]
    fn anchor_modes_follow_mkpat() {
        let (db, _) = crate::import::gnugo::parse_db("t.db", "Pattern A\n\n.X.O\n.*..\n\n:8,-\n");
        let p = &db.patterns[0];
        let anchor = |opts: &str| Mkpat::parse(opts).unwrap().anchor(p).unwrap();
        assert_eq!(anchor("-b"), (0, 1, AnchorColour::X));
        assert_eq!(anchor("-O"), (0, 3, AnchorColour::O));
        assert_eq!(anchor("-X"), (0, 1, AnchorColour::X));
    }

    #[test]
    fn options_are_applied_and_reported() {
        // Without -c a pattern needs a move; with -m the anchor is the middle stone.
        let db = "Pattern M\n\n?O?\nX*X\n.Y.\n\n:8,-\n\nPattern N\n\nXO\n\n:8,-\n";
        let opts = Options {
            mkpat: Some(Mkpat::parse("-D -m -b").unwrap()),
            ..Default::default()
        };
        let out = import_str("mine.db", db, &opts);
        let s = &out.source;
        assert!(s.contains("// mkpat options: -D -m -b (given)."), "{s}");
        assert!(s.contains("the one nearest the middle (-m)"), "{s}");
        // The left X anchors: drawn `*`; the Y is a plain X stone and the move a label.
        assert!(s.contains("pattern M : mine_anchor_x {"), "{s}");
        assert!(s.contains("* m X"), "{s}");
        assert!(s.contains(". X ."), "{s}");
        let PatternOutcome::NotImported { reason, .. } = &out.report.outcomes[1] else {
            panic!("{:?}", out.report.outcomes)
        };
        assert!(reason.contains("only with -c"), "{reason}");
        assert!(
            out.report
                .to_text()
                .contains("mkpat -D -m -b (given); anchors both nearest the middle")
        );
        // By file name: owl_attackpats.db is built with -D -m -b.
        let out = import_str("owl_attackpats.db", db, &Options::default());
        assert_eq!(out.report.mkpat.to_string(), "-D -m -b");
        assert_eq!(
            out.report.mkpat_source,
            crate::import::gnugo::MkpatSource::MakefileAm
        );
        // --anchor overrides the colours only.
        let out = import_str(
            "owl_attackpats.db",
            db,
            &Options {
                anchor: Some(AnchorMode::O),
                ..Default::default()
            },
        );
        assert_eq!(out.report.mkpat.to_string(), "-D -m");
        assert!(
            out.source.contains("pattern M : owl_attackpats_anchor_o {"),
            "{}",
            out.source
        );
    }
}
