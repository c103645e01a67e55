//! The two image profiles. A compact image (each pattern once, RiscIgo's form) expands at load
//! to exactly the fast image the compiler writes for the same sources, so every fast-profile
//! test (differential, property, oracle, snapshot) holds for it too; it meets the size goals;
//! and the loaders refuse a corrupt compact image with an offset and a reason, never a panic.

use lens_compiler::{Options, Profile};
use lens_vm::Rom;
use lens_vm::rom::{self, CompactRom, LoadErrorKind, WriteOptions};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn options(profile: Profile, strip: bool) -> Options {
    Options {
        strip,
        profile,
        ..Options::default()
    }
}

fn compile_dir(dir: &Path, profile: Profile, strip: bool) -> Vec<u8> {
    let (_, r) = lens_compiler::compile_paths(&[dir.to_path_buf()], &options(profile, strip));
    r.unwrap_or_else(|d| panic!("{} does not compile: {d:?}", dir.display()))
        .rom
}

fn compile_text(name: &str, text: &str, profile: Profile, strip: bool) -> Vec<u8> {
    let (_, r) = lens_compiler::compile_str(name, text, &options(profile, strip));
    r.unwrap_or_else(|d| panic!("{name} does not compile: {d:?}"))
        .rom
}

/// The fast image the compiler writes equals the compact image expanded at load.
fn assert_expands_to_fast(what: &str, fast: &[u8], compact: &[u8]) {
    let c = CompactRom::from_bytes(compact).unwrap_or_else(|e| panic!("{what}: {e}"));
    let expanded = c.expand(&WriteOptions::COMPILER).unwrap();
    assert!(
        expanded == fast,
        "{what}: the expanded compact image differs from the fast image ({} vs {} bytes)",
        expanded.len(),
        fast.len()
    );
    assert!(compact.len() < fast.len(), "{what}: compact is not smaller");
}

#[test]
fn standard_library_and_examples_expand_to_their_fast_images() {
    for dir in ["stdlib-patterns/patterns", "examples"] {
        for strip in [true, false] {
            let dir = root().join(dir);
            let fast = compile_dir(&dir, Profile::Fast, strip);
            let compact = compile_dir(&dir, Profile::Compact, strip);
            assert_expands_to_fast(&format!("{} strip={strip}", dir.display()), &fast, &compact);
        }
    }
}

fn gnugo_dir() -> Option<PathBuf> {
    let d = root().join("../shared/data/gnugo/patterns");
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("note: {} is absent; GNU Go databases skipped", d.display());
        None
    }
}

fn import(db: &Path, geometric_only: bool) -> String {
    let text = std::fs::read_to_string(db).unwrap();
    let name = db.file_name().unwrap().to_string_lossy();
    let opts = lens_compiler::import::gnugo::Options {
        geometric_only,
        ..Default::default()
    };
    lens_compiler::import::gnugo::import_str(&name, &text, &opts).source
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn every_gnugo_database_expands_to_its_fast_image() {
    let Some(dir) = gnugo_dir() else { return };
    let mut dbs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "db"))
        .collect();
    dbs.sort();
    assert!(dbs.len() >= 10, "expected GNU Go's public databases");
    for db in &dbs {
        // Full import (constraints, helpers as externs) with names; geometric-only stripped.
        for (geometric, strip) in [(false, false), (true, true)] {
            let src = import(db, geometric);
            let name = format!("{} geometric={geometric}", db.display());
            let fast = compile_text("db.lens", &src, Profile::Fast, strip);
            let compact = compile_text("db.lens", &src, Profile::Compact, strip);
            assert_expands_to_fast(&name, &fast, &compact);
        }
    }
}

/// `(pattern data, whole image)` bytes per pattern of a compact image, from `lensc stats`.
fn per_pattern(bytes: &[u8]) -> (f64, f64) {
    let s = lens_compiler::stats::compute_compact(&CompactRom::from_bytes(bytes).unwrap());
    let n = s.patterns as f64;
    let parts: usize = s.parts.iter().map(|p| p.1).sum();
    assert_eq!(
        parts, s.pattern_bytes,
        "the breakdown accounts for every record byte"
    );
    (s.pattern_bytes as f64 / n, s.total_bytes as f64 / n)
}

