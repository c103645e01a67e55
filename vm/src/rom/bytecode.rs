//! Test bytecode (format v1): a stack machine over `i32` values, no jumps. One `TestSpec` is
//! one code block that leaves exactly one value; a pattern's tests are separate blocks run in
//! order (cheapest first) and the first zero rejects. Inside one block every operand is
//! evaluated (host predicates must be pure).
//!
//! Encoding: one opcode byte, then operands. Points are `dx: i8, dy: i8` in the pattern's
//! drawn orientation (the VM maps them through the matched variant); colours are 0 friend,
//! 1 foe.

/// Maximum stack depth a block may reach (checked by the loader).
pub const MAX_STACK: usize = 32;
/// Maximum extern arguments: GNU Go's mkpat allows 20 per autohelper call (`MAXPARAMS`), so
/// every imported call fits. The count is one byte in the code and in the externs table.
pub const MAX_ARGS: usize = 20;

pub const OP_INT: u8 = 0x01;
pub const OP_LIBS: u8 = 0x02;
pub const OP_LINE: u8 = 0x03;
pub const OP_ATARI: u8 = 0x04;
pub const OP_NBR_ATARI: u8 = 0x05;
pub const OP_DIST: u8 = 0x06;
pub const OP_COUNT: u8 = 0x07;
pub const OP_ANY: u8 = 0x08;
pub const OP_ADJ: u8 = 0x09;
pub const OP_EMPTY8: u8 = 0x0A;
pub const OP_EMPTY25: u8 = 0x0B;
pub const OP_MARK: u8 = 0x0C;
pub const OP_GLOBAL: u8 = 0x0D;
pub const OP_EXTERN: u8 = 0x0E;
pub const OP_NOT: u8 = 0x10;
pub const OP_NEG: u8 = 0x11;
/// Binary operators: `0x20 + BinOp index` (or and eq ne lt le gt ge add sub).
pub const OP_BIN: u8 = 0x20;

/// Argument kinds of `OP_EXTERN`.
pub const ARG_POINT: u8 = 0;
pub const ARG_INT: u8 = 1;
pub const ARG_COLOUR: u8 = 2;

/// Binary operators in encoding order (`OP_BIN + op as u8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bin {
    /// `||`: 1 when either operand is non-zero.
    Or,
    /// `&&`: 1 when both operands are non-zero.
    And,
    /// `==`, 1 or 0.
    Eq,
    /// `!=`, 1 or 0.
    Ne,
    /// `<`, 1 or 0.
    Lt,
    /// `<=`, 1 or 0.
    Le,
    /// `>`, 1 or 0.
    Gt,
    /// `>=`, 1 or 0.
    Ge,
    /// `+`, wrapping.
    Add,
    /// `-`, wrapping.
    Sub,
}

impl Bin {
    /// Every operator, in encoding order.
    pub const ALL: [Bin; 10] = [
        Bin::Or,
        Bin::And,
        Bin::Eq,
        Bin::Ne,
        Bin::Lt,
        Bin::Le,
        Bin::Gt,
        Bin::Ge,
        Bin::Add,
        Bin::Sub,
    ];
    /// The operator as written in `.lens` sources.
    #[cfg(feature = "alloc")]
    pub fn symbol(self) -> &'static str {
        match self {
            Bin::Or => "||",
            Bin::And => "&&",
            Bin::Eq => "==",
            Bin::Ne => "!=",
            Bin::Lt => "<",
            Bin::Le => "<=",
            Bin::Gt => ">",
            Bin::Ge => ">=",
            Bin::Add => "+",
            Bin::Sub => "-",
        }
    }
    /// The operator's value on two operands (both always evaluated: no short circuit).
    #[inline]
    pub fn apply(self, a: i32, b: i32) -> i32 {
        match self {
            Bin::Or => ((a != 0) || (b != 0)) as i32,
            Bin::And => ((a != 0) && (b != 0)) as i32,
            Bin::Eq => (a == b) as i32,
            Bin::Ne => (a != b) as i32,
            Bin::Lt => (a < b) as i32,
            Bin::Le => (a <= b) as i32,
            Bin::Gt => (a > b) as i32,
            Bin::Ge => (a >= b) as i32,
            Bin::Add => a.wrapping_add(b),
            Bin::Sub => a.wrapping_sub(b),
        }
    }
}

