//! The compact profile (format v3, header flag [`FLAG_COMPACT`]): RiscIgo's form of a pattern
//! ROM. Each pattern is stored once, in its written orientation, as a variable-length record
//! of a byte stream; its cells are absence nibbles (bit 0 not-friend, 1 not-foe, 2 not-empty,
//! 3 not-off) in [`ring`] order, dense (one nibble per position up to the last constrained
//! one) or sparse (one byte per cell: gap and nibble), whichever is smaller; results and tests
//! live in the shared `results` and `tests` sections, deduplicated; glob headers carry the byte
//! length of their members, so skipping a failed glob is one jump. Names, spans and
//! provenance are one `metadata` section (serde + bincode), absent when stripped.
//!
//! A compact image is read by [`CompactRom`] (zero-copy, validated like every image) and
//! matched after [`CompactRom::expand`] (feature `alloc`) rebuilds the fast profile's image
//! from it, SuperEgo style: the 8 orientation variants, masks, bit-sliced and lookup tables,
//! byte for byte the image the compiler writes for the fast profile.
//! `docs/rom-format.md` describes every byte.

#[cfg(feature = "alloc")]
mod expand;
pub mod ring;
#[cfg(feature = "builder")]
pub(crate) mod write;

use super::records::{CompactClassRec, compact_class_at};
use super::wire::{self, Table};
use super::{
    FLAG_COMPACT, LoadError, LoadErrorKind, MAX_GLOB_DEPTH, Mode, OrientPolicy, RawResult, Rom,
    Section,
};

/// Record header bit: a glob header; a varint follows with the byte length of its members,
/// whose records come right after it.
pub const H_GLOB: u8 = 1 << 0;
/// Record header bit: an orientation-set byte follows (otherwise the default set: all 8, or
/// one per covers set of a symmetry group, see [`H_COVERS`]).
pub const H_ORIENTATIONS: u8 = 1 << 1;
/// Record header bit: the covers sets follow: a byte `g` with bit 0 set is the pattern's
/// symmetry group (orientation `o` covers `o` after each member of `g`), and then the default
/// orientation set is one representative (the smallest) per covers set; a byte 0 is followed
/// by one covers byte per stored orientation. Otherwise each orientation covers only itself.
pub const H_COVERS: u8 = 1 << 2;
/// Record header bit: the pattern id follows as a varint (otherwise the previous id + 1).
pub const H_ID: u8 = 1 << 3;
/// Record header bit: the priority follows as a zigzag varint (otherwise the previous one).
pub const H_PRIORITY: u8 = 1 << 4;
/// Record header bit: a test list follows (varint count, then varint test indices).
pub const H_TESTS: u8 = 1 << 5;
/// Record header bits 6-7: how the cells are stored.
pub const H_CELLS_SHIFT: u32 = 6;
/// Cells form: no constrained cell.
pub const CELLS_NONE: u8 = 0;
/// Cells form: varint `k`, then `ceil(k / 2)` bytes of absence nibbles for ring positions
/// `0..k` (low nibble first; 0 = unconstrained; position `k - 1` is constrained).
pub const CELLS_DENSE: u8 = 1;
/// Cells form: varint `n`, then `n` bytes `gap << 4 | absence`: skip `gap` positions, then a
/// cell; a byte `0xF0` skips 15 positions without a cell (never the last byte).
pub const CELLS_SPARSE: u8 = 2;
/// Sparse byte that skips 15 positions.
pub const SPARSE_SKIP15: u8 = 0xF0;
/// Cells form: the pattern's bounding box, in which every point is a cell: two bytes
/// `(x0 + 8) | (y0 + 8) << 4` and `(w - 1) | (h - 1) << 4` (the box's north-west corner and size),
/// an edge byte (bit 0: the north row is off the board, 1 east column, 2 south row, 3 west
/// column; bits 4-7 zero), then 3 bits per other box point, row-major, LSB first: its absence
/// set without the off bit (those points must be on the board). The usual shape of a drawn
/// diagram, GNU Go's above all: its edge lines cost 4 bits and its points 3 bits each. The
/// focus, when inside the box, may have no cell: its value 0 says so.
pub const CELLS_BOX: u8 = 3;

