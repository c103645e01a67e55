//! GNU Go workload benchmarks (issue 5):
//! - whole-board scan of patterns.db + patterns2.db (1,222 patterns, geometric import) over the
//!   32 reference positions, both colours: `Rom::scan` (board-parallel), `Rom::scan_points`
//!   (the per-point kernel) and the reference matcher, in wall time and in thread CPU time
//!   (report: time per board = one iteration / 32; GNU Go's own matcher: 2.2-2.4 ms per board),
//!   and `ScanPlan::scan` with candidate sets over the foci (the default) against the same
//!   plans with sets over the whole board only (`board_parallel_plan_board_sets`) and with
//!   every survivor through the class program (`board_parallel_plan_class_program`);
//!   `ScanSet::scan` (`board_parallel_set`: every class and both colours of a position in one
//!   call) and its compact-hit form `ScanSet::scan_hits` (`board_parallel_set_hits`), the latter
//!   also with the shared walk over oriented entries instead of a trie over patterns
//!   (`board_parallel_set_hits_oriented`: the baseline of the same run), and `ScanSet::scan`
//!   of the same patterns imported as one database, as GNU Go builds pat_db (three classes:
//!   `board_parallel_set_one_database`, after the rest of its group);
//! - import + compile of patterns.db (with its constraints and externs; GNU Go's mkpat + gcc: 2.8 s).
//!
//! Reads `../shared/data/gnugo/` (GPL, never copied); prints a note and benches nothing if absent.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use lens_compiler::import::gnugo::{
    AnchorColour, Options as ImportOptions, class_name, class_names, import_database, import_str,
    stem_ident, wide_class_name,
};
use lens_vm::board::{Board, Colour};
use lens_vm::matching::{Hit, HitBuf, ScanPlan, ScanSet};
use lens_vm::{ClassId, Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};

use lens_test_support::thread_cpu;
use thread_cpu::thread_cpu;

#[derive(Clone, Copy, PartialEq)]
enum Path {
    BoardParallel,
    Plan,
    /// `ScanPlan::scan` with candidate sets over the whole board only (the plan scan before
    /// sets over the foci: the baseline of the same run).
    PlanBoardSets,
    /// `ScanSet::scan`: the five classes and both colours of a position in one call (the
    /// anchor classes in one walk over all stones).
    Set,
    /// `ScanSet::scan_hits`: the same call writing compact hits (8 bytes per match).
    SetHits,
    /// `ScanSet::scan_hits` walking oriented entries (the walk before the trie over patterns:
    /// the baseline of the same run).
    SetHitsOriented,
    /// `ScanPlan::scan_hits`: compact hits, not resolved.
    PlanHits,
    /// `ScanPlan::scan` with every survivor through the class program (the plain classes'
    /// shortcut off: the baseline of the same run).
    PlanClassProgram,
    Points,
    Reference,
}

fn data_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/gnugo");
    dir.join("oracle/boards.txt").is_file().then_some(dir)
}

/// The 32 positions from the oracle's `boards.txt` (X black, O white, rows 19 down to 1).
fn boards(dir: &std::path::Path) -> Vec<Board> {
    let text = std::fs::read_to_string(dir.join("oracle/boards.txt")).unwrap();
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut b = Board::new(19).unwrap();
        for (y, row) in line.split('\t').skip(2).enumerate() {
            for (x, c) in row.chars().enumerate() {
                let colour = match c {
                    'X' => Colour::Black,
                    'O' => Colour::White,
                    _ => continue,
                };
                b.place(colour, x as i32, y as i32).unwrap();
            }
        }
        out.push(b);
    }
    assert_eq!(out.len(), 32);
    out
}

fn geometric_source(dir: &std::path::Path, file: &str) -> String {
    let text = std::fs::read_to_string(dir.join("patterns").join(file)).unwrap();
    import_str(
        file,
        &text,
        &ImportOptions {
            geometric_only: true,
            ..Default::default()
        },
    )
    .source
}

