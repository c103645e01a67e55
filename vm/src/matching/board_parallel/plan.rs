//! A per-class scan plan: the board-parallel scan's per-entry work done once, on the caller's
//! side (`alloc`), instead of at every scan.
//!
//! Every oriented entry of the class becomes a list of plane keys `(dx, dy, allowed)` (its
//! cells through its orientation, or its packed absence masks; two constraints on one point
//! merged). The lists are merged into a trie built greedily: the key held by the most entries
//! (weighted by how selective it is) heads a branch shared by all of them, as GNU Go's DFA
//! shares its transitions; a node ANDs the keys all its entries still need (most selective
//! first), and a branch whose candidate set empties is skipped whole. The trie is flattened in
//! preorder (each node knows where its subtree ends) so the scan walks it with one loop and a
//! small stack of candidate sets in [`super::ScanScratch`]: still no allocation per scan.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::compact::CompactKeys;
use super::{
    Area, CACHED, ENTRY_BITS, Filter, HITS, KEYS, MATRIX, SIDE, STACK, packed_constraints,
};
use crate::board::BoardView;
use crate::geometry::Orientation;
use crate::matching::dispatch::{self, Keys};
use crate::matching::{
    HitBuf, Host, Match, MatchBuf, Query, Scratch, Sink, map_result, reported_orientation,
};
use crate::rom::{ClassId, ClassInfo, Item as RomItem, Kernel, Mode, RawResult, Rom};

/// `Key::cache` of an offset outside the plane cache (its directory entry stays empty).
pub(super) const UNCACHED: u16 = KEYS as u16;

/// One plane: "the point at `anchor + (dx, dy)` is in `allowed`" (bit 0 friend, 1 foe,
/// 2 empty, 3 off), with its plane-cache index precomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key {
    pub dx: i8,
    pub dy: i8,
    pub allowed: u8,
    pub cache: u16,
}

/// A trie node in preorder: ANDs `keys[k0..k1]` into its parent's set; entries `e0..e1`
/// end here; its subtree ends before node `skip`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub k0: u32,
    pub k1: u32,
    pub e0: u32,
    pub e1: u32,
    pub skip: u32,
    pub depth: u8,
}

/// The board-parallel scan of one class, prepared from a ROM (see the module docs). Build it
/// once per class with [`ScanPlan::new`] and reuse it for every scan of that class
/// ([`ScanPlan::scan`]); it gives the same matches in the same order as [`Rom::scan`].
#[derive(Clone, Debug)]
pub struct ScanPlan {
    pub(super) class: ClassId,
    /// What ties the plan to its ROM: source hash, total entries, class first entry and count.
    pub(super) fingerprint: (u64, usize, u32, u32),
    pub(super) keys: Vec<Key>,
    pub(super) nodes: Vec<Node>,
    /// Entries ending at each node: index relative to the class, covers.
    pub(super) entries: Vec<(u32, u8)>,
    /// The keys numbered densely for scans over the foci alone (`None`: keys out of reach).
    pub(super) compact: Option<CompactKeys>,
    /// Per entry (index relative to the class), what its match is, when the class program
    /// reduces to "every geometric hit is a match" ([`plain_facts`]); `None` otherwise.
    pub(super) plain: Option<Vec<Fact>>,
}

/// What a geometric hit of one entry reports in a plain class (see [`plain_facts`]): the
/// pattern's record read once at [`ScanPlan::new`] instead of at every match.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fact {
    /// Pattern index in the ROM.
    pub p: u32,
    /// `PatternSpec::id`.
    pub id: u32,
    pub priority: i32,
    pub result: RawResult,
    /// The entry's orientation and covers.
    pub o: u8,
    pub cov: u8,
    /// The entry reports nothing (in no run, or a pattern without a result).
    pub skip: bool,
}

impl Fact {
    /// Whether the entry's hit reports a match where the query allows the orientations
    /// `qmask` ([`put_plain`] writes it then, and only then).
    #[inline(always)]
    pub(crate) fn reports(&self, qmask: u8) -> bool {
        !self.skip && self.cov & qmask != 0
    }
}