/// Result byte (`compact_results`): bits 0-1 the kind (0 move, 1 reject, 2 value); this bit:
/// `dx: i8, dy: i8` follow (moves and rejects; otherwise the focus).
pub const R_POINT: u8 = 1 << 2;
/// Result byte bit: the value follows as a zigzag varint (otherwise 0).
pub const R_VALUE: u8 = 1 << 3;
/// Result byte bit: the descriptor bits follow as a varint (otherwise 0).
pub const R_BITS: u8 = 1 << 4;
/// Result byte bit: a sequence index follows as a varint (moves only; otherwise none).
pub const R_SEQUENCE: u8 = 1 << 5;

#[cfg(feature = "alloc")]
/// A result in `compact_results` (`seq` is `NONE` for none).
pub(crate) fn encode_result(
    kind: u8,
    dx: i8,
    dy: i8,
    value: i32,
    bits: u32,
    seq: u32,
) -> alloc::vec::Vec<u8> {
    let mut b = kind;
    let mut out = alloc::vec![0u8];
    if kind != 2 && (dx, dy) != (0, 0) {
        b |= R_POINT;
        out.extend_from_slice(&[dx as u8, dy as u8]);
    }
    if value != 0 {
        b |= R_VALUE;
        wire::put_varint(&mut out, wire::zigzag(value));
    }
    if bits != 0 {
        b |= R_BITS;
        wire::put_varint(&mut out, bits);
    }
    if seq != crate::rom::NONE {
        b |= R_SEQUENCE;
        wire::put_varint(&mut out, seq);
    }
    out[0] = b;
    out
}

/// Decode the result at `pos` of `compact_results`: it and the next position.
pub fn decode_result(s: &[u8], pos: usize) -> Result<(RawResult, usize), (usize, &'static str)> {
    let mut p = pos;
    let b = *s.get(p).ok_or((p, "result truncated"))?;
    p += 1;
    let kind = b & 3;
    if kind > 2 || b >> 6 != 0 {
        return Err((pos, "unknown result kind or flags"));
    }
    if (kind == 2 && b & R_POINT != 0) || (kind != 0 && b & R_SEQUENCE != 0) {
        return Err((pos, "result flag not allowed for its kind"));
    }
    let (mut dx, mut dy) = (0i8, 0i8);
    if b & R_POINT != 0 {
        let pt = s.get(p..p + 2).ok_or((p, "result truncated"))?;
        (dx, dy) = (pt[0] as i8, pt[1] as i8);
        if !super::load::point_ok(dx, dy) {
            return Err((p, "result point out of range"));
        }
        p += 2;
    }
    let mut field = |flag: u8, what: &'static str| -> Result<u32, (usize, &'static str)> {
        if b & flag == 0 {
            return Ok(0);
        }
        let at = p;
        wire::read_varint(s, &mut p).ok_or((at, what))
    };
    let value = wire::unzigzag(field(R_VALUE, "bad result value")?);
    let bits = field(R_BITS, "bad result bits")?;
    let seq = field(R_SEQUENCE, "bad sequence index")?;
    let r = match kind {
        0 => RawResult::Move {
            dx,
            dy,
            value,
            bits,
            sequence: (b & R_SEQUENCE != 0).then_some(seq),
        },
        1 => RawResult::Reject { dx, dy },
        _ => RawResult::Value { value, bits },
    };
    Ok((r, p))
}

/// A decoded item and the position after it, or the offset and reason of a decoding error.
pub type Decoded<T> = Result<(T, usize), (usize, &'static str)>;

/// Decode the test block at `pos` of `compact_tests` (varint cost, varint length, code):
/// `(code, cost)` and the next position.
pub fn decode_test(s: &[u8], pos: usize) -> Decoded<(&[u8], u32)> {
    let mut p = pos;
    let cost = wire::read_varint(s, &mut p).ok_or((pos, "bad test cost"))?;
    let at = p;
    let len = wire::read_varint(s, &mut p).ok_or((at, "bad test length"))? as usize;
    let code = s.get(p..p + len).ok_or((p, "test truncated"))?;
    Ok(((code, cost), p + len))
}

/// Every item of a list section, decoded one after the other.
fn list<'a, T: 'a>(
    s: &'a [u8],
    decode: fn(&'a [u8], usize) -> Decoded<T>,
) -> impl Iterator<Item = T> + 'a {
    let mut pos = 0;
    core::iter::from_fn(move || {
        if pos >= s.len() {
            return None;
        }
        let (item, next) = decode(s, pos).ok()?;
        pos = next;
        Some(item)
    })
}

/// Bytes of one `compact_classes` record.
pub const CLASS_RECORD_LEN: usize = super::records::CompactClassRec::LEN;

/// The compact `metadata` section's content (serde + bincode 2, standard configuration).
#[cfg(feature = "metadata")]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Metadata {
    /// The compiler that wrote the image (also in the `meta` section).
    pub toolchain: alloc::string::String,
    /// FNV-1a 64 of the sources (also in the header).
    pub source_hash: u64,
    /// Names, source files, spans and attributes, indexed by pattern id.
    pub debug: crate::spec::DebugSpec,
}

