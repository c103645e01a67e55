//! Matching benchmarks, each against the reference matcher in the same run (ratios, not
//! absolute targets): one match call on a class of 3000 synthetic 7x7 patterns (x 8
//! orientations) with the bit-sliced kernel (blocks of 64, 256, 512 entries), the mask kernel
//! and the reference; the 7x7 view cut (and views kept beside the board); and a whole-board scan. Throughput is in
//! oriented-variant checks per second. Times are this thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`): the machine is shared.
//! After the criterion groups a round-robin summary prints G checks/s and ratios.
//! The `profiles` group loads 3000 patterns from the fast image and from the compact image
//! (expanded at load). Run: `cargo bench -p lens-vm --bench matching`
//! (`LENS_BENCH_PROFILES_ONLY=1` runs that group alone).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use lens_test_support::fixtures::*;
use lens_test_support::placement::on_line;
use lens_test_support::thread_cpu::thread_cpu;
use lens_vm::board::Board;
use lens_vm::matching::simd::Cut;
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;
use std::hint::black_box;
use std::time::Duration;

const PATTERNS: usize = 3000;

/// Runs `f` `iters` times and returns the CPU time it took, on the exact thread clock
/// (`CLOCK_THREAD_CPUTIME_ID`). The schedstat clock used before advanced at scheduler ticks
/// and rounded short samples to whole 4 ms ticks (the view cuts of ~10 ms samples read
/// exact multiples of 3.125 ns per view).
fn cpu_time<F: FnMut()>(iters: u64, mut f: F) -> Duration {
    let t0 = thread_cpu();
    for _ in 0..iters {
        f();
    }
    thread_cpu() - t0
}

