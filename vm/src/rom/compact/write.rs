//! The compact profile's writer side: class records and pattern records ([`super`] defines
//! the encoding), and the `metadata` section. Called by `rom::write` for
//! [`Profile::Compact`](crate::rom::Profile::Compact); the shared sections (strings, tests,
//! results, lenses, joseki) are written there.

use super::ring;
use super::*;
use crate::rom::records::CompactClassRec;
use crate::rom::write::{W, WriteError, check_field};
use crate::spec::{CellSpec, ClassNode, ClassSpec, PatternSpec, RomSpec};
use alloc::vec::Vec;
use bitvec::prelude::*;
use wire::{put_varint, varint_len, zigzag};

fn fail<T>(msg: impl Into<alloc::string::String>) -> Result<T, WriteError> {
    Err(WriteError(msg.into()))
}

/// The previous record's id and priority (what a record omits when it continues them).
#[derive(Clone, Copy)]
struct Chain {
    id: u32,
    priority: i32,
}

impl Chain {
    const START: Chain = Chain {
        id: u32::MAX,
        priority: 0,
    };
}

/// Every class: its record in `compact_classes`, its pattern records in `compact_patterns`.
pub(crate) fn classes(w: &mut W, spec: &RomSpec) -> Result<(), WriteError> {
    for c in &spec.classes {
        check_field(c)?;
        let name = w.s.id(&c.name);
        let mut stream = Vec::new();
        let mut chain = Chain::START;
        nodes(w, &c.nodes, 0, &mut chain, &mut stream)?;
        let first = w.sec[Section::CompactPatterns.index()].len() as u32;
        w.out(Section::CompactPatterns).extend_from_slice(&stream);
        class_record(w, c, name, first, stream.len() as u32);
    }
    Ok(())
}

fn class_record(w: &mut W, c: &ClassSpec, name: u32, first: u32, len: u32) {
    let rec = CompactClassRec {
        name,
        mode: crate::rom::mode_to_u8(c.mode),
        focus: c.focus,
        width: c.width,
        height: c.height,
        orient: crate::rom::orient_to_u8(c.orient),
        has_default: c.default_value.is_some() as u8,
        reserved: 0,
        default: c.default_value.unwrap_or(0),
        first,
        len,
    };
    rec.write_to(w.out(Section::CompactClasses));
}

fn nodes(
    w: &mut W,
    nodes: &[ClassNode],
    depth: usize,
    chain: &mut Chain,
    out: &mut Vec<u8>,
) -> Result<(), WriteError> {
    for n in nodes {
        match n {
            ClassNode::Pattern(p) => {
                let (h, body) = record(w, p, chain)?;
                out.push(h);
                out.extend_from_slice(&body);
            }
            ClassNode::Glob { header, members } => {
                if depth >= MAX_GLOB_DEPTH {
                    return fail(alloc::format!("globs nested deeper than {MAX_GLOB_DEPTH}"));
                }
                if header.orientations.is_empty() {
                    continue; // a header with no variant never passes (as in the fast profile)
                }
                let (h, body) = record(w, header, chain)?;
                let mut inner = Vec::new();
                self::nodes(w, members, depth + 1, chain, &mut inner)?;
                out.push(h | H_GLOB);
                put_varint(out, inner.len() as u32);
                out.extend_from_slice(&body);
                out.extend_from_slice(&inner);
            }
        }
    }
    Ok(())
}

