//! The move choice of the `gtp` example: Lens's standard library driving a small Go engine.
//!
//! One [`Engine`] holds the game (a `lens_vm::board::Board`, the game record the joseki book
//! needs, the positions seen for superko) and chooses moves in this order:
//! 1. **Joseki** (boards of 13x13 and up): `Walker::lookup` on the game record, corner by corner,
//!    the corner of the last move first: a book continuation for the side to move in a corner
//!    that is in the book, else the book's first move in an empty corner. `bad`, `trick` and
//!    `ignore` moves are never chosen; `urgent` ones first.
//! 2. **Patterns**: every move class of the library scanned over the whole board for the side
//!    to move; per point, the best value of each class, summed over the classes. A point that
//!    any class rejects (`reject *`) is dropped.
//! 3. **Big points**: when the best pattern move is small, a point on the third or fourth line
//!    as far as possible from every stone (the opening, where the classes see no shape).
//! 4. **Captures**: with neither, the safe move that takes the most stones.
//! 5. **Answers to invasions**: an opponent string in the side's area (its points owned by the
//!    side in most random playouts, `ownership.rs`) that is not yet clearly dead gets a safe
//!    move on one of its liberties, fewest liberties first, so stones played into the side's
//!    area are taken off rather than left to live while the engine passes.
//! 6. **Pass** when nothing is left.
//!
//! With a learned policy ([`Engine::set_policy`]: `gtp --policy`, `docs/learning.md`) the
//! engine instead plays the legal move with the best policy score (the sum of the values of the
//! class's patterns that match it), skipping moves its own checks refuse; no joseki, no big
//! points.
//!
//! Every candidate, whatever its source, must also pass the engine's own checks: legal, not a
//! repetition of an earlier position (positional superko), not a self-atari that captures
//! nothing, and never inside the side's own single-point eye.
//!
//! Shared by the example (`main.rs`) and the test `tests/engine_selfplay.rs` (`#[path]`).

use std::collections::{BTreeMap, HashSet};

use crate::ownership;
use lens_joseki::{BoardMove, BookState, Continuation, MoveType, Walker};
use lens_vm::board::{Board, BoardView, HISTORY_CAPACITY, PlayError};
use lens_vm::{
    ClassId, Colour, Match, MatchBuf, MatchResult, NoHost, Orientations, Point, Query, Rom, Scratch,
};

/// The move classes scanned for suggestions (`eye_value` gives eye values, not moves).
pub const MOVE_CLASSES: [&str; 7] = [
    lens_stdlib::SHAPE3X3,
    lens_stdlib::CONNECT,
    lens_stdlib::EYE_VITAL,
    lens_stdlib::TACTICS,
    lens_stdlib::EDGE,
    lens_stdlib::ENDGAME,
    lens_stdlib::SELF_ATARI,
];

/// Smallest board the joseki book is used on: its lines reach the ninth line along a side.
pub const JOSEKI_MIN_SIZE: u8 = 13;

/// An opponent string whose mean ownership from the engine's side (its share of the playouts
/// minus the opponent's) is at least this, i.e. owned by the engine in 95% of the playouts,
/// is clearly dead: no answer needed.
pub const SETTLED: f32 = 0.9;

/// A big point is preferred to a pattern move whose summed value is below this (shape moves
/// worth less than an opening move; captures, ataris and urgent links score far higher).
pub const BIG_POINT_OVER: i32 = 40;

/// Where a chosen move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A continuation from the joseki book (its type).
    Joseki(MoveType),
    /// The book's first move in an empty corner.
    JosekiOpening,
    /// The best-scoring pattern suggestion (its summed value).
    Pattern(i32),
    /// The best move of the learned policy (its score).
    Policy(i32),
    /// A big point far from every stone.
    BigPoint,
    /// No pattern and no big point, but a capture (the stones taken).
    Capture(u32),
    /// A liberty of an opponent string in the engine's area that is not yet clearly dead.
    Invasion,
    /// Nothing sensible left.
    Pass,
}

