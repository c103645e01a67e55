//! Incremental matching (`lens_vm::incremental::IncrementalScan`) equals a full rescan after
//! every move of the game records in `../shared/data/gnugo/games` (captures included), and
//! after every undo back to the empty board (the first two records by default, all eight
//! with `LENS_INCREMENTAL_ALL_GAMES=1`): for GNU Go's patterns.db + patterns2.db (imported
//! geometric-only at test time, as `gnugo_differential` does; nothing derived from the GPL
//! data is kept) and for every class of the standard library, both perspectives. The
//! reported difference (appeared, vanished) turns the old set into the new one, and match ids
//! are unique within a set (also with the two files imported as one database, as GNU Go
//! builds pat_db). The same (class, perspective) sets as one group
//! (`IncrementalGroup`, one board read per update) give every set alone's matches, runs and
//! difference after every step. The steps rotate over the machine's instruction-set levels
//! (`matching::simd`: the incremental filter's ANDs and the rescans). GNU Go's sets in entry
//! mode (`with_entry_results`, as a group and alone with a small capacity) equal the same
//! sets in match mode after every play and undo (their hits' matches, runs and difference).
//! The standard library's
//! 3x3 lookup classes also answer the same
//! through the kept 3x3 codes (`Codes3x3::match_at`) as through `Rom::match_at`.
//!
//! Cost (CI runs this at opt-level 1): every set is updated after every step; it is compared
//! with a full scan after every step of the first game and its undo, and after every 8th move
//! and every 16th undo of the others. An error stays in the set until its foci are rescanned,
//! so it shows at the next comparison.

#[path = "../../vm/tests/incremental_support/mod.rs"]
mod incremental_support;
#[path = "../../compiler/benches/support/pat_db.rs"]
mod pat_db;

use std::collections::BTreeSet;

use incremental_support::*;
use lens_vm::board::{Board, Colour};
use lens_vm::incremental::{Codes3x3, IncrementalGroup, IncrementalScan, MatchId};
use lens_vm::matching::simd::{self, Simd};
use lens_vm::{ClassId, Match, MatchBuf, NoHost, Orientations, Query, Rom, Scratch};
use pat_db::pat_db;

const CAPACITY: usize = 16 * 1024;
/// Capacity of the entry-mode test's sets alone: below GNU Go's largest sets in the games,
/// so their pools are compacted and matches dropped.
const SMALL: usize = 400;

fn gnugo_rom(dir: &std::path::Path) -> (Vec<u8>, Vec<String>) {
    pat_db(dir, false)
}

/// One incremental set per (class, perspective), with the full-scan oracle.
struct Sets<'r> {
    rom: Rom<'r>,
    sets: Vec<IncrementalScan>,
    /// The same queries as one group.
    group: IncrementalGroup,
    scratch: Scratch,
    slots: Vec<Match>,
    updates: usize,
    changes_seen: usize,
}

impl<'r> Sets<'r> {
    fn new(rom: Rom<'r>, classes: &[ClassId]) -> Self {
        let sets: Vec<IncrementalScan> = classes
            .iter()
            .flat_map(|&class| {
                [Colour::Black, Colour::White].map(|perspective| {
                    let q = Query {
                        class,
                        perspective,
                        orientations: Orientations::All,
                    };
                    IncrementalScan::new(&rom, q, CAPACITY).unwrap()
                })
            })
            .collect();
        let queries: Vec<Query> = sets.iter().map(|s| *s.query()).collect();
        let group = IncrementalGroup::new(&rom, &queries, CAPACITY).unwrap();
        Sets {
            rom,
            sets,
            group,
            scratch: Scratch::new(),
            slots: vec![Match::EMPTY; CAPACITY],
            updates: 0,
            changes_seen: 0,
        }
    }

