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

/// `--database NAME`: every input in one `.lens`, one set of classes named after the database
/// (as mkpat builds GNU Go's `pat` from patterns.db + patterns2.db), a name repeated across
/// files suffixed as within one file.
#[test]
fn several_files_import_as_one_database() {
    let dir = std::env::temp_dir().join(format!("lensc-gnugo-{}-database", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.db"), DB).unwrap();
    std::fs::write(
        dir.join("b.db"),
        format!("{DB}\nPattern N\n\nO*.\n\n:8,-\n"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .current_dir(&dir)
        .args(["import", "gnugo", "a.db", "b.db", "--database", "both"])
        .args(["--report", "text"])
        .output()
        .unwrap();
    let (lens, report) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(report.contains("both (a.db + b.db)"), "{report}");
    for class in ["class both_anchor_o {", "class both_anchor_x {"] {
        assert_eq!(lens.matches(class).count(), 1, "{lens}");
    }
    assert!(
        !lens.contains("class a_") && !lens.contains("class b_"),
        "{lens}"
    );
    // M from a.db, M again from b.db (suffixed), N from b.db: three patterns in one file.
    for p in ["pattern M :", "pattern M_2 :", "pattern N :"] {
        assert_eq!(lens.matches(p).count(), 1, "{p}: {lens}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
