//! The default walkable encoding: joint codes over (point, has_sibling, has_child).
//!
//! ```text
//! table   L:u8, L point bytes ((x-1)<<4 | (y-1)), most frequent first;
//!         n0 n1 n2 n3: table codes per class, classes (sib,child) = (0,1) (1,1) (0,0) (1,0)
//! entry   prefix* main [point] [setup]
//! main    0 .. n0+n1+n2+n3     class c = the range the code falls in, point = table[code - start_c]
//!         0xED+c               escape, class c: one point byte follows
//!         0xF1+c               far, class c: two bytes x (0 = pass), y follow
//! prefix  0xF5..=0xFB          type 1..=7 (normal needs none)
//!         0xFC                 colour exception (same colour as the previous move)
//!         0xFD f               flags: 1 symmetric, 2 colour-reverse, 4 setup (main is far with
//!                              x = y = 0, then a LEB128 count and 2 bytes per stone)
//!         0xFE v               skip: LEB128, bytes from the end of this entry to its next sibling
//!         0xFF v               pointer: LEB128, back from this entry's first byte to a shared list
//! ```
//! The structure costs nothing extra on the common entries: the 237 table codes are shared among
//! the four (has_sibling, has_child) classes in proportion to how often each (point, class)
//! occurs, instead of Fotland's fixed 2 bits. The table length and the split are chosen to
//! minimise the blob. Skip fields sit on entries with a sibling and a subtree of at least
//! `skip_min` entries, so a lookup parses a few bytes per step instead of whole subtrees.

use super::{
    DecodeError, Encoding, Layout, PEntry, RawEntry, err, from_small, layout, read_far,
    read_varint, skip_value, small_point, varint_len, write_stones, write_varint,
};
use crate::model::{MoveType, Point, Step};

/// Table codes available (0..0xED).
const CODES: usize = 0xED;
const ESC: u8 = 0xED;
const FAR: u8 = 0xF1;
const TYPE: u8 = 0xF4; // + kind (1..=7)
const COLEXC: u8 = 0xFC;
const FLAGS: u8 = 0xFD;
const SKIP: u8 = 0xFE;
const PTR: u8 = 0xFF;
/// Subtrees of at least this many entries get a skip field (when the entry has a sibling).
pub(crate) const DEFAULT_SKIP_MIN: usize = 12;

fn class_of(p: &PEntry<'_>) -> usize {
    match (p.has_sibling, p.has_child) {
        (false, true) => 0,
        (true, true) => 1,
        (false, false) => 2,
        (true, false) => 3,
    }
}

pub(crate) fn header(bytes: &[u8], pos: usize, tree_moves: u64) -> Result<Layout<'_>, DecodeError> {
    let Some(&n) = bytes.get(pos) else {
        return err(pos, "truncated table");
    };
    let end = pos + 1 + n as usize;
    if end + 4 > bytes.len() {
        return err(pos, "truncated table");
    }
    let table = &bytes[pos + 1..end];
    let counts = [bytes[end], bytes[end + 1], bytes[end + 2], bytes[end + 3]];
    if counts.iter().map(|&c| c as usize).sum::<usize>() > CODES || counts.iter().any(|&c| c > n) {
        return err(end, "class code counts exceed the table");
    }
    Ok(Layout {
        bytes,
        enc: Encoding::Compact,
        table,
        counts,
        root: end + 4,
        tree_moves,
    })
}

/// Choose the table length and the per-class code counts that minimise the blob.
fn choose_table(plan: &[PEntry<'_>]) -> (Vec<u8>, [u8; 4]) {
    let ranked = super::ranked_points(plan, class_of);
    let max_l = ranked.len().min(255);
    let mut best: (i64, usize, [usize; 4]) = (i64::MAX, 0, [0; 4]);
    for l in 0..=max_l {
        let mut n = [0usize; 4];
        let mut hits: i64 = 0;
        if 4 * l <= CODES {
            n = [l; 4];
            hits = ranked[..l]
                .iter()
                .map(|(_, c)| c.iter().sum::<u32>() as i64)
                .sum();
        } else {
            for _ in 0..CODES {
                let pick = (0..4)
                    .filter(|&c| n[c] < l)
                    .max_by_key(|&c| (ranked[n[c]].1[c], std::cmp::Reverse(c)));
                let Some(c) = pick else { break };
                hits += ranked[n[c]].1[c] as i64;
                n[c] += 1;
            }
        }
        let cost = l as i64 - hits; // each hit saves the escape's point byte
        if cost < best.0 {
            best = (cost, l, n);
        }
    }
    let table = ranked[..best.1].iter().map(|(b, _)| *b).collect();
    (table, best.2.map(|c| c as u8))
}

struct Ctx<'a> {
    table: &'a [u8],
    counts: [u8; 4],
}

