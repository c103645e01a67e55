//! The optional `sliced` section: written on request, deterministic, loaded zero-copy,
//! validated bit by bit against the masks (malformed sections are rejected with an offset
//! inside the section and a reason, truncated images with an offset), and optional (images
//! without it keep the mask kernel).

use lens_test_support::fixtures::*;
use lens_vm::rom::{self, LoadErrorKind, Section, WriteOptions};
use lens_vm::*;
use std::sync::Mutex;

/// The writer's switches (`internals::set_write_*`) are process-wide: tests that write images
/// hold this lock, so one test's baseline image never leaks into another's.
static WRITER: Mutex<()> = Mutex::new(());

fn lock() -> std::sync::MutexGuard<'static, ()> {
    WRITER.lock().unwrap_or_else(|e| e.into_inner())
}

fn with_block_words(bw: u8) -> Vec<u8> {
    rom::write_with(
        &sample_spec(false),
        &WriteOptions {
            sliced_block_words: bw,
            ..Default::default()
        },
    )
}

#[test]
fn section_is_optional_deterministic_and_behaves_like_the_masks() {
    let _w = lock();
    let plain = rom::write(&sample_spec(false));
    let a = rom::write_with(&sample_spec(false), &WriteOptions::COMPILER);
    assert_eq!(
        a,
        rom::write_with(&sample_spec(false), &WriteOptions::COMPILER)
    );
    let (p, s) = (
        Rom::from_bytes(&plain).unwrap(),
        Rom::from_bytes(&a).unwrap(),
    );
    assert!(!p.has_sliced() && s.has_sliced());
    assert_eq!(p.section_span(Section::Sliced), None);
    let (off, len) = s.section_span(Section::Sliced).unwrap();
    assert!(len > 0 && off + len <= a.len());
    assert!(!s.without_sliced().has_sliced());
    let boards = sample_boards();
    let want = behaviour(&p, &boards);
    assert!(want.len() > 20);
    assert_eq!(behaviour(&s, &boards), want);
    assert_eq!(behaviour(&s.without_sliced(), &boards), want);
    for bw in [1, 2, 4, 8] {
        let b = with_block_words(bw);
        assert_eq!(
            behaviour(&Rom::from_bytes(&b).unwrap(), &boards),
            want,
            "bw {bw}"
        );
    }
    // Stripped images carry it too (it follows the debug sections when those are present).
    let st = rom::write_with(&sample_spec(true), &WriteOptions::COMPILER);
    let st = Rom::from_bytes(&st).unwrap();
    assert!(st.has_sliced() && st.is_stripped());
    assert_eq!(behaviour(&st, &boards), want);
    assert!(
        rom::try_write_with(
            &sample_spec(false),
            &WriteOptions {
                sliced_block_words: 3,
                ..Default::default()
            }
        )
        .is_err()
    );
}

/// The section's bytes and where they are.
fn section(bytes: &[u8]) -> (usize, usize) {
    Rom::from_bytes(bytes)
        .unwrap()
        .section_span(Section::Sliced)
        .unwrap()
}

fn expect_malformed(m: &mut [u8], what: &str, want: &'static str) -> usize {
    rom::fix_checksums(m);
    let e = Rom::from_bytes(m).expect_err(what);
    assert_eq!(e.reason, LoadErrorKind::Malformed(want), "{what}: {e}");
    e.offset
}

#[test]
fn every_single_bit_flip_in_the_section_is_rejected_with_an_offset_inside_it() {
    let _w = lock();
    let bytes = with_block_words(1);
    let (off, len) = section(&bytes);
    let mut rejected = 0;
    for i in off..off + len {
        for bit in 0..8 {
            let mut m = bytes.clone();
            m[i] ^= 1 << bit;
            rom::fix_checksums(&mut m);
            if let Err(e) = Rom::from_bytes(&m) {
                assert!(
                    (off..off + len).contains(&e.offset),
                    "flip at {i}.{bit}: offset {} outside the section: {e}",
                    e.offset
                );
                assert!(matches!(e.reason, LoadErrorKind::Malformed(_)), "{e}");
                rejected += 1;
            }
        }
    }
    // Index records: unused table bits (row bits past a class's entries are padding) and the
    // reserved bytes are checked too, so every flip is caught.
    assert_eq!(rejected, len * 8, "every flip must be rejected");
}

