//! Compile `.lens` sources from a Cargo build script (modelled on `lalrpop::Configuration` and
//! `prost_build::Config`).
//!
//! ```no_run
//! // build.rs (a whole file, hence the `fn main`) (with `lens-compiler = { version = "0.1", default-features = false }` under
//! // [build-dependencies])
//! fn main() {
//!     lens_compiler::build::Config::new()
//!         .inputs_dir("patterns")
//!         .out_file("patterns.rom")
//!         .compile_or_exit();
//! }
//! ```
//! and in the crate:
//! ```ignore
//! static ROM: &lens_vm::AlignedRom<[u8]> =
//!     &lens_vm::AlignedRom { _align: [], bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/patterns.rom")) };
//! ```
//!
//! The output goes to `OUT_DIR` unless [`Config::out_dir`] says otherwise. Inputs are sorted;
//! `cargo:rerun-if-changed` is printed for every input directory and every file read
//! (includes too), so adding, editing or removing a source reruns the script and nothing else
//! does. Diagnostics are rendered to stderr without colour; [`Config::compile`] then returns
//! a [`BuildError`] and [`Config::compile_or_exit`] fails the build with `cargo::error=`.
//! Source names in the ROM are the paths relative to the package (`CARGO_MANIFEST_DIR`), so
//! the image does not depend on where the package is checked out.

#![allow(clippy::needless_doctest_main)] // the example above is a whole build.rs
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Options, compile_paths};

/// What went wrong in [`Config::compile`].
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("no output directory: OUT_DIR is not set (not in a build script?) and none was given")]
    NoOutDir,
    #[error("no inputs: give `input` files or an `inputs_dir`")]
    NoInputs,
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{errors} error(s) compiling Lens sources (first: {first})")]
    Diagnostics {
        errors: usize,
        /// The first error's message (the full rendering went to stderr).
        first: String,
        /// Every diagnostic rendered as text without colour.
        rendered: String,
    },
}

/// Build-script compilation settings. Setters take and return `&mut Self` (prost-build style).
#[derive(Clone, Debug)]
pub struct Config {
    inputs: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    out_file: String,
    opts: Options,
    emit_rerun_directives: bool,
    /// Where relative names are taken from; `CARGO_MANIFEST_DIR` by default.
    base: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Config::new()
    }
}

