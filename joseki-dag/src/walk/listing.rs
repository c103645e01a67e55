//! Decoded lists for the answer: the move entries of a list, decoded once when the walker is
//! built, so that listing a position's continuations reads a few words per move instead of
//! parsing the blob (Huffman symbols, typed and far entries, hops over subtrees). The fast mode
//! holds every list; the small mode the long ones only (the listing of a short list is cheap).
//!
//! Per list, one header word (entries, colour exceptions among them, largest coordinate), one
//! word per move entry in list order (as the scan lists them), then each entry's child list (as
//! `At::list` names it, so the small mode steps through a long list here); an open-addressed
//! index (list name -> header) beside it.

use super::Walker;
use super::fast::{At, LEAF};
use crate::model::{MoveType, Point, Rel};

const EMPTY: u32 = LEAF;
/// Lists longer than this are not held (they are listed from the blob): a header counts in
/// 12 bits. A canonical list holds at most 2 x 625 + 1 moves.
const MAX_LEN: usize = 4095;

/// Entry word bits (point `x` in bits 0-7 and `y` in 8-15, 0 for a pass).
const KIND_SHIFT: u32 = 16;
pub(crate) const EXCEPTION: u32 = 1 << 19;
const SYMMETRIC: u32 = 1 << 20;
const REVERSE: u32 = 1 << 21;
const PASS: u32 = 1 << 22;

/// One decoded move entry.
#[derive(Clone, Copy)]
pub(crate) struct Entry(pub u32);

impl Entry {
    #[inline(always)]
    pub(crate) fn point(self) -> Point {
        if self.0 & PASS != 0 {
            Point::Pass
        } else {
            Point::at(self.0 as u8, (self.0 >> 8) as u8)
        }
    }
    #[inline(always)]
    pub(crate) fn exception(self) -> bool {
        self.0 & EXCEPTION != 0
    }
    #[inline(always)]
    pub(crate) fn kind(self) -> MoveType {
        MoveType::from_bits((self.0 >> KIND_SHIFT) as u8 & 7)
    }
    #[inline(always)]
    pub(crate) fn symmetric(self) -> bool {
        self.0 & SYMMETRIC != 0
    }
    #[inline(always)]
    pub(crate) fn reverse(self) -> bool {
        self.0 & REVERSE != 0
    }
}

/// A decoded list: its entries, how many are colour exceptions, and the largest coordinate of
/// its points (every point is on a board at least that large).
pub(crate) struct List<'l> {
    pub entries: &'l [u32],
    /// Each entry's child list (`LEAF`: none).
    pub children: &'l [u32],
    pub exceptions: usize,
    pub max_coord: u8,
}

#[derive(Clone, Debug)]
pub(crate) struct Listings {
    /// (list name, index of its header in `words`).
    slots: Box<[(u32, u32)]>,
    shift: u32,
    words: Box<[u32]>,
    lists: usize,
}

