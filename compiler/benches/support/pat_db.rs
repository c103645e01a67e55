//! GNU Go's `pat` database (patterns.db + patterns2.db from a GNU Go `patterns` directory),
//! imported geometric-only and compiled at run time (nothing derived from the GPL data is
//! kept). Shared by the incremental bench and `tests/tests/incremental_matching.rs`
//! (`#[path]`), so both match the same ROM.

use lens_compiler::import::gnugo::{
    Options as ImportOptions, class_names, import_database, import_str, stem_ident,
};

/// The ROM and its class names: with `one_database`, the two files imported as one database,
/// as GNU Go's mkpat builds `pat_db` (three classes: `pat_anchor_o`, `pat_anchor_x`,
/// `pat_wide`); otherwise each file alone (five classes: two anchor classes per file and
/// `patterns_wide`). Panics when a file is missing or an import or compile reports errors.
pub fn pat_db(dir: &std::path::Path, one_database: bool) -> (Vec<u8>, Vec<String>) {
    let files = ["patterns.db", "patterns2.db"];
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(dir.join("patterns").join(f)).unwrap())
        .collect();
    let opts = ImportOptions {
        geometric_only: true,
        ..Default::default()
    };
    let imported: Vec<_> = if one_database {
        let pairs: Vec<(&str, &str)> = files
            .iter()
            .copied()
            .zip(texts.iter().map(String::as_str))
            .collect();
        vec![import_database("pat", &pairs, &opts)]
    } else {
        files
            .iter()
            .zip(&texts)
            .map(|(f, t)| import_str(f, t, &opts))
            .collect()
    };
    assert!(imported.iter().all(|i| i.report.errors.is_empty()));
    let source: String = imported.iter().map(|i| i.source.clone() + "\n").collect();
    let (_, r) = lens_compiler::compile_str("pat_db.lens", &source, &Default::default());
    let rom = r.unwrap_or_else(|d| panic!("{} errors", d.len())).rom;
    let classes = if one_database {
        class_names("pat").to_vec()
    } else {
        files
            .iter()
            .flat_map(|f| class_names(&stem_ident(f)))
            .collect()
    };
    (rom, classes)
}
