//! The default walkable encoding: joint codes over (point, has_sibling, has_child, skip).
//!
//! ```text
//! table   L:u8, L point bytes ((x-1)<<4 | (y-1)); the code order is these L points, then
//!         every other point with x, y <= 16 in a fixed geometric order (nearest to the 3-4
//!         points first); n0..n4: table codes per class, in class order
//! classes (sibling, child): 0 = (0,1)  1 = (1,1)  2 = (0,0)  3 = (1,0)  4 = (1,1) + skip field
//! entry   prefix* main [point] [setup] [skip]
//! main    0 .. n0+..+n4    class = the range the code falls in, point = order[code - start]
//!         0xE6+c           escape, class c: one point byte follows
//!         0xEB+c           far, class c: two bytes x (0 = pass), y follow
//!         0xF0+c           setup, class c: LEB128 count, 2 bytes per stone (colour:2 x:6, y)
//! prefix  0xF5..=0xFB      type 1..=7 (normal needs none)
//!         0xFC             colour exception (same colour as the previous move)
//!         0xFD             symmetric
//!         0xFE             colour-reverse
//!         0xFF v           pointer: LEB128, back from this entry's first byte to a shared list
//! skip    class 4 only: LEB128, bytes from the end of this entry to its next sibling
//! ```
//! The structure costs nothing extra on common entries: the 230 table codes are shared among
//! the classes in proportion to how often each (point, class) occurs, instead of Fotland's
//! fixed 2 bits; the encoder picks the explicit table length and the split that minimise the
//! blob, so small dictionaries pay for few table bytes. Skip fields sit on entries with a
//! sibling and a subtree of at least `skip_min` entries, so a lookup parses a few bytes per step
//! instead of whole earlier subtrees; class 4 announces them without a prefix byte.

use super::{
    DecodeError, Encoding, Layout, PEntry, RawEntry, err, layout, read_far, read_varint,
    skip_value, small_point, varint_len, write_stones, write_varint,
};
use crate::model::{MoveType, Point, Step};

/// Table codes available (0..0xE6).
const CODES: usize = 0xE6;
const ESC: u8 = 0xE6;
const FAR: u8 = 0xEB;
const SETUP: u8 = 0xF0;
const TYPE: u8 = 0xF4; // + kind (1..=7)
const COLEXC: u8 = 0xFC;
const SYM: u8 = 0xFD;
const REV: u8 = 0xFE;
const PTR: u8 = 0xFF;
const CLASSES: usize = 5;
/// Subtrees of at least this many entries get a skip field (when the entry has a sibling).
pub(crate) const DEFAULT_SKIP_MIN: usize = 16;

pub(crate) const CLASS_BITS: [(bool, bool); CLASSES] = [
    (false, true),
    (true, true),
    (false, false),
    (true, false),
    (true, true),
];

fn class_of(p: &PEntry<'_>, skip: bool) -> usize {
    match (p.has_sibling, p.has_child, skip) {
        (true, true, true) => 4,
        (false, true, _) => 0,
        (true, true, false) => 1,
        (false, false, _) => 2,
        (true, false, _) => 3,
    }
}

/// Every point with x, y in 1..=16, nearest to the 3-4 points first: the code order after
/// the blob's explicit table. Geometry only, so it ships with no data in it.
pub(crate) fn generic_order() -> [u8; 256] {
    let key = |b: u8| {
        let (x, y) = ((b >> 4) as i32 + 1, (b & 15) as i32 + 1);
        ((2 * x - 7).pow(2) + (2 * y - 7).pow(2), x + y, x)
    };
    let mut v = [0u8; 256];
    for (i, b) in v.iter_mut().enumerate() {
        *b = i as u8;
    }
    v.sort_by_key(|&b| key(b));
    v
}

/// The code order: the explicit table, then the generic order without those points.
fn full_order(table: &[u8]) -> [u8; 256] {
    let mut order = [0u8; 256];
    let mut used = [false; 256];
    let mut n = 0;
    for &b in table {
        order[n] = b;
        used[b as usize] = true;
        n += 1;
    }
    for b in generic_order() {
        if !used[b as usize] {
            order[n] = b;
            n += 1;
        }
    }
    order
}