/// A decoded instruction. `Extern` carries the raw argument bytes (decode with [`args`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op<'a> {
    Int(i32),
    Libs(i8, i8),
    Line(i8, i8),
    Atari(i8, i8),
    NbrAtari(i8, i8, u8),
    Dist(i8, i8, u8),
    Count {
        dx: i8,
        dy: i8,
        states: u8,
        radius: u8,
    },
    Any(i8, i8, u8),
    Adj(i8, i8),
    Empty8(i8, i8),
    Empty25(i8, i8),
    Mark(i8, i8),
    Global(u16),
    Extern {
        index: u16,
        nargs: u8,
        args: &'a [u8],
    },
    Not,
    Neg,
    Bin(Bin),
}

/// How far from the focus one instruction looks (the incremental scan's reach is built from
/// it), so a new predicate states its reach beside its encoding.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpReach {
    /// Point states within Chebyshev distance `radius` of the focus (0 for constants,
    /// operators and `line`, which reads only the coordinates); `libs`: also the liberties of
    /// the strings there.
    Near { radius: i32, libs: bool },
    /// Anywhere on the board (`dist`).
    Board,
    /// The host's answers (globals, marks, externs).
    Host,
}

#[cfg(feature = "alloc")]
impl Op<'_> {
    /// How far the instruction looks from the focus, in any orientation.
    pub(crate) fn reach(&self) -> OpReach {
        let cheb = |dx: i8, dy: i8| (dx as i32).abs().max((dy as i32).abs());
        let near = |radius: i32, libs: bool| OpReach::Near { radius, libs };
        match *self {
            Op::Libs(dx, dy) | Op::Atari(dx, dy) => near(cheb(dx, dy), true),
            Op::NbrAtari(dx, dy, _) => near(cheb(dx, dy) + 1, true),
            Op::Count { dx, dy, radius, .. } => near(cheb(dx, dy) + radius as i32, false),
            // The 9x9 square around the point.
            Op::Any(dx, dy, _) => near(cheb(dx, dy) + 4, false),
            Op::Adj(dx, dy) | Op::Empty8(dx, dy) => near(cheb(dx, dy) + 1, false),
            Op::Empty25(dx, dy) => near(cheb(dx, dy) + 2, false),
            Op::Dist(..) => OpReach::Board,
            Op::Mark(..) | Op::Global(_) | Op::Extern { .. } => OpReach::Host,
            Op::Int(_) | Op::Line(..) | Op::Not | Op::Neg | Op::Bin(_) => near(0, false),
        }
    }
}

/// One decoded extern argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawArg {
    Point(i8, i8),
    Int(i32),
    Colour(u8),
}

