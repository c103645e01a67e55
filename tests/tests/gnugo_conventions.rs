//! The importer's conventions (anchor choice, GNU Go transform numbering onto Lens
//! orientations, symmetry -> orientations, edges, `?` on the board, colour normalisation) checked
//! against GNU Go's own matches, with a brute-force matcher over the parsed `.db` files that
//! follows exactly what the emitted `.lens` says. When this passes and the Lens differential
//! test does not, the difference is in the compiler or the VM, not in the import.

mod gnugo_support;

use std::collections::BTreeSet;

use gnugo_support::*;
use lens_compiler::import::gnugo::{AnchorColour, Mkpat, lens_orientations, parse_db};
use lens_vm::board::{Board, Colour, Point};
use lens_vm::geometry::Orientation;

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
            // Each database's real mkpat options (GNU Go's patterns/Makefile.am).
            let (mkpat, _) = Mkpat::for_file(f);
            for p in parsed.patterns {
                let (ar, ac, colour) = mkpat
                    .anchor(&p)
                    .expect("every public pattern has an anchor");
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
