//! Marks the build when `../shared/data` (third-party data, never in the repository) is absent,
//! so the tests that need it show as `ignored` with the reason instead of passing silently.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_shared_data)");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let data = std::path::Path::new(&manifest).join("../../shared/data");
    println!("cargo::rerun-if-changed={}", data.display());
    if !data.is_dir() {
        println!("cargo::rustc-cfg=no_shared_data");
    }
}
