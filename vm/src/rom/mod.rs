//! The ROM image (format v6; v1 to v5 images still load): one module for the reader ([`Rom::from_bytes`], zero-copy, fully
//! validating) and the writer ([`write()`], feature `builder`), so the wire format is defined in
//! one place. The byte-by-byte description is `docs/rom-format.md`.

// The wire-level modules are private: an embedder reads an image through `Rom` and
// `CompactRom`; the few format facts the compiler needs are re-exported below. Each holds
// both directions of its records, so without the writer (features `alloc`, `builder`) the
// writing half is unused.
#[cfg(feature = "alloc")]
mod buf;
pub(crate) mod bytecode;
pub mod compact;
#[cfg_attr(not(feature = "builder"), allow(dead_code))]
pub(crate) mod facts;
#[cfg_attr(not(feature = "builder"), allow(dead_code))]
pub(crate) mod layout;
mod load;
pub(crate) mod lut;
#[cfg_attr(not(feature = "builder"), allow(dead_code))]
pub(crate) mod records;
#[cfg_attr(not(feature = "builder"), allow(dead_code))]
pub(crate) mod sliced;
#[cfg_attr(not(feature = "builder"), allow(dead_code))]
pub(crate) mod wire;
#[cfg(feature = "alloc")]
mod write;

#[cfg(feature = "alloc")]
pub use buf::{IMAGE_ALIGN, RomBuf};
#[cfg(feature = "alloc")]
pub use bytecode::decode_test;
pub use bytecode::{MAX_ARGS, MAX_STACK};
pub use compact::CompactRom;
pub use layout::mask_cells;
pub use lut::ClassLut;
pub use wire::fnv1a32;
#[cfg(feature = "alloc")]
pub use write::{
    Profile, WriteError, WriteOptions, fix_checksums, try_write, try_write_with, write, write_with,
};

use core::fmt;
use records::*;
use wire::Table;

/// First 8 bytes of every image.
pub const MAGIC: [u8; 8] = *b"LENSROM\x1a";
/// The format version this VM writes (it reads [`MIN_FORMAT_VERSION`]..=this).
pub const FORMAT_VERSION: u32 = 6;
/// The oldest format version this VM reads.
pub const MIN_FORMAT_VERSION: u32 = 1;
/// Bytes before the section table.
pub const HEADER_LEN: usize = records::HeaderRec::LEN;
/// Bytes per section-table entry.
pub const TABLE_ENTRY_LEN: usize = records::TableEntryRec::LEN;
/// Header flag: debug sections are absent.
pub const FLAG_STRIPPED: u32 = 1;
/// Header flag (format v3): a compact-profile image ([`compact`]), read by [`CompactRom`].
pub const FLAG_COMPACT: u32 = 2;
/// "No index" in optional u32 fields.
pub const NONE: u32 = u32::MAX;
/// Deepest glob nesting the VM accepts.
pub const MAX_GLOB_DEPTH: usize = 16;
/// Largest field side (odd): a class's field is at most `MAX_FIELD x MAX_FIELD` points.
pub const MAX_FIELD: usize = 25;
/// Largest `|dx|` or `|dy|` of any point an image names (cells, tests, results, sequences).
pub const MAX_OFFSET: i32 = 24;
/// Most endpoints a lens has.
pub const MAX_ENDPOINTS: usize = 8;

/// How a section appears in an image of one profile (a column of the [`Section`] table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// In every image of the profile.
    Always,
    /// In every image unless it is stripped (debug information).
    Debug,
    /// When the writer has something to put there (see [`Section::presence`]).
    Optional,
    /// Never in an image of the profile.
    Never,
}

/// One row of the section table: everything the loader, the writer and the docs test know
/// about a section kind.
struct SectionInfo {
    name: &'static str,
    record_len: usize,
    /// The first format version that defines the kind.
    since: u32,
    fast: Rule,
    compact: Rule,
}

