//! `lensc harvest GAMES... -o FILE.lens`: the frequent shapes of played moves as `.lens`
//! patterns of a class of their own, with the feature patterns, values 0 (`docs/learning.md`).

use std::path::PathBuf;

use lens_compiler::learn::{self, harvest::HarvestOptions};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitArg {
    All,
    Train,
    Test,
}

impl SplitArg {
    pub fn split(self) -> learn::Split {
        match self {
            SplitArg::All => learn::Split::All,
            SplitArg::Train => learn::Split::Train,
            SplitArg::Test => learn::Split::Test,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// SGF files or directories (every *.sgf inside, recursively, sorted).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Output file (`-`: standard output).
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    /// The class of the patterns.
    #[arg(long, default_value = "policy")]
    pub class: String,
    /// Which games to read: the fixed split by game name (docs/learning.md).
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    pub split: SplitArg,
    /// Keep shapes played at least this many times.
    #[arg(long, default_value_t = 3)]
    pub min_count: u32,
    /// Keep at most this many shapes (the most played).
    #[arg(long, default_value_t = 20_000)]
    pub max_patterns: usize,
}

/// Reads the games of `paths` that `split` keeps; prints the error and returns the exit code.
pub fn load(paths: &[PathBuf], split: learn::Split) -> Result<Vec<learn::Game>, u8> {
    match learn::read_games(paths, split) {
        Ok(g) if g.is_empty() => {
            eprintln!("error: no games (SGF files) in the inputs for this split");
            Err(1)
        }
        Ok(g) => Ok(g),
        Err(e) => {
            eprintln!("error: {e}");
            Err(1)
        }
    }
}

/// Writes `text` to `path` (`-`: standard output).
pub fn write(path: &PathBuf, text: &str) -> u8 {
    if path.as_os_str() == "-" {
        print!("{text}");
        return 0;
    }
    match std::fs::write(path, text) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            2
        }
    }
}

pub fn run(a: Args) -> u8 {
    let games = match load(&a.games, a.split.split()) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let opts = HarvestOptions {
        class: a.class.clone(),
        min_count: a.min_count,
        max_patterns: a.max_patterns,
    };
    let started = std::time::Instant::now();
    let h = learn::harvest::harvest(&games, &opts);
    for e in &h.cut {
        eprintln!("warning: {e} (the rest of the game is skipped)");
    }
    eprintln!(
        "harvested {} shapes from {} games, {} positions in {:.1} s",
        h.shapes.len(),
        h.games,
        h.positions,
        started.elapsed().as_secs_f64()
    );
    let origin = format!("split {:?}", a.split).to_lowercase();
    write(&a.output, &learn::harvest::to_source(&h, &opts, &origin))
}
