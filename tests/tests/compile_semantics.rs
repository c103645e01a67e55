//! What the compiler puts in the `RomSpec`: orientations, order, globs, tests, results,
//! sequences and lens trees, checked through the public API.

use lens_compiler::{Compiled, Options, compile_str};
use lens_vm::spec::{
    ClassNode, ClassSpec, Mode, Offset, PatternSpec, ResultSpec, TestExpr, TreeNode,
};

fn compile(src: &str) -> Compiled {
    let (sources, result) = compile_str("t.lens", src, &Options::default());
    match result {
        Ok(c) => c,
        Err(d) => panic!("{}", lens_dsl::render_human(&sources, &d, false)),
    }
}

fn class<'a>(c: &'a Compiled, name: &str) -> &'a ClassSpec {
    c.spec
        .classes
        .iter()
        .find(|k| k.name == name)
        .expect("class")
}

fn patterns(nodes: &[ClassNode]) -> Vec<&PatternSpec> {
    nodes
        .iter()
        .flat_map(|n| match n {
            ClassNode::Pattern(p) => vec![p],
            ClassNode::Glob { members, .. } => patterns(members),
        })
        .collect()
}

fn name(c: &Compiled, p: &PatternSpec) -> String {
    c.spec.debug.as_ref().unwrap().patterns[p.id as usize]
        .name
        .clone()
}

const CLASS: &str = "class k { mode all; focus empty; field 5x5; orient all; }\n";

#[test]
fn symmetric_duplicates_are_dropped_and_covered() {
    let c = compile(&format!(
        "{CLASS}
pattern plus : k {{ diagram {{
    . O .
    O * O
    . O .
}} => * 1; }}
pattern mirror : k {{ diagram {{
    X . X
    . * .
}} => * 1; }}
pattern lopsided : k {{ diagram {{
    X O
    . *
}} => * 1; }}
"
    ));
    let ps = patterns(&class(&c, "k").nodes);
    let by = |n: &str| *ps.iter().find(|p| name(&c, p) == n).unwrap();
    assert_eq!(by("plus").orientations, vec![0]);
    assert_eq!(by("plus").covers, vec![0xff]);
    assert_eq!(by("mirror").orientations.len(), 4);
    assert_eq!(by("lopsided").orientations, (0..8).collect::<Vec<u8>>());
    for p in &ps {
        // Every allowed orientation is covered exactly once, by a variant listed in it.
        assert_eq!(p.covers.iter().fold(0u8, |a, c| a | c), 0xff);
        assert_eq!(p.covers.iter().map(|c| c.count_ones()).sum::<u32>(), 8);
        for (o, cov) in p.orientations.iter().zip(&p.covers) {
            assert!(cov & (1 << o) != 0);
        }
    }
}

#[test]
fn orient_identity_and_orientations_items_are_honoured() {
    let c = compile(
        "class i { focus empty; field 3x3; orient identity; }
pattern a : i { diagram { X O
. * } => * 1; }
pattern b : i { orientations 0 4; diagram { X O
. * } => * 1; }
",
    );
    let ps = patterns(&class(&c, "i").nodes);
    assert_eq!(ps[0].orientations, vec![0]);
    assert_eq!(ps[1].orientations, vec![0, 4]);
}

#[test]
fn order_is_priority_then_selectivity_then_source() {
    let c = compile(&format!(
        "{CLASS}
pattern loose : k {{ diagram {{ o * }} => * 1; }}
pattern tight : k {{ diagram {{ X * O }} => * 1; }}
pattern urgent : k {{ priority 9; diagram {{ ? * }} => * 1; }}
pattern loose2 : k {{ diagram {{ o * }} => * 1; }}
"
    ));
    let names: Vec<String> = patterns(&class(&c, "k").nodes)
        .iter()
        .map(|p| name(&c, p))
        .collect();
    assert_eq!(names, vec!["urgent", "tight", "loose", "loose2"]);
}

#[test]
fn first_mode_keeps_source_order_within_a_priority() {
    let c = compile(
        "class f { mode first; focus empty; field 3x3; }
pattern loose : f { diagram { o * } => * 1; }
pattern tight : f { diagram { X * O } => * 1; }
",
    );
    let k = class(&c, "f");
    assert_eq!(k.mode, Mode::First);
    let names: Vec<String> = patterns(&k.nodes).iter().map(|p| name(&c, p)).collect();
    assert_eq!(names, vec!["loose", "tight"]);
}