#[cfg(feature = "metadata")]
impl Metadata {
    fn config() -> bincode::config::Configuration {
        bincode::config::standard()
    }
    /// Serialise (the writer side).
    pub fn to_bytes(&self) -> alloc::vec::Vec<u8> {
        bincode::serde::encode_to_vec(self, Self::config()).unwrap_or_default()
    }
    /// Deserialise the whole section; `None` when it is not exactly one `Metadata`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Metadata> {
        match bincode::serde::decode_from_slice::<Metadata, _>(bytes, Self::config()) {
            Ok((m, used)) if used == bytes.len() => Some(m),
            _ => None,
        }
    }
}

/// How a record stores its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellsForm<'a> {
    /// No cells: the pattern constrains nothing but the focus.
    None,
    /// Nibbles of ring positions `0..positions`.
    Dense {
        /// Ring positions covered (the rest are unconstrained).
        positions: u32,
        /// One allowed-state nibble per position, two per byte.
        nibbles: &'a [u8],
    },
    /// Gap/nibble bytes.
    Sparse {
        /// The encoded gap/nibble bytes.
        bytes: &'a [u8],
    },
    /// A bounding box and its points' 3-bit values.
    Box {
        /// The box.
        frame: BoxCells,
        /// 3 bits per interior point, row-major.
        values: &'a [u8],
    },
}

/// The box of a [`CELLS_BOX`] record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxCells {
    /// West column, relative to the focus.
    pub x0: i32,
    /// North row, relative to the focus.
    pub y0: i32,
    /// Width in points.
    pub w: i32,
    /// Height in points.
    pub h: i32,
    /// Bit 0 north row, 1 east column, 2 south row, 3 west column: off-board lines.
    pub edges: u8,
}

impl BoxCells {
    fn read(a: u8, b: u8, e: u8) -> BoxCells {
        BoxCells {
            x0: (a & 0xF) as i32 - 8,
            y0: (a >> 4) as i32 - 8,
            w: (b & 0xF) as i32 + 1,
            h: (b >> 4) as i32 + 1,
            edges: e,
        }
    }
    /// Whether the box fits in the ROM's offset limit (always: -8 + 15 < 24).
    fn in_range(&self) -> bool {
        self.x0 + self.w - 1 <= super::MAX_OFFSET && self.y0 + self.h - 1 <= super::MAX_OFFSET
    }
    /// Whether `(dx, dy)` (inside the box) lies on one of its off-board lines.
    pub fn on_edge(&self, dx: i32, dy: i32) -> bool {
        (self.edges & 1 != 0 && dy == self.y0)
            || (self.edges & 2 != 0 && dx == self.x0 + self.w - 1)
            || (self.edges & 4 != 0 && dy == self.y0 + self.h - 1)
            || (self.edges & 8 != 0 && dx == self.x0)
    }
    /// Points that carry a 3-bit value (not on an edge line).
    pub fn interior(&self) -> usize {
        let mut n = 0;
        for dy in self.y0..self.y0 + self.h {
            for dx in self.x0..self.x0 + self.w {
                n += !self.on_edge(dx, dy) as usize;
            }
        }
        n
    }
    /// Bytes the interior's 3-bit values take.
    pub fn value_bytes(&self) -> usize {
        (self.interior() * 3).div_ceil(8)
    }
}

/// How a record gives its covers sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Covers<'a> {
    Own,
    Group(u8),
    Explicit(&'a [u8]),
}

/// `o` after each member of the group `g`: the orientations whose variant equals `o`'s.
pub fn coset(o: u8, g: u8) -> u8 {
    let t =
        crate::geometry::Orientation::new(o & 7).unwrap_or(crate::geometry::Orientation::IDENTITY);
    let mut c = 0u8;
    for x in crate::geometry::Orientation::ALL {
        if g & (1 << x.index()) != 0 {
            c |= 1 << t.compose(x).index();
        }
    }
    c
}

/// One representative (the smallest orientation) of each coset of `g`.
pub fn coset_representatives(g: u8) -> u8 {
    let mut seen = 0u8;
    let mut reps = 0u8;
    for o in 0..8u8 {
        if seen & (1 << o) == 0 {
            reps |= 1 << o;
            seen |= coset(o, g);
        }
    }
    reps
}

