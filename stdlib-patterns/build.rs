//! Compiles `patterns/*.lens` into `$OUT_DIR/stdlib.rom` with the compiler's build-script API.
//! The API prints the `rerun-if-changed` directives (the directory and every source), so Cargo
//! reruns this only when a source changes; a broken pattern fails the build with the rendered
//! diagnostic (on stderr) and a `cargo::error=` line naming the file.
//!
//! Then the move-prediction class `policy` (`docs/learning.md`) goes into
//! `$OUT_DIR/policy.rom`, its source into `$OUT_DIR/policy.lens`:
//! * trained (`lensc harvest` + `lensc learn` with their defaults, on the training games of the
//!   fixed split) when `LENS_POLICY_CORPUS` names a directory of SGF games (a relative path is
//!   taken from the repository root: `LENS_POLICY_CORPUS=../shared/data/gnugo/corpus`). That
//!   corpus is GPL: what is learned from it stays in `target/`, never in the repository.
//!   Training takes about a minute of CPU optimised (in release builds the workspace's
//!   `[profile.release.package.lens-*] opt-level = 3` also covers the build script's copies),
//!   which is why it is asked for, not automatic;
//! * else `policy/fallback.lens`: the same features with values set by hand, no shapes.

use std::path::{Path, PathBuf};

fn main() {
    lens_compiler::build::Config::new()
        .inputs_dir("patterns")
        .out_file("stdlib.rom")
        .compile_or_exit();
    policy();
}

fn policy() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by Cargo"));
    println!("cargo::rerun-if-env-changed=LENS_POLICY_CORPUS");
    let fallback = manifest.join("policy/fallback.lens");
    println!("cargo::rerun-if-changed={}", fallback.display());
    let corpus = match std::env::var("LENS_POLICY_CORPUS") {
        Ok(v) if !v.is_empty() && v != "none" => Some(manifest.join("..").join(v)),
        _ => None,
    };
    if let Some(dir) = corpus.as_ref().filter(|d| !d.is_dir()) {
        fail(&format!(
            "LENS_POLICY_CORPUS: {} is not a directory",
            dir.display()
        ));
    }
    let (origin, text) = match &corpus {
        Some(dir) => {
            // Cargo notices files added to or changed in a directory it is told about.
            println!("cargo::rerun-if-changed={}", dir.display());
            let started = std::time::Instant::now();
            match lens_compiler::learn::train_policy(dir, |_| {}) {
                Ok(text) => {
                    println!(
                        "cargo::warning=policy class trained on {} in {:.1} s",
                        dir.display(),
                        started.elapsed().as_secs_f64()
                    );
                    ("trained", text)
                }
                Err(e) => fail(&format!(
                    "training the policy class on {}: {e}",
                    dir.display()
                )),
            }
        }
        None => match std::fs::read_to_string(&fallback) {
            Ok(t) => ("fallback", t),
            Err(e) => fail(&format!("{}: {e}", fallback.display())),
        },
    };
    let (_, result) = lens_compiler::compile_str("policy.lens", &text, &Default::default());
    let compiled = match result {
        Ok(c) => c,
        Err(d) => {
            let first = d.first().map_or(String::new(), |d| d.message.clone());
            fail(&format!(
                "policy.lens does not compile ({} diagnostics; first: {first})",
                d.len()
            ))
        }
    };
    write(&out.join("policy.lens"), text.as_bytes());
    write(&out.join("policy.rom"), &compiled.rom);
    println!("cargo::rustc-env=LENS_POLICY_ORIGIN={origin}");
}

fn write(path: &Path, bytes: &[u8]) {
    // Leave the file alone when unchanged, so nothing downstream rebuilds for nothing.
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    if let Err(e) = std::fs::write(path, bytes) {
        fail(&format!("{}: {e}", path.display()));
    }
}

fn fail(msg: &str) -> ! {
    println!("cargo::error={msg}");
    std::process::exit(1);
}
