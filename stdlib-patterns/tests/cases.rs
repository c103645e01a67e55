//! Every pattern and lens of the standard library against its `cases/*.cases` positions: each
//! must be reported where a `match` case says (with the expected result) and not reported where
//! a `no-match` case says; every pattern and lens must have both kinds of case. Every case is
//! run twice: as written (matched for White) and with all colours swapped (matched for Black).

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use lens_dsl::ast::{GlobMember, Item};
use lens_vm::board::{Board, Colour, coords};
use support::{Case, Expect, SectionKind};

/// Pattern name -> class name, and the lens names, from the sources' AST.
fn source_names() -> (BTreeMap<String, String>, Vec<String>) {
    let (program, diags) =
        lens_dsl::load_paths(&[Path::new(lens_stdlib::SOURCE_DIR).to_path_buf()]);
    assert!(
        diags.is_empty(),
        "the stdlib sources do not load: {diags:?}"
    );
    let mut patterns = BTreeMap::new();
    let mut lenses = Vec::new();
    fn glob_members(class: &str, members: &[GlobMember], out: &mut BTreeMap<String, String>) {
        for m in members {
            match m {
                GlobMember::Pattern(p) => {
                    out.insert(p.name.node.clone(), class.to_string());
                }
                GlobMember::Glob(g) => glob_members(class, &g.members, out),
            }
        }
    }
    for (_, file) in &program.files {
        for item in &file.items {
            match item {
                Item::Pattern(p) => {
                    let class = p.class.as_ref().expect("top-level patterns name a class");
                    patterns.insert(p.name.node.clone(), class.node.clone());
                }
                Item::Glob(g) => {
                    let class = g.class.as_ref().expect("top-level globs name a class");
                    glob_members(&class.node, &g.members, &mut patterns);
                }
                Item::Lens(l) => lenses.push(l.name.node.clone()),
                _ => {}
            }
        }
    }
    (patterns, lenses)
}

fn sections() -> Vec<support::Section> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let mut all = Vec::new();
    for path in support::case_files(&dir) {
        let text = std::fs::read_to_string(&path).expect("readable case file");
        let name = format!("cases/{}", path.file_name().unwrap().to_string_lossy());
        match support::parse(&name, &text) {
            Ok(s) => all.extend(s),
            Err(e) => panic!("{e}"),
        }
    }
    all
}

fn vertex(p: &str, size: u8, origin: &str) -> (i32, i32) {
    match coords::parse_vertex(p, size) {
        Ok(Some(xy)) => xy,
        _ => panic!("{origin}: bad point {p:?} for a {size}x{size} board"),
    }
}

fn name_of(size: u8, x: i32, y: i32) -> String {
    coords::format_vertex(x, y, size)
        .map(|n| n.as_str().to_string())
        .unwrap_or_else(|| format!("({x},{y})"))
}

/// The results the library reports for `name` in one case, rendered like the case files.
fn pattern_results(
    rom: &lens_vm::Rom<'_>,
    class: &str,
    name: &str,
    case: &Case,
    swap: bool,
) -> Vec<String> {
    use lens_vm::{Match, MatchBuf, MatchResult, NoHost, Orientations, Query, Scratch};
    let text = if swap {
        support::swap_colours(&case.board)
    } else {
        case.board.clone()
    };
    let board =
        Board::from_diagram(&text).unwrap_or_else(|e| panic!("{}: board: {e}", case.origin));
    let size = board.size();
    let (x, y) = vertex(&case.points[0], size, &case.origin);
    let white = !case.as_black;
    let perspective = if white != swap {
        Colour::White
    } else {
        Colour::Black
    };
    let class = rom
        .class_by_name(class)
        .unwrap_or_else(|| panic!("class {class} not in the ROM"));
    let q = Query {
        class,
        perspective,
        orientations: Orientations::All,
    };
    let mut scratch = Scratch::new();
    let mut slots = [Match::EMPTY; 256];
    let mut out = MatchBuf::new(&mut slots);
    rom.match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut out);
    let mut found = Vec::new();
    for m in out.as_slice() {
        if rom.pattern_name(m.pattern) != Some(name) {
            continue;
        }
        found.push(match m.result {
            MatchResult::Move { x, y, value, .. } => {
                format!("move {} value {value}", name_of(size, x, y))
            }
            MatchResult::Reject { x, y } => format!("reject {}", name_of(size, x, y)),
            MatchResult::Value { value, .. } => format!("value {value}"),
            MatchResult::None => "none".to_string(),
        });
    }
    found
}