/// The two pattern sets: `random` (3-10 loose cells, wildcards: ~190 matches per call, the
/// result path dominates) and `cut` (cut from views like real patterns: few matches, the
/// geometric filter dominates).
fn image_with(cut: bool, patterns: usize, opts: &rom::WriteOptions) -> Vec<u8> {
    let mut rng = Rng(0xbe7c4);
    let mut nodes = Vec::new();
    for id in 0..patterns as u32 {
        let mut p = if cut {
            cut_pattern(&mut rng, id)
        } else {
            random_pattern(&mut rng, id, 3, false)
        };
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
    rom::write_with(
        &RomSpec {
            classes: vec![class],
            ..RomSpec::default()
        },
        opts,
    )
}

fn match_calls(
    c: &mut Criterion,
    cut: bool,
    patterns: usize,
    pos: &'static [(Board, (i32, i32))],
) -> Rom<'static> {
    let set = if cut { "cut" } else { "random" };
    // Block sizes 64, 256 and 512 entries (lensc writes 512), and no section (mask kernel).
    let images: Vec<(String, &'static [u8])> = [1u8, 4, 8]
        .iter()
        .map(|&bw| {
            let opts = rom::WriteOptions {
                sliced_block_words: bw,
                ..Default::default()
            };
            let bytes = on_line(&image_with(cut, patterns, &opts), 0);
            (format!("sliced_{}", 64 * bw as usize), bytes)
        })
        .collect();
    let roms: Vec<(String, Rom<'static>)> = images
        .iter()
        .map(|(n, b)| (n.clone(), Rom::from_bytes(b).unwrap()))
        .collect();
    let rom = roms[2].1;
    // The same class in 512-entry blocks without pair rows (format v3's layout, matched with
    // the single rows): the baseline of the pair rows in the same run.
    internals::set_write_pair_rows(Some(false));
    let opts8 = rom::WriteOptions {
        sliced_block_words: 8,
        ..Default::default()
    };
    let v3_bytes = on_line(&image_with(cut, patterns, &opts8), 0);
    internals::set_write_pair_rows(None);
    let v3 = Rom::from_bytes(v3_bytes).unwrap();
    // And without the plain facts (format v4's records: entry, pattern and result read per
    // match): the baseline of `pattern_facts` in the same run.
    internals::set_write_facts(Some(false));
    let v4_bytes = on_line(&image_with(cut, patterns, &opts8), 0);
    internals::set_write_facts(None);
    let v4 = Rom::from_bytes(v4_bytes).unwrap();
    // And in format v5's layout (the `sliced` tables where the sections fall, 8-byte aligned in
    // the file: 48 bytes past a line for this class), the image on a line like the others: the
    // baseline of v6's alignment in the same run.
    internals::set_write_aligned(Some(false));
    let v5_bytes = on_line(&image_with(cut, patterns, &opts8), 0);
    internals::set_write_aligned(None);
    let v5 = Rom::from_bytes(v5_bytes).unwrap();
    assert_eq!((v5.format_version(), rom.format_version()), (5, 6));
    let masks = rom.without_sliced();
    let class = rom.class_by_name("bench").unwrap();
    let variants = rom.class(class).unwrap().entry_count() as u64;
    let q = Query {
        class,
        perspective: Colour::Black,
        orientations: Orientations::All,
    };
    let mut slots = vec![Match::EMPTY; 1 << 14];
    let mut scratch = Scratch::new();

    // One call per position; every kernel must give the reference's matches.
    let calls = |r: &Rom<'_>, reference_path: bool, slots: &mut [Match], scratch: &mut Scratch| {
        let mut n = 0;
        for (board, (x, y)) in pos {
            let mut out = MatchBuf::new(slots);
            n += if reference_path {
                reference::match_at(r, board, &NoHost, &q, *x, *y, scratch, &mut out)
            } else {
                r.match_at(board, &NoHost, &q, *x, *y, scratch, &mut out)
            };
        }
        n
    };
    // `LENS_MATCH_PROFILE=call|filter[:ROUNDS[:ENTRIES|v4]]`: only the `cut` set's 3000-pattern
    // sliced calls (whole, or the filter alone; blocks of 512 entries unless ENTRIES), ROUNDS x
    // 64, then exit (a `valgrind --tool=callgrind`
    // target; also old/new binaries in alternation).
    if let Ok(spec) = std::env::var("LENS_MATCH_PROFILE")
        && cut
        && patterns == PATTERNS
    {
        let mut parts = spec.split(':');
        let name = parts.next().unwrap_or("call");
        let rounds = parts.next().unwrap_or("100");
        // An optional third field picks the block size (entries; default 512), or `v4`: the
        // 512-entry image without the plain facts, or `v5`: in format v5's layout.
        let rom = match parts.next() {
            Some("v4") => v4,
            Some("v5") => v5,
            Some(e) => {
                roms.iter()
                    .find(|(n, _)| *n == format!("sliced_{e}"))
                    .expect("LENS_MATCH_PROFILE block size: one of the bench's images")
                    .1
            }
            None => rom,
        };
        // `LENS_PLACE=K`: the image copied to byte K of a cache line (0: as it is).
        let rom = match std::env::var("LENS_PLACE").map(|k| k.parse::<usize>()) {
            Ok(Ok(k)) => Rom::from_bytes(on_line(rom.as_bytes(), k)).unwrap(),
            _ => rom,
        };
        let q = match name {
            "call" => q,
            "filter" => Query {
                orientations: Orientations::Set(0),
                ..q
            },
            _ => panic!("LENS_MATCH_PROFILE: call or filter"),
        };
        let rounds: u64 = rounds.parse().unwrap();
        let mut n = 0;
        let t = cpu_time(rounds, || {
            for (board, (x, y)) in pos {
                let mut out = MatchBuf::new(&mut slots);
                n += rom.match_at(board, &NoHost, &q, *x, *y, &mut scratch, &mut out);
            }
        });
        let per_call = t.as_secs_f64() / (rounds * pos.len() as u64) as f64;
        eprintln!(
            "profile {name}: {n} matches, {:.3} us per call, {:.2} G checks/s (thread CPU)",
            per_call * 1e6,
            variants as f64 / per_call / 1e9
        );
        std::process::exit(0);
    }
    let want = calls(&rom, true, &mut slots, &mut scratch);
    for (name, r) in &roms {
        assert_eq!(calls(r, false, &mut slots, &mut scratch), want, "{name}");
    }
    assert_eq!(
        calls(&masks, false, &mut slots, &mut scratch),
        want,
        "masks"
    );
    assert_eq!(
        calls(&v3, false, &mut slots, &mut scratch),
        want,
        "v3 blocks"
    );
    assert_eq!(
        calls(&v4, false, &mut slots, &mut scratch),
        want,
        "v4 records"
    );
    assert_eq!(
        calls(&v5, false, &mut slots, &mut scratch),
        want,
        "v5 layout"
    );
    // `LENS_RESULTS_PROFILE=match|filter[:ROUNDS]`: only the `random` set's calls through
    // `HitPlan::match_at` (full `Match`es, or its filter alone), ROUNDS x 64, then exit (a
    // callgrind target for the result path).
    if let Ok(spec) = std::env::var("LENS_RESULTS_PROFILE")
        && !cut
        && patterns == PATTERNS
    {
        let mut parts = spec.split(':');
        let name = parts.next().unwrap_or("match");
        let rounds: u64 = parts.next().unwrap_or("100").parse().unwrap();
        let plan = matching::HitPlan::new(&rom, class).unwrap();
        let q = match name {
            "match" => q,
            "filter" => Query {
                orientations: Orientations::Set(0),
                ..q
            },
            _ => panic!("LENS_RESULTS_PROFILE: match or filter"),
        };
        let mut n = 0;
        let t = cpu_time(rounds, || {
            for (board, (x, y)) in pos {
                let mut out = MatchBuf::new(&mut slots);
                n += plan.match_at(&rom, board, &NoHost, &q, *x, *y, &mut scratch, &mut out);
            }
        });
        let per_call = t.as_secs_f64() / (rounds * pos.len() as u64) as f64;
        eprintln!(
            "results profile {name}: {n} matches, {:.3} us per call (thread CPU)",
            per_call * 1e6
        );
        std::process::exit(0);
    }

    let mut g = c.benchmark_group(format!("match_call_{set}"));
    g.throughput(Throughput::Elements(variants * pos.len() as u64));
    for (name, r) in &roms {
        g.bench_function(BenchmarkId::new(name.as_str(), patterns), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    black_box(calls(r, false, &mut slots, &mut scratch));
                })
            })
        });
    }
    let mut hit_slots = vec![matching::Hit::EMPTY; 1 << 14];
    g.bench_function(BenchmarkId::new("hits_512", patterns), |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                let mut n = 0;
                for (board, (x, y)) in pos {
                    let mut out = matching::HitBuf::new(&mut hit_slots);
                    n += rom.match_hits_at(board, &NoHost, &q, *x, *y, &mut scratch, &mut out);
                }
                black_box(n);
            })
        })
    });
    let plan = matching::HitPlan::new(&rom, class).unwrap();
    // The facts give the same matches as the reference (hits resolved).
    for (board, (x, y)) in pos {
        let (mut a, mut h) = (
            MatchBuf::new(&mut slots),
            matching::HitBuf::new(&mut hit_slots),
        );
        reference::match_at(&rom, board, &NoHost, &q, *x, *y, &mut scratch, &mut a);
        plan.match_hits_at(&rom, board, &NoHost, &q, *x, *y, &mut scratch, &mut h);
        let got: Vec<Match> = h
            .as_slice()
            .iter()
            .map(|h| h.resolve(&rom, class))
            .collect();
        assert_eq!(got, a.as_slice(), "HitPlan at ({x}, {y})");
        let mut m = MatchBuf::new(&mut slots);
        plan.match_at(&rom, board, &NoHost, &q, *x, *y, &mut scratch, &mut m);
        assert_eq!(m.as_slice(), &got[..], "HitPlan::match_at at ({x}, {y})");
    }
    g.bench_function(BenchmarkId::new("plan_hits_512", patterns), |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                let mut n = 0;
                for (board, (x, y)) in pos {
                    let mut out = matching::HitBuf::new(&mut hit_slots);
                    n += plan.match_hits_at(
                        &rom,
                        board,
                        &NoHost,
                        &q,
                        *x,
                        *y,
                        &mut scratch,
                        &mut out,
                    );
                }
                black_box(n);
            })
        })
    });
    g.bench_function(BenchmarkId::new("masks", patterns), |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                black_box(calls(&masks, false, &mut slots, &mut scratch));
            })
        })
    });
    g.bench_function(BenchmarkId::new("reference", patterns), |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                black_box(calls(&rom, true, &mut slots, &mut scratch));
            })
        })
    });
    g.finish();

    // Round-robin summary (9 rounds, median of CPU time): G checks/s and ratios.
    let checks = (variants * pos.len() as u64) as f64;
    let mut kernels: Vec<(String, Box<dyn FnMut() -> usize + '_>)> = Vec::new();
    for (name, r) in &roms {
        let r = *r;
        let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
        kernels.push((
            name.clone(),
            Box::new(move || calls(&r, false, &mut sl, &mut sc)),
        ));
    }
    // The geometric filter alone: an empty orientation set skips every candidate's result.
    let q0 = Query {
        orientations: Orientations::Set(0),
        ..q
    };
    let filter = move |r: Rom<'static>| {
        let (mut sl, mut sc) = (vec![Match::EMPTY; 16], Scratch::new());
        move || {
            let mut n = 0;
            for (board, (x, y)) in pos {
                let mut out = MatchBuf::new(&mut sl);
                n += r.match_at(board, &NoHost, &q0, *x, *y, &mut sc, &mut out);
            }
            n
        }
    };
    kernels.push(("filter_512".into(), Box::new(filter(rom))));
    // The baseline in the same run: the same kernel checking the survivors of blocks with at
    // most 4 entries left after the word-0 rows (the default before format v6; now every row
    // is ORed), whole call and filter alone.
    fn old<'a>(mut f: Box<dyn FnMut() -> usize + 'a>) -> Box<dyn FnMut() -> usize + 'a> {
        Box::new(move || {
            internals::set_survivor_limit(Some(4));
            let n = f();
            internals::set_survivor_limit(None);
            n
        })
    }
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "sliced_survivors4".into(),
        old(Box::new(move || calls(&rom, false, &mut sl, &mut sc))),
    ));
    kernels.push(("filter_survivors4".into(), old(Box::new(filter(rom)))));
    // And one block at a time (no pairing of the word-0 rows, session 6's row loop).
    fn unpaired<'a>(mut f: Box<dyn FnMut() -> usize + 'a>) -> Box<dyn FnMut() -> usize + 'a> {
        Box::new(move || {
            internals::set_paired_blocks(Some(false));
            let n = f();
            internals::set_paired_blocks(None);
            n
        })
    }
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "sliced_unpaired".into(),
        unpaired(Box::new(move || calls(&rom, false, &mut sl, &mut sc))),
    ));
    kernels.push(("filter_unpaired".into(), unpaired(Box::new(filter(rom)))));
    // And the single word-0 rows of each point instead of the pair rows (the kernel of
    // images before format v4), on the same image.
    fn singles<'a>(mut f: Box<dyn FnMut() -> usize + 'a>) -> Box<dyn FnMut() -> usize + 'a> {
        Box::new(move || {
            internals::set_pair_rows(Some(false));
            let n = f();
            internals::set_pair_rows(None);
            n
        })
    }
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "sliced_no_pairs".into(),
        singles(Box::new(move || calls(&rom, false, &mut sl, &mut sc))),
    ));
    kernels.push(("filter_no_pairs".into(), singles(Box::new(filter(rom)))));
    // And the image without pair rows (format v3's blocks: smaller tables).
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "sliced_v3_blocks".into(),
        Box::new(move || calls(&v3, false, &mut sl, &mut sc)),
    ));
    kernels.push(("filter_v3_blocks".into(), Box::new(filter(v3))));
    // And the image without the plain facts (format v4's records).
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "sliced_v4".into(),
        Box::new(move || calls(&v4, false, &mut sl, &mut sc)),
    ));
    kernels.push(("filter_v4".into(), Box::new(filter(v4))));
    // And the same image in format v5's layout (tables off the cache lines).
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "sliced_v5".into(),
        Box::new(move || calls(&v5, false, &mut sl, &mut sc)),
    ));
    kernels.push(("filter_v5".into(), Box::new(filter(v5))));
    // The same calls writing compact hits (focus, pattern, orientation) instead of matches.
    let hits = move |r: Rom<'static>| {
        let (mut sl, mut sc) = (vec![matching::Hit::EMPTY; 1 << 14], Scratch::new());
        move || {
            let mut n = 0;
            for (board, (x, y)) in pos {
                let mut out = matching::HitBuf::new(&mut sl);
                n += r.match_hits_at(board, &NoHost, &q, *x, *y, &mut sc, &mut out);
            }
            n
        }
    };
    kernels.push(("hits_512".into(), Box::new(hits(rom))));
    // The same through the class's per-entry facts (`HitPlan`), and its filter alone.
    let plan: &'static matching::HitPlan = Box::leak(Box::new(plan));
    let plan_hits = move |r: Rom<'static>, q: Query| {
        let (mut sl, mut sc) = (vec![matching::Hit::EMPTY; 1 << 14], Scratch::new());
        move || {
            let mut n = 0;
            for (board, (x, y)) in pos {
                let mut out = matching::HitBuf::new(&mut sl);
                n += plan.match_hits_at(&r, board, &NoHost, &q, *x, *y, &mut sc, &mut out);
            }
            n
        }
    };
    kernels.push(("plan_hits".into(), Box::new(plan_hits(rom, q))));
    // Full matches through the same facts (`HitPlan::match_at`).
    let plan_match = move |r: Rom<'static>, q: Query| {
        let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
        move || {
            let mut n = 0;
            for (board, (x, y)) in pos {
                let mut out = MatchBuf::new(&mut sl);
                n += plan.match_at(&r, board, &NoHost, &q, *x, *y, &mut sc, &mut out);
            }
            n
        }
    };
    kernels.push(("plan_match".into(), Box::new(plan_match(rom, q))));
    kernels.push(("filter_plan".into(), Box::new(plan_hits(rom, q0))));
    kernels.push(("filter_masks".into(), Box::new(filter(masks))));
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "masks".into(),
        Box::new(move || calls(&masks, false, &mut sl, &mut sc)),
    ));
    let (mut sl, mut sc) = (vec![Match::EMPTY; 1 << 14], Scratch::new());
    kernels.push((
        "reference".into(),
        Box::new(move || calls(&rom, true, &mut sl, &mut sc)),
    ));
    // Samples of ~100 ms each.
    let iters: Vec<u64> = kernels
        .iter_mut()
        .map(|(_, f)| {
            black_box(f());
            let t = std::time::Instant::now();
            black_box(f());
            (0.1 / t.elapsed().as_secs_f64().max(1e-9)).ceil().max(1.0) as u64
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); kernels.len()];
    for _ in 0..9 {
        for (k, (_, f)) in kernels.iter_mut().enumerate() {
            let t = cpu_time(iters[k], || {
                black_box(f());
            });
            times[k].push(t.as_secs_f64() / iters[k] as f64);
        }
    }
    let med: Vec<f64> = times.iter_mut().map(|v| median(v)).collect();
    let (t_masks, t_ref) = (med[med.len() - 2], med[med.len() - 1]);
    println!(
        "\nmatch_call_{set}/{patterns} summary ({} calls x {variants} variants, {:.1} matches per call, CPU time, median of 9 rounds):",
        pos.len(),
        want as f64 / pos.len() as f64
    );
    println!(
        "{:<16} {:>10} {:>12} {:>10} {:>10}",
        "kernel", "us/call", "G checks/s", "x masks", "x ref"
    );
    for ((name, _), t) in kernels.iter().zip(&med) {
        println!(
            "{name:<16} {:>10.2} {:>12.2} {:>10.2} {:>10.1}",
            t / pos.len() as f64 * 1e6,
            checks / t / 1e9,
            t_masks / t,
            t_ref / t
        );
    }
    // Result handling per match: a call's time less the geometric filter's (same kernel).
    let at = |n: &str| kernels.iter().position(|(k, _)| k == n).map(|i| med[i]);
    if let (Some(full), Some(filter), Some(hits)) =
        (at("sliced_512"), at("filter_512"), at("hits_512"))
        && want > 0
    {
        let per = |t: f64| (t - filter) / want as f64 * 1e9;
        println!(
            "result handling per match: Match {:.1} ns, Hit {:.1} ns ({:.1}x)",
            per(full),
            per(hits),
            per(full) / per(hits).max(1e-3)
        );
        if let (Some(ph), Some(pf)) = (at("plan_hits"), at("filter_plan")) {
            let plan_per = (ph - pf) / want as f64 * 1e9;
            println!(
                "through HitPlan: Hit {:.1} ns per match over its own filter ({:.1}x less than Match); whole call {:.2}x faster than Match, {:.2}x than Hit",
                plan_per,
                per(full) / plan_per.max(1e-3),
                full / ph,
                hits / ph
            );
        }
        if let (Some(pm), Some(pf)) = (at("plan_match"), at("filter_plan")) {
            println!(
                "through HitPlan::match_at: Match {:.1} ns per match over its own filter; whole call {:.2} G checks/s, {:.2}x faster than Rom::match_at",
                (pm - pf) / want as f64 * 1e9,
                checks / pm / 1e9,
                full / pm
            );
        }
    }
    rom
}

