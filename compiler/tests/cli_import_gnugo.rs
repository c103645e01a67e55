//! `lensc import gnugo --mkpat`: the options are applied, reported, and bad ones rejected.

use std::process::Command;

/// Written for this test: under `-m -b` the left X anchors, under `-b` the `Y`.
const DB: &str = "Pattern M\n\n?O?\nX*X\n.Y.\n\n:8,-\n";

fn lensc(args: &[&str], name: &str) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("lensc-gnugo-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), DB).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .current_dir(&dir)
        .args(["import", "gnugo", name])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn mkpat_options_are_applied_and_reported() {
    let (code, lens, report) = lensc(&["--mkpat", "-D -m -b", "--report", "text"], "mine.db");
    assert_eq!(code, 0, "{report}");
    assert!(
        report.contains("mkpat -D -m -b (given); anchors both nearest the middle"),
        "{report}"
    );
    assert!(
        lens.contains("// mkpat options: -D -m -b (given)."),
        "{lens}"
    );
    // The left X is the focus `*`; the Y is drawn as a plain X.
    assert!(lens.contains("* m X"), "{lens}");

    // By GNU Go's file name: owl_defendpats.db is built with -D -m -b.
    let (_, lens, report) = lensc(&["--report", "text"], "owl_defendpats.db");
    assert!(
        report.contains("mkpat -D -m -b (GNU Go's patterns/Makefile.am"),
        "{report}"
    );
    assert!(lens.contains("* m X"), "{lens}");

    // Without -m the Y mark anchors.
    let (_, lens, _) = lensc(&["--mkpat", "-b"], "mine.db");
    assert!(lens.contains("X m X"), "{lens}");

    // `-t FILE` is read and ignored; an unknown option is an error.
    let (code, _, report) = lensc(
        &["--mkpat", "-D -m -b -t owl.dtr", "--report", "text"],
        "mine.db",
    );
    assert_eq!(code, 0);
    assert!(report.contains("(-t owl.dtr ignored)"), "{report}");
    let (code, _, err) = lensc(&["--mkpat", "-f"], "mine.db");
    assert_eq!(code, 2);
    assert!(err.contains("`-f` is not supported"), "{err}");
}
