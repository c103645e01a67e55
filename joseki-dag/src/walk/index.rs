//! The sibling-list index, built once by `Walker::new` beside the blob (the blob is not changed):
//! for every list whose full scan parses at least [`INDEX_MIN_BYTES`], its plain moves (small
//! point, no colour exception) sorted by point. A step into such a list is a binary search, and
//! a move that is not in it is known absent without reading the list: that is the common case
//! of a frame that dies (the other reflection of a position, a wrong orientation), which would
//! otherwise scan the whole list. Short lists are scanned: that is as fast as a search.
//!
//! A list is found from its offset with a bitset over the blob and a rank per 64-bit word.

use crate::codec::{Layout, is_virtual, read_entry, skip_list, small_point};

/// Lists whose full scan parses fewer bytes are not indexed.
pub(crate) const INDEX_MIN_BYTES: usize = 8;

#[derive(Clone, Debug, Default)]
pub(crate) struct ListIndex {
    /// Bit per blob offset: an indexed list starts there.
    bits: Vec<u64>,
    /// Indexed lists before each 64-bit word.
    rank: Vec<u32>,
    /// Per indexed list, in offset order: first slot, end slot, and whether the list has
    /// moves the slots cannot hold (far points, passes, colour exceptions).
    lists: Vec<(u32, u32, bool)>,
    /// (point byte, entry offset), sorted by point within each list.
    slots: Vec<(u8, u32)>,
}

/// What the index says about a move in a list.
pub(crate) enum Probe {
    /// The list is not indexed, or the move needs a scan.
    Scan,
    Absent,
    At(usize),
}

impl ListIndex {
    pub(crate) fn build(l: &Layout<'_>) -> ListIndex {
        let n = l.bytes.len();
        let mut bits = vec![0u64; n.div_ceil(64)];
        let mut found: Vec<(usize, Vec<(u8, u32)>, bool)> = Vec::new();
        let mut visited = vec![false; n];
        let mut stack = Vec::new();
        if l.root < n {
            stack.push(l.root);
        }
        while let Some(list) = stack.pop() {
            if !is_virtual(list) {
                if list >= n || std::mem::replace(&mut visited[list], true) {
                    continue;
                }
            }
            let (mut pos, mut cost, mut slots, mut others) = (list, 0usize, Vec::new(), false);
            while let Ok(e) = read_entry(l, pos) {
                cost += e.end - e.start;
                if let Some(c) = e.children() {
                    stack.push(c);
                }
                if e.setup.is_none() {
                    match small_point(e.point) {
                        Some(b) if !e.colour_exception => slots.push((b, pos as u32)),
                        _ => others = true,
                    }
                }
                if !e.has_sibling {
                    break;
                }
                pos = match e.skip.filter(|_| e.inline_children()) {
                    Some(next) => next,
                    None if e.inline_children() => match skip_list(l, e.end, &mut cost) {
                        Ok(p) => p,
                        Err(_) => break,
                    },
                    None => e.end,
                };
            }
            if cost >= INDEX_MIN_BYTES && !is_virtual(list) {
                slots.sort_unstable();
                found.push((list, slots, others));
            }
        }
        found.sort_unstable_by_key(|f| f.0);
        let mut index = ListIndex::default();
        for (list, slots, others) in found {
            bits[list / 64] |= 1 << (list % 64);
            let start = index.slots.len() as u32;
            index.slots.extend(slots);
            index.lists.push((start, index.slots.len() as u32, others));
        }
        let mut total = 0u32;
        index.rank = bits
            .iter()
            .map(|w| {
                let r = total;
                total += w.count_ones();
                r
            })
            .collect();
        index.bits = bits;
        index
    }

    /// Look up a move with point byte `small` (`None`: far or a pass) in the list at `list`.
    #[inline]
    pub(crate) fn probe(&self, list: usize, small: Option<u8>, exception: bool) -> Probe {
        let (w, b) = (list / 64, list % 64);
        let Some(&word) = self.bits.get(w) else {
            return Probe::Scan; // past the blob: a virtual position
        };
        if word & (1 << b) == 0 {
            return Probe::Scan;
        }
        let k = self.rank[w] + (word & ((1u64 << b) - 1)).count_ones();
        let (start, end, others) = self.lists[k as usize];
        match small {
            Some(p) if !exception => {
                let slots = &self.slots[start as usize..end as usize];
                match slots.binary_search_by_key(&p, |s| s.0) {
                    Ok(i) => Probe::At(slots[i].1 as usize),
                    Err(_) => Probe::Absent,
                }
            }
            _ if others => Probe::Scan,
            _ => Probe::Absent,
        }
    }

    /// Lists indexed (for the docs and tests).
    pub(crate) fn lists(&self) -> usize {
        self.lists.len()
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.bits.len() * 8 + self.rank.len() * 4 + self.lists.len() * 12 + self.slots.len() * 8
    }
}
