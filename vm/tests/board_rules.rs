//! Rules of the reference board: captures, ko, suicide, liberties, undo, setup stones.

mod board_common;

use board_common::assert_consistent;
use lens_vm::board::{Board, BoardView, Colour, MovesError, PlayError, Point};

use Colour::{Black as B, White as W};

fn diagram(text: &str) -> Board {
    let b = Board::from_diagram(text).unwrap_or_else(|e| panic!("{e}"));
    assert_consistent(&b);
    b
}

#[test]
fn sizes() {
    assert!(Board::new(4).is_none());
    assert!(Board::new(26).is_none());
    assert!(Board::new(0).is_none());
    for s in [5, 9, 13, 19, 25] {
        let b = Board::new(s).unwrap();
        assert_eq!(b.size(), s);
        assert_eq!(b.point(s as i32 - 1, s as i32 - 1), Point::Empty);
        assert_eq!(b.point(s as i32, 0), Point::Off);
        assert_eq!(b.point(0, -1), Point::Off);
        assert_eq!(b.to_move(), B);
        assert_eq!(b.hash(), 0, "empty board, Black to move");
    }
}

#[test]
fn corner_edge_centre_liberties() {
    let mut b = Board::new(9).unwrap();
    b.play(B, 0, 0).unwrap();
    b.play(W, 4, 0).unwrap();
    b.play(B, 4, 4).unwrap();
    b.play(W, 8, 8).unwrap();
    assert_eq!(b.liberties(0, 0), 2);
    assert_eq!(b.liberties(4, 0), 3);
    assert_eq!(b.liberties(4, 4), 4);
    assert_eq!(b.liberties(8, 8), 2);
    assert_eq!(b.liberties(3, 3), 0, "empty point");
    assert_eq!(b.liberties(-1, 3), 0, "off board");
    // A string of two along the edge shares no liberty twice.
    b.play(B, 1, 0).unwrap();
    assert_eq!(b.liberties(0, 0), 3);
    assert_eq!(b.string_size(1, 0), 2);
    assert!(b.same_string((0, 0), (1, 0)));
    // Joining two strings through a shared liberty counts it once.
    b.play(W, 8, 7).unwrap();
    b.play(B, 4, 2).unwrap();
    b.play(W, 7, 8).unwrap();
    assert_eq!(b.liberties(4, 2), 4);
    b.play(B, 4, 3).unwrap();
    assert_eq!(b.liberties(4, 4), 8, "three in a column, centre");
    assert_consistent(&b);
}

#[test]
fn single_capture_and_undo() {
    let mut b = diagram(
        ". . . . .
         . . X . .
         . X O . .
         . . X . .
         . . . . .",
    );
    assert_eq!(b.liberties(2, 2), 1);
    let before = b.clone();
    b.play(B, 3, 2).unwrap();
    assert_eq!(b.point(2, 2), Point::Empty);
    assert_eq!(b.liberties(3, 2), 4);
    assert_eq!(
        b.liberties(2, 1),
        4,
        "the captured point is a liberty again"
    );
    assert_eq!(b.to_move(), W);
    assert_consistent(&b);
    assert!(b.undo());
    assert_eq!(b, before);
    assert!(!b.undo());
}

#[test]
fn captures_two_strings_at_once() {
    // The Black stone at (2,0) captures the White strings on both sides.
    let mut b = diagram(
        "O O . O O
         X X O X X
         . . X . .
         . . . . .
         . . . . .",
    );
    assert_eq!(b.liberties(0, 0), 1);
    assert_eq!(b.liberties(3, 0), 1);
    assert_eq!(b.liberties(2, 1), 1);
    let before = b.clone();
    b.play(B, 2, 0).unwrap();
    for x in [0, 1, 3, 4] {
        assert_eq!(b.point(x, 0), Point::Empty);
    }
    // (2,1) was captured too: it had (2,0) as its only liberty.
    assert_eq!(b.point(2, 1), Point::Empty);
    assert_eq!(b.liberties(0, 1), 5, "(0,0) (1,0) (2,1) (0,2) (1,2)");
    assert_eq!(b.ko_point(), None, "many stones captured: no ko");
    assert_consistent(&b);
    b.undo();
    assert_eq!(b, before);
    assert_consistent(&b);
}

