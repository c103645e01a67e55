//! Every book position is offered: each vertex of each data file (and of hand-written books
//! with far moves, moves in both half boards, setup stones, tenuki), played on a 19x19 board in
//! all 8 orientations with either colour first, is found by the engine lookup, which offers
//! every book move of the side to move there. Setup stones are played as moves where the line
//! holds them.

use lens_tests::joseki_data as data;

use lens_joseki::{
    BoardMove, BookState, Colour, Continuation, Conventions, Encoding, Frame, Point, Rel, Step,
    Tree, Walker, encode, import_sgf, import_sgf_into, parse_text,
};
use std::collections::BTreeSet;

/// One way to reach a vertex: its steps from the root.
type Path = Vec<Step>;

/// Every vertex's first path (depth first), the root excluded.
fn vertex_paths(tree: &Tree) -> Vec<(u32, Path)> {
    let mut seen = vec![false; tree.vertices().len()];
    seen[0] = true;
    let mut out = Vec::new();
    let mut stack = vec![(0u32, Vec::new())];
    while let Some((v, path)) = stack.pop() {
        for e in &tree.vertex(v).edges {
            if std::mem::replace(&mut seen[e.to as usize], true) {
                continue;
            }
            let mut p: Path = path.clone();
            p.push(e.step.clone());
            out.push((e.to, p.clone()));
            stack.push((e.to, p));
        }
    }
    out
}

fn abs(rel: Rel, first: Colour) -> Colour {
    if rel == Rel::Same {
        first
    } else {
        first.opponent()
    }
}

/// The path as moves on the board (setup stones as moves of their colour); `None` if it
/// cannot be played so (a removed stone, a point off the board).
fn board_moves(path: &Path, frame: &Frame, first: Colour) -> Option<Vec<BoardMove>> {
    let mut moves = Vec::new();
    for step in path {
        match step {
            Step::Move(m) => moves.push(BoardMove {
                colour: abs(m.colour, first),
                at: match m.point {
                    Point::Pass => None,
                    Point::At { x, y } => Some(frame.to_board(x, y)?),
                },
            }),
            Step::Setup(stones) => {
                for s in stones {
                    moves.push(BoardMove {
                        colour: abs(s.colour?, first),
                        at: Some(frame.to_board(s.x, s.y)?),
                    });
                }
            }
        }
    }
    Some(moves)
}

/// The colour (relative) of the last move on the path; the root acts as if `Opposite` moved.
fn last_colour(path: &Path) -> Rel {
    path.iter()
        .rev()
        .find_map(|s| s.as_move().map(|m| m.colour))
        .unwrap_or(Rel::Opposite)
}

/// The book's moves of `want` at vertex `v` (relative colours, frame points).
fn book_moves(tree: &Tree, v: u32, want: Rel) -> Vec<Point> {
    tree.vertex(v)
        .edges
        .iter()
        .filter_map(|e| e.step.as_move())
        .filter(|m| m.colour == want)
        .map(|m| m.point)
        .collect()
}

/// What must be offered at vertex `v` for the side `want`: its moves of that colour; when
/// `want` also moved last (the other side played elsewhere), the moves after the other side's
/// recorded tenuki too.
fn must_offer(tree: &Tree, v: u32, last: Rel, want: Rel) -> Vec<Point> {
    let mut pts = book_moves(tree, v, want);
    if want == last {
        for e in &tree.vertex(v).edges {
            if let Step::Move(m) = &e.step
                && m.point == Point::Pass
                && m.colour == last.flip()
            {
                pts.extend(book_moves(tree, e.to, want));
            }
        }
    }
    pts
}

/// A setup below the root on the path has a stone that is also a book move where the setup
/// stands: on the board the two cannot be told apart, and the walker follows the move
/// (documented). At the root the walker keeps both readings (a line opening with setup stones).
fn setup_meets_a_move(tree: &Tree, path: &Path) -> bool {
    let mut v = 0u32;
    for step in path {
        if let (Step::Setup(stones), false) = (step, v == 0) {
            let moves: Vec<_> = tree
                .vertex(v)
                .edges
                .iter()
                .filter_map(|e| e.step.as_move())
                .collect();
            if stones.iter().any(|s| {
                moves
                    .iter()
                    .any(|m| m.point == Point::at(s.x, s.y) && Some(m.colour) == s.colour)
            }) {
                return true;
            }
        }
        v = tree
            .vertex(v)
            .edges
            .iter()
            .find(|e| &e.step == step)
            .unwrap()
            .to;
    }
    false
}

