//! The dictionary a bench runs on: the files named by `LENS_JOSEKI_BOOK` (a path list, `:`
//! separated as `PATH` is: SGF files, joseki text, or blobs, as one union), else the union of
//! the GNU Go and Pachi joseki files in ../shared/data, else a small synthetic book.

use lens_joseki::{Conventions, Tree};

/// (a name for the report, the dictionary, transpositions merged and canonical).
pub fn dictionary() -> (String, Tree) {
    let mut t = Tree::new();
    if let Some(list) = std::env::var_os("LENS_JOSEKI_BOOK") {
        let paths: Vec<_> = std::env::split_paths(&list).collect();
        for p in &paths {
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            if bytes.starts_with(b"LJ") {
                let blob =
                    lens_joseki::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                t.merge_from(&blob);
                continue;
            }
            let text = String::from_utf8(bytes).expect("UTF-8 text");
            if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                lens_joseki::import_sgf_into(&mut t, &text, Conventions::Auto)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            } else {
                lens_joseki::text::parse_text_into(&mut t, &text)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            }
        }
        t.canonicalize();
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return (names.join(" + "), t);
    }
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    for dir in ["gnugo/joseki", "pachi/joseki"] {
        let Ok(rd) = std::fs::read_dir(data.join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        {
            let text = std::fs::read_to_string(f).expect("readable");
            lens_joseki::import_sgf_into(&mut t, &text, Conventions::Auto)
                .expect("data file imports");
        }
    }
    if t.tree_moves() > 0 {
        t.canonicalize();
        return ("union of the 11 data files".into(), t);
    }
    eprintln!("note: ../shared/data absent and LENS_JOSEKI_BOOK unset: a synthetic dictionary");
    let mut src = String::from("( ");
    for k in 0..12 {
        src.push_str(&format!(
            "{}{} c6 d6 ( c7 | f3 ) | ",
            (b'c' + k % 5) as char,
            3 + k / 5
        ));
    }
    src.push_str("d4 c6 d6 c7 e7 c8 d8 c9 f3 d3 e3 e2 f2 d2 g3 f4 g4 f5 g5 f6 g6 h7 )");
    let mut t = lens_joseki::parse_text(&src).expect("synthetic text");
    t.canonicalize();
    ("synthetic".into(), t)
}