#[test]
fn derived_glob_header_holds_what_all_members_share() {
    let c = compile(&format!(
        "{CLASS}
glob g : k {{
    pattern a {{ diagram {{
        O X
        . *
    }} => * 1; }}
    pattern b {{ diagram {{
        O O
        X *
    }} => * 2; }}
}}
"
    ));
    let k = class(&c, "k");
    let ClassNode::Glob { header, members } = &k.nodes[0] else {
        panic!("glob expected")
    };
    assert_eq!(members.len(), 2);
    assert!(header.result.is_none());
    let cells: Vec<(Offset, u8)> = header.cells.iter().map(|c| (c.at, c.allowed)).collect();
    // (-1,-1) friend in both; (0,-1) foe|friend; (-1,0) empty|foe.
    let mut want = vec![
        (Offset::new(-1, -1), 1),
        (Offset::new(0, -1), 3),
        (Offset::new(-1, 0), 6),
    ];
    want.sort();
    let mut got = cells.clone();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(
        c.spec.debug.as_ref().unwrap().patterns[header.id as usize].name,
        "g.header"
    );
}

#[test]
fn tests_are_split_and_sorted_cheapest_first() {
    let c = compile(&format!(
        "{CLASS}
extern slow(point) cost 50;
global phase;
pattern p : k {{
    diagram {{ X a * }}
    where slow(a) && dist(*, foe) < 3 && line(*) > 1;
    where phase > 2;
    => * 1;
}}
"
    ));
    let p = patterns(&class(&c, "k").nodes)[0];
    let costs: Vec<u32> = p.tests.iter().map(|t| t.cost).collect();
    assert_eq!(costs.len(), 4);
    assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
    assert!(matches!(
        p.tests.last().unwrap().expr,
        TestExpr::Extern { index: 0, .. }
    ));
    assert_eq!(c.spec.externs[0].cost, 50);
    assert_eq!(c.spec.globals, vec!["phase".to_string()]);
    assert!(
        p.tests
            .iter()
            .any(|t| matches!(t.expr, TestExpr::Bin(_, ref g, _) if **g == TestExpr::Global(0)))
    );
}

#[test]
fn results_and_sequences_resolve_to_offsets() {
    let c = compile(&format!(
        "{CLASS}
pattern p : k {{
    diagram {{
        X a .
        b * c
    }}
    sequence s {{ a b ( c | * pass ) }}
    => a 7 bits 3 seq s;
}}
pattern r : k {{ diagram {{ X d * }} => reject d; }}
"
    ));
    let ps = patterns(&class(&c, "k").nodes);
    let p = ps.iter().find(|p| name(&c, p) == "p").unwrap();
    assert_eq!(
        p.result,
        Some(ResultSpec::Move {
            at: Offset::new(0, -1),
            value: 7,
            bits: 3,
            sequence: Some(0)
        })
    );
    let depths: Vec<(Option<Offset>, u16)> = c.spec.sequences[0]
        .nodes
        .iter()
        .map(|n| (n.at, n.depth))
        .collect();
    assert_eq!(
        depths,
        vec![
            (Some(Offset::new(0, -1)), 0),
            (Some(Offset::new(-1, 0)), 1),
            (Some(Offset::new(1, 0)), 2),
            (Some(Offset::FOCUS), 2),
            (None, 3),
        ]
    );
    let r = ps.iter().find(|p| name(&c, p) == "r").unwrap();
    assert_eq!(
        r.result,
        Some(ResultSpec::Reject {
            at: Offset::new(-1, 0)
        })
    );
}

#[test]
fn focus_is_stored_only_when_narrower_than_the_class() {
    let c = compile(
        "class a { focus any; field 3x3; }
pattern wide : a { diagram { X * } => value 1; }
pattern narrow : a { diagram { X Q } legend { Q = friend, focus; } => value 2; }
",
    );
    let ps = patterns(&class(&c, "a").nodes);
    let focus_of = |n: &str| {
        ps.iter()
            .find(|p| name(&c, p) == n)
            .unwrap()
            .cells
            .iter()
            .find(|c| c.at == Offset::FOCUS)
            .map(|c| c.allowed)
    };
    assert_eq!(focus_of("wide"), None);
    assert_eq!(focus_of("narrow"), Some(1));
}