#[test]
fn simple_ko() {
    let mut b = diagram(
        ". X O . .
         X O . O .
         . X O . .
         . . . . .
         . . . . .",
    );
    let start = b.clone();
    // Black captures at (2,1): a ko.
    b.play(B, 2, 1).unwrap();
    assert_eq!(b.point(1, 1), Point::Empty);
    assert_eq!(b.ko_point(), Some((1, 1)));
    assert_eq!(b.ko_colour(), Some(W));
    assert_eq!(b.check_play(W, 1, 1), Err(PlayError::Ko));
    assert_eq!(b.play(W, 1, 1), Err(PlayError::Ko));
    // The ko is part of the hash.
    let mut no_ko = b.clone();
    no_ko.pass(W).unwrap();
    no_ko.pass(B).unwrap();
    assert_eq!(no_ko.ko_point(), None);
    assert_ne!(no_ko.hash(), b.hash());
    assert_eq!(no_ko.stones_hash(), b.stones_hash());
    // A ko threat elsewhere, an answer, then the retake is legal and is a ko for Black.
    b.play(W, 4, 4).unwrap();
    assert_eq!(b.ko_point(), None);
    b.play(B, 4, 3).unwrap();
    b.play(W, 1, 1).unwrap();
    assert_eq!(b.point(2, 1), Point::Empty);
    assert_eq!(b.ko_point(), Some((2, 1)));
    assert_eq!(b.play(B, 2, 1), Err(PlayError::Ko));
    assert_consistent(&b);
    for _ in 0..4 {
        assert!(b.undo());
        assert_consistent(&b);
    }
    assert_eq!(b, start);
}

#[test]
fn suicide_rejected() {
    let mut b = diagram(
        ". X . . .
         X . . . .
         . . . O O
         . . . O .
         . . . O .",
    );
    let before = b.clone();
    assert_eq!(b.play(W, 0, 0), Err(PlayError::Suicide));
    // A multi-stone suicide: White fills its own last liberty.
    let mut c = diagram(
        "X X X . .
         X O . X .
         X O X . .
         X X . . .
         . . . . .",
    );
    assert_eq!(c.play(W, 2, 1), Err(PlayError::Suicide));
    assert_eq!(c.play(B, 2, 1), Ok(()), "Black captures there");
    assert_eq!(c.point(1, 1), Point::Empty);
    assert_eq!(b.play(B, 1, 0), Err(PlayError::Occupied));
    assert_eq!(b.play(B, 5, 0), Err(PlayError::OffBoard));
    assert_eq!(b.play(B, -1, 0), Err(PlayError::OffBoard));
    assert_eq!(b, before, "errors leave the board unchanged");
}

