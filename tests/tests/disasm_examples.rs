//! `lensc disasm` text of every example, as insta snapshots: the reviewable form of what the
//! compiler emits. Paths are relative to this package (the test's working directory), so the
//! source hash and debug names are the same on every machine.

use std::path::PathBuf;

use lens_compiler::{Options, compile_paths};
use lens_vm::Rom;

#[test]
fn disasm_of_every_example() {
    let mut files: Vec<PathBuf> = std::fs::read_dir("../examples")
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lens"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let (sources, result) = compile_paths(std::slice::from_ref(&file), &Options::default());
        let compiled = result.unwrap_or_else(|d| {
            panic!(
                "{}: {}",
                file.display(),
                lens_dsl::render_human(&sources, &d, false)
            )
        });
        let rom = Rom::from_bytes(&compiled.rom).expect("compiled ROM loads");
        let text = lens_compiler::disasm::disasm(&rom);
        // The listing must name every class the source declares.
        for class in &compiled.spec.classes {
            assert!(
                text.contains(&class.name),
                "{}: {}",
                file.display(),
                class.name
            );
        }
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("disasm_example_{name}"), text);
    }
}
