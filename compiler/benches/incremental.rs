//! Incremental matching per move (issue 15): GNU Go's `pat` database, patterns.db +
//! patterns2.db (1,222 patterns, geometric import as one database, as GNU Go's mkpat builds
//! `pat_db`: three classes), kept up to date for both colours while every
//! game record of `../shared/data/gnugo/games` is replayed and then undone move by move: as
//! one `lens_vm::incremental::IncrementalGroup` of the six sets (what an engine calls; one
//! board read per step) and as six `IncrementalScan`s updated one by one, against full
//! rescans of the same six (class, colour) sets after every play and undo (`ScanSet`, the
//! three classes and both colours in one call, what an engine would call; and one `ScanPlan`
//! per set), and against the replay alone, in the same run. Thread CPU time; the summary
//! prints microseconds per move (a play or an undo; one iteration = every game forth and
//! back), the group's plays and undos apart, and a search's tries (each move played, taken
//! back and played again), with the group's journal and without, the clock's own cost in
//! those per-update figures, the group in entry mode (`with_entry_results`) against match
//! mode, the side to move's three sets alone (a group per colour), and the plays of the
//! same patterns imported file by file (five classes, ten sets) against the one database's.
//! Reads the GPL data at run time (never copied); prints a note if absent.
//! Run: `cargo bench -p lens-compiler --bench incremental`.
//! `LENS_BENCH_PROFILE_INCREMENTAL=1` (or `=sets`: the sets alone; `=nojournal`: the group
//! without its journal; `=plays`: plays through `play_update`, undos through `undo_update`,
//! for `--toggle-collect='*play_update*'`; `=entryplays`: the same in entry mode): the group
//! alone, five rounds, no criterion (for
//! callgrind: `--toggle-collect='*Incremental*update*'`, or perf). `plays` and `entryplays`
//! print each round's thread CPU per play (`LENS_BENCH_PROFILE_ROUNDS` rounds, 5 by
//! default): the least over many alternating processes compares two builds on a noisy machine.

#[path = "../../vm/tests/incremental_support/mod.rs"]
mod incremental_support;
#[path = "support/pat_db.rs"]
mod pat_db;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use incremental_support::{Step, games, gnugo_dir};
use lens_test_support::thread_cpu;
use lens_vm::board::{Board, Colour};
use lens_vm::incremental::{IncrementalGroup, IncrementalScan};
use lens_vm::matching::simd::{self, Simd, Vector};
use lens_vm::matching::{ScanPlan, ScanSet};
use lens_vm::{ClassId, Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};
use pat_db::pat_db;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Way {
    /// Play the moves, match nothing.
    ReplayOnly,
    /// Play, then update the incremental sets as one group.
    Incremental,
    /// Play, then update the incremental sets one by one.
    SetsAlone,
    /// Play, then rescan the sets through their plans.
    FullPlan,
    /// Play, then rescan the classes for both colours in one `ScanSet` call.
    FullSet,
}

struct World<'r> {
    rom: Rom<'r>,
    queries: Vec<Query>,
    plans: Vec<ScanPlan>,
    sets: Vec<IncrementalScan>,
    group: IncrementalGroup,
    /// The same group without a journal (every undo matched), for the plays and undos line.
    unjournalled: IncrementalGroup,
    /// The same group in entry mode (`with_entry_results`), with its journal.
    entries: IncrementalGroup,
    set: ScanSet,
    set_slots: Vec<Match>,
    scratch: Scratch,
    slots: Vec<Match>,
}

