//! Blob encodings of a [`Tree`]: Fotland's 1993 format (as reconstructed, docs/joseki.md),
//! the denser walkable default, and a range-coded storage form. The first two are depth-first
//! (an entry, then its children, then its next sibling), byte-aligned, context-free per entry,
//! and walked in place by [`crate::Walker`]; the packed form is decoded once ([`unpack`]).
//!
//! Header: `"LJ"`, version `2` (Fotland: `3`, the pass may be in its table; versions 1 and 2
//! still decode), encoding id (0 Fotland, 1 Compact,
//! 2 Packed), the source tree's move count (LEB128), then the encoding's code table, then the
//! root's child list (Packed: checksum and payload).
//! The byte layouts are documented in `docs/joseki.md` and in each module.

pub(crate) mod compact;
pub(crate) mod fotland;
pub(crate) mod huffman;
pub(crate) mod packed;
mod packed_shape;

use crate::model::{Edge, MoveType, Point, Rel, Step, Tree, Vertex};
use std::collections::HashMap;

pub(crate) const MAGIC: &[u8; 2] = b"LJ";
/// Version 2: Compact's code groups (types, passes, colour exceptions and 2-move pairs in the
/// code byte); Packed. Version 1 blobs (Compact with five plain classes, or Fotland) still
/// decode.
pub(crate) const VERSION: u8 = 2;
/// Compact version 3: pair codes whose first move has a sibling (two more pair groups). The
/// encoder writes it, or version 4 (`compact::HUFFMAN_VERSION`: the same entries Huffman
/// coded) when that is smaller; Compact version 1 and 2 blobs still decode.
pub(crate) const COMPACT_VERSION: u8 = 3;

/// Which blob layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Fotland's: `has_sibling:1 has_child:1 code:6`, 62-entry point table, escape, extension
    /// byte, 2/3-byte backward pointers where lines converge. No skip fields.
    Fotland,
    /// The default: a joint code byte over (point, has_sibling, has_child, type, pass, colour
    /// exception) and 2-move pair codes from a per-blob code space of 230 codes, one-byte
    /// prefixes for the rest; version 4 Huffman codes those bytes when that is smaller.
    Compact,
    /// (c) Storage only: range coded with adaptive context models, decoded once at load time
    /// ([`unpack`] gives a Compact blob to walk). Not walkable in place.
    Packed,
}

impl Encoding {
    /// Every encoding, the storage-only [`Encoding::Packed`] included.
    pub const ALL: [Encoding; 3] = [Encoding::Fotland, Encoding::Compact, Encoding::Packed];
    /// The walkable encodings, a subset of [`Encoding::ALL`]: a [`crate::Walker`] reads them
    /// in place; Packed must be unpacked first.
    pub const WALKABLE: [Encoding; 2] = [Encoding::Fotland, Encoding::Compact];
    pub const fn id(self) -> u8 {
        match self {
            Encoding::Fotland => 0,
            Encoding::Compact => 1,
            Encoding::Packed => 2,
        }
    }
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Fotland => "fotland",
            Encoding::Compact => "compact",
            Encoding::Packed => "packed",
        }
    }
    pub const fn walkable(self) -> bool {
        !matches!(self, Encoding::Packed)
    }
    pub fn from_name(s: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("offset {offset}: {reason}")]
pub struct DecodeError {
    pub offset: usize,
    pub reason: &'static str,
}

pub(crate) fn err<T>(offset: usize, reason: &'static str) -> Result<T, DecodeError> {
    Err(DecodeError { offset, reason })
}

