//! Front-end throughput: parse + check of a generated file of 10,000 diagram patterns (5x5
//! diagrams with a legend, a test and a result). Baseline in the same run: lexing alone, so the
//! report reads as a ratio (parse+check / lex) as well as an absolute time.
//!
//! Run: `cargo bench -p lens-dsl --bench parse_check`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

mod corpus;
use corpus::generate;

fn bench(c: &mut Criterion) {
    let text = generate(10_000);
    // Sanity: the generated file is clean (a bench of error paths would measure something else).
    let (program, diags) = lens_dsl::load_str("bench.lens", &text);
    assert!(diags.is_empty() && lens_dsl::check(&program).is_empty());

    let mut g = c.benchmark_group("frontend_10k_patterns");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("lex (baseline)", |b| {
        b.iter(|| {
            black_box(lens_dsl::parser::lexer::tokenize(black_box(&text)))
                .0
                .len()
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| {
            black_box(lens_dsl::parse(0, black_box(&text)))
                .0
                .items
                .len()
        })
    });
    g.bench_function("parse+check", |b| {
        b.iter(|| {
            let (program, d) = lens_dsl::load_str("bench.lens", black_box(&text));
            black_box(lens_dsl::check(&program).len() + d.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
