//! The `gtp` example's engine, as a user embeds Lens: self-play games checked move by move on
//! an independent board, the joseki book taken where it applies, and a scripted GTP session.

#[allow(dead_code)]
#[path = "../examples/gtp/engine.rs"]
mod engine;
#[allow(dead_code)]
#[path = "../examples/gtp/ownership.rs"]
mod ownership;
#[allow(dead_code)]
#[path = "../examples/gtp/protocol.rs"]
mod protocol;

use engine::{Engine, Source};
use lens_vm::board::{Board, coords};
use lens_vm::{Colour, Point};

/// A true single-point eye of `colour`: every neighbour its stone, and the diagonals held
/// (at most one foe diagonal in the middle, none on the edge).
fn true_eye(board: &Board, colour: Colour, x: i32, y: i32) -> bool {
    if !engine::own_eye(board, colour, x, y) {
        return false;
    }
    let mut foe = 0;
    let mut off = 0;
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        match board.get(x + dx, y + dy) {
            Point::Off => off += 1,
            Point::Stone(c) if c != colour => foe += 1,
            _ => {}
        }
    }
    foe + (off > 0) as i32 <= 1
}

struct Game {
    moves: usize,
    passes_at_end: usize,
    sources: Vec<Source>,
}

/// Self-play to two passes or `cap` moves; every move is replayed on an independent board.
fn self_play(size: u8, cap: usize) -> Game {
    let mut e = Engine::new(size).unwrap();
    let mut referee = Board::new(size).unwrap();
    let mut colour = Colour::Black;
    let mut passes = 0;
    let mut sources = Vec::new();
    let mut moves = 0;
    while moves < cap && passes < 2 {
        let choice = e.genmove(colour);
        sources.push(choice.source);
        match choice.at {
            None => {
                passes += 1;
                referee.pass(colour).unwrap();
            }
            Some((x, y)) => {
                passes = 0;
                assert!(
                    !engine::own_eye(&referee, colour, x, y),
                    "{size}x{size} move {moves}: {colour:?} fills its own eye at ({x}, {y})\n{referee}"
                );
                assert!(!true_eye(&referee, colour, x, y));
                if let Err(err) = referee.play(colour, x, y) {
                    panic!(
                        "{size}x{size} move {moves}: {colour:?} ({x}, {y}) illegal: {err}\n{referee}"
                    );
                }
            }
        }
        assert_eq!(
            e.board().stones_hash(),
            referee.stones_hash(),
            "engine and referee boards differ after move {moves}"
        );
        if referee.history_len() > 1000 {
            referee.clear_history();
        }
        colour = colour.opponent();
        moves += 1;
    }
    let count = |f: fn(&Source) -> bool| sources.iter().filter(|s| f(s)).count();
    println!(
        "{size}x{size}: joseki {}, book openings {}, patterns {}, big points {}, passes {}",
        count(|s| matches!(s, Source::Joseki(_))),
        count(|s| *s == Source::JosekiOpening),
        count(|s| matches!(s, Source::Pattern(_))),
        count(|s| *s == Source::BigPoint),
        count(|s| *s == Source::Pass),
    );
    println!(
        "{size}x{size} final position (score {:+}):\n{referee}",
        e.score()
    );
    Game {
        moves,
        passes_at_end: passes,
        sources,
    }
}

#[test]
fn self_play_9x9_is_legal_and_never_fills_an_eye() {
    let g = self_play(9, 250);
    let played = g.sources.iter().filter(|s| **s != Source::Pass).count();
    println!(
        "9x9: {} moves, {played} stones, ended by {}",
        g.moves,
        if g.passes_at_end == 2 {
            "two passes"
        } else {
            "the cap"
        }
    );
    assert!(
        played >= 30,
        "the engine played only {played} stones on 9x9"
    );
    assert!(g.sources.iter().any(|s| matches!(s, Source::Pattern(_))));
    // 9x9 is below the joseki book's size.
    assert!(
        !g.sources
            .iter()
            .any(|s| matches!(s, Source::Joseki(_) | Source::JosekiOpening))
    );
}