/// The parts of a record, in stream order (for `lensc stats`).
pub const RECORD_PARTS: [&str; 9] = [
    "record headers",
    "glob member lengths",
    "orientation sets",
    "covers (symmetry)",
    "pattern ids",
    "priorities",
    "test references",
    "result references",
    "cells",
];

/// One decoded pattern record (borrowing the image).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// Byte offset of the record within the `compact_patterns` section.
    pub offset: usize,
    /// Bytes of the record itself (members of a glob not included).
    pub len: usize,
    /// The header byte (`H_*` bits and the cells form).
    pub header: u8,
    /// Bytes of each part of the record, in [`RECORD_PARTS`] order (they sum to `len`).
    pub part_bytes: [u16; 9],
    /// For a glob header: the byte length of its members (they follow this record).
    pub glob_members: Option<u32>,
    /// `PatternSpec::id`.
    pub id: u32,
    /// The pattern's priority.
    pub priority: i32,
    /// The stored orientations (bit set).
    pub orientations: u8,
    covers: Covers<'a>,
    /// Test indices: `count`, then the varints.
    tests: (u32, &'a [u8]),
    /// Index into the `results` section.
    pub result: Option<u32>,
    /// How the record stores its cells ([`Record::cells`] decodes them).
    pub cells: CellsForm<'a>,
}

impl<'a> Record<'a> {
    /// `(orientation, covers)` of each stored orientation, ascending.
    pub fn variants(&self) -> impl Iterator<Item = (u8, u8)> + 'a {
        let set = self.orientations;
        let covers = self.covers;
        (0..8u8)
            .filter(move |o| set & (1 << o) != 0)
            .enumerate()
            .map(move |(k, o)| {
                let c = match covers {
                    Covers::Own => 1 << o,
                    Covers::Group(g) => coset(o, g),
                    Covers::Explicit(c) => c.get(k).copied().unwrap_or(1 << o),
                };
                (o, c)
            })
    }
    /// Test indices (into the `tests` section), in run order.
    pub fn tests(&self) -> impl Iterator<Item = u32> + 'a {
        let (n, bytes) = self.tests;
        let mut pos = 0;
        (0..n).map_while(move |_| wire::read_varint(bytes, &mut pos))
    }
    /// Number of tests.
    pub fn test_count(&self) -> u32 {
        self.tests.0
    }
    /// The constrained cells: `(dx, dy, allowed states)`, in ring order (dense and sparse
    /// forms) or row-major ([`CELLS_BOX`]).
    pub fn cells(&self) -> impl Iterator<Item = (i8, i8, u8)> + 'a {
        let form = self.cells;
        let mut pos = 0u32; // next ring position
        let mut k = 0usize; // byte index (sparse) / position (dense)
        core::iter::from_fn(move || {
            loop {
                let (at, absence) = match form {
                    CellsForm::None => return None,
                    CellsForm::Dense { positions, nibbles } => {
                        if pos >= positions {
                            return None;
                        }
                        let p = pos;
                        pos += 1;
                        let a = nibbles.get(p as usize / 2)? >> (4 * (p % 2)) & 0xF;
                        if a == 0 {
                            continue;
                        }
                        (p, a)
                    }
                    CellsForm::Box { frame, values } => {
                        // `pos` walks the box row-major; `k` counts the values read.
                        if pos >= (frame.w * frame.h) as u32 {
                            return None;
                        }
                        let (dx, dy) = (
                            frame.x0 + (pos % frame.w as u32) as i32,
                            frame.y0 + (pos / frame.w as u32) as i32,
                        );
                        pos += 1;
                        if frame.on_edge(dx, dy) {
                            return Some((dx as i8, dy as i8, 8));
                        }
                        let bit = 3 * k;
                        k += 1;
                        let word = values.get(bit / 8).copied().unwrap_or(0) as u16
                            | (values.get(bit / 8 + 1).copied().unwrap_or(0) as u16) << 8;
                        let v = (word >> (bit % 8)) as u8 & 7;
                        if v == 0 && (dx, dy) == (0, 0) {
                            continue; // the focus is left to the class's focus set
                        }
                        return Some((dx as i8, dy as i8, !v & 7));
                    }
                    CellsForm::Sparse { bytes } => {
                        let b = *bytes.get(k)?;
                        k += 1;
                        if b == SPARSE_SKIP15 {
                            pos += 15;
                            continue;
                        }
                        let p = pos + (b >> 4) as u32;
                        pos = p + 1;
                        (p, b & 0xF)
                    }
                };
                let (dx, dy) = ring::point_at(at)?;
                return Some((dx as i8, dy as i8, !absence & 0xF));
            }
        })
    }
}