/// The parsed header: where the table and the root list are. `Copy`, no allocation.
#[derive(Clone, Copy)]
pub(crate) struct Layout<'a> {
    pub bytes: &'a [u8],
    pub enc: Encoding,
    pub table: &'a [u8],
    /// Compact: the point byte of each table code.
    pub code_point: [u8; 256],
    /// Compact: the class of each table code (0xFF: not a table code). Classes 0-4 are plain
    /// single moves (normal type, no flags); `compact::SLOW_CLASS` codes (typed, pass, colour
    /// exception, 2-move pair) are decoded by `read_entry`.
    pub code_class: [u8; 256],
    /// Compact: the group descriptor of each table code (0xFF: not a table code), see `compact`.
    pub code_ext: [u8; 256],
    /// Compact: the second move's point byte of each pair code.
    pub code_second: [u8; 256],
    pub root: usize,
    pub tree_moves: u64,
    /// Compact version 4: the symbols' decode table. Every position (entries, pointers,
    /// `root`, `RawEntry` offsets, setup stones) is then in bits, not bytes.
    pub huff: Option<huffman::Decoder>,
}

impl Layout<'_> {
    /// The end of the blob in positions (bytes, or bits in version 4).
    #[inline]
    pub fn limit(&self) -> usize {
        match self.huff {
            None => self.bytes.len(),
            Some(_) => self.bytes.len() * 8,
        }
    }
    /// Positions per setup stone (2 bytes).
    #[inline]
    pub fn stone_width(&self) -> usize {
        if self.huff.is_some() { 16 } else { 2 }
    }
    /// Positions count bits (version 4), not bytes.
    #[inline]
    pub fn in_bits(&self) -> bool {
        self.huff.is_some()
    }
    /// The two bytes of setup stone `i` of a setup entry whose stones start at `at`.
    #[inline]
    pub fn stone(&self, at: usize, i: usize) -> Option<(u8, u8)> {
        let p = at + self.stone_width() * i;
        if p + self.stone_width() > self.limit() {
            return None;
        }
        Some(match self.huff {
            None => (self.bytes[p], self.bytes[p + 1]),
            Some(_) => (
                huffman::peek(self.bytes, p, 8) as u8,
                huffman::peek(self.bytes, p + 8, 8) as u8,
            ),
        })
    }
}

/// One decoded entry. Offsets are absolute in the blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawEntry {
    pub start: usize,
    pub point: Point,
    pub colour_exception: bool,
    pub kind: MoveType,
    pub symmetric: bool,
    pub reverse: bool,
    /// Setup edge: (offset of the stones, count).
    pub setup: Option<(usize, usize)>,
    pub has_sibling: bool,
    pub has_child: bool,
    /// Shared child list (a pointer), or, for the first move of a Compact pair code, the
    /// virtual position ([`VIRTUAL`]) at which `read_entry` decodes the pair's second move (the
    /// first move's only child; its own children follow the pair code inline).
    pub ptr: Option<usize>,
    /// Next sibling's offset, when a skip field gives it.
    pub skip: Option<usize>,
    /// End of the entry: its inline children (if any) start here.
    pub end: usize,
}

impl RawEntry {
    pub fn inline_children(&self) -> bool {
        self.has_child && self.ptr.is_none()
    }
    /// Where the subtree stored after this entry starts (its next sibling follows it): the
    /// inline children, or a pair code's second move (a virtual position). `None`: the next
    /// sibling, if any, starts at `end`.
    pub fn subtree(&self) -> Option<usize> {
        match self.ptr {
            None if self.has_child => Some(self.end),
            Some(p) if is_virtual(p) => Some(p),
            _ => None,
        }
    }
    /// Where the children list starts, if any.
    pub fn children(&self) -> Option<usize> {
        if !self.has_child {
            None
        } else {
            Some(self.ptr.unwrap_or(self.end))
        }
    }
    /// Colour of this move given the colour of the move before it.
    pub fn colour(&self, parent: Rel) -> Rel {
        if self.setup.is_some() || self.colour_exception {
            parent
        } else {
            parent.flip()
        }
    }
}

