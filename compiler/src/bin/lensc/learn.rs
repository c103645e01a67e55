//! `lensc learn --class C --source FILE.lens GAMES... -o OUT.lens`: fit the values of a class
//! on game records (Coulom's MM) and write them back into the source (`docs/learning.md`).

use std::path::PathBuf;

use lens_compiler::learn::{self, mm::FitOptions};

use crate::harvest::{SplitArg, load, write};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// SGF files or directories (every *.sgf inside, recursively, sorted).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The source whose class is learned (e.g. the output of `lensc harvest`).
    #[arg(long, value_name = "FILE.lens")]
    pub source: PathBuf,
    /// The class to learn.
    #[arg(long, default_value = "policy")]
    pub class: String,
    /// Output file (`-`: standard output).
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    /// Which games to read: the fixed split by game name (docs/learning.md).
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    pub split: SplitArg,
    /// At most this many MM sweeps (each updates every feature group once).
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Stop when a sweep improves the mean log-likelihood by less than this.
    #[arg(long, default_value_t = 1e-4)]
    pub tolerance: f64,
    /// Threads that scan the games (default: `LENS_LEARN_THREADS`, else every core); the
    /// output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress lines on standard error.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: Args) -> u8 {
    let text = match std::fs::read_to_string(&a.source) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {}: {e}", a.source.display());
            return 2;
        }
    };
    let games = match load(&a.games, a.split.split()) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let started = std::time::Instant::now();
    let opts = FitOptions {
        iterations: a.iterations,
        tolerance: a.tolerance,
        threads: a.threads.unwrap_or_else(learn::mm::default_threads),
    };
    let name = a.source.display().to_string();
    let quiet = a.quiet;
    let learned = match learn::learn(&name, &text, &a.class, &games, &opts, |line| {
        if !quiet {
            eprintln!("{line}");
        }
    }) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    for e in &learned.dataset.cut {
        eprintln!("warning: {e} (the rest of the game is skipped)");
    }
    for g in &learned.fit.split_groups {
        eprintln!(
            "warning: group `{g}` has patterns that match the same move; fitted one pattern at a time"
        );
    }
    let secs = started.elapsed().as_secs_f64();
    let positions = learned.dataset.positions();
    eprintln!(
        "learned {} values of class `{}` from {} games, {} positions, {} legal moves in {:.1} s ({:.0} positions/s)",
        learned.written,
        a.class,
        games.len(),
        positions,
        learned.dataset.candidates,
        secs,
        positions as f64 / secs.max(1e-9)
    );
    write(&a.output, &learned.text)
}
