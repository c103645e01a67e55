//! Test expressions: built-in and extern calls, constants, the stack limit.

use lens_dsl::ast::{self, ArgKind, Expr, PointState, Span, StateSet};
use lens_dsl::{Diagnostic, FileId};
use lens_vm::spec::{BinOp, CallArg, Colour, ExternArg, Offset, TestExpr, TestSpec};

use super::{Frame, Lowerer, MAX_STACK, colour_of};
use crate::codes;

impl Lowerer<'_> {
    pub(super) fn test(&mut self, file: FileId, e: &Expr, frame: &Frame) -> Option<TestSpec> {
        let (expr, cost) = self.expr(file, e, frame)?;
        let depth = stack_depth(&expr);
        if depth > MAX_STACK {
            self.diags.push(
                Diagnostic::error(
                    codes::TEST_TOO_DEEP,
                    format!(
                        "this test needs {depth} values on the VM's stack; it holds {MAX_STACK}"
                    ),
                    file,
                    e.span(),
                    "nested too deeply",
                )
                .with_help(
                    "split it into conditions joined by `&&`, or compute part of it in an extern",
                ),
            );
            return None;
        }
        Some(TestSpec { expr, cost })
    }

    /// An expression and its estimated cost (sum of the costs of the calls in it).
    fn expr(&mut self, file: FileId, e: &Expr, frame: &Frame) -> Option<(TestExpr, u32)> {
        Some(match e {
            Expr::Int(v) => (TestExpr::Int(self.int(file, v.node, v.span)?), 0),
            Expr::Bool(b) => (TestExpr::Int(b.node as i32), 0),
            Expr::Point(p) => {
                self.error(
                    codes::POINT_AS_VALUE,
                    "a point is not a value",
                    file,
                    p.span,
                    "use it as a test's argument",
                );
                return None;
            }
            Expr::Color(c) => {
                self.error(
                    codes::COLOUR_AS_VALUE,
                    "a colour is not a value",
                    file,
                    c.span,
                    "use it as a test's argument",
                );
                return None;
            }
            Expr::Name(n) => {
                if let Some(g) = self.globals.get(&n.node) {
                    (TestExpr::Global(*g), 1)
                } else if let Some(x) = self.externs.get(&n.node).filter(|x| x.params.is_empty()) {
                    (
                        TestExpr::Extern {
                            index: x.index,
                            args: Vec::new(),
                        },
                        x.cost,
                    )
                } else {
                    self.error(
                        codes::UNKNOWN_NAME,
                        format!("unknown name `{}`", n.node),
                        file,
                        n.span,
                        "not a global or extern",
                    );
                    return None;
                }
            }
            Expr::Call { name, args, span } => return self.call(file, name, args, *span, frame),
            Expr::Unary { op, expr, .. } => {
                let (x, c) = self.expr(file, expr, frame)?;
                let x = Box::new(x);
                (
                    if op.node == ast::UnOp::Not {
                        TestExpr::Not(x)
                    } else {
                        TestExpr::Neg(x)
                    },
                    c,
                )
            }
            Expr::Binary { op, lhs, rhs, .. } => {
                let l = self.expr(file, lhs, frame);
                let r = self.expr(file, rhs, frame);
                let ((a, ca), (b, cb)) = (l?, r?);
                let op = match op.node {
                    ast::BinOp::Or => BinOp::Or,
                    ast::BinOp::And => BinOp::And,
                    ast::BinOp::Eq => BinOp::Eq,
                    ast::BinOp::Ne => BinOp::Ne,
                    ast::BinOp::Lt => BinOp::Lt,
                    ast::BinOp::Le => BinOp::Le,
                    ast::BinOp::Gt => BinOp::Gt,
                    ast::BinOp::Ge => BinOp::Ge,
                    ast::BinOp::Add => BinOp::Add,
                    ast::BinOp::Sub => BinOp::Sub,
                };
                (
                    TestExpr::Bin(op, Box::new(a), Box::new(b)),
                    ca.saturating_add(cb),
                )
            }
        })
    }

    fn int(&mut self, file: FileId, v: i64, span: Span) -> Option<i32> {
        match i32::try_from(v) {
            Ok(v) => Some(v),
            Err(_) => {
                self.error(
                    codes::INT_RANGE,
                    format!("{v} does not fit in 32 bits"),
                    file,
                    span,
                    "too large",
                );
                None
            }
        }
    }

    /// A constant integer argument (`count(a, empty, 2)`'s radius).
    fn const_int(&mut self, file: FileId, e: &Expr) -> Option<i32> {
        match e {
            Expr::Int(v) => self.int(file, v.node, v.span),
            Expr::Unary { op, expr, .. } if op.node == ast::UnOp::Neg => {
                self.const_int(file, expr).map(|v| -v)
            }
            other => {
                self.error(
                    codes::NOT_CONSTANT,
                    "this argument must be an integer literal",
                    file,
                    other.span(),
                    "not a literal",
                );
                None
            }
        }
    }

    fn point_arg(&mut self, file: FileId, e: &Expr, frame: &Frame) -> Option<Offset> {
        match e {
            Expr::Point(p) => self.point(file, p, frame),
            other => {
                self.error(
                    codes::EXPECTED_POINT,
                    "expected a point (`*`, a label or a coordinate)",
                    file,
                    other.span(),
                    "not a point",
                );
                None
            }
        }
    }

    fn state_arg(&mut self, file: FileId, e: &Expr) -> Option<PointState> {
        match e {
            Expr::Color(c) => Some(c.node),
            other => {
                self.error(
                    codes::EXPECTED_COLOUR,
                    "expected `friend`, `foe` or `empty`",
                    file,
                    other.span(),
                    "not a colour",
                );
                None
            }
        }
    }

    fn colour_arg(&mut self, file: FileId, e: &Expr) -> Option<Colour> {
        let s = self.state_arg(file, e)?;
        let c = colour_of(s);
        if c.is_none() {
            self.error(
                codes::EXPECTED_COLOUR,
                "expected `friend` or `foe`",
                file,
                e.span(),
                "not a stone colour",
            );
        }
        c
    }

    fn small(
        &mut self,
        file: FileId,
        e: &Expr,
        range: std::ops::RangeInclusive<i32>,
    ) -> Option<i32> {
        let v = self.const_int(file, e)?;
        if range.contains(&v) {
            Some(v)
        } else {
            self.error(
                codes::ARG_RANGE,
                format!("{v} is out of range ({} to {})", range.start(), range.end()),
                file,
                e.span(),
                "out of range",
            );
            None
        }
    }

    fn call(
        &mut self,
        file: FileId,
        name: &ast::Ident,
        args: &[Expr],
        span: Span,
        frame: &Frame,
    ) -> Option<(TestExpr, u32)> {
        if name.node == lens_dsl::builtins::TRUTH_VALUE && args.len() == 1 {
            // `int(c)`: comparisons, `&&`, `||` and `!` already give 1 or 0; anything else
            // (an extern condition, non-zero = true) is compared with 0.
            let (e, cost) = self.expr(file, &args[0], frame)?;
            let truth = match e {
                TestExpr::Not(_) => e,
                TestExpr::Bin(op, ..) if !matches!(op, BinOp::Add | BinOp::Sub) => e,
                other => TestExpr::Bin(BinOp::Ne, Box::new(other), Box::new(TestExpr::Int(0))),
            };
            return Some((truth, cost));
        }
        if let Some(b) = lens_dsl::builtins::lookup(&name.node) {
            if args.len() != b.params.len() {
                self.error(
                    codes::ARITY,
                    format!(
                        "`{}` takes {} argument(s), not {}",
                        b.name,
                        b.params.len(),
                        args.len()
                    ),
                    file,
                    span,
                    "wrong number of arguments",
                );
                return None;
            }
            // Generic over the built-in table: each parameter by its kind, then lens-vm builds
            // the predicate (`TestExpr::from_call`), so a new predicate needs no code here.
            let mut call = Vec::with_capacity(args.len());
            for (kind, a) in b.params.iter().zip(args) {
                call.push(match kind {
                    ArgKind::Point => CallArg::Point(self.point_arg(file, a, frame)?),
                    ArgKind::Color => CallArg::States(StateSet::of(self.state_arg(file, a)?).0),
                    ArgKind::Int => {
                        let (lo, hi) = b.int_range.unwrap_or((i32::MIN, i32::MAX));
                        CallArg::Int(self.small(file, a, lo..=hi)?)
                    }
                });
            }
            let expr = match TestExpr::from_call(b.name, &call) {
                Ok(e) => e,
                Err(e) => {
                    match e.arg {
                        Some(i) if e.reason == "expected `friend` or `foe`" => self.error(
                            codes::EXPECTED_COLOUR,
                            e.reason,
                            file,
                            args[i].span(),
                            "not a stone colour",
                        ),
                        _ => self.error(
                            codes::BUILTIN_UNSUPPORTED,
                            format!(
                                "built-in `{}` is not supported by this compiler ({})",
                                b.name, e.reason
                            ),
                            file,
                            name.span,
                            "unsupported",
                        ),
                    }
                    return None;
                }
            };
            return Some((expr, b.cost));
        }
        let Some(x) = self.externs.get(&name.node) else {
            self.error(
                codes::UNKNOWN_TEST,
                format!("unknown test `{}`", name.node),
                file,
                name.span,
                "not a built-in or extern",
            );
            return None;
        };
        let (index, params, cost) = (x.index, x.params.clone(), x.cost);
        if params.len() != args.len() {
            self.error(
                codes::ARITY,
                format!(
                    "`{}` takes {} argument(s), not {}",
                    name.node,
                    params.len(),
                    args.len()
                ),
                file,
                span,
                "wrong number of arguments",
            );
            return None;
        }
        let mut out = Vec::new();
        for (kind, a) in params.iter().zip(args) {
            out.push(match kind {
                ArgKind::Point => ExternArg::Point(self.point_arg(file, a, frame)?),
                ArgKind::Int => ExternArg::Int(self.const_int(file, a)?),
                ArgKind::Color => ExternArg::Colour(self.colour_arg(file, a)?),
            });
        }
        Some((TestExpr::Extern { index, args: out }, cost))
    }
}

/// The stack slots a test's bytecode needs: operands are pushed left to right, so the right
/// operand of a binary operator is evaluated with the left one's value below it.
pub(super) fn stack_depth(e: &TestExpr) -> usize {
    match e {
        TestExpr::Not(a) | TestExpr::Neg(a) => stack_depth(a),
        TestExpr::Bin(_, a, b) => stack_depth(a).max(1 + stack_depth(b)),
        _ => 1,
    }
}

/// `a && b && c` as separate tests, so each can be ordered by its own cost.
pub(super) fn split_and(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Binary { op, lhs, rhs, .. } if op.node == ast::BinOp::And => {
            let mut v = split_and(lhs);
            v.extend(split_and(rhs));
            v
        }
        other => vec![other],
    }
}
