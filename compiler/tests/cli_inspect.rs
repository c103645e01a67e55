//! `lensc disasm`, `stats` and `match` end to end: exit codes, stdout, stderr (snapshots).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SRC: &str = "class c { mode all; focus empty; field 3x3; }
pattern hane : c {
    priority 3;
    diagram {
        X O .
        . * .
    }
    => * 5;
}
";

const POSITION: &str = ". . . . .
. X O . .
. . . . .
. . . . .
. . . . .
to_move: W
";

const SGF: &str = "(;GM[1]SZ[5];B[bb];W[cb])";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lensc-inspect-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.lens"), SRC).unwrap();
    std::fs::write(dir.join("pos.txt"), POSITION).unwrap();
    std::fs::write(dir.join("game.sgf"), SGF).unwrap();
    let rom = lens_compiler::compile_str("p.lens", SRC, &Default::default())
        .1
        .unwrap()
        .rom;
    std::fs::write(dir.join("p.rom"), rom).unwrap();
    dir
}

fn lensc(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    format!(
        "exit: {}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn disasm_of_rom_equals_disasm_of_sources() {
    let dir = scratch("disasm");
    let a = lensc(&dir, &["disasm", "p.rom"]);
    assert_eq!(a, lensc(&dir, &["disasm", "p.lens"]));
    insta::assert_snapshot!("disasm_good", a);
}

#[test]
fn stats_text_and_json() {
    let dir = scratch("stats");
    insta::assert_snapshot!("stats_good", lensc(&dir, &["stats", "p.rom"]));
    let j = lensc(&dir, &["stats", "--json", "p.rom"]);
    let body = j
        .split("--- stdout\n")
        .nth(1)
        .unwrap()
        .split("\n--- stderr")
        .next()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(body.trim()).unwrap();
    assert_eq!(v["patterns"], 1);
}

#[test]
fn match_on_a_diagram_and_an_sgf() {
    let dir = scratch("match");
    let d = lensc(
        &dir,
        &["match", "p.rom", "--class", "c", "--diagram", "pos.txt"],
    );
    insta::assert_snapshot!("match_diagram", d);
    // Same position from SGF (black to move after two moves: ask for white).
    let s = lensc(
        &dir,
        &[
            "match", "p.rom", "--class", "c", "--sgf", "game.sgf", "--colour", "white",
        ],
    );
    assert_eq!(s, d);
    // After one move only black's stone is there: no hane for white.
    let one = lensc(
        &dir,
        &[
            "match", "p.rom", "--class", "c", "--sgf", "game.sgf", "--move", "1", "--json",
        ],
    );
    assert!(one.contains("\"matches\":[]"), "{one}");
    insta::assert_snapshot!(
        "match_json",
        lensc(
            &dir,
            &[
                "match",
                "p.lens",
                "--class",
                "c",
                "--diagram",
                "pos.txt",
                "--json"
            ]
        )
    );
}

#[test]
fn bad_inputs() {
    let dir = scratch("bad");
    let mut bad = std::fs::read(dir.join("p.rom")).unwrap();
    let n = bad.len();
    bad.truncate(n - 8);
    std::fs::write(dir.join("cut.rom"), &bad).unwrap();
    std::fs::write(dir.join("bad.sgf"), "(;SZ[5];B[zz").unwrap();
    insta::assert_snapshot!("bad_rom", lensc(&dir, &["disasm", "cut.rom"]));
    insta::assert_snapshot!(
        "bad_class",
        lensc(
            &dir,
            &["match", "p.rom", "--class", "nope", "--diagram", "pos.txt"]
        )
    );
    insta::assert_snapshot!(
        "bad_sgf",
        lensc(
            &dir,
            &["match", "p.rom", "--class", "c", "--sgf", "bad.sgf"]
        )
    );
    insta::assert_snapshot!("missing_file", lensc(&dir, &["stats", "nothere.rom"]));
    let usage = lensc(&dir, &["match", "p.rom", "--class", "c"]);
    assert!(usage.starts_with("exit: 2"), "{usage}");
}
