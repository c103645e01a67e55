//! `lensc fmt`: print sources in canonical form (comments kept; idempotent).

use crate::check::Reporting;
use lens_dsl::SourceMap;
use std::io::{Read, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input files or directories (all `*.lens` inside, recursively), or `-` for standard input.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Print nothing; exit 1 if a file is not in canonical form (its name goes to stderr).
    #[arg(long, conflicts_with = "write")]
    pub check: bool,
    /// Rewrite files in place instead of printing them.
    #[arg(long)]
    pub write: bool,
    #[command(flatten)]
    pub reporting: Reporting,
}

pub fn run(args: Args) -> u8 {
    // Files to format, each on its own: includes are not followed (each file is formatted alone).
    let mut files: Vec<(String, Option<PathBuf>, String)> = Vec::new();
    for p in &args.inputs {
        if p.as_os_str() == "-" {
            if args.write {
                eprintln!("error: `--write` cannot rewrite standard input");
                return 2;
            }
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("error: cannot read standard input: {e}");
                return 2;
            }
            files.push((args.reporting.stdin_filename.clone(), None, text));
        } else {
            let mut paths = Vec::new();
            if p.is_dir() {
                lens_dsl::load::collect_lens_files(p, &mut paths);
            } else {
                paths.push(p.clone());
            }
            for path in paths {
                match std::fs::read_to_string(&path) {
                    Ok(text) => files.push((path.display().to_string(), Some(path), text)),
                    Err(e) => {
                        eprintln!("error: cannot read `{}`: {e}", path.display());
                        return 1;
                    }
                }
            }
        }
    }
    let mut code = 0;
    let mut out = std::io::stdout().lock();
    for (name, path, text) in files {
        let mut sources = SourceMap::default();
        let id = sources.add(name.clone(), text.clone());
        let (ast, diags) = lens_dsl::parse(id, &text);
        if diags.iter().any(|d| d.is_error()) {
            // Never rewrite a file that does not parse: the output would lose the broken parts.
            if !args.reporting.emit(&sources, &diags) {
                return 2;
            }
            code = 1;
            continue;
        }
        let formatted = lens_dsl::fmt::format(&ast, &text);
        if args.check {
            if formatted != text {
                eprintln!("would reformat: {name}");
                code = 1;
            }
        } else if args.write {
            if formatted != text {
                if let Some(p) = &path {
                    if let Err(e) = std::fs::write(p, &formatted) {
                        eprintln!("error: cannot write `{}`: {e}", p.display());
                        return 2;
                    }
                }
            }
        } else if out.write_all(formatted.as_bytes()).is_err() {
            return 2;
        }
    }
    code
}
