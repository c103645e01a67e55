//! The standard library's joseki book (`stdlib-patterns/patterns/joseki.lens`):
//! (a) the ROM holds it and the blob decodes to exactly the tree the joseki text gives;
//! (b) every line replays legally on a 19x19 board in all 8 orientations;
//! (c) an independent check of the Go content: every line's prefix is found in the union of
//!     the third-party books in `../shared/data` (GNU Go's and Pachi's, used only as an
//!     oracle) to at least the depth stated for it in `LINES`.

#[path = "joseki_data.rs"]
mod data;

use lens_joseki::{
    Conventions, Encoding, Frame, MoveType, Point, Rel, Step, Tree, Walker, decode, encode,
    import_sgf_into,
};
use lens_vm::board::{Board, Colour};

/// Every complete line of the book (tenuki written `tenuki`), its common name, and how many of
/// its moves the third-party union must know (`depth`, counted from the first move; a trailing
/// `tenuki` counts when the book records a tenuki there or marks the move before it as
/// tenuki-ok). A depth below the line's length says why in `note`.
struct Line {
    moves: &'static str,
    name: &'static str,
    depth: usize,
    note: &'static str,
}

const LINES: &[Line] = &[
    Line {
        moves: "d4 c6 f3 c9 tenuki",
        name: "4-4, knight's approach, small knight's answer, two-space extension",
        depth: 4,
        note: "the books end the line without recording the tenuki",
    },
    Line {
        moves: "d4 c6 f4 c9",
        name: "4-4, knight's approach, one-space answer",
        depth: 4,
        note: "",
    },
    Line {
        moves: "d4 c6 g3",
        name: "4-4, knight's approach, large knight's answer",
        depth: 3,
        note: "",
    },
    Line {
        moves: "d4 c6 c8 c3 c4 d3",
        name: "4-4, knight's approach, one-space low pincer, 3-3 invasion",
        depth: 6,
        note: "",
    },
    Line {
        moves: "d4 c6 c9 c3 c4 d3",
        name: "4-4, knight's approach, two-space low pincer, 3-3 invasion",
        depth: 6,
        note: "",
    },
    Line {
        moves: "d4 c6 d9 c3 c4 d3",
        name: "4-4, knight's approach, two-space high pincer, 3-3 invasion",
        depth: 6,
        note: "",
    },
    Line {
        moves: "d4 c6 tenuki f3",
        name: "4-4, knight's approach, tenuki, double approach",
        depth: 4,
        note: "",
    },
    Line {
        moves: "d4 c3 d3 c4 c5 d2 e2",
        name: "4-4, 3-3 invasion, second-line hane",
        depth: 7,
        note: "",
    },
    Line {
        moves: "d4 c3 d3 c4 c5 b5 b6 d2 e2",
        name: "4-4, 3-3 invasion, AI-era hane-hane",
        depth: 9,
        note: "",
    },
    Line {
        moves: "d4 c3 d3 c4 c5 b5 b6 c6 d5",
        name: "4-4, 3-3 invasion, hane-hane, White cuts",
        depth: 9,
        note: "",
    },
    Line {
        moves: "d4 d6 f3",
        name: "4-4, one-space high approach, small knight's answer",
        depth: 3,
        note: "",
    },
    Line {
        moves: "c4 e3 d3 e4 d4",
        name: "3-4, small knight's approach, attach, empty-triangle draw back (bad)",
        depth: 4,
        note: "the last move is a known mistake, which the books do not list",
    },
    Line {
        moves: "c4 e3 g3 e5",
        name: "3-4, small knight's approach, one-space low pincer, jump",
        depth: 4,
        note: "",
    },
    Line {
        moves: "c4 e3 h3",
        name: "3-4, small knight's approach, two-space low pincer",
        depth: 3,
        note: "",
    },
    Line {
        moves: "c4 e4 e3 f3 d3 f4",
        name: "3-4, one-space high approach, attach underneath",
        depth: 6,
        note: "",
    },
    Line {
        moves: "c3 d4 c4 d5",
        name: "3-3, shoulder hit, push",
        depth: 4,
        note: "",
    },
    Line {
        moves: "e4 c4 c5",
        name: "5-4, 3-4 approach, attach on top",
        depth: 3,
        note: "",
    },
    Line {
        moves: "e4 c4 c3",
        name: "5-4, 3-4 approach, attach underneath",
        depth: 3,
        note: "",
    },
    Line {
        moves: "e3 c4 d5",
        name: "5-3, 3-4 approach, knight's cap",
        depth: 3,
        note: "",
    },
];

type RelMove = (Rel, Point);

