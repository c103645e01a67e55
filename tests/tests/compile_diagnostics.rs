//! Semantic checks of the compiler: each bad source gives spanned diagnostics with stable
//! codes; the rendered text (no colour) is pinned by insta snapshots.

use lens_compiler::{Options, compile_str};

/// Compile and return (error codes, warning codes, rendered text of everything reported).
fn diagnose(name: &str, src: &str) -> (Vec<&'static str>, Vec<&'static str>, String) {
    let (sources, result) = compile_str(name, src, &Options::default());
    let diags = match result {
        Ok(c) => c.warnings,
        Err(d) => d,
    };
    let errors = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    let warnings = diags
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| d.code)
        .collect();
    (
        errors,
        warnings,
        lens_dsl::render_human(&sources, &diags, false),
    )
}

const CLASSES: &str = "
class c3 { mode best; focus empty; field 3x3; }
class c5 { mode all; focus empty; field 5x5; }
";

fn with_classes(body: &str) -> String {
    format!("{CLASSES}\n{body}")
}

#[test]
fn focus_contradicting_the_class() {
    let src = with_classes(
        "
pattern p : c3 {
    diagram {
        O Q .
    }
    legend { Q = friend, focus; }
    => * 1;
}
",
    );
    let (errors, _, text) = diagnose("focus.lens", &src);
    assert_eq!(errors, vec!["lens::focus_contradicts_class"]);
    insta::assert_snapshot!(text);
}

#[test]
fn off_board_point_inside_the_drawn_edges() {
    let src = with_classes(
        "
pattern p : c5 {
    diagram {
        + - - -
        | e * .
        | . . .
    }
    legend { e = off; }
    => * 1;
}
",
    );
    let (errors, _, text) = diagnose("edges.lens", &src);
    assert_eq!(errors, vec!["lens::off_board_inside_edges"]);
    insta::assert_snapshot!(text);
}

#[test]
fn opposite_edges_too_close() {
    let src = with_classes(
        "
pattern p : c5 {
    diagram {
        - - -
        . * .
        . . .
        - - -
    }
    => * 1;
}
",
    );
    let (errors, _, text) = diagnose("narrow.lens", &src);
    assert_eq!(errors, vec!["lens::impossible_edges"]);
    insta::assert_snapshot!(text);
}

#[test]
fn unknown_labels_and_sequences() {
    let src = with_classes(
        "
pattern p : c5 {
    diagram {
        X a .
        . * .
    }
    where libs(b) > 1;
    sequence s { a c }
    => z 5 seq t;
}
",
    );
    let (errors, _, text) = diagnose("labels.lens", &src);
    assert_eq!(
        errors,
        vec![
            "lens::unknown_label",
            "lens::unknown_label",
            "lens::unknown_label"
        ]
    );
    insta::assert_snapshot!(text);
}

#[test]
fn unknown_sequence_name() {
    let src = with_classes(
        "
pattern p : c5 {
    diagram {
        X a .
        . * .
    }
    sequence s { a * }
    => a 5 seq t;
}
",
    );
    let (errors, _, _) = diagnose("seq.lens", &src);
    assert_eq!(errors, vec!["lens::unknown_sequence"]);
}

#[test]
fn pattern_larger_than_its_field() {
    let src = with_classes(
        "
pattern p : c3 {
    diagram {
        . . * . .
    }
    => * 1;
}
",
    );
    let (errors, _, text) = diagnose("field.lens", &src);
    assert_eq!(errors, vec!["lens::outside_field"]);
    insta::assert_snapshot!(text);
}

#[test]
fn contradictory_lens_field() {
    let src = "
lens 2 l(d3, c4) {
    field { d4 empty; d4 foe; } => c3 5;
}
";
    let (errors, _, text) = diagnose("lens.lens", src);
    assert_eq!(errors, vec!["lens::contradiction"]);
    insta::assert_snapshot!(text);
}

#[test]
fn result_on_a_point_that_is_never_empty_warns() {
    let src = with_classes(
        "
pattern p : c5 {
    diagram {
        X a .
        . * .
    }
    legend { a = friend; }
    => a 5;
}
",
    );
    let (errors, warnings, _) = diagnose("stone.lens", &src);
    assert!(errors.is_empty());
    assert_eq!(warnings, vec!["lens::result_on_stone"]);
}

#[test]
fn wrong_declared_symmetry_warns() {
    let src = with_classes(
        "
pattern p : c3 {
    symmetry full;
    diagram {
        X O .
        . * .
    }
    => * 5;
}
pattern q : c3 {
    symmetry |;
    diagram {
        O X O
        . * .
    }
    => * 5;
}
",
    );
    let (errors, warnings, text) = diagnose("sym.lens", &src);
    assert!(errors.is_empty());
    // `q` is mirror-symmetric as declared: only `p` is reported.
    assert_eq!(warnings, vec!["lens::wrong_symmetry"]);
    insta::assert_snapshot!(text);
}

#[test]
fn unreachable_pattern_warns_in_best_mode_only() {
    let body = "
pattern wide : CLASS {
    diagram {
        . * .
    }
    => * 4;
}
pattern narrow : CLASS {
    diagram {
        . * .
        . O .
    }
    => * 4;
}
";
    let (errors, warnings, text) =
        diagnose("hidden.lens", &with_classes(&body.replace("CLASS", "c3")));
    assert!(errors.is_empty());
    assert_eq!(warnings, vec!["lens::unreachable_pattern"]);
    insta::assert_snapshot!(text);
    // In an `all` class every match is reported, so nothing is hidden.
    let (_, warnings, _) = diagnose("hidden.lens", &with_classes(&body.replace("CLASS", "c5")));
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn joseki_blocks_are_reported_not_rejected() {
    let (errors, warnings, _) = diagnose("j.lens", "joseki j { d4 ( c6 | f3 ) }");
    assert!(errors.is_empty());
    assert_eq!(warnings, vec!["lens::joseki_not_compiled"]);
}

#[test]
fn several_problems_reported_in_one_run() {
    let src = with_classes(
        "
pattern a : c3 {
    diagram {
        O Q .
    }
    legend { Q = foe, focus; }
    => * 1;
}
pattern b : c3 {
    diagram {
        . . * . .
    }
    => * 1;
}
pattern c : c5 {
    diagram {
        X . .
        . * .
    }
    where libs(q) > 1;
    => * 2;
}
",
    );
    let (errors, _, text) = diagnose("many.lens", &src);
    assert_eq!(
        errors,
        vec![
            "lens::focus_contradicts_class",
            "lens::outside_field",
            "lens::unknown_label"
        ]
    );
    insta::assert_snapshot!(text);
}
