//! `lens_compiler::import::gnugo` on a small hand-written database (snapshot of the `.lens`
//! output and the report) and on every public GNU Go database (no errors, known counts).

mod gnugo_support;

use gnugo_support::data_dir;
use lens_compiler::import::gnugo::{Mkpat, Options, import_str};

/// A database written for this test (not GNU Go's): every construct the importer handles.
const SAMPLE: &str = "\
# header comment
attribute_map general
goal_elements none
callback_data XOxo

Pattern Hane1
# a comment inside the block

?X?.       hane at the head
.O*o
....
----

:|,OB,value(12.5),shape(-1)

?A?.
.Omb
....
----

;lib(A)>1 && (o_somewhere(b) ? xlib(*) > 2 : !attack(A))
;&& !oplay_attack(*,?,b)

Pattern Corner2

|.Q.
|.*,
|!..
+---

:8,sE,terri(0.5),thrash_around_helper

>antisuji(*)

Pattern NoMove3

X.X
.O.

:X,C

Pattern Float4

O*X

:8,-

A*B

;weakness(A) < 0.7
";

#[test]
fn sample_import_snapshot() {
    // `-c`: NoMove3 has no `*`, which mkpat accepts in connection databases only.
    let mkpat = Some(Mkpat::parse("-c -b").unwrap());
    let opts = Options {
        mkpat: mkpat.clone(),
        ..Default::default()
    };
    let out = import_str("sample.db", SAMPLE, &opts);
    insta::assert_snapshot!("gnugo_sample_lens", out.source);
    insta::assert_snapshot!("gnugo_sample_report", out.report.to_text());
    assert_eq!(out.report.full(), 1);
    assert_eq!(out.report.with_externs(), 3);
    assert_eq!(out.report.not_imported(), 0);
    // Without -c, NoMove3 is left out (mkpat rejects it).
    let plain = import_str("sample.db", SAMPLE, &Options::default());
    assert_eq!(plain.report.not_imported(), 1);
    let geo = import_str(
        "sample.db",
        SAMPLE,
        &Options {
            mkpat,
            geometric_only: true,
            ..Default::default()
        },
    );
    assert_eq!(geo.report.full(), 4);
    assert!(!geo.source.contains("where"));
}

