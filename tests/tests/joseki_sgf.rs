//! SGF import: conventions, corners, passes, colour repeats, setup stones, far moves; errors
//! with offsets; a fuzz-style pass over mutated data files (errors, never panics).

use lens_tests::joseki_data as data;

use lens_joseki::text::to_text;
use lens_joseki::{
    Conventions, Encoding, MoveType, Point, Rel, SetupStone, Step, Tree, decode, encode, import_sgf,
};

fn first_moves(t: &Tree) -> Vec<(Point, Rel, MoveType)> {
    t.vertex(0)
        .edges
        .iter()
        .filter_map(|e| e.step.as_move().map(|m| (m.point, m.colour, m.kind)))
        .collect()
}

#[test]
fn every_corner_maps_to_the_same_frame() {
    // The 3-4 point of each corner, black first or white first: all become d3 (x 4, y 3) or
    // c4, the first mover `Same`.
    for (sgf, p) in [
        ("(;SZ[19];B[dc];W[cd])", Point::at(4, 3)),
        ("(;SZ[19];W[pc];B[qd])", Point::at(4, 3)),
        ("(;SZ[19];B[dp];W[cp])", Point::at(4, 4)),
        ("(;SZ[19];B[cq])", Point::at(3, 3)),
        ("(;SZ[13];B[jc])", Point::at(4, 3)),
    ] {
        let t = import_sgf(sgf, Conventions::Plain).unwrap();
        assert_eq!(first_moves(&t)[0].0, p, "{sgf}");
        assert_eq!(first_moves(&t)[0].1, Rel::Same, "{sgf}");
    }
    let t = import_sgf("(;B[dc];W[cd])", Conventions::Plain).unwrap();
    assert_eq!(to_text(&t).trim(), "d3 c4");
}

#[test]
fn gnugo_classes_come_from_the_first_comment_character() {
    let sgf = "GNU Go licence text (not SGF)\n(;GM[1]FF[3]\n;B[pd]C[0];W[qf];C[#comment node]\n\
               (;B[qh]C[U\n]MA[mj];W[qc]C[j])(;B[of]C[T])(;B[nd]C[t])(;B[qe]C[S])(;B[pf]C[a]))";
    let t = import_sgf(sgf, Conventions::Auto).unwrap();
    assert_eq!(
        to_text(&t).trim(),
        "d4:bad c6 ( c8:urgent c3:minor | e6:trick | f4:tenuki-ok | c5 | d6:bad )"
    );
}

#[test]
fn pachi_tags_passes_and_colour_repeats() {
    let sgf = "(;GM[1]FF[4];B[qd](;W[oc](;W[pf]C[<tenuki>];B[qe])(;B[pe]C[<don't>\nnot joseki]))\
               (;W[qc]C[<bad>];B[]C[<later>];W[pc]C[<3x3>])(;W[qf]C[<avoid>];B[tt]))";
    let t = import_sgf(sgf, Conventions::Auto).unwrap();
    assert_eq!(
        to_text(&t).trim(),
        "c4 ( e3 ( d6:tenuki-ok:repeat c5 | d5:ignore ) | c3:bad tenuki d3 | c6:ignore tenuki )"
    );
}

