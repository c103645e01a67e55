//! The ROM image (format v3; v1 and v2 images still load): one module for the reader ([`Rom::from_bytes`], zero-copy, fully
//! validating) and the writer ([`write`], feature `builder`), so the wire format is defined in
//! one place. The byte-by-byte description is `docs/rom-format.md`.

pub mod bytecode;
pub mod compact;
pub mod layout;
mod load;
pub mod lut;
pub mod sliced;
pub mod wire;
#[cfg(feature = "alloc")]
mod write;

pub use compact::CompactRom;
#[cfg(feature = "alloc")]
pub use write::{
    Profile, WriteError, WriteOptions, fix_checksums, try_write, try_write_with, write, write_with,
};

use core::fmt;
use wire::Table;

/// First 8 bytes of every image.
pub const MAGIC: [u8; 8] = *b"LENSROM\x1a";
/// The format version this VM writes (it reads [`MIN_FORMAT_VERSION`]..=this).
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this VM reads.
pub const MIN_FORMAT_VERSION: u32 = 1;
/// Bytes before the section table.
pub const HEADER_LEN: usize = 48;
/// Bytes per section-table entry.
pub const TABLE_ENTRY_LEN: usize = 16;
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
            Section::Meta => 8,
            Section::StrIndex => 4,
            Section::StrData => 1,
            Section::Globals => 4,
            Section::Externs => 12,
            Section::Classes => 48,
            Section::Items => 16,
            Section::Entries => 8,
            Section::Masks => 8,
            Section::Patterns => 32,
            Section::Cells => 4,
            Section::Tests => 12,
            Section::Bytecode => 1,
            Section::Results => 16,
            Section::Sequences => 8,
            Section::SeqNodes => 8,
            Section::Lenses => 32,
            Section::LensPoints => 4,
            Section::LensFields => 24,
            Section::LensNodes => 24,
            Section::LeafFields => 4,
            Section::Joseki => 16,
            Section::Blobs => 1,
            Section::DebugFiles => 4,
            Section::DebugPatterns => 24,
            Section::DebugAttrs => 8,
            Section::Sliced => 8,
            Section::Lut => 4,
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
        wire::u32_at(self.bytes, 12)
    }
    pub fn source_hash(&self) -> u64 {
        wire::u64_at(self.bytes, 16)
    }
    pub fn is_stripped(&self) -> bool {
        self.stripped
    }
    pub fn toolchain(&self) -> &'a str {
        self.string(self.t(Section::Meta).u32(0, 0))
    }

    /// String by index ("" when out of range; the loader checked every stored index).
    pub fn string(&self, i: u32) -> &'a str {
        let idx = self.t(Section::StrIndex);
        let i = i as usize;
        if i >= idx.len() {
            return "";
        }
        let start = if i == 0 {
            0
        } else {
            idx.u32(i - 1, 0) as usize
        };
        let end = idx.u32(i, 0) as usize;
        self.t(Section::StrData)
            .data
            .get(start..end)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }

    pub fn global_count(&self) -> usize {
        self.t(Section::Globals).len()
    }
    pub fn global_name(&self, i: usize) -> &'a str {
        self.string(self.t(Section::Globals).u32(i, 0))
    }
    pub fn extern_count(&self) -> usize {
        self.t(Section::Externs).len()
    }
    /// `(name, arity, cost)` of an extern predicate.
    pub fn extern_info(&self, i: usize) -> (&'a str, u8, u32) {
        let t = self.t(Section::Externs);
        (self.string(t.u32(i, 0)), t.u8(i, 4), t.u32(i, 8))
    }

    // ---- classes ----
    pub fn class_count(&self) -> usize {
        self.t(Section::Classes).len()
    }
    pub fn class(&self, id: ClassId) -> Option<ClassInfo<'a>> {
        ((id.0 as usize) < self.class_count()).then_some(ClassInfo {
            rom: *self,
            index: id.0 as usize,
        })
    }
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        (0..self.class_count())
            .find(|&i| self.string(self.t(Section::Classes).u32(i, 0)) == name)
            .map(|i| ClassId(i as u32))
    }
    pub fn classes(&self) -> impl Iterator<Item = ClassInfo<'a>> + 'a {
        let rom = *self;
        (0..self.class_count()).map(move |index| ClassInfo { rom, index })
    }

    // ---- class program ----
    pub fn item(&self, i: u32) -> Item {
        let t = self.t(Section::Items);
        let i = i as usize;
        match t.u32(i, 0) {
            ITEM_RUN => Item::Run {
                first: t.u32(i, 4),
                end: t.u32(i, 8),
            },
            ITEM_GLOB => Item::Glob {
                first: t.u32(i, 4),
                end: t.u32(i, 8),
                close: t.u32(i, 12),
            },
            _ => Item::GlobEnd,
        }
    }
    /// `(pattern index, orientation, covers)` of a variant entry.
    #[inline]
    pub fn entry(&self, e: u32) -> (u32, u8, u8) {
        let t = self.t(Section::Entries);
        let e = e as usize;
        (t.u32(e, 0), t.u8(e, 4), t.u8(e, 5))
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
            *slot = wire::u64_at(
                self.t(Section::Masks).data,
                (class.mask_first() + w * n + rel) * 8,
            );
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
        ((id as usize) < t.len()).then(|| self.string(t.u32(id as usize, 0)))
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
        let files = self.t(Section::DebugFiles);
        Some((
            self.string(t.u32(i, 0)),
            self.string(files.u32(t.u32(i, 4) as usize, 0)),
            t.u32(i, 8),
            t.u32(i, 12),
        ))
    }
    /// `attr` pairs of a pattern id.
    pub fn pattern_attrs(&self, id: u32) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let rom = *self;
        let t = *self.t(Section::DebugPatterns);
        let (first, count) = if self.stripped || id as usize >= t.len() {
            (0, 0)
        } else {
            (t.u32(id as usize, 16), t.u32(id as usize, 20))
        };
        (first..first + count).map(move |a| {
            let at = rom.t(Section::DebugAttrs);
            (
                rom.string(at.u32(a as usize, 0)),
                rom.string(at.u32(a as usize, 4)),
            )
        })
    }
    pub fn debug_files(&self) -> impl Iterator<Item = &'a str> + 'a {
        let rom = *self;
        let n = if self.stripped {
            0
        } else {
            self.t(Section::DebugFiles).len()
        };
        (0..n).map(move |i| rom.string(rom.t(Section::DebugFiles).u32(i, 0)))
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
        let t = self.t(Section::Sequences);
        let (first, count) = (t.u32(s as usize, 0), t.u32(s as usize, 4));
        (first..first.saturating_add(count)).map(move |n| {
            let nt = rom.t(Section::SeqNodes);
            let n = n as usize;
            let pt = if nt.u8(n, 2) & 1 != 0 {
                None
            } else {
                Some((nt.i8(n, 0), nt.i8(n, 1)))
            };
            (pt, nt.u16(n, 4))
        })
    }

    // ---- lenses ----
    pub fn lens_count(&self) -> usize {
        self.t(Section::Lenses).len()
    }
    pub fn lens(&self, id: LensId) -> Option<LensInfo<'a>> {
        ((id.0 as usize) < self.lens_count()).then_some(LensInfo {
            rom: *self,
            index: id.0 as usize,
        })
    }
    pub fn lens_by_name(&self, name: &str) -> Option<LensId> {
        (0..self.lens_count())
            .find(|&i| self.string(self.t(Section::Lenses).u32(i, 0)) == name)
            .map(|i| LensId(i as u32))
    }

    // ---- joseki ----
    pub fn joseki_count(&self) -> usize {
        self.t(Section::Joseki).len()
    }
    /// `(name, encoded bytes)` of joseki blob `i`.
    pub fn joseki_at(&self, i: usize) -> (&'a str, &'a [u8]) {
        let t = self.t(Section::Joseki);
        let off = t.u32(i, 4) as usize;
        let len = t.u32(i, 8) as usize;
        (
            self.string(t.u32(i, 0)),
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

/// A class of a loaded image.
#[derive(Clone, Copy, Debug)]
pub struct ClassInfo<'a> {
    pub(crate) rom: Rom<'a>,
    pub(crate) index: usize,
}

impl<'a> ClassInfo<'a> {
    fn t(&self) -> &Table<'a> {
        self.rom.t(Section::Classes)
    }
    pub fn id(&self) -> ClassId {
        ClassId(self.index as u32)
    }
    pub fn name(&self) -> &'a str {
        self.rom.string(self.t().u32(self.index, 0))
    }
    pub fn mode(&self) -> Mode {
        mode_from_u8(self.t().u8(self.index, 4))
    }
    /// Allowed focus states (bit 0 friend, 1 foe, 2 empty, 3 off).
    pub fn focus(&self) -> u8 {
        self.t().u8(self.index, 5)
    }
    pub fn width(&self) -> u8 {
        self.t().u8(self.index, 6)
    }
    pub fn height(&self) -> u8 {
        self.t().u8(self.index, 7)
    }
    pub fn orient(&self) -> OrientPolicy {
        orient_from_u8(self.t().u8(self.index, 8))
    }
    pub fn kernel(&self) -> Kernel {
        if self.t().u8(self.index, 9) == 0 {
            Kernel::Packed
        } else {
            Kernel::General
        }
    }
    /// Mask words per variant (1..=3 packed, 0 general).
    pub fn words(&self) -> usize {
        self.t().u8(self.index, 10) as usize
    }
    pub fn default_value(&self) -> Option<i32> {
        (self.t().u8(self.index, 11) != 0).then(|| self.t().i32(self.index, 12))
    }
    pub fn first_item(&self) -> u32 {
        self.t().u32(self.index, 16)
    }
    pub fn item_count(&self) -> u32 {
        self.t().u32(self.index, 20)
    }
    pub fn first_entry(&self) -> u32 {
        self.t().u32(self.index, 24)
    }
    pub fn entry_count(&self) -> u32 {
        self.t().u32(self.index, 28)
    }
    pub(crate) fn mask_first(&self) -> usize {
        self.t().u32(self.index, 32) as usize
    }
    pub fn first_pattern(&self) -> u32 {
        self.t().u32(self.index, 40)
    }
    pub fn pattern_count(&self) -> u32 {
        self.t().u32(self.index, 44)
    }
    /// The class program.
    pub fn items(&self) -> impl Iterator<Item = Item> + 'a {
        let rom = self.rom;
        (self.first_item()..self.first_item() + self.item_count()).map(move |i| rom.item(i))
    }
    /// The mask words of word `w` for all entries of the class (`entry_count * 8` bytes).
    #[inline]
    pub(crate) fn mask_words(&self, w: usize) -> &'a [u8] {
        let n = self.entry_count() as usize;
        let start = (self.mask_first() + w * n) * 8;
        self.rom
            .t(Section::Masks)
            .data
            .get(start..start + n * 8)
            .unwrap_or(&[])
    }
}

