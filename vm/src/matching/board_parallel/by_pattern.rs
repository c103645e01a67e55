//! A [`super::ScanSet`]'s walk over patterns rather than oriented entries (docs/performance.md,
//! "A trie over patterns").
//!
//! The oriented trie holds each of a pattern's (up to) eight orientations as its own entry: the
//! eight share no keys, so the top of the trie is walked once per orientation. Here the trie
//! holds each pattern once, its cells as stored (orientation 0), and a candidate set is over
//! focus x orientation: eight blocks of the stones' words, block `o` the stones where the
//! pattern turned by `o` still holds. A key `(d, allowed)` ANDs into block `o` the plane of
//! offset `T_o(d)` (the stones' per-offset planes of [`super::compact`]), for the blocks that
//! still hold a stone (a mask of live blocks rides with the set). A pattern
//! ending at a node writes, per orientation it has an entry for, that block's stones as hits of
//! that entry: the same hits as the oriented walk, so the writing is shared. A
//! symmetric pattern's orientations without an entry of their own are walked but never written.
//! When the patterns' entries lie in pattern order, each pattern's hits are written as one run
//! in entry order, and sorting them by focus alone orders them ([`compact::sorted_runs`]).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::compact::{self, CompactKeys, PLANES_ALL, Position, RUN_PATTERNS, Runs, Slot};
use super::plan::{self, Cell};
use super::{CACHED, ENTRY_BITS, HITS, SIDE};
use crate::geometry::Orientation;

/// Plane ids (`offset * 16 + allowed`, as in [`CompactKeys`]).
const IDS: usize = SIDE * SIDE * 16;
/// Rounds of choosing each pattern's turn (see [`PatternTrie::new`]).
const ROUNDS: usize = 3;
/// Pending children of a walk (on the stack: up to 264 bytes each). A walk that needs more
/// is declined: the oriented walk serves that scan.
const PENDING: usize = 128;

/// The trie over patterns of a set, and per pattern its entries of the oriented walk.
#[derive(Clone, Debug)]
pub(super) struct PatternTrie {
    /// The trie as a [`CompactKeys`] stream: keys as stored (orientation 0); an entry ending at
    /// a node is a pattern (its index here) with the orientations it has entries for as covers.
    walk: CompactKeys,
    /// Per pattern and orientation: its entry of the oriented walk (`u32::MAX`: none).
    ents: Vec<[u32; 8]>,
    /// Per pattern and orientation: that entry's covers (for the query's orientations).
    covs: Vec<[u8; 8]>,
    /// Per plane id and orientation `o`: the plane id of its offset turned by `o`.
    turns: Vec<[u16; 8]>,
    /// Per node, at its offset in the stream: the orientations its subtree's patterns have
    /// entries for (a symmetric pattern's other blocks are not walked further).
    masks: Vec<u8>,
    /// Per pattern: its orientations with entries, in the order of their entries (then 8s),
    /// when every pattern's entries lie between the previous pattern's and the next one's
    /// (and the patterns fit [`Runs`]): the walk then writes each pattern's hits as one run in
    /// entry order, and the runs taken in pattern order are in entry order (sorting them by
    /// focus alone, stably, orders them). `None`: the hits are sorted by focus and entry.
    order: Option<Vec<[u8; 8]>>,
}

/// One entry of the oriented walk: its cells (through its orientation), orientation, index
/// and covers.
pub(super) struct Oriented {
    pub cells: Vec<Cell>,
    pub o: u8,
    pub entry: u32,
    pub cov: u8,
}

