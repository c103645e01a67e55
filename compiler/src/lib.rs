//! The Lens compiler: sources -> checked AST -> IR -> optimised ROM image.
//!
//! Phases, one module each:
//! 1. front end (`lens_dsl`): load, parse, [`lens_dsl::check()`];
//! 2. [`lower`]: resolve names and lower to the [`ir`], with the checks that need semantics
//!    (impossible constraints and edges, focus against class, unknown labels ...);
//! 3. [`check`]: checks across patterns (unreachable patterns);
//! 4. [`optimise`]: derived glob headers, tests cheapest first, symmetric duplicates dropped,
//!    priority/selectivity order, lens decision trees;
//! 5. [`emit`]: a [`RomSpec`], written by `lens_vm::rom::try_write_with` (with the optional
//!    bit-sliced `sliced` section and the `lut` lookup tables of 3x3 classes, by the rule in
//!    [`optimise::lut`]).
//!
//! Determinism: every map is a `BTreeMap`, every sort is stable on integer keys with source
//! order last, so the same sources give byte-identical ROMs.
//!
//! # Example
//! ```no_run
//! let (sources, result) = lens_compiler::compile_str("demo.lens", "class c { focus empty; }", &Default::default());
//! match result {
//!     Ok(compiled) => std::fs::write("demo.rom", &compiled.rom).unwrap(),
//!     Err(diags) => eprintln!("{}", lens_dsl::render_human(&sources, &diags, false)),
//! }
//! ```

use std::path::PathBuf;

pub use lens_dsl::{Diagnostic, SourceMap};
pub use lens_vm::rom::Profile;
use lens_vm::spec::RomSpec;

pub mod build;
pub mod check;
pub mod codes;
pub mod disasm;
pub mod emit;
pub mod import;
pub mod ir;
#[cfg(feature = "learn")]
pub mod learn;
pub mod lower;
pub mod optimise;
pub mod render;
pub mod stats;

/// The toolchain string recorded in every ROM.
pub const TOOLCHAIN: &str = concat!("lensc ", env!("CARGO_PKG_VERSION"));

/// Compilation options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Leave out debug info (pattern names, source files and spans).
    pub strip: bool,
    /// Leave out the optional bit-sliced `sliced` section (the fast kernel's tables; about
    /// 22 bytes per variant): a smaller image that the VM matches with the mask kernel.
    pub no_sliced: bool,
    /// Leave out the optional `lut` section (lookup tables of 3x3 classes, see
    /// [`optimise::lut`]): those classes are then matched by the sliced or mask kernel.
    pub no_lut: bool,
    /// The image profile: `Fast` (every orientation precompiled, with the optional tables) or
    /// `Compact` (each pattern once, RiscIgo's form; `no_sliced`/`no_lut` do not apply).
    pub profile: Profile,
}

/// A successful compilation.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The ROM image, ready for `lens_vm::Rom::from_bytes`.
    pub rom: Vec<u8>,
    /// What the image contains, before serialisation.
    pub spec: RomSpec,
    /// Warnings (the compilation succeeded despite them).
    pub warnings: Vec<Diagnostic>,
}

/// Compile a loaded program. On failure, every diagnostic (errors and warnings) is returned.
pub fn compile_program(
    program: &lens_dsl::Program,
    opts: &Options,
) -> Result<Compiled, Vec<Diagnostic>> {
    let (ir, diags) = analyse(program);
    if diags.iter().any(Diagnostic::is_error) {
        return Err(sorted(diags));
    }
    let spec = emit::emit(&ir, emit::source_hash(&program.sources), opts.strip);
    // The writer validates the spec; a failure there is a compiler bug, reported, not a panic.
    // lensc images carry the optional bit-sliced tables (the fast kernel for packed classes)
    // and lookup tables for the 3x3 classes the rule admits.
    let write = optimise::lut::write_options(opts.no_sliced, opts.no_lut, opts.profile);
    let rom = lens_vm::rom::try_write_with(&spec, &write).map_err(|e| {
        vec![Diagnostic {
            severity: lens_dsl::Severity::Error,
            code: codes::INTERNAL,
            message: format!("internal compiler error: {e}"),
            labels: Vec::new(),
            help: Some("this is a bug in lensc; please report it with the sources".to_string()),
        }]
    })?;
    Ok(Compiled {
        rom,
        spec,
        warnings: sorted(diags),
    })
}

