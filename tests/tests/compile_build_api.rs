//! `lens_compiler::build`: the build-script API (inputs sorted, rerun directives, output file,
//! failures with the file named).

use std::path::{Path, PathBuf};

use lens_compiler::build::{BuildError, Config};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lens-build-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pats/sub")).unwrap();
    dir
}

fn write(dir: &Path, rel: &str, text: &str) {
    std::fs::write(dir.join(rel), text).unwrap();
}

const GOOD_B: &str =
    "class c { focus empty; field 3x3; }\npattern p : c { diagram { X * } => * 1; }\n";
const GOOD_A: &str = "pattern q : c { diagram { O * } => * 2; }\n";

#[test]
fn compiles_a_directory_sorted_with_rerun_directives() {
    let dir = scratch("ok");
    write(&dir, "pats/b.lens", GOOD_B);
    write(&dir, "pats/sub/a.lens", GOOD_A);
    write(&dir, "pats/notes.txt", "not a source");
    let mut cfg = Config::new();
    cfg.base_dir(&dir)
        .inputs_dir("pats")
        .out_dir(dir.join("out"))
        .out_file("x.rom");
    assert_eq!(
        cfg.input_files().unwrap(),
        vec![
            PathBuf::from("pats/b.lens"),
            PathBuf::from("pats/sub/a.lens")
        ]
    );

    let mut cargo = Vec::new();
    let path = cfg.compile_with(&mut cargo).expect("compiles");
    assert_eq!(path, dir.join("out/x.rom"));
    let cargo = String::from_utf8(cargo).unwrap();
    let lines: Vec<&str> = cargo.lines().collect();
    let want = |rel: &str| format!("cargo:rerun-if-changed={}", dir.join(rel).display());
    assert_eq!(
        lines,
        vec![want("pats"), want("pats/b.lens"), want("pats/sub/a.lens")]
    );

    // The written image is what an in-process compile with the same names gives, and its
    // debug info names the sources relative to the base (machine-independent).
    let bytes = std::fs::read(&path).unwrap();
    let (_, fresh) = cfg.compile_in_memory().unwrap();
    let fresh = fresh.unwrap();
    assert_eq!(bytes, fresh.rom);
    assert_eq!(
        fresh.spec.debug.unwrap().files,
        vec!["pats/b.lens".to_string(), "pats/sub/a.lens".to_string()]
    );

    // Moving the package elsewhere gives the same bytes.
    let moved = scratch("moved");
    write(&moved, "pats/b.lens", GOOD_B);
    write(&moved, "pats/sub/a.lens", GOOD_A);
    let mut other = Config::new();
    other
        .base_dir(&moved)
        .inputs_dir("pats")
        .emit_rerun_directives(false)
        .out_dir(moved.join("out"));
    let mut silent = Vec::new();
    let p2 = other.compile_with(&mut silent).unwrap();
    assert!(silent.is_empty());
    assert_eq!(std::fs::read(p2).unwrap(), bytes);
}

#[test]
fn broken_source_fails_with_the_file_named() {
    let dir = scratch("bad");
    write(&dir, "pats/b.lens", GOOD_B);
    write(
        &dir,
        "pats/bad.lens",
        "pattern r : c { diagram { X * } where libs(z) > 1; => * 1; }\n",
    );
    let mut cfg = Config::new();
    cfg.base_dir(&dir)
        .inputs_dir("pats")
        .out_dir(dir.join("out"));
    let mut cargo = Vec::new();
    match cfg.compile_with(&mut cargo) {
        Err(BuildError::Diagnostics {
            errors,
            first,
            rendered,
        }) => {
            assert_eq!(errors, 1);
            assert!(
                first.starts_with("pats/bad.lens: label `z` is not defined"),
                "{first}"
            );
            assert!(rendered.contains("pats/bad.lens"), "{rendered}");
            assert!(!rendered.contains('\u{1b}'), "no colour in build output");
        }
        other => panic!("expected diagnostics, got {other:?}"),
    }
    // Rerun directives are printed even on failure, so fixing the file reruns the script.
    assert!(String::from_utf8(cargo).unwrap().contains("pats/bad.lens"));
    assert!(!dir.join("out/patterns.rom").exists());
}

#[test]
fn no_inputs_and_missing_directories_are_errors() {
    let dir = scratch("empty");
    let mut cfg = Config::new();
    cfg.base_dir(&dir)
        .inputs_dir("pats")
        .out_dir(dir.join("out"));
    assert!(matches!(
        cfg.compile_with(&mut Vec::new()),
        Err(BuildError::NoInputs)
    ));
    let mut missing = Config::new();
    missing
        .base_dir(&dir)
        .inputs_dir("nowhere")
        .out_dir(dir.join("out"));
    assert!(matches!(
        missing.compile_with(&mut Vec::new()),
        Err(BuildError::Io { .. })
    ));
}
