//! Text diagrams (parse, print, errors) and coordinate helpers.

mod board_common;

use board_common::assert_consistent;
use lens_vm::board::coords::{
    CoordError, format_sgf_point, format_vertex, parse_sgf_point, parse_vertex,
};
use lens_vm::board::{Board, BoardView, Colour, DiagramError, DiagramErrorKind, Point};

fn err(text: &str) -> DiagramError {
    Board::from_diagram(text).expect_err("diagram should be rejected")
}

#[test]
fn parses_cells_and_side() {
    let b = Board::from_diagram(
        "X O . + .
         .....
         ..X..
         . . . . .
         . . . . O
         to_move: W",
    )
    .unwrap();
    assert_eq!(b.size(), 5);
    assert_eq!(b.point(0, 0), Point::Stone(Colour::Black));
    assert_eq!(b.point(1, 0), Point::Stone(Colour::White));
    assert_eq!(b.point(3, 0), Point::Empty);
    assert_eq!(b.point(2, 2), Point::Stone(Colour::Black));
    assert_eq!(b.point(4, 4), Point::Stone(Colour::White));
    assert_eq!(b.to_move(), Colour::White);
    assert_eq!(b.history_len(), 0);
    assert_eq!(b.liberties(0, 0), 1);
    assert_consistent(&b);
}

#[test]
fn display_round_trip() {
    let mut b = Board::new(9).unwrap();
    for (i, &(x, y)) in [(2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (3, 3), (5, 5)]
        .iter()
        .enumerate()
    {
        b.play(
            if i % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            },
            x,
            y,
        )
        .unwrap();
    }
    let text = b.to_string();
    assert!(text.starts_with(". . . . . . . . .\n"), "{text}");
    assert!(text.ends_with("to_move: W\n"), "{text}");
    let c = Board::from_diagram(&text).unwrap();
    assert_eq!(c.to_string(), text);
    assert_eq!(c.hash(), b.hash());
    for y in 0..9 {
        for x in 0..9 {
            assert_eq!(c.point(x, y), b.point(x, y));
            assert_eq!(c.liberties(x, y), b.liberties(x, y));
        }
    }
    assert_eq!(b.to_diagram().to_string(), text);
}

