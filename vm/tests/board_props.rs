//! Properties of the reference board over random games: incrementally kept liberties, row
//! bitboards and hash always equal a from-scratch recomputation, and undo restores every
//! earlier position bit for bit.

mod board_common;

use board_common::assert_consistent;
use lens_vm::board::{Board, BoardView, Colour, PlayError, Point};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Op {
    Play(bool, u16),
    Place(bool, u16),
    Pass(bool),
    Remove(u16),
    Undo,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        40 => (any::<bool>(), any::<u16>()).prop_map(|(c, p)| Op::Play(c, p)),
        2 => (any::<bool>(), any::<u16>()).prop_map(|(c, p)| Op::Place(c, p)),
        1 => any::<bool>().prop_map(Op::Pass),
        1 => any::<u16>().prop_map(Op::Remove),
        3 => Just(Op::Undo),
    ]
}

fn colour(black: bool) -> Colour {
    if black { Colour::Black } else { Colour::White }
}

/// Runs the ops, checking consistency after each one and keeping the position after every
/// recorded move; then undoes everything, comparing with each kept position on the way back.
fn run(size: u8, ops: &[Op], check_every: usize) -> Result<(), TestCaseError> {
    let mut b = Board::new(size).unwrap();
    let mut stack: Vec<Board> = vec![b.clone()];
    let mut base = b.clone();
    let n = size as u16 * size as u16;
    let mut captures_seen = 0;
    for (i, &o) in ops.iter().enumerate() {
        let before = b.clone();
        let r = match o {
            Op::Play(c, p) => b.play(
                colour(c),
                (p % n % size as u16) as i32,
                (p % n / size as u16) as i32,
            ),
            Op::Place(c, p) => b.place(
                colour(c),
                (p % n % size as u16) as i32,
                (p % n / size as u16) as i32,
            ),
            Op::Pass(c) => b.pass(colour(c)),
            Op::Remove(p) => {
                if b.remove((p % n % size as u16) as i32, (p % n / size as u16) as i32)
                    .is_ok()
                {
                    // A removal starts a new history: the current position is the new base.
                    prop_assert_eq!(b.history_len(), 0);
                    stack = vec![b.clone()];
                    base = b.clone();
                }
                assert_consistent(&b);
                continue;
            }
            Op::Undo => {
                if b.undo() {
                    stack.pop();
                    prop_assert_eq!(&b, stack.last().unwrap(), "undo at op {}", i);
                }
                continue;
            }
        };
        match r {
            Ok(()) => {
                let stones = |b: &Board| {
                    b.to_string()
                        .chars()
                        .filter(|c| *c == 'X' || *c == 'O')
                        .count()
                };
                if stones(&b) < stones(&before) {
                    captures_seen += 1;
                }
                stack.push(b.clone());
            }
            Err(e) => {
                prop_assert!(e != PlayError::HistoryFull);
                prop_assert_eq!(&b, &before, "a refused move changed the board");
            }
        }
        if i % check_every == 0 {
            assert_consistent(&b);
        }
    }
    assert_consistent(&b);
    while b.undo() {
        stack.pop();
        prop_assert_eq!(&b, stack.last().unwrap());
    }
    prop_assert_eq!(stack.len(), 1);
    prop_assert_eq!(&b, &base);
    let _ = captures_seen;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Small boards fill up: many captures, multi-string merges and kos.
    #[test]
    fn small_boards(size in 5u8..=7, ops in prop::collection::vec(op(), 0..400)) {
        run(size, &ops, 1)?;
    }

    #[test]
    fn larger_boards(size in prop::sample::select(vec![9u8, 13, 19, 25]), ops in prop::collection::vec(op(), 0..500)) {
        run(size, &ops, 25)?;
    }
}

/// Dense random games on 5x5 really exercise captures and ko (so the properties above are not
/// vacuous): deterministic pseudo-random games, each undone to the empty board at its end.
#[test]
fn random_games_capture_and_ko() {
    let mut state = 12345u64;
    let (mut captures, mut kos, mut moves) = (0, 0, 0);
    for _game in 0..20 {
        let mut b = Board::new(5).unwrap();
        let mut failures = 0;
        let mut passes = 0;
        while passes < 2 && b.history_len() < 900 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = (state >> 33) as i32 % 25;
            let (x, y) = (p % 5, p / 5);
            let c = b.to_move();
            // Random players who never fill their own eyes keep capturing instead of stalling.
            let own_eye = [(0, -1), (-1, 0), (1, 0), (0, 1)].iter().all(|(dx, dy)| {
                matches!(b.point(x + dx, y + dy), Point::Off | Point::Stone(_))
                    && b.point(x + dx, y + dy) != Point::Stone(c.opponent())
            });
            let stones_before = b.to_string().matches(['X', 'O']).count();
            if !own_eye && b.play(c, x, y).is_ok() {
                moves += 1;
                failures = 0;
                passes = 0;
                if b.to_string().matches(['X', 'O']).count() < stones_before + 1 {
                    captures += 1;
                }
                if b.ko_point().is_some() {
                    kos += 1;
                }
                assert_consistent(&b);
            } else {
                failures += 1;
                if failures > 100 {
                    b.pass(c).unwrap();
                    passes += 1;
                    failures = 0;
                }
            }
        }
        while b.undo() {}
        assert_eq!(b, Board::new(5).unwrap());
    }
    assert!(moves > 500, "moves {moves}");
    assert!(captures > 50, "captures {captures}");
    assert!(kos > 0, "kos {kos}");
}

fn tag(e: PlayError) -> &'static str {
    match e {
        PlayError::OffBoard => "off",
        PlayError::Occupied => "occupied",
        PlayError::Ko => "ko",
        PlayError::Suicide => "suicide",
        other => panic!("unexpected {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Differential: the same moves on the naive board give the same verdicts (legal, or the same
    /// reason), the same stones, liberties and ko.
    #[test]
    fn agrees_with_naive_board(size in 5u8..=7, moves in prop::collection::vec((any::<bool>(), any::<u16>(), 0u8..30), 0..300)) {
        let mut b = Board::new(size).unwrap();
        let mut naive = board_common::NaiveBoard::new(size);
        let n = size as u16;
        for (black, p, kind) in moves {
            let c = colour(black);
            if kind == 0 {
                b.pass(c).unwrap();
                naive.pass();
            } else {
                // Mostly the side to move (real games), sometimes the other colour.
                let c = if kind < 25 { b.to_move() } else { c };
                let (x, y) = ((p % (n * n) % n) as i32, (p % (n * n) / n) as i32);
                let (x, y) = if kind == 29 { (x - 1, y + size as i32 - 1) } else { (x, y) };
                let real = b.play(c, x, y).map_err(tag);
                let expect = naive.play(c, x, y);
                prop_assert_eq!(real, expect, "{:?} at ({},{})\n{}", c, x, y, b);
            }
            naive.assert_same(&b);
        }
    }
}
