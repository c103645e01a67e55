//! Who owns each point at the end of the game, estimated by random playouts: the engine's
//! dead-stone removal for `final_score`, and how it sees that an opponent string in its area
//! still needs an answer before it passes.
//!
//! Each playout copies the board and plays for both sides until both pass: a capture of the
//! string just played when it is in atari, else a uniformly random legal move that neither
//! fills an own single-point eye nor puts a string of more than three stones in atari without
//! capturing; then every stone and every empty point whose neighbours are all one colour
//! counts for that colour. Averaged over [`PLAYOUTS`] playouts this gives, per point, Black's
//! share minus White's (+1: Black's in every playout). A string whose points the opponent owns
//! in most playouts is dead.
//!
//! Limits: a seki can break either way in random play (a small string fills a shared
//! liberty), so its stones may be called dead; a group whose life needs exact play (a ladder, a
//! semeai of many liberties, a ko) is judged by random play, not by reading. The seed is the
//! position's hash, so a position always gets the same answer.

use lens_vm::board::{Board, BoardView, HISTORY_CAPACITY};
use lens_vm::{Colour, Point};

/// Playouts per estimate: enough that a settled group is owned in almost every one.
pub const PLAYOUTS: u32 = 256;

/// The largest string a playout move may put in atari without capturing: three stones make
/// the straight and bent three-point eyes of nakade.
pub const SACRIFICE: usize = 3;

/// Per point (`y * size + x`), Black's ownership minus White's, in [-1, 1], over [`PLAYOUTS`]
/// random playouts from `board` with `to_move` to play.
pub fn ownership(board: &Board, to_move: Colour) -> Vec<f32> {
    let n = board.size() as i32;
    let mut total = vec![0i32; (n * n) as usize];
    let mut rng = SplitMix(board.stones_hash() ^ to_move as u64);
    for _ in 0..PLAYOUTS {
        let end = playout(board.clone(), to_move, &mut rng);
        for y in 0..n {
            for x in 0..n {
                total[(y * n + x) as usize] += match owner(&end, x, y) {
                    Some(Colour::Black) => 1,
                    Some(Colour::White) => -1,
                    None => 0,
                };
            }
        }
    }
    total
        .into_iter()
        .map(|t| t as f32 / PLAYOUTS as f32)
        .collect()
}

/// The strings `ownership` calls dead, as a board-sized mask (`y * size + x`): those whose
/// mean ownership favours the other colour (owned by it in most playouts).
pub fn dead_stones(board: &Board, own: &[f32]) -> Vec<bool> {
    let n = board.size() as i32;
    let mut dead = vec![false; (n * n) as usize];
    let mut seen = vec![false; (n * n) as usize];
    for y in 0..n {
        for x in 0..n {
            let Point::Stone(c) = board.get(x, y) else {
                continue;
            };
            if seen[(y * n + x) as usize] {
                continue;
            }
            let string = string_at(board, x, y, &mut seen);
            let sign = if c == Colour::Black { 1.0 } else { -1.0 };
            let mean: f32 = string
                .iter()
                .map(|&(sx, sy)| sign * own[(sy * n + sx) as usize])
                .sum::<f32>()
                / string.len() as f32;
            if mean < 0.0 {
                for (sx, sy) in string {
                    dead[(sy * n + sx) as usize] = true;
                }
            }
        }
    }
    dead
}

/// The stones of the string at `(x, y)` (flood fill over its colour), marking them in `seen`.
pub fn string_at(board: &Board, x: i32, y: i32, seen: &mut [bool]) -> Vec<(i32, i32)> {
    let n = board.size() as i32;
    let colour = board.get(x, y);
    let mut out = Vec::new();
    let mut stack = vec![(x, y)];
    seen[(y * n + x) as usize] = true;
    while let Some((px, py)) = stack.pop() {
        out.push((px, py));
        for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (qx, qy) = (px + dx, py + dy);
            if board.get(qx, qy) == colour && !seen[(qy * n + qx) as usize] {
                seen[(qy * n + qx) as usize] = true;
                stack.push((qx, qy));
            }
        }
    }
    out
}

