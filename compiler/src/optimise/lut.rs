//! 3x3 classes as direct lookup tables (SPEC: "compile small exact classes (3x3) to direct
//! lookup tables (Pachi/Fuego style) when smaller and faster"). The table itself is built by
//! the ROM writer from the masks it packs (`lens_vm::rom::lut`), like the bit-sliced tables;
//! this module states the compiler's rule and turns it into write options.
//!
//! The rule, per class, deterministic (it depends only on the class's masks):
//! * **eligible**: a packed class of 1..=512 stored variants whose masks test nothing outside
//!   the focus, its 8 neighbours and the distance-1 edges (every constrained cell within
//!   distance 1 of the focus), with a non-empty focus set. Tests do not matter: entries with
//!   tests keep running them on the candidates the table gives.
//! * **faster**: always, for an eligible class: one 3x3 window cut and three loads replace the
//!   scan over every variant's mask (or the bit-sliced row ORs), so the table is used whenever
//!   it is present.
//! * **small enough**: the table (directory, deduplicated 256-slot blocks, deduplicated entry
//!   sets) takes at most [`LUT_MAX_BYTES`] (128 KiB, 1/16 of the 2 MiB L2) and at most
//!   [`LUT_MAX_BYTES_PER_VARIANT`] (256) bytes per stored variant (the masks and entry take 25,
//!   the sliced tables 22): the gain over the other kernels grows with the variant count, so a
//!   small class, already quick to match, does not pay a table many times its size. The stdlib
//!   `shape3x3` (494 variants, mode all) takes 69,092 bytes (140 per variant). The masks stay in
//!   the image (the board-parallel scan and the loader's check read them), so the table is an
//!   addition; a class over the budget keeps the sliced/mask kernels.

use lens_vm::rom::{Profile, WriteOptions};

/// Largest lookup table per class, in bytes.
pub const LUT_MAX_BYTES: u32 = WriteOptions::COMPILER_LUT_MAX_BYTES;
/// Largest lookup table per stored variant of the class, in bytes.
pub const LUT_MAX_BYTES_PER_VARIANT: u32 = WriteOptions::COMPILER_LUT_MAX_BYTES_PER_VARIANT;

/// The writer options for `lensc`: bit-sliced tables unless `no_sliced`, lookup tables unless
/// `no_lut`.
pub fn write_options(no_sliced: bool, no_lut: bool, profile: Profile) -> WriteOptions {
    WriteOptions {
        profile,
        sliced_block_words: if no_sliced {
            0
        } else {
            WriteOptions::COMPILER.sliced_block_words
        },
        lut_max_bytes: if no_lut { 0 } else { LUT_MAX_BYTES },
        lut_max_bytes_per_variant: LUT_MAX_BYTES_PER_VARIANT,
    }
}
