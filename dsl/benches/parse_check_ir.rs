//! A fixed amount of front-end work for `valgrind --tool=callgrind` (instruction counts are the
//! stable measure on a shared machine; criterion timings are not). One argument selects the
//! work, run `ROUNDS` times on the same 10,000-pattern source as `parse_check`:
//! `lex` (the baseline), `parse`, or `check` (load + check, what `parse+check` times).
//!
//! ```text
//! cargo bench -p lens-dsl --bench parse_check_ir --no-run
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out target/release/deps/parse_check_ir-* check
//! ```
//! Subtract a `none` run (generation only) to get the per-round cost.

mod corpus;

use std::hint::black_box;

const ROUNDS: usize = 2;

fn main() {
    // Cargo passes `--bench` when run through `cargo bench`; the first free argument is the mode.
    let mode = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(|| "check".to_string());
    let text = corpus::generate(10_000);
    let mut n = 0usize;
    for _ in 0..ROUNDS {
        n += match mode.as_str() {
            "none" => 0,
            "lex" => lens_dsl::parser::lexer::tokenize(black_box(&text)).0.len(),
            "parse" => lens_dsl::parse(0, black_box(&text)).0.items.len(),
            "check" => {
                let (program, d) = lens_dsl::load_str("bench.lens", black_box(&text));
                let c = lens_dsl::check(&program);
                assert!(
                    d.is_empty() && c.is_empty(),
                    "the generated source must be clean"
                );
                program.files[0].1.items.len()
            }
            other => panic!("unknown mode `{other}` (none, lex, parse, check)"),
        };
    }
    println!("{mode}: {n}");
}
