//! Snapshots of the `lensc joseki stats` report (lens_joseki::stats::report) on every data
//! file, their union and a hand-written dictionary.

#[path = "joseki_data.rs"]
mod data;

use lens_joseki::{Conventions, Tree, import_sgf, import_sgf_into, parse_text, stats};

#[test]
fn stats_of_a_hand_written_dictionary() {
    let t = parse_text(
        "# 4-4 point\n( d4 ( c6:urgent ( d6 c7 | f3 ) | f3 ( c6 d6 | d3 ) | e3:trick tenuki c3 ) \
         | c4 ( e3 ( d5 | c6 ) | d3 c3 ) | c3 d3 | d4 c3 e3 | e3 c3 d4 d3 )",
    )
    .unwrap();
    insta::assert_snapshot!("hand_written", stats::report("hand-written", &t));
}

#[test]
fn stats_of_every_data_file_and_the_union() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let mut union = Tree::new();
    for (name, text) in &files {
        let t = import_sgf(text, Conventions::Auto).unwrap();
        insta::assert_snapshot!(name.clone(), stats::report(name, &t));
        import_sgf_into(&mut union, text, Conventions::Auto).unwrap();
    }
    union.canonicalize();
    insta::assert_snapshot!("union", stats::report("union", &union));
}
