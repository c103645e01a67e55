//! The walker: a line found in one orientation and colour is found in all 16 with the same
//! continuations, by the old per-frame path and by the engine lookup; the fast walk against the
//! decoded tree and the old walk on every vertex of every data file; the incremental cursor
//! against the batch lookup; transpositions, tenuki and colour repeats, setup lines, leaving
//! the book, the rectangle fallback.

use lens_tests::joseki_data as data;

use lens_joseki::{
    BoardMove, BookLookup, BookState, Colour, Continuation, Conventions, Encoding, Frame, MoveType,
    Point, Rel, Step, Tree, Walker, encode, import_sgf_into, parse_text,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

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
            let blobs = Encoding::WALKABLE.iter().map(|&e| encode(&t, e)).collect();
            Some((t, blobs))
        })
        .as_ref()
}

/// The moves of `moves` inside `frame`'s rectangle, in the frame, colours relative to the first.
fn frame_line(frame: &Frame, moves: &[BoardMove]) -> Vec<(Rel, Point)> {
    let mut first = None;
    moves
        .iter()
        .filter_map(|m| {
            let (x, y) = m.at?;
            let (cx, cy) = frame.to_corner(x, y)?;
            if cx > frame.width || cy > frame.height {
                return None;
            }
            let f = *first.get_or_insert(m.colour);
            Some((
                if m.colour == f {
                    Rel::Same
                } else {
                    Rel::Opposite
                },
                Point::at(cx, cy),
            ))
        })
        .collect()
}

/// What `Walker::lookup` must answer for `to_move`, from the tree: for every corner it calls
/// in the book, every orientation it calls in the book must hold the rectangle's moves, and
/// the continuations are the union of those orientations' tree continuations of `to_move`, on
/// the board (and when `to_move` made the last move there, those after the other side's
/// recorded tenuki). Also checks that no orientation it left out of a deciding rectangle is in
/// the tree.
fn expected_union(
    tree: &Tree,
    moves: &[BoardMove],
    r: &BookLookup,
    to_move: Colour,
) -> BTreeSet<(Option<(u8, u8)>, Colour)> {
    let mut set = BTreeSet::new();
    for c in &r.corners {
        if c.state != BookState::InBook {
            continue;
        }
        for t in 0..2u8 {
            let frame = c.frame(19, t == 1);
            let line = frame_line(&frame, moves);
            let first = moves
                .iter()
                .find(|m| {
                    m.at.and_then(|(x, y)| frame.to_corner(x, y))
                        .is_some_and(|(cx, cy)| cx <= frame.width && cy <= frame.height)
                })
                .unwrap()
                .colour;
            let next = tree_next_plain(tree, &line);
            // In the book: the line's moves, or its last moves the first stones of a setup.
            if c.orientations & (1 << t) != 0 {
                assert!(
                    next.is_some() || setup_prefix(tree, &line),
                    "corner {} orientation {t}: {line:?}",
                    c.corner
                );
            }
            let want = if to_move == first {
                Rel::Same
            } else {
                Rel::Opposite
            };
            let mut next = next.unwrap_or_default();
            if line.last().is_some_and(|l| l.0 == want) {
                let mut after = line.clone();
                after.push((want.flip(), Point::Pass));
                next.extend(tree_next_plain(tree, &after).unwrap_or_default());
            }
            for (rel, p, _) in next.into_iter().filter(|n| n.0 == want) {
                let at = match p {
                    Point::Pass => None,
                    Point::At { x, y } => match frame.to_board(x, y) {
                        Some(b) => Some(b),
                        None => continue,
                    },
                };
                let colour = if rel == Rel::Same {
                    first
                } else {
                    first.opponent()
                };
                set.insert((at, colour));
            }
        }
    }
    set
}

