//! Text snapshots of the standard library ROM (the one `lens-stdlib`'s build script embeds):
//! its disassembly and its statistics. A change to any pattern, or to the compiler's output for
//! it, shows up here for review.

#[test]
fn stdlib_disasm() {
    let rom = lens_stdlib::rom();
    insta::assert_snapshot!("stdlib_disasm", lens_compiler::disasm::disasm(&rom));
}

#[test]
fn stdlib_stats() {
    let rom = lens_stdlib::rom();
    insta::assert_snapshot!("stdlib_stats", lens_compiler::stats::stats(&rom));
}