/// The section table, the one place a section kind is declared: its kind number, name,
/// record length, first format version and whether fast and compact images hold it. It
/// generates [`Section`] and the data behind its methods; `docs/rom-format.md`'s table of
/// sections is checked against it (tests/tests/rom_format_doc.rs).
macro_rules! sections {
    ($(
        $(#[doc = $doc:literal])*
        $kind:literal $variant:ident $name:literal, record $len:expr, since $since:literal,
        fast $fast:ident, compact $compact:ident;
    )*) => {
        /// Section kinds, in the order they appear in the table and the file (the number is
        /// the kind stored in the section table).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        #[repr(u32)]
        pub enum Section {
            $( $(#[doc = $doc])* $variant = $kind, )*
        }

        /// Number of section kinds this VM knows (format v3).
        pub const SECTION_COUNT: usize = 0 $( + { let _ = $kind; 1 } )*;

        const SECTION_TABLE: [SectionInfo; SECTION_COUNT] = [$(
            SectionInfo {
                name: $name,
                record_len: $len,
                since: $since,
                fast: Rule::$fast,
                compact: Rule::$compact,
            },
        )*];

        impl Section {
            /// Every kind, in kind order.
            pub const ALL: [Section; SECTION_COUNT] = [$( Section::$variant, )*];
        }
    };
}

sections! {
    /// One record: the toolchain string.
    1 Meta "meta", record MetaRec::LEN, since 1, fast Always, compact Always;
    /// Where each string ends in `str_data`.
    2 StrIndex "str_index", record StrIndexRec::LEN, since 1, fast Always, compact Always;
    /// The bytes of every string (UTF-8).
    3 StrData "str_data", record 1, since 1, fast Always, compact Always;
    /// The engine globals tests read, by name.
    4 Globals "globals", record GlobalRec::LEN, since 1, fast Always, compact Optional;
    /// The engine predicates tests call: name, arity, cost.
    5 Externs "externs", record ExternRec::LEN, since 1, fast Always, compact Optional;
    /// One record per class.
    6 Classes "classes", record ClassRec::LEN, since 1, fast Always, compact Never;
    /// The class programs: runs of entries and globs.
    7 Items "items", record ItemRec::LEN, since 1, fast Always, compact Never;
    /// One record per stored orientation variant of a pattern.
    8 Entries "entries", record EntryRec::LEN, since 1, fast Always, compact Never;
    /// The packed absence-mask words of packed classes.
    9 Masks "masks", record MaskRec::LEN, since 1, fast Always, compact Never;
    /// One record per pattern.
    10 Patterns "patterns", record PatternRec::LEN, since 1, fast Always, compact Never;
    /// Constrained points of patterns and lens fields.
    11 Cells "cells", record CellRec::LEN, since 1, fast Always, compact Optional;
    /// Test blocks: bytecode span and cost.
    12 Tests "tests", record TestRec::LEN, since 1, fast Always, compact Never;
    /// The test code.
    13 Bytecode "bytecode", record 1, since 1, fast Always, compact Never;
    /// Pattern and lens results.
    14 Results "results", record ResultRec::LEN, since 1, fast Always, compact Never;
    /// Move sequences results point to.
    15 Sequences "sequences", record SequenceRec::LEN, since 1, fast Always, compact Optional;
    /// The moves of the sequences.
    16 SeqNodes "seq_nodes", record SeqNodeRec::LEN, since 1, fast Always, compact Optional;
    /// One record per lens.
    17 Lenses "lenses", record LensRec::LEN, since 1, fast Always, compact Optional;
    /// Lens endpoints.
    18 LensPoints "lens_points", record LensPointRec::LEN, since 1, fast Always, compact Optional;
    /// Lens fields: cells, tests and a result.
    19 LensFields "lens_fields", record LensFieldRec::LEN, since 1, fast Always, compact Optional;
    /// The lens decision trees.
    20 LensNodes "lens_nodes", record LensNodeRec::LEN, since 1, fast Always, compact Optional;
    /// The fields each lens tree leaf holds.
    21 LeafFields "leaf_fields", record LeafFieldRec::LEN, since 1, fast Always, compact Optional;
    /// Named joseki dictionaries: where each blob lies in `blobs`.
    22 Joseki "joseki", record JosekiRec::LEN, since 1, fast Always, compact Optional;
    /// Opaque `lens-joseki` encodings.
    23 Blobs "blobs", record 1, since 1, fast Always, compact Optional;
    /// Source file names (debug).
    24 DebugFiles "debug_files", record DebugFileRec::LEN, since 1, fast Debug, compact Never;
    /// Pattern names, spans and attributes (debug).
    25 DebugPatterns "debug_patterns", record DebugPatternRec::LEN, since 1, fast Debug, compact Never;
    /// Pattern attributes: key and value strings (debug).
    26 DebugAttrs "debug_attrs", record DebugAttrRec::LEN, since 1, fast Debug, compact Never;
    /// Optional: bit-sliced copies of the packed masks ([`Rom::has_sliced`]).
    27 Sliced "sliced", record SlicedIndexRec::LEN, since 1, fast Optional, compact Never;
    /// Optional, format v2: lookup tables of 3x3 classes ([`Rom::class_lut`]).
    28 Lut "lut", record LutIndexRec::LEN, since 2, fast Optional, compact Never;
    /// Format v3, compact images only: one record per class ([`compact`]).
    29 CompactClasses "compact_classes", record compact::CLASS_RECORD_LEN, since 3, fast Never, compact Always;
    /// Format v3, compact images only: the pattern records, class after class.
    30 CompactPatterns "compact_patterns", record 1, since 3, fast Never, compact Always;
    /// Format v3, compact images only: the results, varint-coded ([`compact`]).
    31 CompactResults "compact_results", record 1, since 3, fast Never, compact Optional;
    /// Format v3, compact images only: the test blocks with their costs ([`compact`]).
    32 CompactTests "compact_tests", record 1, since 3, fast Never, compact Optional;
    /// Format v3, compact images only: names, spans and provenance (bincode), unless stripped.
    33 Metadata "metadata", record 1, since 3, fast Never, compact Debug;
    /// Optional, format v5: per pattern, what a `Match` takes from its pattern and result
    /// records (`rom/facts.rs`, [`Rom::has_pattern_facts`]).
    34 PatFacts "pattern_facts", record PatFactRec::LEN, since 5, fast Optional, compact Never;
}

// Kinds are numbered 1, 2, ... in table order (`Section::index` and `from_u32` rely on it).
const _: () = {
    let mut i = 0;
    while i < SECTION_COUNT {
        assert!(Section::ALL[i] as usize == i + 1);
        i += 1;
    }
};

/// The highest section kind a format version defines (v1: up to `sliced` = 27; v2: `lut`;
/// v3: `metadata`).
pub const fn max_section_kind(version: u32) -> u32 {
    let mut max = 0;
    let mut i = 0;
    while i < SECTION_COUNT {
        if SECTION_TABLE[i].since <= version {
            max = i as u32 + 1;
        }
        i += 1;
    }
    max
}

/// Whether a section must, may or must not be in an image of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// The loader rejects an image without it ([`LoadErrorKind::MissingSection`]).
    Required,
    /// The writer adds it when it has content (or, for `sliced` and `lut`, when asked).
    Optional,
    /// The loader rejects an image with it.
    Absent,
}

impl Section {
    /// The kind stored in the section table (`None` for a kind this VM does not know).
    pub fn from_u32(k: u32) -> Option<Section> {
        Section::ALL.get((k as usize).wrapping_sub(1)).copied()
    }
    /// Position in [`Section::ALL`] (the kind minus 1).
    pub const fn index(self) -> usize {
        self as usize - 1
    }
    /// Bytes per record (1 for byte streams); a section's length is a whole number of them.
    pub const fn record_len(self) -> usize {
        SECTION_TABLE[self.index()].record_len
    }
    /// Debug sections are absent from stripped images.
    pub const fn is_debug(self) -> bool {
        matches!(SECTION_TABLE[self.index()].fast, Rule::Debug)
    }
    /// Whether the section belongs in an image with these header flags: the one rule the
    /// writer lays images out by and the loader checks them against.
    pub const fn presence(self, flags: u32) -> Presence {
        let info = &SECTION_TABLE[self.index()];
        let rule = if flags & FLAG_COMPACT != 0 {
            info.compact
        } else {
            info.fast
        };
        match rule {
            Rule::Always => Presence::Required,
            Rule::Debug if flags & FLAG_STRIPPED != 0 => Presence::Absent,
            Rule::Debug => Presence::Required,
            Rule::Optional => Presence::Optional,
            Rule::Never => Presence::Absent,
        }
    }
    /// The section's name in docs, listings and error messages (`str_index`).
    pub const fn name(self) -> &'static str {
        SECTION_TABLE[self.index()].name
    }
}

/// Why an image was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// Shorter than the header or than the length it declares.
    Truncated,
    /// The first 8 bytes are not [`MAGIC`].
    BadMagic,
    /// The `0xFEFF` check read differently: a big-endian image or a corrupt header.
    WrongEndianness,
    /// A format version this VM does not read (it reads 1 to 4).
    UnsupportedVersion(u32),
    /// The declared file length differs from the byte count.
    LengthMismatch {
        /// Bytes the header declares.
        declared: u64,
        /// Bytes given.
        actual: u64,
    },
    /// Header and section table checksum mismatch.
    HeaderChecksum,
    /// A section's bytes do not match its checksum.
    SectionChecksum(Section),
    /// A required section is missing.
    MissingSection(Section),
    /// A compact-profile image given to [`Rom::from_bytes`]: read it with [`CompactRom`] and
    /// expand it for matching.
    CompactImage,
    /// Structural problem; the text names it.
    Malformed(&'static str),
}

/// A rejected image: the byte offset of the offending field and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// Byte offset in the image of the field at fault.
    pub offset: usize,
    /// What is wrong there.
    pub reason: LoadErrorKind,
}

