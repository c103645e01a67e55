//! `Rom::from_bytes`: validates the whole image in one pass over each table (O(size)) so that
//! every later read by the matcher is in range and every index points at what it claims to.
//! Ranges that partition a table (class -> items, entries, patterns, masks; tests -> bytecode;
//! sequences -> nodes; ...) must be contiguous and in order, which keeps validation linear.

use super::bytecode;
use super::records::*;
use super::wire::{Table, fnv1a32, fnv1a32_continue};
use super::*;

type R<T> = Result<T, LoadError>;

fn err(offset: usize, reason: LoadErrorKind) -> LoadError {
    LoadError { offset, reason }
}
fn bad(offset: usize, why: &'static str) -> LoadError {
    err(offset, LoadErrorKind::Malformed(why))
}

const fn align8(n: usize) -> usize {
    (n + 7) & !7
}

/// Offsets of cells and test points allowed in an image.
const MAX_OFFSET: i8 = super::MAX_OFFSET as i8;

impl<'a> Rom<'a> {
    /// Validate `bytes` and borrow them. O(size); never panics; every malformed, truncated,
    /// corrupted or future-version image gives a [`LoadError`] with the offending offset.
    /// A compact-profile image is refused ([`LoadErrorKind::CompactImage`]): read it with
    /// [`super::CompactRom`] and expand it for the matcher.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Rom<'a>, LoadError> {
        let rom = parse_and_validate(bytes)?;
        if rom.is_compact() {
            return Err(err(header_at::flags, LoadErrorKind::CompactImage));
        }
        Ok(rom)
    }
}

/// Header, section table and every record, for either profile.
pub(super) fn parse_and_validate(bytes: &[u8]) -> R<Rom<'_>> {
    let rom = parse_header(bytes)?;
    validate(&rom)?;
    Ok(rom)
}

/// The fields a fast class record and a compact class record share: mode, focus set, field
/// size and orientation policy (`at` = offset of the mode byte; the others follow it).
pub(super) fn check_class_shape(
    mode: u8,
    focus: u8,
    width: u8,
    height: u8,
    orient: u8,
    at: usize,
) -> R<()> {
    if mode > 2 {
        return Err(bad(at, "unknown class mode"));
    }
    if focus > 15 {
        return Err(bad(at + 1, "focus state set above 15"));
    }
    if width.is_multiple_of(2)
        || height.is_multiple_of(2)
        || width as usize > MAX_FIELD
        || height as usize > MAX_FIELD
    {
        return Err(bad(at + 2, "field size must be odd and at most 25"));
    }
    if orient > 2 {
        return Err(bad(at + 4, "unknown orientation policy"));
    }
    Ok(())
}