impl World<'_> {
    /// Every move of every game one way, then every undo back to the empty board; returns
    /// (plays + undos, matches seen) so nothing is optimised away.
    fn replay(&mut self, games: &[(String, Vec<Step>)], way: Way) -> (usize, usize) {
        let (mut moves, mut seen) = (0, 0);
        for (_, steps) in games {
            let mut b = Board::new(19).unwrap();
            let after = |w: &mut World<'_>, b: &Board| match way {
                Way::ReplayOnly => b.history_len(),
                Way::FullSet => {
                    let mut outs: Vec<MatchBuf> =
                        w.set_slots.chunks_mut(8192).map(MatchBuf::new).collect();
                    w.set.scan(
                        &w.rom,
                        b,
                        &NoHost,
                        Orientations::All,
                        &mut w.scratch,
                        &mut outs,
                    )
                }
                Way::Incremental => {
                    w.group.update(&w.rom, b, &NoHost, &mut w.scratch);
                    w.group.sets().iter().map(|s| s.appeared().len()).sum()
                }
                Way::SetsAlone => {
                    let mut n = 0;
                    for set in &mut w.sets {
                        set.update(&w.rom, b, &NoHost, &mut w.scratch);
                        n += set.appeared().len();
                    }
                    n
                }
                Way::FullPlan => {
                    let mut n = 0;
                    for (q, plan) in w.queries.iter().zip(&w.plans) {
                        let mut out = MatchBuf::new(&mut w.slots);
                        n += plan.scan(&w.rom, b, &NoHost, q, &mut w.scratch, &mut out);
                    }
                    n
                }
            };
            for s in steps {
                s.apply(&mut b);
                moves += 1;
                seen += after(self, &b);
            }
            while b.undo() {
                moves += 1;
                seen += after(self, &b);
            }
        }
        (moves, seen)
    }
}

/// A play's update (its own symbol for the profilers).
#[inline(never)]
fn play_update(g: &mut IncrementalGroup, rom: &Rom<'_>, b: &Board, scratch: &mut Scratch) {
    black_box(g.update(rom, b, &NoHost, scratch));
}

/// An undo's update (its own symbol for the profilers: a different body, so the two are
/// not folded into one).
#[inline(never)]
fn undo_update(g: &mut IncrementalGroup, rom: &Rom<'_>, b: &Board, scratch: &mut Scratch) {
    black_box(g.update(rom, b, &NoHost, scratch).restored);
}

/// The queries of `classes` (those `rom` has), both colours each, Black first.
fn queries_of(rom: &Rom<'_>, classes: &[String]) -> (Vec<ClassId>, Vec<Query>) {
    let classes: Vec<ClassId> = classes
        .iter()
        .filter_map(|n| rom.class_by_name(n))
        .collect();
    let queries = classes
        .iter()
        .flat_map(|&class| {
            [Colour::Black, Colour::White].map(|perspective| Query {
                class,
                perspective,
                orientations: Orientations::All,
            })
        })
        .collect();
    (classes, queries)
}

