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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use std::sync::Arc;

use lens_vm::{ClassId, Rom};

use super::games::{Game, GameError, replay};
use super::scanner::{ScanSetup, Scanner};

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

/// The teams of one game, with feature indices of the class (pattern id - first pattern).
#[derive(Default)]
struct GameTeams {
    feats: Vec<u32>,
    /// Team ends (exclusive) into `feats`.
    team_end: Vec<u32>,
    mult: Vec<u32>,
    /// Per position: its teams' end (exclusive) into `mult`, and the winning team.
    positions: Vec<(u32, u32)>,
    candidates: u64,
    cut: Option<GameError>,
}

/// How many threads [`collect`] scans with: `LENS_LEARN_THREADS` when set, else the machine's
/// parallelism. The dataset does not depend on it.
pub fn default_threads() -> usize {
    std::env::var("LENS_LEARN_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Scans every position of `games` (before each non-pass move) with the class and collects the
/// candidate teams, on `threads` threads. Games are scanned independently and appended in game
/// order, so the dataset is the same for any number of threads. `progress` is called after
/// each game with (games done, positions).
pub fn collect(
    rom: Rom<'_>,
    class: ClassId,
    games: &[Game],
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> Dataset {
    let setup = Arc::new(ScanSetup::new(&rom, class));
    // The features: the patterns of the class and of its features class, by pattern id (what
    // matches report; so a point's suggestions, sorted by pattern, come out sorted by feature);
    // `index` maps a pattern id to its feature.
    let mut ids: Vec<u32> = setup
        .classes()
        .into_iter()
        .filter_map(|c| rom.class(c))
        .flat_map(|c| c.first_pattern()..c.first_pattern() + c.pattern_count())
        .map(|p| rom.pattern(p).id())
        .collect();
    ids.sort_unstable();
    let mut index = vec![u32::MAX; ids.last().map_or(0, |&p| p as usize + 1)];
    for (i, &p) in ids.iter().enumerate() {
        if let Some(slot) = index.get_mut(p as usize) {
            *slot = i as u32;
        }
    }
    let features = ids
        .iter()
        .map(|&p| {
            let name = rom.pattern_name(p).unwrap_or("").to_string();
            let group = rom
                .pattern_attrs(p)
                .find(|(key, _)| *key == "group")
                .map(|(_, v)| v.trim_matches('"').to_string())
                .unwrap_or_else(|| name.clone());
            Feature {
                pattern: p,
                name,
                group,
            }
        })
        .collect();
    let mut ds = Dataset {
        features,
        team_start: vec![0],
        pos_start: vec![0],
        ..Dataset::default()
    };
    let threads = threads.clamp(1, games.len().max(1));
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, GameTeams)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let send = send.clone();
            let (next, setup, index) = (&next, Arc::clone(&setup), &index);
            scope.spawn(move || {
                let mut scanner = Scanner::with_setup(rom, setup);
                loop {
                    let gi = next.fetch_add(1, Ordering::Relaxed);
                    if gi >= games.len() {
                        break;
                    }
                    let teams = game_teams(&mut scanner, index, &games[gi]);
                    if send.send((gi, teams)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Append in game order as games arrive.
        let mut pending: BTreeMap<usize, GameTeams> = BTreeMap::new();
        let mut done = 0;
        for (gi, teams) in receive {
            pending.insert(gi, teams);
            while let Some(g) = pending.remove(&done) {
                ds.append(g);
                done += 1;
                progress(done, ds.positions());
            }
        }
    });
    ds
}

impl Dataset {
    fn append(&mut self, g: GameTeams) {
        let (feats0, teams0) = (self.feats.len() as u32, self.mult.len() as u32);
        self.feats.extend_from_slice(&g.feats);
        self.team_start
            .extend(g.team_end.iter().map(|e| e + feats0));
        self.mult.extend_from_slice(&g.mult);
        for &(end, winner) in &g.positions {
            self.pos_start.push(end + teams0);
            self.winner.push(winner + teams0);
        }
        self.candidates += g.candidates;
        self.cut.extend(g.cut);
    }
}

/// Replays one game and keeps the candidate teams of each position.
fn game_teams(scanner: &mut Scanner<'_>, index: &[u32], game: &Game) -> GameTeams {
    let mut g = GameTeams::default();
    // Per candidate of the current position: (point, feature range in `cand`).
    let mut cand: Vec<u32> = Vec::new();
    let mut ranges: Vec<(u16, u32, u32)> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    let r = replay(game, |p| {
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
                // `found` is sorted by point then pattern id: the features come out sorted.
                while k < found.len() && found[k].0 == pt {
                    cand.push(index[found[k].1 as usize]);
                    k += 1;
                }
                ranges.push((pt, start, cand.len() as u32));
            }
        }
        // Merge candidates with the same features into teams.
        order.clear();
        order.extend(0..ranges.len());
        let slice = |i: usize| &cand[ranges[i].1 as usize..ranges[i].2 as usize];
        order.sort_by(|&a, &b| slice(a).cmp(slice(b)));
        let played = (p.played.1 * 32 + p.played.0) as u16;
        let first_team = g.mult.len();
        let mut winner = None;
        let mut i = 0;
        while i < order.len() {
            let mut j = i;
            let team = g.mult.len() as u32;
            while j < order.len() && slice(order[j]) == slice(order[i]) {
                if ranges[order[j]].0 == played {
                    winner = Some(team);
                }
                j += 1;
            }
            g.feats.extend_from_slice(slice(order[i]));
            g.team_end.push(g.feats.len() as u32);
            g.mult.push((j - i) as u32);
            i = j;
        }
        g.candidates += ranges.len() as u64;
        match winner {
            Some(w) => g.positions.push((g.mult.len() as u32, w)),
            None => {
                // Unreachable for a legal played move; drop the position's teams.
                g.mult.truncate(first_team);
                g.team_end.truncate(first_team);
                g.feats
                    .truncate(g.team_end.last().map_or(0, |&e| e as usize));
            }
        }
    });
    g.cut = r.err();
    g
}

/// Fit settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Full sweeps over every group.
    pub iterations: usize,
    /// Stop early when a sweep improves the mean log-likelihood by less than this.
    pub tolerance: f64,
    /// Threads that scan the games ([`collect`]); the result does not depend on it.
    pub threads: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iterations: 20,
            tolerance: 1e-4,
            threads: default_threads(),
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
    // Number the non-empty groups densely.
    let mut dense = vec![u32::MAX; members.len()];
    let mut k = 0;
    for (g, m) in members.iter().enumerate() {
        if !m.is_empty() {
            dense[g] = k;
            k += 1;
        }
    }
    members.retain(|m| !m.is_empty());
    for g in group.iter_mut() {
        *g = dense[*g as usize];
    }
    // Each group's occurrences `(team, feature)`, teams ascending: a group's step only
    // visits the teams it can change, not the whole dataset.
    let teams = ds.mult.len();
    let mut team_pos = vec![0u32; teams];
    for j in 0..ds.positions() {
        team_pos[ds.pos_start[j] as usize..ds.pos_start[j + 1] as usize].fill(j as u32);
    }
    let mut occ_start = vec![0usize; members.len() + 1];
    for &f in &ds.feats {
        occ_start[group[f as usize] as usize + 1] += 1;
    }
    for g in 0..members.len() {
        occ_start[g + 1] += occ_start[g];
    }
    let mut fill = occ_start.clone();
    let mut occ: Vec<(u32, u32)> = vec![(0, 0); ds.feats.len()];
    for t in 0..teams {
        for &f in ds.team(t) {
            let g = group[f as usize] as usize;
            occ[fill[g]] = (t as u32, f);
            fill[g] += 1;
        }
    }
    let mut wins = vec![0f64; nf];
    for &w in &ds.winner {
        for &f in ds.team(w as usize) {
            wins[f as usize] += 1.0;
        }
    }
    let mut lg = vec![0f64; nf];
    let mut strength = vec![1f64; teams];
    let mut sums: Vec<f64> = (0..ds.positions())
        .map(|j| {
            (ds.pos_start[j]..ds.pos_start[j + 1])
                .map(|t| ds.mult[t as usize] as f64)
                .sum()
        })
        .collect();
    let mut touched = vec![false; ds.positions()];
    let mut denom = vec![0f64; nf];
    let mut ratio = vec![1f64; nf];
    let mut history = Vec::new();
    let positions = ds.positions().max(1) as f64;
    for sweep in 0..opts.iterations {
        let ll: f64 = (0..ds.positions())
            .map(|j| (strength[ds.winner[j] as usize] / sums[j]).ln())
            .sum();
        history.push(ll / positions);
        progress(sweep, ll / positions);
        for (gi, m) in members.iter().enumerate() {
            let occ = &occ[occ_start[gi]..occ_start[gi + 1]];
            for &f in m {
                denom[f] = 0.0;
            }
            for &(t, f) in occ {
                let t = t as usize;
                denom[f as usize] += ds.mult[t] as f64 * strength[t] / sums[team_pos[t] as usize];
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
            for &(t, f) in occ {
                strength[t as usize] *= ratio[f as usize];
                touched[team_pos[t as usize] as usize] = true;
            }
            // The sums of the positions that changed, recomputed (not patched: no drift).
            for (j, e) in sums.iter_mut().enumerate() {
                if std::mem::take(&mut touched[j]) {
                    let (a, b) = (ds.pos_start[j] as usize, ds.pos_start[j + 1] as usize);
                    *e = (a..b).map(|t| ds.mult[t] as f64 * strength[t]).sum();
                }
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
