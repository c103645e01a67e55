//! The bundled examples: they parse and check clean, together use every construct, and the
//! formatter is idempotent on them and preserves their meaning.

use lens_dsl::ast::{self, Item, PatternItem, ResultSpec};
use std::path::PathBuf;

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn example_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    lens_dsl::load::collect_lens_files(&examples_dir(), &mut v);
    assert!(v.len() >= 5, "examples missing: {v:?}");
    v
}

/// An AST as JSON with every `span` removed (comparison modulo spans).
pub fn strip_spans(file: &ast::File) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            // A bare `Span` (e.g. `SeqNode::Pass`) is an object of exactly `start` and `end`.
            serde_json::Value::Object(m)
                if m.len() == 2 && m.contains_key("start") && m.contains_key("end") =>
            {
                *v = serde_json::Value::Null;
            }
            serde_json::Value::Object(m) => {
                m.remove("span");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(file).expect("AST serialises");
    strip(&mut v);
    v
}

#[test]
fn examples_parse_and_check_clean() {
    let (program, diags) = lens_dsl::load_paths(&[examples_dir()]);
    let mut all = diags;
    all.extend(lens_dsl::check(&program));
    let rendered = lens_dsl::render_human(&program.sources, &all, false);
    assert!(all.is_empty(), "examples have diagnostics:\n{rendered}");
    assert_eq!(
        program.files.len(),
        example_files().len(),
        "every example loaded once"
    );
}

#[test]
fn fmt_is_idempotent_and_preserves_the_ast() {
    for path in example_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (ast1, d1) = lens_dsl::parse(0, &text);
        assert!(d1.is_empty(), "{}: {d1:?}", path.display());
        let once = lens_dsl::fmt::format(&ast1, &text);
        let (ast2, d2) = lens_dsl::parse(0, &once);
        assert!(
            d2.is_empty(),
            "{}: formatted text does not parse: {d2:?}\n{once}",
            path.display()
        );
        assert_eq!(
            strip_spans(&ast1),
            strip_spans(&ast2),
            "{}: fmt changed the meaning",
            path.display()
        );
        let twice = lens_dsl::fmt::format(&ast2, &once);
        assert_eq!(once, twice, "{}: fmt is not idempotent", path.display());
        assert_eq!(
            once,
            text,
            "{}: example is not in canonical form (run `lensc fmt --write examples/`)",
            path.display()
        );
    }
}

/// Together the examples use every construct of the language.
#[test]
fn examples_cover_every_construct() {
    let (program, _) = lens_dsl::load_paths(&[examples_dir()]);
    let mut seen: std::collections::BTreeSet<&'static str> = Default::default();
    let mut symbols: std::collections::BTreeSet<char> = Default::default();
    fn items(
        seen: &mut std::collections::BTreeSet<&'static str>,
        symbols: &mut std::collections::BTreeSet<char>,
        its: &[PatternItem],
    ) {
        for it in its {
            let name = match it {
                PatternItem::Priority(_) => "priority",
                PatternItem::Symmetry(_) => "symmetry",
                PatternItem::Orientations(_) => "orientations",
                PatternItem::Diagram(d) => {
                    d.rows.iter().flat_map(|r| &r.cells).for_each(|c| {
                        symbols.insert(c.node);
                    });
                    "diagram"
                }
                PatternItem::Legend(_) => "legend",
                PatternItem::Where(_) => "where",
                PatternItem::Result(ResultSpec::Move {
                    bits: Some(_),
                    sequence: Some(_),
                    ..
                }) => "move+bits+seq",
                PatternItem::Result(ResultSpec::Move { .. }) => "move",
                PatternItem::Result(ResultSpec::Reject { .. }) => "reject",
                PatternItem::Result(ResultSpec::Value { bits: Some(_), .. }) => "value+bits",
                PatternItem::Result(ResultSpec::Value { .. }) => "value",
                PatternItem::Sequence(s) => {
                    if s.body
                        .iter()
                        .any(|n| matches!(n, ast::SeqNode::Branch { .. }))
                    {
                        seen.insert("sequence-branch");
                    }
                    "sequence"
                }
                PatternItem::Attr { .. } => "attr",
            };
            seen.insert(name);
        }
    }
    fn glob(
        seen: &mut std::collections::BTreeSet<&'static str>,
        symbols: &mut std::collections::BTreeSet<char>,
        g: &ast::Glob,
        depth: usize,
    ) {
        seen.insert(if depth > 0 { "nested-glob" } else { "glob" });
        if let Some(h) = &g.header {
            seen.insert("glob-header");
            items(seen, symbols, &h.items);
        }
        for m in &g.members {
            match m {
                ast::GlobMember::Pattern(p) => items(seen, symbols, &p.items),
                ast::GlobMember::Glob(inner) => glob(seen, symbols, inner, depth + 1),
            }
        }
    }
    let src = program
        .sources
        .files
        .iter()
        .map(|f| f.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for (_, f) in &program.files {
        for item in &f.items {
            match item {
                Item::Include(_) => {
                    seen.insert("include");
                }
                Item::Global(_) => {
                    seen.insert("global");
                }
                Item::Extern(_) => {
                    seen.insert("extern");
                }
                Item::Class(_) => {
                    seen.insert("class");
                }
                Item::Pattern(p) => items(&mut seen, &mut symbols, &p.items),
                Item::Glob(g) => glob(&mut seen, &mut symbols, g, 0),
                Item::Lens(l) => {
                    seen.insert("lens");
                    if l.fields
                        .iter()
                        .any(|f| f.items.iter().any(|i| matches!(i, ast::FieldItem::Test(_))))
                    {
                        seen.insert("lens-embedded-test");
                    }
                }
                Item::Joseki(_) => {
                    seen.insert("joseki");
                }
            }
        }
    }
    for want in [
        "include",
        "global",
        "extern",
        "class",
        "priority",
        "symmetry",
        "orientations",
        "diagram",
        "legend",
        "where",
        "move",
        "move+bits+seq",
        "reject",
        "value",
        "value+bits",
        "sequence",
        "sequence-branch",
        "attr",
        "glob",
        "glob-header",
        "nested-glob",
        "lens",
        "lens-embedded-test",
        "joseki",
    ] {
        assert!(seen.contains(want), "no example uses {want}");
    }
    for c in ['O', 'X', '.', '?', 'o', 'x', '*', '-', '|', '+', '#', 'e'] {
        assert!(symbols.contains(&c), "no example diagram uses `{c}`");
    }
    for b in lens_dsl::builtins::BUILTINS {
        assert!(
            src.contains(&format!("{}(", b.name)),
            "no example uses built-in `{}`",
            b.name
        );
    }
    for m in [
        "mode best",
        "mode all",
        "mode first",
        "focus empty",
        "focus friend",
        "orient up",
        "orient identity",
        "field 9x9",
    ] {
        assert!(src.contains(m), "no example uses `{m}`");
    }
    assert!(
        src.contains("lens 2 diagonal_defence(d3, c4)"),
        "the seed lens is missing"
    );
}
