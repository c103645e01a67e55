//! Compiles `patterns/*.lens` into `$OUT_DIR/stdlib.rom` with the compiler's build-script API.
//! Cargo reruns this when any source changes (the API prints the rerun directives); a broken
//! pattern fails the build with the rendered diagnostic.

fn main() {
    let result = lens_compiler::build::Config::new()
        .inputs_dir("patterns")
        .out_file("stdlib.rom")
        .compile();
    if let Err(e) = result {
        // The diagnostics were already rendered to stderr by the build API.
        println!("cargo::error=lens-stdlib: {e}");
        std::process::exit(1);
    }
}