/// Checks every vertex of `tree` through `w` in all 8 orientations, both first colours and both
/// sides to move (the other side's tenuki: not after a trailing pass, which the board cannot
/// show twice). Returns (positions checked, moves required); positions where a setup stone is
/// also a book move there ([`setup_meets_a_move`]) are left out and counted in `*ambiguous`.
fn check_every_vertex_or_ambiguous(
    name: &str,
    tree: &Tree,
    w: &Walker<'_>,
    every: usize,
    ambiguous: &mut usize,
) -> (usize, usize) {
    let mut out = [Continuation::EMPTY; 256];
    let (mut checked, mut required) = (0, 0);
    for (k, (v, path)) in vertex_paths(tree).into_iter().enumerate() {
        if k % every != 0 {
            continue;
        }
        if setup_meets_a_move(tree, &path) {
            *ambiguous += 1;
            continue;
        }
        let last = last_colour(&path);
        let ends_in_pass = matches!(path.last(), Some(Step::Move(m)) if m.point == Point::Pass);
        for o in 0..8u8 {
            let frame = Frame::orientation(19, o);
            for first in [Colour::Black, Colour::White] {
                let Some(moves) = board_moves(&path, &frame, first) else {
                    continue;
                };
                for want in [last.flip(), last] {
                    if want == last && ends_in_pass {
                        continue;
                    }
                    let to_move = abs(want, first);
                    let r = w.lookup(19, &moves, None, to_move, &mut out);
                    assert!(r.continuations <= out.len(), "{name}: {path:?}");
                    let got: BTreeSet<(Option<(u8, u8)>, Colour)> = out[..r.continuations]
                        .iter()
                        .map(|c| (c.at, c.colour))
                        .collect();
                    if moves.iter().any(|m| m.at.is_some()) {
                        assert_eq!(
                            r.corners[frame.corner as usize].state,
                            BookState::InBook,
                            "{name}: orientation {o}, {first:?} first: {path:?}"
                        );
                    }
                    for p in must_offer(tree, v, last, want) {
                        let at = match p {
                            Point::Pass => None,
                            Point::At { x, y } => match frame.to_board(x, y) {
                                Some(b) => Some(b),
                                None => continue,
                            },
                        };
                        assert!(
                            got.contains(&(at, to_move)),
                            "{name}: {p:?} for {to_move:?} not offered, orientation {o}, \
                             {first:?} first, after {path:?}"
                        );
                        required += 1;
                    }
                    checked += 1;
                }
            }
        }
    }
    (checked, required)
}

/// As [`check_every_vertex_or_ambiguous`], with no ambiguous position allowed.
fn check_every_vertex(name: &str, tree: &Tree, w: &Walker<'_>, every: usize) -> (usize, usize) {
    let mut ambiguous = 0;
    let r = check_every_vertex_or_ambiguous(name, tree, w, every, &mut ambiguous);
    assert_eq!(ambiguous, 0, "{name}: a setup stone is also a book move");
    r
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn every_position_of_every_data_file_is_offered_in_8_orientations_and_both_colours() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let (mut checked, mut required, mut setups) = (0, 0, 0);
    for (name, text) in &files {
        let t = import_sgf(text, Conventions::Auto).unwrap();
        setups += t
            .vertices()
            .iter()
            .flat_map(|v| &v.edges)
            .filter(|e| matches!(e.step, Step::Setup(_)))
            .count();
        let blob = encode(&t, Encoding::Compact);
        let w = Walker::new(&blob).unwrap();
        let (c, r) = check_every_vertex(name, &t, &w, 1);
        checked += c;
        required += r;
        // The other encoding and the walker without a table, on a sample.
        let blob = encode(&t, Encoding::Fotland);
        check_every_vertex(name, &t, &Walker::new(&blob).unwrap(), 5);
        check_every_vertex(name, &t, &Walker::in_place(&blob).unwrap(), 11);
    }
    assert!(setups >= 20, "the data has setup lines: {setups}");
    assert!(checked > 100_000, "{checked} positions");
    assert!(required > 60_000, "{required} moves");
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn the_union_of_the_data_files_offers_every_position() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let mut t = Tree::new();
    for (_, text) in &files {
        import_sgf_into(&mut t, text, Conventions::Auto).unwrap();
    }
    t.canonicalize();
    let blob = encode(&t, Encoding::Compact);
    let mut ambiguous = 0;
    let (checked, _) = check_every_vertex_or_ambiguous(
        "union",
        &t,
        &Walker::new(&blob).unwrap(),
        3,
        &mut ambiguous,
    );
    assert!(checked > 10_000, "{checked}");
    // Where one file plays as moves what another file's setup puts on the board (d4 then
    // d10 both ways in the 4-4 books): a handful of lines, found as moves. Each file alone has
    // none (the test above).
    assert!(
        ambiguous <= 10,
        "{ambiguous} ambiguous vertices (every third checked)"
    );
}

