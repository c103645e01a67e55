//! The default walkable encoding: joint codes over (point, has_sibling, has_child, skip, type,
//! pass, colour exception), and 2-move pair codes.
//!
//! ```text
//! table   L:u8, L point bytes ((x-1)<<4 | (y-1)); the point order is these L points, then
//!         every other point with x, y <= 16 in a fixed geometric order (`generic_order`)
//! groups  n0..n4: the plain classes' code counts; E:u8, E x (descriptor:u8, n:u8) extra
//!         groups. Table codes are given out in this order: a single group's n codes name the
//!         first n points of the order (a pass group: n <= 1, the pass); a pair group's n
//!         codes name the next n pairs of the pair table
//! pairs   2 bytes (first point, second point) per pair-group code, in group order
//! descr.  single: class:3 (0..=4) | type:3 << 3 | pass << 6 | colour-exception << 7
//!         pair:   5 (second move has a child) or 6 (second move is a leaf), other bits zero
//! classes (sibling, child): 0 = (0,1)  1 = (1,1)  2 = (0,0)  3 = (1,0)  4 = (1,1) + skip field
//! entry   prefix* main [point] [setup] [skip]
//! main    0 .. sum(n)          table code
//!         0xE6+c           escape, class c: one point byte follows
//!         0xEB+c           far, class c: two bytes x (0 = pass), y follow
//!         0xF0+c           setup, class c: LEB128 count, 2 bytes per stone (colour:2 x:6, y)
//! prefix  0xF5..=0xFB      type 1..=7 (normal needs none; never with a typed code)
//!         0xFC             colour exception (never with a colour-exception code)
//!         0xFD             symmetric
//!         0xFE             colour-reverse
//!         0xFF v           pointer: LEB128, back from this entry's first byte to a shared list
//! skip    class 4 only: LEB128, bytes from the end of this entry to its next sibling
//! ```
//! A pair code is two plain moves in one byte: the first has no sibling and exactly one child
//! (the second), and no prefix; the second has no sibling; the second's children follow the
//! byte inline. The walker sees the first move at the byte; its `children()` is a virtual
//! position ([`super::VIRTUAL`]) at which `read_entry` decodes the second move (0 bytes).
//!
//! Version 1 blobs had no `E` byte (no extra groups, no pairs) and another generic order
//! (L2 distance from (3.5, 3.5)); they still decode.
//!
//! The structure costs nothing extra on common entries: the 230 table codes are shared among
//! the groups in proportion to how often each (point, group) occurs, instead of Fotland's fixed
//! 2 bits; the encoder picks the explicit table length, the groups and their sizes, and the
//! pairs that minimise the blob, so small dictionaries pay for few table bytes. Skip fields sit
//! on entries with a sibling and a subtree of at least `skip_min` entries, so a lookup parses a
//! few bytes per step instead of whole earlier subtrees; class 4 announces them.

use super::{
    DecodeError, Encoding, Layout, PEntry, RawEntry, VIRTUAL, err, far_of, huffman, layout,
    read_varint, skip_value, small_point, varint_len, write_stones, write_varint,
};
use crate::model::{MoveType, Point, Step};
use std::collections::BTreeMap;

/// Version 4: the entries of version 3 without skip fields, Huffman coded (`huffman`).
pub(crate) const HUFFMAN_VERSION: u8 = 4;
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
/// Pair group descriptors: the second move has a child / is a leaf; with [`PAIR_SIBLING`], the
/// first move has a next sibling (after the second's subtree; version 3).
const PAIR_CHAIN: u8 = 5;
const PAIR_LEAF: u8 = 6;
const PAIR_SIBLING: u8 = 8;
/// The four pair groups, in the order the encoder lists them.
const PAIR_GROUPS: [u8; 4] = [
    PAIR_CHAIN,
    PAIR_LEAF,
    PAIR_CHAIN | PAIR_SIBLING,
    PAIR_LEAF | PAIR_SIBLING,
];
/// `code_class` of table codes that only `read_entry` decodes (typed, pass, colour exception,
/// pair). The walker's one-byte fast path takes classes 0-3 only.
pub(crate) const SLOW_CLASS: u8 = 5;
/// Subtrees of at least this many entries get a skip field (when the entry has a sibling):
/// never, by default. The walker's transition table (or its jump table, in the small mode)
/// does the skip fields' job beside the blob; `codec::encode_compact_with_skip` still writes
/// them (class 4), and every decoder reads them.
pub(crate) const DEFAULT_SKIP_MIN: usize = usize::MAX;
/// Pass symbol in the encoder's symbol space (points are 0..=255).
const PASS_SYM: u16 = 256;

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

const fn descriptor(class: u8, kind: u8, pass: bool, colexc: bool) -> u8 {
    class | kind << 3 | (pass as u8) << 6 | (colexc as u8) << 7
}

/// Every point with x, y in 1..=16, nearest to the 3-4 points first: the code order after
/// the blob's explicit table. Geometry only, so it ships with no data in it.
pub(crate) fn generic_order() -> [u8; 256] {
    // L1 distance from the middle of the 3-4 points (|2x-7| + |2y-7|); on the data files it
    // beat L2 around (3.5, 3.5) or (4, 4), x + y and max(x, y) by 0.1-1%.
    let key = |b: u8| {
        let (x, y) = ((b >> 4) as i32 + 1, (b & 15) as i32 + 1);
        ((2 * x - 7).abs() + (2 * y - 7).abs(), x + y, x)
    };
    let mut v = [0u8; 256];
    for (i, b) in v.iter_mut().enumerate() {
        *b = i as u8;
    }
    v.sort_by_key(|&b| key(b));
    v
}

/// Version 1's generic order (L2 distance from (3.5, 3.5)), kept so old blobs decode.
fn generic_order_v1() -> [u8; 256] {
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
    full_order_from(table, generic_order())
}

fn full_order_from(table: &[u8], generic: [u8; 256]) -> [u8; 256] {
    let mut order = [0u8; 256];
    let mut used = [false; 256];
    let mut n = 0;
    for &b in table {
        order[n] = b;
        used[b as usize] = true;
        n += 1;
    }
    for b in generic {
        if !used[b as usize] {
            order[n] = b;
            n += 1;
        }
    }
    order
}