impl Ctx<'_> {
    fn table_code(&self, class: usize, b: u8) -> Option<u8> {
        let rank = self.table.iter().position(|&t| t == b)?;
        if rank >= self.counts[class] as usize {
            return None;
        }
        let start: usize = self.counts[..class].iter().map(|&c| c as usize).sum();
        Some((start + rank) as u8)
    }
}

fn flags(p: &PEntry<'_>) -> u8 {
    match &p.edge.step {
        Step::Setup(_) => 4,
        Step::Move(m) => (m.symmetric as u8) | (m.colour_reverse as u8) << 1,
    }
}

/// Bytes of the entry without pointer and skip values (their prefix codes included).
fn fixed_size(p: &PEntry<'_>, ctx: &Ctx, skip: bool) -> usize {
    let mut n = 1; // main code
    match &p.edge.step {
        Step::Move(m) => {
            n += (m.kind != MoveType::Normal) as usize + p.colour_exception() as usize;
            n += match small_point(m.point) {
                Some(b) if ctx.table_code(class_of(p), b).is_some() => 0,
                Some(_) => 1,
                None => 2,
            };
        }
        Step::Setup(s) => n += 2 + varint_len(s.len() as u64) + 2 * s.len(),
    }
    if flags(p) != 0 {
        n += 2;
    }
    n + p.ptr_target.is_some() as usize + skip as usize
}

