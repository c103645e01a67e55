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
    /// Colour in human diagnostics (`auto`: when stderr is a terminal and NO_COLOR is unset).
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
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
}

impl Reporting {
    pub fn use_color(&self) -> bool {
        match self.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::io::stderr().is_terminal()
            }
        }
    }

    /// Prints diagnostics in the chosen format. Returns false if writing failed.
    pub fn emit(&self, sources: &lens_dsl::SourceMap, diags: &[Diagnostic]) -> bool {
        match self.message_format {
            MessageFormat::Human => {
                if diags.is_empty() {
                    return true;
                }
                let text = lens_dsl::render_human(sources, diags, self.use_color());
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
    let (program, mut diags) = match load(&args.inputs, &args.reporting.stdin_filename) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    diags.extend(lens_dsl::check(&program));
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if !args.reporting.emit(&program.sources, &diags) {
        return 2;
    }
    if args.reporting.message_format == MessageFormat::Human {
        let files = program.sources.files.len();
        if errors > 0 {
            eprintln!("error: {errors} error(s), {warnings} warning(s) in {files} file(s)");
        } else if warnings > 0 {
            eprintln!("checked {files} file(s): {warnings} warning(s)");
        }
    }
    if errors > 0 { 1 } else { 0 }
}
