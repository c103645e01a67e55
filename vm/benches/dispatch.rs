//! The choices of `matching/dispatch.rs`, measured against each other in the same run.
//!
//! 1. Scan strategy: the board-parallel plane scan against one call per focus, for a 3x3 class
//!    with a lookup table (whole 19x19 boards) and for 3,000 x 8 7x7 patterns with bit-sliced
//!    tables (whole boards, and the 49 foci of `Area::around` a point). These figures set the
//!    dispatch's cost constants (`docs/performance.md`, "One dispatch").
//! 2. Instruction set: every SIMD level this machine has against the portable path, for one
//!    match call (sliced kernel), the view cut and the plane scan (`docs/performance.md`,
//!    "SIMD chosen at run time").
//!
//! Times are this thread's CPU time (the machine is shared), median of round-robin rounds;
//! criterion groups follow for the same cases. Run: `cargo bench -p lens-vm --bench dispatch`
//! (`-- nothing` for the summaries only).

use lens_test_support::thread_cpu;

use criterion::{Criterion, criterion_group, criterion_main};
use lens_test_support::fixtures::*;
use lens_vm::board::Board;
use lens_vm::matching::Area;
use lens_vm::matching::simd::{self, Simd};
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;
use std::hint::black_box;
use std::time::Duration;

fn write(class: ClassSpec) -> &'static [u8] {
    let spec = RomSpec {
        classes: vec![class],
        ..RomSpec::default()
    };
    let opts = rom::WriteOptions {
        sliced_block_words: 8,
        lut_max_bytes: u32::MAX,
        lut_max_bytes_per_variant: 0,
        profile: rom::Profile::Fast,
    };
    Box::leak(rom::write_with(&spec, &opts).into_boxed_slice())
}

fn class(size: u8, nodes: Vec<ClassNode>) -> ClassSpec {
    ClassSpec {
        name: "bench".into(),
        mode: Mode::All,
        focus: E,
        width: size,
        height: size,
        orient: OrientPolicy::All,
        default_value: None,
        nodes,
    }
}

/// 60 cut 3x3 patterns x 8 (a lookup table, and sliced tables).
fn lut_image() -> &'static [u8] {
    let mut rng = Rng(0x1u64 << 40 | 60);
    let nodes = (0..60)
        .map(|id| ClassNode::Pattern(cut_3x3(&mut rng, id)))
        .collect();
    write(class(3, nodes))
}

/// 3,000 7x7 patterns x 8 cut from views (`cut`, few matches) or random (many matches), with
/// sliced tables (the two sets of `benches/matching.rs`).
fn sliced_image(cut: bool) -> &'static [u8] {
    let mut rng = Rng(0xbe7c4);
    let nodes = (0..3000)
        .map(|id| {
            let mut p = if cut {
                cut_pattern(&mut rng, id)
            } else {
                random_pattern(&mut rng, id, 3, false)
            };
            p.orientations = (0..8).collect();
            p.covers = (0..8).map(|o| 1u8 << o).collect();
            ClassNode::Pattern(p)
        })
        .collect();
    write(class(7, nodes))
}

struct Env {
    slots: Vec<Match>,
    scratch: Box<Scratch>,
}

impl Env {
    fn new() -> Self {
        Env {
            slots: vec![Match::EMPTY; 1 << 16],
            scratch: Box::new(Scratch::new()),
        }
    }
}

type Case<'r> = Box<dyn FnMut(&mut Env) -> usize + 'r>;

