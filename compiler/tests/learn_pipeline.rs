//! harvest -> learn -> predict on small generated games whose right answers are known.

use std::collections::BTreeMap;

use lens_compiler::learn::games::{Game, is_test_game, parse_game, replay};
use lens_compiler::learn::harvest::{HarvestOptions, harvest, to_source};
use lens_compiler::learn::mm::FitOptions;
use lens_compiler::learn::predict::{MoveRange, evaluate, rank};
use lens_compiler::learn::shape::{Shapes, Size, name};
use lens_compiler::learn::{PolicyHost, Scanner, learn, source::write_values};
use lens_vm::board::{Board, Colour, Point, format_sgf_point};
use lens_vm::matching::ScanPlan;
use lens_vm::{Match, MatchBuf, MatchResult, Orientations, Query, Rom, Scratch};

/// xorshift64*: a fixed, portable sequence.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The canonical 3x3 key of the target shape: a friend stone diagonally north-east of the move,
/// the rest empty (a diagonal move, common in sparse positions), away from the edges.
fn target_key(shapes: &Shapes) -> u128 {
    let mut b = Board::new(9).unwrap();
    b.place(Colour::Black, 5, 3).unwrap();
    shapes.canonical(&b, Colour::Black, 4, 4, Size::Square3)
}