#[test]
fn every_truncation_of_an_image_with_pair_rows_is_rejected() {
    let _w = lock();
    let bytes = with_block_words(1);
    let (off, len) = section(&bytes);
    assert_eq!(Rom::from_bytes(&bytes).unwrap().format_version(), 6);
    for cut in 0..bytes.len() {
        let e = Rom::from_bytes(&bytes[..cut]).expect_err("a truncated image must not load");
        assert!(
            e.offset <= bytes.len(),
            "cut {cut} (section {off}..{}): {e}",
            off + len
        );
    }
}

#[test]
fn malformed_sections_name_the_field() {
    let _w = lock();
    let bytes = with_block_words(8);
    let (off, len) = section(&bytes);
    let r = Rom::from_bytes(&bytes).unwrap();
    let classes = r.class_count();
    // class 0 is packed: its index record is the first 8 bytes of the section.
    let mut m = bytes.clone();
    m[off + 4] = 3;
    let at = expect_malformed(
        &mut m,
        "bad block words",
        "sliced block words not 1, 2, 4 or 8",
    );
    assert_eq!(at, off + 4);
    let mut m = bytes.clone();
    m[off + 5] ^= 1;
    expect_malformed(
        &mut m,
        "bad row count",
        "sliced row count does not match the class's mask words",
    );
    let mut m = bytes.clone();
    m[off + 6] = 1;
    assert_eq!(
        expect_malformed(&mut m, "reserved", "reserved field is not zero"),
        off + 6
    );
    let mut m = bytes.clone();
    m[off] ^= 1;
    expect_malformed(
        &mut m,
        "first",
        "sliced class tables do not continue the previous ones",
    );
    // The general class (2) must have no tables.
    let mut m = bytes.clone();
    m[off + 2 * 8 + 4] = 1;
    expect_malformed(
        &mut m,
        "general class",
        "sliced tables for a class without packed entries",
    );
    // A table bit that disagrees with the masks (class 0's tables start at its `first`
    // record: format v6 pads the index to a 64-byte line).
    let first0 = u32::from_le_bytes(bytes[off..off + 4].try_into().unwrap()) as usize;
    assert_eq!(first0, classes.next_multiple_of(8));
    let mut m = bytes.clone();
    let t = off + first0 * 8 + 8;
    m[t] ^= 0x10;
    let at = expect_malformed(
        &mut m,
        "table bit",
        "sliced table disagrees with the class masks",
    );
    assert_eq!(at, t);
    assert!(len > classes * 8);
    // A pair row (format v4: after the single rows) that is not the OR of its points' rows:
    // class 0's first pair row, in its first block.
    let (bw, rows) = (bytes[off + 4] as usize, bytes[off + 5] as usize);
    assert!([63, 126, 159].contains(&(rows - 72)), "pair rows written");
    let t = off + (first0 + (rows - 72) * bw) * 8;
    let mut m = bytes.clone();
    m[t] ^= 1;
    let at = expect_malformed(
        &mut m,
        "pair row",
        "sliced pair row is not the OR of its two points' rows",
    );
    assert_eq!(at, t);
    // Pair rows in an image that says format v3 (whose VMs know single rows only), written
    // without format v5's facts (a section v3 does not define) and in v5's layout.
    let mut m = {
        internals::set_write_facts(Some(false));
        internals::set_write_aligned(Some(false));
        let m = rom::write_with(
            &sample_spec(false),
            &WriteOptions {
                sliced_block_words: 8,
                ..Default::default()
            },
        );
        internals::set_write_aligned(None);
        internals::set_write_facts(None);
        m
    };
    let (off, _) = section(&m);
    m[12..16].copy_from_slice(&3u32.to_le_bytes());
    let at = expect_malformed(
        &mut m,
        "v3 with pair rows",
        "sliced pair rows in an image of format version 3 or older",
    );
    assert_eq!(at, off + 5);
}

