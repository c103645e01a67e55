//! Rendered diagnostics (no colour) for broken inputs: one insta snapshot per case, and each
//! case must produce the diagnostic code it is about.

use lens_dsl::{Diagnostic, Program};
use std::path::PathBuf;

const CLASS: &str = "class c { field 5x5; }\n";

fn run_str(name: &str, src: &str) -> (Program, Vec<Diagnostic>) {
    let (program, mut diags) = lens_dsl::load_str(&format!("{name}.lens"), src);
    diags.extend(lens_dsl::check(&program));
    (program, diags)
}

fn run_paths(paths: &[&str]) -> (Program, Vec<Diagnostic>) {
    // Integration tests run in the package directory, so these relative names are stable.
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let (program, mut diags) = lens_dsl::load_paths(&paths);
    diags.extend(lens_dsl::check(&program));
    (program, diags)
}

fn snapshot(name: &str, (program, diags): (Program, Vec<Diagnostic>), code: &str) {
    let rendered = lens_dsl::render_human(&program.sources, &diags, false);
    assert!(
        diags.iter().any(|d| d.code == code),
        "case {name}: expected {code}, got:\n{rendered}"
    );
    // Every diagnostic names its file.
    for d in &diags {
        if let Some(l) = d.labels.first() {
            assert!(
                (l.file as usize) < program.sources.files.len(),
                "case {name}: label in unknown file"
            );
        }
    }
    insta::assert_snapshot!(name, rendered);
}

macro_rules! case {
    ($name:ident, $code:literal, $src:expr) => {
        #[test]
        fn $name() {
            snapshot(stringify!($name), run_str(stringify!($name), &$src), $code);
        }
    };
}

// ---- syntax and lexical errors
case!(
    syntax_every_error_reported,
    "lens::syntax",
    format!(
        "{CLASS}pattern p : c {{\n    priority ;\n    diagram {{\n        . * .\n    }}\n    where libs(a >= 2;\n    => * 5;\n}}\nglobal x y;\npattern q : c {{ diagram {{ * }} => * 1 }}\n"
    )
);
case!(
    unexpected_eof,
    "lens::unexpected_eof",
    format!("{CLASS}pattern p : c {{\n    diagram {{ * }}\n    => * 1;\n")
);
case!(
    invalid_character,
    "lens::invalid_character",
    format!("{CLASS}pattern p : c {{ priority 5 § ; diagram {{ * }} => * 1; }}\n")
);
case!(
    unterminated_string,
    "lens::bad_literal",
    "include \"never_closed.lens;\nglobal phase;\n"
);
case!(
    unclosed_diagram,
    "lens::unclosed_diagram",
    format!("{CLASS}pattern p : c {{\n    diagram {{\n        . * .\n")
);
case!(
    number_too_large,
    "lens::bad_literal",
    format!("{CLASS}pattern p : c {{ priority 99999999999; diagram {{ * }} => * 1; }}\n")
);
case!(
    unknown_keyword,
    "lens::unknown_keyword",
    "class c {\n    mode fastest;\n    orient sideways;\n}\n"
);
case!(
    not_a_point,
    "lens::not_a_point",
    format!("{CLASS}pattern p : c {{ diagram {{ * }} => here 5; }}\n")
);