/// A game of `moves` moves on a `size` board: random legal moves, except that the side to move
/// always plays a point with the target shape when there is one (`prefer`), or a point next to
/// the last move when there is one (`follow`).
fn generate(seed: u64, size: u8, moves: usize, prefer: Option<u128>, follow: bool) -> String {
    let shapes = Shapes::new();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut b = Board::new(size).unwrap();
    let mut sgf = format!("(;GM[1]SZ[{size}]");
    let mut colour = Colour::Black;
    let mut last: Option<(i32, i32)> = None;
    for _ in 0..moves {
        let n = size as i32;
        let mut legal = Vec::new();
        for y in 0..n {
            for x in 0..n {
                // Never fill an own single-point eye, so the games stay games.
                let eye = [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().all(|(dx, dy)| {
                    matches!(b.get(x + dx, y + dy), Point::Off)
                        || b.get(x + dx, y + dy) == Point::Stone(colour)
                });
                if !eye && b.check_play(colour, x, y).is_ok() {
                    legal.push((x, y));
                }
            }
        }
        if legal.is_empty() {
            break;
        }
        let shaped: Vec<(i32, i32)> = match prefer {
            Some(k) => legal
                .iter()
                .copied()
                .filter(|&(x, y)| shapes.canonical(&b, colour, x, y, Size::Square3) == k)
                .collect(),
            None => Vec::new(),
        };
        let near: Vec<(i32, i32)> = match (follow, last) {
            (true, Some((lx, ly))) => legal
                .iter()
                .copied()
                .filter(|&(x, y)| (x - lx).abs() + (y - ly).abs() == 1)
                .collect(),
            _ => Vec::new(),
        };
        let pool = if !shaped.is_empty() {
            &shaped
        } else if !near.is_empty() {
            &near
        } else {
            &legal
        };
        let (x, y) = pool[rng.below(pool.len())];
        b.play(colour, x, y).unwrap();
        let c = if colour == Colour::Black { 'B' } else { 'W' };
        sgf.push_str(&format!(";{c}[{}]", format_sgf_point(x, y).unwrap()));
        last = Some((x, y));
        colour = colour.opponent();
    }
    sgf.push(')');
    sgf
}

fn games(
    seeds: std::ops::Range<u64>,
    size: u8,
    moves: usize,
    prefer: Option<u128>,
    follow: bool,
) -> Vec<Game> {
    seeds
        .map(|s| {
            parse_game(
                &format!("gen{s}.sgf"),
                &generate(s, size, moves, prefer, follow),
            )
            .unwrap()
        })
        .collect()
}

/// Values of the learned class by pattern name, read back from the learned source (which must
/// compile).
fn values(text: &str) -> BTreeMap<String, i32> {
    let (_, r) = lens_compiler::compile_str("learned.lens", text, &Default::default());
    if let Err(d) = r {
        panic!("the learned source does not compile: {d:?}");
    }
    let (file, _) = lens_dsl::parse(0, text);
    let mut out = BTreeMap::new();
    for item in &file.items {
        if let lens_dsl::ast::Item::Pattern(p) = item {
            for it in &p.items {
                if let lens_dsl::ast::PatternItem::Result(lens_dsl::ast::ResultSpec::Move {
                    value,
                    ..
                }) = it
                {
                    out.insert(p.name.node.clone(), value.node);
                }
            }
        }
    }
    out
}

#[test]
fn the_always_played_shape_comes_out_on_top() {
    let shapes = Shapes::new();
    let key = target_key(&shapes);
    let train = games(0..24, 9, 50, Some(key), false);
    let opts = HarvestOptions {
        min_count: 5,
        ..HarvestOptions::default()
    };
    let h = harvest(&train, &opts);
    assert!(h.cut.is_empty(), "{:?}", h.cut);
    // Harvest: the target is among the shapes, with its play count and availability.
    let target = h
        .shapes
        .iter()
        .find(|s| s.size == Size::Square3 && s.key == key)
        .expect("target shape harvested");
    assert!(
        target.played >= 20 && target.seen >= target.played,
        "{target:?}"
    );
    let text = to_source(&h, &opts, "generated");
    let learned = learn(
        "h.lens",
        &text,
        "policy",
        &train,
        &FitOptions {
            iterations: 15,
            tolerance: 0.0,
            ..FitOptions::default()
        },
        |_| {},
    )
    .unwrap();
    // MM never lowers the likelihood.
    let ll = &learned.fit.log_likelihood;
    assert!(ll.windows(2).all(|w| w[1] >= w[0] - 1e-9), "{ll:?}");
    assert!(ll.last().unwrap() > &(ll[0] + 0.2), "{ll:?}");
    let v = values(&learned.text);
    let best3 = v
        .iter()
        .filter(|(n, _)| n.starts_with("shape3x3_"))
        .max_by_key(|e| *e.1)
        .unwrap();
    assert_eq!(best3.0, &name(Size::Square3, key), "values: {v:?}");
    assert!(*best3.1 > 200, "{best3:?}");
    // Held-out generated games: the learned class predicts them better than the harvested
    // class with all values 0 (every legal move equally likely).
    let test = games(100..110, 9, 50, Some(key), false);
    let eval = |text: &str| {
        let (_, r) = lens_compiler::compile_str("c.lens", text, &Default::default());
        let rom_bytes = r.unwrap().rom;
        let rom = Rom::from_bytes(&rom_bytes).unwrap();
        let class = rom.class_by_name("policy").unwrap();
        evaluate(rom, class, &test, MoveRange::default(), |_| {})
    };
    let report = eval(&learned.text);
    let flat = eval(&text);
    assert_eq!(report.all.positions, flat.all.positions);
    assert!(report.all.positions > 400);
    let chance = flat.all.mean_log_likelihood();
    assert!(
        report.all.mean_log_likelihood() > chance + 0.2,
        "{:?} vs {:?}",
        report.all,
        flat.all
    );
    assert!(
        report.all.top5 > 2 * flat.all.top5,
        "{:?} vs {:?}",
        report.all,
        flat.all
    );
    assert!(report.all.top5_rate() >= report.all.top1_rate());
    let phases: usize = report.phases.iter().map(|t| t.positions).sum();
    assert_eq!(phases, report.all.positions);
}

#[test]
fn following_the_last_move_makes_the_nearest_distance_the_strongest_feature() {
    let train = games(0..20, 9, 60, None, true);
    let opts = HarvestOptions {
        min_count: 1000,
        ..HarvestOptions::default()
    };
    let h = harvest(&train, &opts);
    assert!(h.shapes.is_empty(), "nothing is played 1000 times");
    let text = to_source(&h, &opts, "generated");
    let learned = learn(
        "h.lens",
        &text,
        "policy",
        &train,
        &FitOptions {
            iterations: 10,
            tolerance: 0.0,
            ..FitOptions::default()
        },
        |_| {},
    )
    .unwrap();
    let v = values(&learned.text);
    let d2 = v["last_dist_2"];
    for (n, &x) in &v {
        if n.starts_with("last_dist_") && n != "last_dist_2" {
            assert!(x < d2 - 100, "{n} = {x} vs last_dist_2 = {d2}");
        }
    }
    // prev_dist levels were never decisive: they stay far below.
    assert!(
        v.iter()
            .filter(|(n, _)| n.starts_with("prev_dist_"))
            .all(|(_, &x)| x < d2 - 100)
    );
}

/// Scans of the harvested class find exactly the shapes the harvester keyed, at every legal
/// point of random 19x19 positions (edges and corners included), and the board-parallel,
/// planned, per-point and reference scans agree (with the policy predicates).
#[test]
fn harvested_patterns_match_what_the_harvester_counted() {
    let train = games(0..6, 19, 120, None, false);
    let opts = HarvestOptions {
        min_count: 1,
        max_patterns: 100_000,
        ..HarvestOptions::default()
    };
    let h = harvest(&train, &opts);
    let text = to_source(&h, &opts, "generated");
    let (_, r) = lens_compiler::compile_str("h.lens", &text, &Default::default());
    let rom_bytes = r.unwrap_or_else(|d| panic!("{d:?}")).rom;
    let rom = Rom::from_bytes(&rom_bytes).unwrap();
    let class = rom.class_by_name("policy").unwrap();
    let plan = ScanPlan::new(&rom, class).unwrap();
    let shapes = Shapes::new();
    let dict: BTreeMap<String, ()> = h.shapes.iter().map(|s| (name(s.size, s.key), ())).collect();
    let mut host = PolicyHost::new(&rom);
    let mut scratch = Box::new(Scratch::new());
    let (mut a, mut b, mut c, mut d) = (
        vec![Match::EMPTY; 1 << 15],
        vec![Match::EMPTY; 1 << 15],
        vec![Match::EMPTY; 1 << 15],
        vec![Match::EMPTY; 1 << 15],
    );
    let mut checked = 0;
    for g in &train {
        replay(g, |p| {
            if p.number % 10 != 0 {
                return;
            }
            host.set_position(p.board, p.colour, p.last, p.prev);
            let q = Query {
                class,
                perspective: p.colour,
                orientations: Orientations::All,
            };
            let mut out = MatchBuf::new(&mut a);
            rom.scan(&*p.board, &host, &q, &mut scratch, &mut out);
            assert_eq!(out.dropped(), 0);
            let mut pts = MatchBuf::new(&mut b);
            rom.scan_points(&*p.board, &host, &q, &mut scratch, &mut pts);
            let mut planned = MatchBuf::new(&mut c);
            plan.scan(&rom, &*p.board, &host, &q, &mut scratch, &mut planned);
            let mut refr = MatchBuf::new(&mut d);
            lens_vm::reference::scan(&rom, &*p.board, &host, &q, &mut scratch, &mut refr);
            assert_eq!(out.as_slice(), pts.as_slice());
            assert_eq!(out.as_slice(), planned.as_slice());
            assert_eq!(out.as_slice(), refr.as_slice());
            let n = p.board.size() as i32;
            for y in 0..n {
                for x in 0..n {
                    if p.board.get(x, y) != Point::Empty {
                        continue;
                    }
                    let mut found: Vec<&str> = out
                        .as_slice()
                        .iter()
                        .filter(|m| m.focus == (x, y))
                        .filter_map(|m| rom.pattern_name(m.pattern))
                        .filter(|n| Size::ALL.iter().any(|s| n.starts_with(s.group())))
                        .collect();
                    found.sort();
                    found.dedup();
                    let mut want: Vec<String> = Size::ALL
                        .iter()
                        .map(|&s| name(s, shapes.canonical(p.board, p.colour, x, y, s)))
                        .filter(|n| dict.contains_key(n))
                        .collect();
                    want.sort();
                    assert_eq!(
                        found, want,
                        "at ({x}, {y}), move {} of {}",
                        p.number, g.name
                    );
                    checked += 1;
                }
            }
        })
        .unwrap();
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn learned_values_are_written_into_the_source_and_nothing_else_changes() {
    let text = "// keep me\nclass policy { mode all; }\nclass other { mode all; }\n\
        pattern a : policy { diagram { * } => * 0; }  // trailing\n\
        pattern b : policy { diagram { * } => * -12 bits 0x1; }\n\
        pattern c : other { diagram { * } => * 7; }\n";
    let values: BTreeMap<String, i32> = [("a".to_string(), -250), ("b".to_string(), 31)].into();
    let (out, n) = write_values(text, &["policy"], &values).unwrap();
    assert_eq!(n, 2);
    assert_eq!(
        out,
        "// keep me\nclass policy { mode all; }\nclass other { mode all; }\n\
        pattern a : policy { diagram { * } => * -250; }  // trailing\n\
        pattern b : policy { diagram { * } => * 31 bits 0x1; }\n\
        pattern c : other { diagram { * } => * 7; }\n"
    );
    assert!(write_values("pattern {", &["policy"], &values).is_err());
}

#[test]
fn ranks_count_ties_in_board_order() {
    let scores = [(0u16, 5), (1, 10), (2, 10), (3, -5)];
    assert_eq!(rank(&scores, 1).unwrap().0, 0);
    assert_eq!(rank(&scores, 2).unwrap().0, 1);
    assert_eq!(rank(&scores, 3).unwrap().0, 3);
    assert!(rank(&scores, 9).is_none());
    // Probabilities: exp(score / 100) normalised.
    let (_, ll) = rank(&[(0, 0), (1, 0)], 0).unwrap();
    assert!((ll - 0.5f64.ln()).abs() < 1e-12);
}

#[test]
fn the_split_is_fixed_by_name_and_holds_out_about_a_fifth() {
    let names: Vec<String> = (0..2000).map(|i| format!("game{i}.sgf")).collect();
    let held = names.iter().filter(|n| is_test_game(n)).count();
    assert!((300..500).contains(&held), "{held}");
    // The rule depends on the name only (FNV-1a 64 of the file name, mod 10, < 2).
    let held: Vec<bool> = (0..12)
        .map(|i| is_test_game(&format!("game{i}.sgf")))
        .collect();
    let want = [
        false, false, false, false, true, false, false, false, false, true, false, false,
    ];
    assert_eq!(held, want);
}

#[test]
fn bad_game_records_are_errors_with_an_offset() {
    let e = parse_game("x.sgf", "no game here").unwrap_err();
    assert_eq!((e.offset, e.file.as_str()), (0, "x.sgf"));
    let e = parse_game("y.sgf", "header (;SZ[19];B[aa];W[").unwrap_err();
    assert_eq!(e.offset, 7);
    assert!(e.reason.contains("invalid SGF"), "{e}");
    assert!(parse_game("z.sgf", "(;SZ[3];B[aa])").is_err());
    // A move on an occupied point stops the replay with the move number.
    let g = parse_game("w.sgf", "(;SZ[9];B[cc];W[cc])").unwrap();
    let mut visited = 0;
    let err = replay(&g, |_| visited += 1).unwrap_err();
    assert_eq!(visited, 1);
    assert!(err.reason.contains("move 2"), "{err}");
}

/// Scanning the games on several threads gives the same dataset, fit and output bytes as one.
#[test]
fn learning_on_several_threads_gives_the_same_bytes_as_on_one() {
    let shapes = Shapes::new();
    let key = target_key(&shapes);
    let train = games(0..12, 9, 50, Some(key), true);
    let opts = HarvestOptions {
        min_count: 2,
        ..HarvestOptions::default()
    };
    let text = to_source(&harvest(&train, &opts), &opts, "generated");
    let run = |threads: usize| {
        let fit = FitOptions {
            iterations: 8,
            tolerance: 0.0,
            threads,
        };
        learn("h.lens", &text, "policy", &train, &fit, |_| {}).unwrap()
    };
    let one = run(1);
    assert_ne!(one.text, text, "values were written");
    for threads in [2, 5] {
        let many = run(threads);
        assert_eq!(many.dataset.positions(), one.dataset.positions());
        assert_eq!(many.dataset.candidates, one.dataset.candidates);
        let bits = |l: &lens_compiler::learn::Learned| -> Vec<u64> {
            l.fit.log_gamma.iter().map(|g| g.to_bits()).collect()
        };
        assert_eq!(bits(&many), bits(&one), "{threads} threads");
        assert_eq!(many.text, one.text, "{threads} threads");
    }
}

/// The differential check on a class harvested from real games: with `LENS_POLICY_CORPUS`
/// naming the corpus (relative to the repository root, as for the standard library's build),
/// the shapes of 30 of its training games, with a distinct value per pattern written in, are
/// scanned at every 10th position of 4 of its held-out games by the whole-board, per-point,
/// planned and reference scans, which must agree exactly. Without the variable (CI, a fresh
/// machine) the test returns at once: the corpus is third-party data outside the repository.
#[test]
fn a_class_harvested_from_the_corpus_scans_the_same_in_every_engine() {
    let Ok(dir) = std::env::var("LENS_POLICY_CORPUS") else {
        eprintln!("LENS_POLICY_CORPUS not set: skipped");
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = root.join(dir);
    let read =
        |split| lens_compiler::learn::read_games(std::slice::from_ref(&corpus), split).unwrap();
    let train: Vec<Game> = read(lens_compiler::learn::Split::Train)
        .into_iter()
        .take(30)
        .collect();
    let test: Vec<Game> = read(lens_compiler::learn::Split::Test)
        .into_iter()
        .take(4)
        .collect();
    let opts = HarvestOptions::default();
    let h = harvest(&train, &opts);
    assert!(h.shapes.len() > 100, "{} shapes", h.shapes.len());
    let text = to_source(&h, &opts, "corpus sample");
    // Distinct values, so a scan that reports the wrong pattern's value disagrees.
    let (file, _) = lens_dsl::parse(0, &text);
    let values: BTreeMap<String, i32> = file
        .items
        .iter()
        .filter_map(|i| match i {
            lens_dsl::ast::Item::Pattern(p) => Some(p.name.node.clone()),
            _ => None,
        })
        .enumerate()
        .map(|(i, n)| (n, i as i32 * 7 - 300))
        .collect();
    let (text, written) = write_values(&text, &["policy", "policy_features"], &values).unwrap();
    assert_eq!(written, values.len());
    let (_, r) = lens_compiler::compile_str("corpus.lens", &text, &Default::default());
    let rom_bytes = r.unwrap_or_else(|d| panic!("{d:?}")).rom;
    let rom = Rom::from_bytes(&rom_bytes).unwrap();
    let mut host = PolicyHost::new(&rom);
    let mut scanner = Scanner::new(rom, rom.class_by_name("policy").unwrap());
    assert!(scanner.setup().host_features());
    let (mut positions, mut matches) = (0, 0);
    for g in &test {
        replay(g, |p| {
            if p.number % 10 != 0 {
                return;
            }
            host.set_position(p.board, p.colour, p.last, p.prev);
            let at = format!("move {} of {}", p.number, g.name);
            let mut vm = Vec::new();
            for class in ["policy", "policy_features"] {
                let found = scans_agree(&rom, class, p.board, &host, p.colour, &at);
                matches += found.len();
                vm.extend(found);
            }
            vm.sort_unstable();
            // The host's features: the same as the VM's scan of the features class.
            scanner.host = host.clone();
            assert_eq!(scanner.scan(p.board, p.colour), vm.as_slice(), "{at}");
            positions += 1;
        })
        .unwrap();
    }
    assert!(
        positions >= 40 && matches > 1000,
        "{positions} positions, {matches} matches"
    );
}

/// The whole-board, per-point, planned and reference scans of `class` agree exactly; returns
/// the suggestions `(point y * 32 + x, pattern, value)`, each pattern once per point, sorted.
fn scans_agree(
    rom: &Rom<'_>,
    class: &str,
    board: &Board,
    host: &PolicyHost,
    colour: Colour,
    at: &str,
) -> Vec<(u16, u32, i32)> {
    let class = rom.class_by_name(class).unwrap();
    let plan = ScanPlan::new(rom, class).unwrap();
    let mut scratch = Box::new(Scratch::new());
    let mut bufs: [Vec<Match>; 4] = std::array::from_fn(|_| vec![Match::EMPTY; 1 << 15]);
    let q = Query {
        class,
        perspective: colour,
        orientations: Orientations::All,
    };
    let [a, b, c, d] = &mut bufs;
    let mut out = MatchBuf::new(a);
    rom.scan(board, host, &q, &mut scratch, &mut out);
    assert_eq!(out.dropped(), 0);
    let mut pts = MatchBuf::new(b);
    rom.scan_points(board, host, &q, &mut scratch, &mut pts);
    let mut planned = MatchBuf::new(c);
    plan.scan(rom, board, host, &q, &mut scratch, &mut planned);
    let mut refr = MatchBuf::new(d);
    lens_vm::reference::scan(rom, board, host, &q, &mut scratch, &mut refr);
    assert_eq!(out.as_slice(), pts.as_slice(), "per-point scan, {at}");
    assert_eq!(out.as_slice(), planned.as_slice(), "planned scan, {at}");
    assert_eq!(out.as_slice(), refr.as_slice(), "reference scan, {at}");
    let mut found: Vec<(u16, u32, i32)> = out
        .as_slice()
        .iter()
        .filter_map(|m| match m.result {
            MatchResult::Move { x, y, value, .. } => Some(((y * 32 + x) as u16, m.pattern, value)),
            _ => None,
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The features class of a harvest, computed on the host, gives exactly what the VM's scans
/// of it give (every engine agreeing), on 19x19 and 9x9 games where moves follow the last
/// move, so that every feature occurs: edge lines, captures, ataris, self-ataris, distances.
#[test]
fn host_features_are_what_the_vm_finds_in_the_features_class() {
    let mut all = games(0..4, 19, 160, None, true);
    all.extend(games(10..16, 9, 70, None, true));
    let opts = HarvestOptions {
        min_count: 4,
        ..HarvestOptions::default()
    };
    let h = harvest(&all, &opts);
    let text = to_source(&h, &opts, "generated");
    // Distinct values, so a wrong pattern or value shows.
    let (file, _) = lens_dsl::parse(0, &text);
    let values: BTreeMap<String, i32> = file
        .items
        .iter()
        .filter_map(|i| match i {
            lens_dsl::ast::Item::Pattern(p) => Some(p.name.node.clone()),
            _ => None,
        })
        .enumerate()
        .map(|(i, n)| (n, i as i32 * 3 - 40))
        .collect();
    let (text, _) = write_values(&text, &["policy", "policy_features"], &values).unwrap();
    let (_, r) = lens_compiler::compile_str("h.lens", &text, &Default::default());
    let rom_bytes = r.unwrap_or_else(|d| panic!("{d:?}")).rom;
    let rom = Rom::from_bytes(&rom_bytes).unwrap();
    let mut scanner = Scanner::new(rom, rom.class_by_name("policy").unwrap());
    assert_eq!(scanner.setup().vm_features_reason(), None);
    assert!(scanner.setup().host_features());
    let mut host = PolicyHost::new(&rom);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for g in &all {
        replay(g, |p| {
            if p.number % 3 != 0 {
                return;
            }
            host.set_position(p.board, p.colour, p.last, p.prev);
            let at = format!("move {} of {}", p.number, g.name);
            let mut vm = scans_agree(&rom, "policy", p.board, &host, p.colour, &at);
            let features = scans_agree(&rom, "policy_features", p.board, &host, p.colour, &at);
            for f in &features {
                *seen
                    .entry(rom.pattern_name(f.1).unwrap().to_string())
                    .or_default() += 1;
            }
            vm.extend(features);
            vm.sort_unstable();
            scanner.host = host.clone();
            assert_eq!(scanner.scan(p.board, p.colour), vm.as_slice(), "{at}");
        })
        .unwrap();
    }
    for f in [
        "line_1",
        "line_4",
        "capture",
        "atari",
        "self_atari",
        "last_dist_2",
        "last_dist_16",
        "prev_dist_3",
    ] {
        assert!(
            seen.get(f).copied().unwrap_or(0) > 0,
            "{f} never matched: {seen:?}"
        );
    }
}

/// A features class whose patterns differ from the standard ones (here an edited test) is not
/// computed on the host but scanned by the VM: the scores follow the source.
#[test]
fn an_edited_feature_is_scanned_by_the_vm() {
    let train = games(0..3, 9, 40, None, true);
    let opts = HarvestOptions {
        min_count: 3,
        ..HarvestOptions::default()
    };
    let text = to_source(&harvest(&train, &opts), &opts, "generated");
    let edited = text.replace("where line(*) == 1;", "where line(*) <= 2;");
    assert_ne!(edited, text);
    let values: BTreeMap<String, i32> = [("line_1".to_string(), 77)].into();
    let (edited, _) = write_values(&edited, &["policy", "policy_features"], &values).unwrap();
    let (_, r) = lens_compiler::compile_str("e.lens", &edited, &Default::default());
    let rom_bytes = r.unwrap_or_else(|d| panic!("{d:?}")).rom;
    let rom = Rom::from_bytes(&rom_bytes).unwrap();
    let mut scanner = Scanner::new(rom, rom.class_by_name("policy").unwrap());
    assert_eq!(
        scanner.setup().vm_features_reason(),
        Some("pattern `line_1` is not a standard feature")
    );
    let mut host = PolicyHost::new(&rom);
    let mut line2 = 0;
    replay(&train[0], |p| {
        host.set_position(p.board, p.colour, p.last, p.prev);
        let mut vm = scans_agree(&rom, "policy", p.board, &host, p.colour, "edited");
        vm.extend(scans_agree(
            &rom,
            "policy_features",
            p.board,
            &host,
            p.colour,
            "edited",
        ));
        vm.sort_unstable();
        scanner.host = host.clone();
        let found = scanner.scan(p.board, p.colour);
        assert_eq!(found, vm.as_slice());
        // `line_1` now also matches on the second line.
        line2 += found
            .iter()
            .filter(|f| f.2 == 77 && [1, 7].contains(&(f.0 % 32)) && (1..8).contains(&(f.0 / 32)))
            .count();
    })
    .unwrap();
    assert!(line2 > 0);
}
