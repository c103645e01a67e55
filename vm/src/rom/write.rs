//! The ROM writer (feature `builder`): `RomSpec` -> image bytes, deterministic to the byte.
//! It packs the masks of every listed orientation variant in the [`super::layout`] bit order,
//! flattens globs into the class program, encodes tests as bytecode and lays the sections out.

use super::bytecode::*;
use super::layout;
use super::records::*;
use super::wire::fnv1a32;
use super::*;
use crate::geometry::Orientation;
use crate::spec::*;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A `RomSpec` that breaks the contract (a compiler bug, not a user error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError(pub String);

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid RomSpec: {}", self.0)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for WriteError {}

fn fail<T>(msg: impl Into<String>) -> Result<T, WriteError> {
    Err(WriteError(msg.into()))
}

/// Write an image. Panics if `spec` breaks the `RomSpec` contract; see [`try_write`].
pub fn write(spec: &RomSpec) -> Vec<u8> {
    match try_write(spec) {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    }
}

/// [`write()`] with optional sections. Panics like [`write()`].
pub fn write_with(spec: &RomSpec, opts: &WriteOptions) -> Vec<u8> {
    match try_write_with(spec, opts) {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    }
}

#[derive(Default)]
pub(crate) struct Strings {
    map: BTreeMap<String, u32>,
    index: Vec<u8>,
    data: Vec<u8>,
}

impl Strings {
    pub(super) fn id(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.map.get(s) {
            return i;
        }
        let i = self.map.len() as u32;
        self.data.extend_from_slice(s.as_bytes());
        let end = self.data.len() as u32;
        StrIndexRec { end }.write_to(&mut self.index);
        self.map.insert(s.to_string(), i);
        i
    }
}

pub(super) fn off8(d: i16, what: &str) -> Result<i8, WriteError> {
    if (-24..=24).contains(&d) {
        Ok(d as i8)
    } else {
        fail(alloc::format!("{what} offset {d} out of range"))
    }
}

pub(crate) struct W {
    pub(super) s: Strings,
    pub(super) sec: [Vec<u8>; SECTION_COUNT],
    nseq: usize,
    nglobals: usize,
    extern_arity: Vec<u8>,
    /// Compact profile: results and tests go to its varint-coded lists; results and pattern
    /// tests are shared, each stored once.
    share: bool,
    results_seen: BTreeMap<Vec<u8>, u32>,
    #[cfg_attr(not(feature = "builder"), allow(dead_code))]
    tests_seen: BTreeMap<(Vec<u8>, u32), u32>,
    compact_results: u32,
    compact_tests: u32,
}

impl Default for W {
    fn default() -> Self {
        W {
            s: Strings::default(),
            sec: core::array::from_fn(|_| Vec::new()),
            nseq: 0,
            nglobals: 0,
            extern_arity: Vec::new(),
            share: false,
            results_seen: BTreeMap::new(),
            tests_seen: BTreeMap::new(),
            compact_results: 0,
            compact_tests: 0,
        }
    }
}

impl W {
    pub(super) fn out(&mut self, s: Section) -> &mut Vec<u8> {
        &mut self.sec[s.index()]
    }
    /// Index the next test will get (in the compact profile's list or the `tests` section).
    fn test_count(&self) -> u32 {
        if self.share {
            self.compact_tests
        } else {
            self.count(Section::Tests)
        }
    }

    pub(super) fn count(&self, s: Section) -> u32 {
        (self.sec[s.index()].len() / s.record_len()) as u32
    }

    pub(super) fn cell(&mut self, c: &CellSpec) -> Result<(), WriteError> {
        let (dx, dy) = (off8(c.at.dx, "cell")?, off8(c.at.dy, "cell")?);
        if c.allowed > 15 {
            return fail("cell state set above 15");
        }
        let rec = CellRec {
            dx,
            dy,
            allowed: c.allowed,
            reserved: 0,
        };
        rec.write_to(self.out(Section::Cells));
        Ok(())
    }

    /// Append a test block; returns its index.
    fn test(&mut self, t: &TestSpec) -> Result<u32, WriteError> {
        let code = self.test_code(t)?;
        Ok(self.push_test(&code, t.cost))
    }

    /// A test's bytecode, validated.
    fn test_code(&self, t: &TestSpec) -> Result<Vec<u8>, WriteError> {
        let mut code = Vec::new();
        super::bytecode::encode(&t.expr, &mut code)?;
        let globals = self.nglobals;
        let arity = |i: u16| self.extern_arity.get(i as usize).copied();
        if let Err((_, why)) = validate(&code, globals, &arity) {
            return fail(alloc::format!("test does not encode: {why}"));
        }
        Ok(code)
    }

    fn push_test(&mut self, code: &[u8], cost: u32) -> u32 {
        if self.share {
            let o = &mut self.sec[Section::CompactTests.index()];
            super::wire::put_varint(o, cost);
            super::wire::put_varint(o, code.len() as u32);
            o.extend_from_slice(code);
            self.compact_tests += 1;
            return self.compact_tests - 1;
        }
        let idx = self.count(Section::Tests);
        let off = self.sec[Section::Bytecode.index()].len() as u32;
        self.out(Section::Bytecode).extend_from_slice(code);
        let rec = TestRec {
            offset: off,
            len: code.len() as u32,
            cost,
        };
        rec.write_to(self.out(Section::Tests));
        idx
    }

    /// A pattern's test, shared with every identical test in a compact image.
    #[cfg_attr(not(feature = "builder"), allow(dead_code))]
    pub(super) fn shared_test(&mut self, t: &TestSpec) -> Result<u32, WriteError> {
        let code = self.test_code(t)?;
        let key = (code, t.cost);
        if let Some(&i) = self.tests_seen.get(&key) {
            return Ok(i);
        }
        let i = self.push_test(&key.0, key.1);
        self.tests_seen.insert(key, i);
        Ok(i)
    }

    pub(super) fn result(&mut self, r: &ResultSpec) -> Result<u32, WriteError> {
        let idx = self.count(Section::Results);
        let (kind, at, value, bits, seq) = match *r {
            ResultSpec::Move {
                at,
                value,
                bits,
                sequence,
            } => {
                if let Some(s) = sequence
                    && s as usize >= self.nseq
                {
                    return fail("result names a missing sequence");
                }
                (0u8, at, value, bits, sequence.unwrap_or(NONE))
            }
            ResultSpec::Reject { at } => (1, at, 0, 0, NONE),
            ResultSpec::Value { value, bits } => (2, Offset::FOCUS, value, bits, NONE),
        };
        let (dx, dy) = (off8(at.dx, "result")?, off8(at.dy, "result")?);
        if self.share {
            let rec = super::compact::encode_result(kind, dx, dy, value, bits, seq);
            if let Some(&i) = self.results_seen.get(&rec) {
                return Ok(i);
            }
            let i = self.compact_results;
            self.compact_results += 1;
            self.out(Section::CompactResults).extend_from_slice(&rec);
            self.results_seen.insert(rec, i);
            return Ok(i);
        }
        let rec = ResultRec {
            kind,
            dx,
            dy,
            reserved: 0,
            value,
            bits,
            sequence: seq,
        };
        rec.write_to(self.out(Section::Results));
        Ok(idx)
    }

    /// Pattern record + cells + tests + result; returns its index.
    fn pattern(&mut self, p: &PatternSpec) -> Result<u32, WriteError> {
        let idx = self.count(Section::Patterns);
        let c0 = self.count(Section::Cells);
        for c in &p.cells {
            self.cell(c)?;
        }
        let t0 = self.count(Section::Tests);
        for t in &p.tests {
            self.test(t)?;
        }
        let r = match &p.result {
            Some(r) => self.result(r)?,
            None => NONE,
        };
        let rec = PatternRec {
            id: p.id,
            priority: p.priority,
            first_cell: c0,
            cell_count: p.cells.len() as u32,
            first_test: t0,
            test_count: p.tests.len() as u32,
            result: r,
            reserved: 0,
        };
        rec.write_to(self.out(Section::Patterns));
        Ok(idx)
    }
}

struct ClassBuild {
    items: Vec<[u32; 4]>,
    /// (pattern index, orientation, covers, masks)
    entries: Vec<(u32, u8, u8, [u64; 3])>,
    packed: bool,
}

impl ClassBuild {
    fn variants(&mut self, w: &W, pidx: u32, p: &PatternSpec) -> Result<(), WriteError> {
        let _ = w;
        if p.orientations.len() != p.covers.len() {
            return fail("orientations and covers differ in length");
        }
        for (&o, &cov) in p.orientations.iter().zip(&p.covers) {
            let Some(t) = Orientation::new(o) else {
                return fail("orientation above 7");
            };
            if cov & (1 << o) == 0 {
                return fail("a variant's covers set must include its own orientation");
            }
            let mut m = [0u64; 3];
            if self.packed {
                for c in &p.cells {
                    let (dx, dy) = t.apply(c.at.dx as i32, c.at.dy as i32);
                    layout::add_cell(&mut m, dx, dy, c.allowed);
                }
            }
            self.entries.push((pidx, o, cov, m));
        }
        Ok(())
    }

    fn nodes(&mut self, w: &mut W, nodes: &[ClassNode], depth: usize) -> Result<(), WriteError> {
        for n in nodes {
            match n {
                ClassNode::Pattern(p) => {
                    let pidx = w.pattern(p)?;
                    let first = self.entries.len() as u32;
                    self.variants(w, pidx, p)?;
                    let end = self.entries.len() as u32;
                    if end == first {
                        continue;
                    }
                    match self.items.last_mut() {
                        Some(last) if last[0] == ITEM_RUN && last[2] == first => last[2] = end,
                        _ => self.items.push([ITEM_RUN, first, end, 0]),
                    }
                }
                ClassNode::Glob { header, members } => {
                    if depth >= MAX_GLOB_DEPTH {
                        return fail(alloc::format!("globs nested deeper than {MAX_GLOB_DEPTH}"));
                    }
                    if header.orientations.is_empty() {
                        continue; // a header with no variant never passes: the glob is dead
                    }
                    let pidx = w.pattern(header)?;
                    let first = self.entries.len() as u32;
                    self.variants(w, pidx, header)?;
                    let end = self.entries.len() as u32;
                    let at = self.items.len();
                    self.items.push([ITEM_GLOB, first, end, 0]);
                    self.nodes(w, members, depth + 1)?;
                    let close = self.items.len() as u32;
                    self.items.push([ITEM_END, 0, 0, 0]);
                    self.items[at][3] = close;
                }
            }
        }
        Ok(())
    }
}

fn max_extent(nodes: &[ClassNode]) -> i32 {
    let mut m = 0;
    for n in nodes {
        let (p, members) = match n {
            ClassNode::Pattern(p) => (p, &[][..]),
            ClassNode::Glob { header, members } => (header, &members[..]),
        };
        for c in &p.cells {
            m = m.max((c.at.dx as i32).abs()).max((c.at.dy as i32).abs());
        }
        m = m.max(max_extent(members));
    }
    m
}

/// Optional parts of an image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Emit the optional `sliced` section with blocks of up to `64 * sliced_block_words`
    /// entries (1, 2, 4 or 8; 0 = no section). The compiler uses 8
    /// (the largest).
    pub sliced_block_words: u8,
    /// Emit the optional `lut` section (format v2): a lookup table for every 3x3 packed class
    /// (one whose masks read only the focus, its 8 neighbours and the distance-1 edges) whose table takes at most this many bytes (0 = no section;
    /// the section is left out when no class qualifies).
    pub lut_max_bytes: u32,
    /// With `lut_max_bytes`: a class's table may also take at most this many bytes per stored
    /// variant (0 = no such limit), so small classes, which the other kernels already match
    /// quickly, do not pay a table many times their size.
    pub lut_max_bytes_per_variant: u32,
    /// Which profile to write: the fast image (8 variants, optional tables) or the compact
    /// one (each pattern once; the table options above do not apply).
    pub profile: Profile,
}