impl fmt::Display for LoadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadErrorKind::Truncated => f.write_str("image truncated"),
            LoadErrorKind::BadMagic => f.write_str("not a Lens ROM image (bad magic)"),
            LoadErrorKind::WrongEndianness => {
                f.write_str("endianness check failed (expected 0xFEFF little-endian)")
            }
            LoadErrorKind::UnsupportedVersion(v) => {
                write!(
                    f,
                    "format version {v} is not supported (this VM reads versions {MIN_FORMAT_VERSION} to {FORMAT_VERSION})"
                )
            }
            LoadErrorKind::LengthMismatch { declared, actual } => {
                write!(
                    f,
                    "header declares {declared} bytes but the image has {actual}"
                )
            }
            LoadErrorKind::HeaderChecksum => f.write_str("header checksum mismatch"),
            LoadErrorKind::SectionChecksum(s) => {
                write!(f, "checksum mismatch in section `{}`", s.name())
            }
            LoadErrorKind::MissingSection(s) => {
                write!(f, "required section `{}` is missing", s.name())
            }
            LoadErrorKind::CompactImage => f.write_str(
                "a compact-profile image: read it with CompactRom::from_bytes and expand it to match",
            ),
            LoadErrorKind::Malformed(why) => f.write_str(why),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {}: {}", self.offset, self.reason)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LoadError {}

