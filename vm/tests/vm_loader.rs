//! Loader robustness: truncations, bit flips, structural fuzzing with valid checksums,
//! future versions; determinism of the writer.

use lens_test_support::fixtures::*;
use lens_vm::rom::{self, LoadErrorKind};
use lens_vm::*;

#[test]
fn every_truncation_is_rejected() {
    for strip in [false, true] {
        let bytes = rom::write(&sample_spec(strip));
        assert!(Rom::from_bytes(&bytes).is_ok());
        for len in 0..bytes.len() {
            let e = Rom::from_bytes(&bytes[..len]).expect_err("a truncated image must not load");
            assert!(e.offset <= bytes.len(), "{e}");
        }
    }
}

#[test]
fn every_bit_flip_is_rejected_or_harmless() {
    let bytes = rom::write(&sample_spec(false));
    let boards = sample_boards();
    let want = behaviour(&Rom::from_bytes(&bytes).unwrap(), &boards);
    assert!(
        want.len() > 20,
        "the sample should match something ({})",
        want.len()
    );
    let mut loaded = 0;
    for i in 0..bytes.len() {
        for bit in [i % 8, (i + 3) % 8] {
            let mut m = bytes.clone();
            m[i] ^= 1 << bit;
            match Rom::from_bytes(&m) {
                Err(e) => assert!(e.offset <= m.len(), "{e}"),
                Ok(r) => {
                    loaded += 1;
                    assert_eq!(
                        behaviour(&r, &boards),
                        want,
                        "flip at byte {i} bit {bit} loaded but behaves differently"
                    );
                }
            }
        }
    }
    // Checksums catch data flips; only a handful of header bits could ever be harmless.
    assert!(loaded < 8, "{loaded} corrupted images loaded");
}

#[test]
fn structural_fuzz_with_fixed_checksums_never_panics() {
    let bytes = rom::write(&sample_spec(false));
    let boards = sample_boards();
    let mut rng = Rng(99);
    let mut accepted = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..3000 {
        let mut m = bytes.clone();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(m.len() as u64) as usize;
            m[i] = match rng.below(4) {
                0 => m[i] ^ (1 << rng.below(8)),
                1 => 0xFF,
                2 => 0,
                _ => m[i].wrapping_add(1),
            };
        }
        rom::fix_checksums(&mut m);
        match Rom::from_bytes(&m) {
            Err(e) => {
                kinds.insert(
                    format!("{:?}", e.reason)
                        .split('(')
                        .next()
                        .unwrap()
                        .to_string(),
                );
            }
            Ok(r) => {
                accepted += 1;
                let _ = behaviour(&r, &boards[..1]);
                let _ = lens_compiler_free_disasm(&r);
            }
        }
    }
    assert!(
        kinds.contains("Malformed"),
        "structural checks should fire: {kinds:?}"
    );
    assert!(
        accepted > 0,
        "some harmless mutations (values, names) should load"
    );
}

/// Touch every accessor a tool would use (no panics allowed).
fn lens_compiler_free_disasm(r: &Rom<'_>) -> usize {
    let mut n = r.toolchain().len();
    for c in r.classes() {
        n += c.name().len();
        for it in c.items() {
            if let lens_vm::rom::Item::Run { first, end }
            | lens_vm::rom::Item::Glob { first, end, .. } = it
            {
                for e in first..end {
                    let (p, _, _) = r.entry(e);
                    let pat = r.pattern(p);
                    n += pat.cells().count() + pat.tests().count();
                    n += r
                        .entry_masks(&c, e)
                        .iter()
                        .map(|m| m.count_ones() as usize)
                        .sum::<usize>();
                    let _ = r.pattern_name(pat.id());
                }
            }
        }
    }
    for s in 0..r.sequence_count() {
        n += r.sequence(s as u32).count();
    }
    n
}

