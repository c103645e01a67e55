//! Dev tool: Packed bytes/move on the three books the model is measured on together (the
//! union of the 11 data files, the corpus book, the dictionary-shaped book), with encode and
//! decode times. `cargo run --release -p lens-joseki --example packed_size -- DATA_DIR CORPUS.sgf DICT.sgf`
//! (the books from `corpus_book`, without and with `--dictionary`).
use lens_joseki::{Conventions, Encoding, Tree, decode, encode, import_sgf_into};
use lens_test_support::thread_cpu::thread_cpu;
use std::path::PathBuf;

fn import(texts: &[String]) -> Tree {
    let mut t = Tree::new();
    for s in texts {
        import_sgf_into(&mut t, s, Conventions::Auto).unwrap();
    }
    t.canonicalize();
    t
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let d = PathBuf::from(args.first().cloned().unwrap_or("../shared/data".into()));
    let mut union = Vec::new();
    for dir in ["gnugo/joseki", "pachi/joseki"] {
        // A DATA_DIR without the data files (e.g. `-`) measures the books alone.
        let Ok(rd) = std::fs::read_dir(d.join(dir)) else {
            continue;
        };
        let mut ps: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
        ps.sort();
        union.extend(ps.iter().map(|p| std::fs::read_to_string(p).unwrap()));
    }
    let mut books = Vec::new();
    if !union.is_empty() {
        books.push(("union".to_string(), import(&union)));
    }
    for f in &args[1..] {
        let name = f.rsplit('/').next().unwrap().to_string();
        books.push((name, import(&[std::fs::read_to_string(f).unwrap()])));
    }
    for (name, t) in &books {
        let m = t.tree_moves() as f64;
        let t0 = thread_cpu();
        let b = encode(t, Encoding::Packed);
        let enc = thread_cpu() - t0;
        // Thread CPU time, the best of 3 (the machine is shared).
        let mut dec = std::time::Duration::MAX;
        for _ in 0..3 {
            let t0 = thread_cpu();
            let _ = decode(&b).unwrap();
            dec = dec.min(thread_cpu() - t0);
        }
        let back = decode(&b).unwrap();
        assert_eq!(&back, t, "{name}: round trip");
        let c = encode(t, Encoding::Compact);
        let t0 = thread_cpu();
        let _ = decode(&c).unwrap();
        let cdec = thread_cpu() - t0;
        println!(
            "{name:<16} {:>6} moves  packed {:.4} B/move  encode {:.0} ms  decode {:.0} ms (compact {:.1} ms)",
            t.tree_moves(),
            b.len() as f64 / m,
            enc.as_secs_f64() * 1e3,
            dec.as_secs_f64() * 1e3,
            cdec.as_secs_f64() * 1e3
        );
    }
}
