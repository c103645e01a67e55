//! End to end: the language examples compile and load, and compiled patterns match on a real
//! board exactly where they should, once per distinct orientation.

use std::path::PathBuf;

use lens_compiler::{Options, compile_paths, compile_str};
use lens_vm::board::{Board, Colour};
use lens_vm::{Match, MatchBuf, MatchResult, NoHost, Orientations, Query, Rom, Scratch};

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

#[test]
fn every_example_compiles_and_loads() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(examples_dir())
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lens"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "examples: {files:?}");
    for f in files.iter().chain(std::iter::once(&examples_dir())) {
        let (sources, result) = compile_paths(std::slice::from_ref(f), &Options::default());
        let compiled = match result {
            Ok(c) => c,
            Err(d) => panic!(
                "{}: {}",
                f.display(),
                lens_dsl::render_human(&sources, &d, false)
            ),
        };
        let rom = Rom::from_bytes(&compiled.rom).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for class in &compiled.spec.classes {
            assert!(
                rom.class_by_name(&class.name).is_some(),
                "{}: class {}",
                f.display(),
                class.name
            );
        }
        for lens in &compiled.spec.lenses {
            assert!(
                rom.lens_by_name(&lens.name).is_some(),
                "{}: lens {}",
                f.display(),
                lens.name
            );
        }
        for j in &compiled.spec.joseki {
            assert_eq!(rom.joseki_blob(&j.name), Some(j.bytes.as_slice()));
        }
        let debug = compiled.spec.debug.as_ref().unwrap();
        for (id, p) in debug.patterns.iter().enumerate() {
            assert_eq!(rom.pattern_name(id as u32), Some(p.name.as_str()));
        }
    }
}

fn scan(rom: &Rom<'_>, board: &Board, class: &str, perspective: Colour) -> Vec<Match> {
    let q = Query {
        class: rom.class_by_name(class).unwrap(),
        perspective,
        orientations: Orientations::All,
    };
    let mut slots = [Match::EMPTY; 256];
    let mut out = MatchBuf::new(&mut slots);
    rom.scan(board, &NoHost, &q, &mut Scratch::new(), &mut out);
    assert_eq!(out.dropped(), 0);
    out.as_slice().to_vec()
}

fn moves(ms: &[Match]) -> Vec<(i32, i32, i32)> {
    let mut v: Vec<(i32, i32, i32)> = ms
        .iter()
        .filter_map(|m| match m.result {
            MatchResult::Move { x, y, value, .. } => Some((x, y, value)),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

#[test]
fn compiled_patterns_match_in_every_orientation_once() {
    let src = "
class k { mode all; focus empty; field 3x3; orient all; }
// Asymmetric: a friend stone with a foe stone diagonally beside it.
pattern hane : k {
    diagram {
        X O
        . *
    }
    => * 7;
}
// Fully symmetric: empty point with friend stones on all four sides (an eye).
pattern eye : k {
    diagram {
        ? O ?
        O * O
        ? O ?
    }
    => * 3;
}
";
    let (sources, result) = compile_str("e2e.lens", src, &Options::default());
    let compiled =
        result.unwrap_or_else(|d| panic!("{}", lens_dsl::render_human(&sources, &d, false)));
    let rom = Rom::from_bytes(&compiled.rom).unwrap();

    // White to move: a white stone with a black one beside it. The hane matches at every
    // empty point where some orientation lays (foe, friend, empty) onto the drawn points.
    let board = Board::from_diagram(
        ". . . . . . .
         . . . . . . .
         . . . . . . .
         . . O X . . .
         . . . . . . .
         . . . . . . .
         . . . . . . .",
    )
    .unwrap();
    let got = moves(&scan(&rom, &board, "k", Colour::White));
    // Brute force in the test: for every empty focus and every orientation, check the three
    // drawn points by hand.
    let mut want = Vec::new();
    for y in 0..7 {
        for x in 0..7 {
            if board_state(&board, x, y) != 'E' {
                continue;
            }
            for t in lens_vm::geometry::Orientation::ALL {
                let at = |dx, dy| {
                    let (ox, oy) = t.apply(dx, dy);
                    board_state(&board, x + ox, y + oy)
                };
                if at(-1, -1) == 'B' && at(0, -1) == 'W' && at(-1, 0) == 'E' {
                    want.push((x, y, 7));
                }
            }
        }
    }
    want.sort();
    assert!(!want.is_empty());
    assert_eq!(got, want);

    // The eye: 4 white stones around (3,3); the symmetric pattern is compiled once and
    // reports one match, not eight.
    let eye = Board::from_diagram(
        ". . . . . . .
         . . . . . . .
         . . . O . . .
         . . O . O . .
         . . . O . . .
         . . . . . . .
         . . . . . . .",
    )
    .unwrap();
    let got = moves(&scan(&rom, &eye, "k", Colour::White));
    assert_eq!(
        got.iter().filter(|m| m.2 == 3).collect::<Vec<_>>(),
        vec![&(3, 3, 3)]
    );
    // Seen from black, the same stones are foes: no eye.
    assert!(
        moves(&scan(&rom, &eye, "k", Colour::Black))
            .iter()
            .all(|m| m.2 != 3)
    );
}

fn board_state(b: &Board, x: i32, y: i32) -> char {
    use lens_vm::board::{BoardView, Point};
    match b.point(x, y) {
        Point::Stone(Colour::Black) => 'B',
        Point::Stone(Colour::White) => 'W',
        Point::Empty => 'E',
        Point::Off => 'F',
    }
}
