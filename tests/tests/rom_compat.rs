//! The compatibility promise: committed format-v1, v2, v4 and v5 images keep loading and
//! behaving the same under the format-v6 VM, a committed v3 compact-profile image loads and
//! expands to the same behaviour, the v6 fast writer's bytes are pinned by a committed v6 image, and
//! `disasm`/`stats` of the sample image are pinned by snapshots.

use lens_test_support::fixtures::*;
use lens_vm::rom::{self, FORMAT_VERSION};
use lens_vm::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

#[test]
fn committed_v1_image_still_loads_and_behaves() {
    let path = data("format-v1-sample.rom");
    // The v1 sample is never re-blessed: it is what a v1 writer wrote.
    let bytes = std::fs::read(&path).expect("tests/data/format-v1-sample.rom is committed");
    let old = Rom::from_bytes(&bytes).expect("a format v1 image must load");
    assert_eq!(old.format_version(), 1);
    assert_eq!(old.toolchain(), "lensc test");
    assert_eq!(old.pattern_name(2), Some("p2"));
    let boards = sample_boards();
    let behaviour_old = behaviour(&old, &boards);
    assert!(behaviour_old.len() > 20);
    // Formats 2 and 3 only add sections (the optional `lut`; the compact profile's), 4 only
    // pair rows in the optional `sliced` section, 5 the plain facts written with it and 6 the
    // alignment of its tables: without options the writer emits the v1 bytes but for the
    // version field (and the header checksum that covers it).
    assert_eq!(FORMAT_VERSION, 6);
    let fresh = rom::write(&sample_spec(false));
    let new = Rom::from_bytes(&fresh).unwrap();
    assert_eq!(new.format_version(), 6);
    assert!(!new.has_pattern_facts());
    assert_eq!(behaviour(&new, &boards), behaviour_old);
    let mut as_v1 = fresh.clone();
    as_v1[12..16].copy_from_slice(&1u32.to_le_bytes());
    rom::fix_checksums(&mut as_v1);
    assert_eq!(
        as_v1, bytes,
        "the writer changed more than the version: bump the format version"
    );
    // A v1 image may carry kinds up to 27 (`sliced`), but not what v4 and v5 write with it
    // (pair rows, `pattern_facts`, kind 34; vm_sliced.rs refuses pair rows under a v3 header
    // on an image without the facts).
    let v5_sliced = rom::write_with(
        &sample_spec(false),
        &rom::WriteOptions {
            sliced_block_words: 8,
            ..Default::default()
        },
    );
    let mut v = v5_sliced.clone();
    v[12..16].copy_from_slice(&1u32.to_le_bytes());
    rom::fix_checksums(&mut v);
    let e = Rom::from_bytes(&v).expect_err("v5 sections under a v1 header");
    assert_eq!(
        e.reason,
        rom::LoadErrorKind::Malformed("more sections than the image's format version defines")
    );
}

/// The fast image lensc writes for the sample (sliced tables and lookup tables included).
fn sample_fast(strip: bool) -> Vec<u8> {
    let opts = rom::WriteOptions {
        lut_max_bytes: u32::MAX,
        ..rom::WriteOptions::COMPILER
    };
    rom::write_with(&sample_spec(strip), &opts)
}

#[test]
fn committed_v2_image_still_loads_and_behaves() {
    // Never re-blessed: what a v2 (and v3) fast writer wrote, `sliced` tables without pair
    // rows (matched with the single rows).
    let path = data("format-v2-sample.rom");
    let bytes = std::fs::read(&path).expect("tests/data/format-v2-sample.rom is committed");
    let old = Rom::from_bytes(&bytes).expect("a format v2 image must load");
    assert_eq!(old.format_version(), 2);
    assert!(
        old.has_sliced(),
        "the v2 sample carries the optional tables"
    );
    let boards = sample_boards();
    let fresh = sample_fast(false);
    assert_eq!(
        behaviour(&Rom::from_bytes(&fresh).unwrap(), &boards),
        behaviour(&old, &boards)
    );
}

#[test]
fn committed_v4_image_still_loads_and_behaves() {
    // Never re-blessed: what the v4 fast writer wrote (pair rows, no plain facts: matched
    // through the pattern and result records).
    let bytes = std::fs::read(data("format-v4-sample.rom")).expect("format-v4-sample.rom");
    let r = Rom::from_bytes(&bytes).expect("the v4 sample loads");
    assert_eq!(r.format_version(), 4);
    assert!(r.has_sliced());
    assert!(!r.has_pattern_facts());
    let boards = sample_boards();
    let fresh = sample_fast(false);
    assert_eq!(
        behaviour(&r, &boards),
        behaviour(&Rom::from_bytes(&fresh).unwrap(), &boards)
    );
    // The committed v5 image under a v4 header: `pattern_facts` (kind 34) is not a v4 section.
    let mut v = std::fs::read(data("format-v5-sample.rom")).expect("format-v5-sample.rom");
    v[12..16].copy_from_slice(&4u32.to_le_bytes());
    rom::fix_checksums(&mut v);
    let e = Rom::from_bytes(&v).expect_err("pattern_facts under a v4 header");
    assert_eq!(
        e.reason,
        rom::LoadErrorKind::Malformed("section kind not defined in the image's format version")
    );
}