pub(crate) fn read_varint(b: &[u8], mut pos: usize) -> Result<(u64, usize), DecodeError> {
    let start = pos;
    let mut v: u64 = 0;
    let mut shift = 0;
    loop {
        let Some(&c) = b.get(pos) else {
            return err(start, "truncated varint");
        };
        pos += 1;
        if shift >= 63 && c > 1 {
            return err(start, "varint overflows 64 bits");
        }
        v |= ((c & 0x7f) as u64) << shift;
        if c & 0x80 == 0 {
            return Ok((v, pos));
        }
        shift += 7;
        if shift > 63 {
            return err(start, "varint too long");
        }
    }
}

pub(crate) fn varint_len(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

/// LEB128 padded to exactly `width` bytes (continuation bits with zero payload are legal).
pub(crate) fn write_varint(out: &mut Vec<u8>, mut v: u64, width: usize) {
    for i in 0..width {
        let last = i + 1 == width;
        let b = (v & 0x7f) as u8;
        v >>= 7;
        out.push(if last { b } else { b | 0x80 });
    }
    debug_assert_eq!(v, 0);
}

pub(crate) fn parse_header(bytes: &[u8]) -> Result<Layout<'_>, DecodeError> {
    if bytes.len() < 4 || &bytes[0..2] != MAGIC {
        return err(0, "not a joseki blob (magic `LJ` missing)");
    }
    let version = bytes[2];
    let known = match bytes[3] {
        0 => (1..=fotland::VERSION_PASS_IN_TABLE).contains(&version),
        1 => (1..=compact::HUFFMAN_VERSION).contains(&version),
        2 => version == 1 || (VERSION..=packed::VERSION).contains(&version),
        _ => version == 1 || version == VERSION,
    };
    if !known {
        return err(2, "unsupported joseki blob version");
    }
    let enc = match bytes[3] {
        0 => Encoding::Fotland,
        1 => Encoding::Compact,
        2 if version != 1 => {
            return err(
                3,
                "a packed blob is not walkable in place: unpack it first (codec::unpack)",
            );
        }
        _ => return err(3, "unknown encoding id"),
    };
    let (tree_moves, pos) = read_varint(bytes, 4)?;
    match enc {
        Encoding::Fotland => fotland::header(bytes, pos, tree_moves),
        Encoding::Compact => compact::header(bytes, pos, tree_moves, version),
        Encoding::Packed => unreachable!("refused above"),
    }
}

#[inline]
pub(crate) fn read_entry(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
    match l.enc {
        Encoding::Fotland => fotland::read(l, pos),
        Encoding::Compact => compact::read(l, pos),
        Encoding::Packed => err(pos, "a packed blob has no entries to read in place"),
    }
}

/// Positions with the top bit set are virtual: the second move of the pair code at
/// `pos & !VIRTUAL`. Only `RawEntry::children()` of a pair's first move yields one.
pub(crate) const VIRTUAL: usize = !(usize::MAX >> 1);

#[inline]
pub(crate) fn is_virtual(pos: usize) -> bool {
    pos & VIRTUAL != 0
}

/// Offset just after the list starting at `pos` (every entry and its inline subtree).
/// Counts pending entries, so it needs no stack. Adds the bytes read to `parsed`.
pub(crate) fn skip_list(
    l: &Layout<'_>,
    mut pos: usize,
    parsed: &mut usize,
) -> Result<usize, DecodeError> {
    let mut pending: usize = 1;
    while pending > 0 {
        let e = read_entry(l, pos)?;
        pending -= 1;
        if let Some(v) = e.ptr.filter(|&p| is_virtual(p)) {
            // A pair code: its second move (the only child) is read at the virtual position;
            // the second's subtree, then the first's sibling, follow the code.
            *parsed += e.end - e.start;
            pos = v;
            pending += 1 + e.has_sibling as usize;
            continue;
        }
        if let Some(next) = e.skip.filter(|_| e.inline_children()) {
            // The skip field jumps over the whole inline subtree.
            *parsed += e.end - e.start;
            pos = next;
            if e.has_sibling {
                pending += 1;
            }
            continue;
        }
        *parsed += e.end - e.start;
        pos = e.end;
        pending += e.has_sibling as usize + e.inline_children() as usize;
    }
    Ok(pos)
}

