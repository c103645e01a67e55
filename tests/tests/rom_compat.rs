//! The compatibility promise: committed format-v1 images keep loading and behaving the same
//! under the format-v2 VM, and `disasm`/`stats` of the sample image are pinned by snapshots.

#[path = "../../vm/tests/common/mod.rs"]
mod common;
use common::*;
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
    if std::env::var_os("LENS_BLESS_ROM").is_some() {
        std::fs::write(&path, rom::write(&sample_spec(false))).unwrap();
    }
    let bytes = std::fs::read(&path).expect("tests/data/format-v1-sample.rom is committed");
    let old = Rom::from_bytes(&bytes).expect("a format v1 image must load");
    assert_eq!(old.format_version(), 1);
    assert_eq!(old.toolchain(), "lensc test");
    assert_eq!(old.pattern_name(2), Some("p2"));
    let boards = sample_boards();
    let behaviour_old = behaviour(&old, &boards);
    assert!(behaviour_old.len() > 20);
    // Format 2 only adds the optional `lut` section: without options the writer emits the
    // v1 bytes but for the version field (and the header checksum that covers it).
    assert_eq!(FORMAT_VERSION, 2);
    let fresh = rom::write(&sample_spec(false));
    let new = Rom::from_bytes(&fresh).unwrap();
    assert_eq!(new.format_version(), 2);
    assert_eq!(behaviour(&new, &boards), behaviour_old);
    let mut as_v1 = fresh.clone();
    as_v1[12..16].copy_from_slice(&1u32.to_le_bytes());
    rom::fix_checksums(&mut as_v1);
    assert_eq!(
        as_v1, bytes,
        "the writer changed more than the version: bump the format version"
    );
    // A v1 image may carry kinds up to 27 (`sliced`), not the v2 `lut` section.
    let v1_sliced = rom::write_with(
        &sample_spec(false),
        &rom::WriteOptions {
            sliced_block_words: 8,
            ..Default::default()
        },
    );
    let mut v = v1_sliced.clone();
    v[12..16].copy_from_slice(&1u32.to_le_bytes());
    rom::fix_checksums(&mut v);
    let r = Rom::from_bytes(&v).expect("a v1 image with the sliced section loads");
    assert!(r.has_sliced() && r.format_version() == 1);
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