#[test]
fn round_trip_25() {
    let mut text = String::new();
    for y in 0..25 {
        for x in 0..25 {
            text.push(match (x * 7 + y * 3) % 5 {
                0 => 'X',
                1 => 'O',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let b = Board::from_diagram(&text).unwrap();
    assert_eq!(b.size(), 25);
    assert_consistent(&b);
    let again = Board::from_diagram(&b.to_string()).unwrap();
    assert_eq!(again, b);
}

#[test]
fn errors_have_positions() {
    let e = err(". . . . .\n. . Z . .\n. . . . .\n. . . . .\n. . . . .\n");
    assert_eq!(
        (e.line, e.column, e.kind),
        (2, 5, DiagramErrorKind::UnexpectedChar('Z'))
    );
    assert_eq!(
        e.to_string(),
        "line 2, column 5: unexpected character 'Z' (expected X, O, . or +)"
    );

    let e = err(".....\n....\n.....\n.....\n.....\n");
    assert_eq!(
        (e.line, e.kind),
        (
            2,
            DiagramErrorKind::RaggedRow {
                expected: 5,
                found: 4
            }
        )
    );

    let e = err("......\n......\n......\n......\n......\n");
    assert_eq!(
        (e.line, e.kind),
        (
            1,
            DiagramErrorKind::NotSquare {
                rows: 5,
                columns: 6
            }
        )
    );

    let e = err("....\n....\n....\n....\n");
    assert_eq!(e.kind, DiagramErrorKind::TooSmall { rows: 4 });

    assert_eq!(err("").kind, DiagramErrorKind::Empty);
    assert_eq!(err("\n  \nto_move: B\n").kind, DiagramErrorKind::Empty);

    let e = err("to_move: Q\n.....\n.....\n.....\n.....\n.....\n");
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 10, DiagramErrorKind::BadToMove)
    );
    let e = err(".....\n.....\n.....\n.....\n.....\nto_move: B\nto_move: W\n");
    assert_eq!((e.line, e.kind), (7, DiagramErrorKind::BadToMove));
    let e = err(".....\n.....\n.....\n.....\n.....\nto_move B\n");
    assert_eq!((e.line, e.kind), (6, DiagramErrorKind::BadToMove));

    // A captured-looking string: the White stone in the corner has no liberty.
    let e = err("OX...\nX....\n.....\n.....\n.....\n");
    assert_eq!(
        (e.line, e.column, e.kind),
        (1, 1, DiagramErrorKind::NoLiberties)
    );

    let big = ".".repeat(26) + "\n";
    assert_eq!(err(&big).kind, DiagramErrorKind::TooLarge);
    let tall = ".....\n".repeat(26);
    assert_eq!(err(&tall).kind, DiagramErrorKind::TooLarge);
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "\u{0}",
        "XXXXX\nXXXXX\nXXXXX\nXXXXX\nXXXXX",
        "é",
        "to_move:",
        "to_move:\u{1F600}",
        "X\r\nO\r\n",
    ];
    for s in samples {
        let _ = Board::from_diagram(s);
    }
    // Full board of one colour: no liberties.
    assert_eq!(
        err("XXXXX\nXXXXX\nXXXXX\nXXXXX\nXXXXX").kind,
        DiagramErrorKind::NoLiberties
    );
    // Windows line endings are fine.
    let b =
        Board::from_diagram("X....\r\n.....\r\n.....\r\n.....\r\n....O\r\nto_move: W\r\n").unwrap();
    assert_eq!(b.to_move(), Colour::White);
}

#[test]
fn gtp_vertices() {
    assert_eq!(parse_vertex("A1", 19), Ok(Some((0, 18))));
    assert_eq!(parse_vertex("D4", 19), Ok(Some((3, 15))));
    assert_eq!(
        parse_vertex("j10", 19),
        Ok(Some((8, 9))),
        "J follows H (no I)"
    );
    assert_eq!(parse_vertex("T19", 19), Ok(Some((18, 0))));
    assert_eq!(parse_vertex("PASS", 19), Ok(None));
    assert_eq!(parse_vertex("I5", 19), Err(CoordError::Malformed));
    assert_eq!(parse_vertex("U1", 19), Err(CoordError::OutOfRange));
    assert_eq!(parse_vertex("A20", 19), Err(CoordError::OutOfRange));
    assert_eq!(parse_vertex("A0", 19), Err(CoordError::Malformed));
    assert_eq!(parse_vertex("", 19), Err(CoordError::Malformed));
    assert_eq!(parse_vertex("A1", 4), Err(CoordError::BadSize));
    assert_eq!(parse_vertex("Z25", 25), Ok(Some((24, 0))));
    assert_eq!(format_vertex(3, 15, 19).unwrap().as_str(), "D4");
    assert_eq!(format_vertex(8, 9, 19).unwrap().to_string(), "J10");
    assert_eq!(format_vertex(19, 0, 19), None);
    for size in [5u8, 9, 19, 25] {
        for y in 0..size as i32 {
            for x in 0..size as i32 {
                let name = format_vertex(x, y, size).unwrap();
                assert_eq!(
                    parse_vertex(name.as_str(), size),
                    Ok(Some((x, y))),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn sgf_points() {
    assert_eq!(parse_sgf_point("dd", 19), Ok(Some((3, 3))));
    assert_eq!(parse_sgf_point("aa", 19), Ok(Some((0, 0))));
    assert_eq!(parse_sgf_point("sa", 19), Ok(Some((18, 0))));
    assert_eq!(parse_sgf_point("", 19), Ok(None));
    assert_eq!(parse_sgf_point("tt", 19), Ok(None));
    assert_eq!(parse_sgf_point("tt", 25), Ok(Some((19, 19))));
    assert_eq!(parse_sgf_point("ta", 19), Err(CoordError::OutOfRange));
    assert_eq!(parse_sgf_point("D4", 19), Err(CoordError::Malformed));
    assert_eq!(parse_sgf_point("abc", 19), Err(CoordError::Malformed));
    assert_eq!(format_sgf_point(3, 3).unwrap().as_str(), "dd");
    assert_eq!(format_sgf_point(25, 0), None);
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Text made of diagram-ish pieces, so that many inputs are nearly valid.
    fn diagramish() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            8 => Just("."), 3 => Just("X"), 3 => Just("O"), 1 => Just("+"), 2 => Just(" "),
            2 => Just("\n"), 1 => Just("to_move: W\n"), 1 => Just("to_move:"), 1 => Just("\r\n"),
            1 => Just("\t"), 1 => Just("é"), 1 => Just("Z"),
        ];
        prop::collection::vec(piece, 0..400).prop_map(|v| v.concat())
    }

    /// A valid random diagram of the given size (stones only where they keep a liberty).
    fn valid(size: usize, cells: &[u8]) -> String {
        let mut s = String::new();
        for y in 0..size {
            for x in 0..size {
                // Keep every other column empty: every string then has a liberty.
                let c = if x % 2 == 1 {
                    '.'
                } else {
                    ['.', 'X', 'O'][cells[y * size + x] as usize % 3]
                };
                s.push(c);
            }
            s.push('\n');
        }
        s
    }

    proptest! {
        #[test]
        fn never_panics(text in diagramish()) {
            match Board::from_diagram(&text) {
                Ok(b) => {
                    // Anything accepted prints to a diagram that parses back to the same board.
                    let again = Board::from_diagram(&b.to_string()).unwrap();
                    prop_assert_eq!(again, b);
                }
                Err(e) => {
                    prop_assert!(e.line >= 1 && e.column >= 1);
                    prop_assert!(e.line as usize <= text.lines().count().max(1));
                }
            }
        }

        #[test]
        fn valid_diagrams_round_trip(size in 5usize..=25, cells in prop::collection::vec(any::<u8>(), 625),
                                     white in any::<bool>()) {
            let mut text = valid(size, &cells);
            if white {
                text.push_str("to_move: W\n");
            }
            let b = Board::from_diagram(&text).unwrap();
            assert_consistent(&b);
            let printed = b.to_string();
            let expected_rows: Vec<String> = text.lines().filter(|l| !l.starts_with("to_move"))
                .map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
            let printed_rows: Vec<&str> = printed.lines().filter(|l| !l.starts_with("to_move")).collect();
            prop_assert_eq!(printed_rows, expected_rows);
            prop_assert_eq!(b.to_move(), if white { Colour::White } else { Colour::Black });
        }
    }
}