// ---- diagrams
case!(
    ragged_diagram,
    "lens::ragged_diagram",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . . .\n        . * . .\n        . .\n    }}\n    => * 1;\n}}\n"
    )
);
case!(
    edge_row_inside,
    "lens::inconsistent_edge",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . . .\n        - - -\n        . * .\n    }}\n    => * 1;\n}}\n"
    )
);
case!(
    edge_column_missing,
    "lens::inconsistent_edge",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        | . .\n        . * .\n        | . .\n    }}\n    => * 1;\n}}\n"
    )
);
case!(
    edge_corner_wrong,
    "lens::inconsistent_edge",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        | . .\n        | * .\n        - - -\n    }}\n    => * 1;\n}}\n"
    )
);
case!(
    empty_diagram,
    "lens::empty_diagram",
    format!("{CLASS}pattern p : c {{\n    diagram {{\n    }}\n    => * 1;\n}}\n")
);
case!(
    no_focus,
    "lens::no_focus",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . O .\n        . . .\n    }}\n    => value 1;\n}}\n"
    )
);
case!(
    multiple_focus,
    "lens::multiple_focus",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . * .\n        . Q *\n    }}\n    legend {{ Q = empty, focus; }}\n    => * 1;\n}}\n"
    )
);
case!(
    unknown_symbol,
    "lens::unknown_symbol",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        # . @\n        . * .\n    }}\n    legend {{ @ = off; }}\n    => * 1;\n}}\n"
    )
);
case!(
    uppercase_label_needs_legend,
    "lens::unknown_symbol",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . A .\n        . * .\n    }}\n    => * 1;\n}}\n"
    )
);
case!(
    duplicate_label,
    "lens::duplicate_label",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        a . a\n        . * a\n    }}\n    => a 1;\n}}\n"
    )
);
case!(
    duplicate_legend,
    "lens::duplicate_legend",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        e . .\n        . * .\n    }}\n    legend {{ e = empty | off; e = friend; }}\n    => * 1;\n}}\n"
    )
);
case!(
    legend_redefines_symbol,
    "lens::legend_redefines_symbol",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        X . .\n        . * .\n    }}\n    legend {{ X = foe | off; }}\n    => * 1;\n}}\n"
    )
);
case!(
    exceeds_field_turned,
    "lens::exceeds_field",
    WIDE.replace("ORIENT", "orientations 0 1;")
);
case!(
    exceeds_field,
    "lens::exceeds_field",
    "class small { field 3x3; }\npattern p : small {\n    diagram {\n        . . . .\n        . * . .\n        . . . .\n    }\n    => * 1;\n}\n"
);
case!(
    wrong_symmetry,
    "lens::wrong_symmetry",
    format!(
        "{CLASS}pattern p : c {{\n    symmetry |;\n    diagram {{\n        O . .\n        . * .\n    }}\n    => * 1;\n}}\n"
    )
);
case!(
    duplicate_orientation,
    "lens::duplicate_orientation",
    format!(
        "{CLASS}pattern p : c {{\n    orientations 0 1 1;\n    diagram {{ * }}\n    => * 1;\n}}\n"
    )
);
case!(
    unused_legend_warning,
    "lens::unused_legend",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . * .\n    }}\n    legend {{ q = friend; }}\n    => * 1;\n}}\n"
    )
);
case!(
    move_on_stone_warning,
    "lens::move_on_stone",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . A .\n        . * .\n    }}\n    legend {{ A = foe; }}\n    => A 10;\n}}\n"
    )
);

// ---- labels and points
case!(
    undefined_label,
    "lens::undefined_label",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{\n        . a .\n        . * .\n    }}\n    where libs(b) > 1;\n    => a 1;\n}}\n"
    )
);
case!(
    coord_in_pattern,
    "lens::coord_in_pattern",
    format!("{CLASS}pattern p : c {{\n    diagram {{ . * . }}\n    => d4 1;\n}}\n")
);
case!(
    lens_needs_coordinates,
    "lens::coord_expected",
    "lens 2 link(d3, c4) {\n    field { a empty; * foe } => c3 5;\n}\n"
);
case!(
    duplicate_field_point,
    "lens::duplicate_field_point",
    "lens 2 link(d3, c4) {\n    field { d4 empty; d4 friend } => c3 5;\n}\n"
);
case!(
    joseki_bad_coordinate,
    "lens::bad_coordinate",
    "joseki j {\n    d4 ( t20 | c3 )\n}\n"
);

// ---- names and classes
case!(
    duplicate_class,
    "lens::duplicate_name",
    "class c { field 3x3; }\nclass c { field 5x5; }\n"
);
case!(
    duplicate_pattern,
    "lens::duplicate_name",
    format!(
        "{CLASS}pattern p : c {{ diagram {{ * }} => * 1; }}\npattern p : c {{ diagram {{ * }} => * 2; }}\n"
    )
);
case!(
    global_and_extern_clash,
    "lens::duplicate_name",
    "global phase;\nextern phase(point) cost 5;\n"
);
case!(
    bad_global_name,
    "lens::bad_name",
    "global a1;\nglobal q;\nextern libs(point) cost 3;\n"
);
case!(
    unknown_class,
    "lens::unknown_class",
    format!("{CLASS}pattern p : shape {{ diagram {{ * }} => * 1; }}\n")
);
case!(
    missing_class,
    "lens::missing_class",
    format!("{CLASS}pattern p {{ diagram {{ * }} => * 1; }}\n")
);
case!(
    glob_class_mismatch,
    "lens::class_mismatch",
    format!(
        "{CLASS}class d {{ }}\nglob g : c {{\n    pattern p : d {{ diagram {{ * }} => * 1; }}\n}}\n"
    )
);
case!(
    duplicate_option,
    "lens::duplicate_option",
    "class c {\n    mode best;\n    field 3x3;\n    mode all;\n}\n"
);
case!(
    bad_field_size,
    "lens::bad_field_size",
    "class c { field 4x5; }\n"
);

