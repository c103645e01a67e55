//! The `lut` section (3x3 lookup tables): the lookup kernel against the reference matcher at
//! every neighbourhood a board can show, for random 3x3 classes in every mode (with tests,
//! globs, rejects, orientation subsets); the writer's eligibility rule; the loader's checks.

use lens_test_support::fixtures::*;
use lens_test_support::lut::*;
use lens_vm::internals::lut;
use lens_vm::rom::{self, WriteOptions};
use lens_vm::spec::{CellSpec, ClassNode, ClassSpec, Mode, Offset, RomSpec};
use lens_vm::*;

const ALL_LUT: WriteOptions = WriteOptions {
    sliced_block_words: 8,
    lut_max_bytes: u32::MAX,
    lut_max_bytes_per_variant: 0,
    profile: lens_vm::rom::Profile::Fast,
};

/// A random 3x3 class: plain patterns and globs, all cells within distance 1.
fn random_3x3_class(rng: &mut Rng, mode: Mode, n: usize, next_id: &mut u32) -> ClassSpec {
    let mut nodes = Vec::new();
    while nodes.len() < n {
        if rng.chance(0.15) {
            nodes.push(random_glob(rng, next_id, 1));
        } else {
            nodes.push(ClassNode::Pattern(random_pattern(rng, *next_id, 1, true)));
            *next_id += 1;
        }
    }
    let mut c = class("c", mode, 3, nodes);
    // focus: empty, or a random non-empty subset of {friend, foe, empty}
    c.focus = if rng.chance(0.5) {
        0b0100
    } else {
        (rng.below(7) + 1) as u8
    };
    // Patterns that constrain the focus cell must stay within the class focus set.
    fn fix(nodes: &mut [ClassNode], focus: u8) {
        for n in nodes {
            let (p, members) = match n {
                ClassNode::Pattern(p) => (p, &mut [][..]),
                ClassNode::Glob { header, members } => (header, &mut members[..]),
            };
            for cell in &mut p.cells {
                if cell.at == Offset::new(0, 0) {
                    cell.allowed = (cell.allowed & focus).max(focus & focus.wrapping_neg());
                }
            }
            fix(members, focus);
        }
    }
    fix(&mut c.nodes, c.focus);
    if rng.chance(0.3) {
        c.default_value = Some(rng.below(10) as i32);
    }
    c
}

fn spec_of(classes: Vec<ClassSpec>, n_ids: u32) -> RomSpec {
    RomSpec {
        toolchain: "lut test".into(),
        source_hash: 1,
        classes,
        globals: vec![],
        externs: vec![],
        sequences: vec![],
        lenses: vec![],
        joseki: vec![],
        debug: Some(debug_for(n_ids)),
    }
}

fn background(rng: &mut Rng) -> TestBoard {
    TestBoard::random(rng, 5, 0.5)
}

#[test]
fn lookup_kernel_agrees_with_reference_on_every_neighbourhood() {
    let mut rng = Rng(0x3a3_1007);
    let mut calls = 0;
    for (round, mode) in [
        Mode::Best,
        Mode::All,
        Mode::First,
        Mode::Best,
        Mode::All,
        Mode::First,
    ]
    .into_iter()
    .enumerate()
    {
        let mut next_id = 0;
        let n = 4 + rng.below(if round < 3 { 12 } else { 40 }) as usize;
        let c = random_3x3_class(&mut rng, mode, n, &mut next_id);
        let focus = c.focus;
        let spec = spec_of(vec![c], next_id);
        let bytes = rom::write_with(&spec, &ALL_LUT);
        let rom = Rom::from_bytes(&bytes).expect("the image loads");
        assert_eq!(rom.format_version(), rom::FORMAT_VERSION);
        let class = rom.class(ClassId(0)).unwrap();
        let table = rom
            .class_lut(&class)
            .expect("an eligible class gets a table");
        assert!(!table.is_empty());
        let focus_states: Vec<Point> = [
            Point::Stone(Colour::Black),
            Point::Stone(Colour::White),
            Point::Empty,
        ]
        .into_iter()
        .enumerate()
        .filter(|(i, _)| focus & (1 << i) != 0)
        .map(|(_, p)| p)
        .collect();
        let bg = background(&mut rng);
        let mut k = 0u32;
        let mut matched = 0;
        calls += each_neighbourhood(&bg, TestBoard::set, &focus_states, |b, x, y| {
            k += 1;
            let orientations = match k % 4 {
                0 => Orientations::Set((k >> 2) as u8),
                _ => Orientations::All,
            };
            let perspective = if k.is_multiple_of(3) {
                Colour::White
            } else {
                Colour::Black
            };
            let q = Query {
                class: ClassId(0),
                perspective,
                orientations,
            };
            let (got, want) = both(&rom, b, &q, x, y);
            assert_eq!(got, want, "mode {mode:?} at ({x}, {y}) on {b:?}");
            matched += got.len();
        });
        assert!(matched > 0, "the class matches somewhere");
    }
    assert!(calls > 6 * 7641);
}

