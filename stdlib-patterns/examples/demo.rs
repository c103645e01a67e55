//! The standard library at work: load the embedded ROM, set up a mid-game position, match every
//! class over the whole board for the side to move, and show the suggestions on the board and
//! as a list; then look every corner up in the joseki book (the lower-left corner of the
//! built-in position holds a book line) and show the book's continuations.
//!
//! `cargo run --release -p lens-stdlib --example demo [-- FILE]` (FILE: a board diagram in the
//! `Board::from_diagram` format; default: the built-in position below).

use std::collections::BTreeMap;

use lens_joseki::{BoardMove, Continuation, MoveType, Point as JPoint, Rel, Walker};
use lens_vm::board::{Board, coords};
use lens_vm::{Colour, Match, MatchBuf, MatchResult, NoHost, Orientations, Query, Rom, Scratch};

/// A 13x13 middle game, Black to move. The lower-left corner is the 4-4 point's 3-3 invasion
/// (the AI-era hane-hane, White to play there).
const POSITION: &str = "
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . O O . . . . X X . .
. . O X X O . . X O O X .
. . O X . X . . . O . . .
. . . O X . . . . . O . .
. . . . . . . . . . X . .
. X . . . . . O . . . . .
. O X . . . . . . . . . .
. . O X . . . . . . O O .
. . O X . . . . . O X X O
. . . . . . . . . O X . X
. . . . . . . . . . O X .
to_move: B
";

/// One-letter marks per class on the board drawing.
const MARKS: [(&str, char); 8] = [
    (lens_stdlib::SHAPE3X3, 's'),
    (lens_stdlib::CONNECT, 'c'),
    (lens_stdlib::EYE_VALUE, 'v'),
    (lens_stdlib::EYE_VITAL, 'e'),
    (lens_stdlib::TACTICS, 't'),
    (lens_stdlib::EDGE, 'g'),
    (lens_stdlib::ENDGAME, 'y'),
    (lens_stdlib::SELF_ATARI, 'r'),
];

struct Found {
    class: &'static str,
    mark: char,
    m: Match,
}

fn point_name(size: u8, x: i32, y: i32) -> String {
    coords::format_vertex(x, y, size)
        .map(|n| n.as_str().to_string())
        .unwrap_or_default()
}

/// The board drawing's character for one point: stones, then `#` for a rejected point (a
/// reject wins over any suggestion there, as the legend says), then the best suggestion's mark.
fn board_mark(point: lens_vm::Point, best: Option<char>, rejected: bool) -> char {
    match point {
        lens_vm::Point::Stone(Colour::Black) => 'X',
        lens_vm::Point::Stone(Colour::White) => 'O',
        _ if rejected => '#',
        _ => best.unwrap_or('.'),
    }
}