#[test]
fn committed_v5_image_still_loads_and_behaves() {
    // Never re-blessed: what the v5 fast writer wrote (plain facts; `sliced` tables where the
    // sections fell, not on 64-byte lines).
    let bytes = std::fs::read(data("format-v5-sample.rom")).expect("format-v5-sample.rom");
    let r = Rom::from_bytes(&bytes).expect("the v5 sample loads");
    assert_eq!(r.format_version(), 5);
    assert!(r.has_sliced());
    assert!(r.has_pattern_facts());
    let boards = sample_boards();
    let fresh = sample_fast(false);
    assert_eq!(
        behaviour(&r, &boards),
        behaviour(&Rom::from_bytes(&fresh).unwrap(), &boards)
    );
}

#[test]
fn committed_v6_image_pins_the_fast_writer() {
    let path = data("format-v6-sample.rom");
    if std::env::var_os("LENS_BLESS_ROM").is_some() {
        std::fs::write(&path, sample_fast(false)).unwrap();
    }
    let bytes = std::fs::read(&path).expect("tests/data/format-v6-sample.rom is committed");
    let r = Rom::from_bytes(&bytes).expect("the v6 sample loads");
    assert_eq!(r.format_version(), 6);
    assert!(r.has_sliced());
    assert!(r.has_pattern_facts());
    let (off, _) = r.section_span(rom::Section::Sliced).unwrap();
    assert_eq!(off % 64, 0, "v6: the sliced section on a 64-byte line");
    let boards = sample_boards();
    let v2 = std::fs::read(data("format-v2-sample.rom")).unwrap();
    assert_eq!(
        behaviour(&r, &boards),
        behaviour(&Rom::from_bytes(&v2).unwrap(), &boards)
    );
    assert_eq!(
        sample_fast(false),
        bytes,
        "the fast writer changed: bump the format version"
    );
}

#[test]
fn committed_v3_compact_image_loads_and_expands_to_the_same_behaviour() {
    let path = data("format-v3-compact-sample.rom");
    let compact_opts = rom::WriteOptions {
        profile: rom::Profile::Compact,
        ..Default::default()
    };
    let bytes = std::fs::read(&path).expect("tests/data/format-v3-compact-sample.rom is committed");
    let compact = rom::CompactRom::from_bytes(&bytes).expect("the v3 compact sample loads");
    assert_eq!(compact.rom().format_version(), 3);
    assert_eq!(
        compact.metadata().expect("not stripped").debug,
        sample_spec(false).debug.unwrap()
    );
    let expanded = compact.expand(&rom::WriteOptions::COMPILER).unwrap();
    let boards = sample_boards();
    let fast = sample_fast(false);
    assert_eq!(
        behaviour(&Rom::from_bytes(&expanded).unwrap(), &boards),
        behaviour(&Rom::from_bytes(&fast).unwrap(), &boards)
    );
    // Formats 4 to 6 changed only the fast profile (`sliced`, the plain facts, the tables'
    // alignment): the compact writer emits the v3 bytes but for the version field.
    let mut as_v3 = rom::write_with(&sample_spec(false), &compact_opts);
    as_v3[12..16].copy_from_slice(&3u32.to_le_bytes());
    rom::fix_checksums(&mut as_v3);
    assert_eq!(
        as_v3, bytes,
        "the compact writer changed: bump the format version"
    );
}

#[test]
fn disasm_and_stats_snapshots() {
    let bytes = rom::write(&sample_spec(false));
    let r = Rom::from_bytes(&bytes).unwrap();
    insta::assert_snapshot!("sample_disasm", lens_compiler::disasm::disasm(&r));
    insta::assert_snapshot!("sample_stats", lens_compiler::stats::stats(&r));
    let json = lens_compiler::stats::stats_json(&r);
    let v: serde_json::Value = serde_json::from_str(&json).expect("stats_json is JSON");
    assert_eq!(v["patterns"], 6);
    assert_eq!(v["bytes"], bytes.len());
    let stripped = rom::write(&sample_spec(true));
    insta::assert_snapshot!(
        "sample_disasm_stripped",
        lens_compiler::disasm::disasm(&Rom::from_bytes(&stripped).unwrap())
    );
}
