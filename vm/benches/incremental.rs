//! Incremental 3x3 codes (`lens_vm::incremental::Codes3x3`, issue 15 part 2): the cost of
//! play (or undo) + update against play alone and play + recomputing every code, replaying the
//! GNU Go game records forth and back (`../shared/data`, read at run time; random games when
//! absent); and one 3x3 lookup-table answer per point keyed by the kept code against the same
//! lookup keyed by a window cut (`internals::lut::code`), and the whole `match_at` both ways. Thread
//! CPU time; a round-robin summary prints ns per step and per point.
//! Run: `cargo bench -p lens-vm --bench incremental`.

#[path = "../tests/incremental_support/mod.rs"]
mod incremental_support;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use incremental_support::{Step, games};
use lens_test_support::fixtures::{E, Rng as SpecRng, median, random_pattern};
use lens_test_support::thread_cpu::thread_cpu;
use lens_vm::board::{Board, Colour};
use lens_vm::incremental::Codes3x3;
use lens_vm::internals::lut;
use lens_vm::rom;
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::{Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};

#[derive(Clone, Copy, PartialEq)]
enum Way {
    PlayOnly,
    Update,
    Rebuild,
}

/// Every game forth (plays) and back (undos); returns steps and a checksum.
fn replay(games: &[Vec<Step>], way: Way, codes: &mut Codes3x3) -> (usize, u64) {
    let (mut n, mut sum) = (0, 0u64);
    for steps in games {
        let mut b = Board::new(19).unwrap();
        codes.rebuild(&b);
        let after = |b: &Board, codes: &mut Codes3x3| match way {
            Way::PlayOnly => b.history_len() as u64,
            Way::Update => codes.update(b) as u64,
            Way::Rebuild => {
                codes.rebuild(b);
                codes.word(3, 3) as u64
            }
        };
        for s in steps {
            s.apply(&mut b);
            n += 1;
            sum += after(&b, codes);
        }
        while b.undo() {
            n += 1;
            sum += after(&b, codes);
        }
    }
    (n, sum)
}

fn random_games() -> Vec<Vec<Step>> {
    let mut rng = incremental_support::Rng(99);
    (0..4)
        .map(|_| {
            let mut b = Board::new(19).unwrap();
            let mut steps = Vec::new();
            while steps.len() < 250 {
                let c = b.to_move();
                let (x, y) = (rng.below(19) as i32, rng.below(19) as i32);
                if b.play(c, x, y).is_ok() {
                    steps.push(Step::Play(c, x, y));
                }
            }
            steps
        })
        .collect()
}

/// A 3x3 class with a lookup table: 60 random patterns (focus empty) x 8 orientations.
fn lut_image() -> Vec<u8> {
    let mut rng = SpecRng(0x3A3);
    let nodes = (0..60)
        .map(|id| ClassNode::Pattern(random_pattern(&mut rng, id, 1, false)))
        .collect();
    let spec = RomSpec {
        classes: vec![ClassSpec {
            name: "shape".into(),
            mode: Mode::All,
            focus: E,
            width: 3,
            height: 3,
            orient: OrientPolicy::All,
            default_value: None,
            nodes,
        }],
        ..RomSpec::default()
    };
    let opts = rom::WriteOptions {
        sliced_block_words: 8,
        lut_max_bytes: u32::MAX,
        lut_max_bytes_per_variant: 0,
        profile: rom::Profile::Fast,
    };
    rom::write_with(&spec, &opts)
}

