//! docs/rom-format.md's table of sections agrees with lens-vm's section table (`rom::Section`,
//! declared once in vm/src/rom/mod.rs): every kind, name and record length, in order, and the
//! highest kind of each format version. A section added to one and not the other fails here.

use lens_vm::rom::{FORMAT_VERSION, MIN_FORMAT_VERSION, Section, max_section_kind};

fn doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rom-format.md");
    std::fs::read_to_string(path).expect("docs/rom-format.md")
}

/// `(kind, name, record)` of each row of the "## Sections" table.
fn documented_sections(doc: &str) -> Vec<(u32, String, usize)> {
    let table = doc
        .split("\n## Sections\n")
        .nth(1)
        .expect("a `## Sections` heading");
    table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // the header row and its rule
        .map(|row| {
            let cols: Vec<&str> = row.split('|').map(str::trim).collect();
            let kind = cols[1].parse().unwrap_or_else(|_| panic!("kind in {row}"));
            let record = cols[3]
                .parse()
                .unwrap_or_else(|_| panic!("record in {row}"));
            (kind, cols[2].to_string(), record)
        })
        .collect()
}

#[test]
fn the_sections_table_matches_the_vm() {
    let want: Vec<(u32, String, usize)> = Section::ALL
        .iter()
        .map(|&s| (s as u32, s.name().to_string(), s.record_len()))
        .collect();
    assert_eq!(documented_sections(&doc()), want);
}

#[test]
fn the_kinds_per_version_match_the_vm() {
    let doc = doc();
    let line = doc
        .lines()
        .find(|l| l.contains("strictly ascending, each at most once"))
        .expect("the section table entry's kind row");
    for v in MIN_FORMAT_VERSION..=FORMAT_VERSION {
        let said = format!(
            "{} in {}v{v}",
            max_section_kind(v),
            if v == 1 { "a " } else { "" }
        );
        assert!(line.contains(&said), "`{said}` in: {line}");
    }
}
