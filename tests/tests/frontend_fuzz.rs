//! Property tests: the front end never panics, whatever the bytes; and on every input that
//! parses cleanly the formatter is idempotent and preserves the AST modulo spans.

use proptest::prelude::*;
use std::path::PathBuf;

fn examples() -> Vec<String> {
    let mut files = Vec::new();
    lens_dsl::load::collect_lens_files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples"),
        &mut files,
    );
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

fn strip(file: &lens_dsl::ast::File) -> serde_json::Value {
    fn go(v: &mut serde_json::Value) {
        match v {
            // A bare `Span` (e.g. `SeqNode::Pass`) is an object of exactly `start` and `end`.
            serde_json::Value::Object(m)
                if m.len() == 2 && m.contains_key("start") && m.contains_key("end") =>
            {
                *v = serde_json::Value::Null;
            }
            serde_json::Value::Object(m) => {
                m.remove("span");
                m.values_mut().for_each(go);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(go),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(file).unwrap();
    go(&mut v);
    v
}

/// Everything a tool would run on a text: parse, load, check, render, format.
fn exercise(text: &str) {
    let (ast, diags) = lens_dsl::parse(0, text);
    // Includes are not followed here (load_str would read files relative to the test's cwd).
    let mut program = lens_dsl::Program::default();
    program.sources.add("fuzz.lens", text);
    program.files.push((0, ast.clone()));
    let mut all = diags.clone();
    all.extend(lens_dsl::check(&program));
    let _ = lens_dsl::render_human(&program.sources, &all, false);
    for d in &all {
        let _ = lens_dsl::render_json(&program.sources, d);
        for l in &d.labels {
            assert!(
                l.span.start <= l.span.end && l.span.end <= text.len(),
                "span out of range: {d:?}"
            );
        }
    }
    if diags.is_empty() {
        let once = lens_dsl::fmt::format(&ast, text);
        let (ast2, d2) = lens_dsl::parse(0, &once);
        assert!(
            d2.is_empty(),
            "formatted text does not parse: {d2:?}\n--- input\n{text}\n--- formatted\n{once}"
        );
        assert_eq!(
            strip(&ast),
            strip(&ast2),
            "fmt changed the AST\n--- input\n{text}\n--- formatted\n{once}"
        );
        assert_eq!(
            once,
            lens_dsl::fmt::format(&ast2, &once),
            "fmt not idempotent\n--- input\n{text}"
        );
    }
}

/// Tokens that make mutations likely to stay near the grammar.
const PIECES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    ";",
    "=>",
    "*",
    "|",
    "-",
    "+",
    "//",
    "\n",
    " ",
    "diagram {",
    "legend {",
    "where",
    "a",
    "X",
    "O",
    ".",
    "?",
    "#",
    "pattern q : shape {",
    "glob g {",
    "header {",
    "sequence s {",
    "field {",
    "d4",
    "libs(",
    "0x1F",
    "99999999999999999999",
    "\"",
    "é",
    "\t",
    "!",
    "&&",
    "==",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), 0..PIECES.len()).prop_map(|(a, p)| Mutation::Insert(a, p)),
        (any::<usize>(), 1usize..80).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in muts {
        let len = chars.len().max(1);
        match *m {
            Mutation::Delete(a, n) => {
                let a = a % len;
                let b = (a + n).min(chars.len());
                if a < b {
                    chars.drain(a..b);
                }
            }
            Mutation::Insert(a, p) => {
                let a = a % (chars.len() + 1);
                let piece: Vec<char> = PIECES[p].chars().collect();
                chars.splice(a..a, piece);
            }
            Mutation::Duplicate(a, n) => {
                let a = a % len;
                let b = (a + n).min(chars.len());
                let copy: Vec<char> = chars.get(a..b).map(|s| s.to_vec()).unwrap_or_default();
                chars.splice(b..b, copy);
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_token_soup_never_panics(picks in proptest::collection::vec(0..PIECES.len(), 0..120)) {
        let text: String = picks.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join(" ");
        exercise(&text);
    }

    #[test]
    fn mutated_examples_never_panic(which in any::<usize>(), muts in proptest::collection::vec(mutation(), 1..6)) {
        let ex = examples();
        let text = apply(&ex[which % ex.len()], &muts);
        exercise(&text);
    }
}

#[test]
fn every_example_survives_every_single_line_deletion() {
    // Deterministic companion of the random mutations: drop each line in turn.
    for ex in examples() {
        let lines: Vec<&str> = ex.lines().collect();
        for i in 0..lines.len() {
            let text: String = lines
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            exercise(&text);
        }
    }
}