/// The two image profiles (`lensc compile --profile`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Every orientation variant precompiled, with packed masks and the optional bit-sliced
    /// and lookup tables: the image the fast kernels match directly.
    #[default]
    Fast,
    /// RiscIgo's form (format v3): each pattern once, in its written orientation, as absence
    /// nibbles; [`super::CompactRom::expand`] rebuilds the fast image from it at load.
    Compact,
}

impl WriteOptions {
    /// The `lut` budget `lensc` uses by default: 128 KiB per class (see `docs/compiler.md`).
    pub const COMPILER_LUT_MAX_BYTES: u32 = 128 * 1024;
    /// ... and at most 256 bytes per stored variant.
    pub const COMPILER_LUT_MAX_BYTES_PER_VARIANT: u32 = 256;
    /// What `lensc` writes: the `sliced` section with blocks of up to 512 entries and lookup
    /// tables for 3x3 classes of up to 128 KiB and 256 bytes per variant each.
    pub const COMPILER: WriteOptions = WriteOptions {
        sliced_block_words: super::sliced::MAX_BLOCK_WORDS as u8,
        lut_max_bytes: Self::COMPILER_LUT_MAX_BYTES,
        lut_max_bytes_per_variant: Self::COMPILER_LUT_MAX_BYTES_PER_VARIANT,
        profile: Profile::Fast,
    };
}

