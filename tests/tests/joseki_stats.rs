//! Snapshots of the `lensc joseki stats` report (lens_joseki::stats::report) on every data
//! file, their union and a hand-written dictionary.

use lens_tests::joseki_data as data;

use lens_joseki::{
    Conventions, Encoding, Tree, decode, encode, import_sgf, import_sgf_into, parse_text, stats,
};

#[test]
fn stats_of_a_hand_written_dictionary() {
    let t = parse_text(
        "# 4-4 point\n( d4 ( c6:urgent ( d6 c7 | f3 ) | f3 ( c6 d6 | d3 ) | e3:trick tenuki c3 ) \
         | c4 ( e3 ( d5 | c6 ) | d3 c3 ) | c3 d3 | d4 c3 e3 | e3 c3 d4 d3 )",
    )
    .unwrap();
    insta::assert_snapshot!("hand_written", stats::report("hand-written", &t));
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn stats_of_every_data_file_and_the_union() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let mut union = Tree::new();
    for (name, text) in &files {
        let t = import_sgf(text, Conventions::Auto).unwrap();
        insta::assert_snapshot!(name.clone(), stats::report(name, &t));
        import_sgf_into(&mut union, text, Conventions::Auto).unwrap();
    }
    union.canonicalize();
    insta::assert_snapshot!("union", stats::report("union", &union));
}

/// Encoding (a) is the reference reconstruction of Fotland's format, so on every data file
/// and on each family as one book it lands within `TOLERANCE` of the research's bytes/move,
/// counted the research's way (62-byte table and entries; no header, no setup-stone entries),
/// both on the plain tree (`F:tree`) and with transpositions merged (`F:posdag`). The tree counts
/// the research lists (moves, leaves, max depth, passes, typed) are equal.
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn fotland_lands_on_the_research_per_file_figures() {
    const TOLERANCE: f64 = 0.01;
    let Some(files) = data::joseki_files() else {
        return;
    };
    let check = |r: &stats::ResearchFile, texts: &[&str]| {
        let name = r.name;
        let (mut plain, mut merged) = (Tree::with_options(19, false), Tree::new());
        for text in texts {
            import_sgf_into(&mut plain, text, Conventions::Auto).unwrap();
            import_sgf_into(&mut merged, text, Conventions::Auto).unwrap();
        }
        plain.canonicalize();
        merged.canonicalize();
        let ts = stats::tree_stats(&plain);
        let (leaves, depth) = stats::shape(&plain);
        assert_eq!(
            (plain.tree_moves(), leaves, depth, ts.passes, ts.typed),
            (r.moves, r.leaves, r.max_depth, r.passes, r.typed),
            "{name}: (moves, leaves, max depth, passes, typed)"
        );
        for (what, tree, want) in [("F:tree", &plain, r.tree), ("F:posdag", &merged, r.posdag)] {
            let blob = encode(tree, Encoding::Fotland);
            assert_eq!(&decode(&blob).unwrap(), tree, "{name} {what}: round trip");
            let c = stats::entry_classes(&blob).unwrap();
            let got = stats::research_comparable_bytes(&c) as f64 / tree.tree_moves() as f64;
            assert!(
                (got / want - 1.0).abs() <= TOLERANCE,
                "{name} {what}: {got:.3} bytes/move, research {want:.3}"
            );
        }
    };
    for (name, text) in &files {
        let r = stats::RESEARCH_FILES
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{name}: no research figure"));
        check(r, &[text]);
    }
    for r in &stats::RESEARCH_FAMILIES {
        let texts: Vec<&str> = files
            .iter()
            .filter(|f| f.0.starts_with(r.name))
            .map(|f| f.1.as_str())
            .collect();
        check(r, &texts);
    }
}

/// The pass ranks among Fotland's 62 table points when it is common (GNU Go's hoshi_keima
/// records 22 tenuki): a plain pass is then one byte, as the reference figures count it
/// (docs/joseki.md).
#[test]
fn a_common_pass_is_a_one_byte_fotland_entry() {
    let t = parse_text("( d4 ( tenuki c3 | c6 tenuki d6 | f3 tenuki ) | c4 tenuki )").unwrap();
    let blob = encode(&t, Encoding::Fotland);
    assert_eq!(decode(&blob).unwrap(), t);
    let c = stats::entry_classes(&blob).unwrap();
    assert_eq!(c.get("table hit: pass").unwrap().entries, 4);
    assert_eq!(c.get("ext: pass").unwrap().entries, 0);
}

/// The entry classes of both walkable encodings account for every byte and every move, and a
/// blob coded with another book's code space (the shipped-table estimate) decodes to its tree.
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn entry_classes_cover_the_blob_and_foreign_code_spaces_round_trip() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let (mut gnugo, mut pachi) = (Tree::new(), Tree::new());
    for (name, text) in &files {
        let t = import_sgf(text, Conventions::Auto).unwrap();
        for enc in Encoding::WALKABLE {
            let blob = encode(&t, enc);
            let c = stats::entry_classes(&blob).unwrap();
            if blob[2] == 4 {
                // Compact version 4 counts bits: each class is rounded to bytes, and the last
                // byte's padding belongs to no entry.
                let (sum, n) = (c.header_bytes + c.entry_bytes(), c.classes.len());
                assert!(sum.abs_diff(blob.len()) <= n, "{name} {enc:?}: {sum}");
            } else {
                assert_eq!(
                    c.header_bytes + c.entry_bytes(),
                    blob.len(),
                    "{name} {enc:?}"
                );
            }
            let moves: usize = c.classes.iter().map(|k| k.moves).sum();
            assert_eq!(moves, t.move_edges(), "{name} {enc:?}: moves");
            assert!(c.pointer_bytes + c.skip_bytes + c.prefix_bytes <= c.entry_bytes());
        }
        let family = if name.starts_with("gnugo") {
            &mut gnugo
        } else {
            &mut pachi
        };
        import_sgf_into(family, text, Conventions::Auto).unwrap();
    }
    gnugo.canonicalize();
    pachi.canonicalize();
    for (train, test) in [(&gnugo, &pachi), (&pachi, &gnugo)] {
        let (blob, space) = lens_joseki::codec::encode_compact_with_space_of(train, test);
        assert_eq!(&decode(&blob).unwrap(), test);
        let own = encode(test, Encoding::Compact);
        assert!(
            space < blob.len() && own.len() <= blob.len(),
            "the own code space is the best"
        );
    }
}