/// Aligns `include_bytes!` data to 64 bytes (a cache line):
/// `static ROM: &AlignedRom<[u8]> = &AlignedRom { _align: [], bytes: *include_bytes!("x.rom") };`
/// (The loader reads with bounds-checked little-endian loads, so alignment is a speed matter,
/// never a correctness one: from format v6 the `sliced` tables lie on 64-byte lines of the
/// file, so a 512-entry row is one cache line when the image is 64-aligned.)
#[repr(C, align(64))]
pub struct AlignedRom<B: ?Sized> {
    /// Zero-sized (the alignment comes from the struct's `repr`).
    pub _align: [u64; 0],
    /// The image.
    pub bytes: B,
}

/// A class, by index in the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClassId(pub u32);
/// A lens, by index in the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LensId(pub u32);

/// Class matching mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One suggestion: highest priority, then highest value, then earliest.
    Best,
    /// Every match in class order.
    All,
    /// The first suggestion in class order; matching stops there.
    First,
}

/// Mode byte of a class record (0 best, 1 all, 2 first; the loader refuses others).
pub(crate) const fn mode_from_u8(b: u8) -> Mode {
    match b {
        0 => Mode::Best,
        1 => Mode::All,
        _ => Mode::First,
    }
}

/// The mode byte a class record stores.
#[cfg(feature = "alloc")]
pub(crate) const fn mode_to_u8(m: Mode) -> u8 {
    match m {
        Mode::Best => 0,
        Mode::All => 1,
        Mode::First => 2,
    }
}

/// The orientation-policy byte a class record stores.
#[cfg(feature = "alloc")]
pub(crate) const fn orient_to_u8(o: OrientPolicy) -> u8 {
    match o {
        OrientPolicy::All => 0,
        OrientPolicy::Up => 1,
        OrientPolicy::Identity => 2,
    }
}

/// Orientation-policy byte of a class record (0 all, 1 up, 2 identity).
pub(crate) const fn orient_from_u8(b: u8) -> OrientPolicy {
    match b {
        0 => OrientPolicy::All,
        1 => OrientPolicy::Up,
        _ => OrientPolicy::Identity,
    }
}

/// Class orientation policy (informative: the variants present already reflect it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrientPolicy {
    /// All 8 orientations.
    All,
    /// The 4 that keep the drawn "up" edge up (mirror images only).
    Up,
    /// The drawn orientation alone.
    Identity,
}

/// Which matching path a class uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Packed absence masks in the 7x7 window (bit layout: `docs/rom-format.md`).
    Packed,
    /// Point-by-point over the cell lists (fields larger than 7x7).
    General,
}

/// Class program items (see `docs/rom-format.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// Plain pattern variants: entries `first..end`.
    Run {
        /// First entry.
        first: u32,
        /// One past the last entry.
        end: u32,
    },
    /// A glob: header variants are entries `first..end`; `close` is the index of the matching
    /// [`Item::GlobEnd`].
    Glob {
        /// First header entry.
        first: u32,
        /// One past the last header entry.
        end: u32,
        /// Index of the [`Item::GlobEnd`] that closes the glob.
        close: u32,
    },
    /// Closes the innermost open glob.
    GlobEnd,
}

pub(crate) const ITEM_RUN: u32 = 0;
pub(crate) const ITEM_GLOB: u32 = 1;
pub(crate) const ITEM_END: u32 = 2;

/// A pattern result as stored (offsets in the drawn orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawResult {
    /// Suggest the move at `(dx, dy)`.
    Move {
        /// Columns east of the focus.
        dx: i8,
        /// Rows south of the focus.
        dy: i8,
        /// The pattern's value for the move.
        value: i32,
        /// Engine-defined descriptor bits.
        bits: u32,
        /// The follow-up sequence ([`Rom::sequence`]).
        sequence: Option<u32>,
    },
    /// Forbid the move at `(dx, dy)` for the rest of the call.
    Reject {
        /// Columns east of the focus.
        dx: i8,
        /// Rows south of the focus.
        dy: i8,
    },
    /// A value with no move.
    Value {
        /// The value.
        value: i32,
        /// Engine-defined descriptor bits.
        bits: u32,
    },
}

/// A validated, zero-copy view of a ROM image. `Copy`, `Sync`, immutable.
#[derive(Clone, Copy, Debug)]
pub struct Rom<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) t: [Table<'a>; SECTION_COUNT],
    pub(crate) stripped: bool,
}

impl<'a> Rom<'a> {
    #[inline]
    pub(crate) fn t(&self, s: Section) -> &Table<'a> {
        &self.t[s.index()]
    }

    /// The whole image.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
    /// `(offset, length)` of a section in the image; `None` when absent.
    pub fn section_span(&self, s: Section) -> Option<(usize, usize)> {
        // Every present section starts after the header, so offset 0 means absent.
        let t = self.t(s);
        (t.base != 0).then_some((t.base, t.data.len()))
    }
    /// The version in the image's header (1 to 4).
    pub fn format_version(&self) -> u32 {
        HeaderRec::read(self.bytes).version
    }
    /// The hash of the sources the image was compiled from (FNV-1a 64; `RomSpec::source_hash`).
    pub fn source_hash(&self) -> u64 {
        HeaderRec::read(self.bytes).source_hash
    }
    /// Whether the debug sections (names, spans, attributes) were left out.
    pub fn is_stripped(&self) -> bool {
        self.stripped
    }
    /// The writer's name and version (e.g. `lensc 0.1.0`).
    pub fn toolchain(&self) -> &'a str {
        self.string(self.t(Section::Meta).rec::<MetaRec>(0).toolchain)
    }

    /// String by index ("" when out of range; the loader checked every stored index).
    pub fn string(&self, i: u32) -> &'a str {
        self.strings().get(i)
    }
}