pub(crate) fn encode(plan: &[PEntry<'_>], out: &mut Vec<u8>, skip_min: usize) {
    let (table, counts) = choose_table(plan);
    out.push(table.len() as u8);
    out.extend_from_slice(&table);
    out.extend_from_slice(&counts);
    let ctx = Ctx {
        table: &table,
        counts,
    };
    let wants: Vec<bool> = plan
        .iter()
        .map(|p| p.has_sibling && p.inline() && p.subtree_entries >= skip_min)
        .collect();
    let fixed: Vec<usize> = plan
        .iter()
        .zip(&wants)
        .map(|(p, &s)| fixed_size(p, &ctx, s))
        .collect();
    let vw = |v: u64| varint_len(v) as u8;
    let (pos, w) = layout(plan, &fixed, &wants, vw, vw);
    let base = out.len();
    for (i, p) in plan.iter().enumerate() {
        debug_assert_eq!(out.len() - base, pos[i]);
        let class = class_of(p);
        if let Step::Move(m) = &p.edge.step {
            if m.kind != MoveType::Normal {
                out.push(TYPE + m.kind.bits());
            }
            if p.colour_exception() {
                out.push(COLEXC);
            }
        }
        let f = flags(p);
        if f != 0 {
            out.extend_from_slice(&[FLAGS, f]);
        }
        if let Some(t) = p.ptr_target {
            out.push(PTR);
            write_varint(out, (pos[i] - pos[t]) as u64, w[i].ptr as usize);
        }
        if wants[i] {
            out.push(SKIP);
            write_varint(
                out,
                skip_value(plan, &pos, &w, &fixed, i),
                w[i].skip as usize,
            );
        }
        match &p.edge.step {
            Step::Setup(stones) => {
                out.extend_from_slice(&[FAR + class as u8, 0, 0]);
                write_varint(out, stones.len() as u64, varint_len(stones.len() as u64));
                write_stones(out, stones);
            }
            Step::Move(m) => match small_point(m.point) {
                Some(b) => match ctx.table_code(class, b) {
                    Some(code) => out.push(code),
                    None => out.extend_from_slice(&[ESC + class as u8, b]),
                },
                None => match m.point {
                    Point::Pass => out.extend_from_slice(&[FAR + class as u8, 0, 0]),
                    Point::At { x, y } => out.extend_from_slice(&[FAR + class as u8, x, y]),
                },
            },
        }
    }
}

const CLASS_BITS: [(bool, bool); 4] = [(false, true), (true, true), (false, false), (true, false)];

pub(crate) fn read(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
    let b = l.bytes;
    let mut e = RawEntry {
        start: pos,
        point: Point::Pass,
        colour_exception: false,
        kind: MoveType::Normal,
        symmetric: false,
        reverse: false,
        setup: None,
        has_sibling: false,
        has_child: false,
        ptr: None,
        skip: None,
        end: pos,
    };
    let mut p = pos;
    let mut seen = 0u8; // prefix kinds seen, one bit each
    let mut setup = false;
    let mut skip_len = None;
    let code = loop {
        let Some(&c) = b.get(p) else {
            return err(p, "truncated entry");
        };
        p += 1;
        let bit = match c {
            TYPE..=0xFB if c > TYPE => {
                e.kind = MoveType::from_bits(c - TYPE);
                1
            }
            COLEXC => {
                e.colour_exception = true;
                2
            }
            FLAGS => {
                let Some(&f) = b.get(p) else {
                    return err(p, "truncated flags");
                };
                if f & !7 != 0 {
                    return err(p, "unknown flag bits");
                }
                p += 1;
                e.symmetric = f & 1 != 0;
                e.reverse = f & 2 != 0;
                setup = f & 4 != 0;
                4
            }
            SKIP => {
                let (v, q) = read_varint(b, p)?;
                p = q;
                skip_len = Some(v);
                8
            }
            PTR => {
                let (v, q) = read_varint(b, p)?;
                if v == 0 || v > pos as u64 {
                    return err(p, "pointer outside the blob");
                }
                p = q;
                e.ptr = Some(pos - v as usize);
                16
            }
            _ => break c,
        };
        if seen & bit != 0 {
            return err(p - 1, "repeated prefix");
        }
        seen |= bit;
    };
    let total: usize = l.counts.iter().map(|&c| c as usize).sum();
    let class = if (code as usize) < total {
        let mut start = 0usize;
        let mut class = 0;
        for (k, &n) in l.counts.iter().enumerate() {
            if (code as usize) < start + n as usize {
                class = k;
                break;
            }
            start += n as usize;
        }
        e.point = from_small(l.table[code as usize - start]);
        class
    } else if (ESC..FAR).contains(&code) {
        let Some(&q) = b.get(p) else {
            return err(p, "truncated point");
        };
        p += 1;
        e.point = from_small(q);
        (code - ESC) as usize
    } else if (FAR..FAR + 4).contains(&code) {
        let (pt, bits) = read_far(b, p)?;
        if bits != 0 {
            return err(p, "unexpected bits in a far point");
        }
        p += 2;
        e.point = pt;
        (code - FAR) as usize
    } else {
        return err(p - 1, "unused code");
    };
    (e.has_sibling, e.has_child) = CLASS_BITS[class];
    if setup {
        if e.point != Point::Pass
            || e.kind != MoveType::Normal
            || e.colour_exception
            || e.symmetric
            || e.reverse
        {
            return err(pos, "malformed setup entry");
        }
        let (n, q) = read_varint(b, p)?;
        let n = n as usize;
        if n > 25 * 25 || q + 2 * n > b.len() {
            return err(p, "bad setup stone count");
        }
        e.setup = Some((q, n));
        p = q + 2 * n;
    }
    if e.ptr.is_some() && !e.has_child {
        return err(pos, "pointer on an entry without children");
    }
    e.end = p;
    if let Some(v) = skip_len {
        if !e.has_sibling || !e.has_child || e.ptr.is_some() {
            return err(
                pos,
                "skip field on an entry without an inline subtree and a sibling",
            );
        }
        let next = p as u64 + v;
        if next > b.len() as u64 {
            return err(pos, "skip field beyond the blob");
        }
        e.skip = Some(next as usize);
    }
    Ok(e)
}
