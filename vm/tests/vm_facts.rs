//! Format v5's plain facts (`rom/facts.rs`, docs/rom-format.md "pattern_facts"): written with
//! the `sliced` section, deterministic, the same matches as the records they are derived
//! from, and validated field by field (a flipped bit in `pattern_facts` or in an entry's
//! `plain` field is rejected with its offset and a reason; truncated images with an offset).

use lens_test_support::fixtures::*;
use lens_vm::rom::{self, LoadErrorKind, Section, WriteOptions};
use lens_vm::*;
use std::sync::Mutex;

/// `internals::set_write_facts` is process-wide: the tests that write images take turns.
static WRITER: Mutex<()> = Mutex::new(());

fn fast(strip: bool) -> Vec<u8> {
    rom::write_with(&sample_spec(strip), &WriteOptions::COMPILER)
}

/// The zero bytes between the end of the section before `sliced` (8-aligned) and `sliced`.
fn sliced_gap(bytes: &[u8]) -> usize {
    let r = Rom::from_bytes(bytes).unwrap();
    let (off, _) = r.section_span(Section::Sliced).unwrap();
    let prev = Section::ALL
        .iter()
        .filter_map(|&s| r.section_span(s))
        .map(|(o, l)| (o + l).next_multiple_of(8))
        .filter(|&e| e <= off)
        .max()
        .unwrap();
    off - prev
}

/// Where the entries' `plain` fields lie (entry records are 8 bytes, `plain` at 6..8).
fn plain_fields(bytes: &[u8]) -> Vec<usize> {
    let (off, len) = Rom::from_bytes(bytes)
        .unwrap()
        .section_span(Section::Entries)
        .unwrap();
    (off..off + len).step_by(8).map(|e| e + 6).collect()
}

#[test]
fn facts_come_with_the_sliced_tables_and_match_like_the_records() {
    let _w = WRITER.lock().unwrap();
    let bytes = fast(false);
    assert_eq!(bytes, fast(false), "deterministic");
    let r = Rom::from_bytes(&bytes).unwrap();
    assert_eq!(r.format_version(), 6);
    assert!(r.has_pattern_facts());
    let (_, len) = r.section_span(Section::PatFacts).unwrap();
    assert_eq!(len, r.pattern_count() * 20);
    // Some entries are plain (the sample has patterns without tests), some are not.
    let plain: Vec<u16> = plain_fields(&bytes)
        .iter()
        .map(|&i| u16::from_le_bytes([bytes[i], bytes[i + 1]]))
        .collect();
    assert!(plain.iter().any(|&p| p != 0) && plain.contains(&0));
    // Without options (no sliced tables) and with the writer's facts off: the records.
    let none = rom::write(&sample_spec(false));
    internals::set_write_facts(Some(false));
    let off = fast(false);
    internals::set_write_facts(None);
    let (n, o) = (
        Rom::from_bytes(&none).unwrap(),
        Rom::from_bytes(&off).unwrap(),
    );
    assert!(!n.has_pattern_facts() && !o.has_pattern_facts() && o.has_sliced());
    // (Format v6 starts `sliced` on a 64-byte line: the gap before it moves with the table.)
    let padded = len.div_ceil(8) * 8;
    assert_eq!(
        off.len() - sliced_gap(&off) + padded + 16,
        bytes.len() - sliced_gap(&bytes),
        "one section more, nothing else"
    );
    let boards = sample_boards();
    let want = behaviour(&n, &boards);
    assert!(want.len() > 20);
    for (name, img) in [("facts", &r), ("records", &o)] {
        assert_eq!(behaviour(img, &boards), want, "{name}");
        assert_eq!(
            behaviour(&img.without_sliced(), &boards),
            want,
            "{name}, masks"
        );
    }
}

#[test]
fn every_bit_flip_in_the_facts_is_rejected_with_its_offset() {
    let _w = WRITER.lock().unwrap();
    let bytes = fast(true);
    let (off, len) = Rom::from_bytes(&bytes)
        .unwrap()
        .section_span(Section::PatFacts)
        .unwrap();
    let flip = |i: usize, bit: u8| {
        let mut m = bytes.clone();
        m[i] ^= 1 << bit;
        rom::fix_checksums(&mut m);
        Rom::from_bytes(&m).expect_err("a flipped fact must not load")
    };
    for i in off..off + len {
        for bit in 0..8 {
            let e = flip(i, bit);
            // The field holding the byte (4-byte fields).
            assert_eq!(e.offset, i & !3, "flip at {i}.{bit}: {e}");
            assert_eq!(
                e.reason,
                LoadErrorKind::Malformed(
                    "pattern fact disagrees with its pattern and result records"
                )
            );
        }
    }
    for i in plain_fields(&bytes) {
        for b in 0..16 {
            let e = flip(i + b / 8, b as u8 % 8);
            assert_eq!(e.offset, i, "flip of plain bit {b} at {i}: {e}");
            assert_eq!(
                e.reason,
                LoadErrorKind::Malformed(
                    "entry's plain fact disagrees with its pattern and result records"
                )
            );
        }
    }
}

#[test]
fn plain_fields_without_facts_are_rejected() {
    let _w = WRITER.lock().unwrap();
    // An image without `pattern_facts` whose first entry claims a plain move at (1, -1).
    let mut m = rom::write(&sample_spec(false));
    let at = plain_fields(&m)[0];
    m[at..at + 2].copy_from_slice(&(1u16 | 1 << 2 | 0x7f << 9).to_le_bytes());
    rom::fix_checksums(&mut m);
    let e = Rom::from_bytes(&m).expect_err("v5 plain without facts");
    assert_eq!(e.offset, at);
    assert_eq!(
        e.reason,
        LoadErrorKind::Malformed("entry's plain fact is set but the image has no pattern_facts")
    );
    // Under a v4 header the field is reserved.
    m[12..16].copy_from_slice(&4u32.to_le_bytes());
    rom::fix_checksums(&mut m);
    let e = Rom::from_bytes(&m).expect_err("v4 reserved field");
    assert_eq!(e.offset, at);
    assert_eq!(
        e.reason,
        LoadErrorKind::Malformed("reserved field is not zero")
    );
}

#[test]
fn every_truncation_of_an_image_with_facts_is_rejected() {
    let _w = WRITER.lock().unwrap();
    let bytes = fast(true);
    assert!(Rom::from_bytes(&bytes).unwrap().has_pattern_facts());
    for cut in 0..bytes.len() {
        let e = Rom::from_bytes(&bytes[..cut]).expect_err("a truncated image must not load");
        assert!(e.offset <= bytes.len(), "cut {cut}: {e}");
    }
}
