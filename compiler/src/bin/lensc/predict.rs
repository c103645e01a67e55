//! `lensc predict --class C ROM-or-SOURCES --games GAMES...`: how often a learned class ranks
//! the played move first and in its top 5, and the mean log-likelihood (`docs/learning.md`).

use std::path::PathBuf;

use lens_compiler::learn::{
    self,
    predict::{MoveRange, PHASES, Tally},
};

use crate::compile::MessageFormat;
use crate::disasm::{load_image, validate};
use crate::harvest::{SplitArg, load};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A ROM image, or source files/directories compiled first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// SGF files or directories (every *.sgf inside, recursively, sorted).
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// The class that scores the moves.
    #[arg(long, default_value = "policy")]
    pub class: String,
    /// Which games to read: the fixed split by game name (docs/learning.md).
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    pub split: SplitArg,
    /// First move of each game to predict (1-based).
    #[arg(long, default_value_t = 1)]
    pub from: usize,
    /// Last move of each game to predict.
    #[arg(long)]
    pub to: Option<usize>,
    /// One JSON object on standard output.
    #[arg(long)]
    pub json: bool,
}

fn tally_json(t: &Tally) -> serde_json::Value {
    serde_json::json!({
        "positions": t.positions,
        "top1": t.top1_rate(),
        "top5": t.top5_rate(),
        "mean_log_likelihood": t.mean_log_likelihood(),
    })
}

pub fn run(a: Args) -> u8 {
    let bytes = match load_image(&a.inputs, false, MessageFormat::Human) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let rom = match validate(&bytes, &a.inputs) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Some(class) = rom.class_by_name(&a.class) else {
        let names: Vec<&str> = rom.classes().map(|c| c.name()).collect();
        eprintln!(
            "error: no class `{}` in the image (classes: {})",
            a.class,
            names.join(", ")
        );
        return 1;
    };
    let games = match load(&a.games, a.split.split()) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let range = MoveRange {
        from: a.from,
        to: a.to.unwrap_or(usize::MAX),
    };
    let r = learn::predict::evaluate(rom, class, &games, range, |_| {});
    for e in &r.cut {
        eprintln!("warning: {e} (the rest of the game is skipped)");
    }
    let per_position = r.scoring_time.as_secs_f64() / r.all.positions.max(1) as f64;
    if a.json {
        let phases: serde_json::Map<String, serde_json::Value> = PHASES
            .iter()
            .zip(&r.phases)
            .map(|((name, _, _), t)| (name.to_string(), tally_json(t)))
            .collect();
        let mut o = tally_json(&r.all);
        o["games"] = r.games.into();
        o["class"] = a.class.clone().into();
        o["ms_per_position"] = (per_position * 1e3).into();
        o["phases"] = phases.into();
        println!("{o}");
    } else {
        println!(
            "{} games, {} positions: top-1 {:.1}%, top-5 {:.1}%, mean log-likelihood {:.3}",
            r.games,
            r.all.positions,
            100.0 * r.all.top1_rate(),
            100.0 * r.all.top5_rate(),
            r.all.mean_log_likelihood()
        );
        for ((name, _, _), t) in PHASES.iter().zip(&r.phases) {
            println!(
                "  moves {name:>7}: {:>6} positions, top-1 {:.1}%, top-5 {:.1}%, mean log-likelihood {:.3}",
                t.positions,
                100.0 * t.top1_rate(),
                100.0 * t.top5_rate(),
                t.mean_log_likelihood()
            );
        }
        println!(
            "{:.3} ms per position ({:.0} positions/s): scan, predicates and ranking",
            per_position * 1e3,
            1.0 / per_position.max(1e-12)
        );
    }
    0
}
