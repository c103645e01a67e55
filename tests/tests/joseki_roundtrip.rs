//! Round trips: every data file (and their union) through both encodings decodes to the
//! normalised source tree; the text format round-trips hand-written trees.

use lens_tests::joseki_data as data;

use lens_joseki::text::to_text;
use lens_joseki::{
    Conventions, Encoding, Move, MoveType, Point, Rel, Tree, decode, encode, import_sgf,
    import_sgf_into, parse_text,
};

fn check(name: &str, tree: &Tree) {
    for enc in Encoding::WALKABLE {
        let blob = encode(tree, enc);
        let back = decode(&blob).unwrap_or_else(|e| panic!("{name} {}: {e}", enc.name()));
        assert_eq!(&back, tree, "{name}: {} round trip", enc.name());
        assert_eq!(back.vertices(), tree.vertices(), "{name}: {}", enc.name());
        // Encoding the decoded tree gives the same bytes.
        assert_eq!(encode(&back, enc), blob, "{name}: {} re-encode", enc.name());
        // The walker reaches every vertex in place (through pair codes and pointers too).
        let w = lens_joseki::Walker::new(&blob).unwrap();
        for line in lens_joseki::stats::first_paths(tree) {
            assert!(
                w.parsed_for(&line).is_some(),
                "{name} {}: {line:?} not found",
                enc.name()
            );
        }
        if enc == Encoding::Compact {
            // The storage form decodes to the same tree and unpacks to this very blob.
            let packed = encode(tree, Encoding::Packed);
            let back = decode(&packed).unwrap_or_else(|e| panic!("{name} packed: {e}"));
            assert_eq!(&back, tree, "{name}: packed round trip");
            assert_eq!(
                encode(&back, Encoding::Packed),
                packed,
                "{name}: packed re-encode"
            );
            assert_eq!(
                lens_joseki::unpack(&packed).unwrap(),
                blob,
                "{name}: unpack"
            );
            assert!(
                packed.len() < blob.len() || tree.tree_moves() < 100,
                "{name}"
            );
        }
        println!(
            "{name:<24} {:<8} {:>6} B {:>6} moves {:.3} B/move",
            enc.name(),
            blob.len(),
            tree.tree_moves(),
            blob.len() as f64 / tree.tree_moves() as f64
        );
    }
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn every_data_file_round_trips_in_both_encodings() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    assert_eq!(files.len(), 11, "7 GNU Go + 4 Pachi files");
    let mut union = Tree::new();
    for (name, text) in &files {
        let tree = import_sgf(text, Conventions::Auto).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(tree.tree_moves() > 0, "{name}: no moves imported");
        check(name, &tree);
        import_sgf_into(&mut union, text, Conventions::Auto).unwrap();
    }
    union.canonicalize();
    check("union", &union);
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn text_form_round_trips_every_data_file() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    for (name, text) in &files {
        let t = import_sgf(text, Conventions::Auto).unwrap();
        let txt = to_text(&t);
        let back = parse_text(&txt).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(to_text(&back), txt, "{name}: text fixpoint");
        if t.transposed_vertices() == 0 {
            assert_eq!(back, t, "{name}: same tree");
        }
        // A plain tree (transpositions kept apart) round-trips through both encodings too.
        let mut plain = Tree::with_options(19, false);
        import_sgf_into(&mut plain, text, Conventions::Auto).unwrap();
        plain.canonicalize();
        assert_eq!(plain.transposed_vertices(), 0);
        assert!(plain.vertices().len() >= t.vertices().len());
        check(&format!("{name} (tree)"), &plain);
    }
}

