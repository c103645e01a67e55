//! The training set and Coulom's minorization-maximization (MM) fit of a generalized
//! Bradley-Terry model ("Computing Elo ratings of move patterns in the game of Go", 2007).
//!
//! Every legal move of a position is a *team* of features (the distinct patterns of the class
//! that match it); its strength is the product of its features' strengths `gamma`, and the
//! probability that it is the move played is its strength over the sum of all candidates'.
//! Candidates of one position with the same features are stored once with a multiplicity.
//! MM updates one *group* of features at a time (a group's features never meet in one team:
//! the patterns' `group` attribute), which makes each step an exact minorization: the
//! likelihood never decreases. A prior of one virtual win and one virtual loss against a
//! strength-1 opponent keeps rarely seen features near 1 (Coulom's choice).

use std::collections::BTreeMap;

use lens_vm::{ClassId, Rom};

use super::features::Scanner;
use super::games::{Game, GameError, replay};

/// Features of the training set.
#[derive(Clone, Debug)]
pub struct Feature {
    pub pattern: u32,
    pub name: String,
    pub group: String,
}

/// The candidate moves of every training position, as teams of feature indices.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub features: Vec<Feature>,
    feats: Vec<u32>,
    team_start: Vec<u32>,
    mult: Vec<u32>,
    pos_start: Vec<u32>,
    winner: Vec<u32>,
    /// Legal moves summed over positions.
    pub candidates: u64,
    /// Games cut short at a move the board refused.
    pub cut: Vec<GameError>,
}

impl Dataset {
    pub fn positions(&self) -> usize {
        self.winner.len()
    }
    fn team(&self, t: usize) -> &[u32] {
        &self.feats[self.team_start[t] as usize..self.team_start[t + 1] as usize]
    }
}

/// Scans every position of `games` (before each non-pass move) with the class and collects the
/// candidate teams. `progress` is called after each game with (games done, positions).
pub fn collect(
    rom: Rom<'_>,
    class: ClassId,
    games: &[Game],
    mut progress: impl FnMut(usize, usize),
) -> Dataset {
    let mut scanner = Scanner::new(rom, class);
    let mut ds = Dataset {
        team_start: vec![0],
        pos_start: vec![0],
        ..Dataset::default()
    };
    // Pattern id -> feature index.
    let mut index: BTreeMap<u32, u32> = BTreeMap::new();
    // Per candidate of the current position: (point, feature range in `cand`).
    let mut cand: Vec<u32> = Vec::new();
    let mut ranges: Vec<(u16, u32, u32)> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        let r = replay(g, |p| {
            scanner.host.set_position(p.board, p.colour, p.last, p.prev);
            let found = scanner.scan(p.board, p.colour);
            cand.clear();
            ranges.clear();
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
                    let start = cand.len() as u32;
                    while k < found.len() && found[k].0 == pt {
                        let next = index.len() as u32;
                        let f = *index.entry(found[k].1).or_insert_with(|| {
                            let name = rom.pattern_name(found[k].1).unwrap_or("").to_string();
                            let group = rom
                                .pattern_attrs(found[k].1)
                                .find(|(key, _)| *key == "group")
                                .map(|(_, v)| v.trim_matches('"').to_string())
                                .unwrap_or_else(|| name.clone());
                            ds.features.push(Feature {
                                pattern: found[k].1,
                                name,
                                group,
                            });
                            next
                        });
                        cand.push(f);
                        k += 1;
                    }
                    cand[start as usize..].sort_unstable();
                    ranges.push((pt, start, cand.len() as u32));
                }
            }
            // Merge candidates with the same features into teams.
            order.clear();
            order.extend(0..ranges.len());
            let slice = |i: usize| &cand[ranges[i].1 as usize..ranges[i].2 as usize];
            order.sort_by(|&a, &b| slice(a).cmp(slice(b)));
            let played = (p.played.1 * 32 + p.played.0) as u16;
            let mut winner = None;
            let mut i = 0;
            while i < order.len() {
                let mut j = i;
                let team = ds.mult.len() as u32;
                while j < order.len() && slice(order[j]) == slice(order[i]) {
                    if ranges[order[j]].0 == played {
                        winner = Some(team);
                    }
                    j += 1;
                }
                ds.feats.extend_from_slice(slice(order[i]));
                ds.team_start.push(ds.feats.len() as u32);
                ds.mult.push((j - i) as u32);
                i = j;
            }
            ds.candidates += ranges.len() as u64;
            match winner {
                Some(w) => {
                    ds.winner.push(w);
                    ds.pos_start.push(ds.mult.len() as u32);
                }
                None => {
                    // Unreachable for a legal played move; drop the position's teams.
                    let first = *ds.pos_start.last().unwrap_or(&0) as usize;
                    ds.mult.truncate(first);
                    ds.team_start.truncate(first + 1);
                    ds.feats.truncate(ds.team_start[first] as usize);
                }
            }
        });
        if let Err(e) = r {
            ds.cut.push(e);
        }
        progress(gi + 1, ds.positions());
    }
    ds
}

/// Fit settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Full sweeps over every group.
    pub iterations: usize,
    /// Stop early when a sweep improves the mean log-likelihood by less than this.
    pub tolerance: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iterations: 20,
            tolerance: 1e-4,
        }
    }
}

