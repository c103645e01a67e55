//! A per-point automaton over the point states around a focus (`alloc`, built with a
//! [`super::ScanPlan`]): the shape filter of the whole-board scan for classes whose foci are
//! few or whose entries share little, in the manner of GNU Go's pattern DFA.
//!
//! Every oriented entry is its list of constraints `(dx, dy, allowed)` read in one global
//! order (the focus, then outwards ring by ring). A state is the set of entries still
//! consistent with the points read so far, and it reads the next point that one of them
//! constrains: four transitions (friend, foe, empty, off), each to the next state or to
//! nothing, with the entries whose last constraint was that point listed on the transition.
//! A walk at one focus is one table step per point read, whatever the number of entries,
//! and it stops as soon as no entry is left.
//!
//! Subset construction can grow large on big pattern sets; past a state budget, new states
//! become leaves that check their remaining entries point by point. So the automaton's size
//! is bounded and the scan is exact either way.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Area, HITS, Hits, MAX_SIDE, PADDED, ScanScratch};
use crate::board::{BoardView, Colour};
use crate::matching::{Ctx, Host, MatchBuf, Orientations, Query, run_class_with};
use crate::rom::{ClassInfo, MAX_FIELD, MAX_GLOB_DEPTH, Rom};

/// Point states around the board in [`ScanScratch`]'s padded array: cells at most this far
/// from a focus on the board (fields are at most 25 wide, the focus anywhere in them).
pub(super) const PAD: i32 = MAX_FIELD as i32 - 1;
/// Row stride of the padded array.
pub(super) const STRIDE: i32 = MAX_SIDE + 2 * PAD;

/// A transition to a leaf (`LEAF | leaf index`) rather than a state.
const LEAF: u32 = 1 << 31;
/// Entries end on this transition (listed in `ends`).
const ENDS: u32 = 1 << 30;
/// The target's index bits.
const ID: u32 = ENDS - 1;
/// No entry left: the walk stops (state 0 is never a target: the root).
const DEAD: u32 = 0;

/// Default state budget: beyond it new states become leaves.
pub(super) const STATES: usize = 1 << 18;

/// A constraint `(dx, dy, allowed)`.
type Cell = (i8, i8, u8);

/// The automaton of one class (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Automaton {
    /// Per state: the point it reads, as an offset in the padded array from the focus.
    read: Vec<i32>,
    /// Per state, four transitions (by point state): a state index, `LEAF | leaf` or
    /// [`DEAD`], with [`ENDS`] when entries end there.
    next: Vec<u32>,
    /// Per transition: where its ended entries start in `ends` (one more at the end).
    ends_at: Vec<u32>,
    /// Ended entries (relative to the class), per transition.
    ends: Vec<u32>,
    /// Per leaf: where its items start in `leaf_items` (one more at the end).
    leaf_at: Vec<u32>,
    /// Leaf items: entry (relative to the class) and the index in `cells` of its first cell
    /// not read yet.
    leaf_items: Vec<(u32, u32)>,
    /// Per entry: where its cells start in `cells` (one more at the end).
    cell_at: Vec<u32>,
    /// Cells of every entry in reading order: offset in the padded array, allowed states.
    cells: Vec<(i32, u8)>,
    /// Entries with no constraint: they hold at every focus.
    always: Vec<u32>,
    /// Covers of every entry of the class (0: the entry can never match).
    covers: Vec<u8>,
}

/// A state being built: its entries still alive, each with the index of its next cell.
type Alive = Vec<(u32, u32)>;

