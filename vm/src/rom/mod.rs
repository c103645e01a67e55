//! The ROM image (format v3; v1 and v2 images still load): one module for the reader ([`Rom::from_bytes`], zero-copy, fully
//! validating) and the writer ([`write`], feature `builder`), so the wire format is defined in
//! one place. The byte-by-byte description is `docs/rom-format.md`.

// The wire-level modules are private: an embedder reads an image through `Rom` and
// `CompactRom`; the few format facts the compiler needs are re-exported below. Each holds
// both directions of its records, so without the writer (features `alloc`, `builder`) the
// writing half is unused.
pub(crate) mod bytecode;
pub mod compact;
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

pub use bytecode::{MAX_ARGS, MAX_STACK};
#[cfg(feature = "alloc")]
pub use bytecode::decode_test;
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
pub const FORMAT_VERSION: u32 = 3;
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

/// Section kinds, in the order they appear in the table and the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u32)]
pub enum Section {
    Meta = 1,
    StrIndex,
    StrData,
    Globals,
    Externs,
    Classes,
    Items,
    Entries,
    Masks,
    Patterns,
    Cells,
    Tests,
    Bytecode,
    Results,
    Sequences,
    SeqNodes,
    Lenses,
    LensPoints,
    LensFields,
    LensNodes,
    LeafFields,
    Joseki,
    Blobs,
    DebugFiles,
    DebugPatterns,
    DebugAttrs,
    /// Optional: bit-sliced copies of the packed masks ([`sliced`]).
    Sliced,
    /// Optional, format v2: lookup tables of 3x3 classes ([`lut`]).
    Lut,
    /// Format v3, compact images only: one record per class ([`compact`]).
    CompactClasses,
    /// Format v3, compact images only: the pattern records, class after class.
    CompactPatterns,
    /// Format v3, compact images only: the results, varint-coded ([`compact`]).
    CompactResults,
    /// Format v3, compact images only: the test blocks with their costs ([`compact`]).
    CompactTests,
    /// Format v3, compact images only: names, spans and provenance (bincode), unless stripped.
    Metadata,
}

/// Number of section kinds this VM knows (format v3).
pub const SECTION_COUNT: usize = 33;

/// The highest section kind a format version defines (v1: up to `sliced` = 27; v2: `lut`;
/// v3: `metadata`).
pub const fn max_section_kind(version: u32) -> u32 {
    match version {
        0 | 1 => 27,
        2 => 28,
        _ => 33,
    }
}

/// Whether a section must, may or must not be in an image of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Required,
    Optional,
    Absent,
}