// ---- pattern structure
case!(
    missing_diagram,
    "lens::missing_diagram",
    format!("{CLASS}pattern p : c {{ => * 1; }}\n")
);
case!(
    missing_result,
    "lens::missing_result",
    format!("{CLASS}pattern p : c {{ diagram {{ * }} }}\n")
);
case!(
    duplicate_item,
    "lens::duplicate_item",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{ * }}\n    diagram {{ . * }}\n    => * 1;\n    => * 2;\n}}\n"
    )
);
case!(
    header_with_result,
    "lens::header_result",
    format!(
        "{CLASS}glob g : c {{\n    header {{\n        diagram {{ * }}\n        => * 1;\n    }}\n}}\n"
    )
);
case!(
    unknown_sequence,
    "lens::unknown_sequence",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{ a * }}\n    => * 5 seq main;\n    sequence other {{ * a }}\n}}\n"
    )
);

// ---- tests
case!(
    unknown_name,
    "lens::unknown_name",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{ * }}\n    where phase > 2;\n    => * 1;\n}}\n"
    )
);
case!(
    unknown_function,
    "lens::unknown_function",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{ * }}\n    where liberties(*) > 2;\n    => * 1;\n}}\n"
    )
);
case!(
    wrong_arity,
    "lens::wrong_arity",
    format!(
        "{CLASS}extern alive(point) cost 40;\npattern p : c {{\n    diagram {{ a * }}\n    where libs(a, *) > 2 && alive;\n    => * 1;\n}}\n"
    )
);
case!(
    wrong_argument_kind,
    "lens::wrong_argument_kind",
    format!(
        "{CLASS}pattern p : c {{\n    diagram {{ a * }}\n    where libs(3) > 2 && dist(a, empty) < 3 && count(a, *, 1) > 0;\n    => * 1;\n}}\n"
    )
);
case!(
    type_mismatch,
    "lens::type_mismatch",
    format!(
        "{CLASS}global phase;\npattern p : c {{\n    diagram {{ a * }}\n    where libs(a);\n    where phase && true;\n    where a == *;\n    => * 1;\n}}\n"
    )
);

// ---- files
#[test]
fn include_cycle() {
    snapshot(
        "include_cycle",
        run_paths(&["fixtures/frontend/cycle_a.lens"]),
        "lens::include_cycle",
    );
}

#[test]
fn missing_include() {
    snapshot(
        "missing_include",
        run_paths(&["fixtures/frontend/missing_include.lens"]),
        "lens::missing_include",
    );
}

#[test]
fn missing_file() {
    snapshot(
        "missing_file",
        run_paths(&["fixtures/frontend/does_not_exist.lens"]),
        "lens::missing_file",
    );
}

#[test]
fn duplicate_across_files() {
    let r = run_paths(&["fixtures/frontend/dup_class_a.lens"]);
    // The two labels are in different files; both files are named in the output.
    let rendered = lens_dsl::render_human(&r.0.sources, &r.1, false);
    assert!(
        rendered.contains("dup_class_a.lens") && rendered.contains("dup_class_b.lens"),
        "{rendered}"
    );
    snapshot("duplicate_across_files", r, "lens::duplicate_name");
}

#[test]
fn json_is_one_object_per_line() {
    let (program, diags) = run_str(
        "json",
        &format!("{CLASS}pattern p : c {{ diagram {{ a * }} where libs(b) > 1; => * 1 seq s; }}\n"),
    );
    assert_eq!(diags.len(), 2, "{diags:?}");
    for d in &diags {
        let line = lens_dsl::render_json(&program.sources, d);
        assert!(!line.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).expect("valid JSON");
        assert_eq!(v["file"], "json.lens");
        assert_eq!(v["line"], 2);
        assert!(v["code"].as_str().unwrap().starts_with("lens::"));
    }
}

#[test]
fn colour_only_when_asked() {
    let (program, diags) = run_str(
        "colour",
        &format!("{CLASS}pattern p : nope {{ diagram {{ * }} => * 1; }}\n"),
    );
    assert!(!lens_dsl::render_human(&program.sources, &diags, false).contains('\u{1b}'));
    assert!(lens_dsl::render_human(&program.sources, &diags, true).contains('\u{1b}'));
}

/// A 5x3 class: a 5x3 diagram fits when the pattern is only tried upright or half-turned.
const WIDE: &str = "class wide { field 5x3; orient all; }\npattern flat : wide {\n    ORIENT\n    diagram {\n        . . . . .\n        . X * O .\n        . . . . .\n    }\n    => * 1;\n}\n";

#[test]
fn field_check_follows_pattern_orientations() {
    for (orient, fits) in [
        ("orientations 0 2;", true),
        ("orientations 4 6;", true),
        ("orientations 0 1;", false),
        ("orientations 7;", false),
        ("", false),
    ] {
        let (_, diags) = run_str("wide", &WIDE.replace("ORIENT", orient));
        let exceeds = diags.iter().any(|d| d.code == "lens::exceeds_field");
        assert_eq!(exceeds, !fits, "{orient:?}: {diags:?}");
    }
}
