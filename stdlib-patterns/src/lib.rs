//! The Lens standard pattern library, compiled from `patterns/*.lens` by this crate's build
//! script and embedded as a ROM image that `lens-vm` loads in place (no copy, no allocation).
//!
//! ```no_run
//! let rom = lens_stdlib::rom();
//! let class = rom.class_by_name(lens_stdlib::SHAPE3X3).expect("a standard class");
//! # let _ = class;
//! ```
//!
//! The classes and what their values mean are documented in `docs/stdlib.md`.
#![no_std]

use lens_vm::{AlignedRom, Rom};

/// The image on a 64-byte line, where format v6's bit-sliced rows are one cache line each.
static ALIGNED: &AlignedRom<[u8]> = &AlignedRom {
    _align: [],
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/stdlib.rom")),
};

/// The compiled standard library (on a 64-byte line).
pub static ROM_BYTES: &[u8] = &ALIGNED.bytes;

/// The standard library as a loaded ROM. The build script compiled and the loader validates the
/// image; a failure here means the crate was built with a mismatched `lens-vm`.
pub fn rom() -> Rom<'static> {
    match Rom::from_bytes(ROM_BYTES) {
        Ok(rom) => rom,
        Err(e) => panic!("the embedded standard library ROM does not load: {e}"),
    }
}

/// MoGo/Pachi-style 3x3 playout shapes (hane, cut, magari, kosumi, atari-aware shapes).
pub const SHAPE3X3: &str = "shape3x3";
/// Connections and cuts: diagonal, bamboo joint, jumps, knight's moves, tiger's mouth.
pub const CONNECT: &str = "connect";
/// Eye value of small enclosed eye spaces (`best` mode; values in half-eyes).
pub const EYE_VALUE: &str = "eye_value";
/// Vital points of eye shapes: nakade, making life, false eyes.
pub const EYE_VITAL: &str = "eye_vital";
/// String tactics: capture, atari, ladder with breaker check, net, snapback, escape.
pub const TACTICS: &str = "tactics";
/// Edge moves: first-line hane, descent, monkey jump, corner moves, first-line rejects.
pub const EDGE: &str = "edge";
/// Endgame (yose) moves, dame, rejects inside settled territory.
pub const ENDGAME: &str = "endgame";
/// Self-atari and eye-filling rejects for playouts.
pub const SELF_ATARI: &str = "self_atari";

/// Every class of the library, in source order.
pub const CLASSES: [&str; 8] = [
    SHAPE3X3, CONNECT, EYE_VALUE, EYE_VITAL, TACTICS, EDGE, ENDGAME, SELF_ATARI,
];

/// Lens type 2: diagonal connection defence (Wilcox's seed lens), endpoints d3 c4.
pub const DIAGONAL_DEFENCE: &str = "diagonal_defence";
/// Lens type 3: bamboo joint defence, endpoints c3 d5.
pub const BAMBOO_DEFENCE: &str = "bamboo_defence";
/// Lens type 4: one-point jump defence, endpoints d3 d5.
pub const JUMP_DEFENCE: &str = "jump_defence";
/// Lens type 5: knight's move defence, endpoints d3 e5.
pub const KNIGHT_DEFENCE: &str = "knight_defence";

/// Every lens of the library.
pub const LENSES: [&str; 4] = [
    DIAGONAL_DEFENCE,
    BAMBOO_DEFENCE,
    JUMP_DEFENCE,
    KNIGHT_DEFENCE,
];

/// The joseki section of the ROM (`joseki.lens`): a small book of standard corner sequences,
/// a `lens-joseki` blob (`Rom::joseki_blob(JOSEKI)`, walk it with `lens_joseki::Walker`).
pub const JOSEKI: &str = "standard";

/// The joseki book's blob (the ROM's section [`JOSEKI`]), ready for `lens_joseki::Walker::new`.
pub fn joseki_blob() -> &'static [u8] {
    match rom().joseki_blob(JOSEKI) {
        Some(blob) => blob,
        None => panic!("the embedded standard library ROM has no joseki section `{JOSEKI}`"),
    }
}

/// The directory of the `.lens` sources (for tools and tests that recompile them).
pub const SOURCE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/patterns");

/// The move-prediction class of [`policy_rom`] (`docs/learning.md`): `mode all`, every
/// pattern's value is 100 x the log of its Bradley-Terry strength, and a move's score is the
/// sum over the patterns that match it, in this class (the shapes) and in its features class
/// `policy_features` (edge line, capture, atari, self-atari, distance to the last two moves).
/// The predicates (`last_dist`, `prev_dist`, `self_atari`) are answered by
/// `lens_compiler::learn::PolicyHost`, and `lens_compiler::learn::Scanner` scores both classes,
/// computing the features on the host.
pub const POLICY: &str = "policy";

/// Where [`policy_rom`] came from: `"trained"` (harvested and learned by the build script from
/// the training games of `../shared/data/gnugo/corpus`) or `"fallback"` (the hand-set
/// features of `policy/fallback.lens`, when the corpus was absent).
pub const POLICY_ORIGIN: &str = env!("LENS_POLICY_ORIGIN");

/// The `.lens` source the build script compiled into [`policy_rom`] (trained values are GPL:
/// derived from the corpus, they live in the build directory, never in the repository).
pub const POLICY_SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/policy.lens"));

static POLICY_ALIGNED: &AlignedRom<[u8]> = &AlignedRom {
    _align: [],
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/policy.rom")),
};

/// The policy class's image (on a 64-byte line).
pub static POLICY_ROM_BYTES: &[u8] = &POLICY_ALIGNED.bytes;

/// The image holding the [`POLICY`] class, loaded.
pub fn policy_rom() -> Rom<'static> {
    match Rom::from_bytes(POLICY_ROM_BYTES) {
        Ok(rom) => rom,
        Err(e) => panic!("the embedded policy ROM does not load: {e}"),
    }
}