#[test]
fn committed_style_image_without_the_section_still_matches() {
    let _w = lock();
    // An image written before the section existed (the plain writer's bytes) loads and the
    // sliced and mask kernels agree with it on every sample board.
    let plain = rom::write(&sample_spec(false));
    let r = Rom::from_bytes(&plain).unwrap();
    assert!(!r.has_sliced());
    let s = with_block_words(2);
    assert_eq!(
        behaviour(&Rom::from_bytes(&s).unwrap(), &sample_boards()),
        behaviour(&r, &sample_boards())
    );
}

#[test]
fn format_v6_tables_lie_on_64_byte_lines_and_the_padding_is_checked() {
    let _w = lock();
    // `AlignedRom` holds an image on a cache line, so a 512-entry row is one line.
    assert_eq!(std::mem::align_of::<AlignedRom<[u8; 1]>>(), 64);
    for bw in [1, 2, 4, 8] {
        let bytes = with_block_words(bw);
        let r = Rom::from_bytes(&bytes).unwrap();
        assert_eq!(r.format_version(), 6);
        let (off, len) = section(&bytes);
        assert_eq!(off % 64, 0, "bw {bw}: section at {off}");
        let mut tables = 0;
        for c in 0..r.class_count() {
            let rec = &bytes[off + 8 * c..];
            let first = u32::from_le_bytes(rec[..4].try_into().unwrap()) as usize;
            assert_eq!(first % 8, 0, "bw {bw}: class {c} tables at record {first}");
            tables += (rec[4] != 0) as usize;
        }
        assert!(tables >= 2, "bw {bw}: the sample has packed classes");
        // The gap before the section: each flipped bit is rejected there.
        let prev_end = (0..Section::ALL.len())
            .filter_map(|i| r.section_span(Section::ALL[i]))
            .map(|(o, l)| (o + l).next_multiple_of(8))
            .filter(|&e| e <= off)
            .max()
            .unwrap();
        assert!(off + len <= bytes.len());
        for i in prev_end..off {
            let mut m = bytes.clone();
            m[i] ^= 0x80;
            assert_eq!(
                expect_malformed(&mut m, "gap before sliced", "padding is not zero"),
                i
            );
        }
    }
    // v5's layout under a v6 header: the section or its first class's tables off their line.
    let mut m = {
        internals::set_write_aligned(Some(false));
        let m = with_block_words(8);
        internals::set_write_aligned(None);
        m
    };
    assert_eq!(Rom::from_bytes(&m).unwrap().format_version(), 5);
    let (off, _) = section(&m);
    m[12..16].copy_from_slice(&6u32.to_le_bytes());
    rom::fix_checksums(&mut m);
    let e = Rom::from_bytes(&m).expect_err("v5 layout under a v6 header");
    let want = if off % 64 != 0 {
        "sliced section does not start at the next 64-byte boundary"
    } else {
        "sliced class tables do not continue the previous ones"
    };
    assert_eq!(e.reason, LoadErrorKind::Malformed(want), "{e}");
}

#[test]
fn a_rom_buf_holds_a_run_time_image_on_a_line_and_matches_like_any_copy() {
    let _w = lock();
    let bytes = with_block_words(2);
    // A copy one byte past a line, as a `Vec` read from a file may lie.
    let mut skewed = vec![0u8; bytes.len() + 65];
    let at = skewed.as_ptr().align_offset(64) + 1;
    skewed[at..at + bytes.len()].copy_from_slice(&bytes);
    let skewed = &skewed[at..at + bytes.len()];
    for buf in [RomBuf::copy_from(skewed), RomBuf::from(bytes.clone())] {
        assert_eq!(buf.as_ptr() as usize % 64, 0);
        assert_eq!(&*buf, &bytes[..]);
        assert_eq!(
            behaviour(&buf.rom().unwrap(), &sample_boards()),
            behaviour(&Rom::from_bytes(skewed).unwrap(), &sample_boards())
        );
    }
}