/// A book of our own with what the small books rarely hold: a move in the opposite quarter,
/// moves in both half boards, setup stones (one and several, near and far), a recorded tenuki
/// and a colour exception.
const FAR_BOOK: &str = "(;GM[1]FF[4]SZ[19]\
    (;B[dp];W[cn];B[gq];W[cq];B[cp];W[dq];B[ep];W[bp];B[bo];W[bq];B[co];W[eq];B[fq];W[en]\
      ;B[fn];W[em];B[gn];W[pd];B[er])\
    (;B[dp];W[dn];B[pp];W[dc];B[jq])\
    (;B[dp];W[fq];AB[jp];W[cn];B[fo])\
    (;B[dp];W[fq];AB[cj][cl]AW[qc];W[dn];B[dr])\
    (;B[dp];W[cq];B[];W[cp];B[do])\
    (;B[dp];W[cq];W[cp]))";

#[test]
fn far_lines_setup_lines_and_tenuki_of_a_book_of_our_own_are_offered() {
    let t = import_sgf(FAR_BOOK, Conventions::Plain).unwrap();
    for enc in Encoding::WALKABLE {
        let blob = encode(&t, enc);
        for w in [
            Walker::new(&blob).unwrap(),
            Walker::in_place(&blob).unwrap(),
        ] {
            let (checked, required) = check_every_vertex("far book", &t, &w, 1);
            assert!(checked > 900 && required > 400, "{checked} {required}");
        }
    }
}

#[test]
fn a_move_in_the_opposite_quarter_stays_in_book() {
    // The line of FAR_BOOK with p16 (white's tenuki to the opposite corner, in the book) and
    // black's e2 after it: the quarter and half boards cannot hold it, the whole board does.
    let t = import_sgf(FAR_BOOK, Conventions::Plain).unwrap();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    let line = "d4 c6 g3 c3 c4 d3 e4 b4 b5 b3 c5 e3 f3 e6 f6 e7 g6 p16 e2";
    let frame = Frame::orientation(19, 0);
    let moves: Vec<BoardMove> = lens_joseki::text::parse_line(line)
        .unwrap()
        .into_iter()
        .map(|(black, p)| BoardMove {
            colour: if black { Colour::Black } else { Colour::White },
            at: match p {
                Point::At { x, y } => frame.to_board(x, y),
                Point::Pass => None,
            },
        })
        .collect();
    let mut out = [Continuation::EMPTY; 16];
    for k in 1..=moves.len() {
        let r = w.lookup(19, &moves[..k], Some(0), Colour::Black, &mut out);
        let c = r.corners[0];
        assert_eq!(c.state, BookState::InBook, "after {} moves: {c:?}", k);
        assert_eq!(c.followed, k);
        if k >= 18 {
            assert_eq!((c.width, c.height), (19, 19), "the whole board decides");
        }
    }
    // One more move elsewhere on the board leaves the whole board; the quarter board, which
    // saw p16 as play elsewhere, cannot follow e2 either.
    let mut more = moves.clone();
    more.push(BoardMove {
        colour: Colour::White,
        at: frame.to_board(16, 4),
    });
    let r = w.lookup(19, &more, Some(0), Colour::Black, &mut out);
    assert_eq!(r.corners[0].state, BookState::OutOfBook);
    assert_eq!(r.corners[0].followed, 19);
}