#[test]
fn hand_written_text_round_trips() {
    let src = "( d4 ( c6:urgent ( d6 c7 | f3 ) | f3:complex ( c6 d6 | d3 ) | e3:trick tenuki c3 ) \
               | c4 ( e3:bad ( d5 | c6:ignore ) | d3 c3:repeat ) | setup(x:c3 o:d4 e:e5) d3 | q17:reverse c18 )";
    let t = parse_text(src).unwrap();
    let txt = to_text(&t);
    assert_eq!(
        txt.trim(),
        "( d4 ( c6:urgent ( d6 c7 | f3 ) | f3:complex ( c6 d6 | d3 ) | e3:trick tenuki c3 ) \
         | c4 ( e3:bad ( d5 | c6:ignore ) | d3 c3:repeat ) | setup(x:c3 o:d4 e:e5) d3 | q17:reverse c18 )"
    );
    assert_eq!(parse_text(&txt).unwrap(), t);
    check("hand-written", &t);
    // Moves after a branch continue every alternative.
    assert_eq!(
        to_text(&parse_text("d4 ( c6 | f3 ) tenuki").unwrap()).trim(),
        "d4 ( c6 tenuki | f3 tenuki )"
    );
    // The programmatic builder gives the same tree.
    let mut b = Tree::new();
    b.add_line(&[
        Move::new(Point::at(4, 4), Rel::Same),
        Move::new(Point::at(3, 6), Rel::Opposite).with_kind(MoveType::Urgent),
    ]);
    b.add_line(&[
        Move::new(Point::at(4, 4), Rel::Same),
        Move::new(Point::at(6, 3), Rel::Opposite),
    ]);
    b.canonicalize();
    assert_eq!(b, parse_text("d4 ( c6:urgent | f3 )").unwrap());
}

#[test]
fn text_errors_name_the_offset() {
    for (src, offset, words) in [
        ("d4 ( c6 | f3", 3, "unclosed"),
        ("d4 z99", 3, "not a move"),
        ("d4 c6:urgnet", 6, "unknown annotation"),
        ("d4 ) c6", 3, "unexpected"),
        ("d4 setup(q:c3)", 9, "setup stone"),
        ("d4 $", 3, "unexpected character"),
    ] {
        let e = parse_text(src).expect_err(src);
        assert_eq!(e.offset, offset, "{src}: {e}");
        assert!(e.reason.contains(words), "{src}: {e}");
    }
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
#[ignore = "prints the per-file report; run with --ignored --nocapture"]
fn print_reports() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    for (name, text) in &files {
        let tree = import_sgf(text, Conventions::Auto).unwrap();
        print!("{}", lens_joseki::stats::report(name, &tree));
    }
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
#[ignore = "measures skip thresholds; run with --ignored --nocapture"]
fn print_skip_thresholds() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let mut union = Tree::new();
    for (_, text) in &files {
        import_sgf_into(&mut union, text, Conventions::Auto).unwrap();
    }
    union.canonicalize();
    for (name, text) in files
        .iter()
        .filter(|f| f.0.contains("44") || f.0.contains("34") || f.0.contains("keima"))
        .map(|(n, t)| (n.clone(), import_sgf(t, Conventions::Auto).unwrap()))
        .chain([("union".to_string(), union)])
    {
        let _ = text;
        let tree = text;
        for skip in [4usize, 8, 12, 16, 24, 32, 48, 64, 100000] {
            let blob = lens_joseki::codec::encode_compact_with_skip(&tree, skip);
            let s = lens_joseki::stats::encoding_stats(&tree, &blob);
            println!(
                "{name:<20} skip>={skip:<6} {:>6} B {:.3} B/move parsed/lookup {:.1}",
                s.bytes, s.bytes_per_move, s.parsed_per_lookup
            );
        }
    }
}

#[test]
fn a_blob_travels_in_a_rom_section() {
    let t = parse_text("d4 ( c6:urgent f3 | e3:trick tenuki )").unwrap();
    for enc in Encoding::WALKABLE {
        let blob = encode(&t, enc);
        let image = lens_vm::rom::write(&lens_vm::spec::RomSpec {
            joseki: vec![lens_vm::spec::JosekiBlobSpec {
                name: "hoshi".into(),
                bytes: blob.clone(),
            }],
            ..Default::default()
        });
        let rom = lens_vm::Rom::from_bytes(&image).expect("valid ROM");
        let back = rom.joseki_blob("hoshi").expect("the section");
        assert_eq!(back, &blob[..]);
        assert_eq!(decode(back).unwrap(), t);
        let w = lens_joseki::Walker::new(back).unwrap();
        let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 4];
        assert_eq!(
            w.follow_frame(&[(Rel::Same, Point::at(4, 4))], &mut out),
            Some(2)
        );
    }
}