fn bench(c: &mut Criterion) {
    let Some(dir) = gnugo_dir() else { return };
    let games = games(&dir);
    let (bytes, names) = pat_db(&dir, true);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let (classes, queries) = queries_of(&rom, &names);
    // pat_wide holds patterns.db's two patterns whose focus is not their anchor.
    assert_eq!(classes.len(), 3);
    let mut w = World {
        rom,
        plans: queries
            .iter()
            .map(|q| ScanPlan::new(&rom, q.class).unwrap())
            .collect(),
        // Both colours of a class share one index.
        sets: queries
            .chunks(2)
            .flat_map(|q| {
                let black = IncrementalScan::new(&rom, q[0], 8192).unwrap();
                let white = black.for_perspective(q[1].perspective);
                [black, white]
            })
            .collect(),
        group: IncrementalGroup::new(&rom, &queries, 8192).unwrap(),
        unjournalled: IncrementalGroup::new(&rom, &queries, 8192)
            .unwrap()
            .with_journal(0),
        entries: IncrementalGroup::new(&rom, &queries, 8192)
            .unwrap()
            .with_entry_results()
            .expect("GNU Go's classes are plain"),
        set: ScanSet::new(&rom, &classes).unwrap(),
        set_slots: vec![Match::EMPTY; 8192 * queries.len()],
        queries,
        scratch: Scratch::new(),
        slots: vec![Match::EMPTY; 8192],
    };
    let moves = w.replay(&games, Way::ReplayOnly).0;
    // How much each update does.
    let (mut rematched, mut checked, mut changes, mut verified) = (0usize, 0usize, 0usize, 0usize);
    let (mut updates, mut restored, mut deepest) = (0usize, 0usize, 0usize);
    for s in &mut w.sets {
        s.update(&w.rom, &Board::new(19).unwrap(), &NoHost, &mut w.scratch);
    }
    for (_, steps) in &games {
        let mut b = Board::new(19).unwrap();
        for st in steps
            .iter()
            .map(Some)
            .chain(std::iter::repeat_n(None, steps.len()))
        {
            match st {
                Some(st) => st.apply(&mut b),
                None => {
                    b.undo();
                }
            }
            for s in &mut w.sets {
                let u = s.update(&w.rom, &b, &NoHost, &mut w.scratch);
                rematched += u.rematched;
                checked += u.checked;
                verified += u.verified;
                changes += s.appeared().len() + s.vanished().len();
                updates += 1;
                restored += u.restored;
                deepest = deepest.max(s.journal_depth());
            }
        }
    }
    eprintln!(
        "incremental: {} games, {moves} plays and undos, {} sets; per set and step: {:.1} entry checks ({:.1} past the 3x3 mask), \
         {:.2} foci rematched, {:.2} matches appeared or vanished; reach {:?}; {restored} of {updates} \
         set updates restored from the journal ({} KB per set, {} KB for all; at most {deepest} \
         records held)",
        games.len(),
        w.sets.len(),
        checked as f64 / updates as f64,
        verified as f64 / updates as f64,
        rematched as f64 / updates as f64,
        changes as f64 / updates as f64,
        w.sets.iter().map(|s| s.reach().state).collect::<Vec<_>>(),
        w.sets[0].journal_bytes() >> 10,
        w.sets.iter().map(|s| s.journal_bytes()).sum::<usize>() >> 10,
    );

    // What a rescan costs by area size (every set's plan, one mid-game position, centred areas).
    if std::env::var_os("LENS_BENCH_AREAS").is_some() {
        let mut b = Board::new(19).unwrap();
        for s in games[0].1.iter().take(120) {
            s.apply(&mut b);
        }
        for r in [0, 1, 2, 4, 6, 8, 9] {
            let area = lens_vm::matching::Area::around(9, 9, r);
            let iters = 200;
            let t0 = thread_cpu::thread_cpu();
            for _ in 0..iters {
                for (q, plan) in w.queries.iter().zip(&w.plans) {
                    let mut out = MatchBuf::new(&mut w.slots);
                    black_box(plan.scan_area(
                        &w.rom,
                        &b,
                        &NoHost,
                        q,
                        area,
                        &mut w.scratch,
                        &mut out,
                    ));
                }
            }
            let d = thread_cpu::thread_cpu() - t0;
            eprintln!(
                "scan_area radius {r}: {:.2} us for every set",
                d.as_secs_f64() * 1e6 / iters as f64
            );
        }
    }

    if let Some(way) = std::env::var_os("LENS_BENCH_PROFILE_INCREMENTAL") {
        // For `perf record` or callgrind: one incremental way alone, a few rounds.
        if way == "nojournal" {
            std::mem::swap(&mut w.group, &mut w.unjournalled);
        }
        if way == "entryplays" {
            std::mem::swap(&mut w.group, &mut w.entries);
        }
        if way == "plays" || way == "entryplays" {
            // Plays through `play_update`, undos (journal restores) through `undo_update`:
            // callgrind `--toggle-collect='*play_update*'` counts the plays alone.
            // Each round's plays timed one by one (thread CPU, the clock's cost included):
            // the least of the rounds is the figure to compare between builds.
            let rounds: usize = std::env::var("LENS_BENCH_PROFILE_ROUNDS")
                .ok()
                .and_then(|r| r.parse().ok())
                .unwrap_or(5);
            for round in 0..rounds {
                let (mut spent, mut plays) = (Duration::ZERO, 0u32);
                for (_, steps) in &games {
                    let mut b = Board::new(19).unwrap();
                    w.group.update(&w.rom, &b, &NoHost, &mut w.scratch);
                    for s in steps {
                        s.apply(&mut b);
                        let t0 = thread_cpu::thread_cpu();
                        play_update(&mut w.group, &w.rom, &b, &mut w.scratch);
                        spent += thread_cpu::thread_cpu() - t0;
                        plays += 1;
                    }
                    while b.undo() {
                        undo_update(&mut w.group, &w.rom, &b, &mut w.scratch);
                    }
                }
                let us = spent.as_secs_f64() * 1e6 / plays as f64;
                eprintln!("profile round {round}: {us:.2} us per play");
            }
            return;
        }
        let way = if way == "sets" {
            Way::SetsAlone
        } else {
            Way::Incremental
        };
        for _ in 0..5 {
            black_box(w.replay(&games, way));
        }
        return;
    }
    let ways = [
        ("incremental", Way::Incremental),
        ("incremental_sets_alone", Way::SetsAlone),
        ("full_scan_set_rescan", Way::FullSet),
        ("full_plan_rescan", Way::FullPlan),
        ("replay_only", Way::ReplayOnly),
    ];
    let mut g = c.benchmark_group("gnugo_pat_db_per_move_all_games_cpu_time");
    g.sample_size(10);
    for (label, way) in ways {
        g.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let t0 = thread_cpu::thread_cpu();
                for _ in 0..iters {
                    black_box(w.replay(&games, way));
                }
                thread_cpu::thread_cpu() - t0
            })
        });
    }
    g.finish();

    // Round-robin summary (the ways alternate, so load changes hit them alike).
    let mut t: Vec<Vec<f64>> = vec![Vec::new(); ways.len()];
    for _ in 0..5 {
        for (k, &(_, way)) in ways.iter().enumerate() {
            let t0 = thread_cpu::thread_cpu();
            black_box(w.replay(&games, way));
            let d: Duration = thread_cpu::thread_cpu() - t0;
            t[k].push(d.as_secs_f64() * 1e6 / moves as f64);
        }
    }
    let med: Vec<f64> = t.iter_mut().map(|v| median(v)).collect();
    let replay = med[4];
    let net = |k: usize| med[k] - replay;
    eprintln!(
        "per move, thread CPU, median of 5 rounds (matching alone: minus the replay): \
         incremental (group) {:.2} us ({:.2}), sets alone {:.2} us ({:.2}), \
         full ScanSet rescan {:.2} us ({:.2}), full ScanPlan rescans {:.2} us ({:.2}), \
         replay alone {:.3} us; ScanSet / incremental = {:.1}x, ScanPlan / incremental = {:.1}x, \
         sets alone / group = {:.2}x",
        med[0],
        net(0),
        med[1],
        net(1),
        med[2],
        net(2),
        med[3],
        net(3),
        replay,
        net(2) / net(0),
        net(3) / net(0),
        net(1) / net(0),
    );

    // Plays and undos apart (the group with its journal, and without one, alternating;
    // each update timed alone, so the clock's own cost, measured below, is in all): an
    // engine's search undoes as often as it plays.
    let forth_and_back =
        |steps: &[Step], b: &mut Board, timed: &mut dyn FnMut(&Board, Option<usize>)| {
            walk_game(steps, b, timed, Some(1))
        };
    let [[plays, undos], [plays0, undos0]] = apart(
        &mut w,
        &games,
        [Kept::Journal, Kept::NoJournal],
        forth_and_back,
    );
    let clock = clock_cost();
    eprintln!(
        "incremental (group), plays and undos apart, median of 5 alternating rounds: \
         play {plays:.2} us, undo {undos:.2} us per step (mean {:.2}); without the journal \
         play {plays0:.2} us, undo {undos0:.2} us (mean {:.2}); journal / none: play {:.2}x, \
         undo {:.2}x; the clock's own cost, in each figure: {clock:.2} us (play {:.2} us net)",
        (plays + undos) / 2.0,
        (plays0 + undos0) / 2.0,
        plays / plays0,
        undos / undos0,
        plays - clock,
    );

    // Entry mode against match mode (both with their journals), plays and undos apart,
    // alternating: the entries alone, and with every appeared entry's match built
    // (`match_of`, in the timed update: an engine that wants them all).
    let [[mplays, mundos], [eplays, eundos], [bplays, bundos]] = apart(
        &mut w,
        &games,
        [Kept::Journal, Kept::Entries, Kept::EntriesBuilt],
        forth_and_back,
    );
    eprintln!(
        "incremental (group), entry mode against match mode, plays and undos apart, median \
         of 5 alternating rounds: match mode play {mplays:.2} us, undo {mundos:.2} us; entry \
         mode play {eplays:.2} us, undo {eundos:.2} us ({:.3}x, {:.3}x); entry mode with \
         every appeared match built play {bplays:.2} us, undo {bundos:.2} us ({:.3}x, \
         {:.3}x); the clock's {clock:.2} us in each",
        eplays / mplays,
        eundos / mundos,
        bplays / mplays,
        bundos / mundos,
    );

    // The side to move's sets only: what GNU Go matches at each position (its patterns for
    // the colour to move). Each colour's sets are one group, brought up to date at the
    // positions where that colour is to move, so each update takes in two moves.
    let sides = side_to_move(&mut w, &games);
    eprintln!(
        "incremental, the side to move's sets only (a group per colour, each update \
         taking in the two moves since that colour was last to move), median of 5 rounds: \
         {sides:.2} us per play ({:.2} us net of the clock); both colours' sets above, \
         also without a journal: {plays0:.2} us ({:.2}x)",
        sides - clock,
        sides / plays0,
    );

    // The same patterns imported file by file (five classes, ten sets: the layout before
    // session 15) against the one database, plays alternating (journals on; undos untimed).
    let (file_bytes, file_names) = pat_db(&dir, false);
    let file_rom = Rom::from_bytes(&file_bytes).unwrap();
    let (_, file_queries) = queries_of(&file_rom, &file_names);
    let mut by_file = IncrementalGroup::new(&file_rom, &file_queries, 8192).unwrap();
    let (mut one, mut per_file) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        let plays =
            |steps: &[Step], b: &mut Board, timed: &mut dyn FnMut(&Board, Option<usize>)| {
                walk_game(steps, b, timed, None)
            };
        one.push(timed_round(&w.rom, &mut w.group, &mut w.scratch, &games, false, &plays)[0]);
        per_file.push(
            timed_round(
                &file_rom,
                &mut by_file,
                &mut w.scratch,
                &games,
                false,
                &plays,
            )[0],
        );
    }
    let (one, per_file) = (median(&mut one), median(&mut per_file));
    eprintln!(
        "incremental (group), plays of the same patterns imported file by file ({} sets) \
         against one database ({} sets), median of 5 alternating rounds: {per_file:.2} us \
         against {one:.2} us per play ({:.2}x)",
        file_queries.len(),
        w.queries.len(),
        one / per_file,
    );

    // A search's tries: at every position of every game, the next move played and taken
    // back (each update timed), then played for good (untimed), as an engine's reading
    // does around the game's moves; with the journal and without, alternating.
    let [[plays, undos], [plays0, undos0]] = apart(
        &mut w,
        &games,
        [Kept::Journal, Kept::NoJournal],
        |steps, b, timed| {
            for s in steps {
                if matches!(s, Step::Play(..)) {
                    s.apply(b);
                    timed(b, Some(0));
                    b.undo();
                    timed(b, Some(1));
                }
                s.apply(b);
                timed(b, None);
            }
            while b.undo() {
                timed(b, None);
            }
        },
    );
    eprintln!(
        "incremental (group), a search's tries (each game move played, taken back, played \
         again), median of 5 alternating rounds: try {plays:.2} us, take back {undos:.2} us \
         (mean {:.2}); without the journal {plays0:.2} / {undos0:.2} us (mean {:.2}): {:.2}x",
        (plays + undos) / 2.0,
        (plays0 + undos0) / 2.0,
        (plays + undos) / (plays0 + undos0),
    );

    // The group at each vector level this CPU has, alternating (the filter's chunk ANDs
    // are the incremental step's only per-level code): what a machine without AVX-512, or
    // without AVX2, would see relative to this one's default.
    let levels: Vec<Simd> = [Vector::Portable, Vector::Avx2, Vector::Avx512]
        .into_iter()
        .filter_map(|v| Simd::supported().filter(|s| s.vector == v).last())
        .collect();
    let mut t: Vec<Vec<f64>> = vec![Vec::new(); levels.len()];
    for _ in 0..5 {
        for (k, &level) in levels.iter().enumerate() {
            simd::force(Some(level)).unwrap();
            let t0 = thread_cpu::thread_cpu();
            black_box(w.replay(&games, Way::Incremental));
            let d: Duration = thread_cpu::thread_cpu() - t0;
            t[k].push(d.as_secs_f64() * 1e6 / moves as f64);
        }
    }
    simd::force(None).unwrap();
    let per_level: Vec<String> = levels
        .iter()
        .zip(&mut t)
        .map(|(l, v)| format!("{:?} {:.2} us", l.vector, median(v)))
        .collect();
    eprintln!(
        "incremental (group) per vector level, median of 5 alternating rounds: {}",
        per_level.join(", ")
    );
}

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The thread CPU clock's own cost in an interval timed by two reads (the median of 5
/// rounds of 10,000 back-to-back pairs): what each per-update figure includes besides the
/// update.
fn clock_cost() -> f64 {
    let mut rounds: Vec<f64> = (0..5)
        .map(|_| {
            let mut d = Duration::ZERO;
            for _ in 0..10_000 {
                let t0 = thread_cpu::thread_cpu();
                d += thread_cpu::thread_cpu() - t0;
            }
            d.as_secs_f64() * 1e6 / 10_000.0
        })
        .collect();
    median(&mut rounds)
}

