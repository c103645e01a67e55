//! `lensc match`: run a class on a position (SGF + move number, or a text diagram) and print
//! the matches on a board diagram and as a list (or as JSON).
//!
//! Exit codes: 0 ok (with or without matches), 1 bad image, sources, SGF or diagram,
//! 2 usage or I/O errors.

use crate::compile::MessageFormat;
use crate::disasm::{fast_image, load_image, validate};
use lens_vm::board::{Board, format_vertex, parse_vertex};
use lens_vm::matching::DEFAULT_PATTERN;
use lens_vm::{
    BoardView, Colour, Match, MatchBuf, MatchResult, NoHost, Orientations, Query, Scratch,
};
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    #[value(alias = "b")]
    Black,
    #[value(alias = "w")]
    White,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A ROM image, or source files/directories compiled first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The class to match.
    #[arg(long)]
    pub class: String,
    /// Position from an SGF file (main line; setup stones and moves).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "diagram",
        required_unless_present = "diagram"
    )]
    pub sgf: Option<PathBuf>,
    /// Play the first N moves of the SGF main line: the position after move N (default: all).
    /// GNU Go's `loadsgf FILE N` is the position before move N: use `--before-move N` for it.
    #[arg(long = "move", value_name = "N", requires = "sgf")]
    pub move_number: Option<usize>,
    /// The position before move N of the SGF main line (N-1 moves played), as GNU Go's
    /// `loadsgf FILE N`.
    #[arg(
        long,
        value_name = "N",
        requires = "sgf",
        conflicts_with = "move_number",
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    pub before_move: Option<u64>,
    /// Position from a text diagram (`X` black, `O` white, `.` empty; optional `to_move: B|W`).
    #[arg(long, value_name = "FILE")]
    pub diagram: Option<PathBuf>,
    /// Perspective (friend colour: `B`, `W`, `black` or `white`); default: the side to move.
    #[arg(long, value_enum, ignore_case = true)]
    pub colour: Option<Side>,
    /// Match only at this point (GTP vertex such as `D4`); default: the whole board.
    #[arg(long, value_name = "VERTEX")]
    pub at: Option<String>,
    /// One JSON object on standard output.
    #[arg(long)]
    pub json: bool,
    /// Also list class defaults (every admissible point has one when scanning the board).
    #[arg(long)]
    pub defaults: bool,
    /// Also write the position with its matches as an SVG picture.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Also write an HTML page: the picture and the list of matches.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// How diagnostics are printed on standard error.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

fn read(path: &PathBuf) -> Result<String, u8> {
    std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: {}: {e}", path.display());
        2
    })
}

/// The position after `moves` moves of the SGF main line.
fn from_sgf(path: &PathBuf, moves: Option<usize>) -> Result<Board, u8> {
    use sgf_parse::go::{Move, Prop};
    let text = read(path)?;
    let fail = |msg: String| {
        eprintln!("error: {}: {msg}", path.display());
        1u8
    };
    let trees = sgf_parse::go::parse(&text).map_err(|e| fail(format!("invalid SGF: {e}")))?;
    let root = trees
        .into_iter()
        .next()
        .ok_or_else(|| fail("no game in the file".into()))?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w,
        Some(Prop::SZ(_)) => return Err(fail("only square boards are supported".into())),
        _ => 19,
    };
    let mut board = Board::new(size)
        .ok_or_else(|| fail(format!("board size {size} is not supported (5..=25)")))?;
    let limit = moves.unwrap_or(usize::MAX);
    let mut played = 0;
    for node in root.main_variation() {
        for prop in node.properties() {
            let (colour, setup) = match prop {
                Prop::AB(s) => (Colour::Black, Some(s)),
                Prop::AW(s) => (Colour::White, Some(s)),
                _ => (Colour::Black, None),
            };
            if let Some(stones) = setup {
                let mut pts: Vec<_> = stones.iter().map(|p| (p.x as i32, p.y as i32)).collect();
                pts.sort();
                for (x, y) in pts {
                    board
                        .place(colour, x, y)
                        .map_err(|e| fail(format!("setup stone at {x},{y}: {e}")))?;
                }
            }
        }
        for prop in node.properties() {
            let (colour, mv) = match prop {
                Prop::B(m) => (Colour::Black, m),
                Prop::W(m) => (Colour::White, m),
                _ => continue,
            };
            if played >= limit {
                return Ok(board);
            }
            played += 1;
            let r = match mv {
                Move::Move(p) if (p.x as u32) < size as u32 && (p.y as u32) < size as u32 => {
                    board.play(colour, p.x as i32, p.y as i32)
                }
                _ => board.pass(colour),
            };
            r.map_err(|e| fail(format!("move {played}: {e}")))?;
        }
    }
    if moves.is_some_and(|m| m > played) {
        return Err(fail(format!("the main line has only {played} moves")));
    }
    Ok(board)
}

