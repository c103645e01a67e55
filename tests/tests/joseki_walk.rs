//! The walker: a line found in one orientation and colour is found in all 16 with the same
//! continuations; transpositions, tenuki and colour repeats, setup lines, leaving the book,
//! the corner lookup with rectangle fallback.

#[path = "joseki_data.rs"]
mod data;

use lens_joseki::{
    BoardMove, Colour, Continuation, Conventions, Encoding, Frame, MoveType, Point, Rel, Step,
    Tree, Walker, encode, import_sgf_into, parse_text,
};
use proptest::prelude::*;

/// A continuation seen from the frame: (colour relative to the line's first mover, point, type).
type Seen = (Rel, Point, MoveType);

fn to_board(frame: &Frame, line: &[(Rel, Point)], first: Colour) -> Vec<BoardMove> {
    line.iter()
        .filter_map(|&(rel, p)| match p {
            Point::Pass => None,
            Point::At { x, y } => Some(BoardMove {
                colour: if rel == Rel::Same {
                    first
                } else {
                    first.opponent()
                },
                at: Some(frame.to_board(x, y).expect("line fits the board")),
            }),
        })
        .collect()
}

fn seen(frame: &Frame, first: Colour, out: &[Continuation]) -> Vec<Seen> {
    let mut v: Vec<Seen> = out
        .iter()
        .map(|c| {
            let p = match c.at {
                None => Point::Pass,
                Some((x, y)) => {
                    let (cx, cy) = frame.to_corner(x, y).unwrap();
                    Point::at(cx, cy)
                }
            };
            (
                if c.colour == first {
                    Rel::Same
                } else {
                    Rel::Opposite
                },
                p,
                c.kind,
            )
        })
        .collect();
    v.sort();
    v
}

/// The continuations the tree itself has after `line` (setup edges excluded).
fn tree_next(tree: &Tree, line: &[(Rel, Point)]) -> Option<Vec<Seen>> {
    let mut v = 0u32;
    for &(rel, p) in line {
        let e = tree
            .vertex(v)
            .edges
            .iter()
            .find(|e| matches!(&e.step, Step::Move(m) if m.point == p && m.colour == rel))?;
        v = e.to;
    }
    let mut out: Vec<Seen> = tree
        .vertex(v)
        .edges
        .iter()
        .filter_map(|e| e.step.as_move().map(|m| (m.colour, m.point, m.kind)))
        .collect();
    out.sort();
    Some(out)
}

/// A random line through the tree, chosen by `picks`; stops before setups.
fn random_line(tree: &Tree, picks: &[u16]) -> Vec<(Rel, Point)> {
    let mut v = 0u32;
    let mut line = Vec::new();
    for &k in picks {
        let moves: Vec<_> = tree
            .vertex(v)
            .edges
            .iter()
            .filter(|e| e.step.as_move().is_some())
            .collect();
        if moves.is_empty() {
            break;
        }
        let e = moves[k as usize % moves.len()];
        let m = e.step.as_move().unwrap();
        // Passes and colour repeats are covered by their own tests; keep plain alternation here.
        if m.point == Point::Pass
            || line.last().is_some_and(|&(c, _)| c == m.colour)
            || (line.is_empty() && m.colour != Rel::Same)
        {
            break;
        }
        line.push((m.colour, m.point));
        v = e.to;
    }
    line
}

fn sample_tree() -> Tree {
    let mut t = parse_text(
        "( d4 ( c6:urgent ( d6 c7 | f3 ) | f3 ( c6 d6 | d3 ) | e3:trick tenuki c3 ) \
         | c4 ( e3 ( d5 | c6 ) | d3 c3 ) | c3 d3 )",
    )
    .unwrap();
    t.canonicalize();
    t
}

fn data_union() -> Option<&'static (Tree, Vec<Vec<u8>>)> {
    static UNION: std::sync::OnceLock<Option<(Tree, Vec<Vec<u8>>)>> = std::sync::OnceLock::new();
    UNION
        .get_or_init(|| {
            let files = data::joseki_files()?;
            let mut t = Tree::new();
            for (_, text) in &files {
                import_sgf_into(&mut t, text, Conventions::Auto).unwrap();
            }
            t.canonicalize();
            let blobs = Encoding::ALL.iter().map(|&e| encode(&t, e)).collect();
            Some((t, blobs))
        })
        .as_ref()
}