/// The line follows the tree's moves to a vertex where its remaining moves (at least one) are
/// stones of one setup edge there (a setup being played: in the book, nothing to offer yet).
fn setup_prefix(tree: &Tree, line: &[(Rel, Point)]) -> bool {
    let mut v = 0u32;
    for (k, &(rel, p)) in line.iter().enumerate() {
        let holds = |s: &Vec<lens_joseki::SetupStone>, r: Rel, q: Point| {
            s.iter()
                .any(|st| Point::at(st.x, st.y) == q && (st.colour == Some(r) || v == 0))
        };
        let setup = tree.vertex(v).edges.iter().any(|e| match &e.step {
            Step::Setup(s) => line[k..].iter().all(|&(r, q)| holds(s, r, q)),
            _ => false,
        });
        if setup {
            return true;
        }
        match tree
            .vertex(v)
            .edges
            .iter()
            .find(|e| matches!(&e.step, Step::Move(m) if m.point == p && m.colour == rel))
        {
            Some(e) => v = e.to,
            None => return false,
        }
    }
    false
}

/// `tree_next` for plain alternating lines; a colour repeat may also be a recorded tenuki.
fn tree_next_plain(tree: &Tree, line: &[(Rel, Point)]) -> Option<Vec<Seen>> {
    tree_next(tree, line)
}

fn got_set(out: &[Continuation]) -> BTreeSet<(Option<(u8, u8)>, Colour)> {
    out.iter().map(|c| (c.at, c.colour)).collect()
}

