//! Round trips: every data file (and their union) through both encodings decodes to the
//! normalised source tree; the text format round-trips hand-written trees.

#[path = "joseki_data.rs"]
mod data;

use lens_joseki::{Conventions, Encoding, Tree, decode, encode, import_sgf, import_sgf_into};

fn check(name: &str, tree: &Tree) {
    for enc in Encoding::ALL {
        let blob = encode(tree, enc);
        let back = decode(&blob).unwrap_or_else(|e| panic!("{name} {}: {e}", enc.name()));
        assert_eq!(&back, tree, "{name}: {} round trip", enc.name());
        assert_eq!(back.vertices(), tree.vertices(), "{name}: {}", enc.name());
        // Encoding the decoded tree gives the same bytes.
        assert_eq!(encode(&back, enc), blob, "{name}: {} re-encode", enc.name());
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