/// The start of every entry of the blob, in blob order (a pair code's second move, which has
/// no bytes of its own, not included). Follows the structure, so it stops at the end of the
/// root list (a version 4 blob's last byte may hold padding bits after it).
pub(crate) fn entry_starts(l: &Layout<'_>) -> Result<Vec<usize>, DecodeError> {
    let mut out = Vec::new();
    if l.root >= l.limit() {
        return Ok(out);
    }
    let (mut pos, mut pending) = (l.root, 1usize);
    while pending > 0 {
        let e = read_entry(l, pos)?;
        pending -= 1;
        if !is_virtual(pos) {
            out.push(pos);
        }
        if let Some(v) = e.ptr.filter(|&p| is_virtual(p)) {
            pending += 1 + e.has_sibling as usize;
            pos = v;
            continue;
        }
        pending += e.has_sibling as usize + e.inline_children() as usize;
        pos = e.end;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Encoding: a depth-first plan, then a layout loop that sizes pointer and skip fields.

/// One entry of the plan.
pub(crate) struct PEntry<'t> {
    pub edge: &'t Edge,
    pub parent_colour: Rel,
    pub has_sibling: bool,
    pub has_child: bool,
    /// Entry index of the shared list this entry points to.
    pub ptr_target: Option<usize>,
    /// Entry index of the next sibling (meaningful when `has_sibling`).
    pub next_sibling: usize,
    /// Entries in the inline subtree.
    pub subtree_entries: usize,
}

impl PEntry<'_> {
    pub fn colour_exception(&self) -> bool {
        match &self.edge.step {
            Step::Move(m) => m.colour == self.parent_colour,
            Step::Setup(_) => false,
        }
    }
    pub fn inline(&self) -> bool {
        self.has_child && self.ptr_target.is_none()
    }
}

pub(crate) fn plan(tree: &Tree) -> Vec<PEntry<'_>> {
    let vs: &[Vertex] = tree.vertices();
    let mut out: Vec<PEntry> = Vec::new();
    let mut head_of: Vec<Option<usize>> = vec![None; vs.len()];
    // Explicit stack: (vertex, next edge index, parent colour, index of the entry owning the list).
    let mut stack: Vec<(u32, usize, Rel, Option<usize>)> = vec![(0, 0, Rel::Opposite, None)];
    while let Some(&mut (v, ref mut i, pc, _)) = stack.last_mut() {
        let edges = &vs[v as usize].edges;
        if *i >= edges.len() {
            let (_, _, _, owner) = stack.pop().unwrap();
            if let Some(o) = owner {
                out[o].subtree_entries = out.len() - o - 1;
            }
            continue;
        }
        let k = *i;
        *i += 1;
        let e = &edges[k];
        let idx = out.len();
        let to = e.to as usize;
        let has_child = !vs[to].edges.is_empty();
        let ptr_target = if has_child { head_of[to] } else { None };
        out.push(PEntry {
            edge: e,
            parent_colour: pc,
            has_sibling: k + 1 < edges.len(),
            has_child,
            ptr_target,
            next_sibling: usize::MAX,
            subtree_entries: 0,
        });
        if has_child && ptr_target.is_none() {
            head_of[to] = Some(idx + 1);
            let colour = match &e.step {
                Step::Move(m) => m.colour,
                Step::Setup(_) => pc,
            };
            stack.push((e.to, 0, colour, Some(idx)));
        }
    }
    // next_sibling = idx + 1 + subtree_entries for entries with a sibling.
    for (idx, p) in out.iter_mut().enumerate() {
        if p.has_sibling {
            p.next_sibling = idx + 1 + if p.inline() { p.subtree_entries } else { 0 };
        }
    }
    out
}

/// Sizes of the variable fields of one entry, chosen by the layout loop.
#[derive(Clone, Copy, Default)]
pub(crate) struct Widths {
    pub ptr: u8,
    pub skip: u8,
}