pub(crate) fn header(
    bytes: &[u8],
    pos: usize,
    tree_moves: u64,
    version: u8,
) -> Result<Layout<'_>, DecodeError> {
    let Some(&n) = bytes.get(pos) else {
        return err(pos, "truncated table");
    };
    let end = pos + 1 + n as usize;
    if end > bytes.len() {
        return err(pos, "truncated table");
    }
    let table = &bytes[pos + 1..end];
    let mut seen = [false; 256];
    for (k, &b) in table.iter().enumerate() {
        if std::mem::replace(&mut seen[b as usize], true) {
            return err(pos + 1 + k, "point twice in the table");
        }
    }
    // (descriptor, count, offset of the count byte)
    let mut groups: Vec<(u8, u8, usize)> = Vec::new();
    // Both versions: the five plain classes' counts; version 2 adds E extra groups.
    if end + CLASSES > bytes.len() {
        return err(pos, "truncated table");
    }
    for c in 0..CLASSES {
        groups.push((c as u8, bytes[end + c], end + c));
    }
    let mut p = end + CLASSES;
    if version != 1 {
        let Some(&g) = bytes.get(p) else {
            return err(p, "truncated group list");
        };
        p += 1;
        if p + 2 * g as usize > bytes.len() {
            return err(p, "truncated group list");
        }
        let mut seen = [false; 256];
        // Version 3 adds the pair groups whose first move has a sibling.
        let pair_bits = if version >= 3 { PAIR_SIBLING } else { 0 };
        for k in 0..g as usize {
            let (d, n) = (bytes[p + 2 * k], bytes[p + 2 * k + 1]);
            let class = d & 7;
            if class > PAIR_LEAF
                || (class >= PAIR_CHAIN && d & !pair_bits != class)
                || d < 8 && class < 5
            {
                return err(p + 2 * k, "bad group descriptor");
            }
            if d & 0x40 != 0 && n > 1 {
                return err(p + 2 * k + 1, "a pass group has one code at most");
            }
            if std::mem::replace(&mut seen[d as usize], true) {
                return err(p + 2 * k, "group twice in the list");
            }
            groups.push((d, n, p + 2 * k + 1));
        }
        p += 2 * g as usize;
    }
    if groups.iter().map(|g| g.1 as usize).sum::<usize>() > CODES {
        return err(
            groups.last().map_or(p, |g| g.2),
            "group sizes exceed the code space",
        );
    }
    let pairs: usize = groups
        .iter()
        .filter(|g| g.0 & 7 >= PAIR_CHAIN)
        .map(|g| g.1 as usize)
        .sum();
    if p + 2 * pairs > bytes.len() {
        return err(p, "truncated pair table");
    }
    let pair_bytes = &bytes[p..p + 2 * pairs];
    let mut root = p + 2 * pairs;
    let mut huff = None;
    if version >= HUFFMAN_VERSION {
        // Positions are bits from here on; no skip fields.
        if groups[4].1 != 0 {
            return err(groups[4].2, "skip fields in a version 4 blob");
        }
        let (d, next) = huffman::Decoder::read(bytes, root)?;
        huff = Some(d);
        root = next * 8;
    }
    // Code -> (class, point, group) tables, so a one-byte entry decodes with a few loads.
    let order = if version == 1 {
        full_order_from(table, generic_order_v1())
    } else {
        full_order(table)
    };
    let mut code_point = [0u8; 256];
    let mut code_class = [0xFFu8; 256];
    let mut code_ext = [0xFFu8; 256];
    let mut code_second = [0u8; 256];
    let (mut code, mut next_pair) = (0usize, 0usize);
    for &(d, n, _) in &groups {
        for &point in &order[..n as usize] {
            let class = d & 7;
            if class >= PAIR_CHAIN {
                code_point[code] = pair_bytes[2 * next_pair];
                code_second[code] = pair_bytes[2 * next_pair + 1];
                next_pair += 1;
            } else if d & 0x40 == 0 {
                code_point[code] = point;
            }
            code_class[code] = if d == class && class < 5 {
                class
            } else {
                SLOW_CLASS
            };
            code_ext[code] = d;
            code += 1;
        }
    }
    Ok(Layout {
        bytes,
        enc: Encoding::Compact,
        table,
        code_point,
        code_class,
        code_ext,
        code_second,
        root,
        tree_moves,
        huff,
    })
}

// ---------------------------------------------------------------------------------------------
// Encoder

/// What an entry needs besides its structure: the part the groups can absorb.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Need {
    class: u8,
    kind: u8,
    colexc: bool,
    /// Point byte, or `PASS_SYM`.
    sym: u16,
}

/// How the main part of an entry is written.
#[derive(Clone, Copy, Debug)]
enum Main {
    /// A table code, with the type / colour-exception prefixes the code does not carry.
    Code {
        code: u8,
        kind: u8,
        colexc: bool,
    },
    Esc,
    Far,
    Setup,
    PairFirst(u8),
    PairSecond,
}

/// The chosen code space.
struct Space {
    rank: [u16; 256],
    /// Group descriptor -> (first code, n), single groups only.
    singles: BTreeMap<u8, (u8, u8)>,
    /// (first, second point, second class) -> code.
    pairs: BTreeMap<(u8, u8, u8), u8>,
}

impl Space {
    fn sym_rank(&self, sym: u16) -> usize {
        if sym == PASS_SYM {
            0
        } else {
            self.rank[sym as usize] as usize
        }
    }
    /// Cheapest main part for `need` and its size in bytes (type / colour prefixes included).
    fn best(&self, need: Need) -> (Main, usize) {
        self.best_without(need, None)
    }
    /// The same, as if group `skip` were not there.
    fn best_without(&self, need: Need, skip: Option<u8>) -> (Main, usize) {
        let esc = if need.sym == PASS_SYM { 3 } else { 2 };
        let fallback = (need.kind != 0) as usize + need.colexc as usize;
        let mut best = (
            if need.sym == PASS_SYM {
                Main::Far
            } else {
                Main::Esc
            },
            esc + fallback,
        );
        for (kind, colexc) in candidates(need) {
            let d = descriptor(need.class, kind, need.sym == PASS_SYM, colexc);
            if Some(d) != skip
                && let Some(&(start, n)) = self.singles.get(&d)
                && self.sym_rank(need.sym) < n as usize
            {
                let cost = 1 + (kind != need.kind) as usize + (colexc != need.colexc) as usize;
                if cost < best.1 {
                    let code = start + self.sym_rank(need.sym) as u8;
                    best = (
                        Main::Code {
                            code,
                            kind: if kind == need.kind { 0 } else { need.kind },
                            colexc: colexc != need.colexc,
                        },
                        cost,
                    );
                }
            }
        }
        best
    }
}

