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
    // Reported by the front end's checks, through the compiler's API.
    assert_eq!(
        errors,
        vec![
            "lens::undefined_label",
            "lens::undefined_label",
            "lens::undefined_label",
            "lens::unknown_sequence"
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
fn pattern_that_fits_its_field_only_as_drawn() {
    // A 5x3 field: the row fits as drawn, but `orientations 0 1` also turns it a quarter.
    let src = "
class wide { focus empty; field 5x3; orient identity; }
pattern p : wide {
    orientations 0 1;
    diagram {
        . . * . .
    }
    => * 1;
}
pattern q : wide {
    orientations 0 2;
    diagram {
        . . * . .
    }
    => * 1;
}
";
    let (errors, _, text) = diagnose("field.lens", src);
    // `q` is only tried in orientations that keep rows as rows: it fits. The front end
    // catches `p` (the compiler's `outside_field_rotated` is the backstop behind it).
    assert_eq!(errors, vec!["lens::exceeds_field"]);
    assert!(
        text.contains("orientations 0 1") && !text.contains("orientations 0 2"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn lens_with_more_endpoints_than_the_rom_holds() {
    let src = "
lens 2 l(a1, b1, c1, d1, e1, f1, g1, h1, j1) {
    field { b2 empty; } => b2 5;
}
";
    let (errors, _, text) = diagnose("lens.lens", src);
    assert_eq!(errors, vec!["lens::too_many_endpoints"]);
    insta::assert_snapshot!(text);
}

#[test]
fn result_on_a_point_that_is_always_off_the_board() {
    let src = with_classes(
        "
pattern p : c5 {
    diagram {
        X e .
        . * .
    }
    legend { e = off; }
    => e 5;
}
",
    );
    let (errors, _, _) = diagnose("off.lens", &src);
    assert_eq!(errors, vec!["lens::result_off_board"]);
}

#[test]
fn wrong_declared_symmetry_warns() {
    // `p` is symmetric under y -> -y but declares none; `q` declares its mirror correctly.
    // (Declaring more symmetry than the diagram has is the front end's error.)
    let src = with_classes(
        "
pattern p : c3 {
    symmetry 8;
    diagram {
        . O .
        X * .
        . O .
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
    assert!(errors.is_empty(), "{text}");
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
fn joseki_moves_outside_the_corner_frame() {
    // The front end rejects the coordinate; the compiler does not repeat it.
    let (errors, _, _) = diagnose("j.lens", "joseki j { d4 ( c6 | z3 ) }");
    assert_eq!(errors, vec!["lens::bad_coordinate"]);
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
    // The compiler's own check and the front end's, in one run.
    assert_eq!(
        errors,
        vec![
            "lens::focus_contradicts_class",
            "lens::exceeds_field",
            "lens::undefined_label"
        ]
    );
    insta::assert_snapshot!(text);
}
