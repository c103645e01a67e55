//! The rough edges a new user hit (issue 14), each pinned so it cannot come back: colour
//! spellings, `--color` everywhere, summaries, ROM sniffing, "did you mean", `--before-move`,
//! outputs under `target/`.

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

/// Misspelt keyword, test and class, in this order in the file.
const TYPOS: &str = "class shape { mode all; focus empty; field 3x3; }
pattern p : shape {
    priorty 3;
    diagram { . * . }
    => * 5;
}
pattern q : shape {
    diagram { X * . }
    where libz(*) > 1;
    => * 5;
}
pattern r : shpe {
    diagram { . * . }
    => * 5;
}
";

const SGF: &str = "(;GM[1]SZ[5];B[bb];W[cb];B[cc])";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lensc-rough-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.lens"), SRC).unwrap();
    std::fs::write(dir.join("typos.lens"), TYPOS).unwrap();
    std::fs::write(dir.join("game.sgf"), SGF).unwrap();
    dir
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn lensc(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn colour_takes_letters_and_words_in_any_case() {
    let dir = scratch("colour");
    let base = [
        "match", "p.lens", "--class", "c", "--sgf", "game.sgf", "--json",
    ];
    let run = |c: &str| {
        let mut a = base.to_vec();
        a.extend(["--colour", c]);
        let r = lensc(&dir, &a);
        assert_eq!(r.code, 0, "--colour {c}: {}", r.stderr);
        r.stdout
    };
    let black = run("black");
    assert!(black.contains("\"perspective\":\"black\""), "{black}");
    assert_eq!(run("B"), black);
    assert_eq!(run("b"), black);
    let white = run("white");
    assert_eq!(run("W"), white);
    assert_ne!(black, white);
}

#[test]
fn every_subcommand_takes_color() {
    let dir = scratch("color");
    for sub in [
        &["check"][..],
        &["fmt"],
        &["compile"],
        &["disasm"],
        &["stats"],
        &["match"],
        &["catalogue"],
        &["joseki", "build"],
        &["joseki", "stats"],
        &["joseki", "next"],
        &["joseki", "explore"],
        &["import", "gnugo"],
    ] {
        for mode in ["never", "always", "auto"] {
            let mut a = sub.to_vec();
            a.extend(["--color", mode, "--help"]);
            let r = lensc(&dir, &a);
            assert_eq!(r.code, 0, "{a:?}: {}", r.stderr);
        }
    }
    // And it works, before or after the subcommand's name.
    let r = lensc(
        &dir,
        &["compile", "--color", "never", "p.lens", "-o", "x.rom"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = lensc(&dir, &["--color", "never", "disasm", "x.rom"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn compile_and_check_end_with_the_same_summary() {
    let dir = scratch("summary");
    let check = lensc(&dir, &["check", "typos.lens"]);
    let compile = lensc(&dir, &["compile", "typos.lens", "-o", "t.rom"]);
    assert_eq!((check.code, compile.code), (1, 1));
    let last = |s: &str| s.trim_end().lines().last().unwrap_or("").to_string();
    assert!(
        last(&check.stderr).starts_with("error: 3 error(s)"),
        "{}",
        check.stderr
    );
    assert_eq!(last(&check.stderr), last(&compile.stderr));
    // `compile` reports what `check` reports (a syntax error does not hide the others).
    assert_eq!(check.stderr, compile.stderr);
    assert!(!dir.join("t.rom").exists());
}

#[test]
fn success_prints_one_line_unless_quiet() {
    let dir = scratch("success");
    let r = lensc(&dir, &["check", "p.lens"]);
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stderr, "checked 1 file(s): 1 pattern(s), 0 warning(s)\n",
        "{}",
        r.stderr
    );
    let r = lensc(&dir, &["compile", "p.lens", "-o", "p.rom"]);
    assert_eq!(r.code, 0);
    let bytes = std::fs::metadata(dir.join("p.rom")).unwrap().len();
    assert_eq!(
        r.stderr,
        format!("compiled 1 file(s): 1 pattern(s), {bytes} bytes -> p.rom\n")
    );
    for q in ["-q", "--quiet"] {
        let r = lensc(&dir, &["check", q, "p.lens"]);
        assert_eq!((r.code, r.stderr.as_str()), (0, ""));
        let r = lensc(&dir, &["compile", q, "p.lens", "-o", "p.rom"]);
        assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    }
}

#[test]
fn disasm_of_a_file_that_is_not_a_rom_says_so() {
    let dir = scratch("sniff");
    std::fs::write(dir.join("notes.txt"), "pattern, but not a ROM\n").unwrap();
    std::fs::write(dir.join("blob.bin"), [0u8, 1, 2, 0xff]).unwrap();
    for f in ["notes.txt", "blob.bin"] {
        let r = lensc(&dir, &["disasm", f]);
        assert_eq!(r.code, 1, "{f}");
        assert!(
            r.stderr.contains("not a Lens ROM image"),
            "{f}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("syntax"), "{f}: {}", r.stderr);
    }
}

#[test]
fn misspelt_words_get_a_suggestion_and_diagnostics_come_in_file_order() {
    let dir = scratch("typos");
    let r = lensc(&dir, &["check", "typos.lens"]);
    for hint in [
        "did you mean `priority`?",
        "did you mean `libs`?",
        "did you mean `shape`?",
    ] {
        assert!(r.stderr.contains(hint), "{hint}: {}", r.stderr);
    }
    // Sorted by position: the three reports appear in line order (3, 9, 12).
    let at = |needle: &str| r.stderr.find(needle).unwrap();
    assert!(at("`priority`") < at("`libs`") && at("`libs`") < at("`shape`"));
}

#[test]
fn before_move_is_gnugo_loadsgf() {
    let dir = scratch("before");
    let m = |args: &[&str]| {
        let mut a = vec![
            "match", "p.lens", "--class", "c", "--sgf", "game.sgf", "--json",
        ];
        a.extend(args);
        let r = lensc(&dir, &a);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        r.stdout
    };
    assert_eq!(m(&["--before-move", "3"]), m(&["--move", "2"]));
    assert_eq!(m(&["--before-move", "1"]), m(&["--move", "0"]));
    assert_ne!(m(&["--before-move", "3"]), m(&["--move", "3"]));
    let r = lensc(
        &dir,
        &[
            "match",
            "p.lens",
            "--class",
            "c",
            "--sgf",
            "game.sgf",
            "--before-move",
            "0",
        ],
    );
    assert_eq!(r.code, 2, "move numbers start at 1");
    let help = lensc(&dir, &["match", "--help"]).stdout;
    assert!(
        help.contains("after move N") && help.contains("before move N"),
        "{help}"
    );
}

#[test]
fn the_first_session_writes_under_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let session = readme
        .split("## A first session")
        .nth(1)
        .and_then(|s| s.split("```sh").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("README has a first session");
    let mut outputs = 0;
    for line in session.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for w in words.windows(2) {
            if w[0] == "-o" {
                outputs += 1;
                assert!(w[1].starts_with("target/"), "{line}");
            }
        }
        assert!(!line.contains(" ex.rom"), "{line}");
    }
    assert!(outputs > 0);
    let ignore = std::fs::read_to_string(root.join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "/target") && ignore.lines().any(|l| l == "/*.rom"));
}