/// The (type, colour exception) combinations a group may carry for `need`; the rest goes into
/// prefixes.
fn candidates(need: Need) -> impl Iterator<Item = (u8, bool)> {
    let mut v = [(need.kind, need.colexc); 4];
    v[1] = (0, need.colexc);
    v[2] = (need.kind, false);
    v[3] = (0, false);
    v.into_iter()
        .enumerate()
        .filter(move |&(i, c)| !v[..i].contains(&c))
        .map(|(_, c)| c)
}

fn need_of(p: &PEntry<'_>, skip: bool) -> Option<Need> {
    let Step::Move(m) = &p.edge.step else {
        return None;
    };
    let sym = match m.point {
        Point::Pass => PASS_SYM,
        pt => small_point(pt)? as u16,
    };
    Some(Need {
        class: class_of(p, skip) as u8,
        kind: m.kind.bits(),
        colexc: p.colour_exception(),
        sym,
    })
}

/// A plain move a pair can hold: normal, no flags, no pointer, a small point.
fn plain_point(p: &PEntry<'_>) -> Option<u8> {
    match &p.edge.step {
        Step::Move(m)
            if m.kind == MoveType::Normal
                && !m.symmetric
                && !m.colour_reverse
                && !p.colour_exception()
                && p.ptr_target.is_none() =>
        {
            small_point(m.point)
        }
        _ => None,
    }
}