/// Decode the record at `pos` of a class's stream (`prev_id`/`prev_priority`: the previous
/// record's, or `u32::MAX`/0 at the class's start). Checks the record's own encoding; the
/// caller checks indices against the tables. Errors are `(offset, reason)`.
pub fn decode_record(
    stream: &[u8],
    pos: usize,
    prev_id: u32,
    prev_priority: i32,
) -> Result<Record<'_>, (usize, &'static str)> {
    let start = pos;
    let mut p = pos;
    let h = *stream.get(p).ok_or((p, "record truncated"))?;
    p += 1;
    let mut marks = [0usize; 10];
    marks[0] = start;
    marks[1] = p;
    let varint = |p: &mut usize, what: &'static str| {
        let at = *p;
        wire::read_varint(stream, p).ok_or((at, what))
    };
    let glob_members = if h & H_GLOB != 0 {
        Some(varint(&mut p, "bad glob member length")?)
    } else {
        None
    };
    marks[2] = p;
    let explicit_set = if h & H_ORIENTATIONS != 0 {
        let o = *stream.get(p).ok_or((p, "record truncated"))?;
        p += 1;
        Some(o)
    } else {
        None
    };
    marks[3] = p;
    let (orientations, covers) = if h & H_COVERS != 0 {
        let g = *stream.get(p).ok_or((p, "record truncated"))?;
        p += 1;
        if g & 1 != 0 {
            (
                explicit_set.unwrap_or(coset_representatives(g)),
                Covers::Group(g),
            )
        } else if g == 0 {
            let set = explicit_set.unwrap_or(0xFF);
            let n = set.count_ones() as usize;
            let c = stream.get(p..p + n).ok_or((p, "record truncated"))?;
            for (k, o) in (0..8u8).filter(|o| set & (1 << o) != 0).enumerate() {
                if c[k] & (1 << o) == 0 {
                    return Err((p + k, "a covers set must include its own orientation"));
                }
            }
            p += n;
            (set, Covers::Explicit(c))
        } else {
            return Err((p - 1, "symmetry group without the identity"));
        }
    } else {
        (explicit_set.unwrap_or(0xFF), Covers::Own)
    };
    marks[4] = p;
    let id = if h & H_ID != 0 {
        varint(&mut p, "bad pattern id")?
    } else {
        prev_id.wrapping_add(1)
    };
    marks[5] = p;
    let priority = if h & H_PRIORITY != 0 {
        wire::unzigzag(varint(&mut p, "bad priority")?)
    } else {
        prev_priority
    };
    marks[6] = p;
    let tests = if h & H_TESTS != 0 {
        let n = varint(&mut p, "bad test count")?;
        if n == 0 {
            return Err((p - 1, "empty test list (the header bit says none)"));
        }
        let first = p;
        for _ in 0..n {
            varint(&mut p, "bad test index")?;
        }
        (n, &stream[first..p])
    } else {
        (0, &stream[p..p])
    };
    marks[7] = p;
    let result = match varint(&mut p, "bad result index")? {
        0 => None,
        r => Some(r - 1),
    };
    marks[8] = p;
    let cells = match h >> H_CELLS_SHIFT {
        CELLS_NONE => CellsForm::None,
        CELLS_DENSE => {
            let at = p;
            let k = varint(&mut p, "bad dense cell count")?;
            if k == 0 || k > ring::positions_within(ring::MAX_RADIUS) {
                return Err((at, "dense cell field of bad length"));
            }
            let n = k.div_ceil(2) as usize;
            let nibbles = stream.get(p..p + n).ok_or((p, "record truncated"))?;
            let last = nibbles[n - 1];
            let (top, pad) = if k % 2 == 0 {
                (last >> 4, 0)
            } else {
                (last & 0xF, last >> 4)
            };
            if top == 0 || pad != 0 {
                return Err((
                    p + n - 1,
                    "dense cell field not minimal or padding not zero",
                ));
            }
            p += n;
            CellsForm::Dense {
                positions: k,
                nibbles,
            }
        }
        CELLS_SPARSE => {
            let at = p;
            let n = varint(&mut p, "bad sparse cell count")? as usize;
            let bytes = stream.get(p..p + n).ok_or((p, "record truncated"))?;
            if n == 0 || bytes[n - 1] == SPARSE_SKIP15 {
                return Err((at, "sparse cell list empty or ending in a skip"));
            }
            let mut pos = 0u32;
            for (i, &b) in bytes.iter().enumerate() {
                if b >> 4 == 0xF && b != SPARSE_SKIP15 {
                    return Err((p + i, "sparse skip byte with a nibble"));
                }
                pos += if b == SPARSE_SKIP15 {
                    15
                } else {
                    (b >> 4) as u32 + 1
                };
            }
            if pos > ring::positions_within(ring::MAX_RADIUS) {
                return Err((at, "sparse cell beyond the largest field"));
            }
            p += n;
            CellsForm::Sparse { bytes }
        }
        _ => {
            let b = stream.get(p..p + 3).ok_or((p, "record truncated"))?;
            let bx = BoxCells::read(b[0], b[1], b[2]);
            if b[2] >> 4 != 0 {
                return Err((p + 2, "box edge byte has bits above 3"));
            }
            if !bx.in_range() {
                return Err((p, "box beyond the largest field"));
            }
            let n = bx.value_bytes();
            let values = stream
                .get(p + 3..p + 3 + n)
                .ok_or((p + 3, "record truncated"))?;
            let used = bx.interior() * 3;
            if !used.is_multiple_of(8) && values[n - 1] >> (used % 8) != 0 {
                return Err((p + 3 + n - 1, "box padding bits not zero"));
            }
            p += 3 + n;
            CellsForm::Box { frame: bx, values }
        }
    };
    marks[9] = p;
    let mut part_bytes = [0u16; 9];
    for (k, b) in part_bytes.iter_mut().enumerate() {
        *b = (marks[k + 1] - marks[k]) as u16;
    }
    Ok(Record {
        offset: start,
        len: p - start,
        header: h,
        part_bytes,
        glob_members,
        id,
        priority,
        orientations,
        covers,
        tests,
        result,
        cells,
    })
}

