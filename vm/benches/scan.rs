//! Whole-board scan benchmark: one class of 3000 synthetic 7x7 patterns x 8 orientations (the
//! `scan_19x19` setup of `matching.rs`) over a 19x19 board, with
//! `Rom::scan` (board-parallel), `ScanPlan::scan` (the same through a per-class plan),
//! `Rom::scan_points` (the per-point packed kernel) and the reference matcher in the same run,
//! in wall time and in thread CPU time.
//! Run: `cargo bench -p lens-vm --bench scan`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lens_test_support::fixtures::*;
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;
use std::hint::black_box;
use std::time::Duration;

const PATTERNS: usize = 3000;

use lens_test_support::thread_cpu;
use thread_cpu::thread_cpu;

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

#[derive(Clone, Copy)]
enum Path {
    BoardParallel,
    Plan,
    Points,
    Reference,
}

fn bench(c: &mut Criterion) {
    let bytes = image();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let class = rom.class_by_name("bench").unwrap();
    let variants = rom.class(class).unwrap().entry_count() as u64;
    // The first board of `matching.rs`'s position set (same generator, same seed).
    let mut rng = Rng(11);
    let board = to_board(&TestBoard::random(&mut rng, 19, 0.35));
    let q = Query {
        class,
        perspective: Colour::Black,
        orientations: Orientations::All,
    };
    let plan = matching::ScanPlan::new(&rom, class).unwrap();
    let mut slots = vec![Match::EMPTY; 1 << 20];
    let mut scratch = Scratch::new();
    let mut scan = |path: Path| {
        let mut out = MatchBuf::new(&mut slots);
        match path {
            Path::BoardParallel => rom.scan(&board, &NoHost, &q, &mut scratch, &mut out),
            Path::Plan => plan.scan(&rom, &board, &NoHost, &q, &mut scratch, &mut out),
            Path::Points => rom.scan_points(&board, &NoHost, &q, &mut scratch, &mut out),
            Path::Reference => reference::scan(&rom, &board, &NoHost, &q, &mut scratch, &mut out),
        }
    };
    let n = scan(Path::BoardParallel);
    assert_eq!(n, scan(Path::Points));
    assert_eq!(n, scan(Path::Plan));
    assert_eq!(n, scan(Path::Reference));
    eprintln!("scan_19x19: {variants} oriented entries, {n} matches");
    let paths = [
        ("board_parallel_plan", Path::Plan),
        ("board_parallel", Path::BoardParallel),
        ("kernel_points", Path::Points),
        ("reference", Path::Reference),
    ];
    let mut g = c.benchmark_group("scan_19x19_3000x8");
    g.throughput(Throughput::Elements(variants * 361));
    for (label, path) in paths {
        g.bench_function(label, |b| b.iter(|| black_box(scan(path))));
    }
    g.finish();
    let mut g = c.benchmark_group("scan_19x19_3000x8_cpu_time");
    g.throughput(Throughput::Elements(variants * 361));
    for (label, path) in paths {
        g.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let t0 = thread_cpu();
                for _ in 0..iters {
                    black_box(scan(path));
                }
                thread_cpu() - t0
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
