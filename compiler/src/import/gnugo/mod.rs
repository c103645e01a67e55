//! `lensc import gnugo`: GNU Go's mkpat `.db` pattern databases as `.lens` source.
//!
//! ```text
//! parse_db (db.rs)  ->  convert (emit.rs, cexpr.rs, autohelpers.rs)  ->  lens_dsl fmt  ->  .lens
//! ```
//! The mapping (anchor = focus, one class per anchor colour, GNU Go transform numbering onto
//! [`lens_vm::geometry::Orientation`], autohelpers onto built-ins or externs) is documented in
//! `docs/gnugo-import.md`.

pub mod autohelpers;
pub mod cexpr;
pub mod db;
pub mod emit;
pub mod mkpat;
pub mod report;

pub use db::{Database, DbError, DbPattern, parse_db};
pub use emit::{
    ANCHOR_REACH, GNUGO_TO_LENS, MAX_REACH, class_name, class_names, focus_of, lens_orientations,
    reach, stem_ident, wide_class_name,
};
pub use mkpat::{AnchorColour, AnchorMode, Mkpat, MkpatSource};
pub use report::{FileReport, PatternOutcome};

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// mkpat's options (`--mkpat "-D -m -b"`); `None`: as GNU Go builds the file, by its name
    /// (see [`Mkpat::for_file`]).
    pub mkpat: Option<Mkpat>,
    /// Overrides the anchor colours of the mkpat options (`--anchor`).
    pub anchor: Option<AnchorMode>,
    /// Drop constraints and helpers (no `where`, no externs): the geometric part only.
    pub geometric_only: bool,
}

impl Options {
    /// The mkpat options that apply to `file`, and where they came from.
    pub fn mkpat_for(&self, file: &str) -> (Mkpat, MkpatSource) {
        let (mut m, source) = match &self.mkpat {
            Some(m) => (m.clone(), MkpatSource::Given),
            None => Mkpat::for_file(file),
        };
        if let Some(a) = self.anchor {
            m.anchor = a;
        }
        (m, source)
    }
}

/// One imported file.
#[derive(Clone, Debug)]
pub struct Imported {
    /// Canonical `.lens` text (already passed through the Lens formatter).
    pub source: String,
    pub report: FileReport,
}

/// Import one `.db` file's text. Never fails as a whole: broken patterns are reported in
/// [`Imported::report`] and left out.
pub fn import_str(file: &str, text: &str, opts: &Options) -> Imported {
    import_database(file, &[(file, text)], opts)
}

/// Import several `.db` files as one database named `name`, as mkpat builds one from several
/// files (GNU Go's `pat_db` is `mkpat -b pat patterns.db patterns2.db`): one set of classes
/// (`<name>_anchor_o`, `<name>_anchor_x`, `<name>_wide`, [`class_name`]) holds the patterns of
/// every file, in file order, with the mkpat options of the first file (mkpat takes one set of
/// options per database). A pattern name that repeats across files gets a `_2` suffix, as
/// within one file. Never fails as a whole, like [`import_str`]; the report's line numbers
/// are those of each pattern's own file.
pub fn import_database(name: &str, files: &[(&str, &str)], opts: &Options) -> Imported {
    let mut db = Database {
        file: name.to_string(),
        ..Default::default()
    };
    let mut errors = Vec::new();
    for (file, text) in files {
        let (one, errs) = parse_db(file, text);
        db.directives.extend(one.directives);
        db.patterns.extend(one.patterns);
        errors.extend(errs);
    }
    let first = files.first().map_or(name, |f| f.0);
    let (mkpat, mkpat_source) = opts.mkpat_for(first);
    let mut report = FileReport {
        // One file: its name; several: the database and its files.
        file: match files {
            [(f, _)] if *f == name => name.to_string(),
            _ => {
                let list: Vec<&str> = files.iter().map(|f| f.0).collect();
                format!("{name} ({})", list.join(" + "))
            }
        },
        anchor: mkpat.anchor,
        mkpat,
        mkpat_source,
        call_mode: emit::call_mode(&stem_ident(name)),
        geometric_only: opts.geometric_only,
        outcomes: Vec::new(),
        errors,
        directives: db.directives.clone(),
        actions_carried: 0,
        externs: Vec::new(),
        globals: Vec::new(),
        classes: Vec::new(),
    };
    let raw = emit::convert(&db, opts, &mut report);
    Imported {
        source: canonical(name, raw),
        report,
    }
}

/// The Lens formatter's canonical form of the emitted text (left as emitted if it does not
/// parse, so that compiling it reports the problem with spans).
fn canonical(_file: &str, text: String) -> String {
    let (ast, diags) = lens_dsl::parse(0, &text);
    if diags
        .iter()
        .any(|d| d.severity == lens_dsl::Severity::Error)
    {
        return text;
    }
    lens_dsl::fmt::format(&ast, &text)
}