/// Write an image, or say which part of `spec` breaks the contract.
pub fn try_write(spec: &RomSpec) -> Result<Vec<u8>, WriteError> {
    try_write_with(spec, &WriteOptions::default())
}

/// [`try_write`] with optional sections.
pub fn try_write_with(spec: &RomSpec, opts: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    if !matches!(opts.sliced_block_words, 0 | 1 | 2 | 4 | 8) {
        return fail("sliced block words must be 0, 1, 2, 4 or 8");
    }
    let mut slices = Vec::new();
    let mut luts = Vec::new();
    let compact = opts.profile == Profile::Compact;
    let mut w = W {
        nseq: spec.sequences.len(),
        nglobals: spec.globals.len(),
        share: compact,
        ..W::default()
    };
    let toolchain = w.s.id(&spec.toolchain);
    let meta = MetaRec {
        toolchain,
        reserved: 0,
    };
    meta.write_to(w.out(Section::Meta));
    for g in &spec.globals {
        let name = w.s.id(g);
        GlobalRec { name }.write_to(w.out(Section::Globals));
    }
    for e in &spec.externs {
        if e.arity as usize > MAX_ARGS {
            return fail("extern arity above 20");
        }
        let rec = ExternRec {
            name: w.s.id(&e.name),
            arity: e.arity,
            reserved_a: 0,
            reserved_b: 0,
            cost: e.cost,
        };
        rec.write_to(w.out(Section::Externs));
        w.extern_arity.push(e.arity);
    }
    // sequences first: results refer to them
    for s in &spec.sequences {
        let first = w.count(Section::SeqNodes);
        let mut prev: i32 = -1;
        for n in &s.nodes {
            if n.depth as i32 > prev + 1 {
                return fail("sequence depth jumps by more than one");
            }
            prev = n.depth as i32;
            let (dx, dy, pass) = match n.at {
                Some(o) => (off8(o.dx, "sequence")?, off8(o.dy, "sequence")?, 0u8),
                None => (0, 0, 1),
            };
            let rec = SeqNodeRec {
                dx,
                dy,
                flags: pass,
                reserved_a: 0,
                depth: n.depth,
                reserved_b: 0,
            };
            rec.write_to(w.out(Section::SeqNodes));
        }
        let count = s.nodes.len() as u32;
        SequenceRec { first, count }.write_to(w.out(Section::Sequences));
    }
    if compact {
        #[cfg(feature = "builder")]
        super::compact::write::classes(&mut w, spec)?;
        #[cfg(not(feature = "builder"))]
        return fail("writing a compact image needs lens-vm's `builder` feature");
    } else {
        fast_classes(&mut w, spec, opts, &mut slices, &mut luts)?;
    }
    // lenses
    for l in &spec.lenses {
        if l.endpoints.is_empty()
            || l.endpoints.len() > MAX_ENDPOINTS
            || l.endpoints[0] != Offset::FOCUS
        {
            return fail(alloc::format!(
                "lens `{}`: 1 to {MAX_ENDPOINTS} endpoints, the first at (0, 0)",
                l.name
            ));
        }
        if l.tree.is_empty() {
            return fail(alloc::format!("lens `{}` has no decision tree", l.name));
        }
        let name = w.s.id(&l.name);
        let p0 = w.count(Section::LensPoints);
        for e in &l.endpoints {
            let (dx, dy) = (off8(e.dx, "endpoint")?, off8(e.dy, "endpoint")?);
            let rec = LensPointRec {
                dx,
                dy,
                reserved: 0,
            };
            rec.write_to(w.out(Section::LensPoints));
        }
        let f0 = w.count(Section::LensFields);
        for f in &l.fields {
            let c0 = w.count(Section::Cells);
            for c in &f.states {
                w.cell(c)?;
            }
            let t0 = w.test_count();
            for t in &f.tests {
                w.test(t)?;
            }
            let r = w.result(&f.result)?;
            let rec = LensFieldRec {
                first_cell: c0,
                cell_count: f.states.len() as u32,
                first_test: t0,
                test_count: f.tests.len() as u32,
                result: r,
                reserved: 0,
            };
            rec.write_to(w.out(Section::LensFields));
        }
        let n0 = w.count(Section::LensNodes);
        for (i, n) in l.tree.iter().enumerate() {
            match n {
                TreeNode::Branch { at, children } => {
                    if children
                        .iter()
                        .any(|&ch| ch as usize <= i || ch as usize >= l.tree.len())
                    {
                        return fail(alloc::format!(
                            "lens `{}`: a child must follow its parent",
                            l.name
                        ));
                    }
                    let (dx, dy) = (off8(at.dx, "lens")?, off8(at.dy, "lens")?);
                    let [child0, child1, child2, child3] = *children;
                    let rec = LensNodeRec {
                        kind: 0,
                        dx,
                        dy,
                        child0,
                        child1,
                        child2,
                        child3,
                        ..LensNodeRec::default()
                    };
                    rec.write_to(w.out(Section::LensNodes));
                }
                TreeNode::Leaf { fields } => {
                    if fields.iter().any(|&f| f as usize >= l.fields.len()) {
                        return fail(alloc::format!(
                            "lens `{}`: leaf names a missing field",
                            l.name
                        ));
                    }
                    let first = w.count(Section::LeafFields);
                    for &field in fields {
                        LeafFieldRec { field }.write_to(w.out(Section::LeafFields));
                    }
                    let rec = LensNodeRec {
                        kind: 1,
                        child0: first,
                        child1: fields.len() as u32,
                        ..LensNodeRec::default()
                    };
                    rec.write_to(w.out(Section::LensNodes));
                }
            }
        }
        let rec = LensRec {
            name,
            lens_type: l.lens_type,
            first_point: p0,
            point_count: l.endpoints.len() as u32,
            first_field: f0,
            field_count: l.fields.len() as u32,
            first_node: n0,
            node_count: l.tree.len() as u32,
        };
        rec.write_to(w.out(Section::Lenses));
    }
    for j in &spec.joseki {
        let name = w.s.id(&j.name);
        let off = w.sec[Section::Blobs.index()].len() as u32;
        w.out(Section::Blobs).extend_from_slice(&j.bytes);
        let rec = JosekiRec {
            name,
            offset: off,
            len: j.bytes.len() as u32,
            reserved: 0,
        };
        rec.write_to(w.out(Section::Joseki));
    }
    if let (true, Some(_d)) = (compact, &spec.debug) {
        #[cfg(feature = "builder")]
        super::compact::write::metadata(&mut w, spec, _d)?;
    } else if let Some(d) = &spec.debug {
        for f in &d.files {
            let name = w.s.id(f);
            DebugFileRec { name }.write_to(w.out(Section::DebugFiles));
        }
        let mut a0 = 0u32;
        for p in &d.patterns {
            if p.file as usize >= d.files.len() {
                return fail("debug record names a missing file");
            }
            let name = w.s.id(&p.name);
            for (k, v) in &p.attrs {
                let (key, value) = (w.s.id(k), w.s.id(v));
                DebugAttrRec { key, value }.write_to(w.out(Section::DebugAttrs));
            }
            let rec = DebugPatternRec {
                name,
                file: p.file,
                start: p.start.min(p.end),
                end: p.end,
                first_attr: a0,
                attr_count: p.attrs.len() as u32,
            };
            rec.write_to(w.out(Section::DebugPatterns));
            a0 += p.attrs.len() as u32;
        }
        let n = d.patterns.len() as u32;
        let ids_ok = w.sec[Section::Patterns.index()]
            .chunks_exact(PatternRec::LEN)
            .all(|r| PatternRec::read(r).id < n);
        if !ids_ok {
            return fail("a pattern id has no debug record");
        }
    }
    let strings = core::mem::take(&mut w.s);
    w.sec[Section::StrIndex.index()] = strings.index;
    w.sec[Section::StrData.index()] = strings.data;
    let sliced = opts.sliced_block_words != 0 && !compact;
    // The plain facts (format v5) come with the fast kernels' tables (the sliced section): an
    // image written without options keeps the v1 layout.
    if sliced {
        let (entries, facts) = super::facts::build(
            &w.sec[Section::Entries.index()],
            &w.sec[Section::Patterns.index()],
            &w.sec[Section::Results.index()],
        );
        w.sec[Section::Entries.index()] = entries;
        w.sec[Section::PatFacts.index()] = facts;
        w.sec[Section::Sliced.index()] =
            super::sliced::build(&slices, opts.sliced_block_words as usize);
    }
    let lut = luts.iter().any(Option::is_some);
    if lut {
        w.sec[Section::Lut.index()] = super::lut::build(&luts);
    }
    let mut flags = 0;
    if spec.debug.is_none() {
        flags |= FLAG_STRIPPED;
    }
    if compact {
        flags |= FLAG_COMPACT;
    }
    Ok(assemble(spec, &w.sec, flags, sliced, lut))
}