fn parse_header(bytes: &[u8]) -> R<Rom<'_>> {
    if bytes.len() < HEADER_LEN {
        // A short image is still judged on what it has, so a wrong magic reads as such.
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(err(
                0,
                if bytes.len() >= 8 {
                    LoadErrorKind::BadMagic
                } else {
                    LoadErrorKind::Truncated
                },
            ));
        }
        return Err(err(bytes.len(), LoadErrorKind::Truncated));
    }
    let h = HeaderRec::read(bytes);
    if bytes[..8] != MAGIC {
        return Err(err(header_at::magic, LoadErrorKind::BadMagic));
    }
    if h.byte_order != 0xFEFF {
        return Err(err(header_at::byte_order, LoadErrorKind::WrongEndianness));
    }
    if h.header_len as usize != HEADER_LEN {
        return Err(bad(header_at::header_len, "header length is not 48"));
    }
    let version = h.version;
    if !(MIN_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(err(
            header_at::version,
            LoadErrorKind::UnsupportedVersion(version),
        ));
    }
    let declared = h.total_len;
    if declared != bytes.len() as u64 {
        let reason = LoadErrorKind::LengthMismatch {
            declared,
            actual: bytes.len() as u64,
        };
        return Err(err(header_at::total_len, reason));
    }
    let count = h.section_count as usize;
    if count > max_section_kind(version) as usize {
        return Err(bad(
            header_at::section_count,
            "more sections than the image's format version defines",
        ));
    }
    let flags = h.flags;
    let known = if version >= 3 {
        FLAG_STRIPPED | FLAG_COMPACT
    } else {
        FLAG_STRIPPED
    };
    if flags & !known != 0 {
        return Err(bad(header_at::flags, "unknown header flags"));
    }
    if h.reserved != 0 {
        return Err(bad(
            header_at::reserved,
            "reserved header field is not zero",
        ));
    }
    let table_end = HEADER_LEN + count * TABLE_ENTRY_LEN;
    if table_end > bytes.len() {
        return Err(err(bytes.len(), LoadErrorKind::Truncated));
    }
    if header_checksum(&bytes[..table_end]) != h.checksum {
        return Err(err(header_at::checksum, LoadErrorKind::HeaderChecksum));
    }
    let stripped = flags & FLAG_STRIPPED != 0;
    let mut t = [Table::empty(1); SECTION_COUNT];
    for s in Section::ALL {
        t[s.index()] = Table::empty(s.record_len());
    }
    let mut present = [false; SECTION_COUNT];
    let mut cursor = align8(table_end);
    check_zero(bytes, table_end, cursor)?;
    let mut prev_kind = 0u32;
    for i in 0..count {
        let e = HEADER_LEN + i * TABLE_ENTRY_LEN;
        let entry = TableEntryRec::read(&bytes[e..]);
        let at = |f| e + f;
        let kind = entry.kind;
        let Some(sec) = Section::from_u32(kind) else {
            return Err(bad(at(table_entry_at::kind), "unknown section kind"));
        };
        if kind > max_section_kind(version) {
            return Err(bad(
                at(table_entry_at::kind),
                "section kind not defined in the image's format version",
            ));
        }
        if kind <= prev_kind {
            return Err(bad(
                at(table_entry_at::kind),
                "section kinds not strictly ascending",
            ));
        }
        prev_kind = kind;
        if sec.is_debug() && stripped {
            return Err(bad(
                at(table_entry_at::kind),
                "debug section in an image flagged as stripped",
            ));
        }
        if sec.presence(flags) == Presence::Absent {
            return Err(bad(
                at(table_entry_at::kind),
                "section does not belong in an image of this profile",
            ));
        }
        let off = entry.offset as usize;
        let len = entry.len as usize;
        // From format v6 the `sliced` tables start on a 64-byte line of the file.
        if sec == Section::Sliced && version >= super::sliced::ALIGNED_SINCE {
            let line = cursor.next_multiple_of(super::sliced::TABLE_ALIGN);
            if off != line {
                return Err(bad(
                    at(table_entry_at::offset),
                    "sliced section does not start at the next 64-byte boundary",
                ));
            }
            check_zero(bytes, cursor, line)?;
            cursor = line;
        }
        if !off.is_multiple_of(8) {
            return Err(bad(
                at(table_entry_at::offset),
                "section offset not 8-byte aligned",
            ));
        }
        if off != cursor {
            return Err(bad(
                at(table_entry_at::offset),
                "section does not start where the previous one ended (8-aligned)",
            ));
        }
        let end = off.checked_add(len).filter(|&end| end <= bytes.len());
        let Some(end) = end else {
            return Err(err(at(table_entry_at::len), LoadErrorKind::Truncated));
        };
        if !len.is_multiple_of(sec.record_len()) {
            return Err(bad(
                at(table_entry_at::len),
                "section length is not a whole number of records",
            ));
        }
        let data = &bytes[off..end];
        if fnv1a32(data) != entry.checksum {
            return Err(err(off, LoadErrorKind::SectionChecksum(sec)));
        }
        cursor = align8(end);
        if cursor > bytes.len() {
            return Err(err(bytes.len(), LoadErrorKind::Truncated));
        }
        check_zero(bytes, end, cursor)?;
        t[sec.index()] = Table {
            data,
            base: off,
            rec: sec.record_len(),
        };
        present[sec.index()] = true;
    }
    if cursor != bytes.len() {
        return Err(bad(cursor, "bytes after the last section"));
    }
    for s in Section::ALL {
        if !present[s.index()] && s.presence(flags) == Presence::Required {
            return Err(err(
                header_at::section_count,
                LoadErrorKind::MissingSection(s),
            ));
        }
    }
    Ok(Rom { bytes, t, stripped })
}