/// Decode the instruction at `pc`; returns it and the next pc, or a reason.
pub fn decode(code: &[u8], pc: usize) -> Result<(Op<'_>, usize), &'static str> {
    let op = *code.get(pc).ok_or("truncated instruction")?;
    let need = |n: usize| -> Result<&[u8], &'static str> {
        code.get(pc + 1..pc + 1 + n).ok_or("truncated operand")
    };
    let pt = |s: &[u8]| (s[0] as i8, s[1] as i8);
    Ok(match op {
        OP_INT => {
            let s = need(4)?;
            (
                Op::Int(i32::from_le_bytes([s[0], s[1], s[2], s[3]])),
                pc + 5,
            )
        }
        OP_LIBS | OP_LINE | OP_ATARI | OP_ADJ | OP_EMPTY8 | OP_EMPTY25 | OP_MARK => {
            let (dx, dy) = pt(need(2)?);
            let o = match op {
                OP_LIBS => Op::Libs(dx, dy),
                OP_LINE => Op::Line(dx, dy),
                OP_ATARI => Op::Atari(dx, dy),
                OP_ADJ => Op::Adj(dx, dy),
                OP_EMPTY8 => Op::Empty8(dx, dy),
                OP_EMPTY25 => Op::Empty25(dx, dy),
                _ => Op::Mark(dx, dy),
            };
            (o, pc + 3)
        }
        OP_NBR_ATARI | OP_DIST | OP_ANY => {
            let s = need(3)?;
            let (dx, dy) = pt(s);
            let o = match op {
                OP_NBR_ATARI => Op::NbrAtari(dx, dy, s[2]),
                OP_DIST => Op::Dist(dx, dy, s[2]),
                _ => Op::Any(dx, dy, s[2]),
            };
            (o, pc + 4)
        }
        OP_COUNT => {
            let s = need(4)?;
            (
                Op::Count {
                    dx: s[0] as i8,
                    dy: s[1] as i8,
                    states: s[2],
                    radius: s[3],
                },
                pc + 5,
            )
        }
        OP_GLOBAL => {
            let s = need(2)?;
            (Op::Global(u16::from_le_bytes([s[0], s[1]])), pc + 3)
        }
        OP_EXTERN => {
            let s = need(3)?;
            let index = u16::from_le_bytes([s[0], s[1]]);
            let nargs = s[2];
            let start = pc + 4;
            let mut p = start;
            for _ in 0..nargs {
                let kind = *code.get(p).ok_or("truncated extern argument")?;
                let n = match kind {
                    ARG_POINT => 2,
                    ARG_INT => 4,
                    ARG_COLOUR => 1,
                    _ => return Err("unknown extern argument kind"),
                };
                code.get(p + 1..p + 1 + n)
                    .ok_or("truncated extern argument")?;
                p += 1 + n;
            }
            (
                Op::Extern {
                    index,
                    nargs,
                    args: &code[start..p],
                },
                p,
            )
        }
        OP_NOT => (Op::Not, pc + 1),
        OP_NEG => (Op::Neg, pc + 1),
        b if (OP_BIN..OP_BIN + 10).contains(&b) => {
            (Op::Bin(Bin::ALL[(b - OP_BIN) as usize]), pc + 1)
        }
        _ => return Err("unknown opcode"),
    })
}

/// Iterate the arguments of an already decoded `Extern`.
pub fn args(raw: &[u8]) -> impl Iterator<Item = RawArg> + '_ {
    let mut p = 0;
    core::iter::from_fn(move || {
        let kind = *raw.get(p)?;
        let a = match kind {
            ARG_POINT => {
                let a = RawArg::Point(*raw.get(p + 1)? as i8, *raw.get(p + 2)? as i8);
                p += 3;
                a
            }
            ARG_INT => {
                let s = raw.get(p + 1..p + 5)?;
                p += 5;
                RawArg::Int(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))
            }
            _ => {
                let c = *raw.get(p + 1)?;
                p += 2;
                RawArg::Colour(c)
            }
        };
        Some(a)
    })
}

