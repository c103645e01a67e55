//! `lensc check`: parse and check sources, report every diagnostic.

use lens_dsl::{Diagnostic, Program};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageFormat {
    /// Rendered reports on stderr.
    Human,
    /// One JSON object per diagnostic per line, on stdout.
    Json,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// Options shared by the front-end subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct Reporting {
    /// How diagnostics are printed.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// The name shown for standard input in diagnostics.
    #[arg(long, default_value = "<stdin>")]
    pub stdin_filename: String,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input files or directories (all `*.lens` inside, recursively), or `-` for standard input.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub reporting: Reporting,
    /// Print nothing on success (no summary line).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Patterns in a program as `compile` counts them: glob members and each glob's header.
fn pattern_count(program: &Program) -> usize {
    fn glob(g: &lens_dsl::ast::Glob) -> usize {
        1 + g
            .members
            .iter()
            .map(|m| match m {
                lens_dsl::ast::GlobMember::Pattern(_) => 1,
                lens_dsl::ast::GlobMember::Glob(g) => glob(g),
            })
            .sum::<usize>()
    }
    let items = program.files.iter().flat_map(|(_, f)| &f.items);
    items
        .map(|i| match i {
            lens_dsl::ast::Item::Pattern(_) => 1,
            lens_dsl::ast::Item::Glob(g) => glob(g),
            _ => 0,
        })
        .sum()
}

/// The closing line of `check` and `compile` when there were errors (both print the same).
pub fn error_summary(errors: usize, warnings: usize, files: usize) {
    eprintln!("error: {errors} error(s), {warnings} warning(s) in {files} file(s)");
}

/// `--color`, a global option (every subcommand takes it); set once by `main`.
static COLOR: std::sync::OnceLock<Color> = std::sync::OnceLock::new();

pub fn set_color(c: Color) {
    let _ = COLOR.set(c);
}

/// Whether human diagnostics on stderr are coloured.
pub fn use_color() -> bool {
    match COLOR.get().copied().unwrap_or(Color::Auto) {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

impl Reporting {
    /// Prints diagnostics in the chosen format. Returns false if writing failed.
    pub fn emit(&self, sources: &lens_dsl::SourceMap, diags: &[Diagnostic]) -> bool {
        match self.message_format {
            MessageFormat::Human => {
                if diags.is_empty() {
                    return true;
                }
                let text = lens_dsl::render_human(sources, diags, use_color());
                let mut err = std::io::stderr().lock();
                err.write_all(text.as_bytes()).is_ok()
            }
            MessageFormat::Json => {
                let mut out = std::io::stdout().lock();
                diags
                    .iter()
                    .all(|d| writeln!(out, "{}", lens_dsl::render_json(sources, d)).is_ok())
            }
        }
    }
}

/// Loads the inputs (`-` = stdin) into one program.
pub fn load(inputs: &[PathBuf], stdin_name: &str) -> Result<(Program, Vec<Diagnostic>), String> {
    let stdin_count = inputs.iter().filter(|p| p.as_os_str() == "-").count();
    if stdin_count > 0 {
        if inputs.len() > 1 {
            return Err("`-` (standard input) cannot be combined with other inputs".into());
        }
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(lens_dsl::load_str(stdin_name, &text));
    }
    Ok(lens_dsl::load_paths(inputs))
}

pub fn run(args: Args) -> u8 {
    let (program, diags) = match load(&args.inputs, &args.reporting.stdin_filename) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    // Everything `compile` would report, so a clean `check` means `compile` succeeds.
    let diags = lens_compiler::check_program(&program, diags);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if !args.reporting.emit(&program.sources, &diags) {
        return 2;
    }
    if args.reporting.message_format == MessageFormat::Human {
        let files = program.sources.files.len();
        if errors > 0 {
            error_summary(errors, warnings, files);
        } else if !args.quiet {
            eprintln!(
                "checked {files} file(s): {} pattern(s), {warnings} warning(s)",
                pattern_count(&program)
            );
        }
    }
    if errors > 0 { 1 } else { 0 }
}