    /// Updates every set; compares with a full scan when `compare`.
    fn step(&mut self, b: &Board, compare: bool, what: &dyn Fn() -> String) {
        self.group.update(&self.rom, b, &NoHost, &mut self.scratch);
        for (j, set) in self.sets.iter_mut().enumerate() {
            let before: BTreeSet<MatchId> = set.matches().iter().map(MatchId::of).collect();
            set.update(&self.rom, b, &NoHost, &mut self.scratch);
            self.updates += 1;
            assert_eq!(set.dropped(), 0);
            let ids: Vec<MatchId> = set.matches().iter().map(MatchId::of).collect();
            let after: BTreeSet<MatchId> = ids.iter().copied().collect();
            assert_eq!(ids.len(), after.len(), "ids unique, {}", what());
            // The difference turns the old set into the new one.
            let mut patched = before.clone();
            for m in set.vanished() {
                assert!(
                    patched.remove(&MatchId::of(m)),
                    "vanished but absent, {}",
                    what()
                );
            }
            for m in set.appeared() {
                assert!(
                    patched.insert(MatchId::of(m)),
                    "appeared but present, {}",
                    what()
                );
            }
            assert_eq!(patched, after, "diff, {}", what());
            self.changes_seen += set.appeared().len() + set.vanished().len();
            // The group's set of the same query: the same difference, set and runs.
            let g = self.group.set(j);
            assert_eq!(g.dropped(), 0);
            assert!(
                g.appeared() == set.appeared() && g.vanished() == set.vanished(),
                "group differs from the set alone, {}",
                what()
            );
            if compare {
                let size = b.size() as i32;
                for (x, y) in (0..size).flat_map(|y| (0..size).map(move |x| (x, y))) {
                    assert!(
                        g.matches_at(x, y) == set.matches_at(x, y),
                        "group run, {}",
                        what()
                    );
                }
            }
            assert!(
                self.group.matches(j) == set.matches(),
                "group set, {}",
                what()
            );
            if compare {
                let mut out = MatchBuf::new(&mut self.slots);
                self.rom
                    .scan(b, &NoHost, set.query(), &mut self.scratch, &mut out);
                assert_eq!(out.dropped(), 0);
                assert!(
                    set.matches() == out.as_slice(),
                    "class {} for {:?}: incremental set differs from a full scan, {}",
                    self.rom.class(set.query().class).unwrap().name(),
                    set.query().perspective,
                    what()
                );
                // The foci's runs, read one by one in scan order, are the same set.
                let size = b.size() as i32;
                let by_focus: Vec<Match> = (0..size)
                    .flat_map(|y| (0..size).map(move |x| (x, y)))
                    .flat_map(|(x, y)| set.matches_at(x, y).iter().copied())
                    .collect();
                assert!(by_focus == out.as_slice(), "matches_at, {}", what());
            }
        }
    }
}

/// The game records to replay: all of them with `LENS_INCREMENTAL_ALL_GAMES=1`, else the
/// first two (about 1,200 plays and undos; all eight take 4x longer at opt-level 1).
fn ci_games(dir: &std::path::Path) -> Vec<(String, Vec<Step>)> {
    let mut all = games(dir);
    assert!(all.len() >= 8);
    if std::env::var_os("LENS_INCREMENTAL_ALL_GAMES").is_none() {
        all.truncate(2);
    }
    all
}