/// Validate one block: every instruction decodes, operands are in range, the stack never
/// underflows or exceeds [`MAX_STACK`], and exactly one value remains. Returns the offset
/// within the block and a reason on failure.
pub fn validate(
    code: &[u8],
    globals: usize,
    extern_arity: &dyn Fn(u16) -> Option<u8>,
) -> Result<(), (usize, &'static str)> {
    let mut pc = 0;
    let mut depth: usize = 0;
    while pc < code.len() {
        let (op, next) = decode(code, pc).map_err(|r| (pc, r))?;
        let point_ok = |dx: i8, dy: i8| (-24..=24).contains(&dx) && (-24..=24).contains(&dy);
        let (pops, bad): (usize, Option<&'static str>) = match op {
            Op::Int(_) => (0, None),
            Op::Libs(x, y)
            | Op::Line(x, y)
            | Op::Atari(x, y)
            | Op::Adj(x, y)
            | Op::Empty8(x, y)
            | Op::Empty25(x, y)
            | Op::Mark(x, y) => (0, (!point_ok(x, y)).then_some("point out of range")),
            Op::NbrAtari(x, y, c) | Op::Dist(x, y, c) => (
                0,
                if !point_ok(x, y) {
                    Some("point out of range")
                } else if c > 1 {
                    Some("bad colour")
                } else {
                    None
                },
            ),
            Op::Any(x, y, r) => (
                0,
                if !point_ok(x, y) {
                    Some("point out of range")
                } else if !(1..=3).contains(&r) {
                    Some("any() stone count not in 1..=3")
                } else {
                    None
                },
            ),
            Op::Count {
                dx,
                dy,
                states,
                radius,
            } => (
                0,
                if !point_ok(dx, dy) {
                    Some("point out of range")
                } else if states > 15 {
                    Some("bad state set")
                } else if radius > 12 {
                    Some("count() radius above 12")
                } else {
                    None
                },
            ),
            Op::Global(i) => (
                0,
                ((i as usize) >= globals).then_some("global index out of range"),
            ),
            Op::Extern {
                index,
                nargs,
                args: raw,
            } => {
                let mut bad = match extern_arity(index) {
                    None => Some("extern index out of range"),
                    Some(a) if a != nargs => Some("extern argument count differs from its arity"),
                    _ => None,
                };
                if nargs as usize > MAX_ARGS {
                    bad = Some("too many extern arguments");
                }
                for a in args(raw) {
                    match a {
                        RawArg::Point(x, y) if !point_ok(x, y) => bad = Some("point out of range"),
                        RawArg::Colour(c) if c > 1 => bad = Some("bad colour"),
                        _ => {}
                    }
                }
                (0, bad)
            }
            Op::Not | Op::Neg => (1, None),
            Op::Bin(_) => (2, None),
        };
        if let Some(r) = bad {
            return Err((pc, r));
        }
        if depth < pops {
            return Err((pc, "stack underflow"));
        }
        depth = depth - pops + 1;
        if depth > MAX_STACK {
            return Err((pc, "stack deeper than 32"));
        }
        pc = next;
    }
    if depth != 1 {
        return Err((pc, "block must leave exactly one value"));
    }
    Ok(())
}

/// Both directions between a test expression of the compiler's `RomSpec` and its bytecode:
/// with the opcodes, [`decode`] and [`validate`] above, the one home of each predicate's
/// encoding (the evaluator is `matching/bytecode_eval.rs`).
#[cfg(feature = "alloc")]
mod spec_codec {
    use super::*;
    use crate::rom::wire::{put_i32, put_u16};
    use crate::rom::write::{WriteError, off8};
    use crate::spec::{Colour, ExternArg, Offset, TestExpr};
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    /// Appends the bytecode of `e` (postfix: operands, then the operator).
    pub(crate) fn encode(e: &TestExpr, c: &mut Vec<u8>) -> Result<(), WriteError> {
        let pt = |c: &mut Vec<u8>, op: u8, o: &Offset| -> Result<(), WriteError> {
            c.extend_from_slice(&[op, off8(o.dx, "test")? as u8, off8(o.dy, "test")? as u8]);
            Ok(())
        };
        let col = |k: &crate::spec::Colour| match k {
            crate::spec::Colour::Friend => 0u8,
            crate::spec::Colour::Foe => 1u8,
        };
        match e {
            TestExpr::Int(v) => {
                c.push(OP_INT);
                put_i32(c, *v);
            }
            TestExpr::Libs(o) => pt(c, OP_LIBS, o)?,
            TestExpr::Line(o) => pt(c, OP_LINE, o)?,
            TestExpr::Atari(o) => pt(c, OP_ATARI, o)?,
            TestExpr::NbrAtari(o, k) => {
                pt(c, OP_NBR_ATARI, o)?;
                c.push(col(k));
            }
            TestExpr::Dist(o, k) => {
                pt(c, OP_DIST, o)?;
                c.push(col(k));
            }
            TestExpr::Count { at, states, radius } => {
                pt(c, OP_COUNT, at)?;
                c.extend_from_slice(&[*states, *radius]);
            }
            TestExpr::Any { at, stones: radius } => {
                pt(c, OP_ANY, at)?;
                c.push(*radius);
            }
            TestExpr::Adj(o) => pt(c, OP_ADJ, o)?,
            TestExpr::Empty8(o) => pt(c, OP_EMPTY8, o)?,
            TestExpr::Empty25(o) => pt(c, OP_EMPTY25, o)?,
            TestExpr::Mark(o) => pt(c, OP_MARK, o)?,
            TestExpr::Global(i) => {
                c.push(OP_GLOBAL);
                put_u16(c, *i);
            }
            TestExpr::Extern { index, args } => {
                if args.len() > MAX_ARGS {
                    return Err(WriteError("more than 20 extern arguments".into()));
                }
                c.push(OP_EXTERN);
                put_u16(c, *index);
                c.push(args.len() as u8);
                for a in args {
                    match a {
                        ExternArg::Point(o) => c.extend_from_slice(&[
                            ARG_POINT,
                            off8(o.dx, "test")? as u8,
                            off8(o.dy, "test")? as u8,
                        ]),
                        ExternArg::Int(v) => {
                            c.push(ARG_INT);
                            put_i32(c, *v);
                        }
                        ExternArg::Colour(k) => c.extend_from_slice(&[ARG_COLOUR, col(k)]),
                    }
                }
            }
            TestExpr::Not(a) => {
                encode(a, c)?;
                c.push(OP_NOT);
            }
            TestExpr::Neg(a) => {
                encode(a, c)?;
                c.push(OP_NEG);
            }
            TestExpr::Bin(op, a, b) => {
                encode(a, c)?;
                encode(b, c)?;
                c.push(OP_BIN + *op as u8);
            }
        }
        Ok(())
    }

