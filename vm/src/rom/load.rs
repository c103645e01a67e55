//! `Rom::from_bytes`: validates the whole image in one pass over each table (O(size)) so that
//! every later read by the matcher is in range and every index points at what it claims to.
//! Ranges that partition a table (class -> items, entries, patterns, masks; tests -> bytecode;
//! sequences -> nodes; ...) must be contiguous and in order, which keeps validation linear.

use super::bytecode;
use super::wire::{Table, fnv1a32, fnv1a32_continue, u16_at, u32_at, u64_at};
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
    /// [`CompactRom`](super::CompactRom) and expand it for the matcher.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Rom<'a>, LoadError> {
        let rom = parse_and_validate(bytes)?;
        if rom.is_compact() {
            return Err(err(28, LoadErrorKind::CompactImage));
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
    if width % 2 == 0
        || height % 2 == 0
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
    if bytes[..8] != MAGIC {
        return Err(err(0, LoadErrorKind::BadMagic));
    }
    if u16_at(bytes, 8) != 0xFEFF {
        return Err(err(8, LoadErrorKind::WrongEndianness));
    }
    if u16_at(bytes, 10) as usize != HEADER_LEN {
        return Err(bad(10, "header length is not 48"));
    }
    let version = u32_at(bytes, 12);
    if !(MIN_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(err(12, LoadErrorKind::UnsupportedVersion(version)));
    }
    let declared = u64_at(bytes, 32);
    if declared != bytes.len() as u64 {
        let reason = LoadErrorKind::LengthMismatch {
            declared,
            actual: bytes.len() as u64,
        };
        return Err(err(32, reason));
    }
    let count = u32_at(bytes, 24) as usize;
    if count > max_section_kind(version) as usize {
        return Err(bad(
            24,
            "more sections than the image's format version defines",
        ));
    }
    let flags = u32_at(bytes, 28);
    let known = if version >= 3 {
        FLAG_STRIPPED | FLAG_COMPACT
    } else {
        FLAG_STRIPPED
    };
    if flags & !known != 0 {
        return Err(bad(28, "unknown header flags"));
    }
    if u32_at(bytes, 44) != 0 {
        return Err(bad(44, "reserved header field is not zero"));
    }
    let table_end = HEADER_LEN + count * TABLE_ENTRY_LEN;
    if table_end > bytes.len() {
        return Err(err(bytes.len(), LoadErrorKind::Truncated));
    }
    let sum = fnv1a32_continue(fnv1a32(&bytes[..40]), &bytes[44..table_end]);
    if sum != u32_at(bytes, 40) {
        return Err(err(40, LoadErrorKind::HeaderChecksum));
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
        let kind = u32_at(bytes, e);
        let Some(sec) = Section::from_u32(kind) else {
            return Err(bad(e, "unknown section kind"));
        };
        if kind > max_section_kind(version) {
            return Err(bad(
                e,
                "section kind not defined in the image's format version",
            ));
        }
        if kind <= prev_kind {
            return Err(bad(e, "section kinds not strictly ascending"));
        }
        prev_kind = kind;
        if sec.is_debug() && stripped {
            return Err(bad(e, "debug section in an image flagged as stripped"));
        }
        if sec.presence(flags) == Presence::Absent {
            return Err(bad(
                e,
                "section does not belong in an image of this profile",
            ));
        }
        let off = u32_at(bytes, e + 4) as usize;
        let len = u32_at(bytes, e + 8) as usize;
        if off % 8 != 0 {
            return Err(bad(e + 4, "section offset not 8-byte aligned"));
        }
        if off != cursor {
            return Err(bad(
                e + 4,
                "section does not start where the previous one ended (8-aligned)",
            ));
        }
        let end = off.checked_add(len).filter(|&end| end <= bytes.len());
        let Some(end) = end else {
            return Err(err(e + 8, LoadErrorKind::Truncated));
        };
        if len % sec.record_len() != 0 {
            return Err(bad(
                e + 8,
                "section length is not a whole number of records",
            ));
        }
        let data = &bytes[off..end];
        if fnv1a32(data) != u32_at(bytes, e + 12) {
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
            return Err(err(24, LoadErrorKind::MissingSection(s)));
        }
    }
    Ok(Rom { bytes, t, stripped })
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
        let end = idx.u32(i, 0) as usize;
        if end < start || end > data.data.len() {
            return Err(bad(
                idx.at(i, 0),
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
    string_ref(rom, meta.u32(0, 0), meta.at(0, 0))?;
    if meta.u32(0, 4) != 0 {
        return Err(bad(meta.at(0, 4), "reserved field is not zero"));
    }
    let globals = rom.t(Section::Globals);
    for i in 0..globals.len() {
        string_ref(rom, globals.u32(i, 0), globals.at(i, 0))?;
    }
    let externs = rom.t(Section::Externs);
    for i in 0..externs.len() {
        string_ref(rom, externs.u32(i, 0), externs.at(i, 0))?;
        if externs.u8(i, 4) as usize > bytecode::MAX_ARGS {
            return Err(bad(externs.at(i, 4), "extern arity above 20"));
        }
        if externs.u8(i, 5) | externs.u8(i, 6) | externs.u8(i, 7) != 0 {
            return Err(bad(externs.at(i, 5), "reserved field is not zero"));
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
    super::lut::validate(rom)?;
    if rom.is_compact() {
        super::compact::validate(rom, ntests as u32, nres as u32)?;
    }
    Ok(())
}

fn validate_cells_tests_results(rom: &Rom<'_>) -> R<()> {
    let cells = rom.t(Section::Cells);
    for i in 0..cells.len() {
        if !point_ok(cells.i8(i, 0), cells.i8(i, 1)) {
            return Err(bad(cells.at(i, 0), "cell offset out of range"));
        }
        if cells.u8(i, 2) > 15 {
            return Err(bad(cells.at(i, 2), "cell state set above 15"));
        }
        if cells.u8(i, 3) != 0 {
            return Err(bad(cells.at(i, 3), "reserved field is not zero"));
        }
    }
    let tests = rom.t(Section::Tests);
    let code = rom.t(Section::Bytecode);
    let globals = rom.global_count();
    let externs = *rom.t(Section::Externs);
    let arity = |i: u16| ((i as usize) < externs.len()).then(|| externs.u8(i as usize, 4));
    let mut cursor = 0u32;
    for i in 0..tests.len() {
        let (off, len) = (tests.u32(i, 0), tests.u32(i, 4));
        contiguous(&mut cursor, off, len, code.data.len(), tests.at(i, 0))?;
        let block = &code.data[off as usize..(off + len) as usize];
        if let Err((pc, why)) = bytecode::validate(block, globals, &arity) {
            return Err(bad(code.base + off as usize + pc, why));
        }
    }
    finished(cursor, code.data.len(), code.base)?;
    let results = rom.t(Section::Results);
    let nseq = rom.t(Section::Sequences).len();
    for i in 0..results.len() {
        let kind = results.u8(i, 0);
        if kind > 2 {
            return Err(bad(results.at(i, 0), "unknown result kind"));
        }
        if !point_ok(results.i8(i, 1), results.i8(i, 2)) {
            return Err(bad(results.at(i, 1), "result point out of range"));
        }
        if results.u8(i, 3) != 0 {
            return Err(bad(results.at(i, 3), "reserved field is not zero"));
        }
        let seq = results.u32(i, 12);
        if seq != NONE && (kind != 0 || seq as usize >= nseq) {
            return Err(bad(results.at(i, 12), "sequence index out of range"));
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
        string_ref(rom, classes.u32(c, 0), at(0))?;
        let (w, h) = (classes.u8(c, 6), classes.u8(c, 7));
        check_class_shape(
            classes.u8(c, 4),
            classes.u8(c, 5),
            w,
            h,
            classes.u8(c, 8),
            at(4),
        )?;
        let kernel = classes.u8(c, 9);
        let words = classes.u8(c, 10) as u32;
        match kernel {
            0 if (1..=3).contains(&words) && w <= 7 && h <= 7 => {}
            1 if words == 0 => {}
            _ => return Err(bad(at(9), "bad kernel / mask word count")),
        }
        if classes.u8(c, 11) > 1 {
            return Err(bad(at(11), "bad default flag"));
        }
        if classes.u8(c, 11) == 0 && classes.i32(c, 12) != 0 {
            return Err(bad(at(12), "default value without default flag"));
        }
        let (i0, ni) = (classes.u32(c, 16), classes.u32(c, 20));
        let (e0, ne) = (classes.u32(c, 24), classes.u32(c, 28));
        let (p0, np) = (classes.u32(c, 40), classes.u32(c, 44));
        contiguous(&mut item_cur, i0, ni, items.len(), at(16))?;
        contiguous(&mut entry_cur, e0, ne, entries.len(), at(24))?;
        contiguous(&mut pat_cur, p0, np, patterns.len(), at(40))?;
        let nmask = ne
            .checked_mul(words)
            .ok_or_else(|| bad(at(28), "mask count overflows"))?;
        contiguous(
            &mut mask_cur,
            classes.u32(c, 32),
            nmask,
            masks.len(),
            at(32),
        )?;
        if classes.u32(c, 36) != 0 {
            return Err(bad(at(36), "reserved field is not zero"));
        }
        // entries
        for e in e0..e0 + ne {
            let e = e as usize;
            let p = entries.u32(e, 0);
            if p < p0 || p >= p0 + np {
                return Err(bad(
                    entries.at(e, 0),
                    "entry's pattern is outside its class",
                ));
            }
            let (o, cov) = (entries.u8(e, 4), entries.u8(e, 5));
            if o >= 8 || cov & (1 << o) == 0 {
                return Err(bad(entries.at(e, 4), "bad orientation or covers set"));
            }
            if entries.u16(e, 6) != 0 {
                return Err(bad(entries.at(e, 6), "reserved field is not zero"));
            }
        }
        // program
        let mut next = e0;
        let mut stack = [0u32; MAX_GLOB_DEPTH];
        let mut depth = 0usize;
        for i in i0..i0 + ni {
            let ii = i as usize;
            let (kind, a, b, cl) = (
                items.u32(ii, 0),
                items.u32(ii, 4),
                items.u32(ii, 8),
                items.u32(ii, 12),
            );
            match kind {
                ITEM_RUN | ITEM_GLOB => {
                    if a != next || b <= a || b > e0 + ne {
                        return Err(bad(
                            items.at(ii, 4),
                            "item entries out of order or out of bounds",
                        ));
                    }
                    next = b;
                    if kind == ITEM_GLOB {
                        if depth == MAX_GLOB_DEPTH {
                            return Err(bad(items.at(ii, 0), "globs nested deeper than 16"));
                        }
                        if cl <= i || cl >= i0 + ni {
                            return Err(bad(items.at(ii, 12), "glob end out of range"));
                        }
                        let pat = entries.u32(a as usize, 0);
                        if (a..b).any(|e| entries.u32(e as usize, 0) != pat) {
                            return Err(bad(
                                items.at(ii, 4),
                                "glob header entries of different patterns",
                            ));
                        }
                        stack[depth] = cl;
                        depth += 1;
                    } else if cl != 0 {
                        return Err(bad(items.at(ii, 12), "reserved field is not zero"));
                    }
                }
                ITEM_END => {
                    if depth == 0 || stack[depth - 1] != i {
                        return Err(bad(
                            items.at(ii, 0),
                            "glob end does not close the open glob",
                        ));
                    }
                    depth -= 1;
                    if a | b | cl != 0 {
                        return Err(bad(items.at(ii, 4), "reserved field is not zero"));
                    }
                }
                _ => return Err(bad(items.at(ii, 0), "unknown item kind")),
            }
        }
        if depth != 0 {
            return Err(bad(at(16), "unclosed glob"));
        }
        if next != e0 + ne {
            return Err(bad(at(24), "class entries not covered by its program"));
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
        if patterns.u32(p, 0) as usize >= ndebug {
            return Err(bad(patterns.at(p, 0), "pattern id has no debug record"));
        }
        in_range(
            patterns.u32(p, 8),
            patterns.u32(p, 12),
            ncells,
            patterns.at(p, 8),
        )?;
        in_range(
            patterns.u32(p, 16),
            patterns.u32(p, 20),
            ntests,
            patterns.at(p, 16),
        )?;
        let r = patterns.u32(p, 24);
        if r != NONE && r as usize >= nres {
            return Err(bad(patterns.at(p, 24), "result index out of range"));
        }
        if patterns.u32(p, 28) != 0 {
            return Err(bad(patterns.at(p, 28), "reserved field is not zero"));
        }
    }
    Ok(())
}

fn validate_sequences(rom: &Rom<'_>) -> R<()> {
    let seqs = rom.t(Section::Sequences);
    let nodes = rom.t(Section::SeqNodes);
    let mut cur = 0u32;
    for s in 0..seqs.len() {
        let (f, n) = (seqs.u32(s, 0), seqs.u32(s, 4));
        contiguous(&mut cur, f, n, nodes.len(), seqs.at(s, 0))?;
        let mut prev: i32 = -1;
        for k in f..f + n {
            let k = k as usize;
            let d = nodes.u16(k, 4) as i32;
            if d > prev + 1 {
                return Err(bad(nodes.at(k, 4), "sequence depth jumps by more than one"));
            }
            prev = d;
            if nodes.u8(k, 2) > 1 || nodes.u8(k, 3) != 0 || nodes.u16(k, 6) != 0 {
                return Err(bad(nodes.at(k, 2), "bad flags or reserved field"));
            }
            if !point_ok(nodes.i8(k, 0), nodes.i8(k, 1)) {
                return Err(bad(nodes.at(k, 0), "sequence point out of range"));
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
        string_ref(rom, lenses.u32(l, 0), lenses.at(l, 0))?;
        let (p0, np) = (lenses.u32(l, 8), lenses.u32(l, 12));
        let (f0, nf) = (lenses.u32(l, 16), lenses.u32(l, 20));
        let (n0, nn) = (lenses.u32(l, 24), lenses.u32(l, 28));
        contiguous(&mut pc, p0, np, pts.len(), lenses.at(l, 8))?;
        contiguous(&mut fc, f0, nf, fields.len(), lenses.at(l, 16))?;
        contiguous(&mut nc, n0, nn, nodes.len(), lenses.at(l, 24))?;
        if np == 0 || np as usize > MAX_ENDPOINTS {
            return Err(bad(lenses.at(l, 12), "a lens needs 1 to 8 endpoints"));
        }
        if nn == 0 {
            return Err(bad(lenses.at(l, 28), "a lens needs a decision tree"));
        }
        for k in p0..p0 + np {
            let k = k as usize;
            if !point_ok(pts.i8(k, 0), pts.i8(k, 1)) || pts.u16(k, 2) != 0 {
                return Err(bad(pts.at(k, 0), "bad endpoint"));
            }
        }
        if pts.i8(p0 as usize, 0) != 0 || pts.i8(p0 as usize, 1) != 0 {
            return Err(bad(pts.at(p0 as usize, 0), "first endpoint must be (0, 0)"));
        }
        for f in f0..f0 + nf {
            let f = f as usize;
            in_range(fields.u32(f, 0), fields.u32(f, 4), ncells, fields.at(f, 0))?;
            in_range(fields.u32(f, 8), fields.u32(f, 12), ntests, fields.at(f, 8))?;
            if fields.u32(f, 16) as usize >= nres {
                return Err(bad(fields.at(f, 16), "result index out of range"));
            }
            if fields.u32(f, 20) != 0 {
                return Err(bad(fields.at(f, 20), "reserved field is not zero"));
            }
        }
        for n in 0..nn {
            let k = (n0 + n) as usize;
            match nodes.u8(k, 0) {
                0 => {
                    if !point_ok(nodes.i8(k, 1), nodes.i8(k, 2)) {
                        return Err(bad(nodes.at(k, 1), "branch point out of range"));
                    }
                    for c in 0..4 {
                        let ch = nodes.u32(k, 4 + 4 * c);
                        if ch <= n || ch >= nn {
                            return Err(bad(
                                nodes.at(k, 4 + 4 * c),
                                "child must follow its parent within the lens",
                            ));
                        }
                    }
                }
                1 => {
                    let (first, count) = (nodes.u32(k, 4), nodes.u32(k, 8));
                    contiguous(&mut lc, first, count, leaf.len(), nodes.at(k, 4))?;
                    for q in first..first + count {
                        if leaf.u32(q as usize, 0) >= nf {
                            return Err(bad(
                                leaf.at(q as usize, 0),
                                "leaf field index out of range",
                            ));
                        }
                    }
                    if nodes.u8(k, 1) | nodes.u8(k, 2) != 0
                        || nodes.u32(k, 12) | nodes.u32(k, 16) != 0
                    {
                        return Err(bad(nodes.at(k, 1), "reserved field is not zero"));
                    }
                }
                _ => return Err(bad(nodes.at(k, 0), "unknown lens node kind")),
            }
            if nodes.u8(k, 3) != 0 || nodes.u32(k, 20) != 0 {
                return Err(bad(nodes.at(k, 3), "reserved field is not zero"));
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
        string_ref(rom, j.u32(i, 0), j.at(i, 0))?;
        contiguous(
            &mut cur,
            j.u32(i, 4),
            j.u32(i, 8),
            blobs.data.len(),
            j.at(i, 4),
        )?;
        if j.u32(i, 12) != 0 {
            return Err(bad(j.at(i, 12), "reserved field is not zero"));
        }
    }
    finished(cur, blobs.data.len(), blobs.base)
}

fn validate_debug(rom: &Rom<'_>) -> R<()> {
    let files = rom.t(Section::DebugFiles);
    for i in 0..files.len() {
        string_ref(rom, files.u32(i, 0), files.at(i, 0))?;
    }
    let pats = rom.t(Section::DebugPatterns);
    let attrs = rom.t(Section::DebugAttrs);
    let mut cur = 0u32;
    for p in 0..pats.len() {
        string_ref(rom, pats.u32(p, 0), pats.at(p, 0))?;
        if pats.u32(p, 4) as usize >= files.len() {
            return Err(bad(pats.at(p, 4), "file index out of range"));
        }
        if pats.u32(p, 8) > pats.u32(p, 12) {
            return Err(bad(pats.at(p, 8), "span start after end"));
        }
        contiguous(
            &mut cur,
            pats.u32(p, 16),
            pats.u32(p, 20),
            attrs.len(),
            pats.at(p, 16),
        )?;
    }
    finished(cur, attrs.len(), attrs.base)?;
    for a in 0..attrs.len() {
        string_ref(rom, attrs.u32(a, 0), attrs.at(a, 0))?;
        string_ref(rom, attrs.u32(a, 4), attrs.at(a, 4))?;
    }
    Ok(())
}
