//! The standard library's joseki book (`stdlib-patterns/patterns/joseki.lens`):
//! (a) the ROM holds it and the blob decodes to exactly the tree the joseki text gives;
//! (b) every line replays legally on a 19x19 board in all 8 orientations;
//! (c) an independent check of the Go content: every line's prefix is found in the union of
//!     the third-party books in `../shared/data` (GNU Go's and Pachi's, used only as an
//!     oracle) to at least the depth stated for it in `LINES`.

use lens_tests::joseki_data as data;

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
        moves: "d4 c6 c8 e6",
        name: "4-4, knight's approach, one-space low pincer, jump",
        depth: 4,
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
        moves: "c4 e3 d3 e4",
        name: "3-4, small knight's approach, attach and stand",
        depth: 4,
        note: "",
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
        moves: "c4 e3 h4",
        name: "3-4, small knight's approach, two-space high pincer",
        depth: 3,
        note: "",
    },
    Line {
        moves: "c4 e4 e3 f3 d3 f4 c7",
        name: "3-4, one-space high approach, attach underneath, extension",
        depth: 7,
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

/// The stdlib book's types of the moves of `moves` (one of its lines).
fn line_kinds(moves: &str) -> Vec<MoveType> {
    let tree = decode(stdlib_blob()).unwrap();
    let mut v = 0u32;
    let mut out = Vec::new();
    for (rel, p) in parse_moves(moves) {
        let e = tree
            .vertex(v)
            .edges
            .iter()
            .find(|e| matches!(&e.step, Step::Move(m) if (m.colour, m.point) == (rel, p)))
            .unwrap_or_else(|| panic!("{moves}: not a line of the book"));
        let Step::Move(m) = &e.step else {
            unreachable!()
        };
        out.push(m.kind);
        v = e.to;
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
    let (program, diags) = lens_dsl::load_paths(std::slice::from_ref(&path));
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
    // No move is marked `bad` until a book confirms the verdict (see joseki.lens).
    assert!(!kinds.contains_key(&MoveType::Bad), "{kinds:?}");
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

/// A third-party book file: its short name and its blob.
type Book = (String, Vec<u8>);

/// The third-party books: the union of all as one blob, and each file alone (types are read
/// per file: where books share a move, the union keeps the first book's type). `None`
/// without `../shared/data`.
fn oracle() -> Option<(Vec<u8>, Vec<Book>)> {
    let files = data::joseki_files()?;
    let mut union = Tree::new();
    let mut each = Vec::new();
    for (name, text) in &files {
        import_sgf_into(&mut union, text, Conventions::Auto)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut one = Tree::new();
        import_sgf_into(&mut one, text, Conventions::Auto).unwrap();
        one.canonicalize();
        each.push((name.clone(), encode(&one, Encoding::Compact)));
    }
    union.canonicalize();
    Some((encode(&union, Encoding::Compact), each))
}

fn transpose(p: Point) -> Point {
    match p {
        Point::Pass => Point::Pass,
        Point::At { x, y } => Point::at(y, x),
    }
}

/// How many moves of `line` the book knows, and the book's types of those moves (a tenuki the
/// book does not record counts as `Normal`). The line may be reflected about the corner's
/// diagonal as a whole, and again wherever the position is symmetric (the book stores one of
/// two equivalent continuations). A tenuki matches a recorded tenuki; otherwise it is skipped
/// (the next move then is a colour repeat, which the walker also follows) and counts when the
/// next move is found, or at the end when the book marks the move before it tenuki-ok.
fn known_depth(w: &Walker<'_>, line: &[RelMove]) -> (usize, Vec<MoveType>) {
    type Found = (usize, Vec<MoveType>);
    fn go(
        w: &Walker<'_>,
        line: &[RelMove],
        path: &mut Vec<RelMove>,
        kinds: &mut Vec<MoveType>,
        flip: bool,
    ) -> Found {
        let i = kinds.len();
        let mut best: Found = (i, kinds.clone());
        if i == line.len() {
            return best;
        }
        let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 64];
        let Some(n) = w.follow_frame(path, &mut out) else {
            return best;
        };
        let next = &out[..n.min(out.len())];
        let (rel, p) = line[i];
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
        let better = |best: &mut Found, f: Found| {
            if f.0 > best.0 {
                *best = f;
            }
        };
        for f in [flip, !flip] {
            if f != flip && !symmetric {
                continue;
            }
            let q = if f { transpose(p) } else { p };
            let listed = next.iter().find(|m| (m.0, m.1) == (rel, q)).map(|m| m.2);
            if p == Point::Pass {
                if let Some(kind) = listed {
                    path.push((rel, q));
                    kinds.push(kind);
                    better(&mut best, go(w, line, path, kinds, f));
                    kinds.pop();
                    path.pop();
                } else if i + 1 == line.len() {
                    // A trailing tenuki: the move before it is marked tenuki-ok.
                    if kinds.last() == Some(&MoveType::TenukiOk) {
                        let mut k = kinds.clone();
                        k.push(MoveType::Normal);
                        better(&mut best, (i + 1, k));
                    }
                } else {
                    // Skip it: the next move is a colour repeat.
                    kinds.push(MoveType::Normal);
                    let d = go(w, line, path, kinds, f);
                    kinds.pop();
                    if d.0 > i + 1 {
                        better(&mut best, d);
                    }
                }
            } else if listed.is_some()
                || w.follow_frame(&[path.as_slice(), &[(rel, q)]].concat(), &mut [])
                    .is_some()
            {
                path.push((rel, q));
                kinds.push(listed.unwrap_or(MoveType::Normal));
                better(&mut best, go(w, line, path, kinds, f));
                kinds.pop();
                path.pop();
            }
        }
        best
    }
    let mut best: Found = (0, Vec::new());
    for flip in [false, true] {
        let f = go(w, line, &mut Vec::new(), &mut Vec::new(), flip);
        if f.0 > best.0 {
            best = f;
        }
    }
    best
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn every_line_is_found_in_the_third_party_books() {
    let Some((blob, each)) = oracle() else { return };
    let walker = Walker::new(&blob).unwrap();
    let each: Vec<(String, Walker<'_>)> = each
        .iter()
        .map(|(n, b)| (n.clone(), Walker::new(b).unwrap()))
        .collect();
    let mut failures = Vec::new();
    for l in LINES {
        let line = parse_moves(l.moves);
        let (found, _) = known_depth(&walker, &line);
        eprintln!("{found:>2}/{:<2} {:<45} {}", line.len(), l.moves, l.name);
        // Where a book knows a move, it must not call a move of ours a mistake, nor one of our
        // mistakes good: a line must not follow a refutation branch by accident. (The first
        // move is left out: GNU Go tags its books' first stone `0`. Pachi's `<don't>`, our
        // `Ignore`, tells Pachi's engine not to choose a move and is no verdict.)
        let ours = line_kinds(l.moves);
        for (book, w) in &each {
            let (_, theirs) = known_depth(w, &line);
            for (k, (&t, &m)) in theirs.iter().zip(&ours).enumerate().skip(1) {
                if (t == MoveType::Bad) != (m == MoveType::Bad) {
                    failures.push(format!(
                        "{}: move {} is {t:?} in {book}, {m:?} here",
                        l.moves,
                        k + 1
                    ));
                }
            }
        }
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
