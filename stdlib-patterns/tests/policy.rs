//! The `policy` class the build script made (trained from the corpus, or the hand-set
//! fallback) with its features class: it loads, its predicates are the ones `PolicyHost`
//! answers, its matches agree across the scan kernels, the reference matcher and the host's
//! features, and its scores rank captures and replies near the last move above quiet
//! first-line moves.

use lens_compiler::learn::{PolicyHost, Scanner};
use lens_vm::board::{Board, Colour};
use lens_vm::matching::ScanPlan;
use lens_vm::{Match, MatchBuf, MatchResult, Orientations, Query, Scratch};

#[test]
fn the_policy_image_loads_with_its_class_and_predicates() {
    let rom = lens_stdlib::policy_rom();
    assert!(rom.class_by_name(lens_stdlib::POLICY).is_some());
    assert!(rom.class_by_name("policy_features").is_some());
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

/// Every pattern of the policy's two classes (shapes, features) matching `board` with `colour`
/// to move, by the whole-board, planned and reference scans, which must agree:
/// `(point y * 32 + x, pattern id, value)`, each pattern once per point, sorted.
fn vm_suggestions(board: &Board, host: &PolicyHost, colour: Colour) -> Vec<(u16, u32, i32)> {
    let rom = lens_stdlib::policy_rom();
    let mut scratch = Box::new(Scratch::new());
    let mut slots = vec![vec![Match::EMPTY; 1 << 14]; 3];
    let mut all = Vec::new();
    for name in [lens_stdlib::POLICY, "policy_features"] {
        let class = rom.class_by_name(name).unwrap();
        let plan = ScanPlan::new(&rom, class).unwrap();
        let q = Query {
            class,
            perspective: colour,
            orientations: Orientations::All,
        };
        let [a, b, c] = &mut slots[..] else {
            unreachable!()
        };
        let mut fast = MatchBuf::new(a);
        rom.scan(board, host, &q, &mut scratch, &mut fast);
        let mut planned = MatchBuf::new(b);
        plan.scan(&rom, board, host, &q, &mut scratch, &mut planned);
        let mut reference = MatchBuf::new(c);
        lens_vm::reference::scan(&rom, board, host, &q, &mut scratch, &mut reference);
        assert_eq!(fast.as_slice(), planned.as_slice());
        assert_eq!(fast.as_slice(), reference.as_slice());
        all.extend(fast.as_slice().iter().filter_map(|m| match m.result {
            MatchResult::Move { x, y, value, .. } => Some(((y * 32 + x) as u16, m.pattern, value)),
            _ => None,
        }));
    }
    all.sort_unstable();
    all.dedup();
    all
}

#[test]
fn scans_agree_with_the_reference_matcher_and_the_host_features() {
    let rom = lens_stdlib::policy_rom();
    let mut scanner = Scanner::new(rom, rom.class_by_name(lens_stdlib::POLICY).unwrap());
    // The image's features are the standard ones: the engine computes them on the host.
    assert_eq!(scanner.setup().vm_features_reason(), None);
    assert!(scanner.setup().host_features());
    let mut board = position();
    for colour in [Colour::Black, Colour::White] {
        scanner
            .host
            .set_position(&mut board, colour, Some((6, 6)), Some((4, 3)));
        let vm = vm_suggestions(&board, &scanner.host, colour);
        assert!(!vm.is_empty());
        assert_eq!(scanner.scan(&board, colour), vm.as_slice());
    }
}

#[test]
fn capturing_scores_above_a_first_line_move() {
    let rom = lens_stdlib::policy_rom();
    let mut board = position();
    let mut host = PolicyHost::new(&rom);
    host.set_position(&mut board, Colour::White, Some((6, 6)), Some((4, 3)));
    let found = vm_suggestions(&board, &host, Colour::White);
    // Score per point: the sum over distinct patterns of both classes.
    let score = |x: i32, y: i32| {
        found
            .iter()
            .filter(|f| f.0 == (y * 32 + x) as u16)
            .map(|f| f.2)
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
