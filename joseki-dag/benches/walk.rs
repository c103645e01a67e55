//! A 20-move joseki line of the dictionary (`LENS_JOSEKI_BOOK=FILES`, else the union of the
//! GNU Go and Pachi joseki files, see `support/book.rs`), played on the board in each of the 8
//! orientations x 2 colours:
//! * `lookup`: the engine lookup, `Walker::lookup(19, moves, None, ..)`, which itself tries
//!   all 4 corners x 2 orientations and the rectangles; timed per call (16 calls per iteration),
//!   with the transition table (`Walker::new`, the fast mode), with the jump table
//!   (`Walker::small`, the small mode) and with neither (`Walker::in_place`, scans);
//! * `new`: building each walker (`Walker::new`, `Walker::small`) against validating the blob
//!   (`Walker::in_place`, a full decode) in the same run; the heap each holds beside the blob;
//! * `cursor`: what an engine pays per move: the line played move by move on one
//!   `BookCursor` per variant, `play` then `lookup` after each move; CPU time per move;
//! * `follow_16_frames`: the old path and figure, `Walker::follow` once per variant in its
//!   known frame (16 calls), the same-run baseline.
//!
//! Each over the Compact and the Fotland blob. Prints bytes parsed and table probes per lookup,
//! and CPU time (minimum and median over batches, and their ratios to the baseline's).

use criterion::{Criterion, criterion_group, criterion_main};
use lens_joseki::codec::encode_compact_with_skip;
use lens_joseki::stats::first_paths;
use lens_joseki::{
    BoardMove, BookState, Colour, Continuation, Encoding, Frame, Point, Rel, Tree, Walker, encode,
};
use std::hint::black_box;

#[path = "support/book.rs"]
mod book;

/// The first line of at least 21 plain alternating moves, cut to 20 (so it has continuations).
fn line_of_20(t: &Tree) -> Vec<(Rel, Point)> {
    first_paths(t)
        .into_iter()
        .find(|p| {
            p.len() >= 21
                && p.iter().all(|m| m.1 != Point::Pass)
                && p.windows(2).all(|w| w[0].0 != w[1].0)
                && p[0].0 == Rel::Same
        })
        .map(|mut p| {
            p.truncate(20);
            p
        })
        .expect("a 20-move line")
}

use lens_test_support::thread_cpu;
use thread_cpu::thread_cpu;

/// This thread's CPU time in nanoseconds.
fn thread_cpu_ns() -> u64 {
    thread_cpu().as_nanos() as u64
}

/// CPU nanoseconds per call of `f` (which makes `calls` calls), over `batches` batches of
/// `iters` iterations: (minimum, median) over the batches. The minimum is the batch least
/// disturbed by other processes sharing the core.
fn cpu_per_call(
    batches: usize,
    iters: usize,
    calls: usize,
    mut f: impl FnMut() -> usize,
) -> (f64, f64) {
    let mut per: Vec<f64> = (0..batches)
        .map(|_| {
            let t0 = thread_cpu_ns();
            let mut n = 0;
            for _ in 0..iters {
                n += f();
            }
            black_box(n);
            (thread_cpu_ns() - t0) as f64 / (iters * calls) as f64
        })
        .collect();
    per.sort_by(f64::total_cmp);
    (per[0], per[per.len() / 2])
}

/// What an engine pays per move: each variant's line played move by move on one cursor,
/// `play` then `lookup` after each move. A named function, so that a profiler can count it
/// alone (`LENS_WALK_PROFILE`).
#[inline(never)]
fn cursor_moves(
    w: &Walker<'_>,
    variants: &[(Frame, Colour, Vec<BoardMove>)],
    out: &mut [Continuation],
) -> usize {
    let mut n = 0;
    for (_, _, m) in variants {
        let mut c = w.cursor(19, None);
        for &mv in m {
            c.play(black_box(mv));
            n += c.lookup(mv.colour.opponent(), out).continuations;
        }
    }
    n
}

