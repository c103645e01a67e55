//! `lensc import gnugo FILE.db... [-o OUT] [--report text|json]`: GNU Go's mkpat pattern
//! databases as `.lens` source (see `docs/gnugo-import.md`).

use std::path::{Path, PathBuf};

use lens_compiler::import::gnugo::{self, AnchorMode, FileReport, Mkpat, Options, PatternOutcome};

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Convert GNU Go `.db` pattern databases (mkpat format) into `.lens` source.
    Gnugo(GnugoArgs),
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Text,
    Json,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    O,
    X,
    Both,
}

#[derive(clap::Args, Debug)]
pub struct GnugoArgs {
    /// Input `.db` files (`-` for standard input).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output: a `.lens` file for one input, a directory (created) for several
    /// (`<stem>.lens` each). Default: standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print the import report on standard error (text) or standard output after the
    /// sources are written (json; requires `-o`).
    #[arg(long, value_enum)]
    pub report: Option<ReportFormat>,
    /// The mkpat options for every input, as GNU Go's patterns/Makefile.am passes them
    /// (`--mkpat "-D -m -b"`; understood: -O -X -b -m -c -D -a; `-t FILE` is ignored).
    /// Default: GNU Go's options for its standard file names, else `-b`.
    #[arg(long, allow_hyphen_values = true, value_name = "OPTIONS")]
    pub mkpat: Option<String>,
    /// Anchor stones (mkpat -O / -X / -b), overriding those of the mkpat options.
    #[arg(long, value_enum)]
    pub anchor: Option<Anchor>,
    /// Drop constraints and helpers: the geometric part only, no externs.
    #[arg(long)]
    pub geometric_only: bool,
    /// Import every input as one database of this name, as mkpat builds one from several
    /// files (GNU Go's `pat`: patterns.db + patterns2.db): one `.lens` (`-o FILE` or standard
    /// output) whose classes (`<NAME>_anchor_o`, ...) hold the patterns of all the inputs.
    #[arg(long, value_name = "NAME")]
    pub database: Option<String>,
}

pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Gnugo(a) => run_gnugo(a),
    }
}

fn read_input(path: &Path) -> std::io::Result<(String, String)> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        return Ok(("stdin.db".to_string(), s));
    }
    Ok((path.display().to_string(), std::fs::read_to_string(path)?))
}

fn run_gnugo(a: GnugoArgs) -> u8 {
    if a.report == Some(ReportFormat::Json) && a.output.is_none() {
        eprintln!("error: `--report json` writes to standard output; give `-o` for the sources");
        return 2;
    }
    let mkpat = match a.mkpat.as_deref().map(Mkpat::parse).transpose() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: --mkpat: {e}");
            return 2;
        }
    };
    let opts = Options {
        mkpat,
        anchor: a.anchor.map(|x| match x {
            Anchor::O => AnchorMode::O,
            Anchor::X => AnchorMode::X,
            Anchor::Both => AnchorMode::Both,
        }),
        geometric_only: a.geometric_only,
    };
    let several = a.inputs.len() > 1 && a.database.is_none();
    if several && let Some(dir) = &a.output {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return 1;
        }
    }
    let mut reports = Vec::new();
    let mut failed = false;
    let mut stdout_text = String::new();
    // One job per input, or one for them all with `--database`.
    let jobs: Vec<(Option<&str>, &[PathBuf])> = match &a.database {
        Some(name) => vec![(Some(name.as_str()), &a.inputs[..])],
        None => a.inputs.chunks(1).map(|one| (None, one)).collect(),
    };
    let mut progress = crate::progress::Progress::new(jobs.len(), "files");
    'jobs: for (database, inputs) in jobs {
        progress.start(&inputs[0].display().to_string());
        let mut texts = Vec::new();
        for input in inputs {
            match read_input(input) {
                Ok(x) => texts.push(x),
                Err(e) => {
                    progress.suspend(|| eprintln!("error: cannot read {}: {e}", input.display()));
                    failed = true;
                    progress.done();
                    continue 'jobs;
                }
            }
        }
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        // A file alone is the database of its own name (`import_str`).
        let name = database.unwrap_or(files[0].0);
        let imported = gnugo::import_database(name, &files, &opts);
        progress.suspend(|| {
            for e in &imported.report.errors {
                eprintln!("error: {e}");
            }
        });
        if !imported.report.errors.is_empty() {
            failed = true;
        }
        let target = match &a.output {
            Some(dir) if several => Some(dir.join(format!("{}.lens", gnugo::stem_ident(name)))),
            Some(file) => Some(file.clone()),
            None => None,
        };
        match target {
            Some(path) => {
                if let Err(e) = std::fs::write(&path, &imported.source) {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    return 1;
                }
            }
            None => stdout_text.push_str(&imported.source),
        }
        reports.push(imported.report);
        progress.done();
    }
    drop(progress);
    print!("{stdout_text}");
    match a.report {
        Some(ReportFormat::Text) => {
            for r in &reports {
                eprint!("{}", r.to_text());
            }
        }
        Some(ReportFormat::Json) => {
            let files: Vec<serde_json::Value> = reports.iter().map(report_json).collect();
            println!("{}", serde_json::json!({ "files": files }));
        }
        None => {}
    }
    if failed { 1 } else { 0 }
}

fn report_json(r: &FileReport) -> serde_json::Value {
    use serde_json::json;
    let mut full = Vec::new();
    let mut with_externs = Vec::new();
    let mut not_imported = Vec::new();
    for o in &r.outcomes {
        match o {
            PatternOutcome::Full { name } => full.push(json!(name)),
            PatternOutcome::WithExterns { name, externs } => {
                with_externs.push(json!({ "pattern": name, "externs": externs }))
            }
            PatternOutcome::NotImported { name, line, reason } => {
                not_imported.push(json!({ "pattern": name, "line": line, "reason": reason }))
            }
        }
    }
    for e in &r.errors {
        not_imported.push(json!({ "pattern": e.pattern, "line": e.line, "reason": e.message }));
    }
    json!({
        "file": r.file,
        "anchor": r.anchor.as_str(),
        "mkpat": r.mkpat.to_string(),
        "mkpat_source": r.mkpat_source.as_str(),
        "centre_anchor": r.mkpat.centre_anchor,
        "call_mode": r.call_mode,
        "geometric_only": r.geometric_only,
        "counts": {
            "imported": r.imported(),
            "full": r.full(),
            "with_externs": r.with_externs(),
            "not_imported": r.not_imported(),
        },
        "classes": r.classes.iter().map(|(c, n)| json!({ "name": c, "patterns": n })).collect::<Vec<_>>(),
        "full": full,
        "with_externs": with_externs,
        "not_imported": not_imported,
        "directives": r.directives.iter().map(|d| json!({ "name": d.name, "value": d.value, "line": d.line })).collect::<Vec<_>>(),
        "actions_carried": r.actions_carried,
        "globals": r.globals,
        "externs": r.externs.iter().map(|e| json!({ "name": e.name, "params": e.params, "cost": e.cost, "returns_int": e.returns_int })).collect::<Vec<_>>(),
    })
}
