//! `lensc stats`: bytes per section, per pattern (single orientation and 8), counts.
//!
//! Exit codes: 0 ok, 1 bad image or errors in the sources, 2 usage or I/O errors.

use crate::compile::{MessageFormat, ProfileArg};
use crate::disasm::{is_compact, load_image_with, validate};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A ROM image, or source files/directories (`-` for standard input) compiled first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// When compiling sources: leave out debug info.
    #[arg(long)]
    pub strip: bool,
    /// When compiling sources: the image profile (`compact` reports where each byte of the
    /// packed records goes).
    #[arg(long, value_enum, default_value_t = ProfileArg::Fast)]
    pub profile: ProfileArg,
    /// One JSON object on standard output instead of the table.
    #[arg(long)]
    pub json: bool,
    /// How diagnostics are printed on standard error.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

pub fn run(args: Args) -> u8 {
    let opts = lens_compiler::Options {
        strip: args.strip,
        profile: args.profile.into(),
        ..Default::default()
    };
    let bytes = match load_image_with(&args.inputs, &opts, args.message_format) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if is_compact(&bytes) {
        return match lens_vm::rom::CompactRom::from_bytes(&bytes) {
            Ok(c) if args.json => {
                println!("{}", lens_compiler::stats::compact_stats_json(&c));
                0
            }
            Ok(c) => {
                print!("{}", lens_compiler::stats::compact_stats(&c));
                0
            }
            Err(e) => {
                let name = args.inputs.first().map(|p| p.display().to_string());
                eprintln!(
                    "error: {}: invalid ROM image: {e}",
                    name.unwrap_or_default()
                );
                1
            }
        };
    }
    let rom = match validate(&bytes, &args.inputs) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if args.json {
        println!("{}", lens_compiler::stats::stats_json(&rom));
    } else {
        print!("{}", lens_compiler::stats::stats(&rom));
    }
    0
}