/// A class's field: odd sides of at most [`MAX_FIELD`], a focus set of 4 bits (both profiles).
pub(super) fn check_field(c: &ClassSpec) -> Result<(), WriteError> {
    let side = |v: u8| v % 2 == 1 && v as usize <= MAX_FIELD;
    if !side(c.width) || !side(c.height) {
        return fail(alloc::format!(
            "class `{}`: field size must be odd and at most {MAX_FIELD}",
            c.name
        ));
    }
    if c.focus > 15 {
        return fail("focus state set above 15");
    }
    Ok(())
}

/// The fast profile's classes: every stored orientation variant with its packed masks, the
/// class programs, and the inputs of the optional `sliced` and `lut` sections.
#[allow(clippy::type_complexity)]
fn fast_classes(
    w: &mut W,
    spec: &RomSpec,
    opts: &WriteOptions,
    slices: &mut Vec<Option<super::sliced::ClassMasks>>,
    luts: &mut Vec<Option<Vec<u32>>>,
) -> Result<(), WriteError> {
    let mut mask_cur = 0u32;
    for c in &spec.classes {
        check_field(c)?;
        let packed = c.width <= 7 && c.height <= 7 && max_extent(&c.nodes) <= layout::PACKED_RADIUS;
        let name = w.s.id(&c.name);
        let p0 = w.count(Section::Patterns);
        let mut b = ClassBuild {
            items: Vec::new(),
            entries: Vec::new(),
            packed,
        };
        b.nodes(w, &c.nodes, 0)?;
        let np = w.count(Section::Patterns) - p0;
        let i0 = w.count(Section::Items);
        let e0 = w.count(Section::Entries);
        for it in &b.items {
            let rebase = |x: u32| if it[0] == ITEM_END { 0 } else { x + e0 };
            let rec = ItemRec {
                kind: it[0],
                first: rebase(it[1]),
                end: rebase(it[2]),
                close: if it[0] == ITEM_GLOB { it[3] + i0 } else { 0 },
            };
            rec.write_to(w.out(Section::Items));
        }
        for &(p, o, cov, _) in &b.entries {
            let rec = EntryRec {
                pattern: p,
                orientation: o,
                covers: cov,
                // Filled in once every pattern and result is written (`facts::build`).
                plain: 0,
            };
            rec.write_to(w.out(Section::Entries));
        }
        let words = if packed {
            let mut n = 1;
            for e in &b.entries {
                for (k, &m) in e.3.iter().enumerate() {
                    if m != 0 {
                        n = n.max(k + 1);
                    }
                }
            }
            n
        } else {
            0
        };
        for k in 0..words {
            for e in &b.entries {
                MaskRec { bits: e.3[k] }.write_to(w.out(Section::Masks));
            }
        }
        if opts.sliced_block_words != 0 {
            slices.push(packed.then(|| (b.entries.iter().map(|e| e.3).collect(), words)));
        }
        if opts.lut_max_bytes != 0 {
            let word0: Vec<u64> = b.entries.iter().map(|e| e.3[0]).collect();
            let mut budget = opts.lut_max_bytes as usize;
            if opts.lut_max_bytes_per_variant != 0 {
                budget = budget.min(opts.lut_max_bytes_per_variant as usize * word0.len());
            }
            luts.push(if packed {
                super::lut::build_class(words, &word0, c.focus, budget)
            } else {
                None
            });
        }
        let rec = ClassRec {
            name,
            mode: mode_to_u8(c.mode),
            focus: c.focus,
            width: c.width,
            height: c.height,
            orient: orient_to_u8(c.orient),
            kernel: if packed { 0 } else { 1 },
            words: words as u8,
            has_default: c.default_value.is_some() as u8,
            default: c.default_value.unwrap_or(0),
            first_item: i0,
            item_count: b.items.len() as u32,
            first_entry: e0,
            entry_count: b.entries.len() as u32,
            mask_first: mask_cur,
            reserved: 0,
            first_pattern: p0,
            pattern_count: np,
        };
        rec.write_to(w.out(Section::Classes));
        mask_cur += (words * b.entries.len()) as u32;
    }
    Ok(())
}