/// The facts of a class whose program, on the hits of one focus, only turns each hit into its
/// match in entry order: mode `all`, no default, only runs (no globs) in ascending entry
/// order, no tests, no rejects. `None` for any other class (its survivors take the class
/// program).
pub(crate) fn plain_facts(rom: &Rom<'_>, info: &ClassInfo<'_>) -> Option<Vec<Fact>> {
    if info.mode() != Mode::All || info.default_value().is_some() {
        return None;
    }
    let (first, count) = (info.first_entry(), info.entry_count());
    let mut in_run = alloc::vec![false; count as usize];
    let mut last = first;
    for item in info.items() {
        let RomItem::Run { first: e0, end } = item else {
            return None;
        };
        if e0 < last || end > first + count {
            return None;
        }
        in_run[(e0 - first) as usize..(end - first) as usize].fill(true);
        last = end.max(e0);
    }
    let mut facts = Vec::with_capacity(count as usize);
    for (r, &run) in in_run.iter().enumerate() {
        let (p, o, cov) = rom.entry(first + r as u32);
        let pat = rom.pattern(p);
        if pat.tests().next().is_some() {
            return None;
        }
        let result = pat.result();
        if matches!(result, Some(RawResult::Reject { .. })) {
            return None;
        }
        facts.push(Fact {
            p,
            id: pat.id(),
            priority: pat.priority(),
            result: result.unwrap_or(RawResult::Value { value: 0, bits: 0 }),
            o: o & 7,
            cov,
            skip: !run || result.is_none(),
        });
    }
    Some(facts)
}

/// A constraint `(dx, dy, allowed)`.
pub(super) type Cell = (i8, i8, u8);

/// Estimated share of foci (of 1000) passing a key on a 19x19 board in a typical position
/// (a fifth of the points friend, a fifth foe): the global key order, most selective first.
pub(super) fn pass_rate(dx: i8, dy: i8, allowed: u8) -> u32 {
    let on = |d: i8| 19u32.saturating_sub(d.unsigned_abs() as u32);
    let on = on(dx) * on(dy) * 1000 / 361;
    let state = [220, 220, 560];
    let mut p = 0;
    for (k, w) in state.iter().enumerate() {
        if allowed & (1 << k) != 0 {
            p += on * w / 1000;
        }
    }
    if allowed & 8 != 0 {
        p += 1000 - on;
    }
    p
}

/// Per entry of a class (index relative to the class), its constraints merged and sorted by
/// offset, and its covers; entries that can never match are left out.
pub(super) fn entry_lists(rom: &Rom<'_>, info: &ClassInfo<'_>) -> Vec<(Vec<Cell>, u32, u8)> {
    let (first, count) = (info.first_entry(), info.entry_count());
    let packed = info.kernel() == Kernel::Packed;
    // Per entry: its merged constraints, sorted by offset.
    let mut lists: Vec<(Vec<Cell>, u32, u8)> = Vec::new();
    let mut cells: Vec<(i8, i8, u8)> = Vec::new();
    for r in 0..count {
        let (p, o, cov) = rom.entry(first + r);
        cells.clear();
        if packed {
            let masks = rom.entry_masks(info, first + r);
            packed_constraints(masks, info.words(), |dx, dy, allowed| {
                cells.push((dx as i8, dy as i8, allowed));
                true
            });
        } else {
            let [ax, ay, bx, by] =
                MATRIX[Orientation::new(o).unwrap_or(Orientation::IDENTITY).index() as usize];
            for (dx, dy, allowed) in rom.pattern(p).cells() {
                let (dx, dy) = (dx as i32, dy as i32);
                let (x, y) = (ax * dx + bx * dy, ay * dx + by * dy);
                cells.push((x as i8, y as i8, allowed & 0xF));
            }
        }
        cells.sort_unstable_by_key(|&(dx, dy, _)| (dx, dy));
        let mut merged: Vec<(i8, i8, u8)> = Vec::with_capacity(cells.len());
        for &(dx, dy, a) in &cells {
            match merged.last_mut() {
                Some(m) if (m.0, m.1) == (dx, dy) => m.2 &= a,
                _ => merged.push((dx, dy, a)),
            }
        }
        merged.retain(|c| c.2 != 0xF);
        // A point allowed in no state: the entry never matches.
        if merged.iter().any(|c| c.2 == 0) {
            continue;
        }
        lists.push((merged, r, cov));
    }
    lists
}

