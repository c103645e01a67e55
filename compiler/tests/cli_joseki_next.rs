//! `lensc joseki next` end to end: continuations after a move list (both orientations of the
//! corner), the end of a line, leaving the book, a bad move list.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BOOK: &str = "( d4 ( c6:urgent ( d6 | f3 ) | e3 c3 ) | c4 d3 )\n";

fn next(moves: &str) -> Output {
    let mut child = Command::new(Path::new(env!("CARGO_BIN_EXE_lensc")))
        .args(["joseki", "next", "-", "-m", moves])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn lensc");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(BOOK.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn continuations_of_both_orientations_are_listed() {
    let o = next("d4");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = stdout(&o);
    // d4 is symmetric: c6 (urgent) and e3 are in the book, f3 and c5 are their reflections.
    for want in [
        "white c6 (urgent)",
        "white f3 (urgent)",
        "white e3",
        "white c5",
    ] {
        assert!(s.contains(want), "{want} missing in:\n{s}");
    }
    assert!(
        s.contains(" 4 ") && s.contains(" X "),
        "a diagram with the stone:\n{s}"
    );
}

#[test]
fn the_end_of_a_line_and_leaving_the_book() {
    let s = stdout(&next("c4 d3"));
    assert!(s.contains("end of the line"), "{s}");
    let s = stdout(&next("c4 d3 e3"));
    assert!(
        s.contains("out of book at move 3 (followed 2 moves)"),
        "{s}"
    );
    let s = stdout(&next("j9"));
    assert!(s.contains("out of book at move 1"), "{s}");
}

#[test]
fn the_empty_corner_offers_the_first_moves_in_both_orientations() {
    let s = stdout(&next(""));
    for want in ["black d4", "black c4", "black d3"] {
        assert!(s.contains(want), "{want} missing in:\n{s}");
    }
}

#[test]
fn a_bad_move_list_is_an_error() {
    let o = next("d4 zz");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--moves"));
}

#[test]
fn a_trailing_tenuki_gives_the_same_side_its_move_after_the_tenuki() {
    // BOOK has black d4, white e3, black c3. After "d4 e3 tenuki" black has passed and white
    // moves again: the book has no white move there (c3 is black's).
    let s = stdout(&next("d4 e3"));
    assert!(s.contains("black c3"), "{s}");
    let s = stdout(&next("d4 e3 tenuki"));
    assert!(!s.contains("black c3"), "black passed, white to move:\n{s}");
    assert!(s.contains("end of the line"), "{s}");
}

#[test]
fn an_off_board_move_is_an_error_naming_it() {
    let o = next("d4 c6 t20");
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("`t20`") && e.contains("move 3"), "{e}");
}
