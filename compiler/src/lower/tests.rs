//! Lowering on small sources: what each construct becomes in the IR, and that a pattern with
//! an error is left out while the rest of the program is still lowered.

use lens_dsl::ast::StateSet;
use lens_vm::spec::{
    BinOp, Colour, ExternArg, Mode, Offset, OrientPolicy, ResultSpec, SeqNodeSpec, TestExpr,
};

use super::expr::stack_depth;
use super::lower;
use crate::ir::{self, Node};

/// Lowers a source that passes the front end; returns the IR and the codes lowering reported.
fn lowered(src: &str) -> (ir::Program, Vec<&'static str>) {
    let (program, diags) = lens_dsl::load_str("t.lens", src);
    assert!(diags.is_empty(), "{diags:?}");
    let (ir, diags) = lower(&program);
    (ir, diags.iter().map(|d| d.code).collect())
}

fn only_pattern(ir: &ir::Program) -> &ir::Pattern {
    match ir.classes[0].nodes.as_slice() {
        [Node::Pattern(p)] => p,
        other => panic!("expected one pattern, got {other:?}"),
    }
}

const CLASS: &str = "class c { focus empty; field 3x3; }\n";

fn off(dx: i16, dy: i16) -> Offset {
    Offset::new(dx, dy)
}

#[test]
fn class_options_and_defaults() {
    let (ir, codes) = lowered(
        "class a { }\nclass b { mode all; focus any; field 7x5; orient identity; default 3; }\n",
    );
    assert!(codes.is_empty(), "{codes:?}");
    let (a, b) = (&ir.classes[0], &ir.classes[1]);
    assert_eq!(
        (
            a.mode,
            a.focus,
            a.width,
            a.height,
            a.orient,
            a.default_value
        ),
        (Mode::Best, StateSet::EMPTY.0, 5, 5, OrientPolicy::All, None)
    );
    assert_eq!(
        (
            b.mode,
            b.focus,
            b.width,
            b.height,
            b.orient,
            b.default_value
        ),
        (
            Mode::All,
            StateSet::ON_BOARD.0,
            7,
            5,
            OrientPolicy::Identity,
            Some(3)
        )
    );
}

#[test]
fn diagram_cells_become_offsets_from_the_focus() {
    // Rows grow southwards (dy > 0), columns eastwards; `?` is any state on the board (no
    // edge is drawn), and the focus is left out when it only repeats the class's focus.
    let (ir, codes) = lowered(&format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        ? O .\n        X * .\n    }}\n    => * 1;\n}}\n"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let p = only_pattern(&ir);
    let cells: Vec<(Offset, u8)> = p.cells.iter().map(|(o, s)| (*o, *s)).collect();
    assert_eq!(
        cells,
        vec![
            (off(-1, -1), StateSet::ON_BOARD.0),
            (off(-1, 0), StateSet::FOE.0),
            (off(0, -1), StateSet::FRIEND.0),
            (off(1, -1), StateSet::EMPTY.0),
            (off(1, 0), StateSet::EMPTY.0),
        ]
    );
    assert_eq!(
        p.result,
        Some(ResultSpec::Move {
            at: Offset::FOCUS,
            value: 1,
            bits: 0,
            sequence: None
        })
    );
}

#[test]
fn conjuncts_become_separate_tests_with_their_costs() {
    let (ir, codes) = lowered(&format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    where libs(a) > 1 && line(*) == 2;\n    => * 1;\n}}\n"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let tests = &only_pattern(&ir).tests;
    assert_eq!(tests.len(), 2);
    assert_eq!(
        tests[0].expr,
        TestExpr::Bin(
            BinOp::Gt,
            Box::new(TestExpr::Libs(off(0, -1))),
            Box::new(TestExpr::Int(1))
        )
    );
    assert_eq!(
        (tests[0].cost, tests[1].cost),
        (
            lens_dsl::builtins::lookup("libs").unwrap().cost,
            lens_dsl::builtins::lookup("line").unwrap().cost
        )
    );
}

#[test]
fn externs_and_globals_are_numbered_in_declaration_order() {
    let (ir, codes) = lowered(&format!(
        "{CLASS}global phase;\nextern first(point) cost 3;\nextern second(point, int, color) cost 5;\n\
         pattern p : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    \
         where second(a, -2, foe) && phase == 1;\n    => * 1;\n}}\n"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(ir.globals, vec!["phase".to_string()]);
    let names: Vec<(&str, u8, u32)> = ir
        .externs
        .iter()
        .map(|e| (e.name.as_str(), e.arity, e.cost))
        .collect();
    assert_eq!(names, vec![("first", 1, 3), ("second", 3, 5)]);
    let tests = &only_pattern(&ir).tests;
    assert_eq!(
        tests[0].expr,
        TestExpr::Extern {
            index: 1,
            args: vec![
                ExternArg::Point(off(0, -1)),
                ExternArg::Int(-2),
                ExternArg::Colour(Colour::Foe)
            ]
        }
    );
    assert_eq!(tests[0].cost, 5);
    assert_eq!(
        tests[1].expr,
        TestExpr::Bin(
            BinOp::Eq,
            Box::new(TestExpr::Global(0)),
            Box::new(TestExpr::Int(1))
        )
    );
}

#[test]
fn sequences_branch_and_continue_every_alternative() {
    let (ir, codes) = lowered(&format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . a .\n        b * .\n    }}\n    \
         => * 1 seq s;\n    sequence s {{ * ( a | pass ) b }}\n}}\n"
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let node = |at: Option<Offset>, depth| SeqNodeSpec { at, depth };
    let (a, b) = (Some(off(0, -1)), Some(off(-1, 0)));
    assert_eq!(
        ir.sequences[0].nodes,
        vec![
            node(Some(Offset::FOCUS), 0),
            node(a, 1),
            node(b, 2),
            node(None, 1),
            node(b, 2),
        ]
    );
    assert!(matches!(
        only_pattern(&ir).result,
        Some(ResultSpec::Move {
            sequence: Some(0),
            ..
        })
    ));
}