/// Microseconds per play when only the side to move's sets are kept (median of 5 rounds):
/// Black's sets and White's sets as two groups without a journal, and after each
/// play the group of the colour now to move is updated (timed alone), taking in the
/// opponent's move and its own previous one. Setup stones update both.
fn side_to_move(w: &mut World<'_>, games: &[(String, Vec<Step>)]) -> f64 {
    let mut groups = [Colour::Black, Colour::White].map(|c| {
        let qs: Vec<Query> = w
            .queries
            .iter()
            .copied()
            .filter(|q| q.perspective == c)
            .collect();
        IncrementalGroup::new(&w.rom, &qs, 8192)
            .unwrap()
            .with_journal(0)
    });
    let mut us = Vec::new();
    for _ in 0..5 {
        let (mut d, mut n) = (Duration::ZERO, 0usize);
        for (_, steps) in games {
            let mut b = Board::new(19).unwrap();
            for g in &mut groups {
                g.update(&w.rom, &b, &NoHost, &mut w.scratch);
            }
            for s in steps {
                s.apply(&mut b);
                match *s {
                    Step::Play(c, ..) => {
                        // The colour to move next is the other one.
                        let g = &mut groups[(c == Colour::Black) as usize];
                        let t0 = thread_cpu::thread_cpu();
                        black_box(g.update(&w.rom, &b, &NoHost, &mut w.scratch));
                        d += thread_cpu::thread_cpu() - t0;
                        n += 1;
                    }
                    _ => {
                        for g in &mut groups {
                            g.update(&w.rom, &b, &NoHost, &mut w.scratch);
                        }
                    }
                }
            }
        }
        us.push(d.as_secs_f64() * 1e6 / n as f64);
    }
    median(&mut us)
}