/// The string tables of an image.
#[derive(Clone, Copy, Debug)]
struct Strings<'a> {
    index: Table<'a>,
    data: Table<'a>,
}

impl<'a> Strings<'a> {
    /// String `i` ("" when out of range).
    fn get(&self, i: u32) -> &'a str {
        let idx = &self.index;
        let i = i as usize;
        if i >= idx.len() {
            return "";
        }
        let start = if i == 0 {
            0
        } else {
            idx.rec::<StrIndexRec>(i - 1).end as usize
        };
        let end = idx.rec::<StrIndexRec>(i).end as usize;
        self.data
            .data
            .get(start..end)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

impl<'a> Rom<'a> {
    /// Number of engine globals tests read.
    pub fn global_count(&self) -> usize {
        self.t(Section::Globals).len()
    }
    /// Name of global `i` ("" out of range): what [`crate::Host::global`] is asked for by index.
    pub fn global_name(&self, i: usize) -> &'a str {
        self.string(self.t(Section::Globals).rec::<GlobalRec>(i).name)
    }
    /// Number of engine predicates tests call.
    pub fn extern_count(&self) -> usize {
        self.t(Section::Externs).len()
    }
    /// `(name, arity, cost)` of an extern predicate.
    pub fn extern_info(&self, i: usize) -> (&'a str, u8, u32) {
        let e: ExternRec = self.t(Section::Externs).rec(i);
        (self.string(e.name), e.arity, e.cost)
    }

