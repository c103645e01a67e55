//! One definition per fixed-size record of the fast profile: its fields with their byte
//! offsets, its length, its read and its write, side by side (as regex-automata's
//! `dfa/dense.rs` keeps each structure's `write_to`, `write_to_len` and `from_bytes` together).
//! The reader (`rom/mod.rs`), the validator (`load.rs`), the writer (`write.rs`) and the
//! board-parallel scan read and write records only through these types; the byte-by-byte
//! description is `docs/rom-format.md`. `write_to` asserts it wrote exactly `LEN` bytes, a
//! const check proves the fields tile the record, and a round-trip test per record catches a
//! drift between the read and the write.
//!
//! Each record also gets a module `<name>_at` of field offsets (for error offsets).

use super::wire::Field;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// A fixed-size record: what a [`super::wire::Table`] decodes.
pub trait Record: Sized {
    /// The record at the start of `b` (fields past its end read as 0).
    fn read(b: &[u8]) -> Self;
}

/// Whether fields `(offset, size)` in order tile `0..len` exactly.
const fn tiles(fields: &[(usize, usize)], len: usize) -> bool {
    let mut at = 0;
    let mut i = 0;
    while i < fields.len() {
        if fields[i].0 != at {
            return false;
        }
        at += fields[i].1;
        i += 1;
    }
    at == len
}