fn bench(c: &mut Criterion) {
    let games: Vec<Vec<Step>> = match incremental_support::gnugo_dir() {
        Some(dir) => games(&dir).into_iter().map(|(_, s)| s).collect(),
        None => random_games(),
    };
    let mut codes = Codes3x3::new(&Board::new(19).unwrap());
    let ways = [
        ("play_or_undo_only", Way::PlayOnly),
        ("play_or_undo_and_update", Way::Update),
        ("play_or_undo_and_recompute_all", Way::Rebuild),
    ];
    let steps = replay(&games, Way::PlayOnly, &mut codes).0;
    let mut g = c.benchmark_group("codes3x3_all_games_forth_and_back_cpu_time");
    g.sample_size(10);
    for (label, way) in ways {
        g.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let t0 = thread_cpu();
                for _ in 0..iters {
                    black_box(replay(&games, way, &mut codes));
                }
                thread_cpu() - t0
            })
        });
    }
    g.finish();

    // Lookups on one mid-game position: every point, both perspectives.
    let bytes = lut_image();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let class = rom.class_by_name("shape").unwrap();
    let info = rom.class(class).unwrap();
    let table = rom.class_lut(&info).expect("the class has a lookup table");
    let mut b = Board::new(19).unwrap();
    for s in games[0].iter().take(150) {
        s.apply(&mut b);
    }
    codes.rebuild(&b);
    let lookup_kept = |codes: &Codes3x3| {
        let mut n = 0;
        for persp in [Colour::Black, Colour::White] {
            for y in 0..19 {
                for x in 0..19 {
                    let (fs, code) = codes.code(persp, x, y);
                    if info.focus() >> fs & 1 != 0 {
                        n += lut::candidates(&table, fs, code);
                    }
                }
            }
        }
        n
    };
    let lookup_cut = |b: &Board| {
        let mut n = 0;
        for persp in [Colour::Black, Colour::White] {
            for y in 0..19 {
                for x in 0..19 {
                    let (fs, code) = lut::code(b, persp, x, y);
                    if info.focus() >> fs & 1 != 0 {
                        n += lut::candidates(&table, fs, code);
                    }
                }
            }
        }
        n
    };
    assert_eq!(lookup_kept(&codes), lookup_cut(&b));
    let mut slots = vec![Match::EMPTY; 256];
    let mut scratch = Scratch::new();
    let mut match_all = |kept: bool, codes: &Codes3x3, b: &Board| {
        let mut n = 0;
        for perspective in [Colour::Black, Colour::White] {
            let q = Query {
                class,
                perspective,
                orientations: Orientations::All,
            };
            for y in 0..19 {
                for x in 0..19 {
                    let mut out = MatchBuf::new(&mut slots);
                    n += if kept {
                        codes.match_at(&rom, b, &NoHost, &q, x, y, &mut scratch, &mut out)
                    } else {
                        rom.match_at(b, &NoHost, &q, x, y, &mut scratch, &mut out)
                    };
                }
            }
        }
        n
    };
    assert_eq!(match_all(true, &codes, &b), match_all(false, &codes, &b));
    let points = 2.0 * 361.0;
    let mut t: Vec<Vec<f64>> = vec![Vec::new(); 7];
    for _ in 0..7 {
        for (k, &(_, way)) in ways.iter().enumerate() {
            let t0 = thread_cpu();
            black_box(replay(&games, way, &mut codes));
            t[k].push((thread_cpu() - t0).as_secs_f64() * 1e9 / steps as f64);
        }
        codes.rebuild(&b);
        let iters = 200;
        let t0 = thread_cpu();
        for _ in 0..iters {
            black_box(lookup_kept(&codes));
        }
        t[3].push((thread_cpu() - t0).as_secs_f64() * 1e9 / (iters as f64 * points));
        let t0 = thread_cpu();
        for _ in 0..iters {
            black_box(lookup_cut(&b));
        }
        t[4].push((thread_cpu() - t0).as_secs_f64() * 1e9 / (iters as f64 * points));
        for (k, kept) in [(5, true), (6, false)] {
            let t0 = thread_cpu();
            for _ in 0..20 {
                black_box(match_all(kept, &codes, &b));
            }
            t[k].push((thread_cpu() - t0).as_secs_f64() * 1e9 / (20.0 * points));
        }
    }
    let m: Vec<f64> = t.iter_mut().map(|v| median(v)).collect();
    eprintln!(
        "codes3x3, thread CPU, median of 7 rounds, {steps} plays and undos: play/undo alone {:.0} ns, \
         + update {:.0} ns (update alone {:.0} ns), + recompute all {:.0} ns (recompute alone {:.0} ns, \
         {:.1}x the update)",
        m[0],
        m[1],
        m[1] - m[0],
        m[2],
        m[2] - m[0],
        (m[2] - m[0]) / (m[1] - m[0])
    );
    eprintln!(
        "lookup per point (focus state + code + candidate set): kept code {:.1} ns, window cut {:.1} ns \
         ({:.1}x); whole match_at: kept code {:.1} ns, window cut {:.1} ns ({:.2}x)",
        m[3],
        m[4],
        m[4] / m[3],
        m[5],
        m[6],
        m[6] / m[5]
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
