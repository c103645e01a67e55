//! The ROM the build script embedded is exactly what the compiler produces in-process from the
//! same sources, and it is aligned for zero-copy loading.

use std::path::PathBuf;

#[test]
fn embedded_rom_is_byte_identical_to_an_in_process_compile() {
    // Integration tests run in the package directory, as build scripts do: same relative path.
    let inputs = [PathBuf::from("patterns")];
    let (sources, result) =
        lens_compiler::compile_paths(&inputs, &lens_compiler::Options::default());
    let compiled = match result {
        Ok(c) => c,
        Err(diags) => panic!("{}", lens_dsl::render_human(&sources, &diags, false)),
    };
    assert!(
        compiled.rom == lens_stdlib::ROM_BYTES,
        "embedded ROM ({} bytes) differs from the in-process compile ({} bytes)",
        lens_stdlib::ROM_BYTES.len(),
        compiled.rom.len()
    );
}

#[test]
fn embedded_rom_is_aligned_and_loads() {
    assert_eq!(lens_stdlib::ROM_BYTES.as_ptr() as usize % 8, 0);
    let rom = lens_stdlib::rom();
    assert_eq!(rom.classes().count(), lens_stdlib::CLASSES.len());
}

#[test]
fn joseki_section_is_the_book_blob() {
    let blob = lens_stdlib::joseki_blob();
    // A lens-joseki blob: magic `LJ` (docs/joseki.md); the full decode is checked in
    // tests/tests/stdlib_joseki.rs.
    assert_eq!(&blob[..2], b"LJ");
    assert_eq!(
        lens_stdlib::rom().joseki_blob(lens_stdlib::JOSEKI),
        Some(blob)
    );
}