fn lens_results(rom: &lens_vm::Rom<'_>, name: &str, case: &Case, swap: bool) -> Vec<String> {
    use lens_vm::{Match, MatchBuf, MatchResult, NoHost};
    let text = if swap {
        support::swap_colours(&case.board)
    } else {
        case.board.clone()
    };
    let board =
        Board::from_diagram(&text).unwrap_or_else(|e| panic!("{}: board: {e}", case.origin));
    let size = board.size();
    let ends: Vec<(i32, i32)> = case
        .points
        .iter()
        .map(|p| vertex(p, size, &case.origin))
        .collect();
    let white = !case.as_black;
    let perspective = if white != swap {
        Colour::White
    } else {
        Colour::Black
    };
    let lens = rom
        .lens_by_name(name)
        .unwrap_or_else(|| panic!("lens {name} not in the ROM"));
    let mut slots = [Match::EMPTY; 256];
    let mut out = MatchBuf::new(&mut slots);
    rom.eval_lens(lens, &ends, perspective, &board, &NoHost, &mut out);
    out.as_slice()
        .iter()
        .map(|m| match m.result {
            MatchResult::Move { x, y, value, .. } => {
                format!("move {} value {value}", name_of(size, x, y))
            }
            MatchResult::Reject { x, y } => format!("reject {}", name_of(size, x, y)),
            MatchResult::Value { value, .. } => format!("value {value}"),
            MatchResult::None => "none".to_string(),
        })
        .collect()
}

#[test]
fn every_pattern_and_lens_has_a_match_and_a_no_match_case() {
    let (patterns, lenses) = source_names();
    assert!(
        patterns.len() >= 300,
        "the library has {} patterns",
        patterns.len()
    );
    let mut seen: BTreeMap<(SectionKind, String), (usize, usize)> = BTreeMap::new();
    let mut errors = Vec::new();
    for s in sections() {
        let known = match s.kind {
            SectionKind::Pattern => patterns.contains_key(&s.name),
            SectionKind::Lens => lenses.contains(&s.name),
        };
        if !known {
            errors.push(format!("{}: no {:?} named {}", s.origin, s.kind, s.name));
        }
        let e = seen.entry((s.kind, s.name.clone())).or_default();
        for c in &s.cases {
            if c.expect.is_some() {
                e.0 += 1
            } else {
                e.1 += 1
            }
        }
    }
    let want = patterns
        .keys()
        .map(|n| (SectionKind::Pattern, n.clone()))
        .chain(lenses.iter().map(|n| (SectionKind::Lens, n.clone())));
    for key in want {
        match seen.get(&key) {
            Some((m, n)) if *m > 0 && *n > 0 => {}
            Some((m, n)) => errors.push(format!(
                "{:?} {}: {m} match and {n} no-match cases (need both)",
                key.0, key.1
            )),
            None => errors.push(format!("{:?} {}: no cases", key.0, key.1)),
        }
    }
    assert!(
        errors.is_empty(),
        "{} problems:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn every_case_holds_for_both_colours() {
    let (patterns, _) = source_names();
    let rom = lens_stdlib::rom();
    let mut errors = Vec::new();
    let mut checked = 0;
    for s in sections() {
        for case in &s.cases {
            for swap in [false, true] {
                let got = match s.kind {
                    SectionKind::Pattern => match patterns.get(&s.name) {
                        Some(class) => pattern_results(&rom, class, &s.name, case, swap),
                        None => continue, // reported by the other test
                    },
                    SectionKind::Lens => lens_results(&rom, &s.name, case, swap),
                };
                checked += 1;
                let colours = if swap { " (colours swapped)" } else { "" };
                match &case.expect {
                    Some(want) => {
                        let want = want.to_string();
                        if !got.contains(&want) {
                            errors.push(format!(
                                "{}{colours}: {} expected {want}, got {got:?}",
                                case.origin, s.name
                            ));
                        }
                    }
                    None if !got.is_empty() => errors.push(format!(
                        "{}{colours}: {} expected no match, got {got:?}",
                        case.origin, s.name
                    )),
                    None => {}
                }
            }
        }
    }
    assert!(checked > 600, "only {checked} checks ran");
    assert!(
        errors.is_empty(),
        "{} failing cases:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn class_and_lens_constants_are_the_roms() {
    let rom = lens_stdlib::rom();
    let mut names: Vec<&str> = rom.classes().map(|c| c.name()).collect();
    names.sort_unstable();
    let mut want = lens_stdlib::CLASSES.to_vec();
    want.sort_unstable();
    assert_eq!(names, want);
    for lens in lens_stdlib::LENSES {
        assert!(rom.lens_by_name(lens).is_some(), "lens {lens} missing");
    }
}

#[test]
fn expect_parser_rejects_malformed_cases() {
    assert!(
        support::parse("t", "match at D4 -> move D4 value 3\n").is_err(),
        "case before a section"
    );
    assert!(
        support::parse("t", "pattern p\nmatch at D4\n").is_err(),
        "match without a result"
    );
    assert!(
        support::parse("t", "pattern p\nno-match at D4 -> value 2\n").is_err(),
        "no-match with a result"
    );
    assert!(
        support::parse("t", "pattern p\nmatch at D4 -> move D4\n").is_err(),
        "move without a value"
    );
    let s = support::parse("t", "pattern p\nmatch at D4 -> value 2\n  . .\nas B\n").unwrap();
    assert_eq!(s[0].cases[0].expect, Some(Expect::Value { value: 2 }));
    assert!(s[0].cases[0].as_black);
    assert_eq!(s[0].cases[0].board, ". .\n");
}