/// The header checksum over `head` (the header and the section table): FNV-1a 32 of every
/// byte but the checksum field itself.
pub(super) fn header_checksum(head: &[u8]) -> u32 {
    let (a, b) = (header_at::checksum, header_at::reserved);
    fnv1a32_continue(fnv1a32(&head[..a]), &head[b..])
}

fn check_zero(bytes: &[u8], from: usize, to: usize) -> R<()> {
    match bytes.get(from..to) {
        Some(pad) => match pad.iter().position(|&b| b != 0) {
            Some(p) => Err(bad(from + p, "padding is not zero")),
            None => Ok(()),
        },
        None => Err(err(bytes.len(), LoadErrorKind::Truncated)),
    }
}

/// Checks that `first..first+count` continues `*cursor` and advances it.
fn contiguous(cursor: &mut u32, first: u32, count: u32, limit: usize, at: usize) -> R<()> {
    if first != *cursor {
        return Err(bad(at, "range does not continue the previous one"));
    }
    let end = first
        .checked_add(count)
        .filter(|&e| e as usize <= limit)
        .ok_or_else(|| bad(at, "range out of bounds"))?;
    *cursor = end;
    Ok(())
}

fn in_range(first: u32, count: u32, limit: usize, at: usize) -> R<()> {
    match first.checked_add(count) {
        Some(e) if e as usize <= limit => Ok(()),
        _ => Err(bad(at, "range out of bounds")),
    }
}

fn finished(cursor: u32, limit: usize, at: usize) -> R<()> {
    if cursor as usize != limit {
        return Err(bad(at, "records not covered by any owner"));
    }
    Ok(())
}

fn string_ref(rom: &Rom<'_>, i: u32, at: usize) -> R<()> {
    if (i as usize) < rom.t(Section::StrIndex).len() {
        Ok(())
    } else {
        Err(bad(at, "string index out of range"))
    }
}

pub(super) fn point_ok(dx: i8, dy: i8) -> bool {
    (-MAX_OFFSET..=MAX_OFFSET).contains(&dx) && (-MAX_OFFSET..=MAX_OFFSET).contains(&dy)
}

fn validate(rom: &Rom<'_>) -> R<()> {
    // strings
    let idx = rom.t(Section::StrIndex);
    let data = rom.t(Section::StrData);
    let mut start = 0usize;
    for i in 0..idx.len() {
        let end = idx.rec::<StrIndexRec>(i).end as usize;
        if end < start || end > data.data.len() {
            return Err(bad(
                idx.at(i, str_index_at::end),
                "string end out of order or out of bounds",
            ));
        }
        if core::str::from_utf8(&data.data[start..end]).is_err() {
            return Err(bad(data.base + start, "string is not UTF-8"));
        }
        start = end;
    }
    if start != data.data.len() {
        return Err(bad(
            data.base + start,
            "string data not covered by the index",
        ));
    }
    // meta
    let meta = rom.t(Section::Meta);
    if meta.len() != 1 {
        return Err(bad(meta.base, "meta section must hold one record"));
    }
    let m: MetaRec = meta.rec(0);
    string_ref(rom, m.toolchain, meta.at(0, meta_at::toolchain))?;
    if m.reserved != 0 {
        return Err(bad(
            meta.at(0, meta_at::reserved),
            "reserved field is not zero",
        ));
    }
    let globals = rom.t(Section::Globals);
    for i in 0..globals.len() {
        let name = globals.rec::<GlobalRec>(i).name;
        string_ref(rom, name, globals.at(i, global_at::name))?;
    }
    let externs = rom.t(Section::Externs);
    for i in 0..externs.len() {
        let e: ExternRec = externs.rec(i);
        string_ref(rom, e.name, externs.at(i, extern_at::name))?;
        if e.arity as usize > bytecode::MAX_ARGS {
            return Err(bad(
                externs.at(i, extern_at::arity),
                "extern arity above 20",
            ));
        }
        if e.reserved_a != 0 || e.reserved_b != 0 {
            return Err(bad(
                externs.at(i, extern_at::reserved_a),
                "reserved field is not zero",
            ));
        }
    }
    validate_cells_tests_results(rom)?;
    // Lens fields index the fast tables, or the compact profile's lists.
    let (ntests, nres) = if rom.is_compact() {
        super::compact::validate_lists(rom)?
    } else {
        (rom.t(Section::Tests).len(), rom.t(Section::Results).len())
    };
    validate_classes(rom)?;
    validate_sequences(rom)?;
    validate_lenses(rom, ntests, nres)?;
    validate_joseki(rom)?;
    if !rom.stripped {
        validate_debug(rom)?;
    }
    super::sliced::validate(rom)?;
    super::facts::validate(rom)?;
    super::lut::validate(rom)?;
    if rom.is_compact() {
        super::compact::validate(rom, ntests as u32, nres as u32)?;
    }
    Ok(())
}