/// A pattern's record: the header byte and what follows it (after a glob's member length).
fn record(w: &mut W, p: &PatternSpec, chain: &mut Chain) -> Result<(u8, Vec<u8>), WriteError> {
    let mut h = 0u8;
    let mut body = Vec::new();
    // orientations and covers
    if p.orientations.len() != p.covers.len() {
        return fail("orientations and covers differ in length");
    }
    let mut set = 0u8;
    for (k, &o) in p.orientations.iter().enumerate() {
        if o >= 8 || (k > 0 && o <= p.orientations[k - 1]) {
            return fail("orientations must be ascending and below 8");
        }
        if p.covers[k] & (1 << o) == 0 {
            return fail("a variant's covers set must include its own orientation");
        }
        set |= 1 << o;
    }
    // Covers: none beyond each orientation itself, the cosets of a symmetry group (the
    // compiler's symmetric duplicates), or listed.
    let own = p
        .orientations
        .iter()
        .zip(&p.covers)
        .all(|(&o, &c)| c == 1 << o);
    let group = p.orientations.first().and_then(|&o0| {
        let inv = crate::geometry::Orientation::new(o0)?.inverse().index();
        let g = coset(inv, p.covers[0]);
        let fits = g & 1 != 0
            && p.orientations
                .iter()
                .zip(&p.covers)
                .all(|(&o, &c)| coset(o, g) == c);
        fits.then_some(g)
    });
    let (covers, default_set): (Vec<u8>, u8) = match (own, group) {
        (true, _) => (Vec::new(), 0xFF),
        (false, Some(g)) => (alloc::vec![g], coset_representatives(g)),
        (false, None) => {
            let mut c = alloc::vec![0u8];
            c.extend_from_slice(&p.covers);
            (c, 0xFF)
        }
    };
    if set != default_set {
        h |= H_ORIENTATIONS;
        body.push(set);
    }
    if !covers.is_empty() {
        h |= H_COVERS;
        body.extend_from_slice(&covers);
    }
    if p.id != chain.id.wrapping_add(1) {
        h |= H_ID;
        put_varint(&mut body, p.id);
    }
    if p.priority != chain.priority {
        h |= H_PRIORITY;
        put_varint(&mut body, zigzag(p.priority));
    }
    *chain = Chain {
        id: p.id,
        priority: p.priority,
    };
    if !p.tests.is_empty() {
        h |= H_TESTS;
        put_varint(&mut body, p.tests.len() as u32);
        for t in &p.tests {
            let i = w.shared_test(t)?;
            put_varint(&mut body, i);
        }
    }
    let result = match &p.result {
        Some(r) => w.result(r)? + 1,
        None => 0,
    };
    put_varint(&mut body, result);
    let (form, cells) = cells(&p.cells)?;
    h |= form << H_CELLS_SHIFT;
    body.extend_from_slice(&cells);
    Ok((h, body))
}

/// The smaller of the dense and sparse encodings of a pattern's cells (dense on a tie).
/// Cells are stored in ring order (the order the compiler lists them in, so its images
/// expand to the same bytes; other orders come back sorted).
fn cells(cells: &[CellSpec]) -> Result<(u8, Vec<u8>), WriteError> {
    let mut sorted = Vec::with_capacity(cells.len());
    for c in cells {
        let Some(i) = ring::index_of(c.at.dx as i32, c.at.dy as i32) else {
            return fail(alloc::format!(
                "cell ({}, {}) out of range",
                c.at.dx,
                c.at.dy
            ));
        };
        if c.allowed > 15 {
            return fail("cell state set above 15");
        }
        sorted.push((i, *c));
    }
    sorted.sort_by_key(|&(i, _)| i);
    if sorted.windows(2).any(|w| w[0].0 == w[1].0) {
        return fail("two cells at the same point");
    }
    let at: Vec<u32> = sorted.iter().map(|&(i, _)| i).collect();
    let cells: Vec<CellSpec> = sorted.iter().map(|&(_, c)| c).collect();
    let Some(&last) = at.last() else {
        return Ok((CELLS_NONE, Vec::new()));
    };
    let absence = |k: usize| !cells[k].allowed & 0xF;
    // Dense: one nibble per ring position up to the last cell, built as a bit stream.
    let positions = last + 1;
    let dense_ok = (0..at.len()).all(|k| absence(k) != 0);
    let dense_len = varint_len(positions) + positions.div_ceil(2) as usize;
    // Sparse: a byte per cell (gap, nibble), a skip byte per 15 positions of a longer gap.
    let mut sparse = Vec::new();
    let mut next = 0u32;
    for (k, &i) in at.iter().enumerate() {
        let mut gap = i - next;
        while gap >= 15 {
            sparse.push(SPARSE_SKIP15);
            gap -= 15;
        }
        sparse.push((gap as u8) << 4 | absence(k));
        next = i + 1;
    }
    let sparse_len = varint_len(sparse.len() as u32) + sparse.len();
    let mut out = Vec::new();
    if let Some(bx) = boxed(&cells)
        && (bx.len() <= dense_len.min(sparse_len) || !dense_ok && bx.len() <= sparse_len)
    {
        return Ok((CELLS_BOX, bx));
    }
    if dense_ok && dense_len <= sparse_len {
        let mut bits: BitVec<u8, Lsb0> = BitVec::repeat(false, positions.div_ceil(2) as usize * 8);
        for (k, &i) in at.iter().enumerate() {
            bits[i as usize * 4..i as usize * 4 + 4].store_le::<u8>(absence(k));
        }
        put_varint(&mut out, positions);
        bits.set_uninitialized(false);
        out.extend_from_slice(bits.as_raw_slice());
        Ok((CELLS_DENSE, out))
    } else {
        put_varint(&mut out, sparse.len() as u32);
        out.extend_from_slice(&sparse);
        Ok((CELLS_SPARSE, out))
    }
}