/// The trie of the entries `lists` (see the module docs): its keys, nodes in preorder and
/// the entries ending at each node (the `u32` as given in `lists`, covers).
pub(super) fn trie(lists: Vec<(Vec<Cell>, u32, u8)>) -> (Vec<Key>, Vec<Node>, Vec<(u32, u8)>) {
    // The global key order: estimated pass rate, then the most shared first.
    let mut uses: BTreeMap<(i8, i8, u8), u32> = BTreeMap::new();
    for (l, _, _) in &lists {
        for &c in l {
            *uses.entry(c).or_insert(0) += 1;
        }
    }
    let mut order: Vec<((u32, u32, Cell), Cell)> = uses
        .iter()
        .map(|(&c, &n)| ((pass_rate(c.0, c.1, c.2) / 50, u32::MAX - n, c), c))
        .collect();
    order.sort_unstable();
    let rank: BTreeMap<(i8, i8, u8), u32> = order
        .iter()
        .enumerate()
        .map(|(i, &(_, c))| (c, i as u32))
        .collect();
    let keys: Vec<Key> = order
        .iter()
        .map(|&(_, (dx, dy, allowed))| {
            let (x, y) = (dx as i32, dy as i32);
            let cache = if x.abs() <= CACHED && y.abs() <= CACHED {
                ((((y + CACHED) as usize * SIDE + (x + CACHED) as usize) << 4) | allowed as usize)
                    as u16
            } else {
                UNCACHED
            };
            Key {
                dx,
                dy,
                allowed,
                cache,
            }
        })
        .collect();
    let items: Vec<Item> = lists
        .into_iter()
        .map(|(l, r, cov)| {
            let mut ks: Vec<u32> = l.iter().map(|c| rank[c]).collect();
            ks.sort_unstable();
            (ks, r, cov)
        })
        .collect();
    // A branch key is worth its holders times its estimated rejection rate (measured on
    // the GNU Go bench: 20 % faster scans than holders alone, ahead of higher powers).
    let weight = keys
        .iter()
        .map(|k| 1001 - pass_rate(k.dx, k.dy, k.allowed) as u64)
        .collect();
    let mut b = Builder {
        keys: Vec::new(),
        nodes: Vec::new(),
        entries: Vec::new(),
        weight,
    };
    b.node(items, 0);
    // Key ids become the keys themselves.
    let plan_keys: Vec<Key> = b.keys.iter().map(|&k| keys[k as usize]).collect();
    (plan_keys, b.nodes, b.entries)
}

impl ScanPlan {
    /// The plan of class `class` of `rom`; `None` when there is no such class.
    pub fn new(rom: &Rom<'_>, class: ClassId) -> Option<ScanPlan> {
        let info = rom.class(class)?;
        let (first, count) = (info.first_entry(), info.entry_count());
        let (plan_keys, nodes, entries) = trie(entry_lists(rom, &info));
        let compact = CompactKeys::new(&plan_keys, &nodes, &entries);
        let plain = plain_facts(rom, &info);
        Some(ScanPlan {
            class,
            fingerprint: fingerprint(rom, first, count),
            keys: plan_keys,
            nodes,
            entries,
            compact,
            plain,
        })
    }

    /// The class this plan scans.
    pub fn class(&self) -> ClassId {
        self.class
    }

    /// Whether the plan was built from `rom` (same source hash and class layout): else its
    /// scans go to [`Rom::scan`].
    pub fn fits(&self, rom: &Rom<'_>) -> bool {
        rom.class(self.class)
            .is_some_and(|c| self.fingerprint == fingerprint(rom, c.first_entry(), c.entry_count()))
    }

    /// Trie nodes (for tests and statistics).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Whether scans over at most 128 foci walk the trie with sets over the foci alone
    /// (`docs/performance.md`, "Candidate sets over the foci"): every key within 8 points
    /// of the focus, at most 4,096 distinct keys.
    pub fn over_foci(&self) -> bool {
        self.compact.is_some()
    }

    /// Whether the survivors of its scans skip the class program (every geometric hit is a
    /// match: mode `all`, no default, globs, tests or rejects; `docs/performance.md`, "Plain
    /// classes and a cheaper walk").
    pub fn plain(&self) -> bool {
        self.plain.is_some()
    }

    /// The same plan with its survivors always taking the class program (feature
    /// `bench-internals`: the differential tests and benches compare both paths).
    #[cfg(feature = "bench-internals")]
    pub fn without_plain(mut self) -> ScanPlan {
        self.plain = None;
        self
    }

