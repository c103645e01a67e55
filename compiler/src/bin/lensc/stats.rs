//! `lensc stats`: bytes per section, per pattern (single orientation and 8), counts.
//!
//! Exit codes: 0 ok, 1 bad image or errors in the sources, 2 usage or I/O errors.

use crate::compile::MessageFormat;
use crate::disasm::{load_image, validate};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A ROM image, or source files/directories (`-` for standard input) compiled first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// When compiling sources: leave out debug info.
    #[arg(long)]
    pub strip: bool,
    /// One JSON object on standard output instead of the table.
    #[arg(long)]
    pub json: bool,
    /// How diagnostics are printed on standard error.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

pub fn run(args: Args) -> u8 {
    let bytes = match load_image(&args.inputs, args.strip, args.message_format) {
        Ok(b) => b,
        Err(code) => return code,
    };
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