#[test]
fn lens_points_are_offsets_from_the_first_endpoint() {
    // Frame rows grow northwards, offsets southwards: d4 is one row above d3, so dy = -1.
    let (ir, codes) = lowered("lens 2 l(d3, c4) {\n    field { d4 empty } => c3 5;\n}\n");
    assert!(codes.is_empty(), "{codes:?}");
    let l = &ir.lenses[0];
    assert_eq!(l.endpoints, vec![Offset::FOCUS, off(-1, -1)]);
    let states: Vec<(Offset, u8)> = l.fields[0].states.iter().map(|(o, s)| (*o, *s)).collect();
    assert_eq!(states, vec![(off(0, -1), StateSet::EMPTY.0)]);
    assert!(matches!(
        l.fields[0].result,
        ResultSpec::Move { at, value: 5, .. } if at == off(-1, 0)
    ));
}

#[test]
fn globs_nest_and_mark_derived_headers() {
    let pattern = |name: &str| format!("    pattern {name} {{ diagram {{ . * . }} => * 1; }}\n");
    let (ir, codes) = lowered(&format!(
        "{CLASS}glob outer : c {{\n    header {{ diagram {{ . * O }} }}\n{}    glob inner {{\n{}{}    }}\n}}\n",
        pattern("p1"),
        pattern("p2"),
        pattern("p3")
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let [Node::Glob(outer)] = ir.classes[0].nodes.as_slice() else {
        panic!("one glob expected");
    };
    assert!(!outer.derived);
    assert_eq!(
        outer.header.cells.get(&off(1, 0)),
        Some(&StateSet::FRIEND.0)
    );
    let [Node::Pattern(p1), Node::Glob(inner)] = outer.members.as_slice() else {
        panic!("a pattern and a glob expected");
    };
    assert_eq!(ir.debug[p1.id as usize].name, "p1");
    assert!(inner.derived);
    assert_eq!(inner.members.len(), 2);
    // Ids follow the source: outer's header, p1, inner's header, p2, p3.
    let names: Vec<&str> = ir.debug.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["outer.header", "p1", "inner.header", "p2", "p3"]
    );
}

#[test]
fn a_pattern_with_an_error_is_left_out_and_the_rest_lowered() {
    let (ir, codes) = lowered(&format!(
        "{CLASS}pattern bad : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    where nosuch(a);\n    => * 1;\n}}\n\
         pattern good : c {{\n    diagram {{ . * . }}\n    => * 2;\n}}\n"
    ));
    assert_eq!(codes, vec![crate::codes::UNKNOWN_TEST]);
    let p = only_pattern(&ir);
    assert_eq!(ir.debug[p.id as usize].name, "good");
}

#[test]
fn stack_depth_counts_the_values_waiting_on_the_right() {
    let int = || Box::new(TestExpr::Int(1));
    let add = |a, b| Box::new(TestExpr::Bin(BinOp::Add, a, b));
    // (1 + 1) + 1: the left sum is one value when the last 1 is pushed.
    assert_eq!(stack_depth(&add(add(int(), int()), int())), 2);
    // 1 + (1 + 1): the first 1 waits while the right sum needs two.
    assert_eq!(stack_depth(&add(int(), add(int(), int()))), 3);
    assert_eq!(stack_depth(&TestExpr::Not(add(int(), int()))), 2);
    assert_eq!(stack_depth(&TestExpr::Int(0)), 1);
}

/// The front end's built-in tests are exactly lens-vm's predicates, in the same order: the
/// lowering builds each call generically (`TestExpr::from_call`), so a name known to one
/// side only would be an "unsupported" error at compile time.
#[test]
fn builtins_are_the_vm_predicates() {
    let names: Vec<&str> = lens_dsl::builtins::BUILTINS
        .iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(names, TestExpr::PREDICATES);
}

/// Each built-in's arguments are checked by their kind and range from the table, with the
/// errors the per-predicate code gave: a colour where only a stone colour fits, and an
/// integer outside the built-in's range.
#[test]
fn builtin_arguments_are_checked_from_the_table() {
    let src = |test: &str| {
        format!(
            "{CLASS}pattern p : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    where {test};\n    => * 1;\n}}\n"
        )
    };
    assert_eq!(
        lowered(&src("nbr_atari(a, empty)")).1,
        ["lens::expected_colour"]
    );
    assert_eq!(
        lowered(&src("count(a, empty, 10) > 0")).1,
        ["lens::arg_range"]
    );
    assert_eq!(lowered(&src("any(a, 0)")).1, ["lens::arg_range"]);
    let (ir, codes) = lowered(&src("count(a, empty, 9) > 0 && any(*, 3)"));
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(
        only_pattern(&ir).tests[0].expr,
        TestExpr::Bin(
            BinOp::Gt,
            Box::new(TestExpr::Count {
                at: off(0, -1),
                states: 4,
                radius: 9
            }),
            Box::new(TestExpr::Int(0))
        )
    );
}
