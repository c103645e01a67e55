//! A small GTP engine on Lens: the standard library's joseki book in the corners, its pattern
//! classes over the board, area scoring. For a GTP front end (GoGui, Sabaki, ...):
//!
//! `cargo run --release -p lens-stdlib --example gtp` (19x19 by default; `boardsize` 9-19).
//!
//! The move choice is in `engine.rs`, the dead-stone estimate in `ownership.rs`, the protocol
//! in `protocol.rs`; all are shared with the test `tests/engine_selfplay.rs`.
//!
//! `--policy` plays by the standard library's learned `policy` class instead
//! (`lens_stdlib::policy_rom()`: trained when built with `LENS_POLICY_CORPUS`, else the
//! hand-set fallback); `--policy-rom FILE` by the `policy` class of a ROM file (e.g. one
//! `lensc compile` made from `lensc learn`'s output). See `docs/learning.md`.

#[allow(dead_code)] // part of the API serves only the test
mod engine;
mod ownership;
mod protocol;

fn main() {
    let mut engine = engine::Engine::new(19).expect("19 is a board size");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rom = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => None,
        ["--policy"] => Some(lens_stdlib::policy_rom()),
        ["--policy-rom", file] => {
            let bytes = std::fs::read(file).unwrap_or_else(|e| exit(&format!("{file}: {e}")));
            // The engine keeps the image for the whole run, on a cache line (`RomBuf`).
            let bytes: &'static [u8] = Box::leak(Box::new(lens_vm::RomBuf::from(bytes)));
            Some(lens_vm::Rom::from_bytes(bytes).unwrap_or_else(|e| exit(&format!("{file}: {e}"))))
        }
        _ => exit("usage: gtp [--policy | --policy-rom FILE]"),
    };
    if let Some(rom) = rom {
        let policy = engine::Policy::new(rom, lens_stdlib::POLICY)
            .unwrap_or_else(|| exit("the image has no class `policy`"));
        engine.set_policy(policy);
    }
    let stdin = std::io::stdin();
    if let Err(e) = protocol::run(&mut engine, stdin.lock(), std::io::stdout().lock()) {
        eprintln!("gtp: {e}");
        std::process::exit(1);
    }
}

fn exit(msg: &str) -> ! {
    eprintln!("gtp: {msg}");
    std::process::exit(2);
}