fn bench(c: &mut Criterion) {
    let (name, tree) = book::dictionary();
    eprintln!("dictionary: {name}, {} moves", tree.tree_moves());
    let line = line_of_20(&tree);
    // 8 orientations x 2 colours, as board moves.
    let variants: Vec<(Frame, Colour, Vec<BoardMove>)> = (0..8u8)
        .flat_map(|o| [Colour::Black, Colour::White].map(move |first| (o, first)))
        .map(|(o, first)| {
            let f = Frame::orientation(19, o);
            let moves = line
                .iter()
                .map(|&(rel, p)| {
                    let Point::At { x, y } = p else {
                        unreachable!()
                    };
                    BoardMove {
                        colour: if rel == Rel::Same {
                            first
                        } else {
                            first.opponent()
                        },
                        at: f.to_board(x, y),
                    }
                })
                .collect();
            (f, first, moves)
        })
        .collect();
    let calls = variants.len();
    let mut group = c.benchmark_group("walk_20_moves");
    group
        .sample_size(30)
        .measurement_time(std::time::Duration::from_secs(2));
    let mut cpu: Vec<(String, (f64, f64))> = Vec::new();
    // The default Compact blob (version 4 on a book this size), version 3 (bytes, the default
    // before version 4) and Fotland's, side by side.
    let blobs = [
        ("compact", encode(&tree, Encoding::Compact)),
        ("compact-v3", encode_compact_with_skip(&tree, usize::MAX)),
        ("fotland", encode(&tree, Encoding::Fotland)),
    ];
    for (label, blob) in &blobs {
        let (label, blob) = (*label, blob.as_slice());
        let w = Walker::new(blob).expect("valid blob");
        let small = Walker::small(blob).expect("valid blob");
        let scan = Walker::in_place(blob).expect("valid blob");
        eprintln!(
            "{}: heap beside the {}-byte blob: fast {} bytes ({:.2}x), small {} bytes ({:.2}x)",
            label,
            blob.len(),
            w.heap_bytes(),
            w.heap_bytes() as f64 / blob.len() as f64,
            small.heap_bytes(),
            small.heap_bytes() as f64 / blob.len() as f64
        );
        let mut out = [Continuation::EMPTY; 32];
        eprintln!(
            "{}: {} bytes, {} moves, line {:?}",
            label,
            blob.len(),
            tree.tree_moves(),
            line.iter().map(|m| m.1).collect::<Vec<_>>()
        );
        eprintln!("{}: {w:?}", label);
        eprintln!("{}: small mode {small:?}", label);
        // The engine lookup finds the line in every variant, with and without the table, to
        // the same answer; bytes parsed and probes per call.
        let (mut parsed, mut probes, mut scanned, mut hopped) = (0, 0, 0, 0);
        let mut out2 = [Continuation::EMPTY; 32];
        for (f, first, m) in &variants {
            let r = w.lookup(19, m, None, first.opponent(), &mut out);
            let corner = r.corners[f.corner as usize];
            assert_eq!(corner.state, BookState::InBook, "{} {f:?}", label);
            assert_eq!(corner.followed, 20);
            let r2 = scan.lookup(19, m, None, first.opponent(), &mut out2);
            assert_eq!(r.corners, r2.corners);
            assert_eq!(out[..r.continuations], out2[..r2.continuations]);
            let r3 = small.lookup(19, m, None, first.opponent(), &mut out2);
            assert_eq!(r.corners, r3.corners);
            assert_eq!(out[..r.continuations], out2[..r3.continuations]);
            parsed += r.parsed;
            probes += r.probes;
            scanned += r2.parsed;
            hopped += r3.parsed;
        }
        let old: usize = variants
            .iter()
            .map(|(f, col, m)| {
                let r = w.follow(f, m, *col, &mut out);
                assert!(r.in_book);
                r.parsed
            })
            .sum();
        let per = |v: usize| v as f64 / calls as f64;
        eprintln!(
            "{}: per engine lookup (8 orientations): table {:.1} probes + {:.1} bytes parsed (the listing); small {:.1} bytes parsed; in place {:.1} bytes parsed; old path {:.1} bytes per known frame, {} per 16 frames",
            label,
            per(probes),
            per(parsed),
            per(hopped),
            per(scanned),
            per(old),
            old
        );
        let lookup_all = |w: &Walker<'_>, out: &mut [Continuation]| {
            let mut n = 0;
            for (_, first, m) in &variants {
                n += w
                    .lookup(19, black_box(m), None, first.opponent(), out)
                    .continuations;
            }
            n
        };
        let follow_all = |out: &mut [Continuation]| {
            let mut n = 0;
            for (f, col, m) in &variants {
                n += w.follow(f, black_box(m), *col, out).continuations;
            }
            n
        };
        // What an engine pays per move: one move played on its cursor (`BookCursor::play`),
        // then the book's answer (`BookCursor::lookup`), over the whole line; per move.
        let per_move_all =
            |w: &Walker<'_>, out: &mut [Continuation]| cursor_moves(w, &variants, out);
        let moves_per_call = line.len() * calls;
        {
            let (mut probes, mut play_probes) = (0, 0);
            for (_, _, m) in &variants {
                let mut c = w.cursor(19, None);
                for &mv in m {
                    let before = c.probes();
                    c.play(mv);
                    play_probes += c.probes() - before;
                    probes += c.lookup(mv.colour.opponent(), &mut out).probes - before;
                }
            }
            eprintln!(
                "{}: per move on a cursor (play + lookup): {:.2} probes, of which play {:.2}",
                label,
                probes as f64 / moves_per_call as f64,
                play_probes as f64 / moves_per_call as f64
            );
        }
        // `LENS_WALK_PROFILE=fast|small`: only the cursor's moves in that mode, 10 times, for a
        // profiler (`valgrind --tool=callgrind --toggle-collect='*cursor_moves*'`); no timing.
        if let Ok(mode) = std::env::var("LENS_WALK_PROFILE") {
            let pw = if mode == "small" { &small } else { &w };
            let k: usize = (0..10).map(|_| per_move_all(pw, &mut out)).sum();
            eprintln!("{label}: profiled {mode}, 10 x {moves_per_call} moves ({k})");
            continue;
        }
        // CPU time per call (the machine is shared): 200 batches of 100 iterations.
        let t = cpu_per_call(200, 20, moves_per_call, || per_move_all(&w, &mut out));
        cpu.push((format!("{} cursor fast, per move", label), t));
        let t = cpu_per_call(100, 5, moves_per_call, || per_move_all(&small, &mut out));
        cpu.push((format!("{} cursor small, per move", label), t));
        let t = cpu_per_call(200, 100, calls, || lookup_all(&w, &mut out));
        cpu.push((format!("{} lookup fast, per call", label), t));
        let t = cpu_per_call(200, 20, calls, || lookup_all(&small, &mut out));
        cpu.push((format!("{} lookup small, per call", label), t));
        // In place is slow (no skip fields: a dying frame scans whole subtrees): timed on
        // small books only.
        if blob.len() < 16 * 1024 {
            let t = cpu_per_call(20, 2, calls, || lookup_all(&scan, &mut out));
            cpu.push((format!("{} lookup in place, per call", label), t));
        }
        // Building the walkers, against validating the blob (what `in_place` does).
        let t = cpu_per_call(10, 2, 1, || Walker::in_place(blob).unwrap().heap_bytes());
        cpu.push((format!("{} validate (in_place)", label), t));
        let t = cpu_per_call(10, 2, 1, || Walker::small(blob).unwrap().heap_bytes());
        cpu.push((format!("{} Walker::small", label), t));
        let t = cpu_per_call(10, 2, 1, || Walker::new(blob).unwrap().heap_bytes());
        cpu.push((format!("{} Walker::new", label), t));
        let t = cpu_per_call(200, 100, 1, || follow_all(&mut out));
        cpu.push((format!("{} follow, 16 known frames", label), t));
        group.bench_function(format!("{}/lookup_x16", label), |b| {
            b.iter(|| black_box(lookup_all(&w, &mut out)))
        });
        group.bench_function(format!("{}/lookup_small_x16", label), |b| {
            b.iter(|| black_box(lookup_all(&small, &mut out)))
        });
        group.bench_function(format!("{}/walker_new", label), |b| {
            b.iter(|| black_box(Walker::new(black_box(blob)).unwrap().heap_bytes()))
        });
        group.bench_function(format!("{}/walker_small", label), |b| {
            b.iter(|| black_box(Walker::small(black_box(blob)).unwrap().heap_bytes()))
        });
        group.bench_function(format!("{}/follow_16_frames", label), |b| {
            b.iter(|| black_box(follow_all(&mut out)))
        });
    }
    group.finish();
    if let Some((_, base)) = cpu
        .iter()
        .find(|(n, _)| n == "compact-v3 follow, 16 known frames")
    {
        eprintln!(
            "CPU time, ns (minimum and median over batches; ratios of minima and of medians to the old path's 16 frames on Compact version 3):"
        );
        for (name, (min, median)) in &cpu {
            eprintln!(
                "  {name:36} min {min:9.1}  median {median:9.1}  {:6.3}x {:6.3}x",
                min / base.0,
                median / base.1
            );
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