/// Which of the world's groups [`apart`] updates.
#[derive(Clone, Copy, PartialEq)]
enum Kept {
    /// The group with its journal (`World::group`).
    Journal,
    /// The group without a journal.
    NoJournal,
    /// The group in entry mode, with its journal.
    Entries,
    /// The same, with every appeared entry's match built after each update (timed).
    EntriesBuilt,
}

/// Plays a game record's steps, calling `timed` after each with the board and side 0, then
/// undoes them all, calling it with side `undos` (`None`: untimed).
fn walk_game(
    steps: &[Step],
    b: &mut Board,
    timed: &mut dyn FnMut(&Board, Option<usize>),
    undos: Option<usize>,
) {
    for s in steps {
        s.apply(b);
        timed(b, Some(0));
    }
    while b.undo() {
        timed(b, undos);
    }
}

/// Walks every game with each of the groups `kept`, alternating, 5 rounds: `walk` moves the
/// board and calls its third argument after each move, to update the group (side `Some(k)`:
/// timed alone on thread CPU, as a play (0) or an undo (1); `None`: untimed). Returns the
/// medians of microseconds per timed update, per group `[play, undo]`.
fn apart<const N: usize>(
    w: &mut World<'_>,
    games: &[(String, Vec<Step>)],
    kept: [Kept; N],
    walk: impl Fn(&[Step], &mut Board, &mut dyn FnMut(&Board, Option<usize>)),
) -> [[f64; 2]; N] {
    let mut us: [[Vec<f64>; 2]; N] = std::array::from_fn(|_| [Vec::new(), Vec::new()]);
    for _ in 0..5 {
        for (&kind, us) in kept.iter().zip(us.iter_mut()) {
            let World {
                rom,
                group,
                unjournalled,
                entries,
                scratch,
                ..
            } = &mut *w;
            let group = match kind {
                Kept::Journal => group,
                Kept::NoJournal => unjournalled,
                Kept::Entries | Kept::EntriesBuilt => entries,
            };
            let round = timed_round(
                rom,
                group,
                scratch,
                games,
                kind == Kept::EntriesBuilt,
                &walk,
            );
            for (v, x) in us.iter_mut().zip(round) {
                v.push(x);
            }
        }
    }
    us.map(|s| s.map(|mut v| median(&mut v)))
}

