//! The `policy` class the build script made (trained from the corpus, or the hand-set
//! fallback): it loads, its predicates are the ones `PolicyHost` answers, its matches agree
//! across the scan kernels and the reference matcher, and its scores rank captures and
//! replies near the last move above quiet first-line moves.

use lens_compiler::learn::PolicyHost;
use lens_vm::board::{Board, Colour};
use lens_vm::matching::ScanPlan;
use lens_vm::{Match, MatchBuf, MatchResult, Orientations, Query, Scratch};

#[test]
fn the_policy_image_loads_with_its_class_and_predicates() {
    let rom = lens_stdlib::policy_rom();
    assert!(rom.class_by_name(lens_stdlib::POLICY).is_some());
    let externs: Vec<&str> = (0..rom.extern_count())
        .map(|i| rom.extern_info(i).0)
        .collect();
    assert_eq!(externs, ["last_dist", "prev_dist", "self_atari"]);
    assert!(["trained", "fallback"].contains(&lens_stdlib::POLICY_ORIGIN));
    assert!(lens_stdlib::POLICY_SOURCE.contains("class policy"));
    if lens_stdlib::POLICY_ORIGIN == "fallback" {
        let fallback =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policy/fallback.lens"))
                .unwrap();
        assert_eq!(lens_stdlib::POLICY_SOURCE, fallback);
    }
}

/// A black stone in atari (E5) with its last liberty at E4, a lone black stone at G3.
fn position() -> Board {
    Board::from_diagram(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . O . . . .
         . . . O X O . . .
         . . . . . . . . .
         . . . . . . X . .
         . . . . . . . . .
         . . . . . . . . .
         to_move: W",
    )
    .unwrap()
}

#[test]
fn scans_agree_with_the_reference_matcher_on_the_policy_class() {
    let rom = lens_stdlib::policy_rom();
    let class = rom.class_by_name(lens_stdlib::POLICY).unwrap();
    let plan = ScanPlan::new(&rom, class).unwrap();
    let mut board = position();
    let mut host = PolicyHost::new(&rom);
    let mut scratch = Box::new(Scratch::new());
    let mut slots = vec![vec![Match::EMPTY; 1 << 14]; 3];
    for colour in [Colour::Black, Colour::White] {
        host.set_position(&mut board, colour, Some((6, 6)), Some((4, 3)));
        let q = Query {
            class,
            perspective: colour,
            orientations: Orientations::All,
        };
        let [a, b, c] = &mut slots[..] else {
            unreachable!()
        };
        let mut fast = MatchBuf::new(a);
        rom.scan(&board, &host, &q, &mut scratch, &mut fast);
        let mut planned = MatchBuf::new(b);
        plan.scan(&rom, &board, &host, &q, &mut scratch, &mut planned);
        let mut reference = MatchBuf::new(c);
        lens_vm::reference::scan(&rom, &board, &host, &q, &mut scratch, &mut reference);
        assert!(!fast.is_empty());
        assert_eq!(fast.as_slice(), planned.as_slice());
        assert_eq!(fast.as_slice(), reference.as_slice());
    }
}

#[test]
fn capturing_scores_above_a_first_line_move() {
    let rom = lens_stdlib::policy_rom();
    let class = rom.class_by_name(lens_stdlib::POLICY).unwrap();
    let mut board = position();
    let mut host = PolicyHost::new(&rom);
    host.set_position(&mut board, Colour::White, Some((6, 6)), Some((4, 3)));
    let q = Query {
        class,
        perspective: Colour::White,
        orientations: Orientations::All,
    };
    let mut slots = vec![Match::EMPTY; 1 << 14];
    let mut out = MatchBuf::new(&mut slots);
    let mut scratch = Box::new(Scratch::new());
    rom.scan(&board, &host, &q, &mut scratch, &mut out);
    // Score per point: the sum over distinct patterns.
    let score = |x: i32, y: i32| {
        let mut seen = Vec::new();
        out.as_slice()
            .iter()
            .filter(|m| {
                m.focus == (x, y) && !seen.contains(&m.pattern) && {
                    seen.push(m.pattern);
                    true
                }
            })
            .map(|m| match m.result {
                MatchResult::Move { value, .. } => value,
                _ => 0,
            })
            .sum::<i32>()
    };
    // (4, 5) captures the black stone at (4, 4); (0, 0) and (8, 8) are quiet corner moves.
    assert!(
        score(4, 5) > score(0, 0) + 100,
        "{} vs {}",
        score(4, 5),
        score(0, 0)
    );
    assert!(score(4, 5) > score(8, 8) + 100);
}