#[test]
fn compact_stdlib_meets_the_size_goals() {
    // Stripped compact images: at most 16 bytes of pattern data per pattern (RiscIgo held
    // 16-18) and 24 for the whole image divided by its patterns.
    let std = compile_dir(
        &root().join("stdlib-patterns/patterns"),
        Profile::Compact,
        true,
    );
    let (data, whole) = per_pattern(&std);
    eprintln!("stdlib: {data:.1} B/pattern data, {whole:.1} B/pattern image");
    assert!(
        data <= 16.0 && whole <= 24.0,
        "stdlib: {data:.1} / {whole:.1}"
    );
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn compact_gnugo_patterns_meet_the_size_goals() {
    let Some(dir) = gnugo_dir() else { return };
    let src = import(&dir.join("patterns.db"), true);
    let pats = compile_text("patterns.lens", &src, Profile::Compact, true);
    let (data, whole) = per_pattern(&pats);
    eprintln!("patterns.db: {data:.1} B/pattern data, {whole:.1} B/pattern image");
    assert!(
        data <= 16.0 && whole <= 24.0,
        "patterns.db: {data:.1} / {whole:.1}"
    );
}

#[test]
fn each_loader_refuses_the_other_profile() {
    let dir = root().join("stdlib-patterns/patterns");
    let compact = compile_dir(&dir, Profile::Compact, true);
    let fast = compile_dir(&dir, Profile::Fast, true);
    let e = Rom::from_bytes(&compact).unwrap_err();
    assert_eq!((e.offset, e.reason), (28, LoadErrorKind::CompactImage));
    assert!(e.to_string().contains("CompactRom"), "{e}");
    let e = CompactRom::from_bytes(&fast).unwrap_err();
    assert_eq!(e.offset, 28);
    // A fast-profile section in a compact image is refused by kind.
    let mut bad = compact.clone();
    // Flag the fast image compact: its `classes` section does not belong there.
    let mut as_compact = fast.clone();
    as_compact[28] |= rom::FLAG_COMPACT as u8;
    rom::fix_checksums(&mut as_compact);
    let e = CompactRom::from_bytes(&as_compact).unwrap_err();
    assert!(
        e.to_string().contains("does not belong"),
        "fast sections in a compact image: {e}"
    );
    // A v2 header may not claim the compact flag.
    bad[12..16].copy_from_slice(&2u32.to_le_bytes());
    rom::fix_checksums(&mut bad);
    let e = CompactRom::from_bytes(&bad).unwrap_err();
    assert_eq!(e.offset, 28, "{e}");
}

/// Loading (and, when the structure passes, expanding and loading the expansion) never panics.
fn load_all_the_way(bytes: &[u8]) -> bool {
    match CompactRom::from_bytes(bytes) {
        Err(e) => {
            assert!(
                e.offset <= bytes.len(),
                "error offset beyond the image: {e}"
            );
            false
        }
        Ok(c) => {
            if let Ok(fast) = c.expand(&WriteOptions::COMPILER) {
                let _ = Rom::from_bytes(&fast);
            }
            let _ = lens_compiler::stats::compact_stats(&c);
            true
        }
    }
}

#[test]
fn corrupt_compact_images_are_errors_with_offsets_never_panics() {
    let dir = root().join("stdlib-patterns/patterns");
    for strip in [true, false] {
        let good = compile_dir(&dir, Profile::Compact, strip);
        assert!(load_all_the_way(&good));
        // Every truncation.
        for n in 0..good.len() {
            assert!(
                !load_all_the_way(&good[..n]),
                "truncated to {n} bytes loads"
            );
        }
        // A flipped bit: the checksums catch it. Then, with the checksums repaired, the
        // structural checks have to hold alone: an error or a well-formed image that expands,
        // never a panic. Every byte of the header and table, and 600 spread over the sections
        // (each repaired image is validated and expanded: keep the suite fast).
        let table = 48 + 16 * u32::from_le_bytes(good[24..28].try_into().unwrap()) as usize;
        let step = (good.len() - table).div_ceil(600).max(1);
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut refused = 0;
        for at in (0..table).chain((table..good.len()).step_by(step)) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mut b = good.clone();
            b[at] ^= 1 << (rng % 8);
            assert!(!load_all_the_way(&b), "bit flip at {at} loads");
            rom::fix_checksums(&mut b);
            refused += !load_all_the_way(&b) as usize;
        }
        assert!(
            refused > 0,
            "the structural checks refuse some repaired images"
        );
    }
}

#[test]
fn compact_stats_and_disasm_snapshots() {
    let dir = root().join("stdlib-patterns/patterns");
    let compact = compile_dir(&dir, Profile::Compact, true);
    let c = CompactRom::from_bytes(&compact).unwrap();
    insta::assert_snapshot!(
        "stdlib_compact_stats",
        lens_compiler::stats::compact_stats(&c)
    );
    let json: serde_json::Value =
        serde_json::from_str(&lens_compiler::stats::compact_stats_json(&c)).unwrap();
    assert_eq!(json["profile"], "compact");
    assert_eq!(json["bytes"], compact.len());
    // The source hash covers the file names, which hold the checkout's path here.
    insta::with_settings!({filters => vec![(r"source [0-9a-f]{16}", "source [hash]")]}, {
        insta::assert_snapshot!(
            "stdlib_compact_disasm",
            lens_compiler::disasm::disasm_compact(&c)
        );
    });
}