/// Entries `i` that can start a pair with `i + 1`: (first point, second point, pair group).
/// The first may have a sibling unless it wants a skip field (a pair code has none).
fn pair_candidates(
    plan: &[PEntry<'_>],
    targeted: &[bool],
    wants: &[bool],
) -> Vec<Option<(u8, u8, u8)>> {
    (0..plan.len())
        .map(|i| {
            let (a, b) = (&plan[i], plan.get(i + 1)?);
            if wants[i] || !a.inline() || b.has_sibling || targeted[i + 1] {
                return None;
            }
            let group = pair_group(a, b);
            Some((plain_point(a)?, plain_point(b)?, group))
        })
        .collect()
}

/// The pair group of first move `a` and second move `b` (its only child).
fn pair_group(a: &PEntry<'_>, b: &PEntry<'_>) -> u8 {
    let second = if b.has_child { PAIR_CHAIN } else { PAIR_LEAF };
    second | if a.has_sibling { PAIR_SIBLING } else { 0 }
}

/// Greedy depth-first pair parse: `role[i]` = 1 first of a pair, 2 second, 0 single.
fn parse_pairs(cands: &[Option<(u8, u8, u8)>], chosen: &BTreeMap<(u8, u8, u8), u8>) -> Vec<u8> {
    let mut role = vec![0u8; cands.len()];
    let mut i = 0;
    while i < cands.len() {
        if let Some(c) = cands[i]
            && chosen.contains_key(&c)
        {
            role[i] = 1;
            role[i + 1] = 2;
            i += 2;
        } else {
            i += 1;
        }
    }
    role
}

/// Group descriptors and their code counts, in code order.
type Groups = Vec<(u8, u8)>;
/// A code space as the encoder writes it: the space, the explicit table, the groups.
type CodeSpace = (Space, Vec<u8>, Groups);

/// Choose the code space (explicit table, group sizes, pairs) that minimises the blob.
/// Candidate code spaces (explicit table, groups), the best estimates first; the encoder lays
/// each out and keeps the smallest blob (the estimate leaves out pointer and skip widths).
fn choose_space(plan: &[PEntry<'_>], wants: &[bool]) -> Vec<CodeSpace> {
    let mut targeted = vec![false; plan.len() + 1];
    for p in plan {
        if let Some(t) = p.ptr_target {
            targeted[t] = true;
        }
    }
    let cands = pair_candidates(plan, &targeted, wants);
    let mut pair_counts: BTreeMap<(u8, u8, u8), u32> = BTreeMap::new();
    for c in cands.iter().flatten() {
        *pair_counts.entry(*c).or_default() += 1;
    }
    let mut ranked_pairs: Vec<((u8, u8, u8), u32)> = pair_counts.into_iter().collect();
    ranked_pairs.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
    ranked_pairs.retain(|&(_, n)| n >= 3);
    let mut best: Option<usize> = None;
    let mut options: Vec<(usize, CodeSpace)> = Vec::new();
    let mut pair_options = vec![0usize];
    // Large books pay for more pairs (each costs its 2 table bytes and a code of the singles).
    const PAIR_STEPS: [usize; 10] = [8, 16, 24, 32, 48, 64, 96, 128, 160, 192];
    for k in PAIR_STEPS {
        if k <= ranked_pairs.len() {
            pair_options.push(k);
        }
    }
    if !pair_options.contains(&ranked_pairs.len()) && ranked_pairs.len() <= 192 {
        pair_options.push(ranked_pairs.len());
    }
    let mut fixed_table: Option<Vec<u8>> = None;
    let mut best_pairs = 0;
    let runs = pair_options.iter().map(|&n| (n, false)).collect::<Vec<_>>();
    let mut k = 0;
    while k <= runs.len() {
        // Last run: the best pair count again, with the table length chosen afresh.
        let (npairs, refine) = match runs.get(k) {
            Some(&r) => r,
            None if best_pairs > 0 => (best_pairs, true),
            None => break,
        };
        k += 1;
        // Pair codes: chain pairs first, then leaf pairs (the two pair groups).
        let mut chosen: Vec<(u8, u8, u8)> = ranked_pairs[..npairs].iter().map(|p| p.0).collect();
        chosen.sort_by_key(|c| (c.2, std::cmp::Reverse(pair_counts_of(&ranked_pairs, c)), *c));
        let set: BTreeMap<(u8, u8, u8), u8> = chosen.iter().map(|&c| (c, 0)).collect();
        let role = parse_pairs(&cands, &set);
        let mut needs: BTreeMap<Need, u32> = BTreeMap::new();
        for (i, p) in plan.iter().enumerate() {
            if role[i] == 0
                && let Some(n) = need_of(p, wants[i])
            {
                *needs.entry(n).or_default() += 1;
            }
        }
        let pair_uses = role.iter().filter(|&&r| r == 1).count();
        // The explicit table length is chosen once, without pairs; pairs change it little.
        let (table, groups, cost) = match &fixed_table {
            Some(t) if !refine => {
                let (g, c) = allocate(&needs, t, CODES - npairs);
                (t.clone(), g, c + t.len())
            }
            _ => choose_singles(&needs, CODES - npairs),
        };
        fixed_table.get_or_insert_with(|| table.clone());
        let pair_groups = PAIR_GROUPS
            .iter()
            .filter(|&&g| chosen.iter().any(|c| c.2 == g))
            .count();
        let total = cost + pair_uses + 2 * npairs + 2 * pair_groups;
        let mut groups = groups;
        for g in PAIR_GROUPS {
            let n = chosen.iter().filter(|c| c.2 == g).count();
            if n > 0 {
                groups.push((g, n as u8));
            }
        }
        if best.is_none_or(|b| total < b) {
            best = Some(total);
            best_pairs = npairs;
        }
        let space = build_space(&table, &groups, &chosen);
        options.push((total, (space, table, groups)));
    }
    options.sort_by_key(|o| o.0);
    options.truncate(4);
    options.into_iter().map(|(_, o)| o).collect()
}

fn pair_counts_of(ranked: &[((u8, u8, u8), u32)], c: &(u8, u8, u8)) -> u32 {
    ranked.iter().find(|r| r.0 == *c).map_or(0, |r| r.1)
}

fn build_space(table: &[u8], groups: &[(u8, u8)], pairs: &[(u8, u8, u8)]) -> Space {
    let order = full_order(table);
    let mut rank = [0u16; 256];
    for (r, &b) in order.iter().enumerate() {
        rank[b as usize] = r as u16;
    }
    let mut singles = BTreeMap::new();
    let mut pair_codes = BTreeMap::new();
    let mut code = 0usize;
    let mut next_pair = 0;
    for &(d, n) in groups {
        if d & 7 >= PAIR_CHAIN {
            for _ in 0..n {
                pair_codes.insert(pairs[next_pair], code as u8);
                next_pair += 1;
                code += 1;
            }
        } else {
            singles.insert(d, (code as u8, n));
            code += n as usize;
        }
    }
    Space {
        rank,
        singles,
        pairs: pair_codes,
    }
}

/// Choose the explicit table and the single groups for `needs` within `budget` codes.
/// Returns (table, groups, bytes of the main parts plus table and group headers).
fn choose_singles(needs: &BTreeMap<Need, u32>, budget: usize) -> (Vec<u8>, Vec<(u8, u8)>, usize) {
    let mut point_counts: BTreeMap<u8, u32> = BTreeMap::new();
    for (n, &c) in needs {
        if n.sym < 256 {
            *point_counts.entry(n.sym as u8).or_default() += c;
        }
    }
    let mut ranked: Vec<(u8, u32)> = point_counts.into_iter().collect();
    ranked.sort_by_key(|&(b, c)| (std::cmp::Reverse(c), b));
    let max_l = ranked.len().min(255);
    // (bytes, table, groups)
    let mut best: Option<(usize, Vec<u8>, Groups)> = None;
    let mut tried = Vec::new();
    let lengths = (0..=64).step_by(8).chain([80, 96, 128, 160, 255]);
    for l in lengths {
        let l = l.min(max_l);
        if tried.contains(&l) {
            continue;
        }
        tried.push(l);
        let table: Vec<u8> = ranked[..l].iter().map(|p| p.0).collect();
        let (groups, cost) = allocate(needs, &table, budget);
        let total = cost + l;
        if best.as_ref().is_none_or(|b| total < b.0) {
            best = Some((total, table, groups));
        }
    }
    let (cost, table, groups) = best.expect("one table length at least");
    (table, groups, cost)
}

/// Group sizes for a fixed table: a few rounds of a knapsack over the groups' saving curves,
/// each curve measured against the other groups' current sizes. Returns (groups, bytes).
fn allocate(needs: &BTreeMap<Need, u32>, table: &[u8], budget: usize) -> (Vec<(u8, u8)>, usize) {
    let base = build_space(table, &[], &[]);
    // Every group some need could use.
    let mut all: Vec<u8> = Vec::new();
    for n in needs.keys() {
        for (kind, colexc) in candidates(*n) {
            let d = descriptor(n.class, kind, n.sym == PASS_SYM, colexc);
            if !all.contains(&d) {
                all.push(d);
            }
        }
    }
    all.sort_unstable();
    let cost_of = |groups: &[(u8, u8)]| -> (usize, Space) {
        let s = build_space(table, groups, &[]);
        // Plain classes have fixed count bytes; every other group costs 2 header bytes.
        let mut c = 2 * groups.iter().filter(|g| g.0 >= 8).count();
        for (n, &k) in needs {
            c += k as usize * s.best(*n).1;
        }
        (c, s)
    };
    let mut groups: Vec<(u8, u8)> = Vec::new();
    let (mut best_cost, mut space) = cost_of(&groups);
    let mut best_groups = groups.clone();
    // Which needs each group can take, at what cost (an index, so a round is linear).
    let mut takers: Vec<Vec<(Need, u32, usize, usize)>> = vec![Vec::new(); all.len()];
    for (n, &k) in needs {
        for (kind, colexc) in candidates(*n) {
            let d = descriptor(n.class, kind, n.sym == PASS_SYM, colexc);
            let g = all
                .binary_search(&d)
                .expect("every candidate group is listed");
            let via = 1 + (kind != n.kind) as usize + (colexc != n.colexc) as usize;
            takers[g].push((*n, k, via, base.sym_rank(n.sym)));
        }
    }
    for _round in 0..3 {
        // Saving curves: curve[g][r] = bytes saved by the needs of rank r that group g takes.
        let mut curves: Vec<Vec<i64>> = Vec::with_capacity(all.len());
        for (gi, &d) in all.iter().enumerate() {
            let pass = d & 0x40 != 0;
            let mut gain = vec![0i64; if pass { 2 } else { 257.min(budget + 1) }];
            let len = gain.len() - 1;
            for &(n, k, via, r) in &takers[gi] {
                if r >= len {
                    continue;
                }
                let saved = space.best_without(n, Some(d)).1.saturating_sub(via);
                gain[r + 1] += saved as i64 * k as i64;
            }
            for r in 0..len {
                gain[r + 1] += gain[r];
            }
            // Codes past the last rank that saves anything are worth nothing.
            let last = (0..=len).rev().find(|&r| r == 0 || gain[r] != gain[r - 1]);
            gain.truncate(last.unwrap_or(0) + 1);
            curves.push(gain);
        }
        // Knapsack: each extra group in use costs its 2 header bytes.
        let g = all.len();
        let mut dp = vec![vec![i64::MIN / 4; budget + 1]; g + 1];
        dp[0].iter_mut().for_each(|v| *v = 0);
        let mut pick = vec![vec![0u16; budget + 1]; g];
        for (i, curve) in curves.iter().enumerate() {
            let header = if all[i] >= 8 { 2 } else { 0 };
            // Only sizes just past a saving can be best (dp grows with the budget).
            let steps: Vec<usize> = (1..curve.len())
                .filter(|&n| curve[n] != curve[n - 1])
                .collect();
            for b in 0..=budget {
                let (mut bv, mut bn) = (dp[i][b], 0usize);
                for &n in steps.iter().take_while(|&&n| n <= b) {
                    let v = dp[i][b - n] + curve[n] - header;
                    if v > bv {
                        (bv, bn) = (v, n);
                    }
                }
                dp[i + 1][b] = bv;
                pick[i][b] = bn as u16;
            }
        }
        let mut b = budget;
        let mut sizes = vec![0usize; g];
        for i in (0..g).rev() {
            sizes[i] = pick[i][b] as usize;
            b -= sizes[i];
        }
        groups = all
            .iter()
            .zip(&sizes)
            .filter(|(_, n)| **n > 0)
            .map(|(&d, &n)| (d, n as u8))
            .collect();
        let (c, s) = cost_of(&groups);
        space = s;
        if c < best_cost {
            best_cost = c;
            best_groups = groups.clone();
        } else {
            break;
        }
    }
    (best_groups, best_cost)
}

/// Main part of every entry, given the space and the pair roles.
fn mains(plan: &[PEntry<'_>], wants: &[bool], space: &Space, role: &[u8]) -> Vec<Main> {
    plan.iter()
        .enumerate()
        .map(|(i, p)| {
            if role[i] == 1 {
                let key = (
                    plain_point(p).expect("pair first"),
                    plain_point(&plan[i + 1]).expect("pair second"),
                    pair_group(p, &plan[i + 1]),
                );
                return Main::PairFirst(space.pairs[&key]);
            }
            if role[i] == 2 {
                return Main::PairSecond;
            }
            match &p.edge.step {
                Step::Setup(_) => Main::Setup,
                Step::Move(_) => match need_of(p, wants[i]) {
                    Some(n) => space.best(n).0,
                    None => Main::Far,
                },
            }
        })
        .collect()
}

/// Bytes of the entry without the pointer and skip values (the pointer's prefix included).
fn fixed_size(p: &PEntry<'_>, main: Main) -> usize {
    let (kind, colexc) = match &p.edge.step {
        Step::Move(m) => (m.kind != MoveType::Normal, p.colour_exception()),
        Step::Setup(_) => (false, false),
    };
    let mut n = p.ptr_target.is_some() as usize;
    if let Step::Move(m) = &p.edge.step {
        n += m.symmetric as usize + m.colour_reverse as usize;
    }
    n + match main {
        Main::Code { kind, colexc, .. } => 1 + (kind != 0) as usize + colexc as usize,
        Main::Esc => 2 + kind as usize + colexc as usize,
        Main::Far => 3 + kind as usize + colexc as usize,
        Main::Setup => match &p.edge.step {
            Step::Setup(s) => 1 + varint_len(s.len() as u64) + 2 * s.len(),
            Step::Move(_) => unreachable!("setup main on a move"),
        },
        Main::PairFirst(_) => 1,
        Main::PairSecond => 0,
    }
}

/// Encode `plan` after a header whose version byte is `out[2]`: the smallest of version 3
/// (bytes) and, without skip fields, version 4 (the same entries Huffman coded), over the
/// candidate code spaces (ties: version 3). Sets `out[2]` to the version written.
/// `huffman`: version 4 may be written (`false`: version 3 only).
pub(crate) fn encode(plan: &[PEntry<'_>], out: &mut Vec<u8>, skip_min: usize, huffman: bool) {
    let wants: Vec<bool> = plan
        .iter()
        .map(|p| p.has_sibling && p.inline() && p.subtree_entries >= skip_min)
        .collect();
    let coded = huffman && wants.iter().all(|w| !w);
    let mut best: Option<(Vec<u8>, u8)> = None;
    for (space, table, groups) in choose_space(plan, &wants) {
        for v4 in [false, coded] {
            let mut blob = Vec::new();
            emit(plan, &wants, &space, &table, &groups, &mut blob, v4);
            if best.as_ref().is_none_or(|b| blob.len() < b.0.len()) {
                best = Some((blob, if v4 { HUFFMAN_VERSION } else { 3 }));
            }
            if !coded {
                break;
            }
        }
    }
    let (blob, version) = best.expect("at least one code space");
    out[2] = version;
    out.extend_from_slice(&blob);
}

/// Measuring only: encode `test` with the code space (explicit table, groups, pairs) that the
/// encoder chooses for `train`, as if that space shipped with the program. The blob is valid
/// (it carries the space as usual). Returns the blob body and the bytes of its code space.
pub(crate) fn encode_with_space_of(
    train: &[PEntry<'_>],
    test: &[PEntry<'_>],
    skip_min: usize,
    out: &mut Vec<u8>,
) -> usize {
    let wants_of = |plan: &[PEntry<'_>]| -> Vec<bool> {
        plan.iter()
            .map(|p| p.has_sibling && p.inline() && p.subtree_entries >= skip_min)
            .collect()
    };
    let wants = wants_of(train);
    let mut best: Option<(usize, CodeSpace)> = None;
    for cand in choose_space(train, &wants) {
        let mut blob = Vec::new();
        emit(train, &wants, &cand.0, &cand.1, &cand.2, &mut blob, false);
        if best.as_ref().is_none_or(|b| blob.len() < b.0) {
            best = Some((blob.len(), cand));
        }
    }
    let (_, (space, table, groups)) = best.expect("at least one code space");
    emit(test, &wants_of(test), &space, &table, &groups, out, false);
    let extra = groups.iter().filter(|g| g.0 >= 5).count();
    1 + table.len() + CLASSES + 1 + 2 * extra + 2 * space.pairs.len()
}

/// One piece of an entry as written: a symbol (Huffman coded in version 4), the pointer or
/// skip value (sized by the layout loop), or raw bytes (setup count and stones).
enum Tok<'a> {
    Sym(u8),
    Ptr,
    Skip,
    Raw(Vec<u8>),
    Stones(&'a [crate::model::SetupStone]),
}

/// The pieces of entry `p` with main part `main`, in order.
fn tokens<'a>(p: &'a PEntry<'_>, main: Main, class: u8, skip: bool) -> Vec<Tok<'a>> {
    let mut t = Vec::with_capacity(4);
    if let Step::Move(m) = &p.edge.step {
        let (kind, colexc) = match main {
            Main::Code { kind, colexc, .. } => (kind, colexc),
            Main::PairFirst(_) | Main::PairSecond => (0, false),
            _ => (m.kind.bits(), p.colour_exception()),
        };
        if kind != 0 {
            t.push(Tok::Sym(TYPE + kind));
        }
        if colexc {
            t.push(Tok::Sym(COLEXC));
        }
        if m.symmetric {
            t.push(Tok::Sym(SYM));
        }
        if m.colour_reverse {
            t.push(Tok::Sym(REV));
        }
    }
    if p.ptr_target.is_some() {
        t.extend([Tok::Sym(PTR), Tok::Ptr]);
    }
    match (main, &p.edge.step) {
        (Main::Setup, Step::Setup(stones)) => {
            let mut n = Vec::new();
            write_varint(&mut n, stones.len() as u64, varint_len(stones.len() as u64));
            t.extend([Tok::Sym(SETUP + class), Tok::Raw(n), Tok::Stones(stones)]);
        }
        (Main::Code { code, .. } | Main::PairFirst(code), _) => t.push(Tok::Sym(code)),
        (Main::PairSecond, _) => {}
        (Main::Esc, Step::Move(m)) => t.extend([
            Tok::Sym(ESC + class),
            Tok::Sym(small_point(m.point).expect("small")),
        ]),
        (Main::Far, Step::Move(m)) => {
            let (x, y) = match m.point {
                Point::Pass => (0, 0),
                Point::At { x, y } => (x, y),
            };
            t.extend([Tok::Sym(FAR + class), Tok::Sym(x), Tok::Sym(y)]);
        }
        _ => unreachable!("main part matches the step"),
    }
    if skip {
        t.push(Tok::Skip);
    }
    t
}

/// Write the code space and the entries: bytes (version 3), or Huffman-coded symbols and raw
/// 8-bit groups after the code lengths (`v4`, no skip fields; positions are bits).
fn emit(
    plan: &[PEntry<'_>],
    wants: &[bool],
    space: &Space,
    table: &[u8],
    groups: &[(u8, u8)],
    out: &mut Vec<u8>,
    v4: bool,
) {
    out.push(table.len() as u8);
    out.extend_from_slice(table);
    for c in 0..CLASSES as u8 {
        out.push(groups.iter().find(|g| g.0 == c).map_or(0, |g| g.1));
    }
    let extra: Vec<(u8, u8)> = groups.iter().copied().filter(|g| g.0 >= 5).collect();
    out.push(extra.len() as u8);
    for (d, n) in extra {
        out.extend_from_slice(&[d, n]);
    }
    let mut by_code: Vec<(u8, (u8, u8, u8))> = space.pairs.iter().map(|(k, v)| (*v, *k)).collect();
    by_code.sort_unstable();
    for (_, (a, b, _)) in &by_code {
        out.extend_from_slice(&[*a, *b]);
    }
    let mut targeted = vec![false; plan.len() + 1];
    for p in plan {
        if let Some(t) = p.ptr_target {
            targeted[t] = true;
        }
    }
    let role = parse_pairs(&pair_candidates(plan, &targeted, wants), &space.pairs);
    let mains = mains(plan, wants, space, &role);
    let toks: Vec<Vec<Tok>> = plan
        .iter()
        .enumerate()
        .map(|(i, p)| tokens(p, mains[i], class_of(p, wants[i]) as u8, wants[i]))
        .collect();
    // Bits per symbol: 8 (version 3), or the Huffman code's length.
    let mut code: [(u16, u8); 256] = std::array::from_fn(|c| (c as u16, 8));
    let mut w = huffman::BitWriter::default();
    if v4 {
        let mut freq = [0u64; 256];
        for t in toks.iter().flatten() {
            if let Tok::Sym(c) = t {
                freq[*c as usize] += 1;
            }
        }
        let lens = huffman::lengths(&freq);
        code = huffman::codes(&lens);
        huffman::write_lengths(&mut w, &lens);
    }
    let unit = if v4 { 1 } else { 8 };
    let fixed: Vec<usize> = toks
        .iter()
        .map(|t| {
            t.iter()
                .map(|t| match t {
                    Tok::Sym(c) => code[*c as usize].1 as usize,
                    Tok::Raw(b) => 8 * b.len(),
                    Tok::Stones(s) => 16 * s.len(),
                    Tok::Ptr | Tok::Skip => 0,
                })
                .sum::<usize>()
                / unit
        })
        .collect();
    debug_assert!(
        v4 || plan
            .iter()
            .zip(&mains)
            .zip(&fixed)
            .all(|((p, &m), &f)| fixed_size(p, m) == f)
    );
    let vw = |v: u64| (varint_len(v) * 8 / unit) as u8;
    let (pos, widths) = layout(plan, &fixed, wants, vw, vw);
    let mut bytes = Vec::new();
    let base = w.bits();
    for (i, t) in toks.iter().enumerate() {
        debug_assert_eq!(w.bits() - base, pos[i] * unit);
        for t in t {
            bytes.clear();
            match t {
                Tok::Sym(c) => {
                    let (c, n) = code[*c as usize];
                    w.push(c as u32, n as u32);
                    continue;
                }
                Tok::Raw(b) => bytes.extend_from_slice(b),
                Tok::Stones(s) => write_stones(&mut bytes, s),
                Tok::Ptr => {
                    let t = plan[i].ptr_target.expect("a pointer");
                    let width = widths[i].ptr as usize * unit / 8;
                    write_varint(&mut bytes, (pos[i] - pos[t]) as u64, width);
                }
                Tok::Skip => {
                    let v = skip_value(plan, &pos, &widths, &fixed, i);
                    write_varint(&mut bytes, v, widths[i].skip as usize);
                }
            }
            for &b in &bytes {
                w.push(b as u32, 8);
            }
        }
    }
    w.align();
    out.extend_from_slice(&w.out);
}

/// What the main part of an entry is (for `stats::entry_classes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MainKind {
    /// A table code of a plain single group (normal type, a point, no colour exception).
    Code,
    /// A table code of a group with a type, the pass or a colour exception in it.
    GroupCode,
    /// A 2-move pair code.
    Pair,
    Escape,
    Far,
    Setup,
}

/// How the bytes of the entry at `pos` split: prefixes (type, colour exception, symmetric,
/// colour-reverse), the pointer (prefix and value), the main part and the skip field.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts {
    pub prefix: usize,
    pub pointer: usize,
    pub main_kind: MainKind,
    pub skip: usize,
}

/// Sizes are in the blob's positions (bytes, or bits in version 4).
pub(crate) fn parts(l: &Layout<'_>, pos: usize) -> Result<Parts, DecodeError> {
    let e = read(l, pos)?;
    let (mut p, mut prefix, mut pointer) = (pos, 0, 0);
    let (code, after) = loop {
        match symbol(l, p) {
            Some((c, next)) if c > TYPE && c < PTR => {
                prefix += next - p;
                p = next;
            }
            Some((PTR, next)) => {
                let (_, q) = varint(l, next)?;
                pointer += q - p;
                p = q;
            }
            Some(c) => break c,
            None => return err(p, "truncated entry"),
        }
    };
    let main_kind = if l.code_class[code as usize] != 0xFF {
        let d = l.code_ext[code as usize];
        if d & 7 >= PAIR_CHAIN {
            MainKind::Pair
        } else if d & !7 != 0 {
            MainKind::GroupCode
        } else {
            MainKind::Code
        }
    } else if (ESC..FAR).contains(&code) {
        MainKind::Escape
    } else if (FAR..SETUP).contains(&code) {
        MainKind::Far
    } else {
        MainKind::Setup
    };
    // The main part runs to the skip field (class 4, version 3) or the end of the entry.
    let main_end = match (main_kind, e.skip) {
        (MainKind::Setup, _) => {
            let (at, n) = e.setup.expect("a setup code");
            at + l.stone_width() * n
        }
        (_, Some(_)) => {
            let mut q = after;
            for _ in 0..[0, 1, 2, 0][(code >= ESC) as usize + (code >= FAR) as usize] {
                q = symbol(l, q).map_or(q, |s| s.1);
            }
            q
        }
        _ => e.end,
    };
    Ok(Parts {
        prefix,
        pointer,
        main_kind,
        skip: e.end - main_end,
    })
}

/// Where the entry's first symbol ends (an entry of one symbol ends there).
pub(crate) fn first_symbol_end(l: &Layout<'_>, pos: usize) -> Option<usize> {
    symbol(l, pos).map(|s| s.1)
}

// ---------------------------------------------------------------------------------------------
// Decoder

/// The symbol at `pos` and the position after it: a byte (versions 1-3) or a Huffman code
/// (version 4, positions in bits).
#[inline(always)]
fn symbol(l: &Layout<'_>, pos: usize) -> Option<(u8, usize)> {
    match &l.huff {
        None => l.bytes.get(pos).map(|&c| (c, pos + 1)),
        Some(d) => d.symbol(l.bytes, pos),
    }
}

/// A LEB128 value at `pos`: bytes, or raw 8-bit groups (version 4).
fn varint(l: &Layout<'_>, pos: usize) -> Result<(u64, usize), DecodeError> {
    match &l.huff {
        None => read_varint(l.bytes, pos),
        Some(_) => huffman::read_raw_varint(l.bytes, pos),
    }
}

#[inline]
pub(crate) fn read(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
    if super::is_virtual(pos) {
        return read_second(l, pos & !VIRTUAL);
    }
    let b = l.bytes;
    // Fast path: a one-symbol plain entry of classes 0-3.
    if let Some((c0, after)) = symbol(l, pos) {
        let class = l.code_class[c0 as usize];
        // Class 4 with a one-byte skip field is as common on lookup paths as plain entries
        // (version 4 has no class 4).
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
                end: after + skip.is_some() as usize,
            });
        }
    }
    read_slow(l, pos)
}

/// The second move of the pair code at `at`: no bytes of its own, no sibling, its children
/// (if any) right after the code.
fn read_second(l: &Layout<'_>, at: usize) -> Result<RawEntry, DecodeError> {
    let Some((c, after)) = symbol(l, at) else {
        return err(at, "virtual position outside the blob");
    };
    let d = l.code_ext[c as usize];
    if d == 0xFF || d & 7 < PAIR_CHAIN {
        return err(at, "virtual position on no pair code");
    }
    Ok(RawEntry {
        start: after,
        point: super::from_small(l.code_second[c as usize]),
        colour_exception: false,
        kind: MoveType::Normal,
        symmetric: false,
        reverse: false,
        setup: None,
        has_sibling: false,
        has_child: d & 7 == PAIR_CHAIN,
        ptr: None,
        skip: None,
        end: after,
    })
}

fn read_slow(l: &Layout<'_>, pos: usize) -> Result<RawEntry, DecodeError> {
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
        let Some((c, next)) = symbol(l, p) else {
            return err(p, "truncated entry");
        };
        let at = p;
        p = next;
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
                let (v, q) = varint(l, p)?;
                if v == 0 || v > pos as u64 {
                    return err(p, "pointer outside the blob");
                }
                p = q;
                e.ptr = Some(pos - v as usize);
                16
            }
            _ => break (c, at),
        };
        if seen & bit != 0 {
            return err(at, "repeated prefix");
        }
        seen |= bit;
    };
    let (code, code_at) = code;
    let class = if l.code_class[code as usize] != 0xFF {
        let d = l.code_ext[code as usize];
        e.point = super::from_small(l.code_point[code as usize]);
        if d & 7 >= PAIR_CHAIN {
            if seen != 0 {
                return err(pos, "prefix on a pair code");
            }
            e.has_child = true;
            e.has_sibling = d & PAIR_SIBLING != 0;
            e.ptr = Some(VIRTUAL | code_at);
            e.end = p;
            return Ok(e);
        }
        let kind = (d >> 3) & 7;
        if kind != 0 {
            if seen & 1 != 0 {
                return err(pos, "type prefix on a typed code");
            }
            e.kind = MoveType::from_bits(kind);
        }
        if d & 0x80 != 0 {
            if seen & 2 != 0 {
                return err(pos, "colour-exception prefix on a colour-exception code");
            }
            e.colour_exception = true;
        }
        if d & 0x40 != 0 {
            e.point = Point::Pass;
        }
        (d & 7) as usize
    } else if (ESC..FAR).contains(&code) {
        let Some((q, next)) = symbol(l, p) else {
            return err(p, "truncated point");
        };
        p = next;
        e.point = super::from_small(q);
        (code - ESC) as usize
    } else if (FAR..SETUP).contains(&code) {
        let (Some((x, q)), at) = (symbol(l, p), p) else {
            return err(p, "truncated point");
        };
        let Some((y, q)) = symbol(l, q) else {
            return err(p, "truncated point");
        };
        let (pt, bits) = far_of(x, y, at)?;
        if bits != 0 {
            return err(at, "unexpected bits in a far point");
        }
        p = q;
        e.point = pt;
        (code - FAR) as usize
    } else if (SETUP..SETUP + CLASSES as u8).contains(&code) {
        if seen != 0 && seen != 16 {
            return err(pos, "move prefixes on a setup entry");
        }
        let (n, q) = varint(l, p)?;
        let n = n as usize;
        if n > 25 * 25 || q + l.stone_width() * n > l.limit() {
            return err(p, "bad setup stone count");
        }
        e.setup = Some((q, n));
        p = q + l.stone_width() * n;
        (code - SETUP) as usize
    } else {
        return err(code_at, "unused code");
    };
    (e.has_sibling, e.has_child) = CLASS_BITS[class];
    if e.ptr.is_some() && (!e.has_child || class == 4) {
        return err(pos, "pointer on an entry without a child list of its own");
    }
    if class == 4 {
        let (v, q) = read_varint(l.bytes, p)?;
        p = q;
        let next = p as u64 + v;
        if next > l.bytes.len() as u64 {
            return err(pos, "skip field beyond the blob");
        }
        e.skip = Some(next as usize);
    }
    e.end = p;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::decode;
    use crate::model::Step;

    fn first_points(bytes: &[u8]) -> Vec<Point> {
        let t = decode(bytes).expect("a valid blob");
        let mut v = 0usize;
        let mut out = Vec::new();
        while let Some(e) = t.vertices()[v].edges.first() {
            let Step::Move(m) = &e.step else { break };
            out.push(m.point);
            v = e.to as usize;
        }
        out
    }

    #[test]
    fn version_1_blobs_still_decode_with_their_own_generic_order() {
        let (v1, v2) = (generic_order_v1(), generic_order());
        let r = (0..256)
            .find(|&r| v1[r] != v2[r])
            .expect("the orders differ");
        // Table (3,3) (4,4); class 0 codes: table, then the v1 generic order up to rank r;
        // class 2: (3,3) only. Line: code r (class 0), code r+1 (class 2, leaf).
        let mut blob = vec![b'L', b'J', 1, 1, 2, 2, 0x22, 0x33];
        blob.extend_from_slice(&[r as u8 + 1, 0, 1, 0, 0]);
        blob.extend_from_slice(&[r as u8, r as u8 + 1]);
        let want = super::super::from_small(full_order_from(&[0x22, 0x33], v1)[r]);
        assert_eq!(first_points(&blob), vec![want, Point::at(3, 3)]);
        // The same bytes as version 2 are not a valid group list.
        blob[2] = 2;
        assert!(decode(&blob).is_err());
    }

    #[test]
    fn pair_codes_reject_misuse_with_offsets() {
        // Version 2: no table; one plain class-2 code (order[0]); one extra pair-chain group
        // of 1 code, pair (4,4) -> (3,3). The line: pair code 1, then the leaf code 0.
        let head = vec![
            b'L', b'J', 2, 1, 3, 0, 0, 0, 1, 0, 0, 1, PAIR_CHAIN, 1, 0x33, 0x22,
        ];
        let mut ok = head.clone();
        ok.extend_from_slice(&[1, 0]);
        let order0 = super::super::from_small(generic_order()[0]);
        assert_eq!(
            first_points(&ok),
            vec![Point::at(4, 4), Point::at(3, 3), order0]
        );
        // A prefix on a pair code.
        let mut bad = head.clone();
        bad.extend_from_slice(&[TYPE + 1, 1, 0]);
        let e = decode(&bad).unwrap_err();
        assert_eq!((e.offset, e.reason), (16, "prefix on a pair code"));
        // A pair group with a type bit, a plain group among the extras, a pass group of two.
        for (d, n, reason) in [
            (PAIR_CHAIN | 8, 1, "bad group descriptor"),
            (2, 1, "bad group descriptor"),
            (0x40 | 2, 2, "a pass group has one code at most"),
        ] {
            let mut bad = ok.clone();
            (bad[12], bad[13]) = (d, n);
            assert_eq!(decode(&bad).unwrap_err().reason, reason, "{d:#x} {n}");
        }
        // The walker-facing reader: a virtual position on a plain code is an error.
        let l = super::super::parse_header(&ok).unwrap();
        assert!(read(&l, VIRTUAL | 17).is_err());
        let first = read(&l, 16).unwrap();
        assert_eq!(first.children(), Some(VIRTUAL | 16));
        let second = read(&l, VIRTUAL | 16).unwrap();
        assert_eq!(
            (second.start, second.end, second.point),
            (17, 17, Point::at(3, 3))
        );
        assert!(second.has_child && !second.has_sibling);
    }

    #[test]
    fn typed_codes_and_prefixes_do_not_double_up() {
        // One extra urgent class-2 group: code 0 is an urgent leaf at order[0].
        let mut blob = vec![b'L', b'J', 2, 1, 1, 0, 0, 0, 0, 0, 0, 1, 2 | 1 << 3, 1];
        blob.push(0);
        let t = decode(&blob).unwrap();
        let Step::Move(m) = &t.vertices()[0].edges[0].step else {
            panic!("a move")
        };
        assert_eq!(m.kind, MoveType::Urgent);
        blob.insert(14, TYPE + 2);
        assert_eq!(
            decode(&blob).unwrap_err().reason,
            "type prefix on a typed code"
        );
    }
}