fn bench(c: &mut Criterion) {
    if std::env::var_os("LENS_BENCH_PROFILES_ONLY").is_some() {
        return;
    }
    let pos: &'static [(Board, (i32, i32))] = Box::leak(game_positions().into_boxed_slice());
    if std::env::var_os("LENS_MATCH_PROFILE").is_some() {
        match_calls(c, true, PATTERNS, pos);
    }
    if std::env::var_os("LENS_RESULTS_PROFILE").is_some() {
        match_calls(c, false, PATTERNS, pos);
    }
    // 500 patterns (4,000 variants: the tables stay in L2 even on a busy machine) and 3000.
    match_calls(c, true, 500, pos);
    match_calls(c, true, PATTERNS, pos);
    let rom = match_calls(c, false, PATTERNS, pos);
    let class = rom.class_by_name("bench").unwrap();
    let variants = rom.class(class).unwrap().entry_count() as u64;
    let q = Query {
        class,
        perspective: Colour::Black,
        orientations: Orientations::All,
    };

    let mut g = c.benchmark_group("view_7x7");
    g.throughput(Throughput::Elements(pos.len() as u64));
    let views = || {
        let mut acc = 0u64;
        for (board, (x, y)) in pos {
            let v = lens_vm::matching::view_words(board, Colour::Black, *x, *y);
            acc ^= v[0] ^ v[1] ^ v[2];
        }
        acc
    };
    let states = || {
        // what the reference reads: 49 point states
        let mut acc = 0u64;
        for (board, (x, y)) in pos {
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
        acc
    };
    g.bench_function("packed_words", |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                black_box(views());
            })
        })
    });
    g.bench_function("reference_states", |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                black_box(states());
            })
        })
    });
    g.finish();

    let mut vt: Vec<f64> = Vec::new();
    let mut st: Vec<f64> = Vec::new();
    for _ in 0..9 {
        vt.push(
            cpu_time(20000, || {
                black_box(views());
            })
            .as_secs_f64()
                / 20000.0,
        );
        st.push(
            cpu_time(20000, || {
                black_box(states());
            })
            .as_secs_f64()
                / 20000.0,
        );
    }
    let (v, s) = (median(&mut vt), median(&mut st));
    println!(
        "view_7x7: {:.1} ns per view (49 point reads: {:.1} ns, {:.1}x)",
        v / pos.len() as f64 * 1e9,
        s / pos.len() as f64 * 1e9,
        s / v
    );
    // The view cuts, forced in rotation: row tables, the BMI2 `pext` gather and the AVX-512
    // BITALG bit shuffles (those this machine has), with the current vector level.
    let cuts: Vec<matching::simd::Simd> = [Cut::Tables, Cut::Pext, Cut::Shuffle]
        .map(|cut| matching::simd::Simd {
            cut,
            ..matching::simd::current()
        })
        .into_iter()
        .filter(|s| matching::simd::Simd::supported().any(|t| t == *s))
        .collect();
    // Many foci of one position (what a caller cutting the views of several foci pays):
    // each board's views at all 64 foci, by single calls and by one `cut_views` per board.
    let foci: Vec<(i32, i32)> = pos.iter().map(|(_, f)| *f).collect();
    let mut out = vec![[0u64; 3]; foci.len()];
    let singles = || {
        let mut acc = 0u64;
        for (board, _) in pos {
            for (x, y) in &foci {
                let v = lens_vm::matching::view_words(board, Colour::Black, *x, *y);
                acc ^= v[0] ^ v[1] ^ v[2];
            }
        }
        acc
    };
    let mut batch = || {
        for (board, _) in pos {
            matching::cut_views(board, Colour::Black, &foci, &mut out);
            black_box(&out);
        }
    };
    let mut times = vec![[Vec::new(), Vec::new(), Vec::new()]; cuts.len()];
    let (n, per_pass) = (20000 / foci.len() as u64, (pos.len() * foci.len()) as f64);
    for _ in 0..9 {
        for (path, [one, many, batched]) in cuts.iter().zip(&mut times) {
            matching::simd::force(Some(*path)).unwrap();
            let t = cpu_time(20000, || {
                black_box(views());
            });
            one.push(t.as_secs_f64() / 20000.0 / pos.len() as f64 * 1e9);
            let t = cpu_time(n, || {
                black_box(singles());
            });
            many.push(t.as_secs_f64() / n as f64 / per_pass * 1e9);
            let t = cpu_time(n, &mut batch);
            batched.push(t.as_secs_f64() / n as f64 / per_pass * 1e9);
        }
    }
    matching::simd::force(None).unwrap();
    let ns: Vec<[f64; 3]> = times
        .iter_mut()
        .map(|t| t.each_mut().map(|t| median(t)))
        .collect();
    let line: Vec<String> = cuts
        .iter()
        .zip(&ns)
        .map(|(s, n)| {
            format!(
                "{:?} {:.1} ns ({:.2}x tables)",
                s.cut,
                n[0],
                n[0] / ns[0][0]
            )
        })
        .collect();
    println!("view_7x7 cuts, per view: {}", line.join(", "));
    let line: Vec<String> = cuts
        .iter()
        .zip(&ns)
        .map(|(s, n)| {
            format!(
                "{:?} {:.1} -> {:.1} ns ({:.2}x)",
                s.cut,
                n[1],
                n[2],
                n[2] / n[1]
            )
        })
        .collect();
    println!(
        "view_7x7 cuts, 64 foci per board, single calls -> cut_views: {}",
        line.join(", ")
    );
    // Kept views (`matching::KeptViews`): the same foci read from views kept beside each
    // board, against the cut in the same rounds; and what keeping them costs per move.
    let mut kept: Vec<Box<matching::KeptViews>> = pos
        .iter()
        .map(|_| Box::new(matching::KeptViews::new()))
        .collect();
    let with: Vec<matching::WithViews<'_, Board>> = kept
        .iter_mut()
        .zip(pos)
        .map(|(k, (board, _))| k.sync(board))
        .collect();
    let kept_views = || {
        let mut acc = 0u64;
        for (board, (_, (x, y))) in with.iter().zip(pos) {
            let v = lens_vm::matching::view_words(board, Colour::Black, *x, *y);
            acc ^= v[0] ^ v[1] ^ v[2];
        }
        acc
    };
    let (mut ct, mut kt) = (Vec::new(), Vec::new());
    for _ in 0..9 {
        ct.push(cpu_time(20000, || {
            black_box(views());
        }));
        kt.push(cpu_time(20000, || {
            black_box(kept_views());
        }));
    }
    let per_view = |v: &mut Vec<Duration>| {
        let mut s: Vec<f64> = v.iter().map(|d| d.as_secs_f64()).collect();
        median(&mut s) / 20000.0 / pos.len() as f64 * 1e9
    };
    let (cut, k) = (per_view(&mut ct), per_view(&mut kt));
    drop(with);
    // Per move: play at each position's focus, sync, undo, sync (against play + undo alone).
    let mut boards: Vec<Board> = pos.iter().map(|(b, _)| b.clone()).collect();
    let (mut pt, mut st) = (Vec::new(), Vec::new());
    for _ in 0..9 {
        pt.push(cpu_time(2000, || {
            for (b, (_, (x, y))) in boards.iter_mut().zip(pos) {
                black_box(b.play(b.to_move(), *x, *y).is_ok() && b.undo());
            }
        }));
        st.push(cpu_time(2000, || {
            for ((b, k), (_, (x, y))) in boards.iter_mut().zip(kept.iter_mut()).zip(pos) {
                let played = b.play(b.to_move(), *x, *y).is_ok();
                black_box(k.sync(b).size());
                black_box(played && b.undo());
                black_box(k.sync(b).size());
            }
        }));
    }
    let per_move = |v: &mut Vec<Duration>| {
        let mut s: Vec<f64> = v.iter().map(|d| d.as_secs_f64()).collect();
        median(&mut s) / 2000.0 / pos.len() as f64 * 1e9
    };
    let (p, s) = (per_move(&mut pt), per_move(&mut st));
    println!(
        "view_7x7 kept: {k:.1} ns per view (cut {cut:.1} ns, {:.1}x); play + undo {p:.0} ns, with two syncs {s:.0} ns (+{:.0} ns per move)",
        cut / k,
        s - p
    );
    println!();

    let board = &pos[0].0;
    let mut slots = vec![Match::EMPTY; 1 << 14];
    let mut scratch = Scratch::new();
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