#[test]
fn seed_lens_compiles_to_a_tree_that_selects_the_right_fields() {
    let c = compile(
        "lens 2 diagonal_defence(d3, c4) {
    field { d4 empty; c3 empty } => c3 5;
    field { d4 foe; c3 empty } => c3 33;
    field { d4 foe; libs(d4) > 4; c3 empty } => c3 29;
}",
    );
    let l = &c.spec.lenses[0];
    assert_eq!(l.lens_type, 2);
    assert_eq!(l.endpoints, vec![Offset::FOCUS, Offset::new(-1, -1)]);
    assert_eq!(l.fields[2].tests.len(), 1);
    assert_eq!(
        l.fields[1].result,
        ResultSpec::Move {
            at: Offset::new(-1, 0),
            value: 33,
            bits: 0,
            sequence: None
        }
    );
    // Walk the tree: d4 (0,-1) foe, c3 (-1,0) empty -> fields 1 and 2.
    let state = |o: Offset| -> usize {
        // d4 is field 1; c3, and every other point, field 2.
        if o == Offset::new(0, -1) { 1 } else { 2 }
    };
    let mut i = 0usize;
    let leaf = loop {
        match &l.tree[i] {
            TreeNode::Branch { at, children } => i = children[state(*at)] as usize,
            TreeNode::Leaf { fields } => break fields.clone(),
        }
    };
    assert_eq!(leaf, vec![1, 2]);
}

#[test]
fn strip_drops_debug_info_only() {
    let src = format!("{CLASS}\npattern p : k {{ diagram {{ X * }} => * 1; }}\n");
    let full = compile(&src);
    let (_, stripped) = compile_str(
        "t.lens",
        &src,
        &Options {
            strip: true,
            ..Options::default()
        },
    );
    let stripped = stripped.unwrap();
    assert!(full.spec.debug.is_some());
    assert!(stripped.spec.debug.is_none());
    assert_eq!(full.spec.classes, stripped.spec.classes);
    assert!(stripped.rom.len() < full.rom.len());
}

#[test]
fn joseki_blocks_become_encoded_dags() {
    let c = compile("joseki hoshi { d4 ( c6:urgent f3 | e3:trick tenuki ) }\njoseki other { c4 }");
    let names: Vec<&str> = c.spec.joseki.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, vec!["hoshi", "other"]);
    let tree = lens_joseki::decode(&c.spec.joseki[0].bytes).expect("a valid blob");
    // d4, c6, f3, e3, tenuki: five moves in two lines sharing d4.
    assert_eq!(tree.tree_moves(), 5);
    let root = tree.vertex(0);
    assert_eq!(root.edges.len(), 1);
    let first = root.edges[0].step.as_move().unwrap();
    assert_eq!(first.point, lens_joseki::Point::at(4, 4));
    assert_eq!(first.colour, lens_joseki::Rel::Same);
    let second: Vec<(lens_joseki::Point, lens_joseki::MoveType, lens_joseki::Rel)> = tree
        .vertex(root.edges[0].to)
        .edges
        .iter()
        .map(|e| {
            let m = e.step.as_move().unwrap();
            (m.point, m.kind, m.colour)
        })
        .collect();
    assert!(second.contains(&(
        lens_joseki::Point::at(3, 6),
        lens_joseki::MoveType::Urgent,
        lens_joseki::Rel::Opposite
    )));
    assert!(second.contains(&(
        lens_joseki::Point::at(5, 3),
        lens_joseki::MoveType::Trick,
        lens_joseki::Rel::Opposite
    )));
    // The ROM carries the blob under its name.
    let rom = lens_vm::Rom::from_bytes(&c.rom).expect("loads");
    assert_eq!(
        rom.joseki_blob("hoshi"),
        Some(c.spec.joseki[0].bytes.as_slice())
    );
}

/// One limit for the field size, the ROM format's: the front end (`lensc check`), lowering and
/// the writer agree, so a field `check` accepts compiles, and a larger one is refused by both.
#[test]
fn the_field_limit_is_the_formats_everywhere() {
    let max = lens_vm::rom::MAX_FIELD;
    let src = |n: usize| {
        format!(
            "class wide {{ mode all; focus empty; field {n}x{n}; }}\n\
             pattern far : wide {{ diagram {{ * m }} => m 1; }}\n"
        )
    };
    let c = compile(&src(max));
    assert_eq!(class(&c, "wide").width as usize, max);
    let rom = lens_vm::Rom::from_bytes(&c.rom).expect("the widest field loads");
    assert_eq!(rom.class_count(), 1);
    let (program, diags) = lens_dsl::load_str("t.lens", &src(max + 2));
    let front: Vec<_> = lens_dsl::check(&program)
        .into_iter()
        .chain(diags)
        .filter(|d| d.is_error())
        .collect();
    assert!(
        front.iter().any(|d| d.code == "lens::bad_field_size"),
        "check refuses a field above the limit: {front:?}"
    );
    let (_, r) = compile_str("t.lens", &src(max + 2), &Options::default());
    assert!(r.is_err(), "compile refuses it too");
}