/// Follow `line` in every orientation and colour; all 16 must agree, and match the tree; the
/// engine lookup (all 8 orientations itself) must find it in every variant, agree with the
/// tree, and give the same continuations seen from the line's frame.
fn check_all_16(tree: &Tree, blob: &[u8], line: &[(Rel, Point)]) {
    let w = Walker::new(blob).unwrap();
    // The small mode (jump table, scans) answers as the fast mode (transition table).
    let small = Walker::small(blob).unwrap();
    let mut out_small = [Continuation::EMPTY; 64];
    let expect = tree_next(tree, line).expect("the line comes from the tree");
    let mut out = [Continuation::EMPTY; 64];
    let mut engine_seen: Option<Vec<Seen>> = None;
    for o in 0..8u8 {
        for first in [Colour::Black, Colour::White] {
            let frame = Frame::orientation(19, o);
            let moves = to_board(&frame, line, first);
            // Plain alternation: the other side of the last move is to move.
            let to_move = if line.len() % 2 == 0 {
                first
            } else {
                first.opponent()
            };
            let r = w.lookup(19, &moves, None, to_move, &mut out);
            assert!(r.continuations <= out.len());
            let rs = small.lookup(19, &moves, None, to_move, &mut out_small);
            assert_eq!(rs.corners, r.corners, "small mode: {line:?}");
            assert_eq!(out_small[..rs.continuations], out[..r.continuations]);
            let got = &out[..r.continuations];
            assert_eq!(got_set(got).len(), got.len(), "no duplicates");
            // Every book move of the exact line is offered; the walker may offer more, from
            // a setup completed by the line's last stones or a recorded tenuki on the way.
            let want = expected_union(tree, &moves, &r, to_move);
            assert!(
                want.is_subset(&got_set(got)),
                "{line:?}: {want:?} not in {:?}",
                got_set(got)
            );
            if !line.is_empty() {
                let c = r.corners[frame.corner as usize];
                assert_eq!(c.state, BookState::InBook, "orientation {o}: {line:?}");
                assert_eq!(c.followed, line.len());
                assert!(c.frame(19, frame.transpose).width > 0);
                // Seen from the line's own frame, the answer is the same in all 16 variants.
                let s = seen(&frame, first, got);
                let want = if line.len() % 2 == 0 {
                    Rel::Same
                } else {
                    Rel::Opposite
                };
                for e in expect.iter().filter(|e| e.0 == want) {
                    // Types may merge with the reflection's (the more specific one is kept).
                    assert!(
                        s.iter().any(|g| (g.0, g.1) == (e.0, e.1)
                            && (g.2 == e.2 || e.2 == MoveType::Normal || g.2.bits() > e.2.bits())),
                        "{e:?} missing, orientation {o}, {line:?}"
                    );
                }
                match &engine_seen {
                    None => engine_seen = Some(s),
                    Some(prev) => assert_eq!(prev, &s, "orientation {o}, {first:?}: {line:?}"),
                }
            }
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
        for enc in Encoding::WALKABLE {
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
    for enc in Encoding::WALKABLE {
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
    for enc in Encoding::WALKABLE {
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
    let r = w.lookup_corner(19, 3, &moves, Colour::White, &mut out);
    assert!(r.in_book, "{r:?}");
    assert_eq!(
        (r.frame.width, r.frame.height),
        (10, 10),
        "the quarter board"
    );
    // d4 c6 in this frame is d4 f3 in the other orientation, also in the book: d6 and f3
    // after d4 c6, and c6 d3 after d4 f3 (seen here as f3 and c4): 3 distinct points.
    let mut got = seen(&frame, Colour::White, &out[..r.continuations]);
    got.dedup();
    assert_eq!(
        got,
        vec![
            (Rel::Same, Point::at(3, 4), MoveType::Normal),
            (Rel::Same, Point::at(4, 6), MoveType::Normal),
            (Rel::Same, Point::at(6, 3), MoveType::Normal),
        ]
    );
    // Without the far stones the half board already matches.
    moves.remove(1);
    moves.remove(1);
    let r = w.lookup_corner(19, 3, &moves, Colour::Black, &mut out);
    assert!(r.in_book);
    assert_eq!(r.frame.width.max(r.frame.height), 19);
    // An empty corner: the first moves in both orientations, coloured for the side to move
    // (d4 and c3 are their own reflections, c4 and d3 each other's).
    let r = w.lookup_corner(19, 0, &[], Colour::White, &mut out);
    assert!(r.in_book);
    assert_eq!(r.continuations, 4);
    assert!(out[..4].iter().all(|c| c.colour == Colour::White));
    let f = Frame::orientation(19, 0);
    let pts: BTreeSet<_> = out[..4].iter().map(|c| c.at.unwrap()).collect();
    let want: BTreeSet<_> = [(4, 4), (3, 4), (4, 3), (3, 3)]
        .map(|(x, y)| f.to_board(x, y).unwrap())
        .into();
    assert_eq!(pts, want);
    // The whole-board lookup lists no empty corner.
    let r = w.lookup(19, &[], None, Colour::Black, &mut out);
    assert_eq!(r.continuations, 0);
    assert!(r.corners.iter().all(|c| c.state == BookState::Empty));
}

#[test]
fn a_half_board_line_beats_the_quarter_and_is_found_transposed() {
    // A line leaving the quarter board along one edge: found in the half board, in both
    // orientations of the corner (the half board along either edge).
    let mut t = parse_text("( d4 ( c6 c12 ( c14 | d13 ) | f3 ) )").unwrap();
    t.canonicalize();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    let mut out = [Continuation::EMPTY; 8];
    for o in 0..8u8 {
        let frame = Frame::orientation(19, o);
        let line = [
            (Rel::Same, Point::at(4, 4)),
            (Rel::Opposite, Point::at(3, 6)),
            (Rel::Same, Point::at(3, 12)),
        ];
        let mut moves = to_board(&frame, &line, Colour::Black);
        // A white stone in the opposite quarter first: not in the book, so the whole board
        // is out of it; it lies in neither half board of this corner.
        moves.insert(
            0,
            BoardMove {
                colour: Colour::White,
                at: frame.to_board(16, 16),
            },
        );
        let r = w.lookup(19, &moves, None, Colour::White, &mut out);
        let c = r.corners[frame.corner as usize];
        assert_eq!(c.state, BookState::InBook, "orientation {o}");
        assert_eq!(c.followed, 3);
        let f = c.frame(19, frame.transpose);
        assert_eq!(
            (f.width, f.height),
            (10, 19),
            "the half board along the frame's y"
        );
        assert_eq!(c.orientations, 1 << frame.transpose as u8);
        assert_eq!(
            seen(&frame, Colour::Black, &out[..r.continuations]),
            vec![
                (Rel::Opposite, Point::at(3, 14), MoveType::Normal),
                (Rel::Opposite, Point::at(4, 13), MoveType::Normal),
            ]
        );
        // Cut to the quarter board, c12 is not in the corner: the quarter's d4 c6 decides,
        // with both orientations (c6 and f3 are in the book).
        let r = w.lookup(19, &moves[..3], Some(frame.corner), Colour::White, &mut out);
        let c = r.corners[frame.corner as usize];
        assert_eq!(c.state, BookState::InBook);
        assert_eq!(c.followed, 2);
    }
}

#[test]
fn leaving_the_book_through_the_engine_lookup() {
    let t = sample_tree();
    let w_blobs: Vec<Vec<u8>> = Encoding::WALKABLE.iter().map(|&e| encode(&t, e)).collect();
    for blob in &w_blobs {
        let w = Walker::new(blob).unwrap();
        let frame = Frame::orientation(19, 6);
        let mut out = [Continuation::EMPTY; 8];
        // d4 c6 then j9 (not in the book): left at index 2 (after a pass at index 1).
        let mut moves = to_board(
            &frame,
            &[
                (Rel::Same, Point::at(4, 4)),
                (Rel::Opposite, Point::at(3, 6)),
                (Rel::Same, Point::at(9, 9)),
            ],
            Colour::White,
        );
        moves.insert(
            1,
            BoardMove {
                colour: Colour::Black,
                at: None,
            },
        );
        let r = w.lookup(19, &moves, None, Colour::Black, &mut out);
        let c = r.corners[frame.corner as usize];
        assert_eq!(c.state, BookState::OutOfBook);
        assert_eq!(c.followed, 2);
        assert_eq!(c.left_at, Some(3));
        assert_eq!(r.left_at(), Some(3));
        assert!(!r.in_book());
        assert_eq!(r.continuations, 0);
        // Past the end of a line: d4 f3 d3 is a leaf; one more move leaves the book.
        let moves = to_board(
            &frame,
            &[
                (Rel::Same, Point::at(4, 4)),
                (Rel::Opposite, Point::at(6, 3)),
                (Rel::Same, Point::at(4, 3)),
                (Rel::Opposite, Point::at(3, 3)),
            ],
            Colour::Black,
        );
        let r = w.lookup(19, &moves[..3], None, Colour::White, &mut out);
        assert!(r.in_book());
        let r3 = r.corners[frame.corner as usize];
        assert_eq!(r3.followed, 3);
        let r = w.lookup(19, &moves, None, Colour::White, &mut out);
        assert_eq!(r.corners[frame.corner as usize].left_at, Some(3));
        // A first move not in the book at all.
        let moves = to_board(&frame, &[(Rel::Same, Point::at(7, 7))], Colour::Black);
        let r = w.lookup(19, &moves, Some(frame.corner), Colour::White, &mut out);
        assert_eq!(r.corners[frame.corner as usize].state, BookState::OutOfBook);
        assert_eq!(r.left_at(), Some(0));
        // Another corner out of the book does not hide this one.
        let mut moves = to_board(&frame, &[(Rel::Same, Point::at(4, 4))], Colour::Black);
        let other = Frame::orientation(19, (6 + 3) % 8);
        assert_ne!(other.corner, frame.corner);
        moves.push(BoardMove {
            colour: Colour::White,
            at: other.to_board(9, 8),
        });
        let r = w.lookup(19, &moves, None, Colour::White, &mut out);
        assert_eq!(r.corners[frame.corner as usize].state, BookState::InBook);
        assert_eq!(r.corners[other.corner as usize].state, BookState::OutOfBook);
        assert_eq!(r.left_at(), Some(1));
        assert!(r.in_book());
        // After d4, sample_tree has c6, f3, e3: and their reflections c6 <-> f3, e3 <-> c5.
        assert_eq!(r.continuations, 4);
    }
}

#[test]
fn engine_lookup_handles_tenuki_and_colour_repeats() {
    let t = parse_text("( d4 ( e3 tenuki c3 c4 | f3 c3:repeat d3 ) )").unwrap();
    for enc in Encoding::WALKABLE {
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
            let mut moves = to_board(&frame, &line, Colour::Black);
            // Black's tenuki is played in another corner of the board.
            moves.insert(
                2,
                BoardMove {
                    colour: Colour::Black,
                    at: Frame::orientation(19, 0).to_board(4, 4),
                },
            );
            let r = w.lookup(19, &moves, Some(frame.corner), Colour::Black, &mut out);
            let c = r.corners[frame.corner as usize];
            assert_eq!(c.state, BookState::InBook, "{enc:?} {line:?}");
            assert_eq!(c.orientations, 1 << frame.transpose as u8);
            assert_eq!(r.continuations, 1);
            assert_eq!(out[0].at, frame.to_board(next.0, next.1));
            assert_eq!(out[0].colour, Colour::Black);
        }
    }
}

/// Every vertex's first path (passes and colour exceptions included, setup edges excluded).
fn vertex_paths(tree: &Tree) -> Vec<Vec<(Rel, Point)>> {
    let mut seen = vec![false; tree.vertices().len()];
    seen[0] = true;
    let mut out = vec![Vec::new()];
    let mut stack = vec![(0u32, Vec::new())];
    while let Some((v, path)) = stack.pop() {
        for e in &tree.vertex(v).edges {
            let Step::Move(m) = &e.step else { continue };
            if std::mem::replace(&mut seen[e.to as usize], true) {
                continue;
            }
            let mut p: Vec<(Rel, Point)> = path.clone();
            p.push((m.colour, m.point));
            out.push(p.clone());
            stack.push((e.to, p));
        }
    }
    out
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn fast_walk_agrees_with_the_tree_and_the_old_walk_on_every_vertex() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let mut checked = 0;
    let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 256];
    let mut old = [(Rel::Same, Point::Pass, MoveType::Normal); 256];
    let mut scanned = [(Rel::Same, Point::Pass, MoveType::Normal); 256];
    for (name, text) in &files {
        let mut t = Tree::new();
        import_sgf_into(&mut t, text, Conventions::Auto).unwrap();
        t.canonicalize();
        for enc in Encoding::WALKABLE {
            let blob = encode(&t, enc);
            let w = Walker::new(&blob).unwrap();
            let scan = Walker::in_place(&blob).unwrap();
            for path in vertex_paths(&t) {
                let expect = tree_next(&t, &path).expect("a path of the tree");
                let (n, parsed) = w
                    .frame_next(&path, &mut out)
                    .unwrap_or_else(|| panic!("{name} {enc:?}: {path:?} not found"));
                // The walker without the table scans the blob to the same answer; it parses
                // the same listing plus the walk (at least the root entry).
                let (n2, parsed2) = scan
                    .frame_next(&path, &mut scanned)
                    .unwrap_or_else(|| panic!("{name} {enc:?}: {path:?} not found in place"));
                assert_eq!(
                    &scanned[..n2],
                    &out[..n],
                    "{name} {enc:?}: {path:?} in place"
                );
                assert!(
                    parsed2 > parsed || (path.is_empty() && parsed2 == parsed),
                    "{name}: {path:?}"
                );
                let mut got = out[..n].to_vec();
                got.sort();
                assert_eq!(got, expect, "{name} {enc:?}: {path:?}");
                let m = w
                    .follow_frame(&path, &mut old)
                    .expect("the old walk finds it");
                assert_eq!(m, n);
                assert_eq!(&old[..m], &out[..n], "{name} {enc:?}: same order too");
                assert!(
                    parsed2 > 0 || n == 0,
                    "{name}: a walk in place parses its entries"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 8000, "{checked} paths");
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn engine_lookup_agrees_with_the_tree_on_every_vertex_of_the_union() {
    let Some((tree, blobs)) = data_union() else {
        return;
    };
    let w = Walker::new(&blobs[1]).unwrap();
    let scan = Walker::in_place(&blobs[1]).unwrap();
    let mut out = [Continuation::EMPTY; 128];
    let mut checked = 0;
    for (k, path) in vertex_paths(tree).into_iter().enumerate() {
        // Plain alternation only: a pass on the board is no move in the corner.
        if path.iter().any(|m| m.1 == Point::Pass)
            || path.windows(2).any(|w| w[0].0 == w[1].0)
            || path.first().is_some_and(|m| m.0 != Rel::Same)
        {
            continue;
        }
        let frame = Frame::orientation(19, (k % 8) as u8);
        let first = if k % 3 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let moves = to_board(&frame, &path, first);
        let r = w.lookup(19, &moves, None, first, &mut out);
        assert!(r.continuations <= out.len());
        let want = expected_union(tree, &moves, &r, first);
        assert!(
            want.is_subset(&got_set(&out[..r.continuations])),
            "{path:?}: {want:?}"
        );
        // The cursor, played one move at a time, answers the same after every move.
        let mut c = w.cursor(19, None);
        let mut out2 = [Continuation::EMPTY; 128];
        for m in &moves {
            c.play(*m);
        }
        let r2 = c.lookup(first, &mut out2);
        assert_eq!(r2, r);
        assert_eq!(&out2[..r2.continuations], &out[..r.continuations]);
        // The walker without the transition table scans to the same answer.
        let r3 = scan.lookup(19, &moves, None, first, &mut out2);
        assert_eq!(
            (r3.corners, r3.continuations),
            (r.corners, r.continuations),
            "{path:?} in place"
        );
        assert_eq!(&out2[..r3.continuations], &out[..r.continuations]);
        assert!(r.probes >= path.len() && r3.probes == 0);
        assert!(
            r3.parsed > r.parsed || path.is_empty(),
            "{path:?}: the scan parses the walk"
        );
        checked += 1;
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn the_cursor_equals_the_batch_lookup_after_every_move() {
    let t = sample_tree();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    // Two corners in play, a pass, a move off the board and one far from any corner.
    let a = Frame::orientation(19, 2);
    let b = Frame::orientation(19, 7);
    // Colours need not alternate on the board: each corner sees its own sequence.
    let moves = [
        (Colour::Black, a.to_board(4, 4)),
        (Colour::White, b.to_board(3, 4)),
        (Colour::White, a.to_board(3, 6)),
        (Colour::Black, None),
        (Colour::Black, b.to_board(5, 3)),
        (Colour::White, Frame::orientation(19, 0).to_board(3, 3)),
        (Colour::Black, a.to_board(4, 6)),
        (Colour::White, Some((30, 2))),
        (Colour::White, b.to_board(3, 6)),
    ]
    .map(|(colour, at)| BoardMove { colour, at });
    let mut c = w.cursor(19, None);
    let (mut o1, mut o2) = ([Continuation::EMPTY; 32], [Continuation::EMPTY; 32]);
    for k in 0..moves.len() {
        c.play(moves[k]);
        assert_eq!(c.moves(), k + 1);
        let r1 = c.lookup(Colour::White, &mut o1);
        let r2 = w.lookup(19, &moves[..=k], None, Colour::White, &mut o2);
        assert_eq!(r1, r2, "after move {k}");
        assert_eq!(&o1[..r1.continuations], &o2[..r2.continuations]);
        // A saved cursor is a value: copying it and playing on does not change the original.
        let mut fork = c;
        fork.play(moves[0]);
        assert_eq!(c.lookup(Colour::White, &mut o1), r1);
    }
    let r = c.lookup(Colour::White, &mut o1);
    assert_eq!(r.corners[a.corner as usize].state, BookState::InBook);
    assert_eq!(r.corners[b.corner as usize].state, BookState::InBook);
    assert_eq!(
        r.corners[0].state,
        BookState::InBook,
        "c3 (3-3) is a first move"
    );
}

/// The walker's 8 frames (`corner * 2 + transpose`) and lens-vm's 8 orientations (mirror, then
/// clockwise turns of a drawn pattern's offsets) are the same symmetries numbered two ways;
/// `Frame::vm_orientation` converts, checked here on every offset of a 5x5 neighbourhood.
#[test]
fn frames_name_their_lens_vm_orientation() {
    let mut used = BTreeSet::new();
    for index in 0..8u8 {
        let f = Frame::orientation(19, index);
        let t = lens_vm::geometry::Orientation::new(f.vm_orientation()).unwrap();
        used.insert(t.index());
        let (cx, cy) = (8u8, 8u8);
        let (bx, by) = f.to_board(cx, cy).unwrap();
        for dx in -2i32..=2 {
            for dy in -2i32..=2 {
                let (qx, qy) = f
                    .to_board((cx as i32 + dx) as u8, (cy as i32 + dy) as u8)
                    .unwrap();
                let board = (qx as i32 - bx as i32, qy as i32 - by as i32);
                assert_eq!(t.apply(dx, dy), board, "frame {index}: ({dx}, {dy})");
            }
        }
    }
    assert_eq!(used.len(), 8);
}
