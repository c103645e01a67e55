//! The GTP (Go Text Protocol, version 2) loop of the `gtp` example, parsed by hand: the
//! protocol is line based and small, and no GTP crate on crates.io is both maintained and
//! usable here (`gtp` 0.1.2 is a GPL-3.0 controller-side parser; `libgtp` 0.1.2 states no
//! licence and has not been updated since its first releases).
//!
//! [`run`] reads commands from any `BufRead` and writes responses to any `Write`, so a test
//! drives a scripted session in memory.

use std::io::{self, BufRead, Write};

use lens_vm::Colour;
use lens_vm::board::coords;

use crate::engine::Engine;

/// Every command this engine knows, in `list_commands` order.
pub const COMMANDS: [&str; 13] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "showboard",
    "final_score",
    "quit",
];

/// Board sizes `boardsize` accepts.
pub const SIZES: std::ops::RangeInclusive<u8> = 9..=19;

/// Runs a GTP session until `quit` or the end of the input. Errors are I/O errors only.
pub fn run(engine: &mut Engine, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.split(b'\n') {
        // A line that is not UTF-8 gets an error answer; the session goes on.
        let Ok(line) = String::from_utf8(line?) else {
            write!(output, "? invalid UTF-8 in the command line\n\n")?;
            output.flush()?;
            continue;
        };
        let Some(command) = preprocess(&line) else {
            continue;
        };
        let (id, words) = split_id(&command);
        let (reply, quit) = match words.split_first() {
            None => (Err("syntax error".to_string()), false),
            Some((name, args)) => (handle(engine, name, args), *name == "quit"),
        };
        let id = id.map(|n| n.to_string()).unwrap_or_default();
        match reply {
            // A multi-line answer (showboard) starts on the line after the `=`.
            Ok(text) if text.starts_with('\n') => write!(output, "={id}{text}\n\n")?,
            Ok(text) if text.is_empty() => write!(output, "={id}\n\n")?,
            Ok(text) => write!(output, "={id} {text}\n\n")?,
            Err(message) => write!(output, "?{id} {message}\n\n")?,
        }
        output.flush()?;
        if quit {
            break;
        }
    }
    Ok(())
}

/// GTP's preprocessing: control characters other than tab and newline removed, tabs made
/// spaces, `#` comments cut; `None` for a line left empty.
fn preprocess(line: &str) -> Option<String> {
    let line = line.split('#').next().unwrap_or("");
    let clean: String = line
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let clean = clean.trim().to_string();
    (!clean.is_empty()).then_some(clean)
}

/// An optional numeric id, then the command name and its arguments.
fn split_id(command: &str) -> (Option<u32>, Vec<&str>) {
    let mut words: Vec<&str> = command.split_whitespace().collect();
    let id = words.first().and_then(|w| w.parse::<u32>().ok());
    if id.is_some() {
        words.remove(0);
    }
    (id, words)
}

fn parse_colour(s: &str) -> Result<Colour, String> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Colour::Black),
        "w" | "white" => Ok(Colour::White),
        _ => Err("syntax error".to_string()),
    }
}

fn vertex_name(engine: &Engine, at: Option<(i32, i32)>) -> String {
    match at.and_then(|(x, y)| coords::format_vertex(x, y, engine.size())) {
        Some(name) => name.to_string(),
        None => "pass".to_string(),
    }
}

fn handle(engine: &mut Engine, name: &str, args: &[&str]) -> Result<String, String> {
    let syntax = || "syntax error".to_string();
    match name {
        "protocol_version" => Ok("2".into()),
        "name" => Ok("Lens stdlib engine".into()),
        "version" => Ok(env!("CARGO_PKG_VERSION").into()),
        "known_command" => {
            let cmd = args.first().ok_or_else(syntax)?;
            Ok(COMMANDS.contains(cmd).to_string())
        }
        "list_commands" => Ok(COMMANDS.join("\n")),
        "boardsize" => {
            let size: u8 = args
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or_else(syntax)?;
            if !SIZES.contains(&size) {
                return Err("unacceptable size".into());
            }
            *engine = fresh(engine, size);
            Ok(String::new())
        }
        "clear_board" => {
            let size = engine.size();
            *engine = fresh(engine, size);
            Ok(String::new())
        }
        "komi" => {
            let komi: f32 = args
                .first()
                .and_then(|s| s.parse().ok())
                .ok_or_else(syntax)?;
            if !komi.is_finite() {
                return Err(syntax());
            }
            engine.set_komi(komi);
            Ok(String::new())
        }
        "play" => {
            let [colour, vertex] = args else {
                return Err(syntax());
            };
            let colour = parse_colour(colour)?;
            let at = coords::parse_vertex(vertex, engine.size()).map_err(|_| syntax())?;
            engine
                .play(colour, at)
                .map_err(|_| "illegal move".to_string())?;
            Ok(String::new())
        }
        "genmove" => {
            let colour = parse_colour(args.first().ok_or_else(syntax)?)?;
            let choice = engine.genmove(colour);
            Ok(vertex_name(engine, choice.at))
        }
        "showboard" => Ok(show(engine)),
        "final_score" => {
            let s = engine.score();
            Ok(if s > 0.0 {
                format!("B+{s}")
            } else if s < 0.0 {
                format!("W+{}", -s)
            } else {
                "0".into()
            })
        }
        "quit" => Ok(String::new()),
        _ => Err("unknown command".into()),
    }
}

/// An empty board of `size` keeping the komi.
fn fresh(old: &mut Engine, size: u8) -> Engine {
    let mut e = Engine::new(size).expect("sizes are checked by the caller");
    e.set_komi(old.komi());
    if let Some(p) = old.take_policy() {
        e.set_policy(p);
    }
    e
}

/// The board with GTP coordinates, `X` Black, `O` White; starts with a newline.
fn show(engine: &Engine) -> String {
    let n = engine.size() as i32;
    let letters: String = (0..n)
        .map(|x| {
            let name = coords::format_vertex(x, 0, engine.size()).expect("on the board");
            format!(" {}", &name.as_str()[..1])
        })
        .collect();
    let mut s = format!("\n   {letters}");
    for y in 0..n {
        let row = n - y;
        s.push_str(&format!("\n{row:>2} "));
        for x in 0..n {
            s.push(' ');
            s.push(match engine.board().get(x, y) {
                lens_vm::Point::Stone(Colour::Black) => 'X',
                lens_vm::Point::Stone(Colour::White) => 'O',
                _ => '.',
            });
        }
        s.push_str(&format!(" {row}"));
    }
    s.push_str(&format!("\n   {letters}"));
    s
}
