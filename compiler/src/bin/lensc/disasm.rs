//! `lensc disasm`: the stable text listing of a ROM (the snapshot format). Also holds the input
//! loader shared by `disasm`, `stats` and `match`: a ROM image, or sources compiled first.
//!
//! Exit codes: 0 listed, 1 bad image or errors in the sources, 2 usage or I/O errors.

use crate::compile::{MessageFormat, report};
use lens_compiler::{Options, compile_paths, compile_str};
use std::io::Read;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A ROM image, or source files/directories (`-` for standard input) compiled first.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// When compiling sources: leave out debug info.
    #[arg(long)]
    pub strip: bool,
    /// How diagnostics are printed on standard error.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// For a compact-profile image: list its pattern records and shared lists as stored,
    /// instead of the patterns of its expansion.
    #[arg(long)]
    pub records: bool,
}

/// Image bytes from the inputs, or the exit code after reporting why not.
pub fn load_image(inputs: &[PathBuf], strip: bool, format: MessageFormat) -> Result<Vec<u8>, u8> {
    let opts = Options {
        strip,
        ..Options::default()
    };
    load_image_with(inputs, &opts, format)
}

/// [`load_image`] with every compile option.
pub fn load_image_with(
    inputs: &[PathBuf],
    opts: &Options,
    format: MessageFormat,
) -> Result<Vec<u8>, u8> {
    let stdin = inputs.iter().any(|p| p.as_os_str() == "-");
    if stdin && inputs.len() > 1 {
        eprintln!("error: `-` (standard input) cannot be combined with other inputs");
        return Err(2);
    }
    let (sources, result) = if stdin {
        let mut bytes = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
            eprintln!("error: reading standard input: {e}");
            return Err(2);
        }
        if bytes.starts_with(&lens_vm::rom::MAGIC) {
            return Ok(bytes);
        }
        let Ok(text) = String::from_utf8(bytes) else {
            eprintln!("error: standard input is neither a ROM image nor UTF-8 source");
            return Err(1);
        };
        compile_str("<stdin>", &text, opts)
    } else {
        if inputs.len() == 1 && inputs[0].is_file() {
            match std::fs::read(&inputs[0]) {
                Ok(b) if b.starts_with(&lens_vm::rom::MAGIC) => return Ok(b),
                // Sniff before parsing: a binary or other file is not source with syntax errors.
                Ok(_) if inputs[0].extension().is_none_or(|e| e != "lens") => {
                    eprintln!(
                        "error: {}: not a Lens ROM image (no `{}` magic at offset 0) and not a `.lens` source file",
                        inputs[0].display(),
                        String::from_utf8_lossy(&lens_vm::rom::MAGIC).escape_debug()
                    );
                    return Err(1);
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("error: {}: {e}", inputs[0].display());
                    return Err(2);
                }
            }
        }
        for p in inputs {
            if !p.exists() {
                eprintln!("error: {}: no such file or directory", p.display());
                return Err(2);
            }
        }
        compile_paths(inputs, opts)
    };
    match result {
        Ok(c) => {
            report(&sources, &c.warnings, format);
            Ok(c.rom)
        }
        Err(diags) => {
            report(&sources, &diags, format);
            Err(1)
        }
    }
}

fn invalid(inputs: &[PathBuf], e: impl std::fmt::Display) -> u8 {
    let name = inputs
        .first()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    eprintln!("error: {name}: invalid ROM image: {e}");
    1
}

/// Validate loaded bytes, reporting a load error with its offset.
pub fn validate<'a>(bytes: &'a [u8], inputs: &[PathBuf]) -> Result<lens_vm::Rom<'a>, u8> {
    lens_vm::Rom::from_bytes(bytes).map_err(|e| invalid(inputs, e))
}

/// A compact-profile image expanded to the fast profile (what the matcher and the listing
/// read); any other image as it is.
pub fn fast_image(bytes: Vec<u8>, inputs: &[PathBuf]) -> Result<Vec<u8>, u8> {
    if !is_compact(&bytes) {
        return Ok(bytes);
    }
    let compact = lens_vm::rom::CompactRom::from_bytes(&bytes).map_err(|e| invalid(inputs, e))?;
    compact
        .expand(&lens_vm::rom::WriteOptions::COMPILER)
        .map_err(|e| invalid(inputs, e))
}

/// Whether the header says compact profile (the loaders check the rest).
pub fn is_compact(bytes: &[u8]) -> bool {
    bytes.len() >= 32
        && u32::from_le_bytes([bytes[28], bytes[29], bytes[30], bytes[31]])
            & lens_vm::rom::FLAG_COMPACT
            != 0
}

pub fn run(args: Args) -> u8 {
    let bytes = match load_image(&args.inputs, args.strip, args.message_format) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if args.records && is_compact(&bytes) {
        return match lens_vm::rom::CompactRom::from_bytes(&bytes) {
            Ok(c) => {
                print!("{}", lens_compiler::disasm::disasm_compact(&c));
                0
            }
            Err(e) => invalid(&args.inputs, e),
        };
    }
    let bytes = match fast_image(bytes, &args.inputs) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let rom = match validate(&bytes, &args.inputs) {
        Ok(r) => r,
        Err(code) => return code,
    };
    print!("{}", lens_compiler::disasm::disasm(&rom));
    0
}