#[test]
fn lookup_kernel_agrees_with_the_mask_kernel_on_row_bitboards() {
    // The reference board has row bitboards: the code comes from the window cut there.
    let mut rng = Rng(77);
    let mut next_id = 0;
    let c = random_3x3_class(&mut rng, Mode::All, 30, &mut next_id);
    let spec = spec_of(vec![c], next_id);
    let bytes = rom::write_with(&spec, &ALL_LUT);
    let rom = Rom::from_bytes(&bytes).unwrap();
    assert!(rom.has_lut());
    let masks = rom.without_lut();
    for s in [5u8, 9, 19] {
        for _ in 0..4 {
            let board = to_board(&TestBoard::random(&mut rng, s, 0.45));
            for persp in [Colour::Black, Colour::White] {
                let q = Query {
                    class: ClassId(0),
                    perspective: persp,
                    orientations: Orientations::All,
                };
                for y in 0..s as i32 {
                    for x in 0..s as i32 {
                        let (a, r) = both(&rom, &board, &q, x, y);
                        let (m, _) = both(&masks, &board, &q, x, y);
                        assert_eq!(a, r);
                        assert_eq!(a, m);
                    }
                }
            }
        }
    }
}

#[test]
fn only_3x3_classes_within_budget_get_tables() {
    let mut rng = Rng(5);
    let mut next_id = 0;
    let small = random_3x3_class(&mut rng, Mode::Best, 6, &mut next_id);
    // A class with a cell at distance 2 is not eligible.
    let mut wide = random_3x3_class(&mut rng, Mode::All, 6, &mut next_id);
    wide.width = 5;
    wide.height = 5;
    if let ClassNode::Pattern(p) = &mut wide.nodes[0] {
        p.cells.push(CellSpec {
            at: Offset::new(2, 0),
            allowed: E,
        });
    } else {
        wide.nodes
            .push(ClassNode::Pattern(pattern(next_id, &[(2, 0, E)], None)));
        next_id += 1;
    }
    let spec = spec_of(vec![small.clone(), wide], next_id);
    let bytes = rom::write_with(&spec, &ALL_LUT);
    let rom = Rom::from_bytes(&bytes).unwrap();
    assert!(rom.class_lut(&rom.class(ClassId(0)).unwrap()).is_some());
    assert!(rom.class_lut(&rom.class(ClassId(1)).unwrap()).is_none());
    // A budget below the table's size leaves the class out (and the section, when no class
    // qualifies); no option leaves it out too.
    let size = rom
        .class_lut(&rom.class(ClassId(0)).unwrap())
        .unwrap()
        .len() as u32;
    let tight = WriteOptions {
        lut_max_bytes: size - 1,
        ..ALL_LUT
    };
    let exact = WriteOptions {
        lut_max_bytes: size,
        ..ALL_LUT
    };
    assert!(
        !Rom::from_bytes(&rom::write_with(&spec, &tight))
            .unwrap()
            .has_lut()
    );
    assert!(
        Rom::from_bytes(&rom::write_with(&spec, &exact))
            .unwrap()
            .has_lut()
    );
    assert!(!Rom::from_bytes(&rom::write(&spec)).unwrap().has_lut());
    // Deterministic to the byte.
    assert_eq!(bytes, rom::write_with(&spec, &ALL_LUT));
}