/// Thread CPU time per call of each case, median over round-robin rounds.
fn round_robin(cases: &mut [(&str, Case<'_>)], calls: usize, rounds: usize) -> Vec<f64> {
    let mut env = Env::new();
    let mut times = vec![Vec::new(); cases.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in cases.iter_mut().enumerate() {
            let t0 = thread_cpu::thread_cpu();
            for _ in 0..calls {
                black_box(f(&mut env));
            }
            let t = thread_cpu::thread_cpu().saturating_sub(t0);
            times[i].push(t.as_nanos() as f64 / calls as f64);
        }
    }
    times.iter_mut().map(|t| median(t)).collect()
}

fn report(title: &str, names: &[&str], ns: &[f64]) {
    eprintln!("(load average: {})", load());
    eprintln!("{title}");
    for (n, t) in names.iter().zip(ns) {
        eprintln!("  {n:<34} {:>12.0} ns  {:>6.2}x the first", t, t / ns[0]);
    }
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn query(rom: &Rom<'_>) -> Query {
    Query {
        class: rom.class_by_name("bench").unwrap(),
        perspective: Colour::Black,
        orientations: Orientations::All,
    }
}

fn scans(boards: &'static [(Board, (i32, i32))]) {
    // 1a. The 3x3 lookup-table class over whole boards.
    let rom = Rom::from_bytes(lut_image()).unwrap();
    let q = query(&rom);
    let plan = matching::ScanPlan::new(&rom, q.class).unwrap();
    let board = |i: usize| &boards[i % boards.len()].0;
    let counter = std::cell::Cell::new(0usize);
    let next = || {
        counter.set(counter.get() + 1);
        counter.get()
    };
    let mut cases: Vec<(&str, Case<'_>)> = vec![
        (
            "planes (scan_parallel)",
            Box::new(|e: &mut Env| {
                let k = next();
                let mut out = MatchBuf::new(&mut e.slots);
                rom.scan_parallel(board(k), &NoHost, &q, &mut e.scratch, &mut out)
                    .unwrap()
            }),
        ),
        (
            "planes, ScanPlan (forced)",
            Box::new(|e: &mut Env| {
                let k = next();
                let mut out = MatchBuf::new(&mut e.slots);
                plan.scan_parallel(&rom, board(k), &NoHost, &q, &mut e.scratch, &mut out)
                    .unwrap()
            }),
        ),
        (
            "per focus, lut (scan_points)",
            Box::new(|e: &mut Env| {
                let k = next();
                let mut out = MatchBuf::new(&mut e.slots);
                rom.scan_points(board(k), &NoHost, &q, &mut e.scratch, &mut out)
            }),
        ),
        (
            "Rom::scan (the dispatch's choice)",
            Box::new(|e: &mut Env| {
                let k = next();
                let mut out = MatchBuf::new(&mut e.slots);
                rom.scan(board(k), &NoHost, &q, &mut e.scratch, &mut out)
            }),
        ),
    ];
    let names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let ns = round_robin(&mut cases, 64, 9);
    report(
        "scan of a 3x3 class with a lookup table (480 entries), 19x19, ns per board:",
        &names,
        &ns,
    );

    // 1b. 3,000 x 8 sliced 7x7 patterns: whole boards and 49-foci areas.
    for cut in [true, false] {
        sliced_scans(boards, cut);
    }
}

fn sliced_scans(boards: &'static [(Board, (i32, i32))], cut: bool) {
    let counter = std::cell::Cell::new(0usize);
    let next = || {
        counter.set(counter.get() + 1);
        counter.get()
    };
    let rom = Rom::from_bytes(sliced_image(cut)).unwrap();
    let masks = rom.without_sliced();
    let q = query(&rom);
    let plan = matching::ScanPlan::new(&masks, q.class).unwrap();
    let spot = |k: usize| {
        let (b, (x, y)) = &boards[k % boards.len()];
        (b, Area::around(*x, *y, 3))
    };
    let mut cases: Vec<(&str, Case<'_>)> = vec![
        (
            "area 7x7: planes",
            Box::new(|e: &mut Env| {
                let (b, a) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                masks.scan_area(b, &NoHost, &q, a, &mut e.scratch, &mut out)
            }),
        ),
        (
            "area 7x7: planes, ScanPlan",
            Box::new(|e: &mut Env| {
                let (b, a) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                plan.scan_area(&masks, b, &NoHost, &q, a, &mut e.scratch, &mut out)
            }),
        ),
        (
            "area 7x7: per focus, sliced",
            Box::new(|e: &mut Env| {
                let (b, a) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                let mut n = 0;
                for y in a.y0.max(0)..a.y1.min(19) {
                    for x in a.x0.max(0)..a.x1.min(19) {
                        n += rom.match_at(b, &NoHost, &q, x, y, &mut e.scratch, &mut out);
                    }
                }
                n
            }),
        ),
        (
            "area 7x7: Rom::scan_area (choice)",
            Box::new(|e: &mut Env| {
                let (b, a) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                rom.scan_area(b, &NoHost, &q, a, &mut e.scratch, &mut out)
            }),
        ),
        (
            "board: planes",
            Box::new(|e: &mut Env| {
                let (b, _) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                rom.scan_parallel(b, &NoHost, &q, &mut e.scratch, &mut out)
                    .unwrap()
            }),
        ),
        (
            "board: planes, ScanPlan",
            Box::new(|e: &mut Env| {
                let (b, _) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                plan.scan(&masks, b, &NoHost, &q, &mut e.scratch, &mut out)
            }),
        ),
        (
            "board: per focus, sliced",
            Box::new(|e: &mut Env| {
                let (b, _) = spot(next());
                let mut out = MatchBuf::new(&mut e.slots);
                rom.scan_points(b, &NoHost, &q, &mut e.scratch, &mut out)
            }),
        ),
    ];
    let names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let ns = round_robin(&mut cases, 8, 7);
    let set = if cut { "cut" } else { "random" };
    report(
        &format!("scan of 3,000 x 8 sliced 7x7 patterns ({set}), 19x19, ns per scan:"),
        &names,
        &ns,
    );
}

/// 2. Every SIMD path of this machine against the portable one, each forced for its calls.
fn simd_levels(boards: &'static [(Board, (i32, i32))]) {
    let paths: Vec<Simd> = Simd::supported().collect();
    let rom = Rom::from_bytes(sliced_image(true)).unwrap();
    let masks = rom.without_sliced();
    let q = query(&rom);
    let plan = matching::ScanPlan::new(&masks, q.class).unwrap();
    let name = |s: &Simd| format!("{:?}+{:?}", s.vector, s.cut);
    let names: Vec<String> = paths.iter().map(name).collect();
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    // One match call (sliced kernel and view cut) at each of the 64 positions.
    let mut cases: Vec<(&str, Case<'_>)> = Vec::new();
    for (p, n) in paths.iter().zip(&names) {
        let p = *p;
        cases.push((
            n,
            Box::new(move |e: &mut Env| {
                simd::force(Some(p)).unwrap();
                let mut k = 0;
                for (b, (x, y)) in boards {
                    let mut out = MatchBuf::new(&mut e.slots);
                    k += rom.match_at(b, &NoHost, &q, *x, *y, &mut e.scratch, &mut out);
                }
                k
            }),
        ));
    }
    let ns = round_robin(&mut cases, 16, 9);
    report(
        "64 match calls, 3,000 x 8 cut 7x7 patterns, sliced kernel, ns per 64 calls:",
        &names,
        &ns,
    );
    // The view cut alone, 64 foci.
    let mut cases: Vec<(&str, Case<'_>)> = Vec::new();
    for (p, n) in paths.iter().zip(&names) {
        let p = *p;
        cases.push((
            n,
            Box::new(move |_: &mut Env| {
                simd::force(Some(p)).unwrap();
                let mut acc = 0u64;
                for (b, (x, y)) in boards {
                    let v = matching::view_words(b, Colour::Black, *x, *y);
                    acc ^= v[0] ^ v[1] ^ v[2];
                }
                acc as usize
            }),
        ));
    }
    let ns = round_robin(&mut cases, 2000, 9);
    report("view cut, ns per 64 views:", &names, &ns);
    // The plane scan through a plan, whole 19x19 boards.
    let counter = std::cell::Cell::new(0usize);
    let mut cases: Vec<(&str, Case<'_>)> = Vec::new();
    for (p, n) in paths.iter().zip(&names) {
        let p = *p;
        let (plan, masks, counter) = (&plan, &masks, &counter);
        cases.push((
            n,
            Box::new(move |e: &mut Env| {
                simd::force(Some(p)).unwrap();
                counter.set(counter.get() + 1);
                let b = &boards[counter.get() % boards.len()].0;
                let mut out = MatchBuf::new(&mut e.slots);
                plan.scan_parallel(masks, b, &NoHost, &q, &mut e.scratch, &mut out)
                    .unwrap()
            }),
        ));
    }
    let ns = round_robin(&mut cases, 8, 9);
    report(
        "plane scan through a ScanPlan, 3,000 x 8 cut 7x7 patterns, 19x19, ns per board:",
        &names,
        &ns,
    );
    simd::force(None).unwrap();
}

fn bench(c: &mut Criterion) {
    let boards: &'static [(Board, (i32, i32))] = Box::leak(game_positions().into_boxed_slice());
    scans(boards);
    simd_levels(boards);
    eprintln!("detected path: {:?}", simd::current());
    let rom = Rom::from_bytes(lut_image()).unwrap();
    let q = query(&rom);
    let mut env = Env::new();
    let mut g = c.benchmark_group("dispatch_scan_lut_3x3");
    g.bench_function("planes", |b| {
        b.iter(|| {
            let mut out = MatchBuf::new(&mut env.slots);
            rom.scan_parallel(&boards[0].0, &NoHost, &q, &mut env.scratch, &mut out)
        })
    });
    g.bench_function("per_focus", |b| {
        b.iter(|| {
            let mut out = MatchBuf::new(&mut env.slots);
            rom.scan_points(&boards[0].0, &NoHost, &q, &mut env.scratch, &mut out)
        })
    });
    g.finish();
    // Every SIMD path, one match call per position (sliced kernel and view cut).
    let rom = Rom::from_bytes(sliced_image(true)).unwrap();
    let q = query(&rom);
    let mut g = c.benchmark_group("dispatch_simd_match_call_cut_3000x8");
    for path in Simd::supported() {
        let label = format!("{:?}+{:?}", path.vector, path.cut);
        g.bench_function(label, |b| {
            simd::force(Some(path)).unwrap();
            b.iter(|| {
                let mut n = 0;
                for (bd, (x, y)) in boards {
                    let mut out = MatchBuf::new(&mut env.slots);
                    n += rom.match_at(bd, &NoHost, &q, *x, *y, &mut env.scratch, &mut out);
                }
                n
            })
        });
    }
    simd::force(None).unwrap();
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
