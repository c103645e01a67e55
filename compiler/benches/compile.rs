//! Compile time of a generated 10,000-pattern source (SPEC: under a second), against the
//! front end alone (load + check) measured in the same run as the baseline.
//!
//! Run: `cargo bench -p lens-compiler --bench compile`.

use criterion::{Criterion, criterion_group, criterion_main};

/// `n` distinct 5x5 patterns over 4 classes, with tests, labels and a few globs.
pub fn generated_source(n: usize) -> String {
    let sym = ['X', 'O', '.', 'x', 'o', '?'];
    let mut s = String::from("extern safe(point) cost 20;\n");
    for k in 0..4 {
        let mode = ["best", "all", "first", "all"][k];
        s += &format!("class c{k} {{ mode {mode}; focus empty; field 5x5; orient all; }}\n");
    }
    // A small deterministic generator (xorshift) so the source is the same every run.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for i in 0..n {
        let mut rows = Vec::new();
        for r in 0..5 {
            let mut row = String::new();
            for c in 0..5 {
                let ch = if (r, c) == (2, 2) {
                    '*'
                } else if (r, c) == (1, 2) {
                    'a'
                } else {
                    sym[(next() % 6) as usize]
                };
                row.push(ch);
                row.push(' ');
            }
            rows.push(row);
        }
        let test = if i % 3 == 0 {
            "    where libs(a) > 1 && line(*) > 1 && safe(a);\n"
        } else {
            ""
        };
        s += &format!(
            "pattern p{i} : c{} {{\n    priority {};\n    diagram {{\n        {}\n    }}\n{test}    => a {};\n}}\n",
            i % 4,
            i % 7,
            rows.join("\n        "),
            i % 50
        );
    }
    s
}

fn bench(c: &mut Criterion) {
    let src = generated_source(10_000);
    let mut g = c.benchmark_group("compile_10k");
    g.sample_size(10);
    g.bench_function("front_end_only", |b| {
        b.iter(|| {
            let (p, d) = lens_dsl::load_str("gen.lens", &src);
            assert!(d.is_empty());
            lens_dsl::check(&p)
        })
    });
    g.bench_function("full_compile", |b| {
        b.iter(|| {
            let (_, r) = lens_compiler::compile_str("gen.lens", &src, &Default::default());
            r.expect("compiles").rom.len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
