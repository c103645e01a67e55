//! `lensc compile`: sources -> ROM image.
//!
//! Exit codes: 0 compiled (warnings allowed), 1 errors in the sources, 2 usage or I/O errors.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use lens_compiler::{Options, compile_paths, compile_str};

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MessageFormat {
    /// Rendered diagnostics with source excerpts.
    #[default]
    Human,
    /// One JSON object per diagnostic and line.
    Json,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input files or directories (all `*.lens` inside), or `-` for standard input.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output file; `-` writes the image to standard output (refused when that is a terminal).
    /// Default: the first input's name with the extension `.rom`.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Leave out debug info (pattern names, source files and spans).
    #[arg(long)]
    pub strip: bool,
    /// Leave out the optional bit-sliced tables (`sliced` section): a smaller image that the
    /// VM matches with the mask kernel.
    #[arg(long)]
    pub no_sliced: bool,
    /// Leave out the optional lookup tables of 3x3 classes (`lut` section): those classes are
    /// then matched by the bit-sliced or mask kernel.
    #[arg(long)]
    pub no_lut: bool,
    /// How diagnostics are printed on standard error.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// The image profile: `fast` (every orientation precompiled, with the optional tables) or
    /// `compact` (each pattern once, RiscIgo's form; expanded at load, see docs/rom-format.md).
    #[arg(long, value_enum, default_value_t = ProfileArg::Fast)]
    pub profile: ProfileArg,
    /// Print nothing on success (no summary line).
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--profile`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProfileArg {
    #[default]
    Fast,
    Compact,
}

impl From<ProfileArg> for lens_compiler::Profile {
    fn from(p: ProfileArg) -> Self {
        match p {
            ProfileArg::Fast => lens_compiler::Profile::Fast,
            ProfileArg::Compact => lens_compiler::Profile::Compact,
        }
    }
}

/// Print diagnostics on stderr in the chosen format.
pub fn report(
    sources: &lens_dsl::SourceMap,
    diags: &[lens_dsl::Diagnostic],
    format: MessageFormat,
) {
    if diags.is_empty() {
        return;
    }
    let mut err = std::io::stderr().lock();
    match format {
        MessageFormat::Human => {
            let color = crate::check::use_color();
            let _ = write!(err, "{}", lens_dsl::render_human(sources, diags, color));
        }
        MessageFormat::Json => {
            for d in diags {
                let _ = writeln!(err, "{}", lens_dsl::render_json(sources, d));
            }
        }
    }
}

fn usage(msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {msg}");
    2
}

pub fn run(args: Args) -> u8 {
    let opts = Options {
        strip: args.strip,
        no_sliced: args.no_sliced,
        no_lut: args.no_lut,
        profile: args.profile.into(),
    };
    let stdin = args.inputs.iter().any(|p| p.as_os_str() == "-");
    if stdin && args.inputs.len() > 1 {
        return usage("`-` (standard input) cannot be combined with other inputs");
    }
    let output = match (&args.output, stdin) {
        (Some(o), _) => o.clone(),
        (None, true) => return usage("give `-o FILE` (or `-o -`) when reading standard input"),
        (None, false) => {
            let first = &args.inputs[0];
            let stem = first
                .file_stem()
                .map(|s| s.to_os_string())
                .unwrap_or_else(|| "out".into());
            PathBuf::from(stem).with_extension("rom")
        }
    };
    let to_stdout = output.as_os_str() == "-";
    if to_stdout && std::io::stdout().is_terminal() {
        return usage(
            "refusing to write a binary ROM image to a terminal; redirect it or use `-o FILE`",
        );
    }
    let (sources, result) = if stdin {
        let mut text = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            return usage(format_args!("reading standard input: {e}"));
        }
        compile_str("<stdin>", &text, &opts)
    } else {
        compile_paths(&args.inputs, &opts)
    };
    match result {
        Err(diags) => {
            report(&sources, &diags, args.message_format);
            if args.message_format == MessageFormat::Human {
                let errors = diags.iter().filter(|d| d.is_error()).count();
                let files = sources.files.len();
                crate::check::error_summary(errors, diags.len() - errors, files);
            }
            1
        }
        Ok(compiled) => {
            report(&sources, &compiled.warnings, args.message_format);
            let written = if to_stdout {
                let mut out = std::io::stdout().lock();
                out.write_all(&compiled.rom).and_then(|_| out.flush())
            } else {
                std::fs::write(&output, &compiled.rom)
            };
            match written {
                Ok(()) => {
                    if !args.quiet && args.message_format == MessageFormat::Human {
                        // A compact image is counted through its expansion (the loader
                        // reads only the fast profile).
                        let patterns = crate::disasm::fast_image(compiled.rom.clone(), &[])
                            .ok()
                            .and_then(|fast| {
                                lens_vm::Rom::from_bytes(&fast)
                                    .ok()
                                    .map(|r| r.pattern_count())
                            })
                            .unwrap_or(0);
                        let to = if to_stdout {
                            "standard output".to_string()
                        } else {
                            output.display().to_string()
                        };
                        eprintln!(
                            "compiled {} file(s): {patterns} pattern(s), {} bytes -> {to}",
                            sources.files.len(),
                            compiled.rom.len()
                        );
                    }
                    0
                }
                Err(e) => usage(format_args!("writing {}: {e}", output.display())),
            }
        }
    }
}