#[test]
fn setup_stones_are_kept_on_their_own_edge() {
    let sgf = "(;FF[4](;B[qd];W[oc])(;AB[pj]AW[qj]C[kobayashi];W[nc];B[od]))";
    let t = import_sgf(sgf, Conventions::Plain).unwrap();
    let setups: Vec<_> = t
        .vertices()
        .iter()
        .flat_map(|v| &v.edges)
        .filter_map(|e| match &e.step {
            Step::Setup(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    // The line's first move is white (nc), so white stones are `Same`.
    assert_eq!(
        setups,
        vec![vec![
            SetupStone {
                x: 3,
                y: 10,
                colour: Some(Rel::Same)
            },
            SetupStone {
                x: 4,
                y: 10,
                colour: Some(Rel::Opposite)
            },
        ]]
    );
    assert_eq!(t.tree_moves(), 4, "setup stones are not moves");
    assert_eq!(to_text(&t).trim(), "( c4 e3 | setup(x:c10 o:d10) f3 e4 )");
}

#[test]
fn far_moves_and_every_encoding_keep_them() {
    // A whole-board line from the top-left corner: the last move is 17 and 18 lines away.
    let t = import_sgf("(;B[dd];W[qq];B[cr])", Conventions::Plain).unwrap();
    assert_eq!(to_text(&t).trim(), "d4 q17 c18");
    for enc in Encoding::WALKABLE {
        assert_eq!(decode(&encode(&t, enc)).unwrap(), t);
    }
}

#[test]
fn errors_name_the_offset() {
    for (sgf, offset, words) in [
        ("(;B[aa]", 0, "never closed"),
        ("(;B[aa", 3, "never closed"),
        ("(;B[aa]))", 8, "without a matching"),
        ("(;B[aa] 5 )", 8, "unexpected character"),
        ("no tree here", 0, "no SGF game tree"),
        ("(;SZ[19];B[zz])", 8, "off the board"),
        ("(;SZ[40];B[aa])", 1, "board size"),
        ("xx (;B[aa]C)", 10, "without a value"),
    ] {
        let e = import_sgf(sgf, Conventions::Auto).expect_err(sgf);
        assert_eq!(e.offset, offset, "{sgf}: {e}");
        assert!(e.to_string().contains(words), "{sgf}: {e}");
        assert!(
            e.clone()
                .with_file("x.sgf")
                .to_string()
                .starts_with(&format!("x.sgf: offset {offset}: "))
        );
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = text.to_vec();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(b.len());
        match rng.below(5) {
            0 => b[i] = b"()[];\\BWabz:tt"[rng.below(14)],
            1 => {
                b.remove(i.min(b.len() - 1));
            }
            2 => b.insert(i, b"()[];"[rng.below(5)]),
            3 => b.truncate(i.max(1)),
            _ => b[i] ^= 1 << rng.below(8),
        }
        if b.is_empty() {
            b.push(b'(');
        }
    }
    b
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn mutated_data_files_give_errors_with_offsets_never_panics() {
    let Some(files) = data::joseki_files() else {
        return;
    };
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut ok, mut errors) = (0, 0);
    for (name, text) in &files {
        for _ in 0..60 {
            let m = mutate(text.as_bytes(), &mut rng);
            let s = String::from_utf8_lossy(&m);
            match import_sgf(&s, Conventions::Auto) {
                Ok(t) => {
                    ok += 1;
                    for enc in Encoding::WALKABLE {
                        assert_eq!(decode(&encode(&t, enc)).unwrap(), t, "{name}");
                    }
                }
                Err(e) => {
                    errors += 1;
                    assert!(
                        e.offset <= s.len(),
                        "{name}: offset {} beyond {}",
                        e.offset,
                        s.len()
                    );
                    assert!(!e.reason.is_empty());
                }
            }
        }
    }
    assert!(
        errors > 100 && ok > 20,
        "mutations should both break and keep files: {errors} errors, {ok} ok"
    );
}

#[test]
fn mutated_blobs_give_errors_never_panics() {
    let t = lens_joseki::parse_text("( d4 ( c6:urgent ( d6 c7 | f3 ) | f3 ( c6 d6 | d3 ) | e3:trick tenuki c3 ) | c4 ( e3 ( d5 | c6 ) | d3 c3 ) | c3 d3 | setup(o:c3) d4 | q17:reverse )").unwrap();
    let mut rng = Rng(0x0b10_b5ee_d000_0002);
    let mut errors = 0;
    for enc in Encoding::WALKABLE {
        let blob = encode(&t, enc);
        for _ in 0..2000 {
            let m = mutate(&blob, &mut rng);
            match decode(&m) {
                Ok(d) => {
                    // Whatever decodes re-encodes and walks without trouble.
                    let w = lens_joseki::Walker::new(&m).unwrap();
                    let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 32];
                    let _ = w.follow_frame(&[(Rel::Same, Point::at(4, 4))], &mut out);
                    let _ = encode(&d, enc);
                }
                Err(e) => {
                    errors += 1;
                    assert!(e.offset <= m.len() + 16, "{e}");
                    assert!(lens_joseki::Walker::new(&m).is_err());
                }
            }
        }
    }
    assert!(errors > 1000, "{errors}");
}

#[test]
fn conventions_are_detected_by_the_form_of_the_comments_not_by_marks() {
    use lens_joseki::import_sgf_into;
    let detect = |sgf: &str| {
        let mut t = Tree::new();
        let d = import_sgf_into(&mut t, sgf, Conventions::Auto).unwrap();
        t.canonicalize();
        (d, to_text(&t).trim().to_string())
    };
    // Marks and ordinary English comments whose first letters are GNU Go classes
    // (T, a, s, j, U): plain, no types.
    let (d, text) = detect(
        "(;GM[1]SZ[19];B[pd]MA[pd]C[This move is covered as usual.];W[qf]SQ[qf]\
         C[a common approach];B[nc]MA[nc]C[shape]\n(;W[qc]C[Joseki];B[qd])(;W[rd]C[Urgent]))",
    );
    assert_eq!(d.conventions, Conventions::Plain, "{d}");
    assert_eq!((d.class_comments, d.other_comments), (0, 5), "{d}");
    assert!(d.auto);
    assert!(!text.contains(':'), "no types: {text}");
    // GNU Go's form: one class letter on the first line, then `#`, `:` or `;` lines; one
    // stray sentence among them is tolerated (typed by its first letter, as GNU Go does).
    let (d, text) = detect(
        "GNU Go header\n(;GM[1]SZ[19];B[pd]C[U\n#approach];W[qf]C[T\n:8,shape(3)];B[nc]C[j]\
         ;W[qc]C[S];B[qd]C[0];W[rd]C[This leads to a fight])",
    );
    assert_eq!(d.conventions, Conventions::GnuGo, "{d}");
    assert_eq!((d.class_comments, d.other_comments), (5, 1));
    assert_eq!(text, "d4:urgent c6:trick f3:minor c3 c4:bad b4:trick");
    // Class letters mixed with as many sentences: unsure, so plain.
    let (d, _) = detect("(;GM[1]SZ[19];B[pd]C[U];W[qf]C[T];B[nc]C[Good shape];W[qc]C[a trick])");
    assert_eq!(d.conventions, Conventions::Plain, "{d}");
    // Pachi's tags (remarks without tags are fine); tags mixed with class letters: plain.
    let (d, text) = detect("(;GM[1]SZ[19];B[pd];W[qf]C[<don't> <3x3>\nslow];B[nc]C[ugly shape])");
    assert_eq!(d.conventions, Conventions::Pachi, "{d}");
    assert_eq!(text, "d4 c6:ignore f3");
    let (d, _) = detect("(;GM[1]SZ[19];B[pd]C[<bad>];W[qf]C[T])");
    assert_eq!(d.conventions, Conventions::Plain, "{d}");
    // Given conventions are used as given and reported so.
    let mut t = Tree::new();
    let d = import_sgf_into(&mut t, "(;B[pd]C[This]MA[pd])", Conventions::GnuGo).unwrap();
    assert_eq!((d.conventions, d.auto), (Conventions::GnuGo, false));
    assert_eq!(
        d.to_string(),
        "gnugo (given; move comments: 0 GNU Go class, 0 Pachi tag, 1 other)"
    );
}

#[test]
#[cfg_attr(no_shared_data, ignore = "needs ../shared/data beside the repository")]
fn the_data_files_are_detected_as_their_authors_conventions() {
    use lens_joseki::import_sgf_into;
    let Some(files) = data::joseki_files() else {
        return;
    };
    for (name, text) in &files {
        let d = import_sgf_into(&mut Tree::new(), text, Conventions::Auto).unwrap();
        let want = if name.starts_with("gnugo") {
            Conventions::GnuGo
        } else {
            Conventions::Pachi
        };
        assert_eq!(d.conventions, want, "{name}: {d}");
    }
}

/// A book of our own large enough for Compact version 4 (Huffman-coded entries) to beat
/// version 3: 600 lines of up to 14 distinct points, skewed toward the corner as joseki are.
fn skewed_book(seed: u64) -> Tree {
    let mut rng = Rng(seed);
    let mut lines = Vec::new();
    for _ in 0..600 {
        let mut line: Vec<String> = Vec::new();
        let mut used = std::collections::BTreeSet::new();
        let len = 2 + rng.below(13);
        while line.len() < len {
            let x = 1 + rng.below(9).min(rng.below(9)) as u8;
            let y = 1 + rng.below(9).min(rng.below(9)) as u8;
            if used.insert((x, y)) {
                line.push(format!("{}{}", (b'a' + x - 1) as char, y));
            }
        }
        lines.push(format!("d4 {}", line.join(" ")));
    }
    lens_joseki::parse_text(&format!("( {} )", lines.join(" | "))).unwrap()
}

/// The compatibility promise for joseki blobs, as `rom_compat.rs` keeps it for ROM images: a
/// committed Compact version 4 blob (the encoder's output for `skewed_book`; rewritten only with
/// `LENS_BLESS_JOSEKI` set, when the version is bumped) keeps decoding to the same book, and
/// today's writer still writes those bytes.
#[test]
fn committed_compact_version_4_blob_still_decodes_and_is_written_the_same() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("joseki-compact-v4-sample.bin");
    let t = skewed_book(0x4a0e_5eed_0000_0004);
    if std::env::var_os("LENS_BLESS_JOSEKI").is_some() {
        std::fs::write(&path, encode(&t, Encoding::Compact)).unwrap();
    }
    let bytes = std::fs::read(&path).expect("tests/data/joseki-compact-v4-sample.bin is committed");
    assert_eq!(bytes[2], 4, "the sample is a Compact version 4 blob");
    assert_eq!(
        decode(&bytes).unwrap(),
        t,
        "a version 4 blob must keep decoding"
    );
    assert_eq!(
        encode(&t, Encoding::Compact),
        bytes,
        "the Compact writer changed: bump the blob version and commit a sample of the new one"
    );
}

/// Packed blobs of the older model keep decoding: `joseki-packed-v2-sample.bin` is the version
/// 2 writer's output for `skewed_book` (written by the last version 2 encoder, before version 3).
#[test]
fn committed_packed_version_2_blob_still_decodes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("joseki-packed-v2-sample.bin");
    let t = skewed_book(0x4a0e_5eed_0000_0002);
    let bytes = std::fs::read(&path).expect("tests/data/joseki-packed-v2-sample.bin is committed");
    assert_eq!((bytes[2], bytes[3]), (2, 2), "a Packed version 2 blob");
    assert_eq!(
        decode(&bytes).unwrap(),
        t,
        "a version 2 blob must keep decoding"
    );
    assert_eq!(
        lens_joseki::codec::encoding_of(&bytes),
        Ok(Encoding::Packed)
    );
}

