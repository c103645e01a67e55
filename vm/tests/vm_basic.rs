//! End-to-end: write a hand-built RomSpec, load it, match it on small positions.

use lens_test_support::fixtures::*;
use lens_vm::spec::{ClassNode, Mode, Offset, PatternSpec, ResultSpec, RomSpec};
use lens_vm::*;

fn hane_spec() -> RomSpec {
    // X O
    // . *     => * 20 ; focus empty
    let hane = PatternSpec {
        priority: 5,
        ..pattern(
            0,
            &[(-1, -1, X), (0, -1, F), (-1, 0, E)],
            Some(ResultSpec::Move {
                at: Offset::FOCUS,
                value: 20,
                bits: 1,
                sequence: None,
            }),
        )
    };
    RomSpec {
        toolchain: "test".into(),
        source_hash: 42,
        classes: vec![class("hane", Mode::All, 3, vec![ClassNode::Pattern(hane)])],
        debug: Some(debug_for(1)),
        ..RomSpec::default()
    }
}

fn run(rom: &Rom<'_>, b: &TestBoard, q: &Query, x: i32, y: i32) -> Vec<Match> {
    let mut slots = [Match::EMPTY; 64];
    let mut out = MatchBuf::new(&mut slots);
    rom.match_at(b, &NoHost, q, x, y, &mut Scratch::new(), &mut out);
    out.as_slice().to_vec()
}

#[test]
fn hane_matches_in_the_drawn_and_a_mirrored_orientation() {
    let bytes = rom::write(&hane_spec());
    let rom = Rom::from_bytes(&bytes).unwrap();
    let class = rom.class_by_name("hane").unwrap();
    assert_eq!(rom.pattern_name(0), Some("p0"));
    assert_eq!(rom.source_hash(), 42);
    let b = TestBoard::parse(
        "
        . . . . .
        . O X . .
        . . . . .
        . . . . .
        . . . . .",
    );
    // White to play at (2,2): friend O at (1,1)? No: from white's view O=friend at (1,1), X=foe at (2,1).
    let q = Query {
        class,
        perspective: Colour::White,
        orientations: Orientations::All,
    };
    let m = run(&rom, &b, &q, 2, 2);
    // drawn: foe up-left, friend up, empty left. At (2,2): up = (2,1) is X (foe for white) -> no.
    // mirrored (orientation 4): foe up-right (3,1) empty -> no. Black's view: friend up (2,1)=X ok,
    // foe up-left (1,1)=O ok, empty left (1,2) ok.
    assert!(m.is_empty(), "{m:?}");
    let q = Query {
        perspective: Colour::Black,
        ..q
    };
    let m = run(&rom, &b, &q, 2, 2);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].orientation, 0);
    assert_eq!(
        m[0].result,
        MatchResult::Move {
            x: 2,
            y: 2,
            value: 20,
            bits: 1,
            sequence: None
        }
    );
    assert_eq!(m[0].priority, 5);
    // White's view at (1,2): mirrored: friend up (1,1) O, foe up-right (2,1) X, empty right (2,2).
    let q = Query {
        perspective: Colour::White,
        ..q
    };
    let m = run(&rom, &b, &q, 1, 2);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].orientation, 4);
    // Up toward (1,1) from (1,2) is north: orientations 0 and 4 only -> still found;
    // toward (0,2) (west) excludes it.
    let up = Query {
        orientations: Orientations::Up { toward: (1, 1) },
        ..q
    };
    assert_eq!(run(&rom, &b, &up, 1, 2).len(), 1);
    let west = Query {
        orientations: Orientations::Up { toward: (0, 2) },
        ..q
    };
    assert_eq!(run(&rom, &b, &west, 1, 2).len(), 0);
    // Occupied focus: nothing.
    assert!(run(&rom, &b, &q, 1, 1).is_empty());
    // The reference agrees.
    let mut slots = [Match::EMPTY; 8];
    let mut out = MatchBuf::new(&mut slots);
    reference::match_at(&rom, &b, &NoHost, &q, 1, 2, &mut Scratch::new(), &mut out);
    assert_eq!(out.as_slice(), &run(&rom, &b, &q, 1, 2)[..]);
}

#[test]
fn edge_cells_use_the_thermometer() {
    // A first-line pattern: off-board south of the focus.
    let p = pattern(
        0,
        &[(0, 1, OFF), (0, -1, E)],
        Some(ResultSpec::Value { value: 7, bits: 0 }),
    );
    let spec = RomSpec {
        classes: vec![class(
            "edge",
            Mode::All,
            3,
            vec![ClassNode::Pattern(PatternSpec {
                orientations: vec![0],
                covers: vec![1],
                ..p
            })],
        )],
        ..RomSpec::default()
    };
    let bytes = rom::write(&spec);
    let rom = Rom::from_bytes(&bytes).unwrap();
    assert!(rom.is_stripped());
    let b = TestBoard::empty(9);
    let q = Query {
        class: ClassId(0),
        perspective: Colour::Black,
        orientations: Orientations::All,
    };
    assert_eq!(run(&rom, &b, &q, 4, 8).len(), 1);
    assert_eq!(run(&rom, &b, &q, 4, 7).len(), 0);
    assert_eq!(run(&rom, &b, &q, 0, 8).len(), 1);
}

/// A single match call needs only a 17-byte `FocusScratch`, not the scans' 210 KiB `Scratch`:
/// every class of the sample image at every point of the sample boards gives the same matches
/// with either.
#[test]
fn match_at_needs_only_a_focus_scratch() {
    assert_eq!(std::mem::size_of::<FocusScratch>(), 17);
    assert!(std::mem::size_of::<Scratch>() > 200 * 1024);
    let bytes = rom::write(&sample_spec(true));
    let rom = Rom::from_bytes(&bytes).unwrap();
    let (mut a, mut b) = (vec![Match::EMPTY; 256], vec![Match::EMPTY; 256]);
    let mut big = Box::new(Scratch::new());
    let mut small = FocusScratch::new();
    let mut matches = 0;
    for board in sample_boards() {
        for c in 0..rom.class_count() {
            let q = Query {
                class: ClassId(c as u32),
                perspective: Colour::White,
                orientations: Orientations::All,
            };
            for y in 0..board.size as i32 {
                for x in 0..board.size as i32 {
                    let mut with_big = MatchBuf::new(&mut a);
                    let mut with_small = MatchBuf::new(&mut b);
                    rom.match_at(&board, &NoHost, &q, x, y, &mut big, &mut with_big);
                    rom.match_at(&board, &NoHost, &q, x, y, &mut small, &mut with_small);
                    assert_eq!(with_big.as_slice(), with_small.as_slice());
                    matches += with_big.len();
                }
            }
        }
    }
    assert!(matches > 0);
}