    // ---- classes ----
    /// Number of classes.
    pub fn class_count(&self) -> usize {
        self.t(Section::Classes).len()
    }
    /// A class by id; `None` out of range.
    pub fn class(&self, id: ClassId) -> Option<ClassInfo<'a>> {
        ((id.0 as usize) < self.class_count()).then(|| self.class_info(id.0 as usize))
    }
    /// The class at `index` (which must be in range): its decoded record and the few tables
    /// it reads, not a copy of the whole `Rom` (which is 30 tables).
    #[inline]
    fn class_info(&self, index: usize) -> ClassInfo<'a> {
        ClassInfo {
            rec: self.t(Section::Classes).rec(index),
            index,
            items: *self.t(Section::Items),
            masks: *self.t(Section::Masks),
            strings: self.strings(),
        }
    }
    /// The string tables.
    #[inline]
    fn strings(&self) -> Strings<'a> {
        Strings {
            index: *self.t(Section::StrIndex),
            data: *self.t(Section::StrData),
        }
    }
    /// The first class with this name (a linear search: look it up once, keep the id).
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        (0..self.class_count())
            .find(|&i| self.string(self.t(Section::Classes).rec::<ClassRec>(i).name) == name)
            .map(|i| ClassId(i as u32))
    }
    /// Every class, in id order.
    pub fn classes(&self) -> impl Iterator<Item = ClassInfo<'a>> + 'a {
        let rom = *self;
        (0..self.class_count()).map(move |index| rom.class_info(index))
    }

    // ---- class program ----
    /// Item `i` of the `items` section (the class programs, all classes in a row).
    pub fn item(&self, i: u32) -> Item {
        item_in(self.t(Section::Items), i)
    }
    /// `(pattern index, orientation, covers)` of a variant entry.
    #[inline]
    pub fn entry(&self, e: u32) -> (u32, u8, u8) {
        let r: EntryRec = self.t(Section::Entries).rec(e as usize);
        (r.pattern, r.orientation, r.covers)
    }
    /// Number of variant entries, all classes together.
    pub fn entry_count(&self) -> usize {
        self.t(Section::Entries).len()
    }
    /// Packed masks of entry `e` of a packed class (zeros beyond the class's word count).
    pub fn entry_masks(&self, class: &ClassInfo<'a>, e: u32) -> [u64; 3] {
        let mut m = [0u64; 3];
        let n = class.entry_count() as usize;
        let rel = (e - class.first_entry()) as usize;
        for (w, slot) in m.iter_mut().enumerate().take(class.words()) {
            *slot = self
                .t(Section::Masks)
                .rec::<MaskRec>(class.mask_first() + w * n + rel)
                .bits;
        }
        m
    }

    // ---- patterns ----
    /// Number of patterns, all classes together.
    pub fn pattern_count(&self) -> usize {
        self.t(Section::Patterns).len()
    }
    /// Pattern `p` by index in the `patterns` section (entries name it; reads as empty out of range).
    pub fn pattern(&self, p: u32) -> PatternInfo<'a> {
        PatternInfo {
            patterns: *self.t(Section::Patterns),
            cells: *self.t(Section::Cells),
            tests: *self.t(Section::Tests),
            bytecode: *self.t(Section::Bytecode),
            results: *self.t(Section::Results),
            index: p as usize,
        }
    }
    /// Name of the pattern with `PatternSpec::id` `id`; `None` when stripped.
    pub fn pattern_name(&self, id: u32) -> Option<&'a str> {
        if self.stripped {
            return None;
        }
        let t = self.t(Section::DebugPatterns);
        ((id as usize) < t.len()).then(|| self.string(t.rec::<DebugPatternRec>(id as usize).name))
    }
    /// Debug record of a pattern id: `(name, file name, start, end)`.
    pub fn pattern_debug(&self, id: u32) -> Option<(&'a str, &'a str, u32, u32)> {
        if self.stripped {
            return None;
        }
        let t = self.t(Section::DebugPatterns);
        let i = id as usize;
        if i >= t.len() {
            return None;
        }
        let d: DebugPatternRec = t.rec(i);
        let file: DebugFileRec = self.t(Section::DebugFiles).rec(d.file as usize);
        Some((self.string(d.name), self.string(file.name), d.start, d.end))
    }
    /// `attr` pairs of a pattern id.
    pub fn pattern_attrs(&self, id: u32) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let rom = *self;
        let t = *self.t(Section::DebugPatterns);
        let (first, count) = if self.stripped || id as usize >= t.len() {
            (0, 0)
        } else {
            let d: DebugPatternRec = t.rec(id as usize);
            (d.first_attr, d.attr_count)
        };
        (first..first + count).map(move |a| {
            let r: DebugAttrRec = rom.t(Section::DebugAttrs).rec(a as usize);
            (rom.string(r.key), rom.string(r.value))
        })
    }
    /// The source file names (none when stripped).
    pub fn debug_files(&self) -> impl Iterator<Item = &'a str> + 'a {
        let rom = *self;
        let n = if self.stripped {
            0
        } else {
            self.t(Section::DebugFiles).len()
        };
        (0..n).map(move |i| rom.string(rom.t(Section::DebugFiles).rec::<DebugFileRec>(i).name))
    }

    /// Cell `c`: `(dx, dy, allowed)`.
    #[inline]
    pub fn cell(&self, c: u32) -> (i8, i8, u8) {
        cell_in(self.t(Section::Cells), c)
    }
    /// Bytecode of test `i` and its cost.
    pub fn test(&self, i: u32) -> (&'a [u8], u32) {
        test_in(self.t(Section::Tests), self.t(Section::Bytecode), i)
    }
    /// Result `r` of the `results` section.
    pub fn result(&self, r: u32) -> RawResult {
        result_in(self.t(Section::Results), r)
    }

    // ---- sequences ----
    /// Number of move sequences.
    pub fn sequence_count(&self) -> usize {
        self.t(Section::Sequences).len()
    }
    /// Nodes of a sequence in pre-order: `(point or None for pass, depth)`.
    pub fn sequence(&self, s: u32) -> impl Iterator<Item = (Option<(i8, i8)>, u16)> + 'a {
        let rom = *self;
        let q: SequenceRec = self.t(Section::Sequences).rec(s as usize);
        (q.first..q.first.saturating_add(q.count)).map(move |n| {
            let node: SeqNodeRec = rom.t(Section::SeqNodes).rec(n as usize);
            let pt = if node.flags & 1 != 0 {
                None
            } else {
                Some((node.dx, node.dy))
            };
            (pt, node.depth)
        })
    }

    // ---- lenses ----
    /// Number of lenses.
    pub fn lens_count(&self) -> usize {
        self.t(Section::Lenses).len()
    }
    /// A lens by id; `None` out of range.
    pub fn lens(&self, id: LensId) -> Option<LensInfo<'a>> {
        let index = id.0 as usize;
        (index < self.lens_count()).then(|| LensInfo {
            rec: self.t(Section::Lenses).rec(index),
            index,
            points: *self.t(Section::LensPoints),
            fields: *self.t(Section::LensFields),
            nodes: *self.t(Section::LensNodes),
            leaf_fields: *self.t(Section::LeafFields),
            strings: self.strings(),
        })
    }
    /// The first lens with this name.
    pub fn lens_by_name(&self, name: &str) -> Option<LensId> {
        (0..self.lens_count())
            .find(|&i| self.string(self.t(Section::Lenses).rec::<LensRec>(i).name) == name)
            .map(|i| LensId(i as u32))
    }

    // ---- joseki ----
    /// Number of joseki dictionaries.
    pub fn joseki_count(&self) -> usize {
        self.t(Section::Joseki).len()
    }
    /// `(name, encoded bytes)` of joseki blob `i`.
    pub fn joseki_at(&self, i: usize) -> (&'a str, &'a [u8]) {
        let j: JosekiRec = self.t(Section::Joseki).rec(i);
        let (off, len) = (j.offset as usize, j.len as usize);
        (
            self.string(j.name),
            self.t(Section::Blobs)
                .data
                .get(off..off + len)
                .unwrap_or(&[]),
        )
    }
    /// The encoded dictionary with this name (decode it with `lens-joseki`).
    pub fn joseki_blob(&self, name: &str) -> Option<&'a [u8]> {
        (0..self.joseki_count())
            .map(|i| self.joseki_at(i))
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b)
    }
}

