//! Learning pattern values from game records (`lensc harvest`, `lensc learn`, `lensc predict`;
//! `docs/learning.md`).
//!
//! 1. [`harvest`]: the frequent shapes around played moves (3x3 with atari bits, diamonds of
//!    radius 2 and 3) become `.lens` patterns of a class of their own, beside the feature
//!    patterns in a second class ([`features`]: edge line, capture, atari, self-atari, distance
//!    to the last two moves), which [`scanner`] computes on the host;
//! 2. [`mm`]: the class is compiled and scanned by the VM over every position of the training
//!    games; Coulom's MM fits a Bradley-Terry strength per pattern, and [`source`] writes the
//!    values (100 x log strength) back into the source;
//! 3. [`predict`]: the same scan ranks the legal moves of held-out positions.
//!
//! Game records are read by [`games`], which also defines the fixed train/test split.

pub mod features;
pub mod games;
pub mod harvest;
pub mod mm;
pub mod predict;
pub mod scanner;
pub mod shape;
pub mod source;

use std::collections::BTreeMap;
use std::path::Path;

pub use features::{HostFeatures, PolicyHost};
pub use games::{Game, GameError, Split};
pub use scanner::{ScanSetup, Scanner};

/// Scale of the written values: `value = round(SCALE * ln(gamma))`.
pub const SCALE: f64 = 100.0;

/// The result of [`learn`].
#[derive(Clone, Debug)]
pub struct Learned {
    /// The source with the class's values filled in.
    pub text: String,
    pub dataset: mm::Dataset,
    pub fit: mm::Fit,
    /// Values written.
    pub written: usize,
}

/// Compiles `text` (named `name`), fits the values of `class` on `games` and writes them back.
/// `progress` receives one line per event (games scanned, each sweep's log-likelihood).
pub fn learn(
    name: &str,
    text: &str,
    class: &str,
    games: &[Game],
    opts: &mm::FitOptions,
    mut progress: impl FnMut(&str),
) -> Result<Learned, String> {
    let (sources, result) = crate::compile_str(name, text, &crate::Options::default());
    let compiled = result.map_err(|d| lens_dsl::render_human(&sources, &d, false))?;
    let rom = lens_vm::Rom::from_bytes(&compiled.rom)
        .map_err(|e| format!("internal: the compiled image does not load: {e}"))?;
    let class_id = rom.class_by_name(class).ok_or_else(|| {
        let names: Vec<&str> = rom.classes().map(|c| c.name()).collect();
        format!(
            "no class `{class}` in {name} (classes: {})",
            names.join(", ")
        )
    })?;
    let started = std::time::Instant::now();
    let dataset = mm::collect(rom, class_id, games, opts.threads, |done, positions| {
        if done == games.len() || done % 50 == 0 {
            progress(&format!(
                "scanned {done}/{} games, {positions} positions ({:.1} s)",
                games.len(),
                started.elapsed().as_secs_f64()
            ));
        }
    });
    let fitted = std::time::Instant::now();
    let fit = mm::fit(&dataset, opts, |sweep, ll| {
        progress(&format!(
            "sweep {sweep}: mean log-likelihood {ll:.4} ({:.1} s)",
            fitted.elapsed().as_secs_f64()
        ))
    });
    let values: BTreeMap<String, i32> = dataset
        .features
        .iter()
        .zip(&fit.log_gamma)
        .map(|(f, &lg)| (f.name.clone(), (lg * SCALE).round() as i32))
        .collect();
    let features = features::features_class(class);
    let (text, written) = source::write_values(text, &[class, &features], &values)?;
    Ok(Learned {
        text,
        dataset,
        fit,
        written,
    })
}

/// Reads the SGF files under `paths` (directories recursively, sorted) that `split` keeps.
/// Unreadable files are errors.
pub fn read_games(paths: &[std::path::PathBuf], split: Split) -> Result<Vec<Game>, GameError> {
    let files = games::sgf_files(paths).map_err(|e| GameError {
        file: paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        offset: 0,
        reason: e.to_string(),
    })?;
    let mut out = Vec::new();
    for f in files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if split.keeps(&name) {
            out.push(games::read_game(&f)?);
        }
    }
    Ok(out)
}

/// The standard library's `policy` class trained on the training games of a corpus directory
/// with the default settings (harvest, then learn): what `lens-stdlib`'s build script runs.
pub fn train_policy(corpus: &Path, mut progress: impl FnMut(&str)) -> Result<String, String> {
    let games = read_games(&[corpus.to_path_buf()], Split::Train).map_err(|e| e.to_string())?;
    let opts = harvest::HarvestOptions::default();
    let h = harvest::harvest(&games, &opts);
    progress(&format!(
        "harvested {} shapes from {} positions",
        h.shapes.len(),
        h.positions
    ));
    let text = harvest::to_source(&h, &opts, "training games of the corpus");
    let learned = learn(
        "policy.lens",
        &text,
        &opts.class,
        &games,
        &mm::FitOptions::default(),
        progress,
    )?;
    Ok(learned.text)
}