/// A chosen move: `at` is `None` for a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub at: Option<(i32, i32)>,
    pub source: Source,
}

/// Why [`Engine::play`] refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The board refused it (occupied, suicide, simple ko, ...).
    Illegal(PlayError),
    /// It repeats an earlier position (positional superko).
    Superko,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Illegal(e) => write!(f, "{e}"),
            MoveError::Superko => f.write_str("repeats an earlier position"),
        }
    }
}

/// A Go engine whose knowledge is the standard library.
pub struct Engine {
    board: Board,
    /// The game record (joseki lookups take the moves in order, passes included).
    record: Vec<BoardMove>,
    /// Stone hashes of every position of the game (positional superko).
    seen: HashSet<u64>,
    komi: f32,
    rom: Rom<'static>,
    walker: Walker<'static>,
    classes: Vec<ClassId>,
    scratch: Box<Scratch>, // ~355 KiB: on the heap, not in the engine value that moves
    slots: Vec<Match>,
    /// The learned policy's image, when the engine plays by it.
    policy: Option<Policy>,
}

/// A learned move-prediction class and the scanner that scores its moves.
pub struct Policy {
    scanner: lens_compiler::learn::Scanner<'static>,
}

impl Policy {
    /// The class `class` of `rom`; `None` when the image has no such class.
    pub fn new(rom: Rom<'static>, class: &str) -> Option<Policy> {
        let id = rom.class_by_name(class)?;
        Some(Policy {
            scanner: lens_compiler::learn::Scanner::new(rom, id),
        })
    }
}

impl Engine {
    /// An engine on an empty board of `size` (5..=25); `None` for another size.
    pub fn new(size: u8) -> Option<Engine> {
        Some(Engine::with_board(Board::new(size)?))
    }

    /// An engine on a set-up position (its game record empty: the joseki book sees no moves).
    pub fn with_board(board: Board) -> Engine {
        let rom = lens_stdlib::rom();
        let classes = MOVE_CLASSES
            .iter()
            .map(|name| match rom.class_by_name(name) {
                Some(id) => id,
                None => panic!("the standard library has no class {name}"),
            })
            .collect();
        let walker = match Walker::new(lens_stdlib::joseki_blob()) {
            Ok(w) => w,
            Err(e) => panic!("the standard library's joseki blob does not decode: {e}"),
        };
        let mut seen = HashSet::new();
        seen.insert(board.stones_hash());
        Engine {
            board,
            record: Vec::new(),
            seen,
            komi: 7.5,
            rom,
            walker,
            classes,
            scratch: Box::new(Scratch::new()),
            slots: vec![Match::EMPTY; 4096],
            policy: None,
        }
    }

    /// Plays by a learned policy class from now on (see the module docs).
    pub fn set_policy(&mut self, policy: Policy) {
        self.policy = Some(policy);
    }