/// A validated compact-profile image. Its lenses, sequences and joseki blobs are read through
/// [`CompactRom::rom`] exactly as in a fast image; its pattern classes through
/// [`CompactRom::classes`]; matching them needs [`CompactRom::expand`] (feature `alloc`).
#[derive(Clone, Copy, Debug)]
pub struct CompactRom<'a> {
    rom: Rom<'a>,
}

/// A class of a compact image.
#[derive(Clone, Copy, Debug)]
pub struct CompactClass<'a> {
    t: Table<'a>,
    stream: &'a [u8],
    index: usize,
}

impl<'a> CompactRom<'a> {
    /// Validate a compact image and borrow it. O(size); never panics. A fast-profile image is
    /// refused (load it with [`Rom::from_bytes`]).
    pub fn from_bytes(bytes: &'a [u8]) -> Result<CompactRom<'a>, LoadError> {
        let rom = super::load::parse_and_validate(bytes)?;
        if !rom.is_compact() {
            return Err(LoadError {
                offset: 28,
                reason: LoadErrorKind::Malformed(
                    "not a compact-profile image (load it with Rom::from_bytes)",
                ),
            });
        }
        Ok(CompactRom { rom })
    }
    /// The image's shared sections (strings, externs, tests, results, lenses, joseki): lenses
    /// and joseki blobs work straight from it. It has no pattern classes.
    pub fn rom(&self) -> &Rom<'a> {
        &self.rom
    }
    /// Number of classes.
    pub fn class_count(&self) -> usize {
        self.rom.t(Section::CompactClasses).len()
    }
    /// Every class, in id order.
    pub fn classes(&self) -> impl Iterator<Item = CompactClass<'a>> + 'a {
        let t = *self.rom.t(Section::CompactClasses);
        let stream = self.rom.t(Section::CompactPatterns).data;
        (0..t.len()).map(move |index| CompactClass { t, stream, index })
    }
    /// The shared results, in index order (records refer to them by index).
    pub fn results(&self) -> impl Iterator<Item = RawResult> + 'a {
        list(self.rom.t(Section::CompactResults).data, decode_result)
    }
    /// The shared test blocks `(bytecode, cost)`, in index order.
    pub fn tests(&self) -> impl Iterator<Item = (&'a [u8], u32)> + 'a {
        list(self.rom.t(Section::CompactTests).data, decode_test)
    }
    /// The `metadata` section's bytes (`None` when stripped).
    pub fn metadata_bytes(&self) -> Option<&'a [u8]> {
        (!self.rom.is_stripped()).then(|| self.rom.t(Section::Metadata).data)
    }
    /// Names, spans and provenance (`None` when stripped).
    #[cfg(feature = "metadata")]
    pub fn metadata(&self) -> Option<Metadata> {
        self.metadata_bytes().and_then(Metadata::from_bytes)
    }
}

