//! Type and name checks of test expressions (`where` clauses, lens field tests).

use super::{Ctx, PointScope, codes};
use crate::ast::*;
use crate::builtins::{self, TRUTH_VALUE};
use crate::diagnostics::Diagnostic;
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    Point,
    Color,
    /// Already reported; suppresses follow-up errors.
    Error,
}

fn ty_name(t: Ty) -> &'static str {
    match t {
        Ty::Int => "an integer",
        Ty::Bool => "a condition",
        Ty::Point => "a point",
        Ty::Color => "a colour",
        Ty::Error => "an error",
    }
}

/// An extern's result: a number with `: int`, else a condition.
fn extern_ty(x: &Extern) -> Ty {
    if x.returns_int { Ty::Int } else { Ty::Bool }
}

fn kind_ty(k: ArgKind) -> Ty {
    match k {
        ArgKind::Point => Ty::Point,
        ArgKind::Int => Ty::Int,
        ArgKind::Color => Ty::Color,
    }
}

impl Ctx<'_> {
    /// Checks a test expression that must be a condition.
    pub fn check_condition(&mut self, e: &Expr, scope: &PointScope, what: &str) {
        let t = self.expr_ty(e, scope);
        if t != Ty::Bool && t != Ty::Error {
            self.err(
                Diagnostic::error(
                    codes::TYPE_MISMATCH,
                    format!("{what} must be a condition"),
                    self.file,
                    e.span(),
                    format!("this is {}", ty_name(t)),
                )
                .with_help("compare it, e.g. `libs(a) >= 2`"),
            );
        }
    }

    /// `op`: the operator symbol, for the message (formatted only on error).
    fn expect(&mut self, e: &Expr, want: Ty, scope: &PointScope, op: &str) -> Ty {
        let t = self.expr_ty(e, scope);
        if t != want && t != Ty::Error {
            self.err(Diagnostic::error(
                codes::TYPE_MISMATCH,
                format!("`{op}` expects {}, found {}", ty_name(want), ty_name(t)),
                self.file,
                e.span(),
                format!("expected {}", ty_name(want)),
            ));
            return Ty::Error;
        }
        t
    }

    pub fn expr_ty(&mut self, e: &Expr, scope: &PointScope) -> Ty {
        match e {
            Expr::Int(_) => Ty::Int,
            Expr::Bool(_) => Ty::Bool,
            Expr::Color(_) => Ty::Color,
            Expr::Point(p) => {
                if self.check_point(p, scope) {
                    Ty::Point
                } else {
                    Ty::Error
                }
            }
            Expr::Name(n) => {
                if self.globals.contains_key(n.node.as_str()) {
                    Ty::Int
                } else if let Some(x) = self.externs.get(n.node.as_str()) {
                    if x.params.is_empty() {
                        extern_ty(x)
                    } else {
                        let n_params = x.params.len();
                        self.err(
                            Diagnostic::error(
                                codes::WRONG_ARITY,
                                format!("extern `{}` takes {n_params} argument(s)", n.node),
                                self.file,
                                n.span,
                                "called without arguments",
                            )
                            .with_help(format!("call it as `{}(...)`", n.node)),
                        );
                        Ty::Error
                    }
                } else if builtins::lookup(&n.node).is_some() {
                    self.err(
                        Diagnostic::error(
                            codes::WRONG_ARITY,
                            format!("built-in test `{}` needs arguments", n.node),
                            self.file,
                            n.span,
                            "not called",
                        )
                        .with_help(format!("call it as `{}(...)`", n.node)),
                    );
                    Ty::Error
                } else {
                    self.err(
                        Diagnostic::error(codes::UNKNOWN_NAME, format!("unknown name `{}`", n.node), self.file, n.span, "not a global, an extern or a point")
                            .with_help(format!("declare it with `global {};` (an engine integer) or `extern {}() cost N;`", n.node, n.node)),
                    );
                    Ty::Error
                }
            }
            Expr::Call { name, args, span } => self.call_ty(name, args, *span, scope),
            Expr::Unary { op, expr, .. } => match op.node {
                UnOp::Not => {
                    self.expect(expr, Ty::Bool, scope, "!");
                    Ty::Bool
                }
                UnOp::Neg => {
                    self.expect(expr, Ty::Int, scope, "-");
                    Ty::Int
                }
            },
            Expr::Binary { op, lhs, rhs, .. } => {
                let sym = crate::fmt::binop(op.node);
                match op.node {
                    BinOp::Or | BinOp::And => {
                        self.expect(lhs, Ty::Bool, scope, sym);
                        self.expect(rhs, Ty::Bool, scope, sym);
                        Ty::Bool
                    }
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        self.expect(lhs, Ty::Int, scope, sym);
                        self.expect(rhs, Ty::Int, scope, sym);
                        Ty::Bool
                    }
                    BinOp::Add | BinOp::Sub => {
                        self.expect(lhs, Ty::Int, scope, sym);
                        self.expect(rhs, Ty::Int, scope, sym);
                        Ty::Int
                    }
                    BinOp::Eq | BinOp::Ne => {
                        let l = self.expr_ty(lhs, scope);
                        let r = self.expr_ty(rhs, scope);
                        if l != Ty::Error && r != Ty::Error && (l != r || l == Ty::Point) {
                            let msg = if l == r {
                                "points cannot be compared".to_string()
                            } else {
                                format!("cannot compare {} with {}", ty_name(l), ty_name(r))
                            };
                            self.err(
                                Diagnostic::error(
                                    codes::TYPE_MISMATCH,
                                    msg,
                                    self.file,
                                    op.span,
                                    "here",
                                )
                                .with_label(
                                    self.file,
                                    rhs.span(),
                                    format!("this is {}", ty_name(r)),
                                ),
                            );
                        }
                        Ty::Bool
                    }
                }
            }
        }
    }

    fn call_ty(&mut self, name: &Ident, args: &[Expr], span: Span, scope: &PointScope) -> Ty {
        // Built-in signatures are static: borrowed, not copied, on every call checked.
        let (params, ret): (Cow<'_, [ArgKind]>, Ty) = if let Some(b) = builtins::lookup(&name.node)
        {
            (
                Cow::Borrowed(b.params),
                if b.returns_bool { Ty::Bool } else { Ty::Int },
            )
        } else if let Some(x) = self.externs.get(name.node.as_str()) {
            (
                Cow::Owned(x.params.iter().map(|p| p.node).collect()),
                extern_ty(x),
            )
        } else if name.node == TRUTH_VALUE {
            // `int(c)`: C's truth value of a condition, 1 or 0.
            if args.len() != 1 {
                self.err(Diagnostic::error(
                    codes::WRONG_ARITY,
                    format!("`{TRUTH_VALUE}` takes 1 argument, {} given", args.len()),
                    self.file,
                    span,
                    "wrong number of arguments",
                ));
                for a in args {
                    self.expr_ty(a, scope);
                }
                return Ty::Error;
            }
            self.expect(&args[0], Ty::Bool, scope, TRUTH_VALUE);
            return Ty::Int;
        } else {
            let help = if self.globals.contains_key(name.node.as_str()) {
                format!("`{}` is a global: use it without arguments", name.node)
            } else {
                let names: Vec<&str> = builtins::BUILTINS.iter().map(|b| b.name).collect();
                let externs = self.externs.keys().copied();
                crate::diagnostics::with_suggestion(
                    &name.node,
                    names.iter().copied().chain(externs),
                    format!(
                        "built-in tests: {}; or declare `extern {}(...) cost N;`",
                        names.join(", "),
                        name.node
                    ),
                )
            };
            self.err(
                Diagnostic::error(
                    codes::UNKNOWN_FUNCTION,
                    format!("unknown test `{}`", name.node),
                    self.file,
                    name.span,
                    "not a built-in or an extern",
                )
                .with_help(help),
            );
            for a in args {
                self.expr_ty(a, scope);
            }
            return Ty::Error;
        };
        if params.len() != args.len() {
            let sig: Vec<&str> = params.iter().map(|k| crate::fmt::arg_kind(*k)).collect();
            self.err(
                Diagnostic::error(
                    codes::WRONG_ARITY,
                    format!(
                        "`{}` takes {} argument(s), {} given",
                        name.node,
                        params.len(),
                        args.len()
                    ),
                    self.file,
                    span,
                    "wrong number of arguments",
                )
                .with_help(format!("signature: {}({})", name.node, sig.join(", "))),
            );
            for a in args {
                self.expr_ty(a, scope);
            }
            return ret;
        }
        for (i, (a, k)) in args.iter().zip(params.iter()).enumerate() {
            let t = self.expr_ty(a, scope);
            let want = kind_ty(*k);
            if t != want && t != Ty::Error {
                self.err(Diagnostic::error(
                    codes::WRONG_ARGUMENT,
                    format!(
                        "argument {} of `{}` must be {}, found {}",
                        i + 1,
                        name.node,
                        ty_name(want),
                        ty_name(t)
                    ),
                    self.file,
                    a.span(),
                    format!("expected {}", ty_name(want)),
                ));
            }
            // Colour arguments of these tests name stones.
            if let (Expr::Color(c), true) = (a, matches!(name.node.as_str(), "nbr_atari" | "dist"))
            {
                if !matches!(c.node, PointState::Friend | PointState::Foe) {
                    self.err(Diagnostic::error(
                        codes::WRONG_ARGUMENT,
                        format!("`{}` needs a stone colour", name.node),
                        self.file,
                        c.span,
                        "expected `friend` or `foe`",
                    ));
                }
            }
        }
        ret
    }
}

