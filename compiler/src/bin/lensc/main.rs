//! `lensc`: the Lens compiler command line. One module per subcommand; each has an `Args`
//! (clap) and a `run` returning the process exit code (0 ok, 1 input errors, 2 usage/internal).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod catalogue;
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
    /// Colour in human diagnostics (`auto`: when stderr is a terminal and NO_COLOR is unset).
    #[arg(long, global = true, value_enum, default_value_t = check::Color::Auto)]
    color: check::Color,
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
    /// Write a static HTML site drawing every pattern and lens of a ROM (or of sources).
    Catalogue(catalogue::Args),
    /// Harvest frequent shapes of played moves from game records into .lens patterns.
    Harvest(harvest::Args),
    /// Fit the values of a class on game records (MM / Bradley-Terry) and write them back.
    Learn(learn::Args),
    /// Move prediction rates of a class on game records (top-1, top-5, log-likelihood).
    Predict(predict::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    check::set_color(cli.color);
    let code = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Fmt(a) => fmt::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Disasm(a) => disasm::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Match(a) => match_cmd::run(a),
        Command::Joseki(c) => joseki::run(c),
        Command::Import(c) => import::run(c),
        Command::Catalogue(a) => catalogue::run(a),
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

    /// One help style everywhere: every subcommand's summary and every option's help starts
    /// like a sentence (a capital, or code), so `--help` pages read alike.
    #[test]
    fn help_texts_share_one_style() {
        use clap::CommandFactory;
        fn check(what: &str, text: &str, bad: &mut Vec<String>) {
            let first = text.chars().next();
            // clap drops the full stop of a one-sentence doc comment; a second sentence
            // keeps it, so neither ending is enforced, only the start and the spacing.
            let ok = first.is_some_and(|c| c.is_uppercase() || c == '`' || c == '-')
                && !text.contains("  ")
                && !text.ends_with(' ');
            if !ok {
                bad.push(format!("{what}: {text:?}"));
            }
        }
        fn walk(cmd: &clap::Command, path: &str, bad: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                if let Some(h) = a.get_help() {
                    check(&format!("{path} {}", a.get_id()), &h.to_string(), bad);
                }
            }
            for sub in cmd.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                let about = sub.get_about().map(|s| s.to_string()).unwrap_or_default();
                check(&name, &about, bad);
                walk(sub, &name, bad);
            }
        }
        let mut bad = Vec::new();
        walk(&super::Cli::command(), "lensc", &mut bad);
        assert!(
            bad.is_empty(),
            "help texts out of style:\n{}",
            bad.join("\n")
        );
    }
}
