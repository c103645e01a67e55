//! `lensc joseki stats`: the conventions detected per SGF file, and the column headings.

use std::path::{Path, PathBuf};
use std::process::Command;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn stats_names_the_conventions_of_each_file_and_heads_every_column() {
    let dir = std::env::temp_dir().join(format!("lensc-joseki-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Marks and ordinary comments: plain, whatever the first letters.
    let plain = write(
        &dir,
        "marks.sgf",
        "(;GM[1]SZ[19];B[pd]MA[pd]C[This move is covered as usual.];W[qf]SQ[qf]C[Trick play]\
         ;B[nc]C[A good reply])",
    );
    // GNU Go's class comments.
    let gnugo = write(
        &dir,
        "classes.sgf",
        "(;GM[1]SZ[19];B[pd]C[U\n];W[qf]C[T]MA[qf];B[nc]C[j])",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .args(["joseki", "stats", "--each"])
        .arg(&plain)
        .arg(&gnugo)
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        s.contains(
            "marks.sgf: plain (detected; move comments: 0 GNU Go class, 0 Pachi tag, 3 other)"
        ),
        "{s}"
    );
    assert!(
        s.contains(
            "classes.sgf: gnugo (detected; move comments: 3 GNU Go class, 0 Pachi tag, 0 other)"
        ),
        "{s}"
    );
    assert!(s.contains("typed 0,"), "the plain file has no types:\n{s}");
    assert!(s.contains("parsed/step  header  setup"), "{s}");
    std::fs::remove_dir_all(&dir).ok();
}