fn validate_cells_tests_results(rom: &Rom<'_>) -> R<()> {
    let cells = rom.t(Section::Cells);
    for i in 0..cells.len() {
        let c: CellRec = cells.rec(i);
        if !point_ok(c.dx, c.dy) {
            return Err(bad(cells.at(i, cell_at::dx), "cell offset out of range"));
        }
        if c.allowed > 15 {
            return Err(bad(
                cells.at(i, cell_at::allowed),
                "cell state set above 15",
            ));
        }
        if c.reserved != 0 {
            return Err(bad(
                cells.at(i, cell_at::reserved),
                "reserved field is not zero",
            ));
        }
    }
    let tests = rom.t(Section::Tests);
    let code = rom.t(Section::Bytecode);
    let globals = rom.global_count();
    let externs = *rom.t(Section::Externs);
    let arity =
        |i: u16| ((i as usize) < externs.len()).then(|| externs.rec::<ExternRec>(i as usize).arity);
    let mut cursor = 0u32;
    for i in 0..tests.len() {
        let t: TestRec = tests.rec(i);
        let (off, len) = (t.offset, t.len);
        contiguous(
            &mut cursor,
            off,
            len,
            code.data.len(),
            tests.at(i, test_at::offset),
        )?;
        let block = &code.data[off as usize..(off + len) as usize];
        if let Err((pc, why)) = bytecode::validate(block, globals, &arity) {
            return Err(bad(code.base + off as usize + pc, why));
        }
    }
    finished(cursor, code.data.len(), code.base)?;
    let results = rom.t(Section::Results);
    let nseq = rom.t(Section::Sequences).len();
    for i in 0..results.len() {
        let r: ResultRec = results.rec(i);
        if r.kind > 2 {
            return Err(bad(results.at(i, result_at::kind), "unknown result kind"));
        }
        if !point_ok(r.dx, r.dy) {
            return Err(bad(
                results.at(i, result_at::dx),
                "result point out of range",
            ));
        }
        if r.reserved != 0 {
            return Err(bad(
                results.at(i, result_at::reserved),
                "reserved field is not zero",
            ));
        }
        let seq = r.sequence;
        if seq != NONE && (r.kind != 0 || seq as usize >= nseq) {
            return Err(bad(
                results.at(i, result_at::sequence),
                "sequence index out of range",
            ));
        }
    }
    Ok(())
}