macro_rules! record {
    (
        $(#[$meta:meta])*
        $name:ident ($len:expr) in $at:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $off:expr ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        /// Byte offset of each field within the record.
        #[allow(non_upper_case_globals, dead_code)]
        pub mod $at {
            $( pub const $field: usize = $off; )*
        }

        const _: () = assert!(
            tiles(&[$( ($off, core::mem::size_of::<$ty>()) ),*], $len),
            concat!("the fields of ", stringify!($name), " do not tile its length")
        );

        impl Record for $name {
            #[inline(always)]
            fn read(b: &[u8]) -> Self {
                $name::read(b)
            }
        }

        impl $name {
            /// Bytes per record.
            pub const LEN: usize = $len;

            /// The record at the start of `b` (fields past the end of `b` read as 0: the loader
            /// proves every record the VM reads is whole).
            #[inline(always)]
            pub fn read(b: &[u8]) -> Self {
                $name { $( $field: <$ty as Field>::get(b, $off), )* }
            }

            /// Bytes [`Self::write_to`] appends.
            #[cfg(feature = "alloc")]
            pub const fn write_to_len(&self) -> usize {
                Self::LEN
            }

            /// Appends the record (little-endian, fields in offset order).
            #[cfg(feature = "alloc")]
            pub fn write_to(&self, out: &mut Vec<u8>) {
                let start = out.len();
                $( Field::put(self.$field, out); )*
                assert_eq!(out.len() - start, self.write_to_len(), stringify!($name));
            }
        }
    };
}

record! {
    /// The image header (the first 48 bytes).
    HeaderRec(48) in header_at {
        /// `MAGIC` read as a little-endian u64.
        magic: u64 = 0,
        /// `0xFEFF`: bytes `FF FE` (a big-endian writer would give `FE FF`).
        byte_order: u16 = 8,
        header_len: u16 = 10,
        version: u32 = 12,
        source_hash: u64 = 16,
        section_count: u32 = 24,
        flags: u32 = 28,
        total_len: u64 = 32,
        /// FNV-1a 32 over bytes `0..checksum` and `reserved..` the end of the section table.
        checksum: u32 = 40,
        reserved: u32 = 44,
    }
}

record! {
    /// A section-table entry (after the header).
    TableEntryRec(16) in table_entry_at {
        kind: u32 = 0,
        offset: u32 = 4,
        len: u32 = 8,
        /// FNV-1a 32 of the section's bytes.
        checksum: u32 = 12,
    }
}

record! {
    /// `meta`: the one record of the image.
    MetaRec(8) in meta_at {
        /// String: the toolchain that wrote the image.
        toolchain: u32 = 0,
        reserved: u32 = 4,
    }
}

record! {
    /// `str_index`: the end of string `i` in `str_data` (string `i` starts where `i - 1` ends).
    StrIndexRec(4) in str_index_at {
        end: u32 = 0,
    }
}

record! {
    /// `globals`: an engine global, by name.
    GlobalRec(4) in global_at {
        name: u32 = 0,
    }
}

record! {
    /// `externs`: an extern predicate.
    ExternRec(12) in extern_at {
        name: u32 = 0,
        arity: u8 = 4,
        reserved_a: u8 = 5,
        reserved_b: u16 = 6,
        cost: u32 = 8,
    }
}

record! {
    /// `classes`: a class of the fast profile.
    ClassRec(48) in class_at {
        name: u32 = 0,
        /// 0 best, 1 all, 2 first.
        mode: u8 = 4,
        /// Allowed focus states (bit 0 friend, 1 foe, 2 empty, 3 off).
        focus: u8 = 5,
        width: u8 = 6,
        height: u8 = 7,
        /// 0 all, 1 up, 2 identity.
        orient: u8 = 8,
        /// 0 packed, 1 general.
        kernel: u8 = 9,
        /// Mask words per entry (1..=3 packed, 0 general).
        words: u8 = 10,
        has_default: u8 = 11,
        default: i32 = 12,
        first_item: u32 = 16,
        item_count: u32 = 20,
        first_entry: u32 = 24,
        entry_count: u32 = 28,
        /// First mask word of the class in `masks`.
        mask_first: u32 = 32,
        reserved: u32 = 36,
        first_pattern: u32 = 40,
        pattern_count: u32 = 44,
    }
}

record! {
    /// `items`: one item of a class program (kind 0 run, 1 glob, 2 glob end).
    ItemRec(16) in item_at {
        kind: u32 = 0,
        /// First entry (runs and globs).
        first: u32 = 4,
        /// End entry (runs and globs).
        end: u32 = 8,
        /// Globs: the index of their end item.
        close: u32 = 12,
    }
}

record! {
    /// `entries`: one oriented variant of a pattern.
    EntryRec(8) in entry_at {
        pattern: u32 = 0,
        orientation: u8 = 4,
        covers: u8 = 5,
        /// Format v5 with `pattern_facts`: the entry's plain-result fact (`rom::facts`);
        /// zero otherwise (reserved before v5).
        plain: u16 = 6,
    }
}

record! {
    /// `masks`: one packed absence-mask word (`rom::layout`).
    MaskRec(8) in mask_at {
        bits: u64 = 0,
    }
}

record! {
    /// `patterns`: a pattern, its cells, tests and result.
    PatternRec(32) in pattern_at {
        /// `PatternSpec::id` (its debug record).
        id: u32 = 0,
        priority: i32 = 4,
        first_cell: u32 = 8,
        cell_count: u32 = 12,
        first_test: u32 = 16,
        test_count: u32 = 20,
        /// Result index, or `NONE`.
        result: u32 = 24,
        reserved: u32 = 28,
    }
}

record! {
    /// `cells`: a constrained point of a pattern or lens field.
    CellRec(4) in cell_at {
        dx: i8 = 0,
        dy: i8 = 1,
        /// Allowed states (bit 0 friend, 1 foe, 2 empty, 3 off).
        allowed: u8 = 2,
        reserved: u8 = 3,
    }
}

record! {
    /// `tests`: a test block in `bytecode`.
    TestRec(12) in test_at {
        offset: u32 = 0,
        len: u32 = 4,
        cost: u32 = 8,
    }
}

record! {
    /// `results`: a pattern or lens result (kind 0 move, 1 reject, 2 value).
    ResultRec(16) in result_at {
        kind: u8 = 0,
        dx: i8 = 1,
        dy: i8 = 2,
        reserved: u8 = 3,
        value: i32 = 4,
        bits: u32 = 8,
        /// Moves: a sequence index, or `NONE`.
        sequence: u32 = 12,
    }
}

record! {
    /// `sequences`: a run of `seq_nodes`.
    SequenceRec(8) in sequence_at {
        first: u32 = 0,
        count: u32 = 4,
    }
}

record! {
    /// `seq_nodes`: a sequence node in pre-order.
    SeqNodeRec(8) in seq_node_at {
        dx: i8 = 0,
        dy: i8 = 1,
        /// Bit 0: a pass.
        flags: u8 = 2,
        reserved_a: u8 = 3,
        depth: u16 = 4,
        reserved_b: u16 = 6,
    }
}

record! {
    /// `lenses`: a lens.
    LensRec(32) in lens_at {
        name: u32 = 0,
        lens_type: u32 = 4,
        first_point: u32 = 8,
        point_count: u32 = 12,
        first_field: u32 = 16,
        field_count: u32 = 20,
        first_node: u32 = 24,
        node_count: u32 = 28,
    }
}

record! {
    /// `lens_points`: a written lens endpoint, relative to the first.
    LensPointRec(4) in lens_point_at {
        dx: i8 = 0,
        dy: i8 = 1,
        reserved: u16 = 2,
    }
}

record! {
    /// `lens_fields`: a lens field.
    LensFieldRec(24) in lens_field_at {
        first_cell: u32 = 0,
        cell_count: u32 = 4,
        first_test: u32 = 8,
        test_count: u32 = 12,
        result: u32 = 16,
        reserved: u32 = 20,
    }
}

record! {
    /// `lens_nodes`: a decision-tree node (kind 0 branch on the point `(dx, dy)` with four
    /// children; kind 1 leaf with `children[0]` = first leaf-field, `children[1]` = count).
    LensNodeRec(24) in lens_node_at {
        kind: u8 = 0,
        dx: i8 = 1,
        dy: i8 = 2,
        reserved_a: u8 = 3,
        child0: u32 = 4,
        child1: u32 = 8,
        child2: u32 = 12,
        child3: u32 = 16,
        reserved_b: u32 = 20,
    }
}

record! {
    /// `leaf_fields`: a field index of a leaf's list.
    LeafFieldRec(4) in leaf_field_at {
        field: u32 = 0,
    }
}

record! {
    /// `joseki`: a named blob in `blobs`.
    JosekiRec(16) in joseki_at {
        name: u32 = 0,
        offset: u32 = 4,
        len: u32 = 8,
        reserved: u32 = 12,
    }
}

record! {
    /// `debug_files`: a source file name.
    DebugFileRec(4) in debug_file_at {
        name: u32 = 0,
    }
}

record! {
    /// `debug_patterns`: the names and spans of pattern id `i`.
    DebugPatternRec(24) in debug_pattern_at {
        name: u32 = 0,
        file: u32 = 4,
        start: u32 = 8,
        end: u32 = 12,
        first_attr: u32 = 16,
        attr_count: u32 = 20,
    }
}

record! {
    /// `debug_attrs`: an `attr` pair.
    DebugAttrRec(8) in debug_attr_at {
        key: u32 = 0,
        value: u32 = 4,
    }
}

record! {
    /// `sliced`: the index record of a class (its tables follow the index, in u64 words).
    SlicedIndexRec(8) in sliced_index_at {
        /// First table word (in 8-byte units from the start of the section).
        first: u32 = 0,
        /// u64 words per row (0: no tables).
        block_words: u8 = 4,
        rows: u8 = 5,
        reserved: u16 = 6,
    }
}

record! {
    /// `pattern_facts` (format v5): what a `Match` of a pattern takes from its pattern's and
    /// its result's records, in one record (`rom::facts`).
    PatFactRec(20) in pat_fact_at {
        id: u32 = 0,
        priority: i32 = 4,
        /// The result's value and bits (0 for a reject or no result).
        value: i32 = 8,
        bits: u32 = 12,
        /// A move's sequence index, or `NONE`.
        sequence: u32 = 16,
    }
}

record! {
    /// `lut`: the index record of a class (`NONE`: no table; else its first u32 word).
    LutIndexRec(4) in lut_index_at {
        first: u32 = 0,
    }
}

record! {
    /// `compact_classes` (compact profile): a class and its run of `compact_patterns` bytes.
    CompactClassRec(24) in compact_class_at {
        name: u32 = 0,
        mode: u8 = 4,
        focus: u8 = 5,
        width: u8 = 6,
        height: u8 = 7,
        orient: u8 = 8,
        has_default: u8 = 9,
        reserved: u16 = 10,
        default: i32 = 12,
        /// First byte in `compact_patterns`.
        first: u32 = 16,
        /// Bytes in `compact_patterns`.
        len: u32 = 20,
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    /// Per record: a value with every field distinct and non-zero writes exactly `LEN` bytes,
    /// reads back equal, and its bytes sit at the offsets the `_at` module names.
    macro_rules! round_trip {
        ($($rec:ident { $($f:ident),* })*) => {$({
            let mut v = $rec::default();
            let mut k = 0u8;
            $( k += 1; v.$f = Small::small(k); )*
            let mut out = alloc::vec![0xEE];
            v.write_to(&mut out);
            assert_eq!(out.len(), 1 + $rec::LEN, stringify!($rec));
            assert_eq!($rec::read(&out[1..]), v, stringify!($rec));
            let mut k = 0u8;
            $(
                k += 1;
                assert_eq!(out[1 + paste_at!($rec, $f)], k, "{} {}", stringify!($rec), stringify!($f));
            )*
        })*};
    }

    /// A field value from a small byte (its low byte on the wire).
    trait Small {
        fn small(k: u8) -> Self;
    }
    macro_rules! small {
        ($($t:ty),*) => {$(impl Small for $t {
            fn small(k: u8) -> Self {
                k as $t
            }
        })*};
    }
    small!(u8, i8, u16, u32, i32, u64);

    /// The `_at` offset of a field (little-endian: its low byte is there).
    macro_rules! paste_at {
        ($rec:ident, $f:ident) => {
            offsets::$rec::$f
        };
    }

    /// The `_at` modules under their record names, for the macro above.
    #[allow(non_snake_case)]
    mod offsets {
        pub use super::super::{
            cell_at as CellRec, class_at as ClassRec, compact_class_at as CompactClassRec,
            debug_attr_at as DebugAttrRec, debug_file_at as DebugFileRec,
            debug_pattern_at as DebugPatternRec, entry_at as EntryRec, extern_at as ExternRec,
            global_at as GlobalRec, header_at as HeaderRec, item_at as ItemRec,
            joseki_at as JosekiRec, leaf_field_at as LeafFieldRec, lens_at as LensRec,
            lens_field_at as LensFieldRec, lens_node_at as LensNodeRec,
            lens_point_at as LensPointRec, lut_index_at as LutIndexRec, mask_at as MaskRec,
            meta_at as MetaRec, pat_fact_at as PatFactRec, pattern_at as PatternRec,
            result_at as ResultRec, seq_node_at as SeqNodeRec, sequence_at as SequenceRec,
            sliced_index_at as SlicedIndexRec, str_index_at as StrIndexRec,
            table_entry_at as TableEntryRec, test_at as TestRec,
        };
    }

    #[test]
    fn every_record_round_trips() {
        round_trip! {
            HeaderRec { magic, byte_order, header_len, version, source_hash, section_count,
                flags, total_len, checksum, reserved }
            TableEntryRec { kind, offset, len, checksum }
            MetaRec { toolchain, reserved }
            StrIndexRec { end }
            GlobalRec { name }
            ExternRec { name, arity, reserved_a, reserved_b, cost }
            ClassRec { name, mode, focus, width, height, orient, kernel, words, has_default,
                default, first_item, item_count, first_entry, entry_count, mask_first, reserved,
                first_pattern, pattern_count }
            ItemRec { kind, first, end, close }
            EntryRec { pattern, orientation, covers, plain }
            MaskRec { bits }
            PatternRec { id, priority, first_cell, cell_count, first_test, test_count, result,
                reserved }
            CellRec { dx, dy, allowed, reserved }
            TestRec { offset, len, cost }
            ResultRec { kind, dx, dy, reserved, value, bits, sequence }
            SequenceRec { first, count }
            SeqNodeRec { dx, dy, flags, reserved_a, depth, reserved_b }
            LensRec { name, lens_type, first_point, point_count, first_field, field_count,
                first_node, node_count }
            LensPointRec { dx, dy, reserved }
            LensFieldRec { first_cell, cell_count, first_test, test_count, result, reserved }
            LensNodeRec { kind, dx, dy, reserved_a, child0, child1, child2, child3, reserved_b }
            LeafFieldRec { field }
            JosekiRec { name, offset, len, reserved }
            DebugFileRec { name }
            DebugPatternRec { name, file, start, end, first_attr, attr_count }
            DebugAttrRec { key, value }
            SlicedIndexRec { first, block_words, rows, reserved }
            PatFactRec { id, priority, value, bits, sequence }
            LutIndexRec { first }
            CompactClassRec { name, mode, focus, width, height, orient, has_default, reserved,
                default, first, len }
        }
    }

    /// Every section's record length is its record type's.
    #[test]
    fn section_lengths_are_the_records() {
        use super::super::Section;
        for (s, len) in [
            (Section::Meta, MetaRec::LEN),
            (Section::Classes, ClassRec::LEN),
            (Section::Patterns, PatternRec::LEN),
            (Section::LensNodes, LensNodeRec::LEN),
            (Section::Sliced, SlicedIndexRec::LEN),
            (Section::PatFacts, PatFactRec::LEN),
        ] {
            assert_eq!(s.record_len(), len, "{}", s.name());
        }
    }
}