impl Section {
    pub const ALL: [Section; SECTION_COUNT] = [
        Section::Meta,
        Section::StrIndex,
        Section::StrData,
        Section::Globals,
        Section::Externs,
        Section::Classes,
        Section::Items,
        Section::Entries,
        Section::Masks,
        Section::Patterns,
        Section::Cells,
        Section::Tests,
        Section::Bytecode,
        Section::Results,
        Section::Sequences,
        Section::SeqNodes,
        Section::Lenses,
        Section::LensPoints,
        Section::LensFields,
        Section::LensNodes,
        Section::LeafFields,
        Section::Joseki,
        Section::Blobs,
        Section::DebugFiles,
        Section::DebugPatterns,
        Section::DebugAttrs,
        Section::Sliced,
        Section::Lut,
        Section::CompactClasses,
        Section::CompactPatterns,
        Section::CompactResults,
        Section::CompactTests,
        Section::Metadata,
    ];
    pub fn from_u32(k: u32) -> Option<Section> {
        Section::ALL.get((k as usize).wrapping_sub(1)).copied()
    }
    pub const fn index(self) -> usize {
        self as usize - 1
    }
    /// Bytes per record.
    pub const fn record_len(self) -> usize {
        match self {
            Section::Meta => MetaRec::LEN,
            Section::StrIndex => StrIndexRec::LEN,
            Section::StrData => 1,
            Section::Globals => GlobalRec::LEN,
            Section::Externs => ExternRec::LEN,
            Section::Classes => ClassRec::LEN,
            Section::Items => ItemRec::LEN,
            Section::Entries => EntryRec::LEN,
            Section::Masks => MaskRec::LEN,
            Section::Patterns => PatternRec::LEN,
            Section::Cells => CellRec::LEN,
            Section::Tests => TestRec::LEN,
            Section::Bytecode => 1,
            Section::Results => ResultRec::LEN,
            Section::Sequences => SequenceRec::LEN,
            Section::SeqNodes => SeqNodeRec::LEN,
            Section::Lenses => LensRec::LEN,
            Section::LensPoints => LensPointRec::LEN,
            Section::LensFields => LensFieldRec::LEN,
            Section::LensNodes => LensNodeRec::LEN,
            Section::LeafFields => LeafFieldRec::LEN,
            Section::Joseki => JosekiRec::LEN,
            Section::Blobs => 1,
            Section::DebugFiles => DebugFileRec::LEN,
            Section::DebugPatterns => DebugPatternRec::LEN,
            Section::DebugAttrs => DebugAttrRec::LEN,
            Section::Sliced => SlicedIndexRec::LEN,
            Section::Lut => LutIndexRec::LEN,
            Section::CompactClasses => compact::CLASS_RECORD_LEN,
            Section::CompactPatterns => 1,
            Section::CompactResults => 1,
            Section::CompactTests => 1,
            Section::Metadata => 1,
        }
    }
    /// Debug sections are absent from stripped images.
    pub const fn is_debug(self) -> bool {
        matches!(
            self,
            Section::DebugFiles | Section::DebugPatterns | Section::DebugAttrs
        )
    }
    /// Sections an image may omit whether stripped or not.
    pub const fn is_optional(self) -> bool {
        matches!(self, Section::Sliced | Section::Lut)
    }
    /// Whether the section belongs in an image with these header flags: the one rule the
    /// writer lays images out by and the loader checks them against.
    pub const fn presence(self, flags: u32) -> Presence {
        let stripped = flags & FLAG_STRIPPED != 0;
        if flags & FLAG_COMPACT != 0 {
            // Compact images leave out every list that would be empty.
            return match self {
                Section::Meta
                | Section::StrIndex
                | Section::StrData
                | Section::CompactClasses
                | Section::CompactPatterns => Presence::Required,
                Section::Metadata if !stripped => Presence::Required,
                Section::Globals
                | Section::Externs
                | Section::Cells
                | Section::Sequences
                | Section::SeqNodes
                | Section::Lenses
                | Section::LensPoints
                | Section::LensFields
                | Section::LensNodes
                | Section::LeafFields
                | Section::Joseki
                | Section::Blobs
                | Section::CompactResults
                | Section::CompactTests => Presence::Optional,
                _ => Presence::Absent,
            };
        }
        match self {
            Section::DebugFiles | Section::DebugPatterns | Section::DebugAttrs if stripped => {
                Presence::Absent
            }
            Section::Sliced | Section::Lut => Presence::Optional,
            Section::CompactClasses
            | Section::CompactPatterns
            | Section::CompactResults
            | Section::CompactTests
            | Section::Metadata => Presence::Absent,
            _ => Presence::Required,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Section::Meta => "meta",
            Section::StrIndex => "str_index",
            Section::StrData => "str_data",
            Section::Globals => "globals",
            Section::Externs => "externs",
            Section::Classes => "classes",
            Section::Items => "items",
            Section::Entries => "entries",
            Section::Masks => "masks",
            Section::Patterns => "patterns",
            Section::Cells => "cells",
            Section::Tests => "tests",
            Section::Bytecode => "bytecode",
            Section::Results => "results",
            Section::Sequences => "sequences",
            Section::SeqNodes => "seq_nodes",
            Section::Lenses => "lenses",
            Section::LensPoints => "lens_points",
            Section::LensFields => "lens_fields",
            Section::LensNodes => "lens_nodes",
            Section::LeafFields => "leaf_fields",
            Section::Joseki => "joseki",
            Section::Blobs => "blobs",
            Section::DebugFiles => "debug_files",
            Section::DebugPatterns => "debug_patterns",
            Section::DebugAttrs => "debug_attrs",
            Section::Sliced => "sliced",
            Section::Lut => "lut",
            Section::CompactClasses => "compact_classes",
            Section::CompactPatterns => "compact_patterns",
            Section::CompactResults => "compact_results",
            Section::CompactTests => "compact_tests",
            Section::Metadata => "metadata",
        }
    }
}

/// Why an image was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadErrorKind {
    /// Shorter than the header or than the length it declares.
    Truncated,
    BadMagic,
    /// The `0xFEFF` check read differently: a big-endian image or a corrupt header.
    WrongEndianness,
    /// A format version this VM does not read (it reads 1 to 3).
    UnsupportedVersion(u32),
    /// The declared file length differs from the byte count.
    LengthMismatch {
        declared: u64,
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
    pub offset: usize,
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

/// Aligns `include_bytes!` data to 8 bytes:
/// `static ROM: &AlignedRom<[u8]> = &AlignedRom { _align: [], bytes: *include_bytes!("x.rom") };`
/// (The loader reads with bounds-checked little-endian loads, so alignment is a speed matter,
/// never a correctness one.)
#[repr(C)]
pub struct AlignedRom<B: ?Sized> {
    pub _align: [u64; 0],
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
    All,
    Up,
    Identity,
}

/// Which matching path a class uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Packed absence masks in the 7x7 window ([`layout`]).
    Packed,
    /// Point-by-point over the cell lists (fields larger than 7x7).
    General,
}

/// Class program items (see `docs/rom-format.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// Plain pattern variants: entries `first..end`.
    Run {
        first: u32,
        end: u32,
    },
    /// A glob: header variants are entries `first..end`; `close` is the index of the matching
    /// [`Item::GlobEnd`].
    Glob {
        first: u32,
        end: u32,
        close: u32,
    },
    GlobEnd,
}