    /// The same plan with sets over the whole board only (feature `bench-internals`: the
    /// differential tests and benches compare both paths).
    #[cfg(feature = "bench-internals")]
    pub fn without_foci_sets(mut self) -> ScanPlan {
        self.compact = None;
        self
    }

    /// Plane ANDs stored in the trie, against the sum of the entries' own key counts had
    /// nothing been shared: `(shared, unshared)` (feature `bench-internals`: for statistics).
    #[cfg(feature = "bench-internals")]
    pub fn and_counts(&self) -> (usize, usize) {
        let mut unshared = 0;
        let mut path = [0usize; STACK + 2];
        for n in &self.nodes {
            let d = n.depth as usize;
            path[d + 1] = path[d] + (n.k1 - n.k0) as usize;
            unshared += path[d + 1] * (n.e1 - n.e0) as usize;
        }
        (self.keys.len(), unshared)
    }
}

pub(super) fn fingerprint(rom: &Rom<'_>, first: u32, count: u32) -> (u64, usize, u32, u32) {
    (rom.source_hash(), rom.entry_count(), first, count)
}

struct Builder {
    /// Key ids (ranks) of the nodes, concatenated.
    keys: Vec<u32>,
    nodes: Vec<Node>,
    entries: Vec<(u32, u8)>,
    /// Per key id: how much holding it counts when choosing the next branch key.
    weight: Vec<u64>,
}

/// An entry while the trie is built: its keys not yet ANDed by the ancestors (ascending key
/// ids: most selective first), index relative to the class, covers.
type Item = (Vec<u32>, u32, u8);

impl Builder {
    /// One node over `items` at trie depth `depth`: it ANDs the keys all of them hold (most
    /// selective first) and ends the entries left with no key. The others are split greedily:
    /// the key with the most holders (weighted by [`Builder::weight`]; the most selective on
    /// ties) heads a child with all that hold it, then the next among the rest, and so on; at
    /// the depth limit, one leaf per entry.
    fn node(&mut self, mut items: Vec<Item>, depth: usize) {
        let at = self.nodes.len();
        let mut common: Vec<u32> = items.first().map(|i| i.0.clone()).unwrap_or_default();
        for it in items.iter().skip(1) {
            if common.is_empty() {
                break;
            }
            common.retain(|k| it.0.binary_search(k).is_ok());
        }
        if !common.is_empty() {
            for it in &mut items {
                it.0.retain(|k| common.binary_search(k).is_err());
            }
        }
        let k0 = self.keys.len() as u32;
        self.keys.extend_from_slice(&common);
        let e0 = self.entries.len() as u32;
        let (ending, mut rest): (Vec<Item>, Vec<Item>) =
            items.into_iter().partition(|i| i.0.is_empty());
        self.entries
            .extend(ending.iter().map(|&(_, r, cov)| (r, cov)));
        self.nodes.push(Node {
            k0,
            k1: self.keys.len() as u32,
            e0,
            e1: self.entries.len() as u32,
            skip: 0,
            depth: depth as u8,
        });
        if depth + 1 >= STACK {
            for it in rest {
                self.node(alloc::vec![it], depth + 1);
            }
        } else {
            let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
            for it in &rest {
                for &k in &it.0 {
                    *counts.entry(k).or_insert(0) += 1;
                }
            }
            while !rest.is_empty() {
                // Most holders; the lowest key id (most selective) on ties.
                let w = &self.weight;
                let Some((&k, _)) = counts
                    .iter()
                    .max_by_key(|&(&k, &n)| (n as u64 * w[k as usize], u32::MAX - k))
                else {
                    break;
                };
                let (group, others): (Vec<Item>, Vec<Item>) = rest
                    .into_iter()
                    .partition(|i| i.0.binary_search(&k).is_ok());
                rest = others;
                for it in &group {
                    for k in &it.0 {
                        if let Some(n) = counts.get_mut(k) {
                            *n -= 1;
                            if *n == 0 {
                                counts.remove(k);
                            }
                        }
                    }
                }
                self.node(group, depth + 1);
            }
        }
        self.nodes[at].skip = self.nodes.len() as u32;
    }
}

impl<const N: usize> Filter<'_, N> {
    /// The pool slot of the plane of `k` (built on first use).
    #[inline(always)]
    pub(super) fn slot(&mut self, k: Key) -> usize {
        let c = k.cache as usize;
        match self.sc.dir[c] {
            0 => self.miss(
                (k.cache != UNCACHED).then_some(c),
                k.dx as i32,
                k.dy as i32,
                k.allowed,
            ),
            d => d as usize - 1,
        }
    }
}

