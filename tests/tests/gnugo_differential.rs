//! The Done-when core of the GNU Go import: for every database in the oracle folder, all 32
//! positions and both colours, the geometric matches Lens finds (pattern, anchor, move point, and
//! the transformation, mapped back to GNU Go's numbering) equal GNU Go's own, with zero differences.
//!
//! Each `.db` file is imported geometric-only (constraints dropped, as the oracle ignores them),
//! compiled with `lens_compiler::compile_str` in the compact profile and expanded at load (which
//! must give the fast profile's image byte for byte), loaded, and scanned whole-board with `Rom::scan`
//! (the board-parallel scan); the per-point kernel scan (`Rom::scan_points`) must give the same
//! list in the same order, as must the scan through a `ScanPlan`, and the reference matcher the same set. The focus of every match is GNU Go's
//! anchor and its move result GNU Go's move (`-` for patterns without one).
//!
//! GNU Go's calling conventions: *plain* databases are matched for `color` = Black and White
//! with anchors of both colours (both classes, perspective = `color`); *ANCHOR_COLOR* ones (all
//! O-anchored) view each anchor from its own colour and *ANCHOR_OTHER* (X-anchored) from the
//! other one, which for their single class is again perspective = `color` for both colours.

mod gnugo_support;

use std::collections::BTreeSet;

use gnugo_support::*;
use std::collections::BTreeMap;

use lens_compiler::import::gnugo::{
    AnchorColour, DbPattern, Mkpat, Options as ImportOptions, PatternOutcome, class_name, focus_of,
    import_str, parse_db, stem_ident, wide_class_name,
};
use lens_vm::board::Colour;
use lens_vm::geometry::Orientation;
use lens_vm::matching::simd::{self, Simd};
use lens_vm::matching::{Hit, HitBuf, ScanPlan, ScanSet};
use lens_vm::{Match, MatchBuf, MatchResult, NoHost, Orientations, Query, Rom, Scratch};

const SLOTS: usize = 16 * 1024;

/// A compiled `.db` file: ROM bytes, class names, the patterns left out, and for patterns
/// whose focus is not GNU Go's anchor, the anchor's offset from the focus (drawn orientation).
struct Db {
    rom: Vec<u8>,
    classes: Vec<String>,
    left_out: Vec<String>,
    anchor_offsets: BTreeMap<String, (i32, i32)>,
    /// Every parsed pattern with GNU Go's anchor (row, column) under the real options.
    patterns: BTreeMap<String, (DbPattern, (usize, usize))>,
}