fn validate_classes(rom: &Rom<'_>) -> R<()> {
    let classes = rom.t(Section::Classes);
    let items = rom.t(Section::Items);
    let entries = rom.t(Section::Entries);
    let patterns = rom.t(Section::Patterns);
    let masks = rom.t(Section::Masks);
    let (mut item_cur, mut entry_cur, mut pat_cur, mut mask_cur) = (0u32, 0u32, 0u32, 0u32);
    for c in 0..classes.len() {
        let at = |f| classes.at(c, f);
        let k: ClassRec = classes.rec(c);
        string_ref(rom, k.name, at(class_at::name))?;
        let (w, h) = (k.width, k.height);
        check_class_shape(k.mode, k.focus, w, h, k.orient, at(class_at::mode))?;
        let words = k.words as u32;
        match k.kernel {
            0 if (1..=3).contains(&words) && w <= 7 && h <= 7 => {}
            1 if words == 0 => {}
            _ => return Err(bad(at(class_at::kernel), "bad kernel / mask word count")),
        }
        if k.has_default > 1 {
            return Err(bad(at(class_at::has_default), "bad default flag"));
        }
        if k.has_default == 0 && k.default != 0 {
            return Err(bad(
                at(class_at::default),
                "default value without default flag",
            ));
        }
        let (i0, ni) = (k.first_item, k.item_count);
        let (e0, ne) = (k.first_entry, k.entry_count);
        let (p0, np) = (k.first_pattern, k.pattern_count);
        contiguous(&mut item_cur, i0, ni, items.len(), at(class_at::first_item))?;
        contiguous(
            &mut entry_cur,
            e0,
            ne,
            entries.len(),
            at(class_at::first_entry),
        )?;
        contiguous(
            &mut pat_cur,
            p0,
            np,
            patterns.len(),
            at(class_at::first_pattern),
        )?;
        let nmask = ne
            .checked_mul(words)
            .ok_or_else(|| bad(at(class_at::entry_count), "mask count overflows"))?;
        contiguous(
            &mut mask_cur,
            k.mask_first,
            nmask,
            masks.len(),
            at(class_at::mask_first),
        )?;
        if k.reserved != 0 {
            return Err(bad(at(class_at::reserved), "reserved field is not zero"));
        }
        // entries
        for e in e0..e0 + ne {
            let e = e as usize;
            let r: EntryRec = entries.rec(e);
            if r.pattern < p0 || r.pattern >= p0 + np {
                return Err(bad(
                    entries.at(e, entry_at::pattern),
                    "entry's pattern is outside its class",
                ));
            }
            let (o, cov) = (r.orientation, r.covers);
            if o >= 8 || cov & (1 << o) == 0 {
                return Err(bad(
                    entries.at(e, entry_at::orientation),
                    "bad orientation or covers set",
                ));
            }
            // `plain` (reserved before v5): `facts::validate`, once patterns and results are.
        }
        // program
        let mut next = e0;
        let mut stack = [0u32; MAX_GLOB_DEPTH];
        let mut depth = 0usize;
        for i in i0..i0 + ni {
            let ii = i as usize;
            let ItemRec {
                kind,
                first: a,
                end: b,
                close: cl,
            } = items.rec(ii);
            match kind {
                ITEM_RUN | ITEM_GLOB => {
                    if a != next || b <= a || b > e0 + ne {
                        return Err(bad(
                            items.at(ii, item_at::first),
                            "item entries out of order or out of bounds",
                        ));
                    }
                    next = b;
                    if kind == ITEM_GLOB {
                        if depth == MAX_GLOB_DEPTH {
                            return Err(bad(
                                items.at(ii, item_at::kind),
                                "globs nested deeper than 16",
                            ));
                        }
                        if cl <= i || cl >= i0 + ni {
                            return Err(bad(items.at(ii, item_at::close), "glob end out of range"));
                        }
                        let pat = entries.rec::<EntryRec>(a as usize).pattern;
                        if (a..b).any(|e| entries.rec::<EntryRec>(e as usize).pattern != pat) {
                            return Err(bad(
                                items.at(ii, item_at::first),
                                "glob header entries of different patterns",
                            ));
                        }
                        stack[depth] = cl;
                        depth += 1;
                    } else if cl != 0 {
                        return Err(bad(
                            items.at(ii, item_at::close),
                            "reserved field is not zero",
                        ));
                    }
                }
                ITEM_END => {
                    if depth == 0 || stack[depth - 1] != i {
                        return Err(bad(
                            items.at(ii, item_at::kind),
                            "glob end does not close the open glob",
                        ));
                    }
                    depth -= 1;
                    if a | b | cl != 0 {
                        return Err(bad(
                            items.at(ii, item_at::first),
                            "reserved field is not zero",
                        ));
                    }
                }
                _ => return Err(bad(items.at(ii, item_at::kind), "unknown item kind")),
            }
        }
        if depth != 0 {
            return Err(bad(at(class_at::first_item), "unclosed glob"));
        }
        if next != e0 + ne {
            return Err(bad(
                at(class_at::first_entry),
                "class entries not covered by its program",
            ));
        }
    }
    finished(item_cur, items.len(), items.base)?;
    finished(entry_cur, entries.len(), entries.base)?;
    finished(pat_cur, patterns.len(), patterns.base)?;
    finished(mask_cur, masks.len(), masks.base)?;
    // patterns
    let ncells = rom.t(Section::Cells).len();
    let ntests = rom.t(Section::Tests).len();
    let nres = rom.t(Section::Results).len();
    let ndebug = if rom.stripped {
        usize::MAX
    } else {
        rom.t(Section::DebugPatterns).len()
    };
    for p in 0..patterns.len() {
        let r: PatternRec = patterns.rec(p);
        if r.id as usize >= ndebug {
            return Err(bad(
                patterns.at(p, pattern_at::id),
                "pattern id has no debug record",
            ));
        }
        let at = |f| patterns.at(p, f);
        in_range(
            r.first_cell,
            r.cell_count,
            ncells,
            at(pattern_at::first_cell),
        )?;
        in_range(
            r.first_test,
            r.test_count,
            ntests,
            at(pattern_at::first_test),
        )?;
        if r.result != NONE && r.result as usize >= nres {
            return Err(bad(at(pattern_at::result), "result index out of range"));
        }
        if r.reserved != 0 {
            return Err(bad(at(pattern_at::reserved), "reserved field is not zero"));
        }
    }
    Ok(())
}

