//! Matching benchmarks, each against the reference matcher in the same run (ratios, not
//! absolute targets): one match call on a class of 3000 synthetic 7x7 patterns (x 8
//! orientations), the 7x7 view cut, and a whole-board scan. Throughput is in oriented-variant
//! checks per second. Run: `cargo bench -p lens-vm --bench matching`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::*;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use lens_vm::board::Board;
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;
use std::hint::black_box;
use std::time::Duration;

const PATTERNS: usize = 3000;

fn image() -> Vec<u8> {
    let mut rng = Rng(0xbe7c4);
    let mut nodes = Vec::new();
    for id in 0..PATTERNS as u32 {
        let mut p = random_pattern(&mut rng, id, 3, false);
        p.orientations = (0..8).collect();
        p.covers = (0..8).map(|o| 1u8 << o).collect();
        nodes.push(ClassNode::Pattern(p));
    }
    let class = ClassSpec {
        name: "bench".into(),
        mode: Mode::All,
        focus: E,
        width: 7,
        height: 7,
        orient: OrientPolicy::All,
        default_value: None,
        nodes,
    };
    rom::write(&RomSpec {
        classes: vec![class],
        ..RomSpec::default()
    })
}

/// 64 positions of a 19x19 game-like density, with an empty focus point each.
fn positions() -> Vec<(Board, (i32, i32))> {
    let mut rng = Rng(11);
    let mut v = Vec::new();
    while v.len() < 64 {
        let b = to_board(&TestBoard::random(&mut rng, 19, 0.35));
        let (x, y) = (rng.below(19) as i32, rng.below(19) as i32);
        if b.point(x, y) == Point::Empty {
            v.push((b, (x, y)));
        }
    }
    v
}

fn bench(c: &mut Criterion) {
    let bytes = image();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let class = rom.class_by_name("bench").unwrap();
    let variants = rom.class(class).unwrap().entry_count() as u64;
    let pos = positions();
    let q = Query {
        class,
        perspective: Colour::Black,
        orientations: Orientations::All,
    };
    let mut slots = vec![Match::EMPTY; 1 << 14];
    let mut scratch = Scratch::new();

    let mut g = c.benchmark_group("match_call");
    g.throughput(Throughput::Elements(variants * pos.len() as u64));
    g.bench_function(BenchmarkId::new("kernel", PATTERNS), |b| {
        b.iter(|| {
            let mut n = 0;
            for (board, (x, y)) in &pos {
                let mut out = MatchBuf::new(&mut slots);
                n += rom.match_at(board, &NoHost, &q, *x, *y, &mut scratch, &mut out);
            }
            black_box(n)
        })
    });
    g.bench_function(BenchmarkId::new("reference", PATTERNS), |b| {
        b.iter(|| {
            let mut n = 0;
            for (board, (x, y)) in &pos {
                let mut out = MatchBuf::new(&mut slots);
                n += reference::match_at(&rom, board, &NoHost, &q, *x, *y, &mut scratch, &mut out);
            }
            black_box(n)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("view_7x7");
    g.throughput(Throughput::Elements(pos.len() as u64));
    g.bench_function("packed_words", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (board, (x, y)) in &pos {
                let v = lens_vm::matching::view_words(board, Colour::Black, *x, *y);
                acc ^= v[0] ^ v[1] ^ v[2];
            }
            black_box(acc)
        })
    });
    g.bench_function("reference_states", |b| {
        // what the reference reads: 49 point states
        b.iter(|| {
            let mut acc = 0u64;
            for (board, (x, y)) in &pos {
                let mut s = [0u8; 49];
                for (k, (dy, dx)) in (-3..=3)
                    .flat_map(|dy| (-3..=3).map(move |dx| (dy, dx)))
                    .enumerate()
                {
                    s[k] = match board.point(x + dx, y + dy) {
                        Point::Stone(Colour::Black) => 0,
                        Point::Stone(Colour::White) => 1,
                        Point::Empty => 2,
                        Point::Off => 3,
                    };
                }
                acc ^= s.iter().map(|&v| v as u64).sum::<u64>();
            }
            black_box(acc)
        })
    });
    g.finish();

    let board = &pos[0].0;
    let mut g = c.benchmark_group("scan_19x19");
    g.throughput(Throughput::Elements(variants * 361));
    g.bench_function("kernel", |b| {
        b.iter(|| {
            let mut out = MatchBuf::new(&mut slots);
            black_box(rom.scan(board, &NoHost, &q, &mut scratch, &mut out))
        })
    });
    g.bench_function("reference", |b| {
        b.iter(|| {
            let mut out = MatchBuf::new(&mut slots);
            black_box(reference::scan(
                &rom,
                board,
                &NoHost,
                &q,
                &mut scratch,
                &mut out,
            ))
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
