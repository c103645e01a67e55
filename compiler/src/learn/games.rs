//! Game records for learning: SGF main lines read with `sgf-parse`, the fixed train/test split,
//! and the replay that visits the position before every move. Setup stones (`AB`/`AW`) before
//! the first move are placed; setup after it ends the record.

use std::path::{Path, PathBuf};

use lens_vm::board::{Board, Colour};

/// One game: its name (the file name), board size, setup stones and the main line's moves
/// (`None` = pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub name: String,
    pub size: u8,
    pub setup: Vec<(Colour, i32, i32)>,
    pub moves: Vec<(Colour, Option<(i32, i32)>)>,
}

/// A game that cannot be read: the file, a byte offset into its text (0 when `sgf-parse`
/// gives no position) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: offset {offset}: {reason}")]
pub struct GameError {
    pub file: String,
    pub offset: usize,
    pub reason: String,
}

/// Reads the main line of the first game tree of an SGF text. Text before the first `(;`
/// (licence headers) is skipped.
pub fn parse_game(name: &str, text: &str) -> Result<Game, GameError> {
    use sgf_parse::go::{Move, Prop};
    let fail = |offset: usize, reason: String| GameError {
        file: name.to_string(),
        offset,
        reason,
    };
    let start = game_start(text).ok_or_else(|| fail(0, "no SGF game tree (`(;`) found".into()))?;
    let trees = sgf_parse::go::parse(&text[start..])
        .map_err(|e| fail(start, format!("invalid SGF: {e}")))?;
    let root = trees
        .into_iter()
        .next()
        .ok_or_else(|| fail(start, "no game in the file".into()))?;
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w,
        Some(Prop::SZ((w, h))) => return Err(fail(start, format!("board {w}x{h} is not square"))),
        _ => 19,
    };
    if Board::new(size).is_none() {
        return Err(fail(
            start,
            format!("board size {size} is not supported (5..=25)"),
        ));
    }
    let on = |x: u8, y: u8| (x as u32) < size as u32 && (y as u32) < size as u32;
    let mut game = Game {
        name: name.to_string(),
        size,
        setup: Vec::new(),
        moves: Vec::new(),
    };
    'nodes: for node in root.main_variation() {
        // Setup stones after the first move (editing, dead-stone marking at the end) end the
        // game record: what follows is no longer a game.
        if !game.moves.is_empty()
            && node
                .properties()
                .any(|p| matches!(p, Prop::AB(_) | Prop::AW(_) | Prop::AE(_)))
        {
            break 'nodes;
        }
        for prop in node.properties() {
            match prop {
                Prop::AB(s) | Prop::AW(s) if game.moves.is_empty() => {
                    let c = if matches!(prop, Prop::AB(_)) {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let mut pts: Vec<_> = s
                        .iter()
                        .filter(|p| on(p.x, p.y))
                        .map(|p| (p.x as i32, p.y as i32))
                        .collect();
                    pts.sort();
                    game.setup.extend(pts.into_iter().map(|(x, y)| (c, x, y)));
                }
                Prop::B(m) | Prop::W(m) => {
                    let c = if matches!(prop, Prop::B(_)) {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let at = match m {
                        Move::Move(p) if on(p.x, p.y) => Some((p.x as i32, p.y as i32)),
                        _ => None,
                    };
                    game.moves.push((c, at));
                }
                _ => {}
            }
        }
    }
    Ok(game)
}

/// Offset of the first `(` followed (after whitespace) by `;`: text before it is not SGF.
fn game_start(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    (0..b.len()).find(|&i| {
        b[i] == b'(' && b[i + 1..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b';')
    })
}

/// Reads one SGF file.
pub fn read_game(path: &Path) -> Result<Game, GameError> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bytes = std::fs::read(path).map_err(|e| GameError {
        file: path.display().to_string(),
        offset: 0,
        reason: e.to_string(),
    })?;
    // Old records are often Latin-1: comments do not matter here, so decode lossily.
    let text = String::from_utf8_lossy(&bytes);
    parse_game(&name, &text).map_err(|e| GameError {
        file: path.display().to_string(),
        ..e
    })
}

/// Files and directories (every `*.sgf` inside, recursively) as a sorted file list.
pub fn sgf_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let p = entry?.path();
            if p.is_dir() {
                walk(&p, out)?;
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Which games of a collection to use: the fixed split by game (see [`is_test_game`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Split {
    #[default]
    All,
    Train,
    Test,
}

impl Split {
    pub fn keeps(self, game_name: &str) -> bool {
        match self {
            Split::All => true,
            Split::Train => !is_test_game(game_name),
            Split::Test => is_test_game(game_name),
        }
    }
}

/// The fixed train/test split: a game is held out for testing when the 64-bit FNV-1a hash of
/// its file name (without directories) is 0 or 1 modulo 10, about a fifth of the games. It
/// depends on nothing but the name, so adding or removing games never moves another game.
pub fn is_test_game(file_name: &str) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in file_name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h % 10 < 2
}

/// One position of a replayed game: the board before move `number` (1-based, passes counted),
/// the side to move, the point played and the two previous moves (`None`: none, or a pass).
pub struct Position<'b> {
    pub board: &'b mut Board,
    pub number: usize,
    pub colour: Colour,
    pub played: (i32, i32),
    pub last: Option<(i32, i32)>,
    pub prev: Option<(i32, i32)>,
}

/// Replays `game`, calling `visit` with the position before every move that is not a pass.
/// The board handed out is the game's own (its history is cleared when it fills): the
/// visitor may play and undo on it but must leave it as it found it. Stops with an error at
/// the first move the board refuses (occupied, suicide, ko), after visiting the moves before.
pub fn replay(game: &Game, mut visit: impl FnMut(Position<'_>)) -> Result<usize, GameError> {
    let fail = |reason: String| GameError {
        file: game.name.clone(),
        offset: 0,
        reason,
    };
    let mut board =
        Board::new(game.size).ok_or_else(|| fail(format!("board size {}", game.size)))?;
    for &(c, x, y) in &game.setup {
        board
            .place(c, x, y)
            .map_err(|e| fail(format!("setup stone at {x},{y}: {e}")))?;
    }
    if let Some(&(c, _)) = game.moves.first() {
        board.set_to_move(c);
    }
    let (mut last, mut prev) = (None, None);
    let mut visited = 0;
    for (i, &(colour, at)) in game.moves.iter().enumerate() {
        if board.history_len() + 4 >= lens_vm::board::HISTORY_CAPACITY {
            board.clear_history();
        }
        match at {
            None => {
                board
                    .pass(colour)
                    .map_err(|e| fail(format!("move {}: {e}", i + 1)))?;
            }
            Some((x, y)) => {
                board.set_to_move(colour);
                if let Err(e) = board.check_play(colour, x, y) {
                    return Err(fail(format!("move {} at {x},{y}: {e}", i + 1)));
                }
                visit(Position {
                    board: &mut board,
                    number: i + 1,
                    colour,
                    played: (x, y),
                    last,
                    prev,
                });
                visited += 1;
                board
                    .play(colour, x, y)
                    .map_err(|e| fail(format!("move {}: {e}", i + 1)))?;
            }
        }
        prev = last;
        last = at;
    }
    Ok(visited)
}