fn align8(n: usize) -> usize {
    (n + 7) & !7
}

fn assemble(
    spec: &RomSpec,
    sec: &[Vec<u8>; SECTION_COUNT],
    flags: u32,
    sliced: bool,
    lut: bool,
) -> Vec<u8> {
    let present = |s: Section| match s.presence(flags) {
        Presence::Required => true,
        Presence::Optional if flags & FLAG_COMPACT != 0 => !sec[s.index()].is_empty(),
        Presence::Optional => {
            (s == Section::Sliced && sliced)
                || (s == Section::Lut && lut)
                || (s == Section::PatFacts && !sec[s.index()].is_empty())
        }
        Presence::Absent => false,
    };
    let kinds: Vec<Section> = Section::ALL
        .iter()
        .copied()
        .filter(|&s| present(s))
        .collect();
    let table_end = HEADER_LEN + kinds.len() * TABLE_ENTRY_LEN;
    let mut offs = Vec::new();
    let mut cur = align8(table_end);
    let version = super::sliced::write_version();
    for s in &kinds {
        if *s == Section::Sliced && version >= super::sliced::ALIGNED_SINCE {
            cur = cur.next_multiple_of(super::sliced::TABLE_ALIGN);
        }
        offs.push(cur);
        cur = align8(cur + sec[s.index()].len());
    }
    let total = cur;
    let mut out = Vec::with_capacity(total);
    let header = HeaderRec {
        magic: u64::from_le_bytes(MAGIC),
        byte_order: 0xFEFF,
        header_len: HEADER_LEN as u16,
        version,
        source_hash: spec.source_hash,
        section_count: kinds.len() as u32,
        flags,
        total_len: total as u64,
        checksum: 0, // patched below
        reserved: 0,
    };
    header.write_to(&mut out);
    for (s, &off) in kinds.iter().zip(&offs) {
        let data = &sec[s.index()];
        let entry = TableEntryRec {
            kind: *s as u32,
            offset: off as u32,
            len: data.len() as u32,
            checksum: fnv1a32(data),
        };
        entry.write_to(&mut out);
    }
    for (s, &off) in kinds.iter().zip(&offs) {
        out.resize(off, 0);
        out.extend_from_slice(&sec[s.index()]);
    }
    out.resize(total, 0);
    patch_header_checksum(&mut out[..table_end]);
    out
}