impl Listings {
    /// Decode every list of `lists` (list names, as `At::list`) holding at least `min_len`
    /// moves.
    pub(crate) fn build(w: &Walker<'_>, lists: &[u32], min_len: usize) -> Listings {
        let mut words = Vec::new();
        let mut found: Vec<(u32, u32)> = Vec::new();
        let mut entries = Vec::new();
        let mut children = Vec::new();
        for &list in lists {
            if list == LEAF {
                continue;
            }
            entries.clear();
            children.clear();
            let (mut exceptions, mut max_coord) = (0usize, 0u8);
            let mut parsed = 0;
            // Listed after a move of colour `Opposite`: a colour exception reads as `Opposite`.
            w.each_child(At::new(list, Rel::Opposite), &mut parsed, |v, child| {
                children.push(child);
                let exception = v.colour == Rel::Opposite;
                exceptions += exception as usize;
                let point = match v.point {
                    Point::Pass => PASS,
                    Point::At { x, y } => {
                        // A coordinate 0 is on no board: the list is never counted unread.
                        max_coord =
                            max_coord.max(if x == 0 || y == 0 { u8::MAX } else { x.max(y) });
                        x as u32 | (y as u32) << 8
                    }
                };
                entries.push(
                    point
                        | (v.kind.bits() as u32 & 7) << KIND_SHIFT
                        | if exception { EXCEPTION } else { 0 }
                        | if v.symmetric { SYMMETRIC } else { 0 }
                        | if v.reverse { REVERSE } else { 0 },
                );
            });
            if entries.len() < min_len.max(1) || entries.len() > MAX_LEN {
                continue;
            }
            found.push((list, words.len() as u32));
            words.push(entries.len() as u32 | (exceptions as u32) << 12 | (max_coord as u32) << 24);
            words.extend_from_slice(&entries);
            words.extend_from_slice(&children);
        }
        let cap = (found.len() * 2).next_power_of_two().max(4);
        let mut slots = vec![(EMPTY, 0u32); cap].into_boxed_slice();
        let shift = 32 - cap.trailing_zeros();
        for &(k, at) in &found {
            let mut i = hash(k, shift);
            while slots[i].0 != EMPTY && slots[i].0 != k {
                i = (i + 1) & (cap - 1);
            }
            slots[i] = (k, at);
        }
        Listings {
            slots,
            shift,
            words: words.into_boxed_slice(),
            lists: found.len(),
        }
    }

    /// The decoded list `list`, if held.
    #[inline]
    pub(crate) fn get(&self, list: u32) -> Option<List<'_>> {
        if list == EMPTY {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = hash(list, self.shift);
        let at = loop {
            let (k, at) = self.slots[i];
            if k == list {
                break at as usize;
            }
            if k == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        };
        let h = *self.words.get(at)?;
        let len = (h & 0xFFF) as usize;
        Some(List {
            entries: self.words.get(at + 1..at + 1 + len)?,
            children: self.words.get(at + 1 + len..at + 1 + 2 * len)?,
            exceptions: (h >> 12 & 0xFFF) as usize,
            max_coord: (h >> 24) as u8,
        })
    }

    /// The child list of the move (`point`, colour `exception`) in the decoded list `list`, if
    /// it holds it: the first such entry, as a scan finds it.
    #[inline]
    pub(crate) fn child(list: &List<'_>, point: Point, exception: bool) -> Option<u32> {
        let want = match point {
            Point::Pass => PASS,
            Point::At { x, y } => x as u32 | (y as u32) << 8,
        } | if exception { EXCEPTION } else { 0 };
        let i = list
            .entries
            .iter()
            .position(|&e| e & (0xFFFF | PASS | EXCEPTION) == want)?;
        list.children.get(i).copied()
    }

    pub(crate) fn lists(&self) -> usize {
        self.lists
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<(u32, u32)>() + self.words.len() * 4
    }
}

#[inline]
fn hash(k: u32, shift: u32) -> usize {
    (k.wrapping_mul(0x9E37_79B9) >> shift) as usize
}

#[cfg(test)]
mod tests {
    use crate::codec::encode_compact_with_skip;
    use crate::model::{Move, MoveType, Point, Rel, Tree};
    use crate::walk::{BoardMove, Colour, Continuation, Frame, Walker};
    use crate::{Encoding, encode};
    use lens_test_support::fixtures::Rng;