/// The checks of every phase before writing: the front end, lowering, the checks across
/// patterns and the optimiser's warnings. The program can be written when no error came back.
fn analyse(program: &lens_dsl::Program) -> (ir::Program, Vec<Diagnostic>) {
    let mut diags = lens_dsl::check(program);
    let front_end_failed = diags.iter().any(Diagnostic::is_error);
    let (mut ir, lowered) = lower::lower(program);
    // Lowering runs even when the front end found errors, so problems only the compiler sees
    // are reported in the same run; what the front end already reports is not repeated.
    diags.extend(
        lowered
            .into_iter()
            .filter(|d| !front_end_failed || codes::SEMANTIC_ONLY.contains(&d.code)),
    );
    // The checks across patterns and the optimiser's warnings also run when some patterns
    // failed to lower (they are left out), so one run reports as much as possible.
    let later: Vec<Diagnostic> = check::unreachable(&ir)
        .into_iter()
        .chain(optimise::optimise(&mut ir))
        .collect();
    // Where the front end already reported the same problem at the same place, keep its word.
    for d in later {
        let place = |d: &Diagnostic| (d.code, d.labels.first().map(|l| (l.file, l.span)));
        if !diags.iter().any(|e| place(e) == place(&d)) {
            diags.push(d);
        }
    }
    (ir, diags)
}

/// Everything `compile` reports about a loaded program (`diags`: the loader's), without
/// writing an image: what `lensc check` prints. With syntax errors only the front end's checks
/// run, as in `compile`.
pub fn check_program(program: &lens_dsl::Program, mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diags.iter().any(Diagnostic::is_error) {
        diags.extend(lens_dsl::check(program));
    } else {
        diags.extend(analyse(program).1);
    }
    sorted(diags)
}

/// Load files and directories (all `*.lens` inside, sorted) and compile them.
pub fn compile_paths(
    paths: &[PathBuf],
    opts: &Options,
) -> (SourceMap, Result<Compiled, Vec<Diagnostic>>) {
    let (program, diags) = lens_dsl::load_paths(paths);
    finish(program, diags, opts)
}

/// Compile one source text named `name` (includes resolve relative to the current directory).
pub fn compile_str(
    name: &str,
    text: &str,
    opts: &Options,
) -> (SourceMap, Result<Compiled, Vec<Diagnostic>>) {
    let (program, diags) = lens_dsl::load_str(name, text);
    finish(program, diags, opts)
}

fn finish(
    program: lens_dsl::Program,
    mut diags: Vec<Diagnostic>,
    opts: &Options,
) -> (SourceMap, Result<Compiled, Vec<Diagnostic>>) {
    let result = if diags.iter().any(Diagnostic::is_error) {
        // Syntax errors: still report every check error, as `lensc check` does.
        diags.extend(lens_dsl::check(&program));
        Err(sorted(diags))
    } else {
        match compile_program(&program, opts) {
            Ok(mut c) => {
                diags.append(&mut c.warnings);
                c.warnings = diags;
                Ok(c)
            }
            Err(more) => {
                diags.extend(more);
                Err(diags)
            }
        }
    };
    (program.sources, result)
}

/// Diagnostics in source order (file, then position), errors before warnings at one place.
pub fn sorted(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.sort_by_key(|d| {
        let l = d.labels.first();
        (l.map(|l| l.file), l.map(|l| l.span.start), d.severity)
    });
    diags
}