/// One round of [`apart`] for one group: every game walked by `walk`, the updates it asks
/// to time timed alone on thread CPU (with every appeared entry's match built when
/// `build`); microseconds per timed update `[play, undo]`.
fn timed_round(
    rom: &Rom<'_>,
    group: &mut IncrementalGroup,
    scratch: &mut Scratch,
    games: &[(String, Vec<Step>)],
    build: bool,
    walk: &impl Fn(&[Step], &mut Board, &mut dyn FnMut(&Board, Option<usize>)),
) -> [f64; 2] {
    let mut sides = [(Duration::ZERO, 0usize); 2];
    for (_, steps) in games {
        let mut b = Board::new(19).unwrap();
        group.update(rom, &b, &NoHost, scratch);
        walk(steps, &mut b, &mut |b, side| {
            let t0 = thread_cpu::thread_cpu();
            black_box(group.update(rom, b, &NoHost, scratch));
            if build {
                for s in group.sets() {
                    for &h in s.appeared_entries() {
                        black_box(s.match_of(h));
                    }
                }
            }
            if let Some(k) = side {
                sides[k].0 += thread_cpu::thread_cpu() - t0;
                sides[k].1 += 1;
            }
        });
    }
    sides.map(|(d, n)| d.as_secs_f64() * 1e6 / n as f64)
}

criterion_group!(benches, bench);
criterion_main!(benches);