/// Lay out entries whose fixed part is `fixed[i]` bytes, growing pointer / skip widths until
/// every value fits. `ptr_width(value)` and `skip_width(value)` give the width a value needs.
pub(crate) fn layout(
    plan: &[PEntry<'_>],
    fixed: &[usize],
    wants_skip: &[bool],
    ptr_width: impl Fn(u64) -> u8,
    skip_width: impl Fn(u64) -> u8,
) -> (Vec<usize>, Vec<Widths>) {
    let n = plan.len();
    let mut w = vec![Widths::default(); n];
    for i in 0..n {
        w[i].ptr = if plan[i].ptr_target.is_some() {
            ptr_width(0)
        } else {
            0
        };
        w[i].skip = if wants_skip[i] { skip_width(0) } else { 0 };
    }
    loop {
        let mut pos = Vec::with_capacity(n + 1);
        let mut p = 0usize;
        for i in 0..n {
            pos.push(p);
            p += fixed[i] + w[i].ptr as usize + w[i].skip as usize;
        }
        pos.push(p);
        let mut changed = false;
        for i in 0..n {
            if let Some(t) = plan[i].ptr_target {
                let need = ptr_width((pos[i] - pos[t]) as u64);
                if need > w[i].ptr {
                    w[i].ptr = need;
                    changed = true;
                }
            }
            if wants_skip[i] {
                let need = skip_width(skip_value(plan, &pos, &w, fixed, i));
                if need > w[i].skip {
                    w[i].skip = need;
                    changed = true;
                }
            }
        }
        if !changed {
            return (pos, w);
        }
    }
}

/// Skip value: bytes from the end of entry `i` to its next sibling.
pub(crate) fn skip_value(
    plan: &[PEntry<'_>],
    pos: &[usize],
    w: &[Widths],
    fixed: &[usize],
    i: usize,
) -> u64 {
    let end = pos[i] + fixed[i] + w[i].ptr as usize + w[i].skip as usize;
    (pos[plan[i].next_sibling] - end) as u64
}

/// Encode a tree.
pub fn encode(tree: &Tree, enc: Encoding) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.push(match enc {
        // Fotland's table may hold the pass from version 3; Compact and Packed stay at 2.
        Encoding::Fotland => fotland::VERSION_PASS_IN_TABLE,
        Encoding::Compact => COMPACT_VERSION,
        Encoding::Packed => packed::VERSION,
    });
    out.push(enc.id());
    write_varint(&mut out, tree.tree_moves(), varint_len(tree.tree_moves()));
    let plan = plan(tree);
    match enc {
        Encoding::Fotland => fotland::encode(&plan, &mut out),
        Encoding::Compact => compact::encode(&plan, &mut out, compact::DEFAULT_SKIP_MIN, true),
        Encoding::Packed => packed::encode(&plan, &mut out),
    }
    out
}

/// Decode a packed (or any) blob once and give the Compact blob to walk in place.
pub fn unpack(bytes: &[u8]) -> Result<Vec<u8>, DecodeError> {
    Ok(encode(&decode(bytes)?, Encoding::Compact))
}

/// Encode with Compact version 3 (bytes, no Huffman layer) and a chosen skip threshold
/// (subtree entries; `usize::MAX`: none, the version 3 default): for measuring, and for readers
/// that predate version 4.
pub fn encode_compact_with_skip(tree: &Tree, skip_min: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.push(COMPACT_VERSION);
    out.push(Encoding::Compact.id());
    write_varint(&mut out, tree.tree_moves(), varint_len(tree.tree_moves()));
    compact::encode(&plan(tree), &mut out, skip_min, false);
    out
}

/// Measuring only (the "tables shipped with the program" estimate): the Compact blob of `test`
/// coded with the code space the encoder chooses for `train`. Returns the blob (it decodes to
/// `test`) and the bytes of its code space (explicit table, group list, pair table).
pub fn encode_compact_with_space_of(train: &Tree, test: &Tree) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.push(COMPACT_VERSION);
    out.push(Encoding::Compact.id());
    write_varint(&mut out, test.tree_moves(), varint_len(test.tree_moves()));
    let space = compact::encode_with_space_of(
        &plan(train),
        &plan(test),
        compact::DEFAULT_SKIP_MIN,
        &mut out,
    );
    (out, space)
}