pub(crate) fn header(bytes: &[u8], pos: usize, tree_moves: u64) -> Result<Layout<'_>, DecodeError> {
    let Some(&n) = bytes.get(pos) else {
        return err(pos, "truncated table");
    };
    let end = pos + 1 + n as usize;
    if end + CLASSES > bytes.len() {
        return err(pos, "truncated table");
    }
    let table = &bytes[pos + 1..end];
    let mut seen = [false; 256];
    for (k, &b) in table.iter().enumerate() {
        if std::mem::replace(&mut seen[b as usize], true) {
            return err(pos + 1 + k, "point twice in the table");
        }
    }
    let mut counts = [0u8; 5];
    counts.copy_from_slice(&bytes[end..end + CLASSES]);
    if counts.iter().map(|&c| c as usize).sum::<usize>() > CODES {
        return err(end, "class code counts exceed the code space");
    }
    // Code -> (class, point) tables, so a one-byte entry decodes with two loads.
    let order = full_order(table);
    let (mut code_point, mut code_class) = ([0u8; 256], [0xFFu8; 256]);
    let mut code = 0usize;
    for (class, &n) in counts.iter().enumerate() {
        for &point in &order[..n as usize] {
            code_point[code] = point;
            code_class[code] = class as u8;
            code += 1;
        }
    }
    Ok(Layout {
        bytes,
        enc: Encoding::Compact,
        table,
        code_point,
        code_class,
        root: end + CLASSES,
        tree_moves,
    })
}

