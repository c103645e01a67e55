//! `lensc compile` (not implemented yet).

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input files, or `-` for standard input.
    pub inputs: Vec<std::path::PathBuf>,
}

pub fn run(_args: Args) -> u8 {
    eprintln!("error: `lensc compile` is not implemented yet");
    2
}