pub(crate) const ITEM_RUN: u32 = 0;
pub(crate) const ITEM_GLOB: u32 = 1;
pub(crate) const ITEM_END: u32 = 2;

/// A pattern result as stored (offsets in the drawn orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawResult {
    Move {
        dx: i8,
        dy: i8,
        value: i32,
        bits: u32,
        sequence: Option<u32>,
    },
    Reject {
        dx: i8,
        dy: i8,
    },
    Value {
        value: i32,
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
    /// The version in the image's header (1, 2 or 3).
    pub fn format_version(&self) -> u32 {
        HeaderRec::read(self.bytes).version
    }
    pub fn source_hash(&self) -> u64 {
        HeaderRec::read(self.bytes).source_hash
    }
    pub fn is_stripped(&self) -> bool {
        self.stripped
    }
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
    pub fn global_count(&self) -> usize {
        self.t(Section::Globals).len()
    }
    pub fn global_name(&self, i: usize) -> &'a str {
        self.string(self.t(Section::Globals).rec::<GlobalRec>(i).name)
    }
    pub fn extern_count(&self) -> usize {
        self.t(Section::Externs).len()
    }
    /// `(name, arity, cost)` of an extern predicate.
    pub fn extern_info(&self, i: usize) -> (&'a str, u8, u32) {
        let e: ExternRec = self.t(Section::Externs).rec(i);
        (self.string(e.name), e.arity, e.cost)
    }

    // ---- classes ----
    pub fn class_count(&self) -> usize {
        self.t(Section::Classes).len()
    }
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
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        (0..self.class_count())
            .find(|&i| self.string(self.t(Section::Classes).rec::<ClassRec>(i).name) == name)
            .map(|i| ClassId(i as u32))
    }
    pub fn classes(&self) -> impl Iterator<Item = ClassInfo<'a>> + 'a {
        let rom = *self;
        (0..self.class_count()).map(move |index| rom.class_info(index))
    }

    // ---- class program ----
    pub fn item(&self, i: u32) -> Item {
        item_in(self.t(Section::Items), i)
    }
    /// `(pattern index, orientation, covers)` of a variant entry.
    #[inline]
    pub fn entry(&self, e: u32) -> (u32, u8, u8) {
        let r: EntryRec = self.t(Section::Entries).rec(e as usize);
        (r.pattern, r.orientation, r.covers)
    }
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
    pub fn pattern_count(&self) -> usize {
        self.t(Section::Patterns).len()
    }
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
    pub fn result(&self, r: u32) -> RawResult {
        result_in(self.t(Section::Results), r)
    }

    // ---- sequences ----
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
    pub fn lens_count(&self) -> usize {
        self.t(Section::Lenses).len()
    }
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
    pub fn lens_by_name(&self, name: &str) -> Option<LensId> {
        (0..self.lens_count())
            .find(|&i| self.string(self.t(Section::Lenses).rec::<LensRec>(i).name) == name)
            .map(|i| LensId(i as u32))
    }

    // ---- joseki ----
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
    pub fn id(&self) -> ClassId {
        ClassId(self.index as u32)
    }
    pub fn name(&self) -> &'a str {
        self.strings.get(self.rec().name)
    }
    pub fn mode(&self) -> Mode {
        mode_from_u8(self.rec().mode)
    }
    /// Allowed focus states (bit 0 friend, 1 foe, 2 empty, 3 off).
    pub fn focus(&self) -> u8 {
        self.rec().focus
    }
    pub fn width(&self) -> u8 {
        self.rec().width
    }
    pub fn height(&self) -> u8 {
        self.rec().height
    }
    pub fn orient(&self) -> OrientPolicy {
        orient_from_u8(self.rec().orient)
    }
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
    pub fn default_value(&self) -> Option<i32> {
        let r = self.rec();
        (r.has_default != 0).then_some(r.default)
    }
    pub fn first_item(&self) -> u32 {
        self.rec().first_item
    }
    pub fn item_count(&self) -> u32 {
        self.rec().item_count
    }
    pub fn first_entry(&self) -> u32 {
        self.rec().first_entry
    }
    pub fn entry_count(&self) -> u32 {
        self.rec().entry_count
    }
    pub(crate) fn mask_first(&self) -> usize {
        self.rec().mask_first as usize
    }
    pub fn first_pattern(&self) -> u32 {
        self.rec().first_pattern
    }
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
    Branch { dx: i8, dy: i8, children: [u32; 4] },
    Leaf { first: u32, count: u32 },
}

impl<'a> LensInfo<'a> {
    /// The lens's record.
    #[inline(always)]
    fn rec(&self) -> LensRec {
        self.rec
    }
    pub fn id(&self) -> LensId {
        LensId(self.index as u32)
    }
    pub fn name(&self) -> &'a str {
        self.strings.get(self.rec().name)
    }
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
    pub fn endpoint_count(&self) -> u32 {
        self.rec().point_count
    }
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
    pub fn node_count(&self) -> u32 {
        self.rec().node_count
    }
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