/// A class of a loaded image: its decoded record and the tables its methods read (no copy
/// of the whole [`Rom`]).
#[derive(Clone, Copy, Debug)]
pub struct ClassInfo<'a> {
    rec: ClassRec,
    pub(crate) index: usize,
    items: Table<'a>,
    masks: Table<'a>,
    strings: Strings<'a>,
}

impl<'a> ClassInfo<'a> {
    /// The class's record.
    #[inline(always)]
    fn rec(&self) -> ClassRec {
        self.rec
    }
    /// The class's id.
    pub fn id(&self) -> ClassId {
        ClassId(self.index as u32)
    }
    /// The class's name.
    pub fn name(&self) -> &'a str {
        self.strings.get(self.rec().name)
    }
    /// Which matches a call reports.
    pub fn mode(&self) -> Mode {
        mode_from_u8(self.rec().mode)
    }
    /// Allowed focus states (bit 0 friend, 1 foe, 2 empty, 3 off).
    pub fn focus(&self) -> u8 {
        self.rec().focus
    }
    /// Field width (odd, at most [`MAX_FIELD`]).
    pub fn width(&self) -> u8 {
        self.rec().width
    }
    /// Field height (odd, at most [`MAX_FIELD`]).
    pub fn height(&self) -> u8 {
        self.rec().height
    }
    /// The orientation policy the variants were compiled for.
    pub fn orient(&self) -> OrientPolicy {
        orient_from_u8(self.rec().orient)
    }
    /// Whether the class has packed masks.
    pub fn kernel(&self) -> Kernel {
        if self.rec().kernel == 0 {
            Kernel::Packed
        } else {
            Kernel::General
        }
    }
    /// Mask words per variant (1..=3 packed, 0 general).
    pub fn words(&self) -> usize {
        self.rec().words as usize
    }
    /// The value reported when no pattern matches (`default N;`).
    pub fn default_value(&self) -> Option<i32> {
        let r = self.rec();
        (r.has_default != 0).then_some(r.default)
    }
    /// Index of the class's first item in the `items` section.
    pub fn first_item(&self) -> u32 {
        self.rec().first_item
    }
    /// Number of items in the class program.
    pub fn item_count(&self) -> u32 {
        self.rec().item_count
    }
    /// Index of the class's first variant entry ([`Rom::entry`]).
    pub fn first_entry(&self) -> u32 {
        self.rec().first_entry
    }
    /// Number of variant entries (stored orientations of its patterns).
    pub fn entry_count(&self) -> u32 {
        self.rec().entry_count
    }
    pub(crate) fn mask_first(&self) -> usize {
        self.rec().mask_first as usize
    }
    /// Index of the class's first pattern ([`Rom::pattern`]).
    pub fn first_pattern(&self) -> u32 {
        self.rec().first_pattern
    }
    /// Number of patterns in the class.
    pub fn pattern_count(&self) -> u32 {
        self.rec().pattern_count
    }
    /// The class program.
    pub fn items(&self) -> impl Iterator<Item = Item> + 'a {
        let items = self.items;
        (self.first_item()..self.first_item() + self.item_count()).map(move |i| item_in(&items, i))
    }
    /// The mask words of word `w` for all entries of the class (`entry_count * 8` bytes).
    #[inline]
    pub(crate) fn mask_words(&self, w: usize) -> &'a [u8] {
        let n = self.entry_count() as usize;
        let start = (self.mask_first() + w * n) * 8;
        self.masks.data.get(start..start + n * 8).unwrap_or(&[])
    }
}

/// Item `i` of an items table.
#[inline]
fn item_in(t: &Table<'_>, i: u32) -> Item {
    let r: ItemRec = t.rec(i as usize);
    match r.kind {
        ITEM_RUN => Item::Run {
            first: r.first,
            end: r.end,
        },
        ITEM_GLOB => Item::Glob {
            first: r.first,
            end: r.end,
            close: r.close,
        },
        _ => Item::GlobEnd,
    }
}

/// Cell `c` of a cells table: `(dx, dy, allowed)`.
#[inline]
fn cell_in(t: &Table<'_>, c: u32) -> (i8, i8, u8) {
    let r: CellRec = t.rec(c as usize);
    (r.dx, r.dy, r.allowed)
}

/// Test `i` of a tests table: its bytecode and cost.
fn test_in<'a>(tests: &Table<'a>, bytecode: &Table<'a>, i: u32) -> (&'a [u8], u32) {
    let r: TestRec = tests.rec(i as usize);
    let (off, len) = (r.offset as usize, r.len as usize);
    (bytecode.data.get(off..off + len).unwrap_or(&[]), r.cost)
}

/// Result `r` of a results table.
fn result_in(t: &Table<'_>, r: u32) -> RawResult {
    let ResultRec {
        kind,
        dx,
        dy,
        value,
        bits,
        sequence: seq,
        ..
    } = t.rec(r as usize);
    match kind {
        0 => RawResult::Move {
            dx,
            dy,
            value,
            bits,
            sequence: (seq != NONE).then_some(seq),
        },
        1 => RawResult::Reject { dx, dy },
        _ => RawResult::Value { value, bits },
    }
}

