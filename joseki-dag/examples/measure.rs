//! Dev tool: bytes/move of every encoding on the data files and their union.
//! `cargo run --release -p lens-joseki --example measure [DATA_DIR]`
use lens_joseki::{Conventions, Encoding, Tree, encode, import_sgf, import_sgf_into};
use std::path::PathBuf;

fn main() {
    let d = PathBuf::from(std::env::args().nth(1).unwrap_or("../shared/data".into()));
    let mut files = Vec::new();
    for (set, dir) in [("gnugo", "gnugo/joseki"), ("pachi", "pachi/joseki")] {
        let mut ps: Vec<PathBuf> = std::fs::read_dir(d.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        ps.sort();
        for p in ps {
            files.push((
                format!("{set}_{}", p.file_stem().unwrap().to_string_lossy()),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    let mut union = Tree::new();
    let mut trees = Vec::new();
    for (n, t) in &files {
        trees.push((n.clone(), import_sgf(t, Conventions::Auto).unwrap()));
        import_sgf_into(&mut union, t, Conventions::Auto).unwrap();
    }
    union.canonicalize();
    trees.push(("union".into(), union));
    for (n, t) in &trees {
        let m = t.tree_moves() as f64;
        print!("{n:<22} {:>5}", t.tree_moves());
        for e in Encoding::ALL {
            let b = encode(t, e);
            let s = lens_joseki::stats::encoding_stats(t, &b);
            let comp = (b.len() - s.setup_bytes) as f64 - if b.len() > 100 { 6.0 } else { 5.0 };
            print!(
                "  {} {:>5} {:.3} (cmp {:.3}, lk {:.0})",
                e.name(),
                b.len(),
                b.len() as f64 / m,
                comp / m,
                s.parsed_per_lookup
            );
            assert_eq!(&lens_joseki::decode(&b).unwrap(), t);
        }
        let b = encode(t, Encoding::Packed);
        let t0 = std::time::Instant::now();
        assert_eq!(&lens_joseki::decode(&b).unwrap(), t);
        print!(
            "  packed {:>5} {:.3} ({:.1} ms)",
            b.len(),
            b.len() as f64 / m,
            t0.elapsed().as_secs_f64() * 1e3
        );
        println!();
    }
    // Decode time of the union, packed against compact (same run; the machine may be shared).
    let (_, u) = trees.last().unwrap();
    for enc in [Encoding::Compact, Encoding::Packed] {
        let t0 = std::time::Instant::now();
        let b = encode(u, enc);
        println!(
            "encode union {}: {:.2} ms",
            enc.name(),
            t0.elapsed().as_secs_f64() * 1e3
        );
        let t0 = std::time::Instant::now();
        for _ in 0..20 {
            std::hint::black_box(lens_joseki::decode(&b).unwrap());
        }
        println!(
            "decode union {}: {:.2} ms",
            enc.name(),
            t0.elapsed().as_secs_f64() * 1e3 / 20.0
        );
    }
}