/// Moves for both sides until two passes in a row (or a move cap: superko cycles): capture
/// the string the opponent just played if it is in atari, else a uniformly random legal move
/// that neither fills an own single-point eye nor puts a string of more than [`SACRIFICE`]
/// stones in atari without capturing (the usual light playout rules: without them, walls die and dead
/// stones live).
fn playout(mut board: Board, mut colour: Colour, rng: &mut SplitMix) -> Board {
    let n = board.size() as i32;
    let cap = 3 * n * n;
    let mut passes = 0;
    let mut last: Option<(i32, i32)> = None;
    for _ in 0..cap {
        if passes == 2 {
            break;
        }
        if board.history_len() + 4 >= HISTORY_CAPACITY {
            board.clear_history();
        }
        let mut played = last
            .and_then(|(x, y)| atari_liberty(&board, x, y))
            .filter(|&(x, y)| board.play(colour, x, y).is_ok());
        if played.is_none() {
            // A random start and stride-1 scan: every point is tried once.
            let start = (rng.next() % (n * n) as u64) as i32;
            for k in 0..n * n {
                let p = (start + k) % (n * n);
                let (x, y) = (p % n, p / n);
                if board.get(x, y) != Point::Empty || crate::engine::own_eye(&board, colour, x, y) {
                    continue;
                }
                let before = stones(&board, colour.opponent());
                if board.play(colour, x, y).is_err() {
                    continue;
                }
                if board.liberties(x, y) == 1
                    && stones(&board, colour.opponent()) == before
                    && !small(&board, x, y)
                {
                    board.undo();
                    continue;
                }
                played = Some((x, y));
                break;
            }
        }
        if played.is_some() {
            passes = 0;
        } else {
            passes += 1;
            // Passing cannot fail on a board that accepts moves.
            let _ = board.pass(colour);
        }
        last = played;
        colour = colour.opponent();
    }
    board
}

/// The one liberty of the string at `(x, y)` when it is a string in atari.
fn atari_liberty(board: &Board, x: i32, y: i32) -> Option<(i32, i32)> {
    if !matches!(board.get(x, y), Point::Stone(_)) || board.liberties(x, y) != 1 {
        return None;
    }
    let n = board.size() as i32;
    let mut seen = vec![false; (n * n) as usize];
    string_at(board, x, y, &mut seen)
        .into_iter()
        .flat_map(|(sx, sy)| [(sx + 1, sy), (sx - 1, sy), (sx, sy + 1), (sx, sy - 1)])
        .find(|&(lx, ly)| board.get(lx, ly) == Point::Empty)
}

/// Whether the string at `(x, y)` has at most [`SACRIFICE`] stones: such a self-atari is
/// allowed (a throw-in, a nakade sacrifice that leaves a killing shape), or dead groups with
/// such eyes would live.
fn small(board: &Board, x: i32, y: i32) -> bool {
    let n = board.size() as i32;
    let mut seen = vec![false; (n * n) as usize];
    string_at(board, x, y, &mut seen).len() <= SACRIFICE
}

fn stones(board: &Board, colour: Colour) -> u32 {
    (0..board.size() as i32)
        .map(|y| board.row(colour, y).count_ones())
        .sum()
}

/// The colour a point counts for after a playout: its stone, or the one colour around it.
fn owner(board: &Board, x: i32, y: i32) -> Option<Colour> {
    match board.get(x, y) {
        Point::Stone(c) => Some(c),
        Point::Off => None,
        Point::Empty => {
            let mut found = None;
            for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if let Point::Stone(c) = board.get(x + dx, y + dy) {
                    if found.is_some_and(|f| f != c) {
                        return None;
                    }
                    found = Some(c);
                }
            }
            found
        }
    }
}

/// SplitMix64: a small, well-mixed generator; seeded from the position, so repeatable.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