impl PatternTrie {
    /// The trie over `patterns` (each the oriented entries of one pattern); `None` when some
    /// pattern's entries are not turns of one cell list (or two share an orientation), or
    /// the trie does not fit the stream.
    pub(super) fn new(patterns: Vec<Vec<Oriented>>) -> Option<Self> {
        let mut lists = Vec::with_capacity(patterns.len());
        let mut ents = Vec::with_capacity(patterns.len());
        let mut covs = Vec::with_capacity(patterns.len());
        // Each pattern is walked in the turn whose keys, most selective and most used first,
        // come first (as the trie orders them): patterns that are turns of each other's
        // neighbourhoods then share their first keys, and the top of the trie narrows. The
        // uses are counted over the turns chosen, a few rounds (over every turn at first).
        let stored: Vec<Vec<Cell>> = patterns
            .iter()
            .map(|group| {
                let first = group.first()?;
                // The cells as stored: the first entry's turned back.
                let back = Orientation::ALL[first.o as usize & 7].inverse();
                Some(
                    first
                        .cells
                        .iter()
                        .map(|&(x, y, a)| {
                            let (x, y) = back.apply(x.into(), y.into());
                            (x as i8, y as i8, a)
                        })
                        .collect(),
                )
            })
            .collect::<Option<_>>()?;
        let mut chosen: Vec<Vec<Cell>> = Vec::new();
        for round in 0..ROUNDS {
            let mut uses: BTreeMap<Cell, u32> = BTreeMap::new();
            let counted: Vec<&Vec<Cell>> = if round == 0 {
                patterns.iter().flatten().map(|en| &en.cells).collect()
            } else {
                chosen.iter().collect()
            };
            for &c in counted.into_iter().flatten() {
                *uses.entry(c).or_insert(0) += 1;
            }
            let rank = |cells: &[Cell]| {
                let mut r: Vec<(u32, u32, Cell)> = cells
                    .iter()
                    .map(|&c| {
                        let n = uses.get(&c).copied().unwrap_or(0);
                        (plan::pass_rate(c.0, c.1, c.2) / 50, u32::MAX - n, c)
                    })
                    .collect();
                r.sort_unstable();
                r
            };
            chosen = stored
                .iter()
                .map(|st| (0..8u8).map(|t| turned(st, t)).min_by_key(|c| rank(c)))
                .collect::<Option<_>>()?;
        }
        for (i, (group, base)) in patterns.iter().zip(chosen).enumerate() {
            // Block `o` of an entry: the first free turn of `base` that is its cells.
            let (mut e, mut c, mut mask) = ([u32::MAX; 8], [0u8; 8], 0u8);
            for en in group {
                let o = (0..8u8).find(|&o| mask >> o & 1 == 0 && turned(&base, o) == en.cells)?;
                let o = o as usize;
                mask |= 1 << o;
                (e[o], c[o]) = (en.entry, en.cov);
            }
            lists.push((base, i as u32, mask));
            ents.push(e);
            covs.push(c);
        }
        let (keys, nodes, entries) = plan::trie(lists);
        let turns = (0..IDS)
            .map(|id| {
                let (off, allowed) = (id >> 4, id & 15);
                let (dx, dy) = ((off % SIDE) as i32 - CACHED, (off / SIDE) as i32 - CACHED);
                Orientation::ALL.map(|t| {
                    let (x, y) = t.apply(dx, dy);
                    (((y + CACHED) as usize * SIDE + (x + CACHED) as usize) << 4 | allowed) as u16
                })
            })
            .collect();
        let (walk, at) = CompactKeys::with_offsets(&keys, &nodes, &entries)?;
        let mut sub = alloc::vec![0u8; nodes.len()];
        for i in (0..nodes.len()).rev() {
            let n = &nodes[i];
            sub[i] = entries[n.e0 as usize..n.e1 as usize]
                .iter()
                .fold(0, |m, e| m | e.1);
            let mut c = i + 1;
            while c < n.skip as usize {
                sub[i] |= sub[c];
                c = nodes[c].skip as usize;
            }
        }
        let mut masks = alloc::vec![0u8; walk.walk.len()];
        for (&a, &m) in at.iter().zip(&sub) {
            masks[a] = m;
        }
        let order = entry_order(&ents);
        Some(PatternTrie {
            walk,
            ents,
            covs,
            turns,
            masks,
            order,
        })
    }

    /// Whether the walk writes each pattern's hits as a run in entry order (see
    /// [`PatternTrie::order`]), so that its hits need sorting by focus only.
    pub(super) fn runs(&self) -> bool {
        self.order.is_some()
    }

    /// Hits written in no particular order (sorted by focus and entry afterwards).
    #[cfg(feature = "bench-internals")]
    pub(super) fn without_runs(&mut self) {
        self.order = None;
    }
}

