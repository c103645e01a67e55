//! Same sources -> byte-identical ROM; the source hash covers names and texts.

use lens_compiler::{Options, compile_str};

/// A source with every construct whose order could leak from a hash map: many classes,
/// globals, externs, labels, globs, sequences and a lens.
fn source() -> String {
    let mut s = String::from(
        "global phase;\nglobal moves;\nextern safe(point) cost 20;\nextern cut(point, point) cost 30;\n",
    );
    for k in 0..6 {
        s += &format!(
            "class c{k} {{ mode best; focus empty; field 5x5; orient all; default {k}; }}\n"
        );
        for i in 0..12 {
            let sym = ["X", "O", ".", "x", "o", "?"];
            s += &format!(
                "pattern p{k}_{i} : c{k} {{\n priority {};\n diagram {{\n {} a {}\n b * {}\n }}\n where libs(a) > {} && safe(b) && phase < {i};\n sequence s {{ a b ( * | pass ) }}\n => a {i} bits {k} seq s;\n}}\n",
                i % 3,
                sym[(i + k) % 6],
                sym[(i * 5 + 1) % 6],
                sym[(i * 7 + k + 2) % 6],
                i % 4
            );
        }
        s += &format!(
            "glob g{k} : c{k} {{\n pattern gm{k}a {{ diagram {{ X O\n . * }} => * 1; }}\n pattern gm{k}b {{ diagram {{ X X\n . * }} => * 2; }}\n}}\n"
        );
    }
    s += "joseki hoshi { d4 ( c6:urgent f3 ( d6 | c3 ) | e3:trick tenuki | c3 d3 c4 ) }\n";
    s += "lens 2 l(d3, c4) {\n field { d4 empty; c3 empty } => c3 5;\n field { d4 foe; c3 empty } => c3 33;\n field { d4 foe; libs(d4) > 4; c3 empty; e5 friend } => c3 29;\n}\n";
    s
}

#[test]
fn compiling_twice_gives_identical_bytes() {
    let src = source();
    let (_, a) = compile_str("det.lens", &src, &Options::default());
    let (_, b) = compile_str("det.lens", &src, &Options::default());
    let (a, b) = (a.expect("compiles"), b.expect("compiles"));
    assert!(a.rom.len() > 1000);
    assert_eq!(a.spec, b.spec);
    assert_eq!(a.rom, b.rom);
    let (_, s1) = compile_str(
        "det.lens",
        &src,
        &Options {
            strip: true,
            ..Options::default()
        },
    );
    let (_, s2) = compile_str(
        "det.lens",
        &src,
        &Options {
            strip: true,
            ..Options::default()
        },
    );
    assert_eq!(s1.unwrap().rom, s2.unwrap().rom);
}

#[test]
fn source_hash_depends_on_name_and_text() {
    let src = source();
    let h = |name: &str, text: &str| {
        compile_str(name, text, &Options::default())
            .1
            .unwrap()
            .spec
            .source_hash
    };
    let base = h("det.lens", &src);
    assert_eq!(base, h("det.lens", &src));
    assert_ne!(base, h("other.lens", &src));
    assert_ne!(base, h("det.lens", &format!("{src}\n// comment\n")));
}

#[test]
fn toolchain_is_recorded() {
    let (_, c) = compile_str("t.lens", "class c { field 3x3; }", &Options::default());
    assert_eq!(c.unwrap().spec.toolchain, lens_compiler::TOOLCHAIN);
}
