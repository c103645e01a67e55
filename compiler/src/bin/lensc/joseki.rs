//! `lensc joseki ...` (not implemented yet).

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Placeholder until the subcommands land.
    Todo,
}

pub fn run(_cmd: Command) -> u8 {
    eprintln!("error: `lensc joseki` is not implemented yet");
    2
}