impl Automaton {
    /// The automaton of a class of `count` entries whose constraint lists are `lists`
    /// (`(cells, entry relative to the class, covers)`; an entry missing never matches).
    /// `None` when a cell lies farther than [`PAD`] from the focus.
    pub(super) fn build(lists: &[(Vec<Cell>, u32, u8)], count: u32, budget: usize) -> Option<Self> {
        // The reading order: rings outwards, then by distance, then row and column.
        let rank = |&(dx, dy): &(i8, i8)| {
            let (x, y) = (dx as i32, dy as i32);
            (x.abs().max(y.abs()), x.abs() + y.abs(), y, x)
        };
        let mut a = Automaton {
            read: Vec::new(),
            next: Vec::new(),
            ends_at: Vec::new(),
            ends: Vec::new(),
            leaf_at: alloc::vec![0],
            leaf_items: Vec::new(),
            cell_at: alloc::vec![0; count as usize + 1],
            cells: Vec::new(),
            always: Vec::new(),
            covers: alloc::vec![0; count as usize],
        };
        // Per entry: its cells in reading order, with their reading rank.
        let mut ranked: Vec<Vec<((i32, i32, i32, i32), u8)>> =
            (0..count).map(|_| Vec::new()).collect();
        for (cells, r, cov) in lists {
            let mut l: Vec<((i32, i32, i32, i32), u8)> = Vec::with_capacity(cells.len());
            for &(dx, dy, allowed) in cells {
                if (dx as i32).abs() > PAD || (dy as i32).abs() > PAD {
                    return None;
                }
                l.push((rank(&(dx, dy)), allowed));
            }
            l.sort_unstable();
            a.covers[*r as usize] = *cov;
            if l.is_empty() {
                a.always.push(*r);
            }
            ranked[*r as usize] = l;
        }
        for (r, l) in ranked.iter().enumerate() {
            a.cells.extend(
                l.iter()
                    .map(|&((_, _, y, x), allowed)| (y * STRIDE + x, allowed)),
            );
            a.cell_at[r + 1] = a.cells.len() as u32;
        }
        a.always.sort_unstable();
        // Subset construction, states in order of creation.
        let rank_of = |e: u32, c: u32| ranked[e as usize][(c - a.cell_at[e as usize]) as usize].0;
        let root: Alive = lists
            .iter()
            .filter(|l| !l.0.is_empty())
            .map(|l| (l.1, a.cell_at[l.1 as usize]))
            .collect();
        let mut pending: Vec<Alive> = alloc::vec![root];
        let mut index: BTreeMap<((i32, i32, i32, i32), Vec<u32>), u32> = BTreeMap::new();
        let mut s = 0;
        while s < pending.len() {
            let alive = core::mem::take(&mut pending[s]);
            let Some(k) = alive.iter().map(|&(e, c)| rank_of(e, c)).min() else {
                // Only the root can be empty (a class of unconstrained entries).
                a.read.push(0);
                a.next.extend([DEAD; 4]);
                for _ in 0..4 {
                    a.ends_at.push(a.ends.len() as u32);
                }
                s += 1;
                continue;
            };
            a.read.push(k.2 * STRIDE + k.3);
            for v in 0..4u8 {
                a.ends_at.push(a.ends.len() as u32);
                let mut next: Alive = Vec::new();
                let ends0 = a.ends.len();
                for &(e, c) in &alive {
                    if rank_of(e, c) != k {
                        next.push((e, c));
                        continue;
                    }
                    if a.cells[c as usize].1 & (1 << v) == 0 {
                        continue;
                    }
                    if c + 1 == a.cell_at[e as usize + 1] {
                        a.ends.push(e);
                    } else {
                        next.push((e, c + 1));
                    }
                }
                a.ends[ends0..].sort_unstable();
                let mut t = if a.ends.len() > ends0 { ENDS } else { 0 };
                if let Some(k2) = next.iter().map(|&(e, c)| rank_of(e, c)).min() {
                    let key = (k2, next.iter().map(|&(e, _)| e).collect::<Vec<u32>>());
                    t |= match index.get(&key) {
                        Some(&id) => id,
                        None if pending.len() < budget => {
                            let id = pending.len() as u32;
                            index.insert(key, id);
                            pending.push(next);
                            id
                        }
                        None => {
                            a.leaf_items.extend(next.iter().copied());
                            a.leaf_at.push(a.leaf_items.len() as u32);
                            LEAF | (a.leaf_at.len() as u32 - 2)
                        }
                    };
                }
                a.next.push(t);
            }
            s += 1;
        }
        a.ends_at.push(a.ends.len() as u32);
        Some(a)
    }

    /// States (for statistics).
    pub(super) fn states(&self) -> usize {
        self.read.len()
    }

    /// Leaves (for statistics).
    pub(super) fn leaves(&self) -> usize {
        self.leaf_at.len() - 1
    }