/// Per pattern, its orientations in the order of their entries, if the patterns' entries are
/// in pattern order (each pattern's after every entry of the previous one) and the patterns
/// fit [`Runs`].
fn entry_order(ents: &[[u32; 8]]) -> Option<Vec<[u8; 8]>> {
    if ents.len() > RUN_PATTERNS {
        return None;
    }
    let mut last = None;
    let mut out = Vec::with_capacity(ents.len());
    for e in ents {
        let mut o: Vec<u8> = (0..8u8).filter(|&o| e[o as usize] != u32::MAX).collect();
        o.sort_unstable_by_key(|&o| e[o as usize]);
        let mut row = [8u8; 8];
        row[..o.len()].copy_from_slice(&o);
        out.push(row);
        let (Some(&lo), Some(&hi)) = (o.first(), o.last()) else {
            continue;
        };
        if last.is_some_and(|l| e[lo as usize] <= l) {
            return None;
        }
        last = Some(e[hi as usize]);
    }
    Some(out)
}

/// `cells` turned by orientation `o`, sorted by offset (as [`plan::entry_lists`] gives them).
fn turned(cells: &[Cell], o: u8) -> Vec<Cell> {
    let turn = Orientation::ALL[o as usize & 7];
    let mut t: Vec<Cell> = cells
        .iter()
        .map(|&(x, y, a)| {
            let (x, y) = turn.apply(x.into(), y.into());
            (x as i8, y as i8, a)
        })
        .collect();
    t.sort_unstable_by_key(|&(dx, dy, _)| (dx, dy));
    t
}

/// Groups oriented entries by pattern, in the order the patterns first appear.
pub(super) fn group<K: Ord>(entries: Vec<(K, Oriented)>) -> Vec<Vec<Oriented>> {
    let mut at: BTreeMap<K, usize> = BTreeMap::new();
    let mut out: Vec<Vec<Oriented>> = Vec::new();
    for (k, e) in entries {
        let i = *at.entry(k).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[i].push(e);
    }
    out
}

/// Why a walk over patterns stopped: more hits than the scratch holds, or out of room for
/// its pending children (the oriented walk then serves the scan).
pub(super) enum Stop {
    Full,
    Declined,
}

/// The walk over patterns of `pt` on the stones of `sl` (numbered, `sl.n` of them): the hits
/// of the oriented walk (as [`compact::collect_stones`] gives them, in another order).
pub(super) fn collect(
    pt: &PatternTrie,
    qfilter: u8,
    pos: &Position,
    sl: &mut Slot<PLANES_ALL>,
    raw: &mut [u32; HITS],
    runs: &mut Runs,
    limit: usize,
) -> Result<usize, Stop> {
    match sl.n.div_ceil(64) {
        0 | 1 => walk::<1>(pt, qfilter, pos, sl, raw, runs, limit),
        2 => walk::<2>(pt, qfilter, pos, sl, raw, runs, limit),
        3 => walk::<3>(pt, qfilter, pos, sl, raw, runs, limit),
        _ => walk::<4>(pt, qfilter, pos, sl, raw, runs, limit),
    }
}

/// A candidate set over focus x orientation: block `o` over the stones, and the mask of the
/// blocks not empty.
type Set<const K: usize> = ([[u64; K]; 8], u8);

/// One walk over patterns with blocks of `K` words.
struct Walk<'w, const K: usize> {
    blob: &'w [u16],
    pt: &'w PatternTrie,
    qfilter: u8,
    pos: &'w Position,
    sl: &'w mut Slot<PLANES_ALL>,
    raw: &'w mut [u32; HITS],
    hits: usize,
    /// Where each pattern's run of hits lies (when [`PatternTrie::runs`]).
    runs: &'w mut Runs,
}

