//! Shared helpers for the joseki tests: the third-party data files, read in place.

use std::path::PathBuf;

/// `../shared/data` beside the repository root, if present.
pub fn data_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    d.is_dir().then_some(d)
}

/// Every joseki SGF (GNU Go, then Pachi), as (short name, text). Prints the skip note when the
/// data folder is absent.
pub fn joseki_files() -> Option<Vec<(String, String)>> {
    let Some(d) = data_dir() else {
        eprintln!("skipped: ../shared/data absent");
        return None;
    };
    let mut out = Vec::new();
    for (set, dir) in [("gnugo", "gnugo/joseki"), ("pachi", "pachi/joseki")] {
        let mut files: Vec<_> = std::fs::read_dir(d.join(dir))
            .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p: &PathBuf| p.extension().is_some_and(|e| e == "sgf"));
        files.sort();
        for p in files {
            let name = format!("{set}_{}", p.file_stem().unwrap().to_string_lossy());
            out.push((
                name,
                std::fs::read_to_string(&p).expect("readable data file"),
            ));
        }
    }
    Some(out)
}
