//! GNU Go constraint forms that need C's typing: int-valued autohelpers in arithmetic, truth
//! values used as numbers, C precedence of `!`, and move sequences up to mkpat's 20 arguments
//! (the ROM's `MAX_ARGS`). Each form is imported from a small database written for this test, compiled,
//! and matched on a board with a host stub, so what is checked is the value the constraint
//! computes, not the text.

use std::cell::RefCell;
use std::collections::BTreeMap;

use lens_compiler::import::gnugo::{Options, PatternOutcome, import_str};
use lens_vm::board::{Board, Colour};
use lens_vm::{HostArg, Match, MatchBuf, MatchResult, Orientations, Query, Rom, Scratch};

/// One pattern per form, all on the line `X O * . .` (labels `a b * c d`), X-anchored (`-b`:
/// the first stone).
const FORMS: &str = "\
Pattern IntSum

XO*..

:8,-

ab*cd

;owl_escape_value(a)+owl_escape_value(b)>0

Pattern TruthSum

XO*..

:8,-

ab*cd

;(owl_eye_size(a)>1)+(owl_eye_size(b)>1)>1

Pattern NotFirst

XO*..

:8,-

ab*cd

;!xlib(c)==1

Pattern NotWin

XO*..

:8,-

ab*cd

;!oplay_attack(*,a)==WIN

Pattern LongSequence

XO*..

:8,-

ab*cd

;oplay_attack(*,c,d,*,c,d,*,c,a)==WIN
";

/// Host stub: each extern by name answers from `values` (default 0) and records its calls.
struct Stub<'r> {
    rom: &'r Rom<'r>,
    values: BTreeMap<&'static str, i32>,
    calls: RefCell<Vec<(String, Vec<HostArg>)>>,
}

impl lens_vm::Host for Stub<'_> {
    fn call(&self, index: u16, args: &[HostArg]) -> i32 {
        let name = self.rom.extern_info(index as usize).0;
        self.calls
            .borrow_mut()
            .push((name.to_string(), args.to_vec()));
        // Externs are declared per arity (`oplay_attack_2`): the stub keys on the GNU Go name.
        self.values
            .iter()
            .find(|(k, _)| name == **k || name.starts_with(&format!("{k}_")))
            .map_or(0, |(_, v)| *v)
    }
}

fn compile() -> (Vec<u8>, String) {
    let out = import_str("forms.db", FORMS, &Options::default());
    let failed: Vec<&PatternOutcome> = out
        .report
        .outcomes
        .iter()
        .filter(|o| matches!(o, PatternOutcome::NotImported { .. }))
        .collect();
    assert!(failed.is_empty(), "{failed:?}\n{}", out.source);
    let (sources, result) =
        lens_compiler::compile_str("forms.lens", &out.source, &Default::default());
    match result {
        Ok(c) => (c.rom, out.source),
        Err(d) => panic!(
            "{}\n{}",
            lens_dsl::render_human(&sources, &d, false),
            out.source
        ),
    }
}

/// The board: X (Black) at (2,4), O (White) at (3,4), (4..=6, 4) empty; White's view.
fn board() -> Board {
    let mut b = Board::new(9).unwrap();
    b.play(Colour::Black, 2, 4).unwrap();
    b.play(Colour::White, 3, 4).unwrap();
    b
}