#[test]
fn a_setup_line_is_offered_once_its_stones_are_on_the_board() {
    // d4 f3, then black stones at c10 and c8 and a white one at q17 (setup), then white d6
    // (a colour repeat) and black d2.
    let t = import_sgf(FAR_BOOK, Conventions::Plain).unwrap();
    let blob = encode(&t, Encoding::Compact);
    let w = Walker::new(&blob).unwrap();
    let f = Frame::orientation(19, 5);
    let mv = |colour, x, y| BoardMove {
        colour,
        at: f.to_board(x, y),
    };
    use Colour::{Black as B, White as W};
    let opening = [mv(B, 4, 4), mv(W, 6, 3)];
    let mut out = [Continuation::EMPTY; 16];
    let offered = |moves: &[BoardMove], to_move, out: &mut [Continuation]| {
        let r = w.lookup(19, moves, None, to_move, out);
        let set: BTreeSet<_> = out[..r.continuations].iter().map(|c| c.at).collect();
        (r, set)
    };
    // Before the stones: the setup line's d6 is not offered.
    let (_, before) = offered(&opening, W, &mut out);
    assert!(!before.contains(&f.to_board(4, 6)), "d6 needs the setup");
    // The stones in any order, then white to move: d6 is offered.
    for order in [[0, 1, 2], [2, 0, 1], [1, 2, 0]] {
        let stones = [mv(B, 3, 10), mv(B, 3, 8), mv(W, 17, 17)];
        let mut moves = opening.to_vec();
        moves.extend(order.map(|k| stones[k]));
        let (r, set) = offered(&moves, W, &mut out);
        assert!(set.contains(&f.to_board(4, 6)), "{order:?}: {r:?}");
        // With one stone missing the line is not entered.
        let (_, part) = offered(&moves[..4], W, &mut out);
        assert!(!part.contains(&f.to_board(4, 6)), "{order:?}");
    }
    // A stone of the wrong colour is not the setup.
    let mut moves = opening.to_vec();
    moves.extend([mv(B, 3, 10), mv(W, 3, 8), mv(W, 17, 17)]);
    let (_, set) = offered(&moves, W, &mut out);
    assert!(!set.contains(&f.to_board(4, 6)));
}

#[test]
fn a_trailing_tenuki_gives_the_same_side_the_book_move_after_the_tenuki() {
    // d4 c3, then the first mover's tenuki and c4, or c4 as a colour repeat; d4 c6. Played
    // with white first on the board.
    let t = parse_text("d4 ( c3 ( tenuki c4 d5 | c4:repeat e3 ) | c6 )").unwrap();
    for enc in Encoding::WALKABLE {
        let blob = encode(&t, enc);
        let w = Walker::new(&blob).unwrap();
        let f = Frame::orientation(19, 2);
        let at = |x, y| f.to_board(x, y);
        let mut out = [Continuation::EMPTY; 16];
        let mut list = |moves: &[BoardMove], to_move| {
            let r = w.lookup(19, moves, Some(f.corner), to_move, &mut out);
            let mut v: Vec<_> = out[..r.continuations]
                .iter()
                .map(|c| (c.at, c.colour))
                .collect();
            v.sort();
            v
        };
        let d4c3 = [
            BoardMove {
                colour: Colour::White,
                at: at(4, 4),
            },
            BoardMove {
                colour: Colour::Black,
                at: at(3, 3),
            },
        ];
        // White to move: its tenuki is the book move (black's c4 is not offered).
        assert_eq!(list(&d4c3, Colour::White), vec![(None, Colour::White)]);
        // A trailing pass by white (or white's move elsewhere): black moves again, and gets
        // c4, both as its colour repeat and as the book's move after white's tenuki.
        let mut with_pass = d4c3.to_vec();
        with_pass.push(BoardMove {
            colour: Colour::White,
            at: None,
        });
        // (d4 c3 is symmetric: c4 and its reflection d3.)
        let want = {
            let mut v = vec![(at(3, 4), Colour::Black), (at(4, 3), Colour::Black)];
            v.sort();
            v
        };
        assert_eq!(list(&with_pass, Colour::Black), want, "{enc:?}");
        assert_eq!(list(&d4c3, Colour::Black), want, "{enc:?}");
        // White to move again after d4: nothing of white's in the book there.
        assert_eq!(list(&d4c3[..1], Colour::White), vec![]);
        // Black to move after d4: c3, c6 and c6's reflection f3.
        let want: Vec<_> = [at(3, 3), at(3, 6), at(6, 3)]
            .into_iter()
            .map(|p| (p, Colour::Black))
            .collect();
        let mut got = list(&d4c3[..1], Colour::Black);
        got.sort();
        let mut want = want;
        want.sort();
        assert_eq!(got, want);
    }
}

