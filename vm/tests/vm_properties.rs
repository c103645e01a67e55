//! Properties: rotating/mirroring board and focus transforms the matches; swapping colours and
//! perspective gives the same matches; lens tree agrees with the naive field check.

use lens_test_support::fixtures::*;
use lens_vm::geometry::Orientation;
use lens_vm::spec::{ClassNode, ClassSpec, Mode, OrientPolicy, RomSpec};
use lens_vm::*;

fn image(rng: &mut Rng) -> Vec<u8> {
    let mut classes = Vec::new();
    let mut id = 0;
    for (r, mode) in [
        (1i16, Mode::All),
        (2, Mode::All),
        (3, Mode::Best),
        (4, Mode::First),
    ] {
        let mut nodes = Vec::new();
        for _ in 0..60 {
            let mut p = random_pattern(rng, id, r, true);
            id += 1;
            // every orientation stored: matches map one to one under a board transform
            p.orientations = (0..8).collect();
            p.covers = (0..8).map(|o| 1u8 << o).collect();
            nodes.push(ClassNode::Pattern(p));
        }
        let w = (2 * r + 1) as u8;
        classes.push(ClassSpec {
            name: format!("r{r}"),
            mode,
            focus: F | X | E,
            width: w,
            height: w,
            orient: OrientPolicy::All,
            default_value: None,
            nodes,
        });
    }
    // With the `sliced` section: the tests run both kernels (`without_sliced` = masks).
    rom::write_with(
        &RomSpec {
            classes,
            ..RomSpec::default()
        },
        &rom::WriteOptions::COMPILER,
    )
}

fn all_matches(rom: &Rom<'_>, b: &TestBoard, class: u32, persp: Colour) -> Vec<Match> {
    let mut slots = vec![Match::EMPTY; 20000];
    let mut out = MatchBuf::new(&mut slots);
    let q = Query {
        class: ClassId(class),
        perspective: persp,
        orientations: Orientations::All,
    };
    rom.scan(b, &NoHost, &q, &mut Scratch::new(), &mut out);
    assert_eq!(out.dropped(), 0);
    out.as_slice().to_vec()
}

fn map_match(m: &Match, t: Orientation, c: i32) -> Match {
    let p = |x: i32, y: i32| {
        let (a, b) = t.apply(x - c, y - c);
        (a + c, b + c)
    };
    let result = match m.result {
        MatchResult::Move {
            x,
            y,
            value,
            bits,
            sequence,
        } => {
            let (x, y) = p(x, y);
            MatchResult::Move {
                x,
                y,
                value,
                bits,
                sequence,
            }
        }
        MatchResult::Reject { x, y } => {
            let (x, y) = p(x, y);
            MatchResult::Reject { x, y }
        }
        r => r,
    };
    Match {
        focus: p(m.focus.0, m.focus.1),
        orientation: t.compose(Orientation::new(m.orientation).unwrap()).index(),
        result,
        ..*m
    }
}

fn key(m: &Match) -> String {
    format!("{m:?}")
}

#[test]
fn board_transforms_transform_matches() {
    let mut rng = Rng(0xfeed);
    let bytes = image(&mut rng);
    let sliced = Rom::from_bytes(&bytes).unwrap();
    assert!(sliced.has_sliced());
    let mut total = 0;
    for (round, rom) in (0..12).zip([sliced, sliced.without_sliced()].iter().cycle()) {
        let size = [7u8, 9, 13][round % 3];
        let c = (size as i32 - 1) / 2;
        let b = TestBoard::random(&mut rng, size, 0.45);
        for class in [0u32, 1] {
            let base = all_matches(rom, &b, class, Colour::Black);
            total += base.len();
            for t in Orientation::ALL {
                let tb = b.transformed(t);
                let mut got: Vec<String> = all_matches(rom, &tb, class, Colour::Black)
                    .iter()
                    .map(key)
                    .collect();
                let mut want: Vec<String> = base.iter().map(|m| key(&map_match(m, t, c))).collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "orientation {t:?}, class {class}, size {size}");
            }
        }
    }
    assert!(total > 50, "too few matches to mean anything ({total})");
}

#[test]
fn swapping_colours_and_perspective_changes_nothing() {
    let mut rng = Rng(0xc0105);
    let bytes = image(&mut rng);
    let sliced = Rom::from_bytes(&bytes).unwrap();
    let mut total = 0;
    for rom in [sliced, sliced.without_sliced()].iter().cycle().take(12) {
        let b = TestBoard::random(&mut rng, 9, 0.45);
        let s = b.swapped();
        for class in 0..4 {
            let a = all_matches(rom, &b, class, Colour::Black);
            assert_eq!(a, all_matches(rom, &s, class, Colour::White));
            assert_eq!(
                all_matches(rom, &b, class, Colour::White),
                all_matches(rom, &s, class, Colour::Black)
            );
            total += a.len();
        }
    }
    assert!(total > 50, "{total}");
}