/// Choose the explicit table and the per-class code counts that minimise the blob.
fn choose_table(plan: &[PEntry<'_>], wants: &[bool]) -> (Vec<u8>, [u8; CLASSES]) {
    let mut counts: std::collections::BTreeMap<u8, [u32; CLASSES]> = Default::default();
    for (p, &w) in plan.iter().zip(wants) {
        if let Step::Move(m) = &p.edge.step
            && let Some(b) = small_point(m.point)
        {
            counts.entry(b).or_default()[class_of(p, w)] += 1;
        }
    }
    let mut ranked: Vec<(u8, [u32; CLASSES])> = counts.iter().map(|(b, c)| (*b, *c)).collect();
    ranked.sort_by_key(|(b, c)| (std::cmp::Reverse(c.iter().sum::<u32>()), *b));
    let mut best: (i64, usize, [u8; CLASSES]) = (i64::MAX, 0, [0; CLASSES]);
    let max_l = ranked.len().min(255);
    let candidates = [
        0usize, 4, 8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128, 160, 200, 255,
    ];
    for l in candidates.into_iter().map(|l| l.min(max_l)) {
        let table: Vec<u8> = ranked[..l].iter().map(|(b, _)| *b).collect();
        let order = full_order(&table);
        // hits[c][n]: entries of class c whose point is among the first n of the order.
        let mut hits = [[0i64; 257]; CLASSES];
        for (c, h) in hits.iter_mut().enumerate() {
            for n in 0..256 {
                h[n + 1] = h[n] + counts.get(&order[n]).map_or(0, |k| k[c] as i64);
            }
        }
        // Knapsack over the 230 codes (the hit curves are not concave, so no greedy).
        let mut dp = vec![[0i64; CODES + 1]; CLASSES + 1];
        let mut pick = vec![[0u16; CODES + 1]; CLASSES];
        for c in 0..CLASSES {
            for budget in 0..=CODES {
                let (mut bv, mut bn) = (i64::MIN, 0);
                for n in 0..=budget.min(255) {
                    let v = dp[c][budget - n] + hits[c][n];
                    if v > bv {
                        (bv, bn) = (v, n);
                    }
                }
                dp[c + 1][budget] = bv;
                pick[c][budget] = bn as u16;
            }
        }
        let cost = l as i64 - dp[CLASSES][CODES]; // a hit saves the escape's point byte
        if cost < best.0 {
            let mut n = [0u8; CLASSES];
            let mut budget = CODES;
            for c in (0..CLASSES).rev() {
                n[c] = pick[c][budget] as u8;
                budget -= n[c] as usize;
            }
            best = (cost, l, n);
        }
    }
    (ranked[..best.1].iter().map(|(b, _)| *b).collect(), best.2)
}

struct Ctx {
    order: [u8; 256],
    counts: [u8; CLASSES],
}

impl Ctx {
    fn table_code(&self, class: usize, b: u8) -> Option<u8> {
        let rank = self.order.iter().position(|&t| t == b)?;
        if rank >= self.counts[class] as usize {
            return None;
        }
        let start: usize = self.counts[..class].iter().map(|&c| c as usize).sum();
        Some((start + rank) as u8)
    }
}

/// Bytes of the entry without the pointer and skip values (the pointer's prefix included).
fn fixed_size(p: &PEntry<'_>, ctx: &Ctx, skip: bool) -> usize {
    let mut n = 1 + p.ptr_target.is_some() as usize; // main code, pointer prefix
    match &p.edge.step {
        Step::Move(m) => {
            n += (m.kind != MoveType::Normal) as usize
                + p.colour_exception() as usize
                + m.symmetric as usize
                + m.colour_reverse as usize;
            n += match small_point(m.point) {
                Some(b) if ctx.table_code(class_of(p, skip), b).is_some() => 0,
                Some(_) => 1,
                None => 2,
            };
        }
        Step::Setup(s) => n += varint_len(s.len() as u64) + 2 * s.len(),
    }
    n
}

pub(crate) fn encode(plan: &[PEntry<'_>], out: &mut Vec<u8>, skip_min: usize) {
    let wants: Vec<bool> = plan
        .iter()
        .map(|p| p.has_sibling && p.inline() && p.subtree_entries >= skip_min)
        .collect();
    let (table, counts) = choose_table(plan, &wants);
    out.push(table.len() as u8);
    out.extend_from_slice(&table);
    out.extend_from_slice(&counts);
    let ctx = Ctx {
        order: full_order(&table),
        counts,
    };
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
        let class = class_of(p, wants[i]) as u8;
        if let Step::Move(m) = &p.edge.step {
            if m.kind != MoveType::Normal {
                out.push(TYPE + m.kind.bits());
            }
            if p.colour_exception() {
                out.push(COLEXC);
            }
            if m.symmetric {
                out.push(SYM);
            }
            if m.colour_reverse {
                out.push(REV);
            }
        }
        if let Some(t) = p.ptr_target {
            out.push(PTR);
            write_varint(out, (pos[i] - pos[t]) as u64, w[i].ptr as usize);
        }
        match &p.edge.step {
            Step::Setup(stones) => {
                out.push(SETUP + class);
                write_varint(out, stones.len() as u64, varint_len(stones.len() as u64));
                write_stones(out, stones);
            }
            Step::Move(m) => match small_point(m.point) {
                Some(b) => match ctx.table_code(class as usize, b) {
                    Some(code) => out.push(code),
                    None => out.extend_from_slice(&[ESC + class, b]),
                },
                None => match m.point {
                    Point::Pass => out.extend_from_slice(&[FAR + class, 0, 0]),
                    Point::At { x, y } => out.extend_from_slice(&[FAR + class, x, y]),
                },
            },
        }
        if wants[i] {
            write_varint(
                out,
                skip_value(plan, &pos, &w, &fixed, i),
                w[i].skip as usize,
            );
        }
    }
}

#[inline]
pub(crate) fn read(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
    let b = l.bytes;
    // Fast path: a one-byte table entry of classes 0-3.
    if let Some(&c0) = b.get(pos) {
        let class = l.code_class[c0 as usize];
        // Class 4 with a one-byte skip field is as common on lookup paths as plain entries.
        let skip = match (class, b.get(pos + 1)) {
            (4, Some(&v)) if v < 0x80 && pos + 2 + (v as usize) <= b.len() => {
                Some(pos + 2 + v as usize)
            }
            _ => None,
        };
        if class < 4 || skip.is_some() {
            let (has_sibling, has_child) = CLASS_BITS[class as usize];
            return Ok(RawEntry {
                start: pos,
                point: super::from_small(l.code_point[c0 as usize]),
                colour_exception: false,
                kind: MoveType::Normal,
                symmetric: false,
                reverse: false,
                setup: None,
                has_sibling,
                has_child,
                ptr: None,
                skip,
                end: pos + 1 + skip.is_some() as usize,
            });
        }
    }
    read_slow(l, pos)
}

fn read_slow(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
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
            SYM => {
                e.symmetric = true;
                4
            }
            REV => {
                e.reverse = true;
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
    let class = if l.code_class[code as usize] != 0xFF {
        e.point = super::from_small(l.code_point[code as usize]);
        l.code_class[code as usize] as usize
    } else if (ESC..FAR).contains(&code) {
        let Some(&q) = b.get(p) else {
            return err(p, "truncated point");
        };
        p += 1;
        e.point = super::from_small(q);
        (code - ESC) as usize
    } else if (FAR..SETUP).contains(&code) {
        let (pt, bits) = read_far(b, p)?;
        if bits != 0 {
            return err(p, "unexpected bits in a far point");
        }
        p += 2;
        e.point = pt;
        (code - FAR) as usize
    } else if (SETUP..SETUP + CLASSES as u8).contains(&code) {
        if seen != 0 && seen != 16 {
            return err(pos, "move prefixes on a setup entry");
        }
        let (n, q) = read_varint(b, p)?;
        let n = n as usize;
        if n > 25 * 25 || q + 2 * n > b.len() {
            return err(p, "bad setup stone count");
        }
        e.setup = Some((q, n));
        p = q + 2 * n;
        (code - SETUP) as usize
    } else {
        return err(p - 1, "unused code");
    };
    (e.has_sibling, e.has_child) = CLASS_BITS[class];
    if e.ptr.is_some() && (!e.has_child || class == 4) {
        return err(pos, "pointer on an entry without a child list of its own");
    }
    if class == 4 {
        let (v, q) = read_varint(b, p)?;
        p = q;
        let next = p as u64 + v;
        if next > b.len() as u64 {
            return err(pos, "skip field beyond the blob");
        }
        e.skip = Some(next as usize);
    }
    e.end = p;
    Ok(e)
}
