//! Incremental 3x3 codes (`lens_vm::incremental::Codes3x3`): after every change the kept codes
//! equal their recomputation from the board (the lookup tables' `lut::code` from a window
//! cut, both perspectives, and atari bits from the liberty counts): on every move of the GNU
//! Go game records and back through undo, on random games with captures, undos and setup
//! removals on every board size, and on a board that only answers `point()`.

mod incremental_support;

use incremental_support::*;
use lens_vm::board::{Board, BoardView, Colour, Point};
use lens_vm::incremental::Codes3x3;
use lens_vm::internals::lut::{self, NEIGHBOURS};

/// Atari bits recomputed: orthogonal neighbour `i` is a stone with one liberty.
fn atari_bits<B: BoardView>(b: &B, x: i32, y: i32) -> u8 {
    let mut bits = 0;
    for (i, &(dx, dy)) in NEIGHBOURS[..4].iter().enumerate() {
        let (nx, ny) = (x + dx as i32, y + dy as i32);
        if matches!(b.point(nx, ny), Point::Stone(_)) && b.liberties(nx, ny) == 1 {
            bits |= 1 << i;
        }
    }
    bits
}

fn check<B: BoardView>(codes: &Codes3x3, b: &B, what: &dyn Fn() -> String) {
    let n = b.size() as i32;
    for y in 0..n {
        for x in 0..n {
            for persp in [Colour::Black, Colour::White] {
                assert_eq!(
                    codes.code(persp, x, y),
                    lut::code(b, persp, x, y),
                    "code of ({x}, {y}) for {persp:?}, {}",
                    what()
                );
            }
            assert_eq!(
                codes.atari(x, y),
                atari_bits(b, x, y),
                "atari bits of ({x}, {y}), {}",
                what()
            );
        }
    }
}

#[test]
fn codes_follow_every_move_of_the_games_and_their_undo() {
    let Some(dir) = gnugo_dir() else { return };
    let games = games(&dir);
    assert!(games.len() >= 8);
    let mut moves = 0;
    for (name, steps) in &games {
        let mut b = Board::new(19).unwrap();
        let mut codes = Codes3x3::new(&b);
        for (i, s) in steps.iter().enumerate() {
            s.apply(&mut b);
            codes.update(&b);
            check(&codes, &b, &|| format!("{name} after step {}", i + 1));
            moves += 1;
        }
        let mut i = steps.len();
        while b.undo() {
            i -= 1;
            codes.update(&b);
            check(&codes, &b, &|| format!("{name} after undoing to step {i}"));
        }
        assert_eq!(codes.code(Colour::Black, 9, 9), (2, 0xAAAA), "empty again");
    }
    assert!(moves > 2000, "{moves} moves");
}

#[test]
fn codes_follow_random_games_with_undo_and_removals_on_every_size() {
    let mut rng = Rng(0x3C0DE5);
    for size in [5u8, 6, 7, 9, 13, 19, 24, 25] {
        let mut b = Board::new(size).unwrap();
        let mut codes = Codes3x3::new(&b);
        let mut captures = 0;
        for i in 0..4 * size as usize * size as usize {
            let stones = count_stones(&b);
            let did = random_step(&mut rng, &mut b);
            if did == Did::Played && count_stones(&b) < stones {
                captures += 1;
            }
            codes.update(&b);
            check(&codes, &b, &|| format!("size {size}, step {i} ({did:?})"));
        }
        assert!(captures > 0, "size {size}: no capture exercised");
    }
}

fn count_stones(b: &Board) -> usize {
    let n = b.size() as i32;
    (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .filter(|&(x, y)| matches!(b.get(x, y), Point::Stone(_)))
        .count()
}

/// An engine's board without row bitboards: only `point()` and `liberties()`.
use lens_vm::internals::PointsOnly;

#[test]
fn codes_follow_a_board_that_only_answers_point_reads() {
    let mut rng = Rng(77);
    let mut b = Board::new(9).unwrap();
    let mut codes = Codes3x3::new(&PointsOnly(&b));
    for i in 0..400 {
        // Several changes between updates: the diff sees them all at once.
        for _ in 0..1 + rng.below(3) {
            random_step(&mut rng, &mut b);
        }
        codes.update(&PointsOnly(&b));
        check(&codes, &PointsOnly(&b), &|| format!("step {i}"));
    }
    // A board of another size is rebuilt from scratch.
    let b13 = Board::from_moves(13, &[(Colour::Black, Some((12, 12)))]).unwrap();
    codes.update(&b13);
    check(&codes, &b13, &|| "13x13".into());
}