impl<const K: usize> Walk<'_, K> {
    /// `dst` = `src` AND key `id` on the blocks `live` (its plane turned by each one's
    /// orientation; `src` and `dst` may be the same set), and whether any block is left. Only
    /// live blocks are read or written: the others may hold stale words.
    #[inline(always)]
    fn and(&mut self, src: Option<&Set<K>>, dst: &mut Set<K>, id: u16, live: u8) -> bool {
        let turns = &self.pt.turns[(id & compact::PLANE) as usize];
        let mut live = live;
        let mut left = 0u8;
        while live != 0 {
            let o = live.trailing_zeros() as usize;
            live &= live - 1;
            let t = turns[o] as usize;
            let off = t >> 4;
            if self.sl.built[off >> 6] >> (off & 63) & 1 == 0 {
                compact::build_offset(self.sl, self.pos, off);
            }
            let p = &self.sl.planes[t * K..t * K + K];
            let from = src.map_or(dst.0[o], |s| s.0[o]);
            let mut any = 0;
            for ((v, &f), &w) in dst.0[o].iter_mut().zip(&from).zip(p) {
                *v = f & w;
                any |= *v;
            }
            left |= u8::from(any != 0) << o;
        }
        dst.1 = left;
        left != 0
    }

    /// The node at `at` (first word `nk` read) on `acc` (its first key ANDed unless the root),
    /// in place: its own keys, then the patterns ending there; where its children start,
    /// `None` when the set empties.
    #[inline(always)]
    fn body(&mut self, at: usize, nk: u16, acc: &mut Set<K>) -> Result<Option<usize>, Stop> {
        let blob = self.blob;
        let (nk, ne) = (nk as usize, blob[at + 1] as usize);
        let keys = at + 3;
        for &id in &blob[keys..keys + nk] {
            if !self.and(None, acc, id, acc.1) {
                return Ok(None);
            }
        }
        let ents = keys + nk;
        for e in blob[ents..ents + 2 * ne].chunks_exact(2) {
            let i = e[0] as usize | ((e[1] & 0xFF) as usize) << 16;
            // The orientations the pattern has entries for, among the live blocks.
            let live = (e[1] >> 8) as u8 & acc.1;
            if let Some(order) = &self.pt.order {
                // In the order of their entries (the live ones as a mask over ranks, without
                // a branch per orientation), the run's place kept.
                let start = self.hits;
                let order = order[i];
                let mut ranks = 0u32;
                for (r, &o) in order.iter().enumerate() {
                    ranks |= (u32::from(live) >> o & 1) << r;
                }
                while ranks != 0 {
                    let o = order[ranks.trailing_zeros() as usize] as usize & 7;
                    ranks &= ranks - 1;
                    self.put(i, o, &acc.0[o])?;
                }
                if self.hits > start {
                    self.runs.bits[i >> 6] |= 1 << (i & 63);
                    self.runs.at[i] = (start as u16, (self.hits - start) as u16);
                }
            } else {
                let mut live = live;
                while live != 0 {
                    let o = live.trailing_zeros() as usize;
                    live &= live - 1;
                    self.put(i, o, &acc.0[o])?;
                }
            }
        }
        Ok(Some(ents + 2 * ne))
    }

    /// The hits of pattern `i` in orientation `o` (its entry of the oriented walk) at the
    /// stones of `block`, if the query admits one of its covers.
    #[inline(always)]
    fn put(&mut self, i: usize, o: usize, block: &[u64; K]) -> Result<(), Stop> {
        if self.pt.covs[i][o] & self.qfilter == 0 {
            return Ok(());
        }
        let r = self.pt.ents[i][o];
        for (w, &bits) in block.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let f = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.hits == HITS {
                    return Err(Stop::Full);
                }
                self.raw[self.hits] = (self.sl.point[f] as u32) << ENTRY_BITS | r;
                self.hits += 1;
            }
        }
        Ok(())
    }

    /// The whole trie, depth first with a stack of pending nodes, each with its set (its first
    /// key ANDed in) and first word. A node is worked on in its slot; its children are pushed
    /// above it (their sets written in place, live blocks only), then the last of them takes
    /// the node's slot: hits are sorted later, so the order of visits does not matter. A walk
    /// that would need more than `limit` slots is declined.
    fn run(&mut self, all: Set<K>, limit: usize) -> Result<(), Stop> {
        let blob = self.blob;
        let mut stack = [(0u32, 0u16, ([[0u64; K]; 8], 0u8)); PENDING];
        let limit = limit.min(PENDING);
        stack[0] = (0, blob[0], all);
        let mut top = 1;
        while top > 0 {
            let p = top - 1;
            let (at, nk) = (stack[p].0 as usize, stack[p].1);
            let nkids = blob[at + 2] as usize;
            let Some(kids) = self.body(at, nk, &mut stack[p].2)? else {
                top = p;
                continue;
            };
            let (lo, hi) = stack.split_at_mut(top);
            let parent = &lo[p].2;
            let mut pushed = 0;
            for kid in blob[kids..kids + 2 * nkids].chunks_exact(2) {
                if top + pushed >= limit {
                    return Err(Stop::Declined);
                }
                let slot = &mut hi[pushed];
                let a = (kid[1] as usize) << 3 | (kid[0] >> compact::PLANE_BITS) as usize;
                // Only the blocks of orientations the child's subtree has entries for.
                let live = parent.1 & self.pt.masks[a];
                if self.and(Some(parent), &mut slot.2, kid[0], live) {
                    (slot.0, slot.1) = (a as u32, blob[a]);
                    pushed += 1;
                }
            }
            if pushed == 0 {
                top = p;
                continue;
            }
            // The last child pushed moves into the node's slot (its live blocks only).
            let last = &hi[pushed - 1];
            let node = &mut lo[p];
            (node.0, node.1, node.2.1) = (last.0, last.1, last.2.1);
            let mut live = last.2.1;
            while live != 0 {
                let o = live.trailing_zeros() as usize;
                live &= live - 1;
                node.2.0[o] = last.2.0[o];
            }
            top += pushed - 1;
        }
        Ok(())
    }
}