    /// A large generated book (seeded): lines that share prefixes, so some branch points hold
    /// many moves (decoded in both modes), with passes, colour exceptions, types and far
    /// points.
    fn generated_book(lines: usize) -> Tree {
        let mut rng = Rng(0x5EED_B00C);
        let mut t = Tree::new();
        let mut made: Vec<Vec<Move>> = Vec::new();
        for _ in 0..lines {
            let mut line = match made.len() {
                0 => Vec::new(),
                n => {
                    let from = &made[rng.below(n as u64) as usize];
                    from[..rng.below(from.len() as u64 + 1) as usize].to_vec()
                }
            };
            let target = line.len() + 2 + rng.below(14) as usize;
            while line.len() < target {
                let last = line.last().map_or(Rel::Opposite, |m: &Move| m.colour);
                let point = if rng.chance(0.03) {
                    Point::Pass
                } else if rng.chance(0.05) {
                    Point::at(1 + rng.below(19) as u8, 17 + rng.below(3) as u8)
                } else {
                    Point::at(1 + rng.below(10) as u8, 1 + rng.below(10) as u8)
                };
                line.push(Move {
                    point,
                    colour: if rng.chance(0.04) { last } else { last.flip() },
                    kind: if rng.chance(0.1) {
                        MoveType::from_bits(rng.below(8) as u8)
                    } else {
                        MoveType::Normal
                    },
                    symmetric: false,
                    colour_reverse: rng.chance(0.01),
                });
            }
            t.add_line(&line);
            made.push(line);
        }
        t.canonicalize();
        t
    }

    #[test]
    fn small_and_fast_modes_answer_alike_on_every_vertex_of_a_generated_large_book() {
        let t = generated_book(2000);
        assert!(t.tree_moves() > 12_000, "{} moves", t.tree_moves());
        // The root's empty path, then every other vertex's first path.
        let mut paths = vec![Vec::new()];
        paths.extend(crate::stats::first_paths(&t));
        for blob in [
            encode(&t, Encoding::Compact),
            encode_compact_with_skip(&t, usize::MAX),
            encode(&t, Encoding::Fotland),
        ] {
            let fast = Walker::new(&blob).unwrap();
            let small = Walker::small(&blob).unwrap();
            let scan = Walker::in_place(&blob).unwrap();
            let (fl, sl) = (
                fast.listings.as_ref().unwrap(),
                small.listings.as_ref().unwrap(),
            );
            assert!(
                sl.lists() > 10 && sl.lists() < fl.lists() / 10,
                "{} of {}",
                sl.lists(),
                fl.lists()
            );
            for (k, path) in paths.iter().enumerate() {
                let frame = Frame::orientation(19, (k % 8) as u8);
                let first = if k % 3 == 0 {
                    Colour::White
                } else {
                    Colour::Black
                };
                let moves: Vec<BoardMove> = path
                    .iter()
                    .map(|&(rel, p)| BoardMove {
                        colour: if rel == Rel::Same {
                            first
                        } else {
                            first.opponent()
                        },
                        at: match p {
                            Point::Pass => None,
                            Point::At { x, y } => frame.to_board(x, y),
                        },
                    })
                    .collect();
                let to_move = if k % 2 == 0 { first } else { first.opponent() };
                // A short buffer (the rest counted) and one that holds every answer.
                for len in [3usize, 200] {
                    let (mut a, mut b) = (
                        vec![Continuation::EMPTY; len],
                        vec![Continuation::EMPTY; len],
                    );
                    let r = fast.lookup(19, &moves, None, to_move, &mut a);
                    let s = small.lookup(19, &moves, None, to_move, &mut b);
                    assert_eq!(
                        (r.corners, r.continuations),
                        (s.corners, s.continuations),
                        "{path:?}"
                    );
                    let n = r.continuations.min(len);
                    assert_eq!(a[..n], b[..n], "{path:?}");
                    assert!(len == 3 || r.continuations < len);
                    // The walker without side tables lists every list from the blob.
                    if k % 500 == 0 {
                        let c = scan.lookup(19, &moves, None, to_move, &mut b);
                        assert_eq!(
                            (r.corners, r.continuations),
                            (c.corners, c.continuations),
                            "{path:?} in place"
                        );
                        assert_eq!(a[..n], b[..n], "{path:?} in place");
                    }
                }
            }
        }
    }
}