fn vertex(x: i32, y: i32, size: u8) -> String {
    format_vertex(x, y, size)
        .map(|n| n.as_str().to_string())
        .unwrap_or_else(|| format!("({x},{y})"))
}

/// A match's result in words, for the HTML list.
fn result_line(m: &Match, size: u8) -> String {
    match m.result {
        MatchResult::Move { x, y, value, .. } => {
            format!("move {} value {value}", vertex(x, y, size))
        }
        MatchResult::Reject { x, y } => format!("reject {}", vertex(x, y, size)),
        MatchResult::Value { value, .. } => format!("value {value}"),
        MatchResult::None => "none".into(),
    }
}

const MARKS: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWYZ";

pub fn run(args: Args) -> u8 {
    let bytes = match load_image(&args.inputs, false, args.message_format)
        .and_then(|b| fast_image(b, &args.inputs))
    {
        Ok(b) => b,
        Err(code) => return code,
    };
    let rom = match validate(&bytes, &args.inputs) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Some(class) = rom.class_by_name(&args.class) else {
        let names: Vec<&str> = rom.classes().map(|c| c.name()).collect();
        eprintln!(
            "error: no class `{}` in the image (classes: {})",
            args.class,
            names.join(", ")
        );
        return 1;
    };
    let board = if let Some(p) = &args.diagram {
        let text = match read(p) {
            Ok(t) => t,
            Err(c) => return c,
        };
        match Board::from_diagram(&text) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return 1;
            }
        }
    } else {
        match from_sgf(
            args.sgf.as_ref().expect("clap requires --sgf or --diagram"),
            args.move_number
                .or(args.before_move.map(|n| n as usize - 1)),
        ) {
            Ok(b) => b,
            Err(c) => return c,
        }
    };
    let size = board.size();
    let perspective = match args.colour {
        Some(Side::Black) => Colour::Black,
        Some(Side::White) => Colour::White,
        None => board.to_move(),
    };
    let q = Query {
        class,
        perspective,
        orientations: Orientations::All,
    };
    let mut slots = vec![Match::EMPTY; 1 << 16];
    let mut out = MatchBuf::new(&mut slots);
    let mut scratch = Scratch::new();
    match &args.at {
        Some(v) => match parse_vertex(v, size) {
            Ok(Some((x, y))) => {
                rom.match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut out);
            }
            _ => {
                eprintln!("error: `{v}` is not a point of a {size}x{size} board");
                return 2;
            }
        },
        None => {
            rom.scan(&board, &NoHost, &q, &mut scratch, &mut out);
        }
    }
    let show_defaults = args.defaults || args.at.is_some();
    let matches: Vec<Match> = out
        .as_slice()
        .iter()
        .filter(|m| show_defaults || m.pattern != DEFAULT_PATTERN)
        .copied()
        .collect();
    let matches = &matches[..];
    let name = |m: &Match| {
        if m.pattern == DEFAULT_PATTERN {
            "(default)".to_string()
        } else {
            rom.pattern_name(m.pattern)
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{}", m.pattern))
        }
    };
    let side = if perspective == Colour::Black {
        "black"
    } else {
        "white"
    };
    if args.svg.is_some() || args.html.is_some() {
        let named: Vec<(Match, String)> = matches.iter().map(|m| (*m, name(m))).collect();
        let svg = lens_compiler::render::position::position_svg(&board, &named);
        let write = |p: &PathBuf, text: &str| {
            std::fs::write(p, text).map_err(|e| eprintln!("error: {}: {e}", p.display()))
        };
        if let Some(p) = &args.svg
            && write(p, &format!("{svg}\n")).is_err()
        {
            return 2;
        }
        if let Some(p) = &args.html {
            let rows: Vec<String> = matches
                .iter()
                .map(|m| {
                    format!(
                        "{} at {}: {}",
                        name(m),
                        vertex(m.focus.0, m.focus.1, size),
                        result_line(m, size)
                    )
                })
                .collect();
            let title = format!("class {} for {side}: {} matches", args.class, matches.len());
            let page = lens_compiler::render::position::position_html(&title, &svg, &rows);
            if write(p, &page).is_err() {
                return 2;
            }
        }
    }
    if args.json {
        let list: Vec<serde_json::Value> = matches
            .iter()
            .map(|m| {
                let mut o = serde_json::json!({
                    "pattern": if m.pattern == DEFAULT_PATTERN { serde_json::Value::Null } else { m.pattern.into() },
                    "name": name(m),
                    "orientation": m.orientation,
                    "focus": vertex(m.focus.0, m.focus.1, size),
                    "priority": m.priority,
                });
                let r = match m.result {
                    MatchResult::Move { x, y, value, bits, sequence } => serde_json::json!({
                        "kind": "move", "at": vertex(x, y, size), "value": value, "bits": bits, "sequence": sequence }),
                    MatchResult::Reject { x, y } => serde_json::json!({ "kind": "reject", "at": vertex(x, y, size) }),
                    MatchResult::Value { value, bits } => serde_json::json!({ "kind": "value", "value": value, "bits": bits }),
                    MatchResult::None => serde_json::json!({ "kind": "none" }),
                };
                o["result"] = r;
                o
            })
            .collect();
        let doc = serde_json::json!({
            "class": args.class, "perspective": side, "size": size,
            "matches": list, "dropped": out.dropped(),
        });
        println!("{doc}");
        return 0;
    }
    // Board diagram: suggested moves numbered, rejects `!`, value-only matches `=` on the focus.
    let mut marks = vec![None::<char>; size as usize * size as usize];
    let mut numbered = Vec::new();
    for m in matches {
        let (p, c) = match m.result {
            MatchResult::Move { x, y, .. } => {
                let k = numbered.len();
                numbered.push(k);
                ((x, y), MARKS.get(k).map(|&b| b as char).unwrap_or('+'))
            }
            MatchResult::Reject { x, y } => ((x, y), '!'),
            _ => (m.focus, '='),
        };
        if board.point(p.0, p.1) != lens_vm::Point::Off {
            let i = (p.1 * size as i32 + p.0) as usize;
            if marks[i].is_none() {
                marks[i] = Some(c);
            }
        }
    }
    let letters: Vec<char> = b"ABCDEFGHJKLMNOPQRSTUVWXYZ"[..size as usize]
        .iter()
        .map(|&b| b as char)
        .collect();
    let header: Vec<String> = letters.iter().map(|c| c.to_string()).collect();
    println!("    {}", header.join(" "));
    for y in 0..size as i32 {
        let row: Vec<String> = (0..size as i32)
            .map(|x| {
                let c = marks[(y * size as i32 + x) as usize].unwrap_or(match board.point(x, y) {
                    lens_vm::Point::Stone(Colour::Black) => 'X',
                    lens_vm::Point::Stone(Colour::White) => 'O',
                    _ => '.',
                });
                c.to_string()
            })
            .collect();
        println!("{:>3} {}", size as i32 - y, row.join(" "));
    }
    println!(
        "\nclass {} for {side}: {} matches",
        args.class,
        matches.len()
    );
    let mut k = 0;
    for m in matches {
        let what = match m.result {
            MatchResult::Move { x, y, value, .. } => {
                let mark = MARKS.get(k).map(|&b| b as char).unwrap_or('+');
                k += 1;
                format!("[{mark}] move {} value {value}", vertex(x, y, size))
            }
            MatchResult::Reject { x, y } => format!("[!] reject {}", vertex(x, y, size)),
            MatchResult::Value { value, .. } => format!("[=] value {value}"),
            MatchResult::None => "[ ] none".into(),
        };
        println!(
            "{what:<28} {} at {} orientation {} priority {}",
            name(m),
            vertex(m.focus.0, m.focus.1, size),
            m.orientation,
            if m.priority == i32::MIN {
                "-".into()
            } else {
                m.priority.to_string()
            }
        );
    }
    if out.dropped() > 0 {
        eprintln!(
            "warning: {} matches did not fit the output buffer",
            out.dropped()
        );
    }
    0
}