    /// The entries (relative to the class) whose cells all hold at the focus `f` (an index
    /// of the padded array `pad`), passed to `hit`, which returns false to stop the walk.
    #[inline]
    fn walk(&self, pad: &[u8; PADDED], f: usize, mut hit: impl FnMut(u32) -> bool) -> bool {
        for &e in &self.always {
            if !hit(e) {
                return false;
            }
        }
        let mut s = 0usize;
        loop {
            let v = pad[(f as i32 + self.read[s]) as usize] as usize;
            let t = self.next[s * 4 + v];
            if t & ENDS != 0 {
                let (a, b) = (self.ends_at[s * 4 + v], self.ends_at[s * 4 + v + 1]);
                for &e in &self.ends[a as usize..b as usize] {
                    if !hit(e) {
                        return false;
                    }
                }
            }
            if t & LEAF != 0 {
                let l = (t & ID) as usize;
                let items = &self.leaf_items[self.leaf_at[l] as usize..self.leaf_at[l + 1] as usize];
                for &(e, c) in items {
                    let end = self.cell_at[e as usize + 1];
                    let holds = self.cells[c as usize..end as usize]
                        .iter()
                        .all(|&(off, allowed)| allowed & (1 << pad[(f as i32 + off) as usize]) != 0);
                    if holds && !hit(e) {
                        return false;
                    }
                }
                return true;
            }
            let id = t & ID;
            if id == DEAD {
                return true;
            }
            s = id as usize;
        }
    }
}

impl ScanScratch {
    /// Fills the padded array with the point states of `board` seen from `persp` (0 friend,
    /// 1 foe, 2 empty, 3 off).
    fn fill_padded<B: BoardView + ?Sized>(&mut self, board: &B, persp: Colour) {
        let s = board.size() as i32;
        self.padded.fill(3);
        let mut rows = [[0u32; 3]; MAX_SIDE as usize];
        board.window_rows(0, 0, s as u32, &mut rows[..s as usize]);
        let (fi, oi) = match persp {
            Colour::Black => (0, 1),
            Colour::White => (1, 0),
        };
        for (y, r) in rows.iter().take(s as usize).enumerate() {
            let at = ((y as i32 + PAD) * STRIDE + PAD) as usize;
            for (x, p) in self.padded[at..at + s as usize].iter_mut().enumerate() {
                let bit = |w: u32| (w >> x) & 1 != 0;
                *p = if bit(r[fi]) {
                    0
                } else if bit(r[oi]) {
                    1
                } else if bit(r[2]) {
                    3
                } else {
                    2
                };
            }
        }
    }
}

/// The scan of `q` over `area` through the automaton: at every focus of the area (row by
/// row), the walk's entries, sorted, go to the class program. The same matches in the same
/// order as the other paths. A focus with more hits than the scratch holds is matched by the
/// per-focus kernel.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan<B: BoardView + ?Sized, H: Host + ?Sized>(
    auto: &Automaton,
    rom: &Rom<'_>,
    board: &B,
    host: &H,
    q: &Query,
    class: &ClassInfo<'_>,
    area: Area,
    active: &mut [u8; MAX_GLOB_DEPTH + 1],
    sc: &mut ScanScratch,
    out: &mut MatchBuf<'_>,
) -> usize {
    let s = board.size() as i32;
    sc.fill_padded(board, q.perspective);
    let qfilter = match q.orientations {
        Orientations::Set(m) => m,
        Orientations::All | Orientations::Up { .. } => 0xFF,
    };
    let has_default = class.default_value().is_some();
    let focus = class.focus();
    let first = class.first_entry();
    let mut produced = 0;
    let kernel = super::super::dispatch::FocusKernel::choose(rom, class, board);
    for y in area.y0.max(0)..area.y1.min(s) {
        for x in area.x0.max(0)..area.x1.min(s) {
            let f = ((y + PAD) * STRIDE + x + PAD) as usize;
            if focus & (1 << sc.padded[f]) == 0 {
                continue;
            }
            let mut n = 0usize;
            let raw = &mut sc.raw;
            let fits = auto.walk(&sc.padded, f, |e| {
                if auto.covers[e as usize] & qfilter == 0 {
                    return true;
                }
                if n == HITS {
                    return false;
                }
                raw[n] = e;
                n += 1;
                true
            });
            if !fits {
                produced += super::super::dispatch::match_focus(
                    rom, board, host, q, class, kernel, x, y, active, out,
                );
                continue;
            }
            if n == 0 && !has_default {
                continue;
            }
            let list = &mut sc.raw[..n];
            list.sort_unstable();
            let ctx = Ctx {
                rom,
                board,
                host,
                persp: q.perspective,
                x,
                y,
            };
            let mut g = Hits { list, first };
            produced += run_class_with(
                &ctx,
                class,
                q.orientations.mask_at(x, y),
                &mut g,
                active,
                out,
            );
        }
    }
    produced
}
