//! Fotland's format, as reconstructed for the reference figures (docs/joseki.md).
//!
//! ```text
//! table   62 point bytes ((x-1)<<4 | (y-1)), most frequent first (padded with unused points);
//!         from version 3 the byte 0xFF in the table is the pass (tenuki), so (16, 16) is
//!         never a table point (it is escaped)
//! entry   byte0 = has_sibling:1 | has_child:1 | code:6
//!         code 0..=61  table point (or the pass)
//!         code 63      escape: next byte = (x-1)<<4 | (y-1), x, y in 1..=16
//!         code 62      extended: E = type:3 | colour-exception:1 | symmetric:1 | pointer:1 |
//!                      far:1 | long-pointer:1, then the point (1 byte, or 2 if far), then the
//!                      pointer (2 bytes, 3 if long; backward from the entry's first byte)
//! far     x byte = reverse:1 | setup:1 | x:6 (0 = pass), y byte; a setup edge (x = 0, y = 0,
//!         setup bit) is followed by a LEB128 count and 2 bytes per stone (colour:2 | x:6, y)
//! ```
//! The pass is a table "point" when it is common enough (the reference reconstruction: "a 2-byte
//! coordinate for moves with x or y > 16 and for passes not in the table"): GNU Go's files record
//! tenuki as `tt` often enough for it to rank among the 62. Versions 1 and 2 had no pass in the
//! table and still decode (their 0xFF table byte is the point (16, 16)).
//! Our additions to Fotland's 1993 layout (none of them change a 1-byte entry): the far form for
//! x or y > 16 and passes not in the table, relative pointers with a 3-byte long form, and the
//! two far-form bits for colour-reverse and setup stones (his format had no place for either).

use super::{
    DecodeError, Encoding, Layout, PEntry, RawEntry, err, from_small, layout, read_far,
    read_varint, small_point, varint_len, write_stones, write_varint,
};
use crate::model::{MoveType, Point, Step};

const TABLE: usize = 62;
const EXT: u8 = 62;
const ESC: u8 = 63;
/// The table byte of the pass (version 3 on; the point (16, 16) is escaped instead).
const PASS: u8 = 0xFF;
/// The first blob version whose table may hold the pass.
pub(crate) const VERSION_PASS_IN_TABLE: u8 = 3;

pub(crate) fn header(bytes: &[u8], pos: usize, tree_moves: u64) -> Result<Layout<'_>, DecodeError> {
    let end = pos + TABLE;
    if end > bytes.len() {
        return err(pos, "truncated table");
    }
    let table = &bytes[pos..end];
    Ok(Layout {
        huff: None,
        bytes,
        enc: Encoding::Fotland,
        table,
        code_point: [0; 256],
        code_class: [0xFF; 256],
        code_ext: [0xFF; 256],
        code_second: [0; 256],
        root: end,
        tree_moves,
    })
}

/// The byte a plain entry's point would have in the table: a 4+4-bit point, or the pass.
fn table_byte(p: Point) -> Option<u8> {
    match p {
        Point::Pass => Some(PASS),
        _ => small_point(p).filter(|&b| b != PASS),
    }
}

/// A plain (not extended) entry: its table code, or the escape byte that carries its point.
fn plain_code(point: Point, table: &[u8]) -> Result<u8, u8> {
    let b = small_point(point);
    match table_byte(point).and_then(|t| table.iter().position(|&x| x == t)) {
        Some(k) => Ok(k as u8),
        None => Err(b.expect("a plain entry's point is a table pass or a small point")),
    }
}

/// The extended entry's point needs the 2-byte far form (a pass always does: the 1-byte point
/// form has no pass).
fn far_needed(p: &PEntry<'_>) -> bool {
    match &p.edge.step {
        Step::Setup(_) => true,
        Step::Move(m) => m.colour_reverse || small_point(m.point).is_none(),
    }
}

/// Needs the extension byte for a reason other than a pass missing from the table.
fn flagged(p: &PEntry<'_>) -> bool {
    match &p.edge.step {
        Step::Setup(_) => true,
        Step::Move(m) => {
            m.kind != MoveType::Normal
                || p.colour_exception()
                || m.symmetric
                || p.ptr_target.is_some()
                || m.colour_reverse
                || (m.point != Point::Pass && small_point(m.point).is_none())
        }
    }
}