#[test]
fn capture_is_not_suicide() {
    // White at (0,0) has no liberty of its own but captures the Black stone at (1,0).
    let mut b = diagram(
        ". X O . .
         O O . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    b.play(W, 0, 0).unwrap();
    assert_eq!(b.point(1, 0), Point::Empty);
    assert_eq!(b.liberties(0, 0), 4, "(1,0) (0,2) (1,2) (2,1)");
    assert_consistent(&b);
}

#[test]
fn pass_and_to_move() {
    let mut b = Board::new(9).unwrap();
    let h0 = b.hash();
    b.pass(B).unwrap();
    assert_eq!(b.to_move(), W);
    assert_ne!(b.hash(), h0, "side to move is hashed");
    b.undo();
    assert_eq!(b.to_move(), B);
    assert_eq!(b.hash(), h0);
}

#[test]
fn place_setup_stones() {
    let mut b = Board::new(5).unwrap();
    b.place(B, 1, 0).unwrap();
    b.place(B, 0, 1).unwrap();
    assert_eq!(b.to_move(), B, "placement keeps the side to move");
    assert_eq!(b.place(W, 0, 0), Err(PlayError::Suicide));
    b.place(W, 1, 1).unwrap();
    b.place(W, 2, 0).unwrap();
    // (0,0) for White would capture: not allowed for setup stones.
    b.place(W, 0, 2).unwrap();
    assert_eq!(b.place(W, 0, 0), Err(PlayError::WouldCapture));
    assert_eq!(b.place(B, 1, 1), Err(PlayError::Occupied));
    assert_consistent(&b);
    for _ in 0..5 {
        assert!(b.undo());
    }
    assert_eq!(b, Board::new(5).unwrap());
}

#[test]
fn from_moves() {
    let b = Board::from_moves(9, &[(B, Some((2, 2))), (W, None), (B, Some((3, 2)))]).unwrap();
    assert_eq!(b.string_size(2, 2), 2);
    assert_eq!(b.to_move(), W);
    assert_eq!(b.history_len(), 3);
    assert_eq!(Board::from_moves(3, &[]), Err(MovesError::BadSize(3)));
    let e = Board::from_moves(9, &[(B, Some((2, 2))), (W, Some((2, 2)))]).unwrap_err();
    assert_eq!(
        e,
        MovesError::Illegal {
            index: 1,
            error: PlayError::Occupied
        }
    );
    assert_eq!(e.to_string(), "move 1: point already occupied");
}

#[test]
fn history_capacity() {
    let mut b = Board::new(5).unwrap();
    for i in 0..lens_vm::board::HISTORY_CAPACITY {
        b.pass(if i % 2 == 0 { B } else { W }).unwrap();
    }
    assert_eq!(b.pass(B), Err(PlayError::HistoryFull));
    assert_eq!(b.play(B, 0, 0), Err(PlayError::HistoryFull));
    b.clear_history();
    assert!(!b.undo());
    b.play(B, 0, 0).unwrap();
    assert!(b.undo());
}

#[test]
fn big_capture_then_undo_on_19() {
    let mut b = Board::new(19).unwrap();
    for x in 0..19 {
        b.place(B, x, 0).unwrap();
    }
    for x in 0..18 {
        b.place(W, x, 1).unwrap();
    }
    assert_eq!(b.liberties(0, 0), 1);
    let before = b.clone();
    b.play(W, 18, 1).unwrap();
    assert_eq!(b.row_bits(B, 0), Some(0));
    assert_eq!(b.liberties(0, 1), 38);
    assert_consistent(&b);
    b.undo();
    assert_eq!(b, before);
    assert_consistent(&b);
}

#[test]
fn zobrist_keys_fixed_and_distinct() {
    use lens_vm::board::zobrist_keys as z;
    let mut keys = vec![z::white_to_move()];
    for y in 0..25 {
        for x in 0..25 {
            keys.push(z::stone(B, x, y));
            keys.push(z::stone(W, x, y));
            keys.push(z::ko(x, y));
        }
    }
    assert!(keys.iter().all(|&k| k != 0));
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n, "colliding keys");
    assert_eq!(z::stone(B, 25, 0), 0, "outside 0..25");
    assert_eq!(z::ko(-1, 0), 0);
    // The seed is part of the contract (hashes stored by engines stay valid): pin one value.
    let b = Board::from_moves(19, &[(B, Some((3, 3))), (W, Some((15, 15)))]).unwrap();
    assert_eq!(b.hash(), z::stone(B, 3, 3) ^ z::stone(W, 15, 15));
    assert_eq!(z::SEED, 0x4C45_4E53_5F5A_4F42);
    assert_eq!(z::stone(B, 0, 0), PINNED_BLACK_A19);
}

/// Key of a Black stone at (0, 0): the 29th SplitMix64 output from the seed (padded cell 28),
/// computed independently of the crate.
const PINNED_BLACK_A19: u64 = 0x3cb1_d68f_66c4_7444;

#[test]
fn remove_setup_stones() {
    // Removing the middle stone of a string splits it into two strings.
    let mut b = diagram(
        ". . . . .
         X X X . .
         . . . . .
         . . . . O
         . . . . .
         to_move: W",
    );
    b.play(W, 0, 0).unwrap();
    assert_eq!(b.liberties(0, 1), 6);
    b.remove(1, 1).unwrap();
    assert_eq!(b.history_len(), 0, "history cleared");
    assert_eq!(b.liberties(0, 1), 2);
    assert_eq!(b.liberties(2, 1), 4);
    assert_eq!(b.liberties(0, 0), 1, "(1,0) only");
    assert!(!b.same_string((0, 1), (2, 1)));
    assert_consistent(&b);
    // Same as the diagram of the result (to_move kept: Black after White's play).
    let expect = diagram(
        "O . . . .
         X . X . .
         . . . . .
         . . . . O
         . . . . .
         to_move: B",
    );
    assert_eq!(b, expect);
    assert_eq!(b.remove(1, 1), Err(PlayError::Empty));
    assert_eq!(b.remove(5, 1), Err(PlayError::OffBoard));
    // Play and undo work on the edited position.
    let before = b.clone();
    b.play(B, 1, 1).unwrap();
    assert_eq!(b.liberties(0, 1), 6);
    b.undo();
    assert_eq!(b, before);
}