fn main() {
    let (text, origin) = match std::env::args().nth(1) {
        Some(path) => (
            std::fs::read_to_string(&path).unwrap_or_else(|e| {
                eprintln!("demo: {path}: {e}");
                std::process::exit(2)
            }),
            format!("position: {path}"),
        ),
        None => (
            POSITION.to_string(),
            "position: the built-in 13x13 middle game (`POSITION` in stdlib-patterns/examples/demo.rs; \
             pass a diagram FILE for another)"
                .to_string(),
        ),
    };
    let board = Board::from_diagram(&text).unwrap_or_else(|e| {
        eprintln!("demo: bad position: {e}");
        std::process::exit(2)
    });
    let rom: Rom<'static> = lens_stdlib::rom();
    let me = board.to_move();
    let size = board.size();

    let mut found = Vec::new();
    let mut scratch = Scratch::new();
    let mut slots = vec![Match::EMPTY; 4096];
    for (class, mark) in MARKS {
        let Some(id) = rom.class_by_name(class) else {
            eprintln!("demo: class {class} missing from the ROM");
            std::process::exit(1)
        };
        let q = Query {
            class: id,
            perspective: me,
            orientations: Orientations::All,
        };
        let mut out = MatchBuf::new(&mut slots);
        rom.scan(&board, &NoHost, &q, &mut scratch, &mut out);
        if out.dropped() > 0 {
            eprintln!(
                "demo: {} matches of {class} did not fit the buffer",
                out.dropped()
            );
        }
        found.extend(out.as_slice().iter().map(|m| Found { class, mark, m: *m }));
    }

    // On the board: per point, the mark of the highest-valued suggestion ('#' = rejected).
    let mut best: BTreeMap<(i32, i32), (i32, char)> = BTreeMap::new();
    let mut rejected: BTreeMap<(i32, i32), ()> = BTreeMap::new();
    for f in &found {
        match f.m.result {
            MatchResult::Move { x, y, value, .. } => {
                let e = best.entry((x, y)).or_insert((i32::MIN, f.mark));
                if value > e.0 {
                    *e = (value, f.mark);
                }
            }
            MatchResult::Reject { x, y } => {
                rejected.insert((x, y), ());
            }
            _ => {}
        }
    }
    let who = if me == Colour::Black {
        "Black (X)"
    } else {
        "White (O)"
    };
    println!(
        "Lens standard library: {} patterns in {} classes, ROM {} bytes",
        rom.pattern_count(),
        rom.class_count(),
        lens_stdlib::ROM_BYTES.len()
    );
    println!("{origin}");
    println!(
        "Suggestions for {who}: lower-case letter = best suggestion's class, # = rejected point\n"
    );
    let letters: Vec<String> = (0..size as i32)
        .map(|x| point_name(size, x, 0)[..1].to_string())
        .collect();
    println!("    {}", letters.join(" "));
    for y in 0..size as i32 {
        let row = point_name(size, 0, y)[1..].to_string();
        let mut cells = Vec::new();
        for x in 0..size as i32 {
            let c = board_mark(
                board.get(x, y),
                best.get(&(x, y)).map(|b| b.1),
                rejected.contains_key(&(x, y)),
            );
            cells.push(c.to_string());
        }
        println!("{row:>3} {}", cells.join(" "));
    }
    println!();
    println!(
        "marks: {}",
        MARKS
            .iter()
            .map(|(c, m)| format!("{m} {c}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!();

    // As a list: per class, suggestions by value, then rejects and eye values.
    for (class, _) in MARKS {
        let mut rows: Vec<(i32, String)> = Vec::new();
        for f in found.iter().filter(|f| f.class == class) {
            let name = rom.pattern_name(f.m.pattern).unwrap_or("(default)");
            let at = point_name(size, f.m.focus.0, f.m.focus.1);
            let (key, line) = match f.m.result {
                MatchResult::Move { x, y, value, .. } => (
                    value,
                    format!(
                        "play {:<4} value {value:>3}  {name} (focus {at})",
                        point_name(size, x, y)
                    ),
                ),
                MatchResult::Reject { x, y } => (
                    i32::MIN,
                    format!("reject {:<4}           {name}", point_name(size, x, y)),
                ),
                MatchResult::Value { value, .. } => {
                    (value, format!("at {at:<4} eye value {value}  {name}"))
                }
                MatchResult::None => continue,
            };
            rows.push((key, line));
        }
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        rows.dedup_by(|a, b| a.1 == b.1);
        println!("{class} ({} matches)", rows.len());
        for (_, line) in rows.iter().take(12) {
            println!("  {line}");
        }
        if rows.len() > 12 {
            println!("  ... {} more", rows.len() - 12);
        }
    }

    // A lens: the seed's diagonal connection defence on the diagonal links of the side to move.
    if let Some(lens) = rom.lens_by_name(lens_stdlib::DIAGONAL_DEFENCE) {
        println!(
            "\nlens {} on the diagonal links of {who}:",
            lens_stdlib::DIAGONAL_DEFENCE
        );
        let mine = lens_vm::Point::Stone(me);
        let n = size as i32;
        for y in 0..n {
            for x in 0..n {
                for dx in [-1, 1] {
                    let (x2, y2) = (x + dx, y + 1);
                    if board.get(x, y) != mine || board.get(x2, y2) != mine {
                        continue;
                    }
                    let mut lens_slots = [Match::EMPTY; 16];
                    let mut out = MatchBuf::new(&mut lens_slots);
                    rom.eval_lens(lens, &[(x, y), (x2, y2)], me, &board, &NoHost, &mut out);
                    let mut moves: Vec<String> = out
                        .as_slice()
                        .iter()
                        .filter_map(|m| match m.result {
                            MatchResult::Move { x, y, value, .. } => {
                                Some(format!("play {} value {value}", point_name(size, x, y)))
                            }
                            _ => None,
                        })
                        .collect();
                    moves.sort();
                    moves.dedup();
                    if !moves.is_empty() {
                        println!(
                            "  {}-{}: {}",
                            point_name(size, x, y),
                            point_name(size, x2, y2),
                            moves.join(", ")
                        );
                    }
                }
            }
        }
    }

    joseki(&board);
}

const CORNERS: [&str; 4] = ["upper left", "upper right", "lower left", "lower right"];

/// The joseki book on every corner. A diagram has no move order, so the order is recovered
/// from the book: a depth-first search for a book line that plays exactly the stones in the
/// corner's quarter. Then `Walker::lookup` (what an engine calls with its game record: every
/// orientation, RiscIgo's rectangles) gives the continuations.
fn joseki(board: &Board) {
    let rom = lens_stdlib::rom();
    let Some(blob) = rom.joseki_blob(lens_stdlib::JOSEKI) else {
        eprintln!(
            "demo: joseki section {} missing from the ROM",
            lens_stdlib::JOSEKI
        );
        std::process::exit(1)
    };
    let walker = match Walker::new(blob) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("demo: the joseki blob does not decode: {e}");
            std::process::exit(1)
        }
    };
    let size = board.size();
    let half = size.div_ceil(2);
    println!(
        "\njoseki book `{}` ({} bytes) on the corners:",
        lens_stdlib::JOSEKI,
        blob.len()
    );
    for corner in 0..4u8 {
        let mut line = None;
        'search: for transpose in [false, true] {
            let frame = lens_joseki::Frame::new(size, corner, transpose).with_rect(half, half);
            // The stones in the corner's quarter, frame coordinates.
            let mut stones = Vec::new();
            for y in 0..size {
                for x in 0..size {
                    if let lens_vm::Point::Stone(c) = board.get(x as i32, y as i32) {
                        let (cx, cy) = frame.to_corner(x, y).unwrap();
                        if cx <= half && cy <= half {
                            stones.push((cx, cy, c));
                        }
                    }
                }
            }
            for first in [Colour::Black, Colour::White] {
                let mut path = Vec::new();
                if !stones.is_empty() && order(&walker, &stones, first, &mut path) {
                    line = Some((frame, first, path));
                    break 'search;
                }
            }
        }
        let Some((frame, first, path)) = line else {
            println!("  {:<12} not in the book", CORNERS[corner as usize]);
            continue;
        };
        let moves: Vec<BoardMove> = path
            .iter()
            .map(|&(rel, p)| {
                let JPoint::At { x, y } = p else {
                    unreachable!("stones only")
                };
                BoardMove {
                    colour: jcolour(if rel == Rel::Same {
                        first
                    } else {
                        first.opponent()
                    }),
                    at: frame.to_board(x, y),
                }
            })
            .collect();
        let mut out = [Continuation::EMPTY; 32];
        let r = walker.lookup(
            size,
            &moves,
            Some(corner),
            jcolour(board.to_move()),
            &mut out,
        );
        let book = r.corners[corner as usize];
        let played: Vec<String> = moves
            .iter()
            .map(|m| {
                let (x, y) = m.at.unwrap();
                point_name(size, x as i32, y as i32)
            })
            .collect();
        println!(
            "  {:<12} book line {} ({:?}, {} moves followed, {} bytes parsed)",
            CORNERS[corner as usize],
            played.join(" "),
            book.state,
            book.followed,
            r.parsed
        );
        for c in &out[..r.continuations.min(out.len())] {
            let at = match c.at {
                Some((x, y)) => point_name(size, x as i32, y as i32),
                None => "tenuki".to_string(),
            };
            let kind = match c.kind {
                MoveType::Normal => String::new(),
                k => format!(" ({})", k.name()),
            };
            println!("      next: {:?} {at}{kind}", c.colour);
        }
    }
}