/// Cell `c` of a cells table: `(dx, dy, allowed)`.
#[inline]
fn cell_in(t: &Table<'_>, c: u32) -> (i8, i8, u8) {
    (
        t.i8(c as usize, 0),
        t.i8(c as usize, 1),
        t.u8(c as usize, 2),
    )
}

/// Test `i` of a tests table: its bytecode and cost.
fn test_in<'a>(tests: &Table<'a>, bytecode: &Table<'a>, i: u32) -> (&'a [u8], u32) {
    let i = i as usize;
    let off = tests.u32(i, 0) as usize;
    let len = tests.u32(i, 4) as usize;
    (
        bytecode.data.get(off..off + len).unwrap_or(&[]),
        tests.u32(i, 8),
    )
}

/// Result `r` of a results table.
fn result_in(t: &Table<'_>, r: u32) -> RawResult {
    let r = r as usize;
    let (dx, dy) = (t.i8(r, 1), t.i8(r, 2));
    let (value, bits, seq) = (t.i32(r, 4), t.u32(r, 8), t.u32(r, 12));
    match t.u8(r, 0) {
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
    fn t(&self) -> &Table<'a> {
        &self.patterns
    }
    /// `PatternSpec::id` (index of its debug record).
    pub fn id(&self) -> u32 {
        self.t().u32(self.index, 0)
    }
    pub fn priority(&self) -> i32 {
        self.t().i32(self.index, 4)
    }
    /// Cells in the drawn orientation: `(dx, dy, allowed states)`.
    pub fn cells(&self) -> impl Iterator<Item = (i8, i8, u8)> + 'a {
        let cells = self.cells;
        let (f, n) = (self.t().u32(self.index, 8), self.t().u32(self.index, 12));
        (f..f + n).map(move |c| cell_in(&cells, c))
    }
    /// Test blocks in run order: `(bytecode, cost)`.
    pub fn tests(&self) -> impl Iterator<Item = (&'a [u8], u32)> + 'a {
        let (tests, bytecode) = (self.tests, self.bytecode);
        let (f, n) = (self.t().u32(self.index, 16), self.t().u32(self.index, 20));
        (f..f + n).map(move |i| test_in(&tests, &bytecode, i))
    }
    pub fn result(&self) -> Option<RawResult> {
        let r = self.t().u32(self.index, 24);
        (r != NONE).then(|| result_in(&self.results, r))
    }
}

