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

fn lensc(args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn unions_with_blobs_count_each_move_once_and_warn_about_what_they_drop() {
    let dir = std::env::temp_dir().join(format!("lensc-joseki-union-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A transposition with three continuations: 10 source moves, 13 in every order.
    let book = write(
        &dir,
        "book.txt",
        "d4 ( c6:urgent f3 f6 ( c3 | d3 ) | f6 f3 c6 e3 )\n",
    );
    let other = write(&dir, "other.txt", "d4 c6:trick\n");
    let blob = dir.join("book.bin");
    let (ok, _, err) = lensc(&[
        "joseki".as_ref(),
        "build".as_ref(),
        book.as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
    ]);
    assert!(ok && err.contains(": 10 moves,"), "{err}");
    for inputs in [vec![&blob, &blob], vec![&book, &blob], vec![&blob, &book]] {
        let mut args: Vec<&std::ffi::OsStr> = vec!["joseki".as_ref(), "build".as_ref()];
        args.extend(inputs.iter().map(|p| p.as_os_str()));
        let out = dir.join("union.bin");
        args.extend(["-o".as_ref(), out.as_os_str()]);
        let (ok, _, err) = lensc(&args);
        assert!(ok && err.contains(": 10 moves,"), "{inputs:?}: {err}");
        assert!(!err.contains("warning"), "{err}");
    }
    let (ok, s, _) = lensc(&[
        "joseki".as_ref(),
        "stats".as_ref(),
        "--each".as_ref(),
        blob.as_os_str(),
        book.as_os_str(),
    ]);
    assert!(ok, "{s}");
    assert_eq!(
        s.matches("moves 10 (").count(),
        3,
        "each, and the union:\n{s}"
    );
    // Two types for one move: the stronger kept in either order, and said.
    for (a, b) in [(&book, &other), (&other, &book)] {
        let (ok, _, err) = lensc(&[
            "joseki".as_ref(),
            "next".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
            "-m".as_ref(),
            "d4".as_ref(),
        ]);
        assert!(ok, "{err}");
        assert!(
            err.contains(
                "warning: 1 moves typed two ways; kept by precedence bad > ignore > trick > \
                 urgent > complex > tenuki-ok > minor > normal (first: d4 then white c6: \
                 kept trick, dropped urgent)"
            ),
            "{err}"
        );
    }
    let fix = write(
        &dir,
        "josekifix.sgf",
        "(;GM[1]SZ[19];B[pd];W[qf]C[[override\\]\nname = x\naround = qf])",
    );
    let (ok, s, err) = lensc(&["joseki".as_ref(), "stats".as_ref(), fix.as_os_str()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("josekifix.sgf: 1 Pachi [override] sections not imported"),
        "{err}"
    );
    assert!(
        s.contains("1 Pachi [override] sections not imported"),
        "{s}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