    /// A test block back to its expression: the inverse of the writer's encoding, which is
    /// one-to-one. Errors give the offset within the block and the reason (an undecodable
    /// instruction, an operator without its operands, or not exactly one value left).
    pub fn decode_test(code: &[u8]) -> Result<TestExpr, (usize, &'static str)> {
        let mut stack: Vec<TestExpr> = Vec::new();
        let at = |dx: i8, dy: i8| Offset::new(dx as i16, dy as i16);
        let colour = |c: u8| if c == 0 { Colour::Friend } else { Colour::Foe };
        let mut pc = 0;
        while pc < code.len() {
            let (op, next) = decode(code, pc).map_err(|r| (pc, r))?;
            let pop = |stack: &mut Vec<TestExpr>| stack.pop().ok_or((pc, "stack underflow"));
            let e = match op {
                Op::Int(v) => TestExpr::Int(v),
                Op::Libs(x, y) => TestExpr::Libs(at(x, y)),
                Op::Line(x, y) => TestExpr::Line(at(x, y)),
                Op::Atari(x, y) => TestExpr::Atari(at(x, y)),
                Op::NbrAtari(x, y, c) => TestExpr::NbrAtari(at(x, y), colour(c)),
                Op::Dist(x, y, c) => TestExpr::Dist(at(x, y), colour(c)),
                Op::Count {
                    dx,
                    dy,
                    states,
                    radius,
                } => TestExpr::Count {
                    at: at(dx, dy),
                    states,
                    radius,
                },
                Op::Any(x, y, n) => TestExpr::Any {
                    at: at(x, y),
                    stones: n,
                },
                Op::Adj(x, y) => TestExpr::Adj(at(x, y)),
                Op::Empty8(x, y) => TestExpr::Empty8(at(x, y)),
                Op::Empty25(x, y) => TestExpr::Empty25(at(x, y)),
                Op::Mark(x, y) => TestExpr::Mark(at(x, y)),
                Op::Global(i) => TestExpr::Global(i),
                Op::Extern { index, args, .. } => TestExpr::Extern {
                    index,
                    args: super::args(args)
                        .map(|a| match a {
                            RawArg::Point(x, y) => ExternArg::Point(at(x, y)),
                            RawArg::Int(v) => ExternArg::Int(v),
                            RawArg::Colour(c) => ExternArg::Colour(colour(c)),
                        })
                        .collect(),
                },
                Op::Not => TestExpr::Not(Box::new(pop(&mut stack)?)),
                Op::Neg => TestExpr::Neg(Box::new(pop(&mut stack)?)),
                Op::Bin(b) => {
                    let rhs = pop(&mut stack)?;
                    let lhs = pop(&mut stack)?;
                    TestExpr::Bin(b, Box::new(lhs), Box::new(rhs))
                }
            };
            stack.push(e);
            pc = next;
        }
        match (stack.pop(), stack.is_empty()) {
            (Some(e), true) => Ok(e),
            _ => Err((pc, "block must leave exactly one value")),
        }
    }

