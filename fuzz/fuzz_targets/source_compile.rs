//! Any text: the front end and the compiler give diagnostics or a ROM, never a panic; every ROM
//! they produce loads, and compiling the same text twice gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let opts = lens_compiler::Options::default();
    let (_, first) = lens_compiler::compile_str("fuzz.lens", text, &opts);
    let Ok(compiled) = first else { return };
    let mut buf = vec![0u8; compiled.rom.len() + 8];
    let at = buf.as_ptr().align_offset(8);
    buf[at..at + compiled.rom.len()].copy_from_slice(&compiled.rom);
    if let Err(e) = lens_vm::Rom::from_bytes(&buf[at..at + compiled.rom.len()]) {
        panic!("the compiler wrote a ROM its VM rejects: {e}");
    }
    let (_, again) = lens_compiler::compile_str("fuzz.lens", text, &opts);
    assert_eq!(again.map(|c| c.rom).ok(), Some(compiled.rom), "non-deterministic compile");
    // The formatter's output means the same program.
    let (file, diags) = lens_dsl::parser::parse(0, text);
    if diags.is_empty() {
        let formatted = lens_dsl::fmt::format(&file, text);
        let (again, _) = lens_dsl::parser::parse(0, &formatted);
        assert_eq!(lens_dsl::fmt::format(&again, &formatted), formatted, "fmt is not idempotent");
    }
});