/// (file, patterns) for the public databases. Every pattern imports with its constraints: the
/// whole-side fuseki and handicap patterns go to the `_wide` class (fields up to 25x25), and
/// the longest move sequences (17 arguments) fit the ROM's 20.
const COUNTS: &[(&str, usize)] = &[
    ("attack.db", 14),
    ("barriers.db", 218),
    ("conn.db", 35),
    ("defense.db", 33),
    ("endgame.db", 102),
    ("fuseki.db", 168),
    ("handicap.db", 49),
    ("influence.db", 50),
    ("patterns.db", 994),
    ("patterns2.db", 228),
];

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn every_public_database_imports() {
    let Some(dir) = data_dir() else { return };
    let mut report = String::new();
    let mut mismatches = Vec::new();
    for &(file, patterns) in COUNTS {
        let text = std::fs::read_to_string(dir.join("patterns").join(file)).unwrap();
        let full = import_str(file, &text, &Options::default());
        assert!(
            full.report.errors.is_empty(),
            "{file}: {:?}",
            full.report.errors
        );
        assert_eq!(full.report.outcomes.len(), patterns, "{file}");
        if full.report.not_imported() != 0 {
            mismatches.push(format!(
                "{file}: {} not imported\n{}",
                full.report.not_imported(),
                full.report.to_text()
            ));
        }
        // Geometric-only: every pattern imports fully (no tests, no externs).
        let geo = import_str(
            file,
            &text,
            &Options {
                geometric_only: true,
                ..Default::default()
            },
        );
        assert_eq!(geo.report.full(), patterns, "{file}");
        report.push_str(&full.report.to_text());
    }
    eprintln!("{report}");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The full imports (constraints, externs, globals) compile with zero errors, and the output is
/// canonical: the Lens formatter leaves it unchanged.
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn every_public_database_compiles_and_is_canonical() {
    let Some(dir) = data_dir() else { return };
    for &(file, _) in COUNTS {
        let text = std::fs::read_to_string(dir.join("patterns").join(file)).unwrap();
        for geometric_only in [false, true] {
            let out = import_str(
                file,
                &text,
                &Options {
                    geometric_only,
                    ..Default::default()
                },
            );
            let (ast, diags) = lens_dsl::parse(0, &out.source);
            assert!(diags.is_empty(), "{file}: {diags:?}");
            assert_eq!(
                lens_dsl::fmt::format(&ast, &out.source),
                out.source,
                "{file}: not canonical"
            );
            let (sources, result) = lens_compiler::compile_str(
                &format!("{file}.lens"),
                &out.source,
                &Default::default(),
            );
            if let Err(d) = result {
                panic!("{file}: {}", lens_dsl::render_human(&sources, &d, false));
            }
        }
    }
}

/// GNU Go's `pat` database as mkpat builds it (patterns.db + patterns2.db in one database):
/// imported as one database, its three classes find on the 32 oracle positions, for both
/// colours, exactly the matches (pattern, focus, orientation, result) that the two files'
/// five classes find imported one by one; and it holds every pattern of both files once.
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn one_database_of_two_files_matches_as_the_files_do() {
    use lens_compiler::import::gnugo::{class_names, import_database, stem_ident};
    use lens_vm::board::Colour;
    use lens_vm::{Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};
    use std::collections::BTreeSet;

    let Some(dir) = data_dir() else { return };
    let files = ["patterns.db", "patterns2.db"];
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(dir.join("patterns").join(f)).unwrap())
        .collect();
    let opts = Options {
        geometric_only: true,
        ..Default::default()
    };
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .copied()
        .zip(texts.iter().map(String::as_str))
        .collect();
    let one = import_database("pat", &pairs, &opts);
    assert!(one.report.errors.is_empty(), "{:?}", one.report.errors);
    let apart: Vec<_> = files
        .iter()
        .zip(&texts)
        .map(|(f, t)| import_str(f, t, &opts))
        .collect();
    assert_eq!(
        one.report.imported(),
        apart.iter().map(|i| i.report.imported()).sum::<usize>()
    );
    assert_eq!(one.report.file, "pat (patterns.db + patterns2.db)");
    let layouts: [(String, Vec<String>); 2] = [
        (one.source.clone(), class_names("pat").to_vec()),
        (
            apart.iter().map(|i| i.source.clone() + "\n").collect(),
            files
                .iter()
                .flat_map(|f| class_names(&stem_ident(f)))
                .collect(),
        ),
    ];
    let boards = gnugo_support::positions(&dir);
    let mut slots = vec![Match::EMPTY; 16 * 1024];
    let mut scratch = Scratch::new();
    // (position, pattern, perspective, focus x, focus y, orientation, result)
    type Key = (String, String, char, i32, i32, u8, String);
    let found: Vec<BTreeSet<Key>> = layouts
        .iter()
        .map(|(source, classes)| {
            let (_, r) = lens_compiler::compile_str("pat.lens", source, &Default::default());
            let rom_bytes = r.unwrap_or_else(|d| panic!("{} errors", d.len())).rom;
            let rom = Rom::from_bytes(&rom_bytes).unwrap();
            let mut set = BTreeSet::new();
            for (id, board) in &boards {
                for name in classes {
                    let Some(class) = rom.class_by_name(name) else {
                        continue;
                    };
                    for perspective in [Colour::Black, Colour::White] {
                        let q = Query {
                            class,
                            perspective,
                            orientations: Orientations::All,
                        };
                        let mut out = MatchBuf::new(&mut slots);
                        rom.scan(board, &NoHost, &q, &mut scratch, &mut out);
                        assert_eq!(out.dropped(), 0);
                        for m in out.as_slice() {
                            set.insert((
                                id.clone(),
                                rom.pattern_name(m.pattern).unwrap().to_string(),
                                gnugo_support::colour_char(perspective),
                                m.focus.0,
                                m.focus.1,
                                m.orientation,
                                format!("{:?}", m.result),
                            ));
                        }
                    }
                }
            }
            set
        })
        .collect();
    assert!(found[0].len() > 10_000, "{} matches", found[0].len());
    let only_one: Vec<_> = found[0].difference(&found[1]).take(5).collect();
    let only_apart: Vec<_> = found[1].difference(&found[0]).take(5).collect();
    assert!(
        only_one.is_empty() && only_apart.is_empty(),
        "one database only: {only_one:?}; files apart only: {only_apart:?}"
    );
}