    /// [`decode_test`] of a block the loader validated (it cannot fail there).
    pub(crate) fn to_expr(code: &[u8]) -> TestExpr {
        decode_test(code).unwrap_or(TestExpr::Int(0))
    }
}
#[cfg(feature = "alloc")]
pub use spec_codec::decode_test;
#[cfg(feature = "alloc")]
pub(crate) use spec_codec::{encode, to_expr};

#[cfg(all(test, feature = "alloc"))]
mod codec_tests {
    use super::*;
    use crate::spec::{Colour, ExternArg, Offset, TestExpr};
    use alloc::boxed::Box;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Every predicate and operator encodes to bytecode that validates and decodes back to the
    /// same expression: a drift between the encoder, the decoder and the validator of one
    /// opcode fails here.
    #[test]
    fn every_predicate_round_trips() {
        let p = Offset::new(-2, 3);
        let leaves = vec![
            TestExpr::Int(-70_000),
            TestExpr::Libs(p),
            TestExpr::Line(p),
            TestExpr::Atari(p),
            TestExpr::NbrAtari(p, Colour::Foe),
            TestExpr::Dist(p, Colour::Friend),
            TestExpr::Count {
                at: p,
                states: 5,
                radius: 2,
            },
            TestExpr::Any { at: p, stones: 3 },
            TestExpr::Adj(p),
            TestExpr::Empty8(p),
            TestExpr::Empty25(p),
            TestExpr::Mark(p),
            TestExpr::Global(1),
            TestExpr::Extern {
                index: 0,
                args: vec![
                    ExternArg::Point(p),
                    ExternArg::Int(9),
                    ExternArg::Colour(Colour::Foe),
                ],
            },
        ];
        // Each predicate is a call both ways, and every predicate is among the leaves.
        let mut names = Vec::new();
        for l in &leaves {
            if let Some((name, args)) = l.as_call() {
                assert_eq!(TestExpr::from_call(name, &args).as_ref(), Ok(l), "{name}");
                let moved = l.map_points(&|o| Offset::new(o.dy, -o.dx));
                assert_ne!(&moved, l, "{name} has a point");
                names.push(name);
            }
        }
        assert_eq!(names, TestExpr::PREDICATES);
        let mut all: Vec<TestExpr> = leaves.clone();
        for (i, l) in leaves.iter().enumerate() {
            all.push(TestExpr::Not(Box::new(l.clone())));
            all.push(TestExpr::Neg(Box::new(l.clone())));
            let op = [
                Bin::Or,
                Bin::And,
                Bin::Eq,
                Bin::Ne,
                Bin::Lt,
                Bin::Le,
                Bin::Gt,
                Bin::Ge,
                Bin::Add,
                Bin::Sub,
            ][i % 10];
            let other = leaves[(i + 1) % leaves.len()].clone();
            all.push(TestExpr::Bin(op, Box::new(l.clone()), Box::new(other)));
        }
        for e in all {
            let mut code = Vec::new();
            encode(&e, &mut code).unwrap();
            assert_eq!(validate(&code, 2, &|_| Some(3)), Ok(()), "{e:?}");
            assert_eq!(decode_test(&code), Ok(e));
        }
    }

    /// A block that is not one expression is an error with its offset, never a guess.
    #[test]
    fn decode_test_rejects_bad_blocks() {
        assert_eq!(decode_test(&[0xFF]), Err((0, "unknown opcode")));
        assert_eq!(
            decode_test(&[OP_INT, 1, 0, 0, 0, OP_NOT, OP_NOT, OP_BIN]),
            Err((7, "stack underflow"))
        );
        assert_eq!(
            decode_test(&[OP_INT, 1, 0, 0, 0, OP_INT, 2, 0, 0, 0]),
            Err((10, "block must leave exactly one value"))
        );
        assert_eq!(
            decode_test(&[]),
            Err((0, "block must leave exactly one value"))
        );
        assert_eq!(decode_test(&[OP_LIBS, 1]), Err((0, "truncated operand")));
    }
}