#[test]
fn future_and_past_versions_are_rejected() {
    let mut bytes = rom::write(&sample_spec(true));
    // This VM reads versions 1 to 6 (`rom_compat.rs` loads committed images of each).
    for v in [0u32, 7, 8, u32::MAX] {
        bytes[12..16].copy_from_slice(&v.to_le_bytes());
        rom::fix_checksums(&mut bytes);
        let e = Rom::from_bytes(&bytes).unwrap_err();
        assert_eq!(e.reason, LoadErrorKind::UnsupportedVersion(v));
        assert_eq!(e.offset, 12);
        assert!(
            e.to_string().starts_with("offset 12: format version"),
            "{e}"
        );
    }
}

#[test]
fn wrong_magic_and_endianness() {
    let mut bytes = rom::write(&sample_spec(true));
    bytes[8..10].copy_from_slice(&0xFEFFu16.to_be_bytes());
    assert_eq!(
        Rom::from_bytes(&bytes).unwrap_err().reason,
        LoadErrorKind::WrongEndianness
    );
    bytes[0] = b'X';
    assert_eq!(
        Rom::from_bytes(&bytes).unwrap_err().reason,
        LoadErrorKind::BadMagic
    );
    assert_eq!(
        Rom::from_bytes(b"hello").unwrap_err().reason,
        LoadErrorKind::Truncated
    );
}

#[test]
fn writer_is_deterministic_and_strip_removes_debug() {
    let a = rom::write(&sample_spec(false));
    let b = rom::write(&sample_spec(false).clone());
    assert_eq!(a, b);
    let s = rom::write(&sample_spec(true));
    assert!(s.len() < a.len());
    let (full, stripped) = (Rom::from_bytes(&a).unwrap(), Rom::from_bytes(&s).unwrap());
    assert_eq!(full.pattern_name(0), Some("p0"));
    assert_eq!(stripped.pattern_name(0), None);
    assert!(!String::from_utf8_lossy(&s).contains("test.lens"));
    // Same behaviour with and without debug info.
    let boards = sample_boards();
    assert_eq!(behaviour(&full, &boards), behaviour(&stripped, &boards));
    assert_eq!(a.len() % 8, 0);
}

#[test]
fn aligned_wrapper_and_accessors() {
    static ALIGNED: &AlignedRom<[u8]> = &AlignedRom {
        _align: [],
        bytes: *b"not a rom at all",
    };
    assert_eq!(ALIGNED.bytes.as_ptr() as usize % 8, 0);
    assert!(Rom::from_bytes(&ALIGNED.bytes).is_err());
    let bytes = rom::write(&sample_spec(false));
    let r = Rom::from_bytes(&bytes).unwrap();
    assert_eq!(r.toolchain(), "lensc test");
    assert_eq!(r.joseki_blob("corner"), Some(&[1u8, 2, 3, 4, 5][..]));
    assert_eq!(r.joseki_blob("none"), None);
    assert_eq!(r.class_by_name("edge"), Some(ClassId(1)));
    assert_eq!(r.lens_by_name("bridge"), Some(LensId(0)));
    assert_eq!(r.global_name(0), "phase");
    assert_eq!(r.extern_info(0), ("safe", 3, 20));
    assert_eq!(r.sequence(0).count(), 3);
    let kinds: Vec<_> = r.classes().map(|c| c.kernel()).collect();
    assert_eq!(
        kinds,
        [
            rom::Kernel::Packed,
            rom::Kernel::Packed,
            rom::Kernel::General
        ]
    );
}

#[test]
fn bad_specs_are_refused_by_the_writer() {
    let mut s = sample_spec(true);
    s.classes[0].width = 4;
    assert!(rom::try_write(&s).is_err());
    let mut s = sample_spec(true);
    s.lenses[0].tree[0] = lens_vm::spec::TreeNode::Branch {
        at: lens_vm::spec::Offset::FOCUS,
        children: [0, 1, 2, 3],
    };
    assert!(rom::try_write(&s).is_err());
}