/// The two image profiles for 3000 cut patterns: loading the fast image (validation, the
/// baseline) against loading the compact image and expanding it (SuperEgo style) to the same
/// fast image; and one match call on each (the expanded image is the fast image byte for
/// byte, so the two match rows measure the same kernel).
fn profiles(c: &mut Criterion) {
    let fast_opts = rom::WriteOptions {
        sliced_block_words: 8,
        ..Default::default()
    };
    let compact_opts = rom::WriteOptions {
        profile: rom::Profile::Compact,
        ..Default::default()
    };
    let fast = image_with(true, PATTERNS, &fast_opts);
    let compact = image_with(true, PATTERNS, &compact_opts);
    let expand = || {
        let c = rom::CompactRom::from_bytes(&compact).unwrap();
        let bytes = c.expand(&fast_opts).unwrap();
        Rom::from_bytes(&bytes).unwrap();
        bytes
    };
    // The same image but for the order of each pattern's cells (these synthetic patterns list
    // them unordered; the compact form stores them in ring order, as the compiler lists them).
    assert_eq!(
        expand().len(),
        fast.len(),
        "expansion reproduces the fast image"
    );
    println!(
        "profiles: {PATTERNS} cut patterns, fast image {} bytes, compact image {} bytes ({:.1} bytes per pattern)",
        fast.len(),
        compact.len(),
        compact.len() as f64 / PATTERNS as f64
    );
    let mut g = c.benchmark_group("profiles_load");
    g.throughput(Throughput::Elements(PATTERNS as u64));
    g.bench_function("fast_validate", |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                black_box(Rom::from_bytes(&fast).unwrap());
            })
        })
    });
    g.bench_function("compact_validate_expand_validate", |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                black_box(expand());
            })
        })
    });
    g.finish();
    let (mut ft, mut ct) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        ft.push(
            cpu_time(5, || {
                black_box(Rom::from_bytes(&fast).unwrap());
            })
            .as_secs_f64()
                / 5.0,
        );
        ct.push(
            cpu_time(5, || {
                black_box(expand());
            })
            .as_secs_f64()
                / 5.0,
        );
    }
    // The expansion alone, with and without the optional bit-sliced tables, and the pieces.
    let c = rom::CompactRom::from_bytes(&compact).unwrap();
    let (mut st, mut mt, mut wt) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..5 {
        st.push(
            cpu_time(5, || {
                black_box(c.to_spec());
            })
            .as_secs_f64()
                / 5.0,
        );
        mt.push(
            cpu_time(5, || {
                black_box(c.expand(&rom::WriteOptions::default()).unwrap());
            })
            .as_secs_f64()
                / 5.0,
        );
        wt.push(
            cpu_time(5, || {
                black_box(c.expand(&fast_opts).unwrap());
            })
            .as_secs_f64()
                / 5.0,
        );
    }
    let (f, e) = (median(&mut ft), median(&mut ct));
    let (sp, masks, sliced) = (median(&mut st), median(&mut mt), median(&mut wt));
    println!(
        "profiles: load fast {:.2} ms, load compact + expand + load {:.2} ms ({:.1}x); expand alone {:.2} ms (decode {:.2} ms, masks-only image {:.2} ms)\n",
        f * 1e3,
        e * 1e3,
        e / f,
        sliced * 1e3,
        sp * 1e3,
        masks * 1e3
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    targets = bench, profiles
}
criterion_main!(benches);