#[test]
fn self_play_13x13_is_legal_and_uses_the_book() {
    let g = self_play(13, 450);
    let played = g.sources.iter().filter(|s| **s != Source::Pass).count();
    println!(
        "13x13: {} moves, {played} stones, ended by {}",
        g.moves,
        if g.passes_at_end == 2 {
            "two passes"
        } else {
            "the cap"
        }
    );
    assert!(
        played >= 60,
        "the engine played only {played} stones on 13x13"
    );
    assert!(g.sources[0] == Source::JosekiOpening, "{:?}", g.sources[0]);
    // The book's continuations are followed after the openings (10 in this game today).
    assert!(g.sources.iter().any(|s| matches!(s, Source::Joseki(_))));
    assert!(g.sources.iter().any(|s| matches!(s, Source::Pattern(_))));
}

#[test]
fn self_play_19x19_opening_is_legal_and_follows_the_book() {
    // The first 80 moves only (the test profile's budget): four corners, book lines, fights.
    let g = self_play(19, 80);
    assert_eq!(g.moves, 80);
    let openings = g.sources.iter().filter(|s| **s == Source::JosekiOpening);
    assert!(openings.count() >= 4, "{:?}", &g.sources[..8]);
    assert!(g.sources.iter().any(|s| matches!(s, Source::Joseki(_))));
}

fn vertex(name: &str, size: u8) -> (i32, i32) {
    coords::parse_vertex(name, size).unwrap().unwrap()
}

fn name(at: Option<(i32, i32)>, size: u8) -> String {
    at.map(|(x, y)| coords::format_vertex(x, y, size).unwrap().to_string())
        .unwrap_or("pass".into())
}

/// Plays `moves` (alternating from Black) and asks for `to_move`'s move.
fn answer(size: u8, moves: &[&str], to_move: Colour) -> engine::Choice {
    let mut e = Engine::new(size).unwrap();
    let mut c = Colour::Black;
    for m in moves {
        e.play(c, Some(vertex(m, size))).unwrap();
        c = c.opponent();
    }
    e.choose(to_move)
}

#[test]
fn joseki_continuations_are_taken() {
    // 4-4 point, knight's approach (joseki.lens: d4 c6, answers f3 f4 g3 c8 c9 d9 or tenuki),
    // lower-left corner of 19x19, where the corner frame is the board's own coordinates.
    let c = answer(19, &["D4", "C6"], Colour::Black);
    let at = name(c.at, 19);
    assert!(matches!(c.source, Source::Joseki(_)), "{c:?}");
    assert!(
        ["F3", "F4", "G3", "C8", "C9", "D9"].contains(&at.as_str()),
        "{at}"
    );

    // The 3-3 invasion: Black's block is urgent, on either side (the position is symmetric).
    let c = answer(19, &["D4", "C3"], Colour::Black);
    assert_eq!(c.source, Source::Joseki(lens_joseki::MoveType::Urgent));
    assert!(["D3", "C4"].contains(&name(c.at, 19).as_str()), "{c:?}");

    // The same 3-3 invasion in the upper-right corner of 13x13 (rotated, other colours first):
    // White's 4-4 at K10, Black invades at L11; White blocks at K11 or L10.
    let c = answer(13, &["A1", "K10", "L11"], Colour::White);
    assert_eq!(c.source, Source::Joseki(lens_joseki::MoveType::Urgent));
    assert!(["K11", "L10"].contains(&name(c.at, 13).as_str()), "{c:?}");

    // An empty board: a book opening move in a corner (4-4, 3-4, 3-3, 5-4 or 5-3 point).
    let c = answer(19, &[], Colour::Black);
    assert_eq!(c.source, Source::JosekiOpening);
    let (x, y) = c.at.unwrap();
    let line = |v: i32| v.min(18 - v) + 1;
    let mut lines = [line(x), line(y)];
    lines.sort();
    assert!(
        [[4, 4], [3, 4], [3, 3], [4, 5], [3, 5]].contains(&lines),
        "{lines:?}"
    );
}

#[test]
fn out_of_book_corner_is_left_to_the_patterns() {
    // A 1-1 stone is in no book line: the corner is out of the book, so Black's answer to it
    // is not a book continuation.
    let c = answer(19, &["D4", "A1"], Colour::Black);
    assert!(!matches!(c.source, Source::Joseki(_)), "{c:?}");
}

#[test]
fn captures_a_string_in_atari() {
    let board = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        to_move: B",
    )
    .unwrap();
    let mut e = Engine::with_board(board);
    let c = e.choose(Colour::Black);
    assert_eq!(name(c.at, 9), "D5", "{c:?}");
    assert!(matches!(c.source, Source::Pattern(_)));
}