fn validate_sequences(rom: &Rom<'_>) -> R<()> {
    let seqs = rom.t(Section::Sequences);
    let nodes = rom.t(Section::SeqNodes);
    let mut cur = 0u32;
    for s in 0..seqs.len() {
        let SequenceRec { first: f, count: n } = seqs.rec(s);
        contiguous(&mut cur, f, n, nodes.len(), seqs.at(s, sequence_at::first))?;
        let mut prev: i32 = -1;
        for k in f..f + n {
            let k = k as usize;
            let node: SeqNodeRec = nodes.rec(k);
            let d = node.depth as i32;
            if d > prev + 1 {
                return Err(bad(
                    nodes.at(k, seq_node_at::depth),
                    "sequence depth jumps by more than one",
                ));
            }
            prev = d;
            if node.flags > 1 || node.reserved_a != 0 || node.reserved_b != 0 {
                return Err(bad(
                    nodes.at(k, seq_node_at::flags),
                    "bad flags or reserved field",
                ));
            }
            if !point_ok(node.dx, node.dy) {
                return Err(bad(
                    nodes.at(k, seq_node_at::dx),
                    "sequence point out of range",
                ));
            }
        }
    }
    finished(cur, nodes.len(), nodes.base)
}

fn validate_lenses(rom: &Rom<'_>, ntests: usize, nres: usize) -> R<()> {
    let lenses = rom.t(Section::Lenses);
    let pts = rom.t(Section::LensPoints);
    let fields = rom.t(Section::LensFields);
    let nodes = rom.t(Section::LensNodes);
    let leaf = rom.t(Section::LeafFields);
    let (mut pc, mut fc, mut nc, mut lc) = (0u32, 0u32, 0u32, 0u32);
    let ncells = rom.t(Section::Cells).len();
    for l in 0..lenses.len() {
        let r: LensRec = lenses.rec(l);
        let at = |f| lenses.at(l, f);
        string_ref(rom, r.name, at(lens_at::name))?;
        let (p0, np) = (r.first_point, r.point_count);
        let (f0, nf) = (r.first_field, r.field_count);
        let (n0, nn) = (r.first_node, r.node_count);
        contiguous(&mut pc, p0, np, pts.len(), at(lens_at::first_point))?;
        contiguous(&mut fc, f0, nf, fields.len(), at(lens_at::first_field))?;
        contiguous(&mut nc, n0, nn, nodes.len(), at(lens_at::first_node))?;
        if np == 0 || np as usize > MAX_ENDPOINTS {
            return Err(bad(
                at(lens_at::point_count),
                "a lens needs 1 to 8 endpoints",
            ));
        }
        if nn == 0 {
            return Err(bad(at(lens_at::node_count), "a lens needs a decision tree"));
        }
        for k in p0..p0 + np {
            let k = k as usize;
            let p: LensPointRec = pts.rec(k);
            if !point_ok(p.dx, p.dy) || p.reserved != 0 {
                return Err(bad(pts.at(k, lens_point_at::dx), "bad endpoint"));
            }
        }
        let first: LensPointRec = pts.rec(p0 as usize);
        if first.dx != 0 || first.dy != 0 {
            return Err(bad(
                pts.at(p0 as usize, lens_point_at::dx),
                "first endpoint must be (0, 0)",
            ));
        }
        for f in f0..f0 + nf {
            let f = f as usize;
            let d: LensFieldRec = fields.rec(f);
            let at = |x| fields.at(f, x);
            in_range(
                d.first_cell,
                d.cell_count,
                ncells,
                at(lens_field_at::first_cell),
            )?;
            in_range(
                d.first_test,
                d.test_count,
                ntests,
                at(lens_field_at::first_test),
            )?;
            if d.result as usize >= nres {
                return Err(bad(at(lens_field_at::result), "result index out of range"));
            }
            if d.reserved != 0 {
                return Err(bad(
                    at(lens_field_at::reserved),
                    "reserved field is not zero",
                ));
            }
        }
        for n in 0..nn {
            let k = (n0 + n) as usize;
            let node: LensNodeRec = nodes.rec(k);
            let at = |x| nodes.at(k, x);
            let children = [node.child0, node.child1, node.child2, node.child3];
            match node.kind {
                0 => {
                    if !point_ok(node.dx, node.dy) {
                        return Err(bad(at(lens_node_at::dx), "branch point out of range"));
                    }
                    for (c, &ch) in children.iter().enumerate() {
                        if ch <= n || ch >= nn {
                            return Err(bad(
                                at(lens_node_at::child0 + 4 * c),
                                "child must follow its parent within the lens",
                            ));
                        }
                    }
                }
                1 => {
                    let (first, count) = (node.child0, node.child1);
                    contiguous(&mut lc, first, count, leaf.len(), at(lens_node_at::child0))?;
                    for q in first..first + count {
                        if leaf.rec::<LeafFieldRec>(q as usize).field >= nf {
                            return Err(bad(
                                leaf.at(q as usize, leaf_field_at::field),
                                "leaf field index out of range",
                            ));
                        }
                    }
                    if node.dx != 0 || node.dy != 0 || node.child2 | node.child3 != 0 {
                        return Err(bad(at(lens_node_at::dx), "reserved field is not zero"));
                    }
                }
                _ => return Err(bad(at(lens_node_at::kind), "unknown lens node kind")),
            }
            if node.reserved_a != 0 || node.reserved_b != 0 {
                return Err(bad(
                    at(lens_node_at::reserved_a),
                    "reserved field is not zero",
                ));
            }
        }
    }
    finished(pc, pts.len(), pts.base)?;
    finished(fc, fields.len(), fields.base)?;
    finished(nc, nodes.len(), nodes.base)?;
    finished(lc, leaf.len(), leaf.base)
}

