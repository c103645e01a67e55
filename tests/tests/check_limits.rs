//! Every limit of the ROM format is reported by `check` (`lens_compiler::check_program`, what
//! `lensc check` prints) with the same error as `compile`, and a source at the limit compiles.
//! The limits themselves are defined once, in lens-vm; these tests build their sources from
//! those constants, so raising a limit moves the tests with it.

use lens_compiler::{Options, check_program, compile_str};
use lens_vm::rom::{MAX_ARGS, MAX_STACK};
use lens_vm::rom::{MAX_ENDPOINTS, MAX_FIELD, MAX_GLOB_DEPTH, MAX_OFFSET};

/// Error codes from `check` and from `compile` for one source.
fn codes(src: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let (program, diags) = lens_dsl::load_str("limits.lens", src);
    let checked = check_program(&program, diags);
    let (_, compiled) = compile_str("limits.lens", src, &Options::default());
    let errors = |d: &[lens_dsl::Diagnostic]| -> Vec<&'static str> {
        d.iter().filter(|d| d.is_error()).map(|d| d.code).collect()
    };
    let compiled = match compiled {
        Ok(c) => errors(&c.warnings),
        Err(d) => errors(&d),
    };
    (errors(&checked), compiled)
}

/// `over` is refused by check and compile with `code` alone; `at` passes both.
fn assert_limit(at: &str, over: &str, code: &str) {
    let (checked, compiled) = codes(at);
    assert_eq!((checked, compiled), (vec![], vec![]), "at the limit:\n{at}");
    let (checked, compiled) = codes(over);
    assert_eq!(checked, vec![code], "check, over the limit:\n{over}");
    assert_eq!(compiled, vec![code], "compile, over the limit:\n{over}");
}

const CLASS: &str = "class c { focus empty; field 3x3; }\n";

/// A pattern with a test `where EXPR;` on the point `a` north of the focus.
fn pattern_with(test: &str) -> String {
    format!(
        "{CLASS}extern probe(point): int cost 1;\npattern p : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    where {test};\n    => * 1;\n}}\n"
    )
}

#[test]
fn field_size() {
    let class = |n: usize| {
        let dots = vec!["."; n].join(" ");
        let mut rows = vec![dots.clone(); n];
        let mid = n / 2;
        let mut row: Vec<&str> = vec!["."; n];
        row[mid] = "*";
        rows[mid] = row.join(" ");
        format!(
            "class c {{ focus empty; field {n}x{n}; }}\npattern p : c {{\n    diagram {{\n{}\n    }}\n    => * 1;\n}}\n",
            rows.join("\n")
        )
    };
    assert_limit(
        &class(MAX_FIELD),
        &class(MAX_FIELD + 2),
        "lens::bad_field_size",
    );
}

#[test]
fn glob_depth() {
    // `depth` globs, each holding one pattern and the next glob.
    let nested = |depth: usize| {
        let mut s = String::from(CLASS);
        for d in 0..depth {
            let class = if d == 0 { " : c" } else { "" };
            s += &format!(
                "glob g{d}{class} {{\n    pattern p{d} {{ diagram {{ . * . }} => * 1; }}\n"
            );
        }
        s += &"}\n".repeat(depth);
        s
    };
    assert_limit(
        &nested(MAX_GLOB_DEPTH),
        &nested(MAX_GLOB_DEPTH + 1),
        "lens::glob_depth",
    );
}

#[test]
fn extern_arguments() {
    let ext = |n: usize| {
        let params = vec!["point"; n].join(", ");
        let args = vec!["a"; n].join(", ");
        format!(
            "{CLASS}extern probe({params}) cost 1;\npattern p : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    where probe({args});\n    => * 1;\n}}\n"
        )
    };
    assert_limit(&ext(MAX_ARGS), &ext(MAX_ARGS + 1), "lens::extern_arity");
}

#[test]
fn lens_endpoints() {
    let lens = |n: usize| {
        let ends: Vec<String> = (1..=n).map(|k| format!("a{k}")).collect();
        format!(
            "lens 2 l({}) {{\n    field {{ b1 empty }} => b1 5;\n}}\n",
            ends.join(", ")
        )
    };
    assert_limit(
        &lens(MAX_ENDPOINTS),
        &lens(MAX_ENDPOINTS + 1),
        "lens::too_many_endpoints",
    );
}

#[test]
fn lens_reach() {
    // A lens point is an offset from the first endpoint (a1), at most MAX_OFFSET away.
    let lens =
        |row: i32| format!("lens 2 l(a1, b1) {{\n    field {{ a{row} empty }} => b1 5;\n}}\n");
    assert_limit(
        &lens(1 + MAX_OFFSET),
        &lens(2 + MAX_OFFSET),
        "lens::lens_reach",
    );
}

#[test]
fn test_stack_depth() {
    // `probe(a) + (probe(a) + (...))`: each right operand waits on one more value.
    let nested = |values: usize| {
        let mut e = String::from("probe(a)");
        for _ in 1..values {
            e = format!("probe(a) + ({e})");
        }
        pattern_with(&format!("{e} > 0"))
    };
    // `sum > 0` needs no more slots than the sum: the 0 is pushed once the sum is one value.
    assert_limit(
        &nested(MAX_STACK),
        &nested(MAX_STACK + 1),
        "lens::test_too_deep",
    );
}

#[test]
fn board_between_drawn_edges() {
    // Two drawn edges (west and east) leave `lines` points between them.
    let between = |lines: usize| {
        let row = |focus: bool| {
            let mut cells = vec!["."; lines];
            if focus {
                cells[0] = "*";
            }
            format!("        | {} |", cells.join(" "))
        };
        format!(
            "class w {{ focus empty; field 13x13; }}\npattern p : w {{\n    diagram {{\n{}\n    }}\n    => * 1;\n}}\n",
            row(true)
        )
    };
    let min = lens_vm::board::MIN_SIZE as usize;
    assert_limit(&between(min), &between(min - 1), "lens::impossible_edges");
}
