//! Zobrist keys, generated at compile time from a fixed seed so every build, platform and run
//! hashes the same position to the same value.
//!
//! Keys are indexed by the board's padded cell index (see [`super::layout`]), so a stone at
//! `(x, y)` has the same key on every board size: the stone part of the hash does not encode the
//! size (boards of different sizes are never compared in practice).

use super::layout::{CELLS, Cells};

/// The fixed seed ("LENS_ZOB" in ASCII). Changing it changes every hash: don't.
pub const SEED: u64 = 0x4C45_4E53_5F5A_4F42;

/// SplitMix64: tiny, well mixed, usable in `const` evaluation.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

pub(crate) struct Keys {
    /// `stones[colour_code - 1][cell]`.
    pub stones: [Cells<u64>; 2],
    /// Ko point keys, per cell.
    pub ko: Cells<u64>,
    /// XORed in when White is to move.
    pub white_to_move: u64,
}

const fn build() -> Keys {
    let mut keys = Keys {
        stones: [Cells::filled(0), Cells::filled(0)],
        ko: Cells::filled(0),
        white_to_move: 0,
    };
    let mut state = SEED;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            let (s, k) = splitmix(state);
            state = s;
            keys.stones[c].0[i] = k;
            i += 1;
        }
        c += 1;
    }
    let mut i = 0;
    while i < CELLS {
        let (s, k) = splitmix(state);
        state = s;
        keys.ko.0[i] = k;
        i += 1;
    }
    let (_, k) = splitmix(state);
    keys.white_to_move = k;
    keys
}

pub(crate) static KEYS: Keys = build();
