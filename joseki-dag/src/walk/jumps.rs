//! The jump table of the small mode ([`crate::Walker::small`]): for every entry that has a
//! next sibling and a subtree of at least [`JUMP_MIN`] bytes stored after it, where that
//! subtree ends (the sibling's offset). A scan of a sibling list then hops over large subtrees
//! with one probe, as the skip fields of Compact version 2 did inside the blob, and parses
//! small ones byte by byte. Built in one pass over the blob; 8 bytes a slot, load at most 1/2.

use super::fast::list_key;
use crate::codec::{Layout, read_entry};

/// Subtrees shorter than this are parsed. Measured on the union (small mode, with the long
/// lists indexed): 6 gives 3.1x the blob in all and 2.6x the fast mode's lookup time; without
/// the index, 2 gave 3.1x and 7.5x, 16 gave 0.8x and 11x.
pub(crate) const JUMP_MIN: usize = 6;

const EMPTY: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub(crate) struct Jumps {
    /// (subtree start as a list key, offset just after the subtree).
    slots: Box<[(u32, u32)]>,
    shift: u32,
    len: usize,
}

impl Jumps {
    /// One pass over the blob in storage order, as `codec::decode` walks it. The blob was
    /// validated; a read error ends the pass (the table then holds what it found).
    pub(crate) fn build(l: &Layout<'_>) -> Jumps {
        struct List {
            /// Subtree start (list key) and real offset; record it (its owner has a sibling).
            key: u32,
            start: usize,
            record: bool,
            /// The current entry of this list has a subtree and a sibling after it.
            resume: bool,
        }
        let mut found: Vec<(u32, u32)> = Vec::new();
        let n = l.limit();
        // JUMP_MIN bytes (Compact version 4 counts positions in bits).
        let min = JUMP_MIN * if l.in_bits() { 8 } else { 1 };
        if l.root < n {
            let mut stack = vec![List {
                key: list_key(l.root),
                start: l.root,
                record: false,
                resume: false,
            }];
            let mut pos = l.root;
            'entries: while let Ok(e) = read_entry(l, pos) {
                pos = e.end;
                if let Some(sub) = e.subtree() {
                    let top = stack.last_mut().expect("non-empty while reading");
                    top.resume = e.has_sibling;
                    pos = sub;
                    stack.push(List {
                        key: list_key(sub),
                        start: e.end,
                        record: e.has_sibling,
                        resume: false,
                    });
                    continue;
                }
                if e.has_sibling {
                    continue;
                }
                // The list ended here: close it and every list whose last entry it ended.
                loop {
                    let done = stack.pop().expect("non-empty");
                    if done.record && pos - done.start >= min {
                        found.push((done.key, pos as u32));
                    }
                    match stack.last() {
                        None => break 'entries,
                        Some(parent) if parent.resume => continue 'entries,
                        Some(_) => {}
                    }
                }
            }
        }
        let cap = (found.len() * 2).next_power_of_two().max(4);
        let mut slots = vec![(EMPTY, 0u32); cap].into_boxed_slice();
        let shift = 32 - cap.trailing_zeros();
        for &(k, end) in &found {
            let mut i = hash(k, shift);
            while slots[i].0 != EMPTY {
                i = (i + 1) & (cap - 1);
            }
            slots[i] = (k, end);
        }
        Jumps {
            slots,
            shift,
            len: found.len(),
        }
    }

    /// Where the subtree starting at `sub` (a list key) ends, if it is large.
    #[inline]
    pub(crate) fn get(&self, sub: u32) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut i = hash(sub, self.shift);
        loop {
            let (k, end) = self.slots[i];
            if k == sub {
                return Some(end as usize);
            }
            if k == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<(u32, u32)>()
    }
}

#[inline]
fn hash(k: u32, shift: u32) -> usize {
    (k.wrapping_mul(0x9E37_79B9) >> shift) as usize
}
