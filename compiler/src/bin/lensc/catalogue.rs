//! `lensc catalogue`: a static HTML site of a ROM's patterns (`lens_compiler::render`).
//!
//! Exit codes: 0 written, 1 bad image or errors in the sources, 2 usage or I/O errors.

use crate::compile::MessageFormat;
use crate::disasm::{load_image, validate};
use std::path::{Component, Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A ROM image, or source files/directories compiled first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output directory (created; its pages are overwritten).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Title of the index page (default: the first input's name).
    #[arg(long)]
    pub title: Option<String>,
    /// How diagnostics are printed on standard error.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

/// `to` relative to the directory `from` (both absolute), with `/` separators.
fn relative(from: &Path, to: &Path) -> String {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

pub fn run(args: Args) -> u8 {
    let bytes = match load_image(&args.inputs, false, args.message_format) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let rom = match validate(&bytes, &args.inputs) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Err(e) = std::fs::create_dir_all(&args.output) {
        eprintln!("error: {}: {e}", args.output.display());
        return 2;
    }
    let out_abs = std::fs::canonicalize(&args.output).unwrap_or_else(|_| args.output.clone());
    // A pattern's source link: the file as recorded in the image (relative to the directory
    // lensc compiled in, taken to be this one), its line counted from the byte offset.
    let link = |file: &str, start: u32| -> Option<(String, u32)> {
        let path = std::fs::canonicalize(file).ok()?;
        let text = std::fs::read(&path).ok()?;
        let upto = text.get(..start as usize)?;
        let line = upto.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        Some((relative(&out_abs, &path), line))
    };
    let title = args.title.clone().unwrap_or_else(|| {
        args.inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let files = lens_compiler::render::catalogue::catalogue(&rom, &title, &link);
    for (name, text) in &files {
        let p = args.output.join(name);
        if let Err(e) = std::fs::write(&p, text) {
            eprintln!("error: {}: {e}", p.display());
            return 2;
        }
    }
    eprintln!(
        "{}: {} page(s), {} pattern(s) in {} class(es)",
        args.output.join("index.html").display(),
        files.len(),
        rom.pattern_count(),
        rom.class_count()
    );
    0
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn relative_paths_climb_to_the_common_directory() {
        assert_eq!(
            relative(Path::new("/a/b/out"), Path::new("/a/src/x.lens")),
            "../../src/x.lens"
        );
        assert_eq!(relative(Path::new("/a"), Path::new("/a/x.lens")), "x.lens");
    }
}