    /// Takes the policy away (to hand it to a fresh engine).
    pub fn take_policy(&mut self) -> Option<Policy> {
        self.policy.take()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> u8 {
        self.board.size()
    }

    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    /// The moves played so far (passes as `at: None`).
    pub fn record(&self) -> &[BoardMove] {
        &self.record
    }

    /// Plays a move (`None`: pass) for `colour`; the board is unchanged on an error.
    pub fn play(&mut self, colour: Colour, at: Option<(i32, i32)>) -> Result<(), MoveError> {
        // Keep room for a move and a trial move; the undo history is not needed across moves.
        if self.board.history_len() + 2 >= HISTORY_CAPACITY {
            self.board.clear_history();
        }
        match at {
            None => self.board.pass(colour).map_err(MoveError::Illegal)?,
            Some((x, y)) => {
                self.board.play(colour, x, y).map_err(MoveError::Illegal)?;
                if self.seen.contains(&self.board.stones_hash()) {
                    self.board.undo();
                    return Err(MoveError::Superko);
                }
                self.seen.insert(self.board.stones_hash());
            }
        }
        self.record.push(BoardMove {
            colour: jcolour(colour),
            at: at.map(|(x, y)| (x as u8, y as u8)),
        });
        Ok(())
    }

    /// Chooses a move for `colour` and plays it.
    pub fn genmove(&mut self, colour: Colour) -> Choice {
        let choice = self.choose(colour);
        if let Err(e) = self.play(colour, choice.at) {
            // `choose` checked the move on this very board; a refusal here is a bug.
            panic!("the engine chose a move the board refuses: {choice:?}: {e}");
        }
        choice
    }

    /// Chooses a move for `colour` without playing it.
    pub fn choose(&mut self, colour: Colour) -> Choice {
        if self.board.history_len() + 2 >= HISTORY_CAPACITY {
            self.board.clear_history();
        }
        if self.policy.is_some() {
            return match self.policy_move(colour) {
                Some((at, score)) => Choice {
                    at: Some(at),
                    source: Source::Policy(score),
                },
                None => Choice {
                    at: None,
                    source: Source::Pass,
                },
            };
        }
        if let Some(choice) = self.joseki(colour) {
            return choice;
        }
        let pattern = self.pattern_move(colour);
        let big = self.big_point(colour);
        match (pattern, big) {
            (Some((_, v)), Some(b)) if v < BIG_POINT_OVER => Choice {
                at: Some(b),
                source: Source::BigPoint,
            },
            (Some((at, v)), _) => Choice {
                at: Some(at),
                source: Source::Pattern(v),
            },
            (None, Some(b)) => Choice {
                at: Some(b),
                source: Source::BigPoint,
            },
            (None, None) => match self.capture(colour) {
                Some((at, taken)) => Choice {
                    at: Some(at),
                    source: Source::Capture(taken),
                },
                None => match self.answer_invasion(colour) {
                    Some(at) => Choice {
                        at: Some(at),
                        source: Source::Invasion,
                    },
                    None => Choice {
                        at: None,
                        source: Source::Pass,
                    },
                },
            },
        }
    }

    /// The safe move that captures the most stones, before passing: on a nearly full board
    /// no class may see shape, yet a move can still take a whole group.
    fn capture(&mut self, colour: Colour) -> Option<((i32, i32), u32)> {
        let n = self.board.size() as i32;
        let mut best: Option<((i32, i32), u32)> = None;
        for y in 0..n {
            for x in 0..n {
                if self.board.get(x, y) != Point::Empty {
                    continue;
                }
                let before = self.stone_count(colour.opponent());
                if self.board.play(colour, x, y).is_err() {
                    continue;
                }
                let taken = before - self.stone_count(colour.opponent());
                self.board.undo();
                if taken > 0 && best.is_none_or(|b| taken > b.1) && self.safe(colour, (x, y)) {
                    best = Some(((x, y), taken));
                }
            }
        }
        best
    }

    /// Before passing: a safe liberty of an opponent string in `colour`'s area (owned by
    /// `colour` in most playouts) that is not clearly dead (below [`SETTLED`]); the string
    /// with the fewest liberties first, then the liberty that leaves the new stone the most
    /// liberties.
    pub fn answer_invasion(&mut self, colour: Colour) -> Option<(i32, i32)> {
        let n = self.board.size() as i32;
        let own = ownership::ownership(&self.board, colour);
        let sign = if colour == Colour::Black { 1.0 } else { -1.0 };
        let mut seen = vec![false; (n * n) as usize];
        let mut targets = Vec::new();
        for y in 0..n {
            for x in 0..n {
                if self.board.get(x, y) != Point::Stone(colour.opponent())
                    || seen[(y * n + x) as usize]
                {
                    continue;
                }
                let string = ownership::string_at(&self.board, x, y, &mut seen);
                let ours = string
                    .iter()
                    .map(|&(sx, sy)| sign * own[(sy * n + sx) as usize])
                    .sum::<f32>()
                    / string.len() as f32;
                if ours > 0.0 && ours < SETTLED {
                    targets.push((self.board.liberties(x, y), string));
                }
            }
        }
        targets.sort_by_key(|t| (t.0, std::cmp::Reverse(t.1.len())));
        for (_, string) in targets {
            let mut best: Option<(u16, (i32, i32))> = None;
            let mut libs: Vec<(i32, i32)> = string
                .iter()
                .flat_map(|&(x, y)| [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)])
                .filter(|&(x, y)| self.board.get(x, y) == Point::Empty)
                .collect();
            libs.sort_unstable_by_key(|&(x, y)| (y, x));
            libs.dedup();
            for at in libs {
                if !self.safe(colour, at) {
                    continue;
                }
                self.board.play(colour, at.0, at.1).ok()?;
                let l = self.board.liberties(at.0, at.1);
                self.board.undo();
                if best.is_none_or(|b| l > b.0) {
                    best = Some((l, at));
                }
            }
            if let Some((_, at)) = best {
                return Some(at);
            }
        }
        None
    }