fn compile(name: &str, source: &str) -> Vec<u8> {
    let (_, r) = lens_compiler::compile_str(name, source, &Default::default());
    match r {
        Ok(c) => c.rom,
        Err(d) => panic!("{name}: {} errors, first: {:?}", d.len(), d.first()),
    }
}

fn bench(c: &mut Criterion) {
    let Some(dir) = data_dir() else {
        eprintln!("skipped: ../shared/data absent");
        return;
    };
    let boards = boards(&dir);
    // patterns.db + patterns2.db in one ROM: two anchor classes per file plus patterns_wide.
    let files = ["patterns.db", "patterns2.db"];
    let source: String = files
        .iter()
        .map(|f| geometric_source(&dir, f) + "\n")
        .collect();
    let bytes = compile("pat_db.lens", &source);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let classes: Vec<ClassId> = files
        .iter()
        .flat_map(|f| {
            let s = stem_ident(f);
            [
                class_name(&s, AnchorColour::O),
                class_name(&s, AnchorColour::X),
                wide_class_name(&s),
            ]
        })
        .filter_map(|n| rom.class_by_name(&n))
        .collect();
    assert_eq!(
        classes.len(),
        5,
        "patterns_anchor_o/x, patterns_wide, patterns2_anchor_o/x"
    );
    let plans: Vec<ScanPlan> = classes
        .iter()
        .map(|&c| ScanPlan::new(&rom, c).unwrap())
        .collect();
    let board_sets: Vec<ScanPlan> = plans
        .iter()
        .map(|p| p.clone().without_foci_sets())
        .collect();
    let class_program: Vec<ScanPlan> = plans.iter().map(|p| p.clone().without_plain()).collect();
    let set = ScanSet::new(&rom, &classes).unwrap();
    assert!(set.by_pattern(), "the set walks a trie over patterns");
    assert!(
        set.sorts_by_runs(),
        "the walk over patterns writes runs in entry order"
    );
    let set_oriented = set.clone().without_pattern_walk();
    let mut set_slots = vec![Match::EMPTY; 8192 * 2 * classes.len()];
    let mut set_hit_slots = vec![Hit::EMPTY; 8192 * 2 * classes.len()];
    let mut slots = vec![Match::EMPTY; 8192];
    let mut hit_slots = vec![Hit::EMPTY; 8192];
    let mut scratch = Scratch::new();

    let mut scan_all = |path: Path| -> usize {
        let mut n = 0;
        for board in &boards {
            if path == Path::Set {
                let mut outs: Vec<MatchBuf> =
                    set_slots.chunks_mut(8192).map(MatchBuf::new).collect();
                n += set.scan(
                    &rom,
                    board,
                    &NoHost,
                    Orientations::All,
                    &mut scratch,
                    &mut outs,
                );
                continue;
            }
            if path == Path::SetHits || path == Path::SetHitsOriented {
                let mut outs: Vec<HitBuf> =
                    set_hit_slots.chunks_mut(8192).map(HitBuf::new).collect();
                let set = if path == Path::SetHits {
                    &set
                } else {
                    &set_oriented
                };
                n += set.scan_hits(
                    &rom,
                    board,
                    &NoHost,
                    Orientations::All,
                    &mut scratch,
                    &mut outs,
                );
                continue;
            }
            for colour in [Colour::Black, Colour::White] {
                for (((&class, plan), board_plan), program_plan) in classes
                    .iter()
                    .zip(&plans)
                    .zip(&board_sets)
                    .zip(&class_program)
                {
                    let q = Query {
                        class,
                        perspective: colour,
                        orientations: Orientations::All,
                    };
                    let mut out = MatchBuf::new(&mut slots);
                    n += match path {
                        Path::BoardParallel => rom.scan(board, &NoHost, &q, &mut scratch, &mut out),
                        Path::Plan => plan.scan(&rom, board, &NoHost, &q, &mut scratch, &mut out),
                        Path::PlanBoardSets => {
                            board_plan.scan(&rom, board, &NoHost, &q, &mut scratch, &mut out)
                        }
                        Path::PlanClassProgram => {
                            program_plan.scan(&rom, board, &NoHost, &q, &mut scratch, &mut out)
                        }
                        Path::PlanHits => {
                            let mut hits = HitBuf::new(&mut hit_slots);
                            plan.scan_hits(&rom, board, &NoHost, &q, &mut scratch, &mut hits)
                        }
                        Path::Points => rom.scan_points(board, &NoHost, &q, &mut scratch, &mut out),
                        Path::Set | Path::SetHits | Path::SetHitsOriented => {
                            unreachable!("scanned per board above")
                        }
                        Path::Reference => lens_vm::reference::scan(
                            &rom,
                            board,
                            &NoHost,
                            &q,
                            &mut scratch,
                            &mut out,
                        ),
                    };
                }
            }
        }
        n
    };
    // `LENS_GNUGO_PROFILE=plan|plan_hits|set|set_hits|set_hits_oriented|board_sets|class_program|rom:ROUNDS`: only that path, ROUNDS times,
    // then exit (for `valgrind --tool=callgrind`: instructions per board without criterion).
    if let Ok(spec) = std::env::var("LENS_GNUGO_PROFILE") {
        let (name, rounds) = spec.split_once(':').unwrap_or((&spec, "10"));
        let path = match name {
            "plan" => Path::Plan,
            "plan_hits" => Path::PlanHits,
            "set" => Path::Set,
            "set_hits" => Path::SetHits,
            "set_hits_oriented" => Path::SetHitsOriented,
            "board_sets" => Path::PlanBoardSets,
            "class_program" => Path::PlanClassProgram,
            "rom" => Path::BoardParallel,
            _ => panic!(
                "LENS_GNUGO_PROFILE: plan, plan_hits, set, set_hits, set_hits_oriented, board_sets, class_program or rom"
            ),
        };
        let (mut n, rounds) = (0, rounds.parse::<usize>().unwrap());
        let t0 = thread_cpu();
        for _ in 0..rounds {
            n += black_box(scan_all(path));
        }
        let per_board = (thread_cpu() - t0).as_secs_f64() * 1e6 / (rounds.max(1) * 32) as f64;
        eprintln!("profile {name}: {n} matches, {per_board:.1} us per board (thread CPU)");
        std::process::exit(0);
    }
    let per_board = scan_all(Path::BoardParallel);
    assert_eq!(per_board, scan_all(Path::Points));
    assert_eq!(per_board, scan_all(Path::Plan));
    assert_eq!(per_board, scan_all(Path::PlanBoardSets));
    assert_eq!(per_board, scan_all(Path::PlanClassProgram));
    assert_eq!(per_board, scan_all(Path::PlanHits));
    assert_eq!(per_board, scan_all(Path::Set));
    assert_eq!(per_board, scan_all(Path::SetHits));
    assert_eq!(per_board, scan_all(Path::SetHitsOriented));
    eprintln!(
        "scan set: {} of {} classes in one walk; children visited by recursion (the walks' \
         stack full): {}",
        set.walked(),
        classes.len(),
        {
            // One more pass with its own scratch (the closure above holds the bench's).
            let mut own = Box::new(Scratch::new());
            let mut slots = vec![Match::EMPTY; 8192 * 2 * classes.len()];
            for board in &boards {
                let mut outs: Vec<MatchBuf> = slots.chunks_mut(8192).map(MatchBuf::new).collect();
                set.scan(&rom, board, &NoHost, Orientations::All, &mut own, &mut outs);
            }
            lens_vm::internals::walk_fallbacks(&own)
        }
    );
    assert_eq!(per_board, scan_all(Path::Reference));
    eprintln!(
        "gnugo scan: {} matches over 32 boards x 2 colours x {} classes ({:.0} per board)",
        per_board,
        classes.len(),
        per_board as f64 / 32.0
    );
    for plan in &plans {
        let (shared, unshared) = plan.and_counts();
        eprintln!(
            "plan of class {} ({} items): {} trie nodes, {} plane ANDs stored ({} unshared), \
             sets over the foci: {}, plain: {}",
            plan.class().0,
            rom.class(plan.class()).unwrap().item_count(),
            plan.node_count(),
            shared,
            unshared,
            plan.over_foci(),
            plan.plain()
        );
    }
    let paths = [
        ("board_parallel_plan", Path::Plan),
        ("board_parallel_set", Path::Set),
        ("board_parallel_set_hits", Path::SetHits),
        ("board_parallel_set_hits_oriented", Path::SetHitsOriented),
        ("board_parallel_plan_board_sets", Path::PlanBoardSets),
        ("board_parallel_plan_class_program", Path::PlanClassProgram),
        ("board_parallel_plan_hits", Path::PlanHits),
        ("board_parallel", Path::BoardParallel),
        ("kernel_points", Path::Points),
        ("reference", Path::Reference),
    ];
    let mut g = c.benchmark_group("gnugo_scan_pat_db_32_boards_both_colours");
    g.sample_size(10);
    for (label, path) in paths {
        g.bench_function(label, |b| b.iter(|| black_box(scan_all(path))));
    }
    g.finish();
    // The same in thread CPU time: steadier than wall time while other builds share the cores.
    let mut g = c.benchmark_group("gnugo_scan_pat_db_32_boards_both_colours_cpu_time");
    g.sample_size(10);
    for (label, path) in paths {
        g.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let t0 = thread_cpu();
                for _ in 0..iters {
                    black_box(scan_all(path));
                }
                thread_cpu() - t0
            })
        });
    }
    g.finish();

    // The same patterns imported as one database, as GNU Go's mkpat builds pat_db (three
    // classes: `pat_anchor_o`, `pat_anchor_x`, `pat_wide`): the same matches, one `ScanSet`.
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(dir.join("patterns").join(f)).unwrap())
        .collect();
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .copied()
        .zip(texts.iter().map(String::as_str))
        .collect();
    let geometric = ImportOptions {
        geometric_only: true,
        ..Default::default()
    };
    let one_bytes = compile(
        "pat.lens",
        &import_database("pat", &pairs, &geometric).source,
    );
    let one_rom = Rom::from_bytes(&one_bytes).unwrap();
    let one_classes: Vec<ClassId> = class_names("pat")
        .iter()
        .filter_map(|n| one_rom.class_by_name(n))
        .collect();
    assert_eq!(one_classes.len(), 3);
    let one_set = ScanSet::new(&one_rom, &one_classes).unwrap();
    let mut one_slots = vec![Match::EMPTY; 8192 * 2 * one_classes.len()];
    let mut one_scratch = Scratch::new();
    let mut scan_one = || -> usize {
        let mut n = 0;
        for board in &boards {
            let mut outs: Vec<MatchBuf> = one_slots.chunks_mut(8192).map(MatchBuf::new).collect();
            n += one_set.scan(
                &one_rom,
                board,
                &NoHost,
                Orientations::All,
                &mut one_scratch,
                &mut outs,
            );
        }
        n
    };
    assert_eq!(scan_one(), per_board, "one database, other matches");
    let mut g = c.benchmark_group("gnugo_scan_pat_db_32_boards_both_colours_cpu_time");
    g.sample_size(10);
    g.bench_function("board_parallel_set_one_database", |b| {
        b.iter_custom(|iters| {
            let t0 = thread_cpu();
            for _ in 0..iters {
                black_box(scan_one());
            }
            thread_cpu() - t0
        })
    });
    g.finish();

    let text = std::fs::read_to_string(dir.join("patterns/patterns.db")).unwrap();
    let mut g = c.benchmark_group("gnugo_import_compile");
    g.sample_size(10);
    g.bench_function("patterns.db", |b| {
        b.iter(|| {
            let imported = import_str("patterns.db", &text, &ImportOptions::default());
            black_box(compile("patterns.lens", &imported.source).len())
        })
    });
    g.bench_function("patterns.db_import_only", |b| {
        b.iter(|| {
            black_box(
                import_str("patterns.db", &text, &ImportOptions::default())
                    .source
                    .len(),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