/// Lines that open with setup stones (setup edges at the root, which every walk starts from):
/// the fast and small modes find the candidates for a first stone in its index of the root's setup
/// stones, the scan tries every root setup edge; both must agree.
const ROOT_SETUP_BOOK: &str = "(;GM[1]FF[4]SZ[19]\
    (;AB[dp]AW[fq];B[cn];W[dn])\
    (;AB[dp][dn];W[cq];B[cp])\
    (;AW[dp];B[fq];W[cn])\
    (;AB[pd]AW[dp];W[cn])\
    (;B[dp];W[fq];B[cn]))";

#[test]
fn every_position_of_lines_opening_with_setup_stones_is_offered() {
    // The position right after the setup stones, with no move played, is in the book and
    // offers the line's first move; so is every position below it. The first stone of two
    // lines (black d4 of `AB[dp]AW[fq]`, white d4 of `AB[dp][dn]` with white first) is also
    // the book move d4 of the last line: the walk follows the move and falls back on the
    // setup reading when the next stone leaves the move line.
    let t = import_sgf(ROOT_SETUP_BOOK, Conventions::Plain).unwrap();
    for enc in Encoding::WALKABLE {
        let blob = encode(&t, enc);
        for w in [
            Walker::new(&blob).unwrap(),
            Walker::small(&blob).unwrap(),
            Walker::in_place(&blob).unwrap(),
        ] {
            let (checked, required) = check_every_vertex("root setup book", &t, &w, 1);
            assert!(checked >= 400 && required >= 120, "{checked} {required}");
        }
    }
}

#[test]
fn lines_opening_with_setup_stones_answer_as_the_scan_does() {
    let t = import_sgf(ROOT_SETUP_BOOK, Conventions::Plain).unwrap();
    let blob = encode(&t, Encoding::Compact);
    let scan = Walker::in_place(&blob).unwrap();
    for fast in [Walker::new(&blob).unwrap(), Walker::small(&blob).unwrap()] {
        // Every first stone, and every second stone after black d4, of either colour.
        let d4 = BoardMove {
            colour: Colour::Black,
            at: Frame::orientation(19, 0).to_board(4, 4),
        };
        let (mut out1, mut out2) = ([Continuation::EMPTY; 32], [Continuation::EMPTY; 32]);
        let mut entered = 0;
        for x in 0..19 {
            for y in 0..19 {
                for colour in [Colour::Black, Colour::White] {
                    let m = BoardMove {
                        colour,
                        at: Some((x, y)),
                    };
                    for moves in [vec![m], vec![d4, m]] {
                        let to_move = colour.opponent();
                        let a = fast.lookup(19, &moves, None, to_move, &mut out1);
                        let b = scan.lookup(19, &moves, None, to_move, &mut out2);
                        assert_eq!(a.corners, b.corners, "{moves:?}");
                        assert_eq!(
                            out1[..a.continuations],
                            out2[..b.continuations],
                            "{moves:?}"
                        );
                        entered += (moves.len() == 2 && a.in_book()) as usize;
                    }
                }
            }
        }
        // d4 then white f3 or white c6 ... : second stones that enter a setup line are found.
        assert!(entered >= 2, "{entered}");
    }
}