/// Needs the extension byte: flagged, or a plain pass that is not in the table.
fn ext_needed(p: &PEntry<'_>, table: &[u8]) -> bool {
    flagged(p)
        || (p.edge.step.as_move().map(|m| m.point) == Some(Point::Pass) && !table.contains(&PASS))
}

fn fixed_size(p: &PEntry<'_>, table: &[u8]) -> usize {
    if !ext_needed(p, table) {
        let point = p.edge.step.as_move().expect("moves only").point;
        return if plain_code(point, table).is_ok() {
            1
        } else {
            2
        };
    }
    let mut n = 2 + if far_needed(p) { 2 } else { 1 };
    if let Step::Setup(s) = &p.edge.step {
        n += varint_len(s.len() as u64) + 2 * s.len();
    }
    n
}

pub(crate) fn encode(plan: &[PEntry<'_>], out: &mut Vec<u8>) {
    // The 62 points that save most among entries that would be 1 byte with a table hit.
    // Rank only the entries that can use the table (extended entries carry their point). A
    // point missing from the table costs 1 byte more (escape), a plain pass 3 (extended, far).
    let plain: Vec<&PEntry> = plan.iter().filter(|p| !flagged(p)).collect();
    let mut counts: std::collections::BTreeMap<u8, u32> = Default::default();
    for p in plain {
        if let Some(b) = p.edge.step.as_move().and_then(|m| table_byte(m.point)) {
            *counts.entry(b).or_default() += if b == PASS { 3 } else { 1 };
        }
    }
    let mut ranked: Vec<(u8, u32)> = counts.into_iter().collect();
    ranked.sort_by_key(|(b, c)| (std::cmp::Reverse(*c), *b));
    let mut table: Vec<u8> = ranked.iter().take(TABLE).map(|(b, _)| *b).collect();
    // Fotland's table always has 62 entries; pad with unused points.
    let mut filler = 0u8..=255;
    while table.len() < TABLE {
        let b = filler
            .find(|b| !table.contains(b))
            .expect("256 points > 62");
        table.push(b);
    }
    out.extend_from_slice(&table);
    let fixed: Vec<usize> = plan.iter().map(|p| fixed_size(p, &table)).collect();
    let no_skip = vec![false; plan.len()];
    let (pos, w) = layout(
        plan,
        &fixed,
        &no_skip,
        |v| if v < 1 << 16 { 2 } else { 3 },
        |_| 0,
    );
    let base = out.len();
    for (i, p) in plan.iter().enumerate() {
        debug_assert_eq!(out.len() - base, pos[i]);
        let head = (p.has_sibling as u8) << 7 | (p.has_child as u8) << 6;
        if !ext_needed(p, &table) {
            match plain_code(p.edge.step.as_move().expect("moves only").point, &table) {
                Ok(k) => out.push(head | k),
                Err(b) => out.extend_from_slice(&[head | ESC, b]),
            }
            continue;
        }
        out.push(head | EXT);
        let far = far_needed(p);
        let long = w[i].ptr == 3;
        let (kind, sym, reverse) = match &p.edge.step {
            Step::Move(m) => (m.kind, m.symmetric, m.colour_reverse),
            Step::Setup(_) => (MoveType::Normal, false, false),
        };
        out.push(
            kind.bits() << 5
                | (p.colour_exception() as u8) << 4
                | (sym as u8) << 3
                | (p.ptr_target.is_some() as u8) << 2
                | (far as u8) << 1
                | long as u8,
        );
        match &p.edge.step {
            Step::Setup(stones) => {
                out.extend_from_slice(&[0x40, 0]);
                write_varint(out, stones.len() as u64, varint_len(stones.len() as u64));
                write_stones(out, stones);
            }
            Step::Move(m) => match (far, m.point) {
                (false, pt) => out.push(small_point(pt).expect("small")),
                (true, Point::Pass) => out.extend_from_slice(&[(reverse as u8) << 7, 0]),
                (true, Point::At { x, y }) => out.extend_from_slice(&[(reverse as u8) << 7 | x, y]),
            },
        }
        if let Some(t) = p.ptr_target {
            let v = (pos[i] - pos[t]) as u32;
            if long {
                out.extend_from_slice(&v.to_be_bytes()[1..]);
            } else {
                out.extend_from_slice(&(v as u16).to_be_bytes());
            }
        }
    }
}

#[inline]
pub(crate) fn read(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
    let b = l.bytes;
    let Some(&b0) = b.get(pos) else {
        return err(pos, "truncated entry");
    };
    let mut e = RawEntry {
        start: pos,
        point: Point::Pass,
        colour_exception: false,
        kind: MoveType::Normal,
        symmetric: false,
        reverse: false,
        setup: None,
        has_sibling: b0 & 0x80 != 0,
        has_child: b0 & 0x40 != 0,
        ptr: None,
        skip: None,
        end: pos + 1,
    };
    let code = b0 & 0x3f;
    if code < EXT {
        let Some(&t) = l.table.get(code as usize) else {
            return err(pos, "code beyond the table");
        };
        e.point = if t == PASS && b[2] >= VERSION_PASS_IN_TABLE {
            Point::Pass
        } else {
            from_small(t)
        };
        return Ok(e);
    }
    if code == ESC {
        let Some(&p) = b.get(pos + 1) else {
            return err(pos, "truncated escape");
        };
        e.point = from_small(p);
        e.end = pos + 2;
        return Ok(e);
    }
    let Some(&x) = b.get(pos + 1) else {
        return err(pos, "truncated extension byte");
    };
    e.kind = MoveType::from_bits(x >> 5);
    e.colour_exception = x & 0x10 != 0;
    e.symmetric = x & 0x08 != 0;
    let has_ptr = x & 0x04 != 0;
    let far = x & 0x02 != 0;
    let long = x & 0x01 != 0;
    let mut p = pos + 2;
    if far {
        let (pt, bits) = read_far(b, p)?;
        p += 2;
        e.reverse = bits & 2 != 0;
        if bits & 1 != 0 {
            if pt != Point::Pass || e.reverse || e.kind != MoveType::Normal || e.colour_exception {
                return err(pos, "malformed setup entry");
            }
            let (n, q) = read_varint(b, p)?;
            let n = n as usize;
            if n > 25 * 25 || q + 2 * n > b.len() {
                return err(p, "bad setup stone count");
            }
            e.setup = Some((q, n));
            p = q + 2 * n;
        } else {
            e.point = pt;
        }
    } else {
        let Some(&pt) = b.get(p) else {
            return err(p, "truncated point");
        };
        e.point = from_small(pt);
        p += 1;
    }
    if has_ptr {
        if !e.has_child {
            return err(pos, "pointer on an entry without children");
        }
        let width = if long { 3 } else { 2 };
        if p + width > b.len() {
            return err(p, "truncated pointer");
        }
        let mut v = 0usize;
        for k in 0..width {
            v = v << 8 | b[p + k] as usize;
        }
        if v == 0 || v > pos {
            return err(p, "pointer outside the blob");
        }
        e.ptr = Some(pos - v);
        p += width;
    } else if long {
        return err(pos, "long-pointer bit without a pointer");
    }
    e.end = p;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use crate::codec::{decode, encode};
    use crate::model::{Move, Point, Rel, Step, Tree};
    use crate::{Encoding, stats};

    fn line(points: &[Point]) -> Vec<Move> {
        let mut c = Rel::Opposite;
        points
            .iter()
            .map(|&p| {
                c = c.flip();
                Move::new(p, c)
            })
            .collect()
    }

    #[test]
    fn the_pass_is_table_byte_0xff_from_version_3_and_the_point_16_16_is_escaped() {
        let mut t = Tree::with_options(19, false);
        let (pass, far_corner) = (Point::Pass, Point::at(16, 16));
        for k in [1, 2, 5, 6, 7] {
            t.add_line(&line(&[Point::at(4, 4), Point::at(3, k), pass, far_corner]));
        }
        t.canonicalize();
        let blob = encode(&t, Encoding::Fotland);
        assert_eq!(blob[2], super::VERSION_PASS_IN_TABLE);
        assert_eq!(decode(&blob).unwrap(), t);
        let c = stats::entry_classes(&blob).unwrap();
        assert_eq!(c.get("table hit: pass").unwrap().entries, 5);
        assert_eq!(
            c.get("escape").unwrap().entries,
            5,
            "(16, 16) never uses the table"
        );

        // A version 2 blob had no pass in its table: the same bytes read 0xFF as (16, 16).
        let mut old = blob.clone();
        old[2] = 2;
        let d = decode(&old).unwrap();
        let points: Vec<Point> = d
            .vertices()
            .iter()
            .flat_map(|v| &v.edges)
            .filter_map(|e| match &e.step {
                Step::Move(m) => Some(m.point),
                Step::Setup(_) => None,
            })
            .collect();
        assert!(!points.contains(&pass));
        assert_eq!(points.iter().filter(|&&p| p == far_corner).count(), 10);
    }
}