impl Config {
    /// No inputs, output `patterns.rom` in `OUT_DIR`, debug info kept, rerun directives on.
    pub fn new() -> Config {
        Config {
            inputs: Vec::new(),
            dirs: Vec::new(),
            out_dir: None,
            out_file: "patterns.rom".to_string(),
            opts: Options::default(),
            emit_rerun_directives: true,
            base: std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
        }
    }
    /// Add one source file.
    pub fn input(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.inputs.push(path.as_ref().to_path_buf());
        self
    }
    /// Add every `*.lens` file under a directory (recursively).
    pub fn inputs_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.dirs.push(dir.as_ref().to_path_buf());
        self
    }
    /// Write into this directory instead of `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }
    /// The ROM file's name inside the output directory.
    pub fn out_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.out_file = name.into();
        self
    }
    /// Leave out debug info (names and source spans).
    pub fn strip(&mut self, strip: bool) -> &mut Self {
        self.opts.strip = strip;
        self
    }
    /// Write the optional bit-sliced `sliced` section (default `true`): the fast kernel's
    /// tables, about 22 bytes per oriented variant. `false` gives a smaller image matched by
    /// the mask kernel.
    pub fn sliced(&mut self, sliced: bool) -> &mut Self {
        self.opts.no_sliced = !sliced;
        self
    }
    /// Write the optional `lut` section (default `true`): lookup tables for the 3x3 classes
    /// the rule in [`crate::optimise::lut`] admits.
    pub fn lut(&mut self, lut: bool) -> &mut Self {
        self.opts.no_lut = !lut;
        self
    }
    /// The image profile (default [`Profile::Fast`](crate::Profile::Fast)):
    /// [`Profile::Compact`](crate::Profile::Compact) stores each pattern once, to be expanded
    /// at load with `lens_vm::rom::CompactRom::expand`.
    pub fn profile(&mut self, profile: crate::Profile) -> &mut Self {
        self.opts.profile = profile;
        self
    }
    /// Print `cargo:rerun-if-changed` lines (default `true`). Note that any such line replaces
    /// Cargo's default of rerunning on every change in the package.
    pub fn emit_rerun_directives(&mut self, emit: bool) -> &mut Self {
        self.emit_rerun_directives = emit;
        self
    }
    /// Name sources relative to this directory (default `CARGO_MANIFEST_DIR`).
    pub fn base_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.base = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The sorted, de-duplicated list of input files (directories expanded).
    pub fn input_files(&self) -> Result<Vec<PathBuf>, BuildError> {
        let mut files: Vec<PathBuf> = self.inputs.iter().map(|p| self.relative(p)).collect();
        for d in &self.dirs {
            collect_lens_files(&self.resolve(d), &mut files).map_err(|source| BuildError::Io {
                path: d.clone(),
                source,
            })?;
        }
        let mut files: Vec<PathBuf> = files.iter().map(|p| self.relative(p)).collect();
        files.sort();
        files.dedup();
        Ok(files)
    }

    /// Compile, write the ROM and return its path. Diagnostics (warnings too) go to stderr,
    /// `cargo:` directives to stdout.
    pub fn compile(&self) -> Result<PathBuf, BuildError> {
        self.compile_with(&mut std::io::stdout().lock())
    }

    /// Compile in memory with exactly the source names [`Config::compile`] uses, so the result
    /// is byte-identical to the ROM a build script wrote (for "embedded == fresh" tests).
    pub fn compile_in_memory(
        &self,
    ) -> Result<
        (
            crate::SourceMap,
            Result<crate::Compiled, Vec<crate::Diagnostic>>,
        ),
        BuildError,
    > {
        let files = self.input_files()?;
        if files.is_empty() {
            return Err(BuildError::NoInputs);
        }
        Ok(compile_in(self.base.as_deref(), &files, &self.opts))
    }

    /// [`Config::compile`] with the `cargo:` directives written to `cargo_out`.
    pub fn compile_with(&self, cargo_out: &mut dyn Write) -> Result<PathBuf, BuildError> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        let (sources, result) = self.compile_in_memory()?;
        if self.emit_rerun_directives {
            let mut lines: Vec<String> = self
                .dirs
                .iter()
                .map(|d| self.resolve(d).display().to_string())
                .collect();
            lines.extend(
                sources
                    .files
                    .iter()
                    .filter(|f| f.name != "<stdin>")
                    .map(|f| self.resolve(Path::new(&f.name)).display().to_string()),
            );
            lines.sort();
            lines.dedup();
            for l in lines {
                let _ = writeln!(cargo_out, "cargo:rerun-if-changed={l}");
            }
        }
        match result {
            Ok(compiled) => {
                if !compiled.warnings.is_empty() {
                    eprint!(
                        "{}",
                        lens_dsl::render_human(&sources, &compiled.warnings, false)
                    );
                    for w in &compiled.warnings {
                        let _ = writeln!(cargo_out, "cargo::warning={}", one_line(&w.message));
                    }
                }
                std::fs::create_dir_all(&out_dir).map_err(|source| BuildError::Io {
                    path: out_dir.clone(),
                    source,
                })?;
                let path = out_dir.join(&self.out_file);
                write_if_changed(&path, &compiled.rom).map_err(|source| BuildError::Io {
                    path: path.clone(),
                    source,
                })?;
                Ok(path)
            }
            Err(diags) => {
                let rendered = lens_dsl::render_human(&sources, &diags, false);
                eprint!("{rendered}");
                let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
                let first = errors
                    .first()
                    .map(|d| {
                        let place = d.labels.first().map(|l| {
                            sources
                                .files
                                .get(l.file as usize)
                                .map(|f| f.name.clone())
                                .unwrap_or_default()
                        });
                        match place {
                            Some(p) if !p.is_empty() => format!("{p}: {}", d.message),
                            _ => d.message.clone(),
                        }
                    })
                    .unwrap_or_default();
                Err(BuildError::Diagnostics {
                    errors: errors.len(),
                    first: one_line(&first),
                    rendered,
                })
            }
        }
    }

    /// [`Config::compile`], or print `cargo::error=` lines and exit with status 1 (the
    /// rendered diagnostics are already on stderr, which Cargo shows on failure).
    pub fn compile_or_exit(&self) -> PathBuf {
        match self.compile() {
            Ok(p) => p,
            Err(e) => {
                println!("cargo::error={}", one_line(&e.to_string()));
                std::process::exit(1);
            }
        }
    }

    fn resolve(&self, p: &Path) -> PathBuf {
        match &self.base {
            Some(b) if p.is_relative() => b.join(p),
            _ => p.to_path_buf(),
        }
    }

    fn relative(&self, p: &Path) -> PathBuf {
        match &self.base {
            Some(b) => p
                .strip_prefix(b)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| p.to_path_buf()),
            None => p.to_path_buf(),
        }
    }
}

/// Compile `files` (names relative to `base`) with `base` as the working directory for reads.
fn compile_in(
    base: Option<&Path>,
    files: &[PathBuf],
    opts: &Options,
) -> (
    crate::SourceMap,
    Result<crate::Compiled, Vec<crate::Diagnostic>>,
) {
    // The loader reads paths as given; build scripts run in CARGO_MANIFEST_DIR, so the
    // relative names resolve there. Elsewhere (tests, other tools) read absolute paths and
    // rename the sources afterwards so the ROM is the same.
    let cwd = std::env::current_dir().ok();
    if let (Some(b), Some(c)) = (base, &cwd) {
        if b == c {
            return compile_paths(files, opts);
        }
    }
    let base = base.unwrap_or(Path::new("."));
    let abs: Vec<PathBuf> = files.iter().map(|f| base.join(f)).collect();
    let (mut program, diags) = lens_dsl::load_paths(&abs);
    let prefix = base.to_path_buf();
    for f in &mut program.sources.files {
        if let Ok(rel) = Path::new(&f.name).strip_prefix(&prefix) {
            f.name = rel.display().to_string();
        }
    }
    crate::finish(program, diags, opts)
}

/// Every `*.lens` file under `dir`, recursively.
fn collect_lens_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_lens_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "lens") {
            out.push(p);
        }
    }
    Ok(())
}

/// Keep the old file (and its timestamp) when the bytes are the same.
fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes)
}

fn one_line(s: &str) -> String {
    s.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Shortcut: compile every `*.lens` under `dir` into `OUT_DIR/out_name`.
pub fn compile_dir(dir: impl AsRef<Path>, out_name: &str) -> Result<PathBuf, BuildError> {
    Config::new().inputs_dir(dir).out_file(out_name).compile()
}