/// The same for Packed version 3 (the relative contexts, without the board; written by the last
/// version 3 encoder, before version 4).
#[test]
fn committed_packed_version_3_blob_still_decodes() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("joseki-packed-v3-sample.bin");
    let t = skewed_book(0x4a0e_5eed_0000_0003);
    let bytes = std::fs::read(&path).expect("tests/data/joseki-packed-v3-sample.bin is committed");
    assert_eq!((bytes[2], bytes[3]), (3, 2), "a Packed version 3 blob");
    assert_eq!(
        decode(&bytes).unwrap(),
        t,
        "a version 3 blob must keep decoding"
    );
    assert_ne!(
        encode(&t, Encoding::Packed),
        bytes,
        "the writer is version 4 now"
    );
}

/// The same promise for Packed version 4 (the board-aware model; rewritten only with
/// `LENS_BLESS_JOSEKI` set, when Packed's version is bumped).
#[test]
fn committed_packed_version_4_blob_still_decodes_and_is_written_the_same() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join("joseki-packed-v4-sample.bin");
    let t = skewed_book(0x4a0e_5eed_0000_0044);
    if std::env::var_os("LENS_BLESS_JOSEKI").is_some() {
        std::fs::write(&path, encode(&t, Encoding::Packed)).unwrap();
    }
    let bytes = std::fs::read(&path).expect("tests/data/joseki-packed-v4-sample.bin is committed");
    assert_eq!((bytes[2], bytes[3]), (4, 2), "a Packed version 4 blob");
    assert_eq!(
        decode(&bytes).unwrap(),
        t,
        "a version 4 blob must keep decoding"
    );
    assert_eq!(
        encode(&t, Encoding::Packed),
        bytes,
        "the Packed writer changed: bump its version and commit a sample of the new one"
    );
}