/// Follow `line` in every orientation and colour; all 16 must agree, and match the tree.
fn check_all_16(tree: &Tree, blob: &[u8], line: &[(Rel, Point)]) {
    let w = Walker::new(blob).unwrap();
    let expect = tree_next(tree, line).expect("the line comes from the tree");
    let mut out = [Continuation::EMPTY; 64];
    for o in 0..8u8 {
        for first in [Colour::Black, Colour::White] {
            let frame = Frame::orientation(19, o);
            let moves = to_board(&frame, line, first);
            let r = w.follow(&frame, &moves, first, &mut out);
            assert!(
                r.in_book,
                "orientation {o}, {first:?} first: {line:?} not found"
            );
            assert_eq!(r.followed, line.len());
            assert!(r.continuations <= out.len());
            let got = seen(&frame, first, &out[..r.continuations]);
            assert_eq!(
                got, expect,
                "orientation {o}, {first:?} first, line {line:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_line_is_found_in_all_16_frames_sample(picks in proptest::collection::vec(0u16..64, 0..8)) {
        let tree = sample_tree();
        for enc in Encoding::ALL {
            let blob = encode(&tree, enc);
            check_all_16(&tree, &blob, &random_line(&tree, &picks));
        }
    }

    #[test]
    fn a_line_is_found_in_all_16_frames_data(picks in proptest::collection::vec(0u16..1000, 0..30)) {
        let Some((tree, blobs)) = data_union() else { return Ok(()) };
        for blob in blobs {
            check_all_16(tree, blob, &random_line(tree, &picks));
        }
    }
}

#[test]
fn transpositions_are_merged_and_found() {
    // Two orders reach one position; the continuation written under the first is found
    // under the second.
    let t = parse_text("( d4 c3 e3 d3:urgent | e3 c3 d4 )").unwrap();
    assert_eq!(t.transposed_vertices(), 1);
    for enc in Encoding::ALL {
        let blob = encode(&t, enc);
        let w = Walker::new(&blob).unwrap();
        let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 8];
        let line = [
            (Rel::Same, Point::at(5, 3)),
            (Rel::Opposite, Point::at(3, 3)),
            (Rel::Same, Point::at(4, 4)),
        ];
        let n = w.follow_frame(&line, &mut out).expect("in book");
        assert_eq!(
            &out[..n],
            &[(Rel::Opposite, Point::at(4, 3), MoveType::Urgent)]
        );
    }
}

#[test]
fn tenuki_and_colour_repeats() {
    // `e3 tenuki c3`: black e3, white elsewhere, black c3. On the board white's move is
    // outside the corner, so the walker sees black twice and follows the recorded tenuki.
    // `f3 c3:repeat`: the same without a recorded pass (a colour exception).
    let t = parse_text("( d4 ( e3 tenuki c3 c4 | f3 c3:repeat d3 ) )").unwrap();
    for enc in Encoding::ALL {
        let blob = encode(&t, enc);
        let w = Walker::new(&blob).unwrap();
        let frame = Frame::orientation(19, 3);
        let mut out = [Continuation::EMPTY; 8];
        for (second, third, next) in [((5, 3), (3, 3), (3, 4)), ((6, 3), (3, 3), (4, 3))] {
            let line = [
                (Rel::Same, Point::at(4, 4)),
                (Rel::Opposite, Point::at(second.0, second.1)),
                (Rel::Opposite, Point::at(third.0, third.1)),
            ];
            // Colours as played: black d4, white second, white again third.
            let moves = to_board(&frame, &line, Colour::Black);
            let r = w.follow(&frame, &moves, Colour::Black, &mut out);
            assert!(r.in_book, "{enc:?} {line:?}");
            assert_eq!(r.continuations, 1);
            assert_eq!(out[0].at, frame.to_board(next.0, next.1));
        }
    }
}

#[test]
fn leaving_the_book_is_reported() {
    let t = sample_tree();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    let frame = Frame::orientation(19, 5);
    let line = [
        (Rel::Same, Point::at(4, 4)),
        (Rel::Opposite, Point::at(3, 6)),
        (Rel::Same, Point::at(9, 9)),
    ];
    let moves = to_board(&frame, &line, Colour::White);
    let mut out = [Continuation::EMPTY; 8];
    let r = w.follow(&frame, &moves, Colour::White, &mut out);
    assert!(!r.in_book);
    assert_eq!(r.followed, 2);
    assert_eq!(r.left_at, Some(2));
    assert_eq!(r.continuations, 0);
}

#[test]
fn setup_lines_are_not_entered() {
    let t = parse_text("( d4 c6 | setup(o:c3) d4 e3 )").unwrap();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 8];
    let n = w
        .follow_frame(&[(Rel::Same, Point::at(4, 4))], &mut out)
        .unwrap();
    assert_eq!(
        &out[..n],
        &[(Rel::Opposite, Point::at(3, 6), MoveType::Normal)],
        "e3 needs the setup stone"
    );
    // The empty corner offers d4 only (the setup line is not a first move).
    assert_eq!(w.follow_frame(&[], &mut out), Some(1));
}

#[test]
fn corner_lookup_falls_back_to_the_quarter_board() {
    let t = sample_tree();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    // Bottom-right corner (corner 3), transposed; plus stones in both neighbouring corners,
    // inside one half board each but outside the quarter board.
    let frame = Frame::new(19, 3, true);
    let mut moves = to_board(
        &frame,
        &[
            (Rel::Same, Point::at(4, 4)),
            (Rel::Opposite, Point::at(3, 6)),
        ],
        Colour::White,
    );
    for p in [(16, 3), (3, 16)] {
        let at = frame.to_board(p.0, p.1).unwrap();
        moves.insert(
            1,
            BoardMove {
                colour: Colour::Black,
                at: Some(at),
            },
        );
    }
    let mut out = [Continuation::EMPTY; 16];
    let r = w.lookup_corner(19, 3, &moves, Colour::Black, &mut out);
    assert!(r.in_book, "{r:?}");
    assert_eq!(
        (r.frame.width, r.frame.height),
        (10, 10),
        "the quarter board"
    );
    assert_eq!(
        r.continuations, 2,
        "d6 and f3 after d4 c6 (or c6 d6 after d4 f3, its reflection)"
    );
    // Without the far stones the half board already matches.
    moves.remove(1);
    moves.remove(1);
    let r = w.lookup_corner(19, 3, &moves, Colour::Black, &mut out);
    assert!(r.in_book);
    assert_eq!(r.frame.width.max(r.frame.height), 19);
    // An empty corner: the first moves, coloured for the side to move.
    let r = w.lookup_corner(19, 0, &[], Colour::White, &mut out);
    assert!(r.in_book);
    assert_eq!(r.continuations, 3);
    assert!(out[..3].iter().all(|c| c.colour == Colour::White));
}
