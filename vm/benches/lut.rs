//! The 3x3 lookup kernel (`lut` section) against the bit-sliced kernel, the mask kernel and the
//! reference matcher on the same class in the same run: one match call at an empty point of a
//! 19x19 game-like position, ns per call. Classes: 3x3 patterns cut from real views (focus and
//! each neighbour with p = 0.85, the state seen or "anything but" it), x 8 orientations, in
//! mode all and mode best. Times are this thread's CPU time (the machine is shared); after the
//! criterion groups a round-robin summary prints ns per call, the ratios and the table sizes.
//! Run: `cargo bench -p lens-vm --bench lut`.

use lens_test_support::thread_cpu;

use criterion::{Criterion, criterion_group, criterion_main};
use lens_test_support::fixtures::*;
use lens_vm::board::Board;
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;
use std::hint::black_box;
use std::time::Duration;

fn cpu_time<F: FnMut()>(iters: u64, mut f: F) -> Duration {
    let t0 = thread_cpu::thread_cpu();
    for _ in 0..iters {
        f();
    }
    thread_cpu::thread_cpu().saturating_sub(t0)
}

fn image(mode: Mode, patterns: usize) -> &'static [u8] {
    let mut rng = Rng(0x1u64 << 40 | patterns as u64);
    let nodes = (0..patterns as u32)
        .map(|id| ClassNode::Pattern(cut_3x3(&mut rng, id)))
        .collect();
    let class = ClassSpec {
        name: "bench".into(),
        mode,
        focus: E,
        width: 3,
        height: 3,
        orient: OrientPolicy::All,
        default_value: None,
        nodes,
    };
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

/// All positions once through one kernel; returns the match count. (`Scratch` is about
/// 180 KiB: it is made once, outside the timed loop.)
fn run(
    rom: &Rom<'_>,
    reference: bool,
    q: &Query,
    pos: &[(Board, (i32, i32))],
    (slots, scratch): &mut (Vec<Match>, Scratch),
) -> usize {
    let mut n = 0;
    for (b, (x, y)) in pos {
        let mut out = MatchBuf::new(slots);
        n += if reference {
            reference::match_at(rom, b, &NoHost, q, *x, *y, scratch, &mut out)
        } else {
            rom.match_at(b, &NoHost, q, *x, *y, scratch, &mut out)
        };
    }
    n
}

fn bench(c: &mut Criterion) {
    let pos: &'static [(Board, (i32, i32))] = Box::leak(game_positions().into_boxed_slice());
    for (mode, patterns) in [(Mode::All, 60), (Mode::Best, 60), (Mode::All, 20)] {
        let bytes = image(mode, patterns);
        let rom = Rom::from_bytes(bytes).unwrap();
        let class = rom.class_by_name("bench").unwrap();
        let info = rom.class(class).unwrap();
        let table = rom
            .class_lut(&info)
            .expect("the bench class is tabled")
            .len();
        let q = Query {
            class,
            perspective: Colour::Black,
            orientations: Orientations::All,
        };
        // The geometric filter alone: an empty orientation set skips every candidate's result.
        let q0 = Query {
            orientations: Orientations::Set(0),
            ..q
        };
        let kernels: [(&str, Rom<'static>, bool, Query); 7] = [
            ("lut", rom, false, q),
            ("sliced", rom.without_lut(), false, q),
            ("masks", rom.without_lut().without_sliced(), false, q),
            ("reference", rom, true, q),
            ("filter_lut", rom, false, q0),
            ("filter_sliced", rom.without_lut(), false, q0),
            (
                "filter_masks",
                rom.without_lut().without_sliced(),
                false,
                q0,
            ),
        ];
        let mut mem = (vec![Match::EMPTY; 512], Scratch::new());
        let want = run(&rom, true, &q, pos, &mut mem);
        for (name, r, reference, q) in &kernels[..4] {
            assert_eq!(
                run(r, *reference, q, pos, &mut mem),
                want,
                "{name} disagrees"
            );
        }
        let set = format!("{mode:?}_{}", info.entry_count());
        let mut g = c.benchmark_group(format!("lut_call_{set}"));
        for (name, r, reference, q) in &kernels {
            g.bench_function(*name, |b| {
                b.iter_custom(|iters| {
                    cpu_time(iters, || {
                        black_box(run(r, *reference, q, pos, &mut mem));
                    })
                })
            });
        }
        g.finish();
        // Round-robin summary: the kernels alternate, so load changes hit them alike.
        let mut t: Vec<Vec<f64>> = vec![Vec::new(); kernels.len()];
        for _ in 0..9 {
            for (k, (_, r, reference, q)) in kernels.iter().enumerate() {
                let iters = if *reference { 20 } else { 2000 };
                let d = cpu_time(iters, || {
                    black_box(run(r, *reference, q, pos, &mut mem));
                });
                t[k].push(d.as_secs_f64() / (iters as f64 * pos.len() as f64) * 1e9);
            }
        }
        let ns: Vec<f64> = t.iter_mut().map(|v| median(v)).collect();
        let (masks, sliced) = (
            info.entry_count() as usize * 8,
            rom.section_span(rom::Section::Sliced).map_or(0, |s| s.1),
        );
        println!(
            "lut {set}: {:.1} matches per call; ns per call lut {:.1}, sliced {:.1} ({:.2}x), masks {:.1} ({:.2}x), reference {:.0} ({:.0}x); filter alone lut {:.1}, sliced {:.1} ({:.2}x), masks {:.1} ({:.2}x); table {table} bytes (masks {masks}, sliced {sliced})",
            want as f64 / pos.len() as f64,
            ns[0],
            ns[1],
            ns[1] / ns[0],
            ns[2],
            ns[2] / ns[0],
            ns[3],
            ns[3] / ns[0],
            ns[4],
            ns[5],
            ns[5] / ns[4],
            ns[6],
            ns[6] / ns[4],
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