/// Which encoding a blob uses.
pub fn encoding_of(bytes: &[u8]) -> Result<Encoding, DecodeError> {
    if packed_header(bytes)?.is_some() {
        return Ok(Encoding::Packed);
    }
    Ok(parse_header(bytes)?.enc)
}

/// A packed blob's version, move count and payload offset; `None` for other blobs.
fn packed_header(bytes: &[u8]) -> Result<Option<(u8, u64, usize)>, DecodeError> {
    if bytes.len() >= 4
        && &bytes[0..2] == MAGIC
        && (VERSION..=packed::VERSION).contains(&bytes[2])
        && bytes[3] == 2
    {
        let (tree_moves, pos) = read_varint(bytes, 4)?;
        return Ok(Some((bytes[2], tree_moves, pos)));
    }
    Ok(None)
}

/// Decode a blob back into the tree it was encoded from (exact: `decode(encode(t)) == t`).
pub fn decode(bytes: &[u8]) -> Result<Tree, DecodeError> {
    if let Some((version, tree_moves, pos)) = packed_header(bytes)? {
        return packed::decode(bytes, pos, tree_moves, version);
    }
    let l = parse_header(bytes)?;
    // Version 4 positions are bits: errors name the byte.
    decode_entries(&l).map_err(|mut e| {
        if l.in_bits() {
            e.offset /= 8;
        }
        e
    })
}

fn decode_entries(l: &Layout<'_>) -> Result<Tree, DecodeError> {
    struct List {
        v: u32,
        pc: Rel,
        /// After the current entry's inline children: continue this list (it has a sibling).
        resume: bool,
        /// Where the skip field of the current entry says the sibling starts.
        expect: Option<usize>,
    }
    let bytes = l.bytes;
    let mut vertices: Vec<Vertex> = vec![Vertex::default()];
    if l.root >= l.limit() {
        return Ok(Tree::from_parts(vertices, l.tree_moves));
    }
    let mut owner: HashMap<usize, u32> = HashMap::new();
    let mut finished: Vec<bool> = vec![false];
    let mut stack = vec![List {
        v: 0,
        pc: Rel::Opposite,
        resume: false,
        expect: None,
    }];
    let mut pos = l.root;
    'entries: loop {
        let depth = stack.len();
        let top = stack
            .last_mut()
            .expect("the loop ends when the stack empties");
        let e = read_entry(l, pos)?;
        let step = to_step(l, &e, top.pc)?;
        let colour = match &step {
            Step::Move(m) => m.colour,
            Step::Setup(_) => top.pc,
        };
        let pair = e.ptr.filter(|&p| is_virtual(p));
        let target = match e.ptr.filter(|_| pair.is_none()) {
            Some(p) => match owner.get(&p) {
                Some(&t) if finished[t as usize] => t,
                _ => return err(e.start, "pointer to no finished child list"),
            },
            None => {
                let t = vertices.len() as u32;
                vertices.push(Vertex::default());
                finished.push(!e.has_child);
                t
            }
        };
        vertices[top.v as usize]
            .edges
            .push(Edge { step, to: target });
        pos = e.end;
        if e.inline_children() || pair.is_some() {
            if depth > 100_000 {
                return err(e.start, "lists nested too deep");
            }
            top.resume = e.has_sibling;
            top.expect = e.skip;
            match pair {
                // A pair's second move is a one-entry list that no pointer can reach.
                Some(v) => pos = v,
                None => {
                    owner.insert(e.end, target);
                }
            }
            stack.push(List {
                v: target,
                pc: colour,
                resume: false,
                expect: None,
            });
            continue;
        }
        if e.has_sibling {
            continue;
        }
        // The list ended: close it and every enclosing list whose last entry it ended.
        loop {
            let done = stack.pop().expect("non-empty");
            finished[done.v as usize] = true;
            let Some(parent) = stack.last_mut() else {
                break 'entries;
            };
            if parent.expect.is_some_and(|x| x != pos) {
                return err(pos, "skip field does not match the subtree size");
            }
            if parent.resume {
                continue 'entries;
            }
        }
    }
    if l.in_bits() {
        // Padding: zero bits to the end of the last byte.
        if pos.div_ceil(8) != bytes.len() {
            return err(pos, "trailing bytes after the root list");
        }
        if pos % 8 != 0 && huffman::peek(bytes, pos, (8 - pos % 8) as u32) != 0 {
            return err(pos, "padding bits are not zero");
        }
    } else if pos != bytes.len() {
        return err(pos, "trailing bytes after the root list");
    }
    Ok(Tree::from_parts(vertices, l.tree_moves))
}

