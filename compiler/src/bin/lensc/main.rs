//! `lensc`: the Lens compiler command line. One module per subcommand; each has an `Args`
//! (clap) and a `run` returning the process exit code (0 ok, 1 input errors, 2 usage/internal).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod check;
mod compile;
mod disasm;
mod fmt;
mod harvest;
mod import;
mod joseki;
mod learn;
mod match_cmd;
mod predict;
mod progress;
mod stats;

#[derive(Parser, Debug)]
#[command(
    name = "lensc",
    version,
    about = "Compile and inspect Lens Go-pattern sources and ROM images"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and check sources; report every diagnostic.
    Check(check::Args),
    /// Print sources in canonical form.
    Fmt(fmt::Args),
    /// Compile sources into a ROM image.
    Compile(compile::Args),
    /// Print a stable text listing of a ROM (or of sources, compiled first).
    Disasm(disasm::Args),
    /// Sizes and counts of a ROM.
    Stats(stats::Args),
    /// Match a class on a position (SGF + move number, or a text diagram).
    Match(match_cmd::Args),
    /// Joseki DAG tools.
    #[command(subcommand)]
    Joseki(joseki::Command),
    /// Convert foreign pattern databases into .lens source.
    #[command(subcommand)]
    Import(import::Command),
    /// Harvest frequent shapes of played moves from game records into .lens patterns.
    Harvest(harvest::Args),
    /// Fit the values of a class on game records (MM / Bradley-Terry) and write them back.
    Learn(learn::Args),
    /// Move prediction rates of a class on game records (top-1, top-5, log-likelihood).
    Predict(predict::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Fmt(a) => fmt::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Disasm(a) => disasm::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Match(a) => match_cmd::run(a),
        Command::Joseki(c) => joseki::run(c),
        Command::Import(c) => import::run(c),
        Command::Harvest(a) => harvest::run(a),
        Command::Learn(a) => learn::run(a),
        Command::Predict(a) => predict::run(a),
    };
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    #[test]
    fn verify_cli() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
