//! Load-time cost of the storage form: decoding the dictionary (`LENS_JOSEKI_BOOK=FILES`, else
//! the union of the GNU Go and Pachi joseki files, see `support/book.rs`) from the Packed blob,
//! against decoding the Compact blob in the same run (the baseline), and `unpack` (Packed ->
//! Compact blob).

use criterion::{Criterion, criterion_group, criterion_main};
use lens_joseki::{Encoding, decode, encode, unpack};
use std::hint::black_box;

#[path = "support/book.rs"]
mod book;

fn bench(c: &mut Criterion) {
    let (name, t) = book::dictionary();
    println!("dictionary: {name}");
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
