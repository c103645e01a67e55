//! Dev tool: bytes/move of every encoding for each book given and for their union, to measure
//! at scale on any dictionary (`corpus_book` makes a large one from the corpus games).
//! `cargo run --release -p lens-joseki --example book_size -- A.sgf [B.sgf ...]`
use lens_joseki::codec::encode_compact_with_skip;
use lens_joseki::{Conventions, Encoding, Tree, decode, encode, import_sgf_into};

fn row(name: &str, t: &Tree) {
    let m = t.tree_moves() as f64;
    print!("{name:<40} {:>6}", t.tree_moves());
    for e in Encoding::ALL {
        let t0 = std::time::Instant::now();
        let b = encode(t, e);
        let dt = t0.elapsed();
        assert_eq!(&decode(&b).unwrap(), t, "{name}: {e:?} round trip");
        print!(
            "  {} {:.3} ({:.1}s)",
            e.name(),
            b.len() as f64 / m,
            dt.as_secs_f64()
        );
    }
    let t0 = std::time::Instant::now();
    let report = lens_joseki::stats::report(name, t);
    eprintln!(
        "  stats::report {:.2}s ({} lines)",
        t0.elapsed().as_secs_f64(),
        report.lines().count()
    );
    let skip = encode_compact_with_skip(t, 16);
    println!("  compact+skip16 {:.3}", skip.len() as f64 / m);
    let c = lens_joseki::stats::entry_classes(&encode(t, Encoding::Compact)).unwrap();
    print!(
        "    header {} prefixes {} pointers {}",
        c.header_bytes, c.prefix_bytes, c.pointer_bytes
    );
    for k in &c.classes {
        print!(
            " | {}: {} entries {} moves {} B",
            k.name, k.entries, k.moves, k.bytes
        );
    }
    println!();
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let mut union = Tree::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut t = Tree::new();
        import_sgf_into(&mut t, &text, Conventions::Auto).unwrap();
        import_sgf_into(&mut union, &text, Conventions::Auto).unwrap();
        t.canonicalize();
        row(f.rsplit('/').next().unwrap(), &t);
    }
    if files.len() > 1 {
        union.canonicalize();
        row("union", &union);
    }
}
