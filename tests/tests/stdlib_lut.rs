//! The standard library's 3x3 class through its lookup table: `lensc` gives `shape3x3` a
//! table (and no other class: they reach beyond distance 1), and the lookup kernel agrees with
//! the reference matcher at every neighbourhood a board can show, from both perspectives.

use lens_test_support::fixtures::*;
use lens_test_support::lut::*;
use lens_vm::*;

#[test]
fn only_the_3x3_class_gets_a_table() {
    let rom = lens_stdlib::rom();
    assert!(rom.has_lut());
    let tabled: Vec<&str> = rom
        .classes()
        .filter(|c| rom.class_lut(c).is_some())
        .map(|c| c.name())
        .collect();
    assert_eq!(tabled, [lens_stdlib::SHAPE3X3]);
    let c = rom.class_by_name(lens_stdlib::SHAPE3X3).unwrap();
    let table = rom.class_lut(&rom.class(c).unwrap()).unwrap();
    assert!(table.len() <= lens_compiler::optimise::lut::LUT_MAX_BYTES as usize);
    // `--no-lut` leaves the section out; the rest of the image is the same.
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../stdlib-patterns/patterns");
    let (_, with) = lens_compiler::compile_paths(std::slice::from_ref(&dir), &Default::default());
    let (_, without) = lens_compiler::compile_paths(
        std::slice::from_ref(&dir),
        &lens_compiler::Options {
            no_lut: true,
            ..Default::default()
        },
    );
    let (with, without) = (with.unwrap().rom, without.unwrap().rom);
    let with = Rom::from_bytes(&with).unwrap();
    assert!(with.has_lut());
    let without = Rom::from_bytes(&without).unwrap();
    assert!(!without.has_lut() && without.has_sliced());
    assert_eq!(
        without.section_span(rom::Section::Sliced).map(|s| s.1),
        rom.section_span(rom::Section::Sliced).map(|s| s.1)
    );
}

#[test]
fn shape3x3_lookup_agrees_with_reference_on_every_neighbourhood() {
    let rom = lens_stdlib::rom();
    let class = rom.class_by_name(lens_stdlib::SHAPE3X3).unwrap();
    let info = rom.class(class).unwrap();
    let focus_states: Vec<Point> = [
        Point::Stone(Colour::Black),
        Point::Stone(Colour::White),
        Point::Empty,
    ]
    .into_iter()
    .enumerate()
    .filter(|(i, _)| info.focus() & (1 << i) != 0)
    .map(|(_, p)| p)
    .collect();
    let mut rng = Rng(3);
    let bg = TestBoard::random(&mut rng, 5, 0.5);
    let mut matched = 0;
    let mut k = 0u32;
    let calls = each_neighbourhood(&bg, TestBoard::set, &focus_states, |b, x, y| {
        k += 1;
        let q = Query {
            class,
            perspective: if k % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            },
            orientations: Orientations::All,
        };
        let (got, want) = both(&rom, b, &q, x, y);
        assert_eq!(got, want, "at ({x}, {y}) on {b:?}");
        matched += got.len();
    });
    assert_eq!(calls, 7641 * focus_states.len());
    assert!(matched > 1000, "{matched}");
}