/// The geometric hits of the plan's entries on the foci `band`, bucketed by focus (see
/// [`super::collect`]); `Err((nodes done, nodes))` when there are more than the scratch holds.
#[inline(always)]
pub(super) fn collect<const N: usize>(
    plan: &ScanPlan,
    q: &Query,
    f: &mut Filter<'_, N>,
    band: &[u64; N],
) -> Result<usize, (u64, u64)> {
    let qfilter = super::qfilter(q);
    let mut hits = 0usize;
    if band.iter().any(|&w| w != 0) {
        f.sc.stack[0][..N].copy_from_slice(band);
        let nodes = &plan.nodes;
        let mut i = 0;
        // The running candidate set, kept in registers (not behind `f`).
        let mut acc = [0u64; N];
        'nodes: while i < nodes.len() {
            let n = nodes[i];
            let d = n.depth as usize;
            acc.copy_from_slice(&f.sc.stack[d][..N]);
            for &k in &plan.keys[n.k0 as usize..n.k1 as usize] {
                let slot = f.slot(k);
                let p = &f.sc.pool[slot * N..slot * N + N];
                let mut any = 0;
                for (a, w) in acc.iter_mut().zip(p) {
                    *a &= w;
                    any |= *a;
                }
                if any == 0 {
                    i = n.skip as usize;
                    continue 'nodes;
                }
            }
            for &(r, cov) in &plan.entries[n.e0 as usize..n.e1 as usize] {
                if cov & qfilter == 0 {
                    continue;
                }
                for (w, &bits) in acc.iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        let pt = w as u32 * 64 + bits.trailing_zeros();
                        bits &= bits - 1;
                        if hits == HITS {
                            return Err((i as u64, nodes.len() as u64));
                        }
                        f.sc.raw[hits] = pt << ENTRY_BITS | r;
                        hits += 1;
                    }
                }
            }
            if n.skip as usize != i + 1 {
                f.sc.stack[d + 1][..N].copy_from_slice(&acc);
            }
            i += 1;
        }
    }
    Ok(hits)
}

/// The matches of a plain class's geometric hits `raw` (see [`plain_facts`]), as the class
/// program would give them: sorted by focus then entry, one match per hit whose covers meet
/// the query's orientations at its focus.
pub(super) fn emit_plain<O: Sink + ?Sized>(
    facts: &[Fact],
    q: &Query,
    s: i32,
    raw: &mut [u32],
    out: &mut O,
) -> usize {
    const ENTRY: u32 = (1 << ENTRY_BITS) - 1;
    raw.sort_unstable();
    let start = out.stored();
    let (mut focus, mut x, mut y, mut qmask) = (u32::MAX, 0, 0, 0u8);
    for &h in raw.iter() {
        let Some(f) = facts.get((h & ENTRY) as usize) else {
            continue;
        };
        if h >> ENTRY_BITS != focus {
            focus = h >> ENTRY_BITS;
            (x, y) = (focus as i32 % s, focus as i32 / s);
            qmask = q.orientations.mask_at(x, y);
        }
        put_plain(f, qmask, x, y, out);
    }
    out.stored() - start
}

/// The match of a plain class's hit of entry `f` at `(x, y)`, as the class program would
/// give it (`qmask`: the query's orientations there), unless it reports nothing.
#[inline(always)]
pub(crate) fn put_plain<O: Sink + ?Sized>(f: &Fact, qmask: u8, x: i32, y: i32, out: &mut O) {
    if !f.reports(qmask) {
        return;
    }
    let sel = f.cov & qmask;
    // The orientation the class program would report.
    let t = reported_orientation(f.o, sel);
    let m = Match {
        pattern: f.id,
        orientation: t,
        focus: (x, y),
        result: map_result(
            f.result,
            Orientation::new(t).unwrap_or(Orientation::IDENTITY),
            x,
            y,
        ),
        priority: f.priority,
    };
    out.put(&m, f.p);
}

