//! `lensc compile` end to end: exit codes, stdout, stderr (snapshots), files written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const GOOD: &str = "class c { mode best; focus empty; field 3x3; }
pattern p : c {
    diagram {
        X O .
        . * .
    }
    => * 5;
}
";

const BAD: &str = "class c { mode best; focus empty; field 3x3; }
pattern p : c {
    diagram {
        X O .
        . * .
    }
    where libs(q) > 1;
    => * 5;
}
";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lensc-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

impl Run {
    fn text(&self) -> String {
        format!(
            "exit: {}\n--- stdout ({} bytes)\n{}\n--- stderr\n{}",
            self.code,
            self.stdout.len(),
            if self.stdout.iter().all(|b| b.is_ascii()) {
                String::from_utf8_lossy(&self.stdout).into_owned()
            } else {
                "<binary>".into()
            },
            self.stderr
        )
    }
}

fn lensc(dir: &Path, args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lensc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // lensc may exit before reading stdin (usage errors): a broken pipe here is not a failure.
    let _ = input.write_all(stdin.unwrap_or("").as_bytes());
    drop(input);
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn library_rom(name: &str, text: &str) -> Vec<u8> {
    lens_compiler::compile_str(name, text, &Default::default())
        .1
        .unwrap()
        .rom
}

#[test]
fn compiles_to_a_file_and_to_stdout() {
    let dir = scratch("good");
    std::fs::write(dir.join("good.lens"), GOOD).unwrap();
    let r = lensc(&dir, &["compile", "good.lens", "-o", "good.rom"], None);
    assert_eq!((r.code, r.stdout.len()), (0, 0));
    let file = std::fs::read(dir.join("good.rom")).unwrap();
    let summary = format!(
        "compiled 1 file(s): 1 pattern(s), {} bytes -> good.rom\n",
        file.len()
    );
    assert_eq!(r.stderr, summary);
    assert_eq!(file, library_rom("good.lens", GOOD));
    // The compact profile's summary counts the same patterns (through its expansion).
    let r = lensc(
        &dir,
        &[
            "compile",
            "good.lens",
            "--profile",
            "compact",
            "-o",
            "small.rom",
        ],
        None,
    );
    let small = std::fs::read(dir.join("small.rom")).unwrap();
    assert!(small.len() < file.len());
    let summary = format!(
        "compiled 1 file(s): 1 pattern(s), {} bytes -> small.rom\n",
        small.len()
    );
    assert_eq!((r.code, r.stderr), (0, summary));

    let r = lensc(&dir, &["compile", "good.lens", "-o", "-"], None);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, file);

    // Default output name: the input's stem with `.rom`, in the current directory.
    std::fs::remove_file(dir.join("good.rom")).unwrap();
    assert_eq!(lensc(&dir, &["compile", "good.lens"], None).code, 0);
    assert_eq!(std::fs::read(dir.join("good.rom")).unwrap(), file);

    // --strip gives a smaller image without names.
    let r = lensc(&dir, &["compile", "good.lens", "--strip", "-o", "-"], None);
    assert_eq!(r.code, 0);
    assert!(r.stdout.len() < file.len());

    // --no-sliced leaves the optional bit-sliced tables out: smaller, still loadable, and it
    // matches with the mask kernel.
    let r = lensc(
        &dir,
        &["compile", "good.lens", "--no-sliced", "-o", "-"],
        None,
    );
    assert_eq!(r.code, 0);
    assert!(r.stdout.len() < file.len());
    let with = lens_vm::Rom::from_bytes(&file).unwrap();
    let without = lens_vm::Rom::from_bytes(&r.stdout).unwrap();
    assert!(with.has_sliced() && !without.has_sliced());
    assert_eq!(without.pattern_count(), with.pattern_count());
}

#[test]
fn reads_standard_input() {
    let dir = scratch("stdin");
    let r = lensc(&dir, &["compile", "-", "-o", "-"], Some(GOOD));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, library_rom("<stdin>", GOOD));
    let r = lensc(&dir, &["compile", "-"], Some(GOOD));
    insta::assert_snapshot!("stdin_needs_output", r.text());
}

#[test]
fn source_errors_exit_1_with_rendered_diagnostics() {
    let dir = scratch("bad");
    std::fs::write(dir.join("bad.lens"), BAD).unwrap();
    let r = lensc(&dir, &["compile", "bad.lens", "-o", "bad.rom"], None);
    assert!(!dir.join("bad.rom").exists());
    insta::assert_snapshot!("bad_source", r.text());

    let r = lensc(
        &dir,
        &[
            "compile",
            "bad.lens",
            "-o",
            "bad.rom",
            "--message-format",
            "json",
        ],
        None,
    );
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(lines[0]).expect("one JSON object per line");
    assert!(v.to_string().contains("lens::undefined_label"), "{v}");
}

#[test]
fn missing_input_and_usage_errors() {
    let dir = scratch("usage");
    let r = lensc(&dir, &["compile", "nope.lens", "-o", "x.rom"], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let r = lensc(&dir, &["compile", "-", "other.lens", "-o", "x.rom"], None);
    insta::assert_snapshot!("stdin_mixed", r.text());
    let r = lensc(&dir, &["compile", "--bogus"], None);
    assert_eq!(r.code, 2);
}