fn to_step(l: &Layout<'_>, e: &RawEntry, pc: Rel) -> Result<Step, DecodeError> {
    if let Some((at, count)) = e.setup {
        let mut stones = Vec::with_capacity(count.min(1024));
        for k in 0..count {
            let p = at + l.stone_width() * k;
            let Some((a, b)) = l.stone(at, k) else {
                return err(p, "truncated setup stones");
            };
            let colour = match a >> 6 {
                0 => Some(Rel::Same),
                1 => Some(Rel::Opposite),
                2 => None,
                _ => return err(p, "bad setup stone colour"),
            };
            let (x, y) = (a & 0x3f, b);
            if !(1..=25).contains(&x) || !(1..=25).contains(&y) {
                return err(p, "setup stone outside 1..=25");
            }
            stones.push(crate::model::SetupStone { x, y, colour });
        }
        return Ok(Step::Setup(stones));
    }
    let mut m = crate::model::Move::new(e.point, e.colour(pc)).with_kind(e.kind);
    m.symmetric = e.symmetric;
    m.colour_reverse = e.reverse;
    Ok(Step::Move(m))
}

/// Setup stones as bytes: `colour:2 x:6`, `y`.
pub(crate) fn write_stones(out: &mut Vec<u8>, stones: &[crate::model::SetupStone]) {
    for s in stones {
        let c = match s.colour {
            Some(Rel::Same) => 0u8,
            Some(Rel::Opposite) => 1,
            None => 2,
        };
        out.push(c << 6 | s.x);
        out.push(s.y);
    }
}

/// Point byte for 1..=16 coordinates: `(x-1) << 4 | (y-1)`.
pub(crate) fn small_point(p: Point) -> Option<u8> {
    match p {
        Point::At { x, y } if (1..=16).contains(&x) && (1..=16).contains(&y) => {
            Some((x - 1) << 4 | (y - 1))
        }
        _ => None,
    }
}

pub(crate) fn from_small(b: u8) -> Point {
    Point::at((b >> 4) + 1, (b & 15) + 1)
}

/// Two-byte point: `x` (0 for a pass), `y`.
pub(crate) fn read_far(bytes: &[u8], pos: usize) -> Result<(Point, u8), DecodeError> {
    let (Some(&a), Some(&b)) = (bytes.get(pos), bytes.get(pos + 1)) else {
        return err(pos, "truncated point");
    };
    far_of(a, b, pos)
}

/// A two-byte point `a`, `b` read at `pos`: (point, the two flag bits of `a`).
pub(crate) fn far_of(a: u8, b: u8, pos: usize) -> Result<(Point, u8), DecodeError> {
    let x = a & 0x3f;
    if x == 0 {
        if b != 0 {
            return err(pos, "bad pass encoding");
        }
        return Ok((Point::Pass, a >> 6));
    }
    if x > 25 || !(1..=25).contains(&b) {
        return err(pos, "point outside 1..=25");
    }
    Ok((Point::at(x, b), a >> 6))
}
