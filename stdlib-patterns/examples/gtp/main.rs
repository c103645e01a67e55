//! A small GTP engine on Lens: the standard library's joseki book in the corners, its pattern
//! classes over the board, area scoring. For a GTP front end (GoGui, Sabaki, ...):
//!
//! `cargo run --release -p lens-stdlib --example gtp` (19x19 by default; `boardsize` 9-19).
//!
//! The move choice is in `engine.rs`, the protocol in `protocol.rs`; both are shared with the
//! test `tests/engine_selfplay.rs`.

#[allow(dead_code)] // part of the API serves only the test
mod engine;
mod protocol;

fn main() {
    let mut engine = engine::Engine::new(19).expect("19 is a board size");
    let stdin = std::io::stdin();
    if let Err(e) = protocol::run(&mut engine, stdin.lock(), std::io::stdout().lock()) {
        eprintln!("gtp: {e}");
        std::process::exit(1);
    }
}