fn compile_db(dir: &std::path::Path, file: &str) -> Db {
    let text = std::fs::read_to_string(dir.join("patterns").join(file)).unwrap();
    let imported = import_str(
        file,
        &text,
        &ImportOptions {
            geometric_only: true,
            ..Default::default()
        },
    );
    assert!(
        imported.report.errors.is_empty(),
        "{:?}",
        imported.report.errors
    );
    let left_out = imported
        .report
        .outcomes
        .iter()
        .filter_map(|o| match o {
            PatternOutcome::NotImported { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let (parsed, _) = parse_db(file, &text);
    let mut anchor_offsets = BTreeMap::new();
    let mut patterns = BTreeMap::new();
    // GNU Go's anchor under the database's real mkpat options (patterns/Makefile.am).
    let (mkpat, _) = Mkpat::for_file(file);
    assert_eq!(imported.report.mkpat, mkpat);
    for p in &parsed.patterns {
        let Ok(anchor) = mkpat.anchor(p) else {
            continue;
        };
        patterns.insert(p.name.clone(), (p.clone(), (anchor.0, anchor.1)));
        if let Some((fr, fc)) = focus_of(p, anchor) {
            if (fr, fc) != (anchor.0, anchor.1) {
                anchor_offsets.insert(
                    p.name.clone(),
                    (anchor.1 as i32 - fc as i32, anchor.0 as i32 - fr as i32),
                );
            }
        }
    }
    let (sources, result) = lens_compiler::compile_str(
        &format!("{file}.lens"),
        &imported.source,
        &Default::default(),
    );
    let compiled = match result {
        Ok(c) => c,
        Err(diags) => panic!(
            "{file}: {}",
            lens_dsl::render_human(&sources, &diags, false)
        ),
    };
    // The oracle runs on the compact profile's image as the engine loads it: each pattern
    // once, expanded at load (which must give the fast image byte for byte).
    let (_, compact) = lens_compiler::compile_str(
        &format!("{file}.lens"),
        &imported.source,
        &lens_compiler::Options {
            profile: lens_compiler::Profile::Compact,
            ..Default::default()
        },
    );
    let compact = compact.unwrap_or_else(|_| panic!("{file}: compact profile"));
    let expanded = lens_vm::rom::CompactRom::from_bytes(&compact.rom)
        .map(|c| c.expand(&lens_vm::rom::WriteOptions::COMPILER).unwrap())
        .unwrap_or_else(|e| panic!("{file}: compact image: {e}"));
    assert!(
        expanded == compiled.rom,
        "{file}: the expanded compact image differs from the fast image"
    );
    let stem = stem_ident(file);
    let mut classes = [AnchorColour::O, AnchorColour::X]
        .map(|c| class_name(&stem, c))
        .to_vec();
    classes.push(wide_class_name(&stem));
    Db {
        rom: expanded,
        classes,
        left_out,
        anchor_offsets,
        patterns,
    }
}

fn key_of(rom: &Rom<'_>, db: &Db, pos: &str, colour: Colour, m: &Match) -> Key {
    let name = rom
        .pattern_name(m.pattern)
        .expect("debug names kept")
        .to_string();
    // GNU Go's anchor: the focus, or (wide patterns) the focus plus the oriented offset.
    let (dx, dy) = db.anchor_offsets.get(&name).copied().unwrap_or((0, 0));
    let (ox, oy) = Orientation::new(m.orientation).unwrap().apply(dx, dy);
    let anchor = (m.focus.0 + ox, m.focus.1 + oy);
    let mv = match m.result {
        MatchResult::Move { x, y, .. } => vertex(x, y),
        MatchResult::Value { .. } => "-".to_string(),
        other => panic!("unexpected result {other:?} for {name}"),
    };
    (
        pos.to_string(),
        colour_char(colour),
        name,
        gnugo_ll(m.orientation),
        vertex(anchor.0, anchor.1),
        mv,
    )
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn lens_matches_equal_gnugo_on_every_oracle_database() {
    let Some(dir) = data_dir() else { return };
    let boards = positions(&dir);
    let mut slots = vec![Match::EMPTY; SLOTS];
    let mut ref_slots = vec![Match::EMPTY; SLOTS];
    let mut point_slots = vec![Match::EMPTY; SLOTS];
    let mut scratch = Scratch::new();
    let mut failures = String::new();
    let mut total = 0usize;
    let mut expected = 0usize;
    let mut excluded: Vec<(String, Vec<String>, usize)> = Vec::new();
    let mut raw_counts = Vec::new();
    let mut over_foci = 0;
    let mut plain = 0;
    let mut shared = [0usize; 2];
    // Shared walks taken by `ScanSet::scan_shared_hits` (compact hits).
    let mut shared_hits = 0usize;
    // Shared walks whose offset planes were gathered portably / with `pext`.
    let mut gathers = [0usize; 2];
    // Shared walks taken by sets with a trie over patterns, and of those over patterns.
    let mut pattern_walks = [0usize; 2];
    // Of those, walks whose hits came as runs in entry order (sorted by focus alone).
    let mut runs = 0usize;
    for &(db, files, _mode) in DATABASES {
        let mut got = BTreeSet::new();
        let mut left_out = Vec::new();
        let mut patterns = BTreeMap::new();
        for file in files.iter() {
            let compiled = compile_db(&dir, file);
            left_out.extend(compiled.left_out.iter().cloned());
            patterns.extend(compiled.patterns.clone());
            let rom = Rom::from_bytes(&compiled.rom).unwrap_or_else(|e| panic!("{file}: {e}"));
            let class_ids: Vec<_> = compiled
                .classes
                .iter()
                .filter_map(|c| rom.class_by_name(c))
                .collect();
            assert!(!class_ids.is_empty(), "{file}: no class");
            let plans: Vec<ScanPlan> = class_ids
                .iter()
                .map(|&c| ScanPlan::new(&rom, c).unwrap())
                .collect();
            // Classes whose keys stay within 8 points walk their tries with sets over the foci
            // (anchor classes: the stones of one colour).
            over_foci += plans.iter().filter(|p| p.over_foci()).count();
            // Classes with no tests, globs, rejects or default turn their survivors straight
            // into matches (no class program).
            plain += plans.iter().filter(|p| p.plain()).count();
            // All the file's classes and both colours in one call: the plain anchor classes
            // in one walk over all stones.
            let set = ScanSet::new(&rom, &class_ids).unwrap();
            // The same set walking oriented entries, not patterns: the same lists.
            let oriented = set.clone().without_pattern_walk();
            let mut set_slots = vec![Match::EMPTY; SLOTS * 2 * class_ids.len()];
            let mut oriented_slots = vec![Match::EMPTY; SLOTS * 2 * class_ids.len()];
            let mut set_hit_slots = vec![Hit::EMPTY; SLOTS * 2 * class_ids.len()];
            for (b, (id, board)) in boards.iter().enumerate() {
                // Every other position on the portable path: both gathers of the offset planes.
                simd::force((b % 2 == 1).then_some(Simd::PORTABLE)).unwrap();
                let mut outs: Vec<MatchBuf> =
                    set_slots.chunks_mut(SLOTS).map(MatchBuf::new).collect();
                let before = lens_vm::internals::pattern_walks(&scratch);
                let walked =
                    set.scan_shared(&rom, board, Orientations::All, &mut scratch, &mut outs);
                shared[usize::from(walked.is_some())] += usize::from(set.walked() > 0);
                if set.by_pattern() && walked.is_some() {
                    pattern_walks[0] += 1;
                    pattern_walks[1] += lens_vm::internals::pattern_walks(&scratch) - before;
                    runs += usize::from(set.sorts_by_runs());
                }
                let mut oriented_outs: Vec<MatchBuf> = oriented_slots
                    .chunks_mut(SLOTS)
                    .map(MatchBuf::new)
                    .collect();
                let oriented_walked = oriented.scan_shared(
                    &rom,
                    board,
                    Orientations::All,
                    &mut scratch,
                    &mut oriented_outs,
                );
                assert_eq!(oriented_walked, walked, "{file} {id}: oriented walk");
                for (a, b) in outs.iter().zip(&oriented_outs) {
                    assert_eq!(
                        a.as_slice(),
                        b.as_slice(),
                        "{file} {id}: the walks over patterns and oriented entries disagree"
                    );
                }
                if walked.is_some() {
                    gathers[usize::from(simd::current().pext_offsets())] += 1;
                }
                let mut outs: Vec<MatchBuf> =
                    set_slots.chunks_mut(SLOTS).map(MatchBuf::new).collect();
                set.scan(
                    &rom,
                    board,
                    &NoHost,
                    Orientations::All,
                    &mut scratch,
                    &mut outs,
                );
                // The same call writing compact hits, through the shared walk (forced) and
                // whole: the same matches once resolved.
                let mut hit_outs: Vec<HitBuf> =
                    set_hit_slots.chunks_mut(SLOTS).map(HitBuf::new).collect();
                let walked_hits = set.scan_shared_hits(
                    &rom,
                    board,
                    Orientations::All,
                    &mut scratch,
                    &mut hit_outs,
                );
                assert_eq!(walked_hits.is_some(), walked.is_some());
                shared_hits += usize::from(walked_hits.is_some());
                let mut hit_outs: Vec<HitBuf> =
                    set_hit_slots.chunks_mut(SLOTS).map(HitBuf::new).collect();
                set.scan_hits(
                    &rom,
                    board,
                    &NoHost,
                    Orientations::All,
                    &mut scratch,
                    &mut hit_outs,
                );
                for (i, &class) in class_ids.iter().enumerate() {
                    for k in 0..2 {
                        let resolved: Vec<Match> = hit_outs[2 * i + k]
                            .as_slice()
                            .iter()
                            .map(|h| h.resolve(&rom, class))
                            .collect();
                        assert_eq!(
                            resolved.as_slice(),
                            outs[2 * i + k].as_slice(),
                            "{file} {id}: ScanSet::scan_hits and ScanSet::scan disagree"
                        );
                    }
                }
                for (i, &class) in class_ids.iter().enumerate() {
                    for (k, perspective) in [Colour::Black, Colour::White].into_iter().enumerate() {
                        let q = Query {
                            class,
                            perspective,
                            orientations: Orientations::All,
                        };
                        let mut out = MatchBuf::new(&mut slots);
                        rom.scan(board, &NoHost, &q, &mut scratch, &mut out);
                        assert_eq!(outs[2 * i + k].dropped(), 0, "buffer too small");
                        assert_eq!(
                            out.as_slice(),
                            outs[2 * i + k].as_slice(),
                            "{file} {id}: scans with and without a ScanSet disagree"
                        );
                    }
                }
                for colour in [Colour::Black, Colour::White] {
                    for (&class, plan) in class_ids.iter().zip(&plans) {
                        let q = Query {
                            class,
                            perspective: colour,
                            orientations: Orientations::All,
                        };
                        let mut out = MatchBuf::new(&mut slots);
                        rom.scan(board, &NoHost, &q, &mut scratch, &mut out);
                        assert_eq!(out.dropped(), 0, "buffer too small");
                        let mut points = MatchBuf::new(&mut point_slots);
                        rom.scan_points(board, &NoHost, &q, &mut scratch, &mut points);
                        assert_eq!(
                            out.as_slice(),
                            points.as_slice(),
                            "{file} {id}: board-parallel and per-point scans disagree"
                        );
                        let mut planned = MatchBuf::new(&mut point_slots);
                        plan.scan(&rom, board, &NoHost, &q, &mut scratch, &mut planned);
                        assert_eq!(
                            out.as_slice(),
                            planned.as_slice(),
                            "{file} {id}: scans with and without a ScanPlan disagree"
                        );
                        let mut reference = MatchBuf::new(&mut ref_slots);
                        lens_vm::reference::scan(
                            &rom,
                            board,
                            &NoHost,
                            &q,
                            &mut scratch,
                            &mut reference,
                        );
                        let fast: BTreeSet<Key> = out
                            .as_slice()
                            .iter()
                            .map(|m| key_of(&rom, &compiled, id, colour, m))
                            .collect();
                        let slow: BTreeSet<Key> = reference
                            .as_slice()
                            .iter()
                            .map(|m| key_of(&rom, &compiled, id, colour, m))
                            .collect();
                        assert_eq!(
                            fast, slow,
                            "{file} {id}: fast kernel and reference matcher disagree"
                        );
                        // Each placement once: no duplicate (pattern, transformation, anchor, move).
                        assert_eq!(out.len(), fast.len(), "{file} {id}: duplicate matches");
                        got.extend(fast);
                    }
                }
            }
        }
        let mut want = oracle(&dir, db);
        // Patterns the importer leaves out (none on the public databases): GNU Go's matches of
        // them are counted, not hidden.
        let before = want.len();
        want.retain(|k| !left_out.contains(&k.2));
        excluded.push((db.to_string(), left_out.clone(), before - want.len()));
        // Every Lens match, transformation included, is one of GNU Go's...
        let extra: Vec<&Key> = got.difference(&want).collect();
        if !extra.is_empty() {
            failures.push_str(&format!(
                "{db}: {} Lens matches GNU Go does not have, e.g. {:?}\n",
                extra.len(),
                &extra[..extra.len().min(5)]
            ));
        }
        // ...and the sets of (pattern, anchor, move) are equal. (A pattern declared `8` whose
        // drawing is symmetric about its anchor and move is one placement that GNU Go reports
        // once per transformation; the Lens compiler merges such coinciding variants.)
        let strip = |set: &BTreeSet<Key>| -> BTreeSet<Key> {
            set.iter()
                .map(|k| (k.0.clone(), k.1, k.2.clone(), 0, k.4.clone(), k.5.clone()))
                .collect()
        };
        let (want_s, got_s) = (strip(&want), strip(&got));
        expected += want_s.len();
        total += got_s.len();
        if let Some(d) = diff(db, &want_s, &got_s) {
            failures.push_str(&d);
        }
        // Every GNU Go match Lens does not report is a true duplicate of one it does report:
        // same pattern, anchor and move, and the same cells under both transformations.
        for k in want.difference(&got) {
            let twin = got
                .iter()
                .find(|g| (&g.0, g.1, &g.2, &g.4, &g.5) == (&k.0, k.1, &k.2, &k.4, &k.5));
            let (p, anchor) = &patterns[&k.2];
            match twin {
                Some(g) if placement(p, *anchor, g.3) == placement(p, *anchor, k.3) => {}
                _ => {
                    failures.push_str(&format!("{db}: {k:?} is not a duplicate of a Lens match\n"))
                }
            }
        }
        raw_counts.push((db, got.len(), want.len()));
    }
    eprintln!(
        "raw matches (db, Lens, GNU Go): {raw_counts:?}; {over_foci} plans over the foci, \
         {plain} plain, shared walks declined / taken {shared:?}"
    );
    assert!(failures.is_empty(), "{failures}");
    assert!(over_foci > 0, "no plan walked its trie over the foci");
    assert!(plain > 0, "no plan skipped the class program");
    assert!(shared[1] > 0, "no ScanSet walked its classes together");
    assert_eq!(
        shared_hits, shared[1],
        "ScanSet::scan_hits took the shared walk as scan did"
    );
    eprintln!("shared walks of sets with a trie over patterns / over patterns: {pattern_walks:?}");
    assert!(
        pattern_walks[0] > 0 && pattern_walks[1] == pattern_walks[0],
        "every shared walk of a set with a trie over patterns went over patterns: {pattern_walks:?}"
    );
    eprintln!("of those, hits written as runs in entry order: {runs}");
    assert_eq!(
        runs, pattern_walks[0],
        "every database's patterns have their entries in pattern order"
    );
    simd::force(None).unwrap();
    eprintln!("ScanSet offsets gathered portably / by pext: {gathers:?}");
    assert!(
        gathers[0] > 0,
        "no shared walk gathered its offsets portably"
    );
    assert!(
        gathers[1] > 0 || !Simd::supported().any(|p| p.pext_offsets()),
        "no shared walk gathered its offsets by pext on a CPU that has it"
    );
    let left: Vec<(&str, usize, usize)> = excluded
        .iter()
        .map(|(d, n, m)| (d.as_str(), n.len(), *m))
        .collect();
    // (db, patterns left out, GNU Go matches of them): none since the `_wide` class takes 25x25
    // fields (before, 13 whole-side fuseki/handicap patterns and their 8 GNU Go matches).
    assert!(left.iter().all(|&(_, n, m)| (n, m) == (0, 0)), "{left:?}");
    assert_eq!(left.len(), DATABASES.len());
    assert_eq!(total, expected);
    assert!(total > 100_000, "{total}");
    // The figures: on patterns.db + patterns2.db, GNU Go reports 566 true duplicates.
    assert_eq!(raw_counts[0], ("pat_db", 52_722, 53_288));
}