/// The [`CELLS_BOX`] encoding, when the cells fill their bounding box, the box fits the
/// form, each side is either a line of off-board cells or has none, and every other point
/// must be on the board.
fn boxed(cells: &[CellSpec]) -> Option<Vec<u8>> {
    let xs = cells.iter().map(|c| c.at.dx as i32);
    let ys = cells.iter().map(|c| c.at.dy as i32);
    let (x0, x1) = (xs.clone().min()?, xs.max()?);
    let (y0, y1) = (ys.clone().min()?, ys.max()?);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    if !(-8..=7).contains(&x0) || !(-8..=7).contains(&y0) || w > 16 || h > 16 {
        return None;
    }
    // Every box point is a cell, but the focus may be left to the class's focus set (its
    // value 0 then stands for "no cell"; a focus cell that only says "on the board" is
    // meaningless and takes another form).
    let focus_in_box = (x0..=x1).contains(&0) && (y0..=y1).contains(&0);
    let focus_cell = cells.iter().find(|c| c.at == crate::spec::Offset::FOCUS);
    let expected = (w * h) as usize - (focus_in_box && focus_cell.is_none()) as usize;
    if cells.len() != expected || focus_cell.is_some_and(|c| !c.allowed & 0xF == 8) {
        return None;
    }
    let absence = |dx: i32, dy: i32| {
        cells
            .iter()
            .find(|c| c.at.dx as i32 == dx && c.at.dy as i32 == dy)
            .map(|c| !c.allowed & 0xF)
    };
    let line_off = |pts: Vec<(i32, i32)>| pts.iter().all(|&(dx, dy)| absence(dx, dy) == Some(7));
    let mut edges = 0u8;
    if line_off((x0..=x1).map(|x| (x, y0)).collect()) {
        edges |= 1;
    }
    if line_off((y0..=y1).map(|y| (x1, y)).collect()) {
        edges |= 2;
    }
    if line_off((x0..=x1).map(|x| (x, y1)).collect()) {
        edges |= 4;
    }
    if line_off((y0..=y1).map(|y| (x0, y)).collect()) {
        edges |= 8;
    }
    let frame = BoxCells {
        x0,
        y0,
        w,
        h,
        edges,
    };
    let mut bits: BitVec<u8, Lsb0> = BitVec::new();
    for dy in y0..=y1 {
        for dx in x0..=x1 {
            if frame.on_edge(dx, dy) {
                continue;
            }
            let a = if (dx, dy) == (0, 0) {
                absence(0, 0).unwrap_or(8)
            } else {
                absence(dx, dy)?
            };
            if a & 8 == 0 {
                return None; // a point that may be off the board
            }
            let mut v: BitVec<u8, Lsb0> = BitVec::repeat(false, 3);
            v.store_le::<u8>(a & 7);
            bits.extend_from_bitslice(&v);
        }
    }
    let mut out = alloc::vec![
        (x0 + 8) as u8 | ((y0 + 8) as u8) << 4,
        (w - 1) as u8 | ((h - 1) as u8) << 4,
        edges,
    ];
    bits.set_uninitialized(false);
    out.extend_from_slice(bits.as_raw_slice());
    Some(out)
}

/// The `metadata` section: names, spans, attributes and provenance, serialised with bincode.
pub(crate) fn metadata(
    w: &mut W,
    spec: &RomSpec,
    d: &crate::spec::DebugSpec,
) -> Result<(), WriteError> {
    if d.patterns.iter().any(|p| p.file as usize >= d.files.len()) {
        return fail("debug record names a missing file");
    }
    let n = d.patterns.len() as u32;
    let mut ids_ok = true;
    for c in &spec.classes {
        each_pattern(&c.nodes, &mut |p| ids_ok &= p.id < n);
    }
    if !ids_ok {
        return fail("a pattern id has no debug record");
    }
    let m = Metadata {
        toolchain: spec.toolchain.clone(),
        source_hash: spec.source_hash,
        debug: d.clone(),
    };
    w.out(Section::Metadata).extend_from_slice(&m.to_bytes());
    Ok(())
}

fn each_pattern(nodes: &[ClassNode], f: &mut dyn FnMut(&PatternSpec)) {
    for n in nodes {
        match n {
            ClassNode::Pattern(p) => f(p),
            ClassNode::Glob { header, members } => {
                f(header);
                each_pattern(members, f);
            }
        }
    }
}