    /// The joseki step: a book continuation for `colour`, or a first move in an empty corner.
    fn joseki(&mut self, colour: Colour) -> Option<Choice> {
        let size = self.board.size();
        if size < JOSEKI_MIN_SIZE {
            return None;
        }
        let half = size.div_ceil(2);
        let corner_of = |(x, y): (u8, u8)| (x >= half) as u8 | (((y >= half) as u8) << 1);
        let last = self.record.iter().rev().find_map(|m| m.at).map(corner_of);
        let order = last.into_iter().chain(0..4).fold(Vec::new(), |mut v, c| {
            if !v.contains(&c) {
                v.push(c);
            }
            v
        });
        let mut out = [Continuation::EMPTY; 32];
        let mut opening = None;
        for corner in order {
            let r = self
                .walker
                .lookup(size, &self.record, Some(corner), jcolour(colour), &mut out);
            let found = &out[..r.continuations.min(out.len())];
            match r.corners[corner as usize].state {
                BookState::InBook => {
                    let mut best: Option<(u8, (i32, i32), MoveType)> = None;
                    for c in found {
                        let Some((x, y)) = c.at else { continue };
                        let rank = match c.kind {
                            MoveType::Urgent => 0,
                            MoveType::Normal | MoveType::Complex => 1,
                            MoveType::Minor | MoveType::TenukiOk => 2,
                            MoveType::Bad | MoveType::Trick | MoveType::Ignore => continue,
                        };
                        let at = (x as i32, y as i32);
                        if c.colour != jcolour(colour) || !self.safe(colour, at) {
                            continue;
                        }
                        if best.is_none_or(|b| rank < b.0) {
                            best = Some((rank, at, c.kind));
                        }
                    }
                    if let Some((_, at, kind)) = best {
                        return Some(Choice {
                            at: Some(at),
                            source: Source::Joseki(kind),
                        });
                    }
                }
                BookState::Empty if opening.is_none() => {
                    opening = found
                        .iter()
                        .filter(|c| c.colour == jcolour(colour))
                        .filter_map(|c| c.at)
                        .map(|(x, y)| (x as i32, y as i32))
                        .find(|&at| self.safe(colour, at));
                }
                _ => {}
            }
        }
        opening.map(|at| Choice {
            at: Some(at),
            source: Source::JosekiOpening,
        })
    }