/// A pattern of a loaded image. It holds just the tables it reads (not a whole [`Rom`], whose
/// copy per call showed in the scan profile).
#[derive(Clone, Copy, Debug)]
pub struct PatternInfo<'a> {
    patterns: Table<'a>,
    cells: Table<'a>,
    tests: Table<'a>,
    bytecode: Table<'a>,
    results: Table<'a>,
    pub(crate) index: usize,
}

impl<'a> PatternInfo<'a> {
    /// The pattern's record.
    #[inline(always)]
    fn rec(&self) -> PatternRec {
        self.patterns.rec(self.index)
    }
    /// `PatternSpec::id` (index of its debug record).
    pub fn id(&self) -> u32 {
        self.rec().id
    }
    /// The pattern's priority (higher wins in [`Mode::Best`]).
    pub fn priority(&self) -> i32 {
        self.rec().priority
    }
    /// Cells in the drawn orientation: `(dx, dy, allowed states)`.
    pub fn cells(&self) -> impl Iterator<Item = (i8, i8, u8)> + 'a {
        let cells = self.cells;
        let r = self.rec();
        (r.first_cell..r.first_cell + r.cell_count).map(move |c| cell_in(&cells, c))
    }
    /// Test blocks in run order: `(bytecode, cost)`.
    pub fn tests(&self) -> impl Iterator<Item = (&'a [u8], u32)> + 'a {
        let (tests, bytecode) = (self.tests, self.bytecode);
        let r = self.rec();
        (r.first_test..r.first_test + r.test_count).map(move |i| test_in(&tests, &bytecode, i))
    }
    /// The pattern's result; `None` for a glob header.
    pub fn result(&self) -> Option<RawResult> {
        let r = self.rec().result;
        (r != NONE).then(|| result_in(&self.results, r))
    }
}

/// A lens of a loaded image: its decoded record and the tables its methods read (no copy of
/// the whole [`Rom`]).
#[derive(Clone, Copy, Debug)]
pub struct LensInfo<'a> {
    rec: LensRec,
    pub(crate) index: usize,
    points: Table<'a>,
    fields: Table<'a>,
    nodes: Table<'a>,
    leaf_fields: Table<'a>,
    strings: Strings<'a>,
}

/// A lens decision-tree node (children and fields are indices relative to the lens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LensNode {
    /// Branch on the state of the point `(dx, dy)` from the first endpoint.
    Branch {
        /// Columns east of the first endpoint.
        dx: i8,
        /// Rows south of the first endpoint.
        dy: i8,
        /// Child nodes for friend, foe, empty, off.
        children: [u32; 4],
    },
    /// The fields whose point states hold on this path: leaf-list positions
    /// `first..first + count` ([`LensInfo::leaf_field`]).
    Leaf {
        /// First leaf-list position.
        first: u32,
        /// Number of fields.
        count: u32,
    },
}

impl<'a> LensInfo<'a> {
    /// The lens's record.
    #[inline(always)]
    fn rec(&self) -> LensRec {
        self.rec
    }
    /// The lens's id.
    pub fn id(&self) -> LensId {
        LensId(self.index as u32)
    }
    /// The lens's name.
    pub fn name(&self) -> &'a str {
        self.strings.get(self.rec().name)
    }
    /// The engine-defined kind of lens (`LensSpec::lens_type`).
    pub fn lens_type(&self) -> u32 {
        self.rec().lens_type
    }
    /// Written endpoints relative to the first.
    pub fn endpoints(&self) -> impl Iterator<Item = (i8, i8)> + 'a {
        let points = self.points;
        let r = self.rec();
        (r.first_point..r.first_point + r.point_count).map(move |i| {
            let p: LensPointRec = points.rec(i as usize);
            (p.dx, p.dy)
        })
    }
    /// Number of endpoints (1..=8).
    pub fn endpoint_count(&self) -> u32 {
        self.rec().point_count
    }
    /// Number of fields.
    pub fn field_count(&self) -> u32 {
        self.rec().field_count
    }
    /// Field `f`: `(cells first, cells count, tests first, tests count, result index)`.
    pub fn field(&self, f: u32) -> (u32, u32, u32, u32, u32) {
        let i = (self.rec().first_field + f) as usize;
        let r: LensFieldRec = self.fields.rec(i);
        (
            r.first_cell,
            r.cell_count,
            r.first_test,
            r.test_count,
            r.result,
        )
    }
    /// Number of decision-tree nodes (node 0 is the root).
    pub fn node_count(&self) -> u32 {
        self.rec().node_count
    }
    /// Decision-tree node `n`.
    pub fn node(&self, n: u32) -> LensNode {
        let i = (self.rec().first_node + n) as usize;
        let r: LensNodeRec = self.nodes.rec(i);
        if r.kind == 0 {
            LensNode::Branch {
                dx: r.dx,
                dy: r.dy,
                children: [r.child0, r.child1, r.child2, r.child3],
            }
        } else {
            LensNode::Leaf {
                first: r.child0,
                count: r.child1,
            }
        }
    }
    /// Field index stored at leaf-list position `k`.
    pub fn leaf_field(&self, k: u32) -> u32 {
        self.leaf_fields.rec::<LeafFieldRec>(k as usize).field
    }
}
