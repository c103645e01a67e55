//! Load-time cost of the storage form: decoding the union of the GNU Go and Pachi joseki files
//! (a synthetic dictionary when ../shared/data is absent) from the Packed blob, against decoding
//! the Compact blob in the same run (the baseline), and `unpack` (Packed -> Compact blob).

use criterion::{Criterion, criterion_group, criterion_main};
use lens_joseki::{Conventions, Encoding, Tree, decode, encode, unpack};
use std::hint::black_box;

fn dictionary() -> Tree {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    let mut t = Tree::new();
    for dir in ["gnugo/joseki", "pachi/joseki"] {
        let Ok(rd) = std::fs::read_dir(data.join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        {
            let text = std::fs::read_to_string(f).expect("readable");
            lens_joseki::import_sgf_into(&mut t, &text, Conventions::Auto).expect("imports");
        }
    }
    if t.tree_moves() == 0 {
        eprintln!("note: ../shared/data absent, benchmarking a synthetic dictionary");
        t = lens_joseki::parse_text("d4 ( c6 ( d6 c7 | f3 ) | f3 ( c6 d6 | d3 ) | c3 d3 c4 )")
            .expect("synthetic text");
    }
    t.canonicalize();
    t
}

fn bench(c: &mut Criterion) {
    let t = dictionary();
    let compact = encode(&t, Encoding::Compact);
    let packed = encode(&t, Encoding::Packed);
    println!(
        "{} moves: compact {} bytes, packed {} bytes",
        t.tree_moves(),
        compact.len(),
        packed.len()
    );
    let mut g = c.benchmark_group("joseki_decode");
    g.sample_size(20);
    g.bench_function("compact_decode", |b| {
        b.iter(|| decode(black_box(&compact)).unwrap())
    });
    g.bench_function("packed_decode", |b| {
        b.iter(|| decode(black_box(&packed)).unwrap())
    });
    g.bench_function("packed_unpack", |b| {
        b.iter(|| unpack(black_box(&packed)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