fn parse_moves(text: &str) -> Vec<RelMove> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            let rel = if i % 2 == 0 { Rel::Same } else { Rel::Opposite };
            if w == "tenuki" {
                return (rel, Point::Pass);
            }
            let x = w.as_bytes()[0] - b'a' + 1;
            let y: u8 = w[1..].parse().expect("a corner-frame point");
            (rel, Point::at(x, y))
        })
        .collect()
}

fn show(line: &[RelMove]) -> String {
    line.iter()
        .map(|(_, p)| match p {
            Point::Pass => "tenuki".to_string(),
            Point::At { x, y } => format!("{}{}", (b'a' + x - 1) as char, y),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The book's complete lines (root to leaf), depth first.
fn leaf_lines(tree: &Tree) -> Vec<Vec<RelMove>> {
    let mut out = Vec::new();
    let mut stack = vec![(0u32, Vec::new())];
    while let Some((v, path)) = stack.pop() {
        let edges = &tree.vertex(v).edges;
        if edges.is_empty() {
            out.push(path);
            continue;
        }
        for e in edges.iter().rev() {
            let Step::Move(m) = &e.step else {
                panic!("the stdlib book has no setup stones")
            };
            let mut p: Vec<RelMove> = path.clone();
            p.push((m.colour, m.point));
            stack.push((e.to, p));
        }
    }
    out
}

fn stdlib_blob() -> &'static [u8] {
    lens_stdlib::rom()
        .joseki_blob(lens_stdlib::JOSEKI)
        .expect("the stdlib ROM has the joseki section")
}

/// The body of the `joseki` block in the source, `//` comments dropped, as the text format.
fn source_text() -> String {
    let path = std::path::Path::new(lens_stdlib::SOURCE_DIR).join("joseki.lens");
    let src = std::fs::read_to_string(&path).expect("joseki.lens");
    let (program, diags) = lens_dsl::load_paths(&[path.clone()]);
    assert!(diags.is_empty(), "joseki.lens does not load: {diags:?}");
    let block = program
        .files
        .iter()
        .flat_map(|(_, f)| &f.items)
        .find_map(|i| match i {
            lens_dsl::ast::Item::Joseki(j) if j.name.node == lens_stdlib::JOSEKI => Some(j),
            _ => None,
        })
        .expect("joseki.lens defines the stdlib book");
    let whole = &src[block.span.start..block.span.end];
    let body = &whole[whole.find('{').unwrap() + 1..whole.rfind('}').unwrap()];
    body.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn rom_joseki_section_decodes_to_the_source_tree() {
    let rom = lens_stdlib::rom();
    assert_eq!(rom.joseki_count(), 1, "one joseki section");
    assert_eq!(rom.joseki_at(0).0, lens_stdlib::JOSEKI);
    let decoded = decode(stdlib_blob()).expect("the stdlib joseki blob decodes");
    let text = source_text();
    let parsed = lens_joseki::parse_text(&text).expect("the block body is joseki text");
    assert_eq!(decoded, parsed);
    assert_eq!(
        lens_joseki::text::to_text(&decoded),
        lens_joseki::text::to_text(&parsed)
    );
    // And the table below lists exactly the book's lines.
    let book: Vec<String> = leaf_lines(&decoded).iter().map(|l| show(l)).collect();
    let table: Vec<String> = LINES.iter().map(|l| l.moves.to_string()).collect();
    assert_eq!(book, table, "LINES must list the book's lines in order");
    // The types the source gives survive.
    let mut kinds = std::collections::BTreeMap::new();
    for v in decoded.vertices() {
        for e in &v.edges {
            if let Step::Move(m) = &e.step {
                *kinds.entry(m.kind).or_insert(0) += 1;
            }
        }
    }
    assert!(
        kinds.get(&MoveType::Urgent).copied().unwrap_or(0) >= 3,
        "{kinds:?}"
    );
    assert!(kinds.contains_key(&MoveType::Bad), "{kinds:?}");
}

#[test]
fn every_line_replays_legally_in_all_orientations() {
    let tree = decode(stdlib_blob()).unwrap();
    for line in leaf_lines(&tree) {
        for o in 0..8u8 {
            let frame = Frame::orientation(19, o);
            let mut board = Board::new(19).unwrap();
            for (i, &(rel, p)) in line.iter().enumerate() {
                let colour = if rel == Rel::Same {
                    Colour::Black
                } else {
                    Colour::White
                };
                let expected = if i % 2 == 0 { Rel::Same } else { Rel::Opposite };
                assert_eq!(rel, expected, "{}: colours alternate", show(&line));
                match p {
                    Point::Pass => board.pass(colour).unwrap(),
                    Point::At { x, y } => {
                        let (bx, by) = frame.to_board(x, y).unwrap();
                        let before = board.stones_hash();
                        board
                            .play(colour, bx as i32, by as i32)
                            .unwrap_or_else(|e| {
                                panic!(
                                    "{}: move {} illegal in orientation {o}: {e:?}",
                                    show(&line),
                                    i + 1
                                )
                            });
                        assert_ne!(before, board.stones_hash());
                    }
                }
            }
        }
    }
}

/// The union of the third-party books as one blob, or `None` without `../shared/data`.
fn oracle() -> Option<Vec<u8>> {
    let files = data::joseki_files()?;
    let mut tree = Tree::new();
    for (name, text) in &files {
        import_sgf_into(&mut tree, text, Conventions::Auto)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    tree.canonicalize();
    Some(encode(&tree, Encoding::Compact))
}

fn transpose(p: Point) -> Point {
    match p {
        Point::Pass => Point::Pass,
        Point::At { x, y } => Point::at(y, x),
    }
}

/// How many moves of `line` the book knows. The line may be reflected about the corner's
/// diagonal as a whole, and again wherever the position is symmetric (the book stores one of
/// two equivalent continuations). A tenuki matches a recorded tenuki; otherwise it is skipped
/// (the next move then is a colour repeat, which the walker also follows) and counts when the
/// next move is found, or at the end when the book marks the move before it tenuki-ok.
fn known_depth(w: &Walker<'_>, line: &[RelMove]) -> usize {
    fn go(
        w: &Walker<'_>,
        line: &[RelMove],
        i: usize,
        path: &mut Vec<RelMove>,
        flip: bool,
    ) -> usize {
        if i == line.len() {
            return i;
        }
        let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 64];
        let Some(n) = w.follow_frame(path, &mut out) else {
            return i;
        };
        let next = &out[..n.min(out.len())];
        let (rel, p) = line[i];
        let mut best = i;
        let symmetric = {
            let stones: std::collections::BTreeSet<_> = path
                .iter()
                .filter(|m| m.1 != Point::Pass)
                .copied()
                .collect();
            stones
                .iter()
                .all(|&(r, q)| stones.contains(&(r, transpose(q))))
        };
        for f in [flip, !flip] {
            if f != flip && !symmetric {
                continue;
            }
            let q = if f { transpose(p) } else { p };
            if p == Point::Pass {
                if next.iter().any(|m| m.1 == Point::Pass && m.0 == rel) {
                    path.push((rel, q));
                    best = best.max(go(w, line, i + 1, path, f));
                    path.pop();
                } else if i + 1 == line.len() {
                    // A trailing tenuki: the move before it is marked tenuki-ok.
                    let tenuki_ok = path.len() >= 1 && {
                        let mut prev = [(Rel::Same, Point::Pass, MoveType::Normal); 64];
                        let k = w
                            .follow_frame(&path[..path.len() - 1], &mut prev)
                            .unwrap_or(0);
                        let last = path[path.len() - 1];
                        prev[..k.min(64)]
                            .iter()
                            .any(|m| (m.0, m.1) == last && m.2 == MoveType::TenukiOk)
                    };
                    if tenuki_ok {
                        best = best.max(i + 1);
                    }
                } else {
                    // Skip it: the next move is a colour repeat.
                    let d = go(w, line, i + 1, path, f);
                    if d > i + 1 {
                        best = best.max(d);
                    }
                }
            } else if next.iter().any(|m| (m.0, m.1) == (rel, q))
                || w.follow_frame(&[path.as_slice(), &[(rel, q)]].concat(), &mut [])
                    .is_some()
            {
                path.push((rel, q));
                best = best.max(go(w, line, i + 1, path, f));
                path.pop();
            }
        }
        best
    }
    let mut best = 0;
    for flip in [false, true] {
        best = best.max(go(w, line, 0, &mut Vec::new(), flip));
    }
    best
}

#[test]
fn every_line_is_found_in_the_third_party_books() {
    let Some(blob) = oracle() else { return };
    let walker = Walker::new(&blob).unwrap();
    let mut failures = Vec::new();
    for l in LINES {
        let line = parse_moves(l.moves);
        let found = known_depth(&walker, &line);
        eprintln!("{found:>2}/{:<2} {:<45} {}", line.len(), l.moves, l.name);
        if found < l.depth {
            failures.push(format!(
                "{}: known to depth {found}, expected {} ({})",
                l.moves, l.depth, l.name
            ));
        }
        if l.depth < line.len() && l.note.is_empty() {
            failures.push(format!(
                "{}: a depth below the line's length needs a note",
                l.moves
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