/// A lens of a loaded image.
#[derive(Clone, Copy, Debug)]
pub struct LensInfo<'a> {
    pub(crate) rom: Rom<'a>,
    pub(crate) index: usize,
}

/// A lens decision-tree node (children and fields are indices relative to the lens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LensNode {
    Branch { dx: i8, dy: i8, children: [u32; 4] },
    Leaf { first: u32, count: u32 },
}

impl<'a> LensInfo<'a> {
    fn t(&self) -> &Table<'a> {
        self.rom.t(Section::Lenses)
    }
    pub fn id(&self) -> LensId {
        LensId(self.index as u32)
    }
    pub fn name(&self) -> &'a str {
        self.rom.string(self.t().u32(self.index, 0))
    }
    pub fn lens_type(&self) -> u32 {
        self.t().u32(self.index, 4)
    }
    /// Written endpoints relative to the first.
    pub fn endpoints(&self) -> impl Iterator<Item = (i8, i8)> + 'a {
        let rom = self.rom;
        let (f, n) = (self.t().u32(self.index, 8), self.t().u32(self.index, 12));
        (f..f + n).map(move |i| {
            let p = rom.t(Section::LensPoints);
            (p.i8(i as usize, 0), p.i8(i as usize, 1))
        })
    }
    pub fn endpoint_count(&self) -> u32 {
        self.t().u32(self.index, 12)
    }
    pub fn field_count(&self) -> u32 {
        self.t().u32(self.index, 20)
    }
    /// Field `f`: `(cells first, cells count, tests first, tests count, result index)`.
    pub fn field(&self, f: u32) -> (u32, u32, u32, u32, u32) {
        let i = (self.t().u32(self.index, 16) + f) as usize;
        let t = self.rom.t(Section::LensFields);
        (
            t.u32(i, 0),
            t.u32(i, 4),
            t.u32(i, 8),
            t.u32(i, 12),
            t.u32(i, 16),
        )
    }
    pub fn node_count(&self) -> u32 {
        self.t().u32(self.index, 28)
    }
    pub fn node(&self, n: u32) -> LensNode {
        let i = (self.t().u32(self.index, 24) + n) as usize;
        let t = self.rom.t(Section::LensNodes);
        if t.u8(i, 0) == 0 {
            LensNode::Branch {
                dx: t.i8(i, 1),
                dy: t.i8(i, 2),
                children: [t.u32(i, 4), t.u32(i, 8), t.u32(i, 12), t.u32(i, 16)],
            }
        } else {
            LensNode::Leaf {
                first: t.u32(i, 4),
                count: t.u32(i, 8),
            }
        }
    }
    /// Field index stored at leaf-list position `k`.
    pub fn leaf_field(&self, k: u32) -> u32 {
        self.rom.t(Section::LeafFields).u32(k as usize, 0)
    }
}