impl ScanPlan {
    /// [`Rom::scan`] of `q` through the plan: the same matches in the same order. A query of
    /// another class, or a plan built from another ROM, takes [`Rom::scan`] instead.
    pub fn scan<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        self.scan_through(rom, board, host, q, Area::ALL, scratch, out)
            .unwrap_or_else(|| rom.scan(board, host, q, scratch, out))
    }

    /// The plane scan through the plan, forced (whatever the dispatch would choose): `None`,
    /// with nothing written, when the plan does not serve `q` on `rom` or the board is wider
    /// than 25. For benchmarks and tests.
    pub fn scan_parallel<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> Option<usize> {
        if q.class != self.class || !self.fits(rom) {
            return None;
        }
        let strategy = Some(dispatch::ScanKernel::Planes);
        dispatch::scan(
            Keys::Plan(self),
            strategy,
            rom,
            board,
            host,
            q,
            Area::ALL,
            scratch,
            out,
        )
    }

    /// [`ScanPlan::scan`] writing compact [`Hit`](crate::matching::Hit)s (focus, pattern,
    /// orientation) instead of full matches: the same matches in the same order, resolved
    /// only when read ([`Hit::resolve`](crate::matching::Hit::resolve)).
    pub fn scan_hits<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut HitBuf<'_>,
    ) -> usize {
        self.scan_through(rom, board, host, q, Area::ALL, scratch, out)
            .unwrap_or_else(|| rom.scan_hits(board, host, q, scratch, out))
    }

    /// [`Rom::scan_area`] of `q` through the plan (the incremental rescan after a move).
    #[allow(clippy::too_many_arguments)]
    pub fn scan_area<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        area: Area,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        self.scan_through(rom, board, host, q, area, scratch, out)
            .unwrap_or_else(|| rom.scan_area(board, host, q, area, scratch, out))
    }

    /// The scan with this plan's keys, through the one dispatch; `None` (nothing written) when
    /// the plan does not serve `q` on `rom`.
    #[allow(clippy::too_many_arguments)]
    fn scan_through<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        q: &Query,
        area: Area,
        scratch: &mut Scratch,
        out: &mut O,
    ) -> Option<usize> {
        if q.class != self.class || !self.fits(rom) {
            return None;
        }
        dispatch::scan(
            Keys::Plan(self),
            None,
            rom,
            board,
            host,
            q,
            area,
            scratch,
            out,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along the trie path of every entry the node keys are exactly its key list, the depth
    /// stays within the stack (nested lists 60 deep, forks at every depth), and every subtree
    /// ends where its `skip` says.
    #[test]
    fn trie_paths_are_the_key_lists() {
        let mut items: Vec<Item> = Vec::new();
        for k in 0..60u32 {
            // Nested lists 0, 0 1, 0 1 2, ...; and a fork at each depth k (key 1000 + k).
            items.push(((0..k).collect(), 2 * k, 0xFF));
            let mut fork: Vec<u32> = (0..k).collect();
            fork.push(1000 + k);
            fork.push(2000);
            items.push((fork, 2 * k + 1, 1 << (k % 8)));
        }
        let mut b = Builder {
            keys: Vec::new(),
            nodes: Vec::new(),
            entries: Vec::new(),
            weight: (0..2100).map(|_| 1).collect(),
        };
        b.node(items.clone(), 0);
        let mut found = 0;
        let mut path: Vec<Vec<u32>> = (0..STACK + 2).map(|_| Vec::new()).collect();
        for (i, n) in b.nodes.iter().enumerate() {
            let d = n.depth as usize;
            assert!(d <= STACK);
            let mut here = path[d].clone();
            here.extend_from_slice(&b.keys[n.k0 as usize..n.k1 as usize]);
            for &(r, cov) in &b.entries[n.e0 as usize..n.e1 as usize] {
                let item = items.iter().find(|i| i.1 == r).unwrap();
                let mut sorted = here.clone();
                sorted.sort_unstable();
                assert_eq!(item.0, sorted, "entry {r}");
                assert_eq!(item.2, cov);
                found += 1;
            }
            // A node with children is followed by its first child, one level down.
            if n.skip as usize != i + 1 {
                assert!(d < STACK);
                assert_eq!(b.nodes[i + 1].depth as usize, d + 1);
                path[d + 1] = here;
            }
            // The subtree: deeper nodes only.
            for m in &b.nodes[i + 1..n.skip as usize] {
                assert!(m.depth as usize > d);
            }
            if let Some(m) = b.nodes.get(n.skip as usize) {
                assert!(m.depth as usize <= d);
            }
        }
        assert_eq!(found, items.len());
        assert!(b.nodes.iter().any(|n| n.depth as usize == STACK));
    }
}
