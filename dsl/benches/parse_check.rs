//! Front-end throughput: parse + check of a generated file of 10,000 diagram patterns (5x5
//! diagrams with a legend, a test and a result). Baseline in the same run: lexing alone, so the
//! report reads as a ratio (parse+check / lex) as well as an absolute time.
//!
//! Run: `cargo bench -p lens-dsl --bench parse_check`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// A deterministic source of `n` distinct patterns over one class.
pub fn generate(n: usize) -> String {
    let symbols = ['O', 'X', '.', '?', 'o', 'x'];
    let mut s = String::with_capacity(n * 160);
    s.push_str("global phase;\nextern alive(point) cost 40;\n\nclass shape {\n    mode best;\n    field 5x5;\n}\n\n");
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..n {
        s.push_str(&format!(
            "pattern p{i} : shape {{\n    priority {};\n    diagram {{\n",
            i % 50
        ));
        for row in 0..5 {
            s.push_str("        ");
            for col in 0..5 {
                let c = if row == 2 && col == 2 {
                    '*'
                } else if row == 1 && col == 3 {
                    'a'
                } else {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    symbols[(state % symbols.len() as u64) as usize]
                };
                s.push(c);
                s.push(if col < 4 { ' ' } else { '\n' });
            }
        }
        s.push_str("    }\n    legend { a = empty | off; }\n");
        s.push_str(&format!(
            "    where libs(a) == 0 && phase >= {} && !alive(*);\n    => * {};\n}}\n\n",
            i % 3,
            1 + i % 40
        ));
    }
    s
}

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