#[test]
fn the_learned_policy_captures_a_string_in_atari_and_never_fills_its_eyes() {
    let board = Board::from_diagram(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . X . . . . .
        . . X O X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        to_move: B",
    )
    .unwrap();
    let policy = || engine::Policy::new(lens_stdlib::policy_rom(), lens_stdlib::POLICY).unwrap();
    let mut e = Engine::with_board(board);
    e.set_policy(policy());
    let c = e.choose(Colour::Black);
    assert_eq!(name(c.at, 9), "D5", "{c:?}");
    assert!(matches!(c.source, Source::Policy(v) if v > 0), "{c:?}");
    // Self-play by the policy stays legal and ends without filling an eye of its own.
    let mut e = Engine::new(9).unwrap();
    e.set_policy(policy());
    let mut colour = Colour::Black;
    let mut passes = 0;
    for _ in 0..300 {
        let before = e.board().clone();
        let c = e.genmove(colour);
        match c.at {
            None => passes += 1,
            Some((x, y)) => {
                passes = 0;
                assert!(!true_eye(&before, colour, x, y), "{c:?}");
            }
        }
        if passes == 2 {
            break;
        }
        colour = colour.opponent();
    }
    assert_eq!(passes, 2, "the game ends");
}

#[test]
fn passes_rather_than_filling_its_eyes() {
    // Black owns the board but two one-point eyes: Black must not fill them (it would kill
    // itself) and White may not play there (suicide): both pass.
    let mut rows = vec![vec!['X'; 9]; 9];
    rows[1][1] = '.';
    rows[7][6] = '.';
    let text: String = rows
        .iter()
        .map(|r| r.iter().map(|c| format!("{c} ")).collect::<String>() + "\n")
        .collect();
    let board = Board::from_diagram(&text).unwrap();
    let mut e = Engine::with_board(board);
    assert_eq!(e.choose(Colour::Black).source, Source::Pass);
    assert_eq!(e.choose(Colour::White).source, Source::Pass);
    assert_eq!(e.score(), 81.0 - 7.5);
}

#[test]
fn area_score_counts_stones_and_territory() {
    // Black's wall on column D, White's on column F; E is neutral.
    let row = ". . . X . O . . .\n";
    let board = Board::from_diagram(&row.repeat(9)).unwrap();
    let (b, w) = engine::area(&board);
    assert_eq!((b, w), (36, 36));
}