#[cfg(test)]
mod tests {
    fn codes(src: &str) -> Vec<&'static str> {
        let (p, mut d) = crate::load_str("t.lens", src);
        d.extend(crate::check(&p));
        d.iter().map(|d| d.code).collect()
    }

    fn with_where(test: &str) -> String {
        format!(
            "extern size(point): int cost 1;\nextern alive(point) cost 1;\n\
             class c {{ focus empty; field 3x3; }}\n\
             pattern p : c {{\n    diagram {{\n        . * .\n    }}\n    where {test};\n    => * 1;\n}}\n"
        )
    }

    #[test]
    fn int_externs_and_truth_values() {
        assert_eq!(
            codes(&with_where("size(*) + int(alive(*)) > 1")),
            Vec::<&str>::new()
        );
        assert_eq!(
            codes(&with_where("int(size(*) > 1) == 1 && alive(*)")),
            Vec::<&str>::new()
        );
        // A number is not a condition, a condition not a number, and `int` takes a condition.
        assert_eq!(codes(&with_where("size(*)")), vec!["lens::type_mismatch"]);
        assert_eq!(
            codes(&with_where("alive(*) + 1 > 1")),
            vec!["lens::type_mismatch"]
        );
        assert_eq!(
            codes(&with_where("int(size(*)) > 1")),
            vec!["lens::type_mismatch"]
        );
        assert_eq!(
            codes(&with_where("int(alive(*), 1) > 1")),
            vec!["lens::wrong_arity"]
        );
        // Only `: int` is a result; `int` cannot name an extern.
        let bad = codes("extern fsize(point): bool cost 1;\n");
        assert_eq!(bad, vec!["lens::unknown_keyword"]);
        assert_eq!(codes("extern int(point) cost 1;\n"), vec!["lens::bad_name"]);
        // The formatter keeps `: int`.
        let src = with_where("size(*) > 1");
        let (p, _) = crate::parse(0, &src);
        assert!(crate::fmt::format(&p, &src).contains("extern size(point): int cost 1;"));
    }
}