fn jcolour(c: Colour) -> lens_joseki::Colour {
    match c {
        Colour::Black => lens_joseki::Colour::Black,
        Colour::White => lens_joseki::Colour::White,
    }
}

/// Extend `path` (corner frame, colours relative to `first`) with book moves until it holds
/// exactly `stones`; false if no book line does.
fn order(
    walker: &Walker<'_>,
    stones: &[(u8, u8, Colour)],
    first: Colour,
    path: &mut Vec<(Rel, JPoint)>,
) -> bool {
    if path.len() == stones.len() {
        return true;
    }
    let mut next = [(Rel::Same, JPoint::Pass, MoveType::Normal); 32];
    let Some(n) = walker.follow_frame(path, &mut next) else {
        return false;
    };
    for &(rel, p, _) in &next[..n.min(next.len())] {
        let JPoint::At { x, y } = p else { continue };
        let colour = if rel == Rel::Same {
            first
        } else {
            first.opponent()
        };
        let on_board = stones.contains(&(x, y, colour));
        let unused = !path.contains(&(rel, p));
        if on_board && unused {
            path.push((rel, p));
            if order(walker, stones, first, path) {
                return true;
            }
            path.pop();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejected_point_shows_hash_even_with_a_suggestion() {
        assert_eq!(board_mark(lens_vm::Point::Empty, Some('t'), true), '#');
        assert_eq!(board_mark(lens_vm::Point::Empty, Some('t'), false), 't');
        assert_eq!(board_mark(lens_vm::Point::Empty, None, false), '.');
        let black = lens_vm::Point::Stone(Colour::Black);
        assert_eq!(board_mark(black, Some('t'), true), 'X');
    }
}
