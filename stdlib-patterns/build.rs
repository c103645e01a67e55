//! Compiles `patterns/*.lens` into `$OUT_DIR/stdlib.rom` with the compiler's build-script API.
//! The API prints the `rerun-if-changed` directives (the directory and every source), so Cargo
//! reruns this only when a source changes; a broken pattern fails the build with the rendered
//! diagnostic (on stderr) and a `cargo::error=` line naming the file.

fn main() {
    lens_compiler::build::Config::new()
        .inputs_dir("patterns")
        .out_file("stdlib.rom")
        .compile_or_exit();
}