/// An image with one table, and the file offset of the class's table inside the section.
fn lut_image() -> (Vec<u8>, usize, usize) {
    let mut rng = Rng(11);
    let mut next_id = 0;
    let mut c = random_3x3_class(&mut rng, Mode::All, 12, &mut next_id);
    c.focus = 0b0100; // one focus state: a 256-slot directory
    let bytes = rom::write_with(&spec_of(vec![c], next_id), &ALL_LUT);
    let rom = Rom::from_bytes(&bytes).unwrap();
    let (off, len) = rom.section_span(rom::Section::Lut).unwrap();
    (bytes, off, len)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn expect_err(mut bytes: Vec<u8>, patch: impl FnOnce(&mut [u8]), reason: &str) -> LoadError {
    patch(&mut bytes);
    rom::fix_checksums(&mut bytes);
    let e = Rom::from_bytes(&bytes).expect_err("the corrupted image is rejected");
    assert!(e.to_string().contains(reason), "{e} (wanted `{reason}`)");
    e
}

#[test]
fn loader_rejects_corrupt_tables_with_offset_and_reason() {
    let (bytes, off, len) = lut_image();
    let t = off + 4; // one class: its table starts after the 4-byte index
    let (nblocks, nsets, nlist) = (
        u32_at(&bytes, t),
        u32_at(&bytes, t + 4),
        u32_at(&bytes, t + 8),
    );
    let width = u32_at(&bytes, t + 12) as usize;
    assert!(width == 1 || width == 2);
    let dir = t + 16;
    let blocks = dir + 512; // focus set of one state: 256 directory slots
    let put_slot = |b: &mut [u8], i: usize, v: usize| {
        if width == 1 {
            b[blocks + i] = v as u8;
        } else {
            b[blocks + 2 * i..blocks + 2 * i + 2].copy_from_slice(&(v as u16).to_le_bytes());
        }
    };
    let offsets = blocks + nblocks as usize * 256 * width;
    let list = offsets + (nsets as usize + 1) * 4;
    let e = expect_err(
        bytes.clone(),
        |b| b[dir..dir + 2].copy_from_slice(&(nblocks as u16).to_le_bytes()),
        "lut block id out of range",
    );
    assert_eq!(e.offset, dir);
    let e = expect_err(
        bytes.clone(),
        |b| put_slot(b, 3, nsets as usize),
        "lut set id out of range",
    );
    assert_eq!(e.offset, blocks + 3 * width);
    expect_err(
        bytes.clone(),
        |b| b[list..list + 2].copy_from_slice(&999u16.to_le_bytes()),
        "lut entry index out of range or not ascending",
    );
    expect_err(
        bytes.clone(),
        |b| b[offsets + 4..offsets + 8].copy_from_slice(&(nlist + 1).to_le_bytes()),
        "lut set offsets out of order or out of bounds",
    );
    expect_err(
        bytes.clone(),
        |b| b[off..off + 4].copy_from_slice(&2u32.to_le_bytes()),
        "lut class table does not continue the previous one",
    );
    expect_err(bytes.clone(), |b| b[t + 12] = 3, "lut slot width");
    expect_err(
        bytes.clone(),
        |b| b[t..t + 4].copy_from_slice(&0u32.to_le_bytes()),
        "lut block or set count out of range",
    );
    // A set that names the wrong (but in-range) entries: the semantic check catches it.
    let mut swapped = false;
    let e = expect_err(
        bytes.clone(),
        |b| {
            // Point every slot of block 0 at the last set (non-empty), unless it already is.
            for s in 0..256 {
                put_slot(b, s, nsets as usize - 1);
            }
            swapped = true;
        },
        "lut entry set disagrees with the class masks",
    );
    assert!(swapped);
    assert!((blocks..offsets).contains(&e.offset), "{e}");
    // The section in a format v1 image: v1 defines kinds up to 27 (this image has 28
    // sections; a stripped one has fewer, and then the kind itself is refused).
    expect_err(
        bytes.clone(),
        |b| b[12..16].copy_from_slice(&1u32.to_le_bytes()),
        "more sections than the image's format version defines",
    );
    let mut rng = Rng(11);
    let mut next_id = 0;
    let c = random_3x3_class(&mut rng, Mode::All, 12, &mut next_id);
    let mut stripped = spec_of(vec![c], next_id);
    stripped.debug = None;
    // (Without `sliced`, whose v6 placement a v1 header would refuse first.)
    let no_sliced = WriteOptions {
        sliced_block_words: 0,
        ..ALL_LUT
    };
    let e = expect_err(
        rom::write_with(&stripped, &no_sliced),
        |b| b[12..16].copy_from_slice(&1u32.to_le_bytes()),
        "section kind not defined in the image's format version",
    );
    assert_eq!(
        e.offset,
        48 + 23 * 16,
        "the table entry of the 24th section"
    );
    // Any single-byte corruption of the section: an error or an image that still matches like
    // the reference (the check is exact), never a panic.
    let boards = sample_boards();
    let mut accepted = 0;
    let step = (len / 97).max(1);
    let mut tried = 0;
    for i in (off..off + len).step_by(step) {
        tried += 1;
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        rom::fix_checksums(&mut b);
        if let Ok(r) = Rom::from_bytes(&b) {
            accepted += 1;
            for tb in &boards {
                let q = Query {
                    class: ClassId(0),
                    perspective: Colour::Black,
                    orientations: Orientations::All,
                };
                for y in 0..tb.size as i32 {
                    for x in 0..tb.size as i32 {
                        let (got, want) = both(&r, tb, &q, x, y);
                        assert_eq!(got, want);
                    }
                }
            }
        }
    }
    // Only "don't care" slots (codes no board shows) may change without an error.
    assert!(accepted < tried / 2, "{accepted} of {tried}");
}

#[test]
fn focus_state_and_code_from_a_window() {
    let b = TestBoard::parse(
        "
        O X . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . X",
    );
    // (0, 0) seen by white: N, W, NW, NE, SW off; E foe (X); S, SE empty; focus friend (O).
    let (fs, code) = lut::code(&b, Colour::White, 0, 0);
    assert_eq!(fs, 0);
    let st = |i: u32| (code >> (2 * i)) & 3;
    assert_eq!([st(0), st(1), st(2), st(3)], [3, 3, 1, 2]);
    assert_eq!([st(4), st(5), st(6), st(7)], [3, 3, 3, 2]);
    assert!(lut::realizable(code));
    let (fs, _) = lut::code(&b, Colour::Black, 0, 0);
    assert_eq!(fs, 1);
    let (fs, _) = lut::code(&b, Colour::Black, 1, 1);
    assert_eq!(fs, 2);
}

/// Counts allocations on threads that armed it (the lookup kernel must not allocate).
struct Counting;
static ALLOCS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
thread_local! {
    static ARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        if ARMED.with(|a| a.get()) {
            ALLOCS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        unsafe { std::alloc::System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(p, l) }
    }
}
#[global_allocator]
static A: Counting = Counting;

#[test]
fn lookup_calls_do_not_allocate() {
    let mut rng = Rng(21);
    let mut next_id = 0;
    let c = random_3x3_class(&mut rng, Mode::All, 20, &mut next_id);
    let bytes = rom::write_with(&spec_of(vec![c], next_id), &ALL_LUT);
    let rom = Rom::from_bytes(&bytes).unwrap();
    assert!(rom.has_lut());
    let board = to_board(&TestBoard::random(&mut rng, 19, 0.4));
    let mut slots = vec![Match::EMPTY; 1024];
    let mut scratch = Scratch::new();
    let q = Query {
        class: ClassId(0),
        perspective: Colour::Black,
        orientations: Orientations::All,
    };
    ARMED.with(|a| a.set(true));
    let mut produced = 0;
    for y in 0..19 {
        for x in 0..19 {
            let mut out = MatchBuf::new(&mut slots);
            produced += rom.match_at(&board, &NoHost, &q, x, y, &mut scratch, &mut out);
        }
    }
    ARMED.with(|a| a.set(false));
    assert_eq!(ALLOCS.load(std::sync::atomic::Ordering::SeqCst), 0);
    assert!(produced > 0);
}