impl<'a> CompactClass<'a> {
    /// The class's record.
    #[inline(always)]
    fn rec(&self) -> CompactClassRec {
        self.t.rec(self.index)
    }
    /// The class's name, as a string index ([`Rom::string`]).
    pub fn name_index(&self) -> u32 {
        self.rec().name
    }
    /// Which matches a call reports.
    pub fn mode(&self) -> Mode {
        super::mode_from_u8(self.rec().mode)
    }
    /// Allowed focus states (bit 0 friend, 1 foe, 2 empty, 3 off).
    pub fn focus(&self) -> u8 {
        self.rec().focus
    }
    /// Field width (odd).
    pub fn width(&self) -> u8 {
        self.rec().width
    }
    /// Field height (odd).
    pub fn height(&self) -> u8 {
        self.rec().height
    }
    /// The orientation policy.
    pub fn orient(&self) -> OrientPolicy {
        super::orient_from_u8(self.rec().orient)
    }
    /// The value reported when no pattern matches.
    pub fn default_value(&self) -> Option<i32> {
        let r = self.rec();
        (r.has_default != 0).then_some(r.default)
    }
    /// The class's records as bytes of `compact_patterns`.
    pub fn stream(&self) -> &'a [u8] {
        let r = self.rec();
        let (first, len) = (r.first as usize, r.len as usize);
        self.stream.get(first..first + len).unwrap_or(&[])
    }
    /// Every record in stream order (glob headers before their members); each with its
    /// nesting depth.
    pub fn records(&self) -> impl Iterator<Item = (usize, Record<'a>)> + 'a {
        let s = self.stream();
        let mut pos = 0usize;
        let (mut id, mut prio) = (u32::MAX, 0i32);
        let mut ends = [0usize; MAX_GLOB_DEPTH + 1];
        let mut depth = 0usize;
        core::iter::from_fn(move || {
            while depth > 0 && pos >= ends[depth - 1] {
                depth -= 1;
            }
            if pos >= s.len() {
                return None;
            }
            let r = decode_record(s, pos, id, prio).ok()?;
            let d = depth;
            id = r.id;
            prio = r.priority;
            pos += r.len;
            if let Some(m) = r.glob_members
                && depth < ends.len()
            {
                ends[depth] = pos + m as usize;
                depth += 1;
            }
            Some((d, r))
        })
    }
}

fn bad(offset: usize, why: &'static str) -> LoadError {
    LoadError {
        offset,
        reason: LoadErrorKind::Malformed(why),
    }
}

/// Load-time checks of `compact_results` and `compact_tests`: every item decodes (tests
/// validate as bytecode, sequences exist). Returns `(tests, results)` counts.
pub(super) fn validate_lists(rom: &Rom<'_>) -> Result<(usize, usize), LoadError> {
    let nseq = rom.t(Section::Sequences).len() as u32;
    let t = rom.t(Section::CompactResults);
    let (mut pos, mut nres) = (0, 0);
    while pos < t.data.len() {
        let (r, next) = decode_result(t.data, pos).map_err(|(o, why)| bad(t.base + o, why))?;
        if let RawResult::Move {
            sequence: Some(s), ..
        } = r
            && s >= nseq
        {
            return Err(bad(t.base + pos, "sequence index out of range"));
        }
        pos = next;
        nres += 1;
    }
    let t = rom.t(Section::CompactTests);
    let globals = rom.global_count();
    let externs = *rom.t(Section::Externs);
    let arity = |i: u16| {
        ((i as usize) < externs.len())
            .then(|| externs.rec::<super::records::ExternRec>(i as usize).arity)
    };
    let (mut pos, mut ntests) = (0, 0);
    while pos < t.data.len() {
        let ((code, _), next) =
            decode_test(t.data, pos).map_err(|(o, why)| bad(t.base + o, why))?;
        if let Err((pc, why)) = super::bytecode::validate(code, globals, &arity) {
            return Err(bad(t.base + next - code.len() + pc, why));
        }
        pos = next;
        ntests += 1;
    }
    Ok((ntests, nres))
}