/// Writes the header checksum of `head` (the header and the section table) into it.
fn patch_header_checksum(head: &mut [u8]) {
    let sum = super::load::header_checksum(head);
    let at = header_at::checksum;
    head[at..at + 4].copy_from_slice(&sum.to_le_bytes());
}

/// Recompute every section checksum and the header checksum in place (for tests and tools that
/// patch images deliberately). Does nothing when the header or table is not readable.
pub fn fix_checksums(bytes: &mut [u8]) {
    if bytes.len() < HEADER_LEN {
        return;
    }
    let count = (HeaderRec::read(bytes).section_count as usize).min(SECTION_COUNT);
    let table_end = HEADER_LEN + count * TABLE_ENTRY_LEN;
    if table_end > bytes.len() {
        return;
    }
    for i in 0..count {
        let e = HEADER_LEN + i * TABLE_ENTRY_LEN;
        let entry = TableEntryRec::read(&bytes[e..]);
        let (off, len) = (entry.offset as usize, entry.len as usize);
        if let Some(data) = off.checked_add(len).and_then(|end| bytes.get(off..end)) {
            let sum = fnv1a32(data);
            let at = e + table_entry_at::checksum;
            bytes[at..at + 4].copy_from_slice(&sum.to_le_bytes());
        }
    }
    patch_header_checksum(&mut bytes[..table_end]);
}
