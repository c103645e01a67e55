//! `lensc import ...` (not implemented yet).

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Placeholder until the subcommands land.
    Todo,
}

pub fn run(_cmd: Command) -> u8 {
    eprintln!("error: `lensc import` is not implemented yet");
    2
}