fn validate_joseki(rom: &Rom<'_>) -> R<()> {
    let j = rom.t(Section::Joseki);
    let blobs = rom.t(Section::Blobs);
    let mut cur = 0u32;
    for i in 0..j.len() {
        let r: JosekiRec = j.rec(i);
        string_ref(rom, r.name, j.at(i, joseki_at::name))?;
        contiguous(
            &mut cur,
            r.offset,
            r.len,
            blobs.data.len(),
            j.at(i, joseki_at::offset),
        )?;
        if r.reserved != 0 {
            return Err(bad(
                j.at(i, joseki_at::reserved),
                "reserved field is not zero",
            ));
        }
    }
    finished(cur, blobs.data.len(), blobs.base)
}

fn validate_debug(rom: &Rom<'_>) -> R<()> {
    let files = rom.t(Section::DebugFiles);
    for i in 0..files.len() {
        let name = files.rec::<DebugFileRec>(i).name;
        string_ref(rom, name, files.at(i, debug_file_at::name))?;
    }
    let pats = rom.t(Section::DebugPatterns);
    let attrs = rom.t(Section::DebugAttrs);
    let mut cur = 0u32;
    for p in 0..pats.len() {
        let d: DebugPatternRec = pats.rec(p);
        let at = |f| pats.at(p, f);
        string_ref(rom, d.name, at(debug_pattern_at::name))?;
        if d.file as usize >= files.len() {
            return Err(bad(at(debug_pattern_at::file), "file index out of range"));
        }
        if d.start > d.end {
            return Err(bad(at(debug_pattern_at::start), "span start after end"));
        }
        contiguous(
            &mut cur,
            d.first_attr,
            d.attr_count,
            attrs.len(),
            at(debug_pattern_at::first_attr),
        )?;
    }
    finished(cur, attrs.len(), attrs.base)?;
    for a in 0..attrs.len() {
        let r: DebugAttrRec = attrs.rec(a);
        string_ref(rom, r.key, attrs.at(a, debug_attr_at::key))?;
        string_ref(rom, r.value, attrs.at(a, debug_attr_at::value))?;
    }
    Ok(())
}