#[test]
fn scripted_gtp_session() {
    let script = "\
protocol_version
1 name
version
known_command genmove
known_command undo
# a comment line
boardsize 13
komi 6.5
play b D4
play w C3
2 genmove b
play w D4
play x D5
play b Z1
boardsize 25
frobnicate
showboard
final_score
list_commands
quit
name
";
    let mut engine = Engine::new(19).unwrap();
    let mut out = Vec::new();
    protocol::run(&mut engine, script.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let expected = "\
= 2

=1 Lens stdlib engine

= 0.1.0

= true

= false

=

=

=

=

=2 D3

? illegal move

? syntax error

? syntax error

? unacceptable size

? unknown command

=
    A B C D E F G H J K L M N
13  . . . . . . . . . . . . . 13
12  . . . . . . . . . . . . . 12
11  . . . . . . . . . . . . . 11
10  . . . . . . . . . . . . . 10
 9  . . . . . . . . . . . . . 9
 8  . . . . . . . . . . . . . 8
 7  . . . . . . . . . . . . . 7
 6  . . . . . . . . . . . . . 6
 5  . . . . . . . . . . . . . 5
 4  . . . X . . . . . . . . . 4
 3  . . O X . . . . . . . . . 3
 2  . . . . . . . . . . . . . 2
 1  . . . . . . . . . . . . . 1
    A B C D E F G H J K L M N

= W+5.5

= protocol_version
name
version
known_command
list_commands
boardsize
clear_board
komi
play
genmove
showboard
final_score
quit

=

";
    assert_eq!(out, expected);
    assert_eq!(engine.size(), 13);
    assert_eq!(engine.record().len(), 3);
}

#[test]
fn a_line_of_invalid_utf8_gets_an_error_and_the_session_goes_on() {
    let mut script = b"name\n".to_vec();
    script.extend_from_slice(b"play b \xff\xfe\n");
    script.extend_from_slice(b"1 protocol_version\n");
    let mut engine = Engine::new(9).unwrap();
    let mut out = Vec::new();
    protocol::run(&mut engine, &script[..], &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out,
        "= Lens stdlib engine\n\n? invalid UTF-8 in the command line\n\n=1 2\n\n"
    );
}

#[test]
fn captures_on_a_full_board_rather_than_passing() {
    // Black fills a 9x9 board but A1: White's A1 takes all 80 stones (their last liberty).
    // No class sees shape there and no big point is left, yet passing would be absurd.
    let mut rows = vec![vec!['X'; 9]; 9];
    rows[8][0] = '.';
    let text: String = rows
        .iter()
        .map(|r| r.iter().map(|c| format!("{c} ")).collect::<String>() + "\n")
        .collect();
    let board = Board::from_diagram(&text).unwrap();
    let mut e = Engine::with_board(board);
    let c = e.choose(Colour::White);
    assert_eq!(name(c.at, 9), "A1", "{c:?}");
    assert_eq!(c.source, Source::Capture(80));
}

/// A 9x9 board from rows of symbols (`X` Black, `O` White, `.` empty), top row first.
fn diagram(rows: &[&str]) -> Board {
    let text: String = rows
        .iter()
        .map(|r| r.chars().map(|c| format!("{c} ")).collect::<String>() + "\n")
        .collect();
    Board::from_diagram(&text).unwrap()
}

#[test]
fn final_score_takes_dead_stones_off() {
    // Black's wall on column D with its area A-C, White's on column E with F-J; a lone White
    // stone at B7 in Black's area is dead. Area scoring without removal would count A-C as
    // neutral (bordered by both colours): Black 9, White 46.
    let board = diagram(&[
        "...XO....",
        "...XO....",
        ".O.XO....",
        "...XO....",
        "...XO....",
        "...XO....",
        "...XO....",
        "...XO....",
        "...XO....",
    ]);
    assert_eq!(engine::area(&board), (9, 46));
    let own = ownership::ownership(&board, Colour::Black);
    let dead = ownership::dead_stones(&board, &own);
    let dead_points: Vec<usize> = (0..81).filter(|&i| dead[i]).collect();
    assert_eq!(dead_points, vec![2 * 9 + 1], "only B7 is dead");
    assert_eq!(engine::area_without(&board, &dead), (36, 45));
    let e = Engine::with_board(board);
    assert_eq!(e.score(), 36.0 - 45.0 - 7.5);
    // The same position gives the same answer (the playouts are seeded by the position).
    assert_eq!(ownership::ownership(e.board(), Colour::Black), own);
}

#[test]
fn final_score_keeps_living_groups() {
    // A White group with two eyes inside Black's area lives: nothing is taken off.
    let board = diagram(&[
        "OOOOX....",
        "O.O.OX...",
        "OOOOOX...",
        "XXXXXX...",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
    ]);
    let own = ownership::ownership(&board, Colour::Black);
    let dead = ownership::dead_stones(&board, &own);
    assert!(dead.iter().all(|d| !d), "{own:?}");
}

#[test]
fn answers_stones_played_into_its_area_rather_than_passing() {
    // Black owns the board but a White stone at E5 in the middle of a large empty area (the
    // GNU Go games: the engine passed while the opponent played in its area). The stone is not
    // clearly dead yet: the invasion step answers on one of its liberties, and the engine as a
    // whole does not pass.
    let board = diagram(&[
        "XXXXXXXXX",
        "X.......X",
        "X.......X",
        "X.......X",
        "X...O...X",
        "X.......X",
        "X.......X",
        "X.......X",
        "XXXXXXXXX",
    ]);
    let mut e = Engine::with_board(board);
    let at = e.answer_invasion(Colour::Black).expect("an answer");
    assert!(
        ["E6", "E4", "D5", "F5"].contains(&name(Some(at), 9).as_str()),
        "{at:?}"
    );
    assert!(e.choose(Colour::Black).at.is_some());
    // White has nothing of Black's to answer.
    assert_eq!(e.answer_invasion(Colour::White), None);
}

#[test]
fn leaves_clearly_dead_stones_alone() {
    // A White stone in a three-point hole of Black's wall is captured in every playout: no
    // answer is needed (filling the hole would only cost a move).
    let board = diagram(&[
        "XXXXXXXXX",
        "X.O.XXXXX",
        "XXXXXXXXX",
        "XXXXXX.XX",
        "XXXXXXXXX",
        "XX.XXXXXX",
        "XXXXXXXXX",
        "XXXXXXXXX",
        "XXXXXXXXX",
    ]);
    let mut e = Engine::with_board(board);
    assert_eq!(e.answer_invasion(Colour::Black), None);
    // And it is taken off in the score: the whole board is Black's.
    assert_eq!(e.score(), 81.0 - 7.5);
}
