//! The importer's conventions (anchor choice, GNU Go transform numbering onto Lens
//! orientations, symmetry -> orientations, edges, `?` on the board, colour normalisation) checked
//! against GNU Go's own matches, with a brute-force matcher over the parsed `.db` files that
//! follows exactly what the emitted `.lens` says. When this passes and the Lens differential
//! test does not, the difference is in the compiler or the VM, not in the import.

mod gnugo_support;

use std::collections::BTreeSet;

use gnugo_support::*;
use lens_compiler::import::gnugo::{
    AnchorColour, AnchorMode, DbPattern, anchor_of, lens_orientations, parse_db,
};
use lens_vm::board::{Board, Colour, Point};
use lens_vm::geometry::Orientation;

/// Allowed states (bit 0 friend, 1 foe, 2 empty, 3 off) of a GNU Go symbol.
fn states(sym: char) -> u8 {
    match sym {
        'O' | 'Q' => 1,
        'X' | 'Y' => 2,
        'o' => 1 | 4,
        'x' => 2 | 4,
        '?' => 7,
        _ => 4,
    }
}

/// Cells relative to the anchor, edges included, and the move offset.
fn cells(p: &DbPattern, ar: usize, ac: usize) -> (Vec<(i32, i32, u8)>, Option<(i32, i32)>) {
    let d = &p.diagram;
    let (w, h) = (d.width() as i32, d.height() as i32);
    let mut v = Vec::new();
    let top = if d.edges.north { -1 } else { 0 };
    let bottom = if d.edges.south { h } else { h - 1 };
    let left = if d.edges.west { -1 } else { 0 };
    let right = if d.edges.east { w } else { w - 1 };
    for r in top..=bottom {
        for c in left..=right {
            let s = if r < 0 || r >= h || c < 0 || c >= w {
                8
            } else {
                states(d.cell(r as usize, c as usize))
            };
            v.push((c - ac as i32, r - ar as i32, s));
        }
    }
    let mv = p
        .move_cell()
        .map(|(r, c)| (c as i32 - ac as i32, r as i32 - ar as i32));
    (v, mv)
}

fn state(b: &Board, me: Colour, x: i32, y: i32) -> u8 {
    match b.point(x, y) {
        Point::Stone(c) if c == me => 1,
        Point::Stone(_) => 2,
        Point::Empty => 4,
        Point::Off => 8,
    }
}

use lens_vm::board::BoardView;

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn brute_force_with_the_import_conventions_equals_gnugo() {
    let Some(dir) = data_dir() else { return };
    let boards = positions(&dir);
    let mut failures = String::new();
    for &(db, files, _mode) in DATABASES {
        let mut pats = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(dir.join("patterns").join(f)).unwrap();
            let (parsed, errs) = parse_db(f, &text);
            assert!(errs.is_empty(), "{errs:?}");
            let mode = AnchorMode::for_file(f);
            for p in parsed.patterns {
                let (ar, ac, colour) =
                    anchor_of(&p, mode).expect("every public pattern has an anchor");
                let (cs, mv) = cells(&p, ar, ac);
                let anchor_state = if colour == AnchorColour::O { 1 } else { 2 };
                pats.push((
                    p.name.clone(),
                    anchor_state,
                    cs,
                    mv,
                    lens_orientations(p.colon.symmetry),
                ));
            }
        }
        let mut got = BTreeSet::new();
        for (id, board) in &boards {
            for me in [Colour::Black, Colour::White] {
                for y in 0..19 {
                    for x in 0..19 {
                        let s = state(board, me, x, y);
                        for (name, anchor_state, cs, mv, orients) in &pats {
                            if s != *anchor_state {
                                continue;
                            }
                            for &oi in orients {
                                let o = Orientation::new(oi).unwrap();
                                let ok = cs.iter().all(|&(dx, dy, allowed)| {
                                    let (tx, ty) = o.apply(dx, dy);
                                    state(board, me, x + tx, y + ty) & allowed != 0
                                });
                                if ok {
                                    let m = mv.map_or("-".to_string(), |(dx, dy)| {
                                        let (tx, ty) = o.apply(dx, dy);
                                        vertex(x + tx, y + ty)
                                    });
                                    got.insert((
                                        id.clone(),
                                        colour_char(me),
                                        name.clone(),
                                        gnugo_ll(oi),
                                        vertex(x, y),
                                        m,
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
        let want = oracle(&dir, db);
        assert!(!want.is_empty());
        if let Some(d) = diff(db, &want, &got) {
            failures.push_str(&d);
        }
    }
    assert!(failures.is_empty(), "{failures}");
}