#[test]
fn compact_version_4_and_version_3_blobs_decode_and_walk_alike() {
    use lens_joseki::codec::encode_compact_with_skip;
    use lens_joseki::{BoardMove, Colour, Continuation, Frame, Walker};
    let t = skewed_book(0x4a0e_5eed_0000_0004);
    let v4 = encode(&t, Encoding::Compact);
    let v3 = encode_compact_with_skip(&t, usize::MAX);
    assert_eq!((v4[2], v3[2]), (4, 3), "the default picks version 4 here");
    assert!(v4.len() < v3.len(), "{} against {}", v4.len(), v3.len());
    assert_eq!(decode(&v4).unwrap(), t);
    assert_eq!(decode(&v3).unwrap(), t, "a version 3 blob still decodes");
    // Every mode of the walker answers the same on both blobs, along every line's prefixes.
    let frame = Frame::orientation(19, 3);
    let mut checked = 0;
    let mut rng = Rng(7);
    let (mut a, mut b) = ([Continuation::EMPTY; 512], [Continuation::EMPTY; 512]);
    fn walkers(blob: &[u8]) -> [Walker<'_>; 3] {
        [
            Walker::new(blob).unwrap(),
            Walker::small(blob).unwrap(),
            Walker::in_place(blob).unwrap(),
        ]
    }
    for (w4, w3) in walkers(&v4).iter().zip(walkers(&v3).iter()) {
        for _ in 0..200 {
            // A random walk down the book: its moves on the board, then a lookup.
            let mut moves = Vec::new();
            let mut v = 0u32;
            let mut colour = Colour::Black;
            while let Some(e) = {
                let edges = &t.vertex(v).edges;
                (!edges.is_empty()).then(|| &edges[rng.below(edges.len())])
            } {
                let lens_joseki::Step::Move(m) = &e.step else {
                    break;
                };
                let Point::At { x, y } = m.point else { break };
                moves.push(BoardMove {
                    colour,
                    at: frame.to_board(x, y),
                });
                colour = colour.opponent();
                v = e.to;
                let r4 = w4.lookup(19, &moves, None, colour, &mut a);
                let r3 = w3.lookup(19, &moves, None, colour, &mut b);
                assert_eq!(r4.corners, r3.corners, "{moves:?}");
                assert_eq!(a[..r4.continuations], b[..r3.continuations], "{moves:?}");
                assert!(r4.in_book(), "{moves:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn mutated_version_4_blobs_give_errors_with_offsets_never_panics() {
    let t = skewed_book(0x4a0e_5eed_0000_0005);
    let blob = encode(&t, Encoding::Compact);
    assert_eq!(blob[2], 4);
    let mut rng = Rng(0x0b10_b5ee_d000_0004);
    let mut errors = 0;
    for _ in 0..300 {
        let m = mutate(&blob, &mut rng);
        match decode(&m) {
            Ok(d) => {
                let w = lens_joseki::Walker::new(&m).unwrap();
                let mut out = [(Rel::Same, Point::Pass, MoveType::Normal); 32];
                let _ = w.follow_frame(&[(Rel::Same, Point::at(4, 4))], &mut out);
                let _ = encode(&d, Encoding::Compact);
            }
            Err(e) => {
                errors += 1;
                assert!(e.offset <= m.len() + 16, "{e}");
                assert!(lens_joseki::Walker::new(&m).is_err());
            }
        }
    }
    assert!(errors > 150, "{errors}");
    // Named errors: a cut blob, bits after the root list, lengths that are no prefix code.
    let cut = &blob[..blob.len() - 1];
    let e = decode(cut).unwrap_err();
    assert!(e.offset <= cut.len(), "{e}");
    let mut longer = blob.clone();
    longer.push(0);
    assert_eq!(
        decode(&longer).unwrap_err().reason,
        "trailing bytes after the root list"
    );
}
