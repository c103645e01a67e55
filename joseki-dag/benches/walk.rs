//! Follow a 20-move joseki line in all 8 orientations x 2 colours (16 lookups per iteration),
//! over the Fotland blob (the baseline: no skip fields) and the Compact blob, from the union
//! of the GNU Go and Pachi joseki files (a synthetic dictionary when ../shared/data is absent).
//! Prints the bytes parsed per lookup for each encoding.

use criterion::{Criterion, criterion_group, criterion_main};
use lens_joseki::stats::first_paths;
use lens_joseki::{
    BoardMove, Colour, Continuation, Conventions, Encoding, Frame, Point, Rel, Tree, Walker, encode,
};
use std::hint::black_box;

fn dictionary() -> Tree {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    let mut t = Tree::new();
    let mut found = false;
    for dir in ["gnugo/joseki", "pachi/joseki"] {
        let Ok(rd) = std::fs::read_dir(data.join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        {
            let text = std::fs::read_to_string(f).expect("readable");
            lens_joseki::import_sgf_into(&mut t, &text, Conventions::Auto)
                .expect("data file imports");
            found = true;
        }
    }
    if !found {
        eprintln!("note: ../shared/data absent, benchmarking a synthetic dictionary");
        let mut src = String::from("( ");
        for k in 0..12 {
            src.push_str(&format!(
                "{}{} c6 d6 ( c7 | f3 ) | ",
                (b'c' + k % 5) as char,
                3 + k / 5
            ));
        }
        src.push_str("d4 c6 d6 c7 e7 c8 d8 c9 f3 d3 e3 e2 f2 d2 g3 f4 g4 f5 g5 f6 g6 h7 )");
        t = lens_joseki::parse_text(&src).expect("synthetic text");
    }
    t.canonicalize();
    t
}

/// The first line of at least 20 plain alternating moves, cut to 20.
fn line_of_20(t: &Tree) -> Vec<(Rel, Point)> {
    first_paths(t)
        .into_iter()
        .find(|p| {
            p.len() >= 20
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

/// This thread's CPU time in seconds (user + system, from /proc; 10 ms ticks). The machine may
/// be shared, so wall-clock times can include waiting; CPU time does not.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn bench(c: &mut Criterion) {
    let tree = dictionary();
    let line = line_of_20(&tree);
    // 8 orientations x 2 colours, as board moves.
    let frames: Vec<(Frame, Colour, Vec<BoardMove>)> = (0..8u8)
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
    let mut group = c.benchmark_group("walk_20_moves_16_frames");
    group
        .sample_size(30)
        .measurement_time(std::time::Duration::from_secs(2));
    for enc in Encoding::ALL {
        let blob = encode(&tree, enc);
        let w = Walker::new(&blob).expect("valid blob");
        let mut out = [Continuation::EMPTY; 32];
        let parsed: usize = frames
            .iter()
            .map(|(f, col, m)| w.follow(f, m, *col, &mut out).parsed)
            .sum();
        assert!(
            frames
                .iter()
                .all(|(f, col, m)| w.follow(f, m, *col, &mut out).in_book)
        );
        eprintln!(
            "{}: {} bytes, {} moves; bytes parsed per 20-move lookup: {:.1}",
            enc.name(),
            blob.len(),
            tree.tree_moves(),
            parsed as f64 / frames.len() as f64
        );
        // CPU time of a fixed number of iterations, for a loaded machine.
        if let Some(t0) = thread_cpu_seconds() {
            let iters = 20_000;
            let mut n = 0;
            for _ in 0..iters {
                for (f, col, m) in &frames {
                    n += w.follow(f, black_box(m), *col, &mut out).continuations;
                }
            }
            black_box(n);
            if let Some(t1) = thread_cpu_seconds() {
                eprintln!(
                    "{}: CPU time per 16 lookups {:.2} us ({:.0} ns per lookup)",
                    enc.name(),
                    (t1 - t0) * 1e6 / iters as f64,
                    (t1 - t0) * 1e9 / (iters * frames.len()) as f64
                );
            }
        }
        group.bench_function(enc.name(), |b| {
            b.iter(|| {
                let mut n = 0;
                for (f, col, m) in &frames {
                    n += w.follow(f, black_box(m), *col, &mut out).continuations;
                }
                black_box(n)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
