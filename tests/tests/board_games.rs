//! Real games (GNU Go's regression game records in `../shared/data`): replaying every move keeps
//! liberties, row bitboards and hash equal to their recomputation, the reference positions equal
//! GNU Go's own board dumps, and undoing everything gives back the empty board.
//!
//! These tests live in lens-tests (not lens-vm) for its build script: without `../shared/data`
//! they show as `ignored` with the reason, instead of passing while doing nothing.

// The board's own recomputation helpers, shared with lens-vm's board tests.
#[path = "../../vm/tests/board_common/mod.rs"]
mod board_common;

use std::path::PathBuf;

use board_common::assert_consistent;
use lens_vm::board::coords::format_vertex;
use lens_vm::board::{Board, BoardView, Colour, Point};
use sgf_parse::go::{Move, Prop};

/// GNU Go's data folder; the tests that call this are ignored when `../shared/data` is absent.
fn data() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/gnugo");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    dir
}

/// Replays a game record; calls `at(move_number, board)` before each move (1-based) and after
/// the last one. Setup stones (`AB`/`AW`) are placed; `AE` (dead-stone removal at the end of one
/// record) is ignored.
fn replay(text: &str, mut at: impl FnMut(usize, &Board)) -> Board {
    let roots = sgf_parse::go::parse(text).expect("game record parses");
    let mut b = Board::new(19).unwrap();
    let mut n = 1;
    for node in roots[0].main_variation() {
        for p in node.properties() {
            match p {
                Prop::AB(points) | Prop::AW(points) => {
                    let c = if matches!(p, Prop::AB(_)) {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    for pt in points {
                        b.place(c, pt.x as i32, pt.y as i32).unwrap();
                    }
                }
                Prop::B(m) | Prop::W(m) => {
                    let c = if matches!(p, Prop::B(_)) {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    at(n, &b);
                    match m {
                        Move::Move(pt) if pt.x < 19 && pt.y < 19 => {
                            let (x, y) = (pt.x as i32, pt.y as i32);
                            b.play(c, x, y).unwrap_or_else(|e| {
                                panic!("move {n} {:?}: {e}", format_vertex(x, y, 19))
                            });
                        }
                        _ => b.pass(c).unwrap(),
                    }
                    n += 1;
                }
                _ => {}
            }
        }
    }
    at(n, &b);
    b
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn replay_games_and_undo() {
    let dir = data();
    let mut files: Vec<_> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let mut total = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut hashes = Vec::new();
        let mut b = replay(&text, |n, b| {
            if n % 5 == 0 {
                assert_consistent(b);
            }
            hashes.push(b.hash());
        });
        assert_consistent(&b);
        total += b.history_len();
        // Undo walks back through exactly the hashes seen on the way forward.
        hashes.pop();
        while let Some(h) = hashes.pop() {
            if b.history_len() == 0 {
                break;
            }
            b.undo();
            assert_eq!(b.hash(), h, "{f:?}");
        }
        while b.undo() {}
        assert_eq!(b, Board::new(19).unwrap(), "{f:?}");
    }
    assert!(total > 1000, "{total} moves");
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn reference_positions_match_gnugo() {
    let dir = data();
    let boards = std::fs::read_to_string(dir.join("oracle/boards.txt")).unwrap();
    let mut checked = 0;
    for line in boards
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, to_move, rows) = (cols[0], cols[1], &cols[2..]);
        assert_eq!(rows.len(), 19, "{id}");
        let (file, n) = id.rsplit_once(':').unwrap();
        let n: usize = n.parse().unwrap();
        let text = std::fs::read_to_string(dir.join("games").join(file)).unwrap();
        let mut found = false;
        replay(&text, |k, b| {
            if k != n {
                return;
            }
            found = true;
            let side = if to_move == "B" {
                Colour::Black
            } else {
                Colour::White
            };
            assert_eq!(b.to_move(), side, "{id}");
            for (y, r) in rows.iter().enumerate() {
                for (x, ch) in r.chars().enumerate() {
                    let want = match ch {
                        'X' => Point::Stone(Colour::Black),
                        'O' => Point::Stone(Colour::White),
                        _ => Point::Empty,
                    };
                    assert_eq!(b.point(x as i32, y as i32), want, "{id} at ({x},{y})");
                }
            }
        });
        assert!(found, "{id}: game shorter than {n} moves");
        checked += 1;
    }
    assert_eq!(checked, 32);
}
