//! The standard library at work: load the embedded ROM, set up a mid-game position, match every
//! class over the whole board for the side to move, and show the suggestions on the board and
//! as a list.
//!
//! `cargo run --release -p lens-stdlib --example demo [-- FILE]` (FILE: a board diagram in the
//! `Board::from_diagram` format; default: the built-in position below).

use std::collections::BTreeMap;

use lens_vm::board::{Board, coords};
use lens_vm::{Colour, Match, MatchBuf, MatchResult, NoHost, Orientations, Query, Rom, Scratch};

/// A 13x13 middle game, Black to move.
const POSITION: &str = "
. . . . . . . . . . . . .
. . . . . . . . . . . . .
. . . O O . . . . X X . .
. . O X X O . . X O O X .
. . O X . X . . . O . . .
. . . O X . . . . . O . .
. . . . . . . . . . X . .
. . X . . . . . . . . . .
. . . . . . O . . . . . .
. . X . . . . . . . O O .
. X O O . . . . . O X X O
. . X O . . . . . O X . X
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

fn main() {
    let text = match std::env::args().nth(1) {
        Some(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("demo: {path}: {e}");
            std::process::exit(2)
        }),
        None => POSITION.to_string(),
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
            let c = match board.get(x, y) {
                lens_vm::Point::Stone(Colour::Black) => 'X',
                lens_vm::Point::Stone(Colour::White) => 'O',
                _ if best.contains_key(&(x, y)) => best[&(x, y)].1,
                _ if rejected.contains_key(&(x, y)) => '#',
                _ => '.',
            };
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
}