/// The fit: natural logs of the strengths, per feature of the dataset.
#[derive(Clone, Debug)]
pub struct Fit {
    pub log_gamma: Vec<f64>,
    /// Mean log-likelihood per position before each sweep, and after the last.
    pub log_likelihood: Vec<f64>,
    /// Groups whose features met in one team (split into one group per feature).
    pub split_groups: Vec<String>,
}

/// Runs MM. `progress(sweep, mean log-likelihood)` is called before each sweep and once more
/// with the final values.
pub fn fit(ds: &Dataset, opts: &FitOptions, mut progress: impl FnMut(usize, f64)) -> Fit {
    let nf = ds.features.len();
    // Groups by name; a group two of whose features share a team is split, one per feature.
    let mut names: BTreeMap<&str, u32> = BTreeMap::new();
    let mut group: Vec<u32> = ds
        .features
        .iter()
        .map(|f| {
            let n = names.len() as u32;
            *names.entry(f.group.as_str()).or_insert(n)
        })
        .collect();
    let mut clash = vec![false; names.len()];
    for t in 0..ds.mult.len() {
        let team = ds.team(t);
        for (i, &a) in team.iter().enumerate() {
            if team[i + 1..]
                .iter()
                .any(|&b| group[b as usize] == group[a as usize])
            {
                clash[group[a as usize] as usize] = true;
            }
        }
    }
    let split_groups: Vec<String> = names
        .iter()
        .filter(|&(_, &g)| clash[g as usize])
        .map(|(n, _)| n.to_string())
        .collect();
    let mut next = names.len() as u32;
    for g in group.iter_mut() {
        if clash[*g as usize] {
            *g = next;
            next += 1;
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); next as usize];
    for (f, &g) in group.iter().enumerate() {
        members[g as usize].push(f);
    }
    members.retain(|m| !m.is_empty());
    let mut wins = vec![0f64; nf];
    for &w in &ds.winner {
        for &f in ds.team(w as usize) {
            wins[f as usize] += 1.0;
        }
    }
    let mut lg = vec![0f64; nf];
    let mut strength = vec![1f64; ds.mult.len()];
    let mut sums = vec![0f64; ds.positions()];
    let mut denom = vec![0f64; nf];
    let mut ratio = vec![1f64; nf];
    let mut in_group = vec![false; nf];
    let mut history = Vec::new();
    let positions = ds.positions().max(1) as f64;
    for sweep in 0..opts.iterations {
        for (gi, m) in members.iter().enumerate() {
            // Per-position sums with the current strengths.
            let mut ll = 0.0;
            for (j, e) in sums.iter_mut().enumerate() {
                let (a, b) = (ds.pos_start[j] as usize, ds.pos_start[j + 1] as usize);
                *e = (a..b).map(|t| ds.mult[t] as f64 * strength[t]).sum();
                ll += (strength[ds.winner[j] as usize] / *e).ln();
            }
            if gi == 0 {
                history.push(ll / positions);
                progress(sweep, ll / positions);
            }
            for &f in m {
                in_group[f] = true;
                denom[f] = 0.0;
            }
            for (j, &e) in sums.iter().enumerate() {
                let teams = ds.pos_start[j] as usize..ds.pos_start[j + 1] as usize;
                for (t, &s) in teams.clone().zip(&strength[teams]) {
                    for &f in ds.team(t) {
                        if in_group[f as usize] {
                            denom[f as usize] += ds.mult[t] as f64 * s / e;
                        }
                    }
                }
            }
            for &f in m {
                let gamma = lg[f].exp();
                // denom = gamma_f * sum_j C_fj / E_j; prior: one win, one loss against 1.
                let c = denom[f] / gamma;
                let new = ((wins[f] + 1.0) / (c + 2.0 / (gamma + 1.0)))
                    .ln()
                    .clamp(-30.0, 30.0);
                ratio[f] = (new - lg[f]).exp();
                lg[f] = new;
            }
            for (t, s) in strength.iter_mut().enumerate() {
                for &f in ds.team(t) {
                    if in_group[f as usize] {
                        *s *= ratio[f as usize];
                    }
                }
            }
            for &f in m {
                in_group[f] = false;
            }
        }
        let n = history.len();
        if n >= 2 && history[n - 1] - history[n - 2] < opts.tolerance {
            break;
        }
    }
    let final_ll = log_likelihood(ds, &lg);
    progress(history.len(), final_ll);
    history.push(final_ll);
    Fit {
        log_gamma: lg,
        log_likelihood: history,
        split_groups,
    }
}

/// Mean log-likelihood per position of the played moves under strengths `exp(log_gamma)`.
pub fn log_likelihood(ds: &Dataset, log_gamma: &[f64]) -> f64 {
    let mut ll = 0.0;
    for j in 0..ds.positions() {
        let (a, b) = (ds.pos_start[j] as usize, ds.pos_start[j + 1] as usize);
        let s = |t: usize| {
            ds.team(t)
                .iter()
                .map(|&f| log_gamma[f as usize])
                .sum::<f64>()
                .exp()
        };
        let e: f64 = (a..b).map(|t| ds.mult[t] as f64 * s(t)).sum();
        ll += (s(ds.winner[j] as usize) / e).ln();
    }
    ll / ds.positions().max(1) as f64
}