    /// Every move class over the whole board: the best safe point and its summed value.
    fn pattern_move(&mut self, colour: Colour) -> Option<((i32, i32), i32)> {
        // Per point: the best value of each class (summed below), or rejected.
        let mut best: BTreeMap<(i32, i32), Vec<i32>> = BTreeMap::new();
        let mut rejected: HashSet<(i32, i32)> = HashSet::new();
        let n = self.classes.len();
        for (k, &class) in self.classes.iter().enumerate() {
            let q = Query {
                class,
                perspective: colour,
                orientations: Orientations::All,
            };
            // A busy 19x19 board can overflow the buffer: grow it and scan again, so no
            // suggestion (or reject) is silently lost.
            let found = loop {
                let mut out = MatchBuf::new(&mut self.slots);
                self.rom
                    .scan(&self.board, &NoHost, &q, &mut self.scratch, &mut out);
                let (len, dropped) = (out.as_slice().len(), out.dropped());
                if dropped == 0 {
                    break len;
                }
                let grown = (len + dropped).next_power_of_two();
                self.slots.resize(grown, Match::EMPTY);
            };
            for m in &self.slots[..found] {
                match m.result {
                    MatchResult::Move { x, y, value, .. } => {
                        let v = best.entry((x, y)).or_insert_with(|| vec![i32::MIN; n]);
                        v[k] = v[k].max(value);
                    }
                    MatchResult::Reject { x, y } => {
                        rejected.insert((x, y));
                    }
                    _ => {}
                }
            }
        }
        let mut ranked: Vec<((i32, i32), i32)> = best
            .into_iter()
            .filter(|(at, _)| !rejected.contains(at))
            .map(|(at, v)| (at, v.iter().filter(|&&v| v > i32::MIN).sum()))
            .filter(|&(_, v)| v > 0)
            .collect();
        // Highest value first; ties in board order (the BTreeMap's), so choices are repeatable.
        ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
        ranked.into_iter().find(|&(at, _)| self.safe(colour, at))
    }

    /// The learned policy's best safe move for `colour` and its score: every legal point scored
    /// by the class, best first (ties in board order).
    fn policy_move(&mut self, colour: Colour) -> Option<((i32, i32), i32)> {
        let mut policy = self.policy.take()?;
        let mut moves = self
            .record
            .iter()
            .rev()
            .map(|m| m.at.map(|(x, y)| (x as i32, y as i32)));
        let (last, prev) = (moves.next().flatten(), moves.next().flatten());
        policy
            .scanner
            .host
            .set_position(&mut self.board, colour, last, prev);
        let found = policy.scanner.scan(&self.board, colour);
        // Scores by point index y * 32 + x.
        let mut scores = [0i32; 32 * 32];
        for &(point, _, value) in found {
            scores[point as usize] = scores[point as usize].saturating_add(value);
        }
        let n = self.board.size() as i32;
        let mut ranked: Vec<((i32, i32), i32)> = (0..n)
            .flat_map(|y| (0..n).map(move |x| (x, y)))
            .filter(|&(x, y)| self.board.get(x, y) == Point::Empty)
            .map(|(x, y)| ((x, y), scores[(y * 32 + x) as usize]))
            .collect();
        // Best first; the sort is stable, so ties stay in board order.
        ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
        let best = ranked.into_iter().find(|&(at, _)| self.safe(colour, at));
        self.policy = Some(policy);
        best
    }