#[test]
fn lens_tree_agrees_with_naive_fields_and_finds_the_bridge() {
    let bytes = rom::write(&sample_spec(false));
    let rom = Rom::from_bytes(&bytes).unwrap();
    let lens = rom.lens_by_name("bridge").unwrap();
    let b = TestBoard::parse(
        "
        . . . . .
        . O . . .
        . . . . .
        . O X . .
        . X O . .",
    );
    let mut s1 = [Match::EMPTY; 16];
    let mut out = MatchBuf::new(&mut s1);
    // (1,1)-(1,3): the middle (1,2) is empty -> field 0 suggests it, in orientations that map
    // (0,2) onto (0,2): identity and the east-west mirror.
    rom.eval_lens(
        lens,
        &[(1, 1), (1, 3)],
        Colour::White,
        &b,
        &NoHost,
        &mut out,
    );
    let got: Vec<(u32, u8, MatchResult)> = out
        .as_slice()
        .iter()
        .map(|m| (m.pattern, m.orientation, m.result))
        .collect();
    let mv = MatchResult::Move {
        x: 1,
        y: 2,
        value: 3,
        bits: 0,
        sequence: None,
    };
    assert_eq!(got, [(0, 0, mv), (0, 4, mv)]);
    // Wrong endpoint count or geometry: nothing.
    let mut out = MatchBuf::new(&mut s1);
    assert_eq!(
        rom.eval_lens(
            lens,
            &[(1, 1), (2, 2)],
            Colour::White,
            &b,
            &NoHost,
            &mut out
        ),
        0
    );
    // Random boards: tree == naive.
    let mut rng = Rng(3);
    for _ in 0..50 {
        let b = TestBoard::random(&mut rng, 9, 0.5);
        for y in 0..7 {
            for x in 0..9 {
                for (ends, persp) in [
                    ([(x, y), (x, y + 2)], Colour::Black),
                    ([(x, y + 2), (x, y)], Colour::White),
                ] {
                    let mut s2 = [Match::EMPTY; 16];
                    let mut s3 = [Match::EMPTY; 16];
                    let mut a = MatchBuf::new(&mut s2);
                    let mut r = MatchBuf::new(&mut s3);
                    rom.eval_lens(lens, &ends, persp, &b, &NoHost, &mut a);
                    reference::eval_lens(&rom, lens, &ends, persp, &b, &NoHost, &mut r);
                    assert_eq!(a.as_slice(), r.as_slice());
                }
            }
        }
    }
}

/// A host that answers from tables, to check that tests reach the engine with board
/// coordinates and absolute colours.
struct Recorder;
impl Host for Recorder {
    fn global(&self, i: u16) -> i32 {
        if i == 0 { -1 } else { 0 }
    }
    fn call(&self, _i: u16, args: &[HostArg]) -> i32 {
        // "safe" is true only for the point north of (2,2) and white as the colour
        (args
            == [
                HostArg::Point(2, 1),
                HostArg::Int(3),
                HostArg::Colour(Colour::White),
            ]) as i32
    }
}

#[test]
fn host_globals_and_externs_gate_tests() {
    let bytes = rom::write(&sample_spec(false));
    let rom = Rom::from_bytes(&bytes).unwrap();
    let b = TestBoard::parse(
        "
        . . . . .
        . O X . .
        . . . . .
        . . . . .
        . . . . .",
    );
    let q = Query {
        class: ClassId(0),
        perspective: Colour::Black,
        orientations: Orientations::Set(1),
    };
    let run = |h: &dyn Fn(&mut MatchBuf<'_>)| {
        let mut s = [Match::EMPTY; 16];
        let mut out = MatchBuf::new(&mut s);
        h(&mut out);
        out.as_slice().iter().filter(|m| m.pattern == 0).count()
    };
    // NoHost: global 0 >= 0 holds, extern returns 0 so !safe holds -> the hane matches.
    assert_eq!(
        run(&|o| {
            rom.match_at(&b, &NoHost, &q, 2, 2, &mut Scratch::new(), o);
        }),
        1
    );
    // Recorder: global -1 fails the `phase >= 0` test.
    assert_eq!(
        run(&|o| {
            rom.match_at(&b, &Recorder, &q, 2, 2, &mut Scratch::new(), o);
        }),
        0
    );
}