/// Load-time checks of the compact class and pattern sections (called by the loader for
/// compact images, after [`validate_lists`] counted the tests and results).
pub(super) fn validate(rom: &Rom<'_>, ntests: u32, nres: u32) -> Result<(), LoadError> {
    let classes = rom.t(Section::CompactClasses);
    let stream_t = rom.t(Section::CompactPatterns);
    let stream = stream_t.data;
    let nstr = rom.t(Section::StrIndex).len() as u32;
    let mut cursor = 0usize;
    for c in 0..classes.len() {
        let at = |f| classes.at(c, f);
        let k: CompactClassRec = classes.rec(c);
        if k.name >= nstr {
            return Err(bad(at(compact_class_at::name), "string index out of range"));
        }
        let (mode, focus, width, height, orient) = (k.mode, k.focus, k.width, k.height, k.orient);
        let shape_at = at(compact_class_at::mode);
        super::load::check_class_shape(mode, focus, width, height, orient, shape_at)?;
        if k.has_default > 1 {
            return Err(bad(at(compact_class_at::has_default), "bad default flag"));
        }
        if k.has_default == 0 && k.default != 0 {
            return Err(bad(
                at(compact_class_at::default),
                "default value without default flag",
            ));
        }
        if k.reserved != 0 {
            return Err(bad(
                at(compact_class_at::reserved),
                "reserved field is not zero",
            ));
        }
        let (first, len) = (k.first as usize, k.len as usize);
        if first != cursor {
            return Err(bad(
                at(compact_class_at::first),
                "range does not continue the previous one",
            ));
        }
        let end = first
            .checked_add(len)
            .filter(|&e| e <= stream.len())
            .ok_or(bad(at(compact_class_at::len), "range out of bounds"))?;
        cursor = end;
        // Records tile the class's bytes; glob members stay inside their glob.
        let s = &stream[first..end];
        let base = stream_t.base + first;
        let (mut pos, mut id, mut prio) = (0usize, u32::MAX, 0i32);
        let mut ends = [0usize; MAX_GLOB_DEPTH];
        let mut depth = 0usize;
        while pos < s.len() {
            while depth > 0 && pos == ends[depth - 1] {
                depth -= 1;
            }
            let r = decode_record(s, pos, id, prio).map_err(|(o, why)| bad(base + o, why))?;
            let rat = base + pos;
            for t in r.tests() {
                if t >= ntests {
                    return Err(bad(rat, "test index out of range"));
                }
            }
            if let Some(x) = r.result
                && x >= nres
            {
                return Err(bad(rat, "result index out of range"));
            }
            id = r.id;
            prio = r.priority;
            pos += r.len;
            if depth > 0 && pos > ends[depth - 1] {
                return Err(bad(rat, "record crosses the end of its glob"));
            }
            if let Some(m) = r.glob_members {
                if depth == MAX_GLOB_DEPTH {
                    return Err(bad(rat, "globs nested deeper than 16"));
                }
                let e = pos.checked_add(m as usize).filter(|&e| e <= s.len());
                let Some(e) = e else {
                    return Err(bad(rat, "glob members beyond the class's records"));
                };
                if depth > 0 && e > ends[depth - 1] {
                    return Err(bad(rat, "glob members beyond the enclosing glob"));
                }
                ends[depth] = e;
                depth += 1;
            }
        }
    }
    if cursor != stream.len() {
        return Err(bad(
            stream_t.base + cursor,
            "records not covered by any owner",
        ));
    }
    #[cfg(feature = "metadata")]
    if !rom.is_stripped() {
        let t = rom.t(Section::Metadata);
        match Metadata::from_bytes(t.data) {
            None => return Err(bad(t.base, "metadata section does not decode")),
            Some(m) => {
                let files = m.debug.files.len() as u32;
                if m.debug.patterns.iter().any(|p| p.file >= files) {
                    return Err(bad(t.base, "metadata names a missing file"));
                }
                let n = m.debug.patterns.len() as u32;
                let cp = CompactRom { rom: *rom };
                if cp.classes().any(|c| c.records().any(|(_, r)| r.id >= n)) {
                    return Err(bad(t.base, "a pattern id has no metadata record"));
                }
            }
        }
    }
    Ok(())
}

impl Rom<'_> {
    /// Whether the image is a compact-profile image (header flag [`FLAG_COMPACT`]).
    pub fn is_compact(&self) -> bool {
        wire::u32_at(self.bytes, 28) & FLAG_COMPACT != 0
    }
}