/// Names of the patterns that match with these extern values, and the stub's calls.
fn matched(
    rom: &Rom<'_>,
    values: &[(&'static str, i32)],
) -> (Vec<String>, Vec<(String, Vec<HostArg>)>) {
    let stub = Stub {
        rom,
        values: values.iter().copied().collect(),
        calls: RefCell::new(Vec::new()),
    };
    let class = rom
        .class_by_name("forms_anchor_x")
        .expect("X-anchored class");
    let q = Query {
        class,
        perspective: Colour::White,
        orientations: Orientations::All,
    };
    let mut slots = vec![Match::EMPTY; 64];
    let mut out = MatchBuf::new(&mut slots);
    rom.scan(&board(), &stub, &q, &mut Scratch::new(), &mut out);
    let mut names: Vec<String> = out
        .as_slice()
        .iter()
        .map(|m| {
            assert!(matches!(m.result, MatchResult::Move { x: 4, y: 4, .. }));
            rom.pattern_name(m.pattern).unwrap().to_string()
        })
        .collect();
    names.sort();
    (names, stub.calls.into_inner())
}

#[test]
fn int_valued_autohelpers_add_up() {
    let (bytes, source) = compile();
    assert!(
        source.contains("extern owl_escape_value(point): int cost 1;"),
        "{source}"
    );
    let rom = Rom::from_bytes(&bytes).unwrap();
    let has = |values: &[(&'static str, i32)], name: &str| {
        matched(&rom, values).0.iter().any(|n| n == name)
    };
    // owl_escape_value(a) + owl_escape_value(b) > 0: a number, not a condition.
    assert!(!has(&[], "IntSum"));
    assert!(has(&[("owl_escape_value", 1)], "IntSum"));
    assert!(
        !has(&[("owl_escape_value", -1)], "IntSum"),
        "-1 + -1 is not > 0"
    );
    // (owl_eye_size(a) > 1) + (owl_eye_size(b) > 1) > 1: both comparisons hold.
    assert!(
        source.contains("int(owl_eye_size(*) > 1) + int(owl_eye_size(b) > 1) > 1"),
        "{source}"
    );
    assert!(has(&[("owl_eye_size", 2)], "TruthSum"));
    assert!(!has(&[("owl_eye_size", 1)], "TruthSum"));
}

#[test]
fn c_precedence_of_not() {
    let (bytes, _) = compile();
    let rom = Rom::from_bytes(&bytes).unwrap();
    let has = |values: &[(&'static str, i32)], name: &str| {
        matched(&rom, values).0.iter().any(|n| n == name)
    };
    // `!xlib(c)==1` is `(!xlib(c)) == 1`, i.e. xlib(c) == 0; `!(xlib(c) == 1)` would hold at 2.
    assert!(has(&[("xlib", 0)], "NotFirst"));
    assert!(!has(&[("xlib", 2)], "NotFirst"));
    // `!oplay_attack(*,a)==WIN` is `(!x) == 5`: never true, whatever the engine says
    // (`!(x == 5)` would hold at 0).
    for v in [0, 1, 5] {
        assert!(!has(&[("oplay_attack", v)], "NotWin"), "{v}");
    }
}

#[test]
fn long_move_sequences_pass_every_move() {
    let (bytes, source) = compile();
    // 9 arguments, passed in GNU Go's order (the anchor `a` is the Lens focus `*`, the move the
    // label `m`).
    assert!(
        source.contains("oplay_attack_9(m, c, d, m, c, d, m, c, *) == 5"),
        "{source}"
    );
    let rom = Rom::from_bytes(&bytes).unwrap();
    let (names, calls) = matched(&rom, &[("oplay_attack", 5)]);
    assert!(names.iter().any(|n| n == "LongSequence"), "{names:?}");
    let (_, args) = calls
        .iter()
        .find(|(n, _)| n == "oplay_attack_9")
        .expect("the sequence extern was called");
    let (a, mv, c, d) = (
        HostArg::Point(2, 4),
        HostArg::Point(4, 4),
        HostArg::Point(5, 4),
        HostArg::Point(6, 4),
    );
    assert_eq!(args, &vec![mv, c, d, mv, c, d, mv, c, a]);
}

/// mkpat takes at most 20 arguments per autohelper call (`MAXPARAMS`), and so does the ROM
/// (`MAX_ARGS`): a 20-move sequence compiles, loads and reaches the host whole; 21 is reported.
#[test]
fn twenty_argument_sequence_reaches_the_host() {
    let seq = |n: usize| {
        let moves: Vec<&str> = ["*", "c", "d"]
            .iter()
            .copied()
            .cycle()
            .take(n - 1)
            .collect();
        format!(
            "Pattern Seq{n}\n\nXO*..\n\n:8,-\n\nab*cd\n\n;oplay_attack({},a)\n\n",
            moves.join(",")
        )
    };
    let db = format!("{}{}", seq(20), seq(21));
    let out = import_str("seq.db", &db, &Options::default());
    let reasons: Vec<&str> = out
        .report
        .outcomes
        .iter()
        .filter_map(|o| match o {
            PatternOutcome::NotImported { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(
        reasons[0].contains("21 arguments") && reasons[0].contains("at most 20"),
        "{}",
        reasons[0]
    );
    let (sources, result) =
        lens_compiler::compile_str("seq.lens", &out.source, &Default::default());
    let bytes = match result {
        Ok(c) => c.rom,
        Err(d) => panic!("{}", lens_dsl::render_human(&sources, &d, false)),
    };
    let rom = Rom::from_bytes(&bytes).unwrap();
    assert_eq!(rom.extern_info(0).1, 20);
    let stub = Stub {
        rom: &rom,
        values: [("oplay_attack", 5)].into_iter().collect(),
        calls: RefCell::new(Vec::new()),
    };
    let q = Query {
        class: rom.class_by_name("seq_anchor_x").unwrap(),
        perspective: Colour::White,
        orientations: Orientations::All,
    };
    let mut slots = vec![Match::EMPTY; 16];
    let mut buf = MatchBuf::new(&mut slots);
    rom.scan(&board(), &stub, &q, &mut Scratch::new(), &mut buf);
    assert_eq!(buf.as_slice().len(), 1);
    let calls = stub.calls.into_inner();
    let (mv, c, d) = (
        HostArg::Point(4, 4),
        HostArg::Point(5, 4),
        HostArg::Point(6, 4),
    );
    let mut expected: Vec<HostArg> = [mv, c, d].iter().copied().cycle().take(19).collect();
    expected.push(HostArg::Point(2, 4));
    assert_eq!(calls, vec![("oplay_attack_20".to_string(), expected)]);
}

/// The example under `-D -m -b`: `?O? / X*X / .Y.` is symmetric about its `Y` and its
/// move, but its anchor is the left X (d = 99 against 101 for the others). GNU Go reports the
/// placement twice, anchored on each X; Lens, focused on the anchor, does too. Under `-b` the
/// `Y` anchors and the mirror image is a true duplicate: one match.
#[test]
fn centre_anchored_symmetric_pattern_reports_each_anchor() {
    const DB: &str = "Pattern Sym\n\n?O?\nX*X\n.Y.\n\n:8,-\n";
    let mut b = Board::new(9).unwrap();
    b.play(Colour::White, 4, 3).unwrap();
    for (x, y) in [(3, 4), (5, 4), (4, 5)] {
        b.play(Colour::Black, x, y).unwrap();
    }
    let anchors = |opts: &str| {
        let out = import_str(
            "sym.db",
            DB,
            &Options {
                mkpat: Some(lens_compiler::import::gnugo::Mkpat::parse(opts).unwrap()),
                ..Default::default()
            },
        );
        let (_, result) = lens_compiler::compile_str("sym.lens", &out.source, &Default::default());
        let rom_bytes = result.unwrap().rom;
        let rom = Rom::from_bytes(&rom_bytes).unwrap();
        let class = rom.class_by_name("sym_anchor_x").unwrap();
        let q = Query {
            class,
            perspective: Colour::White,
            orientations: Orientations::All,
        };
        let mut slots = vec![Match::EMPTY; 16];
        let mut buf = MatchBuf::new(&mut slots);
        rom.scan(&b, &lens_vm::NoHost, &q, &mut Scratch::new(), &mut buf);
        let mut v: Vec<((i32, i32), MatchResult)> =
            buf.as_slice().iter().map(|m| (m.focus, m.result)).collect();
        v.sort_by_key(|(f, _)| *f);
        v
    };
    let centre = anchors("-D -m -b");
    assert_eq!(
        centre.iter().map(|(f, _)| *f).collect::<Vec<_>>(),
        vec![(3, 4), (5, 4)]
    );
    assert!(
        centre
            .iter()
            .all(|(_, r)| matches!(r, MatchResult::Move { x: 4, y: 4, .. }))
    );
    let marked = anchors("-b");
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0].0, (4, 5));
}

/// The held-back databases' shape, written by hand: an owl-style file (GNU Go's name selects
/// `-D -m -b`), its directives, in-pattern values, a `Q` mark that does not anchor under `-m`,
/// and every constraint form the issue lists together in three patterns. All import with
/// their constraints and compile.
#[test]
fn owl_style_database_imports_whole() {
    const OWL: &str = "\
# hand-written, in the style of GNU Go's owl databases
attribute_map owl_attack
goal_elements none
callback_data !

Pattern OA1

?XO?
X*.O
?XO?

:8,s,value(75)

?Bd?
A*ae
?Cf?

;owl_escape_value(a)+owl_escape_value(*)>0 && owl_mineye(A)<owl_maxeye(B)
;&& status(C)!=DEAD && (owl_eye_size(a)>1)+(owl_proper_eye(*)>0)>=1


Pattern OA2

.XXO
X*.O
----

:8,-,value(60)

.BcO
A*aO
----

;!oplay_attack(*,a)==WIN || oplay_attack(*,a,B,*,a,B,*,a,c)


Pattern OA3
# Q marks the O, but under -m the X (nearer the middle: 99 against 199) anchors.

Q...
.X*.

:8,-,value(40)

Q.b.
.A*c

;x_alive_somewhere(A,b,c,A,b,c,A,b,c,A) && value>30
;&& (owl_goal_dragon(A) ? 2 : lib(A)) + lib(A) > 2 && effective_size(A) > 4.5
";
    let out = import_str("owl_attackpats.db", OWL, &Options::default());
    let text = out.report.to_text();
    assert!(text.contains("-D -m -b"), "{text}");
    assert_eq!(out.report.outcomes.len(), 3, "{text}");
    assert_eq!(out.report.not_imported(), 0, "{text}");
    let s = &out.source;
    assert!(s.contains("pattern OA3 : owl_attackpats_anchor_x"), "{s}");
    assert!(s.contains("oplay_attack_9("), "{s}");
    assert!(s.contains("x_alive_somewhere_10("), "{s}");
    assert!(s.contains("effective_size_gt_milli("), "{s}");
    assert!(!s.contains("global"), "{s}");
    let (sources, result) = lens_compiler::compile_str("owl.lens", s, &Default::default());
    if let Err(d) = result {
        panic!("{}\n{s}", lens_dsl::render_human(&sources, &d, false));
    }
}