    /// A safe point on the third or fourth line (from every edge) as far as possible from
    /// every stone, at least three points (Chebyshev distance) away; `None` when none is.
    fn big_point(&mut self, colour: Colour) -> Option<(i32, i32)> {
        let n = self.board.size() as i32;
        let mut stones = Vec::new();
        for y in 0..n {
            for x in 0..n {
                if matches!(self.board.get(x, y), Point::Stone(_)) {
                    stones.push((x, y));
                }
            }
        }
        let line = |v: i32| v.min(n - 1 - v) + 1;
        let mut best: Option<(i32, (i32, i32))> = None;
        for y in 0..n {
            for x in 0..n {
                let (lx, ly) = (line(x), line(y));
                if !(3..=4).contains(&lx.min(ly)) {
                    continue;
                }
                let d = stones
                    .iter()
                    .map(|&(sx, sy)| (sx - x).abs().max((sy - y).abs()))
                    .min()
                    .unwrap_or(n)
                    .min(6);
                if d < 3 {
                    continue;
                }
                // Farther first; then nearer the corners (lower lines), then board order.
                let key = d * 16 - (lx + ly);
                if best.is_none_or(|b| key > b.0) && self.safe(colour, (x, y)) {
                    best = Some((key, (x, y)));
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The engine's own checks on a candidate: legal, no superko, not inside an own
    /// single-point eye, not a self-atari that captures nothing.
    pub fn safe(&mut self, colour: Colour, (x, y): (i32, i32)) -> bool {
        if self.board.check_play(colour, x, y).is_err() || own_eye(&self.board, colour, x, y) {
            return false;
        }
        let before = self.stone_count(colour.opponent());
        if self.board.play(colour, x, y).is_err() {
            return false;
        }
        let captured = self.stone_count(colour.opponent()) < before;
        let ok = !self.seen.contains(&self.board.stones_hash())
            && (self.board.liberties(x, y) > 1 || captured);
        self.board.undo();
        ok
    }

    fn stone_count(&self, colour: Colour) -> u32 {
        (0..self.board.size() as i32)
            .map(|y| self.board.row(colour, y).count_ones())
            .sum()
    }

    /// Area score minus komi, positive when Black leads: stones plus empty regions bordered
    /// by one colour only, after taking off the strings random playouts call dead
    /// (`ownership.rs`, with its limits). The side to move in the playouts is the one after
    /// the last move (Black on a fresh board).
    pub fn score(&self) -> f32 {
        let to_move = match self.record.last().map(|m| m.colour) {
            Some(lens_joseki::Colour::Black) => Colour::White,
            _ => Colour::Black,
        };
        let own = ownership::ownership(&self.board, to_move);
        let dead = ownership::dead_stones(&self.board, &own);
        let (b, w) = area_without(&self.board, &dead);
        b as f32 - w as f32 - self.komi
    }
}

/// Whether `(x, y)` is an empty point whose every on-board neighbour is a stone of `colour`
/// (an eye of one point, true or false). Filling one never captures and at best turns a
/// living group into a dead one.
pub fn own_eye(board: &Board, colour: Colour, x: i32, y: i32) -> bool {
    if board.get(x, y) != Point::Empty {
        return false;
    }
    [(0, 1), (0, -1), (1, 0), (-1, 0)]
        .iter()
        .all(|(dx, dy)| match board.get(x + dx, y + dy) {
            Point::Off => true,
            Point::Stone(c) => c == colour,
            Point::Empty => false,
        })
}

/// Area count: (Black's stones and territory, White's).
pub fn area(board: &Board) -> (u32, u32) {
    let n = board.size() as usize;
    area_without(board, &vec![false; n * n])
}

/// Area count with the stones marked in `dead` (`y * size + x`) taken off first: their points
/// count as empty, for the colour around them.
pub fn area_without(board: &Board, dead: &[bool]) -> (u32, u32) {
    let n = board.size() as i32;
    let get = |x: i32, y: i32| match board.get(x, y) {
        Point::Stone(_) if dead[(y * n + x) as usize] => Point::Empty,
        p => p,
    };
    let mut seen = vec![false; (n * n) as usize];
    let (mut black, mut white) = (0, 0);
    for y in 0..n {
        for x in 0..n {
            match get(x, y) {
                Point::Stone(Colour::Black) => black += 1,
                Point::Stone(Colour::White) => white += 1,
                _ if seen[(y * n + x) as usize] => {}
                _ => {
                    // Flood the empty region and note which colours border it.
                    let (mut size, mut borders) = (0, (false, false));
                    let mut stack = vec![(x, y)];
                    seen[(y * n + x) as usize] = true;
                    while let Some((px, py)) = stack.pop() {
                        size += 1;
                        for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                            let (qx, qy) = (px + dx, py + dy);
                            match get(qx, qy) {
                                Point::Empty if !seen[(qy * n + qx) as usize] => {
                                    seen[(qy * n + qx) as usize] = true;
                                    stack.push((qx, qy));
                                }
                                Point::Stone(Colour::Black) => borders.0 = true,
                                Point::Stone(Colour::White) => borders.1 = true,
                                _ => {}
                            }
                        }
                    }
                    match borders {
                        (true, false) => black += size,
                        (false, true) => white += size,
                        _ => {}
                    }
                }
            }
        }
    }
    (black, white)
}

pub fn jcolour(c: Colour) -> lens_joseki::Colour {
    match c {
        Colour::Black => lens_joseki::Colour::Black,
        Colour::White => lens_joseki::Colour::White,
    }
}
