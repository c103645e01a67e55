//! Shared by the incremental-matching tests and benches: the GNU Go game records of
//! `../shared/data/gnugo/games` (GPL, read at test time, never copied) as step lists, and a
//! random game generator with undos and setup edits.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use lens_vm::board::{Board, Colour};
use sgf_parse::go::{Move, Prop};

/// One change to a board.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Place(Colour, i32, i32),
    Play(Colour, i32, i32),
    Pass(Colour),
}

impl Step {
    /// Applies the step; panics on an illegal one (the records are legal games).
    pub fn apply(self, b: &mut Board) {
        match self {
            Step::Place(c, x, y) => b.place(c, x, y).unwrap(),
            Step::Play(c, x, y) => b.play(c, x, y).unwrap(),
            Step::Pass(c) => b.pass(c).unwrap(),
        }
    }
}

/// `../shared/data/gnugo`, or `None` (after a skip note) when absent.
pub fn gnugo_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/gnugo");
    if dir.join("games").is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/data absent");
        None
    }
}

/// Every game record of `dir/games` (sorted by name) as its steps on a 19x19 board: setup
/// stones (`AB`/`AW`) placed, moves played, passes; `AE` ignored.
pub fn games(dir: &Path) -> Vec<(String, Vec<Step>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let roots = sgf_parse::go::parse(&text).expect("game record parses");
            let mut steps = Vec::new();
            for node in roots[0].main_variation() {
                for p in node.properties() {
                    match p {
                        Prop::AB(points) | Prop::AW(points) => {
                            let c = if matches!(p, Prop::AB(_)) {
                                Colour::Black
                            } else {
                                Colour::White
                            };
                            for pt in points {
                                steps.push(Step::Place(c, pt.x as i32, pt.y as i32));
                            }
                        }
                        Prop::B(m) | Prop::W(m) => {
                            let c = if matches!(p, Prop::B(_)) {
                                Colour::Black
                            } else {
                                Colour::White
                            };
                            steps.push(match m {
                                Move::Move(pt) if pt.x < 19 && pt.y < 19 => {
                                    Step::Play(c, pt.x as i32, pt.y as i32)
                                }
                                _ => Step::Pass(c),
                            });
                        }
                        _ => {}
                    }
                }
            }
            (f.file_name().unwrap().to_string_lossy().into_owned(), steps)
        })
        .collect()
}

/// xorshift64*.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What [`random_step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Did {
    Played,
    Undid,
    Removed,
    Nothing,
}

/// One random change: mostly a legal play of the side to move (a pass when none is found in
/// a few tries), sometimes an undo, rarely a setup removal (`Board::remove`).
pub fn random_step(rng: &mut Rng, b: &mut Board) -> Did {
    let size = b.size() as u64;
    match rng.below(100) {
        0..=14 => {
            if b.undo() {
                Did::Undid
            } else {
                Did::Nothing
            }
        }
        15 => {
            let (x, y) = (rng.below(size) as i32, rng.below(size) as i32);
            if b.remove(x, y).is_ok() {
                Did::Removed
            } else {
                Did::Nothing
            }
        }
        _ => {
            let c = b.to_move();
            for _ in 0..20 {
                let (x, y) = (rng.below(size) as i32, rng.below(size) as i32);
                if b.play(c, x, y).is_ok() {
                    return Did::Played;
                }
            }
            if b.pass(c).is_ok() {
                Did::Played
            } else {
                b.clear_history();
                Did::Nothing
            }
        }
    }
}

/// Asserts that `entries` (a set in entry mode) and `matches` (the same query's set in match
/// mode), just brought to the same board of side `size`, hold the same set: the matches
/// built from the entry mode's hits (`match_of`) are the match mode's difference (the same
/// lists in the same order), its runs (every focus, one beyond the edges too) and its whole
/// set (`entries`, against the runs in scan order), with the same `dropped`; the entry
/// mode's match lists and runs are empty, and the match mode's entry lists. The callers
/// compare `matches` (built on demand in entry mode). Returns the entries that appeared or
/// vanished.
pub fn assert_entry_twin(
    entries: &lens_vm::incremental::IncrementalScan,
    matches: &lens_vm::incremental::IncrementalScan,
    size: i32,
    what: &dyn Fn() -> String,
) -> usize {
    use lens_vm::Match;
    use lens_vm::incremental::EntryHit;
    assert!(entries.entry_results() && !matches.entry_results());
    let built = |hits: &mut dyn Iterator<Item = EntryHit>| -> Vec<Match> {
        hits.map(|h| entries.match_of(h).expect("a hit's match"))
            .collect()
    };
    let (app, van) = (entries.appeared_entries(), entries.vanished_entries());
    assert!(
        built(&mut app.iter().copied()) == matches.appeared(),
        "appeared, {}",
        what()
    );
    assert!(
        built(&mut van.iter().copied()) == matches.vanished(),
        "vanished, {}",
        what()
    );
    // Scan order, as the match lists (ids strictly ascending within each list).
    assert!(app.windows(2).all(|w| w[0] < w[1]), "order, {}", what());
    assert!(van.windows(2).all(|w| w[0] < w[1]), "order, {}", what());
    assert!(entries.appeared().is_empty() && entries.vanished().is_empty());
    assert!(matches.appeared_entries().is_empty() && matches.vanished_entries().is_empty());
    assert_eq!(matches.entries().count(), 0);
    let mut runs = Vec::new();
    for y in -1..=size {
        for x in -1..=size {
            let at = matches.matches_at(x, y);
            assert!(
                built(&mut entries.entries_at(x, y)) == at,
                "({x}, {y}), {}",
                what()
            );
            assert!(entries.matches_at(x, y).is_empty());
            if (0..size).contains(&x) && (0..size).contains(&y) {
                runs.extend_from_slice(at);
            }
        }
    }
    assert!(built(&mut entries.entries()) == runs, "entries, {}", what());
    assert_eq!(entries.dropped(), matches.dropped(), "{}", what());
    app.len() + van.len()
}