/// Replays every game with updates after each step, then undoes it all; `undo_every`:
/// compare on every n-th undo.
fn replay_all(sets: &mut Sets<'_>, games: &[(String, Vec<Step>)], every: usize, undo_every: usize) {
    // One path per vector level, a step each in turn.
    let mut levels: Vec<Simd> = Simd::supported().collect();
    levels.dedup_by_key(|s| s.vector);
    let mut turn = 0;
    let mut next_level = || {
        turn += 1;
        simd::force(Some(levels[turn % levels.len()])).unwrap();
    };
    for (g, (name, steps)) in games.iter().enumerate() {
        // The first game is compared after every step; the others sampled.
        let (every, undo_every) = if g == 0 { (1, 1) } else { (every, undo_every) };
        let mut b = Board::new(19).unwrap();
        sets.step(&b, true, &|| format!("{name}, empty board"));
        for (i, s) in steps.iter().enumerate() {
            s.apply(&mut b);
            next_level();
            sets.step(&b, i % every == 0, &|| {
                format!("{name} after step {} ({s:?})", i + 1)
            });
        }
        let mut i = steps.len();
        while b.undo() {
            i -= 1;
            next_level();
            sets.step(&b, i % undo_every == 0, &|| {
                format!("{name} after undoing to step {i}")
            });
        }
    }
    simd::force(None).unwrap();
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn gnugo_patterns_incremental_equals_full_rescan_on_every_move() {
    let Some(dir) = gnugo_dir() else { return };
    let games = ci_games(&dir);
    let (bytes, names) = gnugo_rom(&dir);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let classes: Vec<ClassId> = names.iter().filter_map(|n| rom.class_by_name(n)).collect();
    assert_eq!(classes.len(), 5);
    let mut sets = Sets::new(rom, &classes);
    replay_all(&mut sets, &games, 8, 16);
    assert!(sets.updates > 10_000, "{} updates", sets.updates);
    assert!(sets.changes_seen > 3_000, "{} changes", sets.changes_seen);
}

/// The same for the two files imported as one database (three larger classes, six sets:
/// the incremental bench's layout).
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn gnugo_pat_database_incremental_equals_full_rescan_on_every_move() {
    let Some(dir) = gnugo_dir() else { return };
    let games = ci_games(&dir);
    let (bytes, names) = pat_db(&dir, true);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let classes: Vec<ClassId> = names.iter().filter_map(|n| rom.class_by_name(n)).collect();
    assert_eq!(classes.len(), 3);
    let mut sets = Sets::new(rom, &classes);
    replay_all(&mut sets, &games, 8, 16);
    assert!(sets.updates > 6_000, "{} updates", sets.updates);
    assert!(sets.changes_seen > 3_000, "{} changes", sets.changes_seen);
}

/// Entry mode (`with_entry_results`) for GNU Go's ten sets (all five classes are plain): a
/// group in entry mode and the same group in match mode, and each set alone in both modes
/// with a small capacity (its pool compacted, matches dropped), updated after every play and
/// undo of the games (undos restored from the journals) give the same updates, and the
/// entry mode's hits through `match_of` are the match mode's difference, runs and set.
#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn gnugo_entry_mode_equals_match_mode_on_every_move() {
    let Some(dir) = gnugo_dir() else { return };
    let games = ci_games(&dir);
    let (bytes, names) = gnugo_rom(&dir);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let queries: Vec<Query> = names
        .iter()
        .filter_map(|n| rom.class_by_name(n))
        .flat_map(|class| {
            [Colour::Black, Colour::White].map(|perspective| Query {
                class,
                perspective,
                orientations: Orientations::All,
            })
        })
        .collect();
    assert_eq!(queries.len(), 10);
    let group = || IncrementalGroup::new(&rom, &queries, CAPACITY).unwrap();
    let mut entries = group()
        .with_entry_results()
        .expect("GNU Go's classes are plain");
    let mut matches = group();
    // A small journal too: a set's pool keeps the journal's budget again as room, so the
    // default's would put off the compactions.
    let set = |q: Query| {
        IncrementalScan::new(&rom, q, SMALL)
            .unwrap()
            .with_journal(16 << 10)
    };
    let mut twins: Vec<(IncrementalScan, IncrementalScan)> = queries
        .iter()
        .map(|&q| (set(q).with_entry_results().unwrap(), set(q)))
        .collect();
    let mut scratch = Scratch::new();
    let (mut changes, mut restored) = (0, 0);
    // Per set alone: restores, matches dropped (at most).
    let mut alone = vec![(0, 0); twins.len()];
    let mut step = |b: &Board, what: &dyn Fn() -> String| {
        let u = entries.update(&rom, b, &NoHost, &mut scratch);
        assert_eq!(
            u,
            matches.update(&rom, b, &NoHost, &mut scratch),
            "{}",
            what()
        );
        restored += u.restored;
        for j in 0..queries.len() {
            let what = || format!("set {j}, {}", what());
            changes += assert_entry_twin(entries.set(j), matches.set(j), 19, &what);
            assert!(entries.matches(j) == matches.matches(j), "{}", what());
        }
        for ((e, m), a) in twins.iter_mut().zip(&mut alone) {
            let u = e.update(&rom, b, &NoHost, &mut scratch);
            assert_eq!(u, m.update(&rom, b, &NoHost, &mut scratch), "{}", what());
            assert_entry_twin(e, m, 19, what);
            assert!(e.matches() == m.matches(), "{}", what());
            *a = (a.0 + u.restored, a.1.max(m.dropped()));
        }
    };
    for (name, steps) in &games {
        let mut b = Board::new(19).unwrap();
        step(&b, &|| format!("{name}, empty board"));
        for (i, s) in steps.iter().enumerate() {
            s.apply(&mut b);
            step(&b, &|| format!("{name} after step {} ({s:?})", i + 1));
        }
        let mut i = steps.len();
        while b.undo() {
            i -= 1;
            step(&b, &|| format!("{name} after undoing to step {i}"));
        }
    }
    assert!(changes > 3_000, "{changes} changes");
    assert!(restored > 5_000, "{restored} restores");
    // Some sets alone were compacted without dropping anything (a compaction empties the
    // journal: fewer undos restored than each of the group's sets), and some dropped.
    let per_set = restored / queries.len();
    assert!(
        alone.iter().any(|&(r, d)| d == 0 && r < per_set),
        "{per_set} {alone:?}"
    );
    assert!(alone.iter().any(|&(_, d)| d > 0), "{alone:?}");
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn stdlib_classes_incremental_equals_full_rescan_on_every_move() {
    let Some(dir) = gnugo_dir() else { return };
    let games = ci_games(&dir);
    let rom = lens_stdlib::rom();
    let classes: Vec<ClassId> = rom.classes().map(|c| c.id()).collect();
    assert!(classes.len() >= 8);
    let mut sets = Sets::new(rom, &classes);
    replay_all(&mut sets, &games, 8, 16);
    assert!(sets.changes_seen > 3_000, "{} changes", sets.changes_seen);
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn stdlib_lookup_classes_answer_the_same_through_kept_codes() {
    let Some(dir) = gnugo_dir() else { return };
    let rom = lens_stdlib::rom();
    let luts: Vec<ClassId> = rom
        .classes()
        .filter(|c| rom.class_lut(c).is_some())
        .map(|c| c.id())
        .collect();
    assert!(!luts.is_empty(), "the standard library has lookup classes");
    let mut scratch = Scratch::new();
    let (mut s1, mut s2) = (vec![Match::EMPTY; 512], vec![Match::EMPTY; 512]);
    let mut matched = 0;
    for (name, steps) in games(&dir).iter().take(3) {
        let mut b = Board::new(19).unwrap();
        let mut codes = Codes3x3::new(&b);
        for (i, s) in steps.iter().enumerate() {
            s.apply(&mut b);
            codes.update(&b);
            if i % 5 != 0 {
                continue;
            }
            for &class in &luts {
                for perspective in [Colour::Black, Colour::White] {
                    let q = Query {
                        class,
                        perspective,
                        orientations: Orientations::All,
                    };
                    for y in 0..19 {
                        for x in 0..19 {
                            let mut o1 = MatchBuf::new(&mut s1);
                            codes.match_at(&rom, &b, &NoHost, &q, x, y, &mut scratch, &mut o1);
                            let mut o2 = MatchBuf::new(&mut s2);
                            rom.match_at(&b, &NoHost, &q, x, y, &mut scratch, &mut o2);
                            assert_eq!(o1.as_slice(), o2.as_slice(), "{name} step {i} ({x}, {y})");
                            matched += o1.len();
                        }
                    }
                }
            }
        }
    }
    assert!(matched > 1000, "{matched} matches compared");
}
