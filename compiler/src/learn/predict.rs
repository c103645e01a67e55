//! Move prediction with a learned class: a move's score is the sum of the values of the
//! distinct patterns that suggest it (the values are 100 x the log of the strengths, so the
//! probability of a move is `exp(score / 100)` over the sum for all legal moves).

use std::time::{Duration, Instant};

use lens_vm::{ClassId, Rom};

use super::games::{Game, GameError, replay};
use super::scanner::Scanner;

/// The phases of the per-phase breakdown: moves 1-50, 51-100, 101 and later.
pub const PHASES: [(&str, usize, usize); 3] = [
    ("1-50", 1, 50),
    ("51-100", 51, 100),
    ("101+", 101, usize::MAX),
];

/// Counts over a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub positions: usize,
    pub top1: usize,
    pub top5: usize,
    /// Sum of the natural log of the played move's probability.
    pub log_likelihood: f64,
}

impl Tally {
    pub fn top1_rate(&self) -> f64 {
        self.top1 as f64 / self.positions.max(1) as f64
    }
    pub fn top5_rate(&self) -> f64 {
        self.top5 as f64 / self.positions.max(1) as f64
    }
    pub fn mean_log_likelihood(&self) -> f64 {
        self.log_likelihood / self.positions.max(1) as f64
    }
    fn add(&mut self, rank: usize, ll: f64) {
        self.positions += 1;
        self.top1 += (rank == 0) as usize;
        self.top5 += (rank < 5) as usize;
        self.log_likelihood += ll;
    }
}

/// The evaluation of a class on some games.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: usize,
    pub all: Tally,
    pub phases: [Tally; 3],
    /// Time spent scoring positions (scan, predicates, ranking), replay excluded.
    pub scoring_time: Duration,
    pub cut: Vec<GameError>,
}

/// Which moves of each game to evaluate (1-based, inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRange {
    pub from: usize,
    pub to: usize,
}

impl Default for MoveRange {
    fn default() -> Self {
        MoveRange {
            from: 1,
            to: usize::MAX,
        }
    }
}

/// The rank of the played move among the legal moves (0 = the best; ties go to the point
/// first in board order, as an engine taking the first best would play) and the natural log
/// of its probability.
pub fn rank(scores: &[(u16, i32)], played: u16) -> Option<(usize, f64)> {
    let &(_, mine) = scores.iter().find(|s| s.0 == played)?;
    let rank = scores
        .iter()
        .filter(|&&(p, s)| s > mine || (s == mine && p < played))
        .count();
    let max = scores.iter().map(|s| s.1).max().unwrap_or(0);
    let sum: f64 = scores
        .iter()
        .map(|&(_, s)| ((s - max) as f64 / 100.0).exp())
        .sum();
    Some((rank, (mine - max) as f64 / 100.0 - sum.ln()))
}

/// Scores every position of `games` in `range` and tallies the ranks of the played moves.
pub fn evaluate(
    rom: Rom<'_>,
    class: ClassId,
    games: &[Game],
    range: MoveRange,
    mut progress: impl FnMut(usize),
) -> Report {
    let mut scanner = Scanner::new(rom, class);
    let mut report = Report {
        games: games.len(),
        ..Report::default()
    };
    let mut scores: Vec<(u16, i32)> = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        let r = replay(g, |p| {
            if p.number < range.from || p.number > range.to {
                return;
            }
            let started = Instant::now();
            scanner.host.set_position(p.board, p.colour, p.last, p.prev);
            let found = scanner.scan(p.board, p.colour);
            scores.clear();
            let n = p.board.size() as i32;
            let mut k = 0;
            for y in 0..n {
                for x in 0..n {
                    if p.board.check_play(p.colour, x, y).is_err() {
                        continue;
                    }
                    let pt = (y * 32 + x) as u16;
                    while k < found.len() && found[k].0 < pt {
                        k += 1;
                    }
                    let mut score = 0i32;
                    while k < found.len() && found[k].0 == pt {
                        score = score.saturating_add(found[k].2);
                        k += 1;
                    }
                    scores.push((pt, score));
                }
            }
            let played = (p.played.1 * 32 + p.played.0) as u16;
            let Some((rank, ll)) = rank(&scores, played) else {
                return;
            };
            report.scoring_time += started.elapsed();
            report.all.add(rank, ll);
            for (i, &(_, lo, hi)) in PHASES.iter().enumerate() {
                if (lo..=hi).contains(&p.number) {
                    report.phases[i].add(rank, ll);
                }
            }
        });
        if let Err(e) = r {
            report.cut.push(e);
        }
        progress(gi + 1);
    }
    report
}