#[inline(always)]
fn walk<const K: usize>(
    pt: &PatternTrie,
    qfilter: u8,
    pos: &Position,
    sl: &mut Slot<PLANES_ALL>,
    raw: &mut [u32; HITS],
    runs: &mut Runs,
    limit: usize,
) -> Result<usize, Stop> {
    let blob = &pt.walk.walk[..];
    let n = sl.n;
    runs.bits = [0; RUN_PATTERNS / 64];
    if blob.is_empty() || n == 0 {
        return Ok(0);
    }
    let block: [u64; K] = core::array::from_fn(|w| compact::existing(n, w));
    let mut wk = Walk::<K> {
        blob,
        pt,
        qfilter,
        pos,
        sl,
        raw,
        hits: 0,
        runs,
    };
    wk.run(([block; 8], 0xFF), limit)?;
    Ok(wk.hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO: u32 = u32::MAX;

    #[test]
    fn entry_order_of_patterns_in_entry_order() {
        // Pattern 0: entries 1 (orientation 2), 0 (5), 2 (7); pattern 1: 3 (0), 4 (1).
        let ents = [
            [NO, NO, 1, NO, NO, 0, NO, 2],
            [3, 4, NO, NO, NO, NO, NO, NO],
        ];
        let order = entry_order(&ents).expect("the patterns' entries are in pattern order");
        assert_eq!(order, [[5, 2, 7, 8, 8, 8, 8, 8], [0, 1, 8, 8, 8, 8, 8, 8]]);
    }

    #[test]
    fn entry_order_refuses_interleaved_patterns() {
        // Pattern 1's entry 1 lies between pattern 0's entries 0 and 2.
        let ents = [
            [0, 2, NO, NO, NO, NO, NO, NO],
            [1, 3, NO, NO, NO, NO, NO, NO],
        ];
        assert!(entry_order(&ents).is_none());
        // Pattern 1 before pattern 0.
        let ents = [
            [4, 5, NO, NO, NO, NO, NO, NO],
            [1, 3, NO, NO, NO, NO, NO, NO],
        ];
        assert!(entry_order(&ents).is_none());
        // More patterns than the runs hold.
        let ents: Vec<[u32; 8]> = (0..RUN_PATTERNS as u32 + 1)
            .map(|i| [i, NO, NO, NO, NO, NO, NO, NO])
            .collect();
        assert!(entry_order(&ents).is_none());
    }
}
