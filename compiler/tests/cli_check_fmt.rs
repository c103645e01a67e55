//! `lensc check` and `lensc fmt` end to end: exit codes, streams, formats, colour.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `lensc` binary cargo built for these tests.
fn lensc() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_lensc"))
}

fn run(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(lensc());
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn lensc");
    {
        let mut si = child.stdin.take().unwrap();
        if let Some(text) = stdin {
            si.write_all(text.as_bytes()).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const BROKEN: &str = "class c { field 3x3; }\npattern p : c {\n    diagram {\n        . . .\n        . * . .\n    }\n    where libs(q) > 1;\n    => * 1;\n}\n";

#[test]
fn check_examples_is_clean() {
    let out = run(&["check", "../examples"], None, &[]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty());
}

#[test]
fn check_reports_errors_on_stderr_with_exit_1() {
    let out = run(
        &["check", "-", "--stdin-filename", "broken.lens"],
        Some(BROKEN),
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("lens::ragged_diagram") && err.contains("broken.lens:5"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "colour on a pipe: {err}");
    assert!(
        out.stdout.is_empty(),
        "diagnostics must not go to stdout in human mode"
    );
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let always = run(&["check", "--color", "always", "-"], Some(BROKEN), &[]);
    assert!(text(&always.stderr).contains('\u{1b}'));
    let never = run(&["check", "--color", "never", "-"], Some(BROKEN), &[]);
    assert!(!text(&never.stderr).contains('\u{1b}'));
    let auto = run(&["check", "-"], Some(BROKEN), &[("NO_COLOR", "1")]);
    assert!(!text(&auto.stderr).contains('\u{1b}'));
}

#[test]
fn json_goes_to_stdout_one_object_per_line() {
    let out = run(
        &["check", "--message-format", "json", "-"],
        Some(BROKEN),
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(!lines.is_empty());
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).expect("each line is a JSON object");
        assert_eq!(v["file"], "<stdin>");
        assert_eq!(v["severity"], "error");
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        run(&["check", "--message-format", "xml", "x.lens"], None, &[])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["check", "-", "../examples"], Some(""), &[])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["fmt", "--check", "--write", "x.lens"], None, &[])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn missing_input_is_an_input_error() {
    let out = run(&["check", "no/such/file.lens"], None, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("lens::missing_file"));
}

#[test]
fn fmt_prints_canonical_source_and_check_detects_changes() {
    let messy = "class   c{field 3x3;}   // note\npattern p:c{diagram{\n.  *  .\n}\n=>*   1;}\n";
    let out = run(&["fmt", "-"], Some(messy), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let formatted = text(&out.stdout);
    assert_eq!(
        formatted,
        "class c {  // note\n    field 3x3;\n}\n\npattern p : c {\n    diagram {\n        . * .\n    }\n    => * 1;\n}\n"
    );
    assert_eq!(
        run(&["fmt", "--check", "-"], Some(messy), &[])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        run(&["fmt", "--check", "-"], Some(&formatted), &[])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run(&["fmt", "--check", "../examples"], None, &[])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn fmt_refuses_files_that_do_not_parse() {
    let out = run(
        &["fmt", "-"],
        Some("pattern p : c { diagram { * } => * ; }\n"),
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("lens::syntax"));
}

#[test]
fn fmt_write_rewrites_in_place() {
    let dir = std::env::temp_dir().join(format!("lens-fmt-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("messy.lens");
    std::fs::write(&file, "global   phase ;\n").unwrap();
    let f = file.to_str().unwrap();
    assert_eq!(
        run(&["fmt", "--write", f], None, &[]).status.code(),
        Some(0)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "global phase;\n");
    assert_eq!(
        run(&["fmt", "--check", f], None, &[]).status.code(),
        Some(0)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
