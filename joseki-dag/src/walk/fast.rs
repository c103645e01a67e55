//! The fast step: one move from a position, through the transition table (`table`) or, for
//! a walker without one ([`Walker::in_place`]), by scanning its sibling list in place.
//!
//! The scan: Compact entries of classes 0-3 are one byte: they are compared on their code and
//! skipped without building a [`RawEntry`](crate::codec::RawEntry); earlier siblings' subtrees
//! are jumped by their skip fields, or counted over byte by byte when small. Every other entry
//! (and every Fotland entry) goes through `read_entry`. The blob was validated by
//! `Walker::new`, so a read error here only ends the walk.

use super::listing::{EXCEPTION, Entry, Listings};
use super::{Colour, Continuation, Frame, Walker};
use crate::codec::compact::CLASS_BITS;
use crate::codec::{Encoding, Layout, RawEntry, VIRTUAL, is_virtual, read_entry};
use crate::model::{MoveType, Point, Rel};

/// No child list (a leaf).
pub(crate) const LEAF: u32 = u32::MAX;
/// A list named by a `u32`: a blob offset, or with this bit, the codec's virtual position of a
/// pair code's second move (which only `read_entry` reads). Blobs are under 2 GiB.
pub(crate) const VBIT: u32 = 1 << 31;

/// A list position (blob offset or virtual) as a `u32` list name.
#[inline]
pub(crate) fn list_key(pos: usize) -> u32 {
    if is_virtual(pos) {
        (pos & !VIRTUAL) as u32 | VBIT
    } else {
        pos as u32
    }
}

/// A `u32` list name (not `LEAF`) as a list position.
#[inline]
pub(crate) fn list_pos(list: u32) -> usize {
    if list & VBIT != 0 {
        VIRTUAL | (list & !VBIT) as usize
    } else {
        list as usize
    }
}

/// Where a walk stands: the child list of the position reached (`LEAF`: nothing follows) and
/// the colour of the move that reached it. The empty corner acts as if `Opposite` moved last.
///
/// While the stones of a setup are being played (`got != 0`), `list` stays the list holding
/// the setup edges, `got` has bit `2k + f` for its `k`-th setup edge still a candidate (`f`:
/// with colours reversed) and `played` counts the stones played. `flip`: the line opened with
/// setup stones and its colours are the reverse of those relative to the first stone played
/// (the engine flips them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub list: u32,
    pub last: Rel,
    pub flip: bool,
    pub played: u8,
    /// While pending: `1 + 2k + f` when candidate `(k, f)` has all its stones on the board but
    /// a larger candidate is still alive (0: none); the walk settles on it
    /// ([`Walker::settle`]) if the next move is no stone of the larger one.
    pub done: u8,
    pub got: u32,
}

impl At {
    pub(crate) const fn new(list: u32, last: Rel) -> At {
        At {
            list,
            last,
            flip: false,
            played: 0,
            done: 0,
            got: 0,
        }
    }
}

/// Setup edges of one list that a walk considers (two candidate bits each in `At::got`).
pub(crate) const MAX_SETUPS: usize = 16;

/// The work a walk did: blob bytes parsed (scans and listings) and table probes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Work {
    pub parsed: usize,
    pub probes: usize,
}

/// One entry as the listing sees it.
#[derive(Clone, Copy)]
pub(crate) struct View {
    pub point: Point,
    pub colour: Rel,
    pub kind: MoveType,
    pub symmetric: bool,
    pub reverse: bool,
}

/// `Walker::meta` bits of a code byte: a one-byte plain entry (Compact classes 0-3), and its
/// has-sibling and has-child bits. Zero for every other byte (and every Fotland byte).
pub(crate) const ONE: u8 = 0x80;
pub(crate) const SIB: u8 = 1;
pub(crate) const CHILD: u8 = 2;

pub(crate) fn meta(l: &Layout<'_>) -> [u8; 256] {
    let mut m = [0u8; 256];
    if l.enc == Encoding::Compact {
        for (c, slot) in m.iter_mut().enumerate() {
            let class = l.code_class[c];
            if class < 4 {
                let (s, ch) = CLASS_BITS[class as usize];
                *slot = ONE | if s { SIB } else { 0 } | if ch { CHILD } else { 0 };
            }
        }
    }
    m
}

/// A stone's key in [`Walker::root_setups`].
#[inline]
fn setup_stone_key(x: u8, y: u8, rel: Rel) -> u32 {
    (x as u32) << 9 | (y as u32) << 1 | (rel == Rel::Opposite) as u32
}

impl Walker<'_> {
    /// The empty corner.
    #[inline]
    pub(crate) fn root_at(&self) -> At {
        At::new(
            if self.l.root < self.l.limit() {
                self.l.root as u32
            } else {
                LEAF
            },
            Rel::Opposite,
        )
    }

    /// The meta bits, point byte and end of a one-symbol entry at `pos` (a real position,
    /// Compact): one byte, or one Huffman code in version 4.
    #[inline(always)]
    fn one_byte(&self, pos: usize) -> Option<(u8, u8, usize)> {
        let (c0, end) = match &self.l.huff {
            None => (*self.l.bytes.get(pos)?, pos + 1),
            Some(d) if !is_virtual(pos) => d.symbol(self.l.bytes, pos)?,
            Some(_) => return None,
        };
        let m = self.meta[c0 as usize];
        (m & ONE != 0).then(|| (m, self.l.code_point[c0 as usize], end))
    }

    /// Play (`rel`, `point`) from `at`. A colour repeat (the other side played elsewhere)
    /// follows a recorded tenuki if the list has no colour-exception move for it. A move that
    /// is no move of the list but a stone of one of its setup edges starts that setup
    /// ([`Walker::setup_step`]).
    #[inline]
    pub(crate) fn step(&self, at: At, rel: Rel, point: Point, work: &mut Work) -> Option<At> {
        if at.list == LEAF {
            return None;
        }
        if at.got != 0 {
            return self.setup_step(at, rel, point, work);
        }
        let next = match &self.table {
            Some(t) if !t.partial() => t.step(at, rel, point, &mut work.probes),
            // The small mode: a long list is decoded, a short one scanned.
            _ => match self.listings.as_ref().and_then(|l| l.get(at.list)) {
                Some(list) => {
                    work.probes += 1;
                    Listings::child(&list, point, rel == at.last).map(|c| At::new(c, rel))
                }
                None => self.scan_step(at, rel, point, &mut work.parsed),
            },
        };
        next.map(|n| At { flip: at.flip, ..n })
            .or_else(|| self.missed(at, rel, point, work))
    }

    /// A move that is not in the list: the stone of a setup edge there, else a recorded
    /// tenuki then the move (see `Transitions::after_tenuki`).
    #[cold]
    #[inline(never)]
    pub(crate) fn missed(&self, at: At, rel: Rel, point: Point, work: &mut Work) -> Option<At> {
        if let Some(n) = self.setup_step(at, rel, point, work) {
            return Some(n);
        }
        let n = match &self.table {
            Some(t) if !t.partial() => t.after_tenuki(at, rel, point, &mut work.probes),
            _ => self.scan_tenuki(at, rel, point, &mut work.parsed),
        };
        n.map(|n| At { flip: at.flip, ..n })
    }

    /// Setup edges: their stones count as on the board when they are played (in any order,
    /// each with its colour) where the line holds the setup. At a list holding setup edges, a
    /// move that is no move of the list starts a setup: every setup edge of the list (the
    /// first [`MAX_SETUPS`]) holding that stone stays a candidate, and at the root, also with
    /// colours reversed (a line that opens with setup stones has colours relative to its first
    /// move, which may come after stones of the other colour). Each further stone keeps the
    /// candidates that hold it; when one has all its added stones on the board (the first in
    /// list order), the walk stands below it, and the side that moved last is the one before
    /// the setup, as in the book; while a larger candidate is still alive the walk waits (and
    /// settles on the complete one if the next move is no stone of the larger). Removed stones
    /// (`AE`) are not checked.
    #[cold]
    #[inline(never)]
    pub(crate) fn setup_step(&self, at: At, rel: Rel, point: Point, work: &mut Work) -> Option<At> {
        let Point::At { x, y } = point else {
            return None;
        };
        if at.list == LEAF || at.list & VBIT != 0 {
            return None;
        }
        let (candidates, played) = if at.got != 0 {
            (at.got, at.played)
        } else {
            let root = at == self.root_at();
            if let (true, Some(index)) = (root, &self.root_setups) {
                // Only the root setup edges holding this stone (either colour reading).
                match index.binary_search_by_key(&setup_stone_key(x, y, rel), |e| e.0) {
                    Ok(i) => (index[i].1, 0u8),
                    Err(_) => return None,
                }
            } else {
                if let Some(t) = &self.table {
                    work.probes += 1;
                    if !t.has_setup(at.list) {
                        return None;
                    }
                }
                // Both colour readings at the root only.
                let flips = if root { 0b11 } else { 0b01 };
                (flips * 0x5555_5555u32, 0u8)
            }
        };
        let played = played.saturating_add(1);
        let mut got = 0u32;
        let mut done: Option<(RawEntry, usize, usize)> = None;
        let mut larger = false;
        for k in 0..MAX_SETUPS {
            if candidates >> (2 * k) & 3 == 0 {
                continue;
            }
            let Some(e) = self.setup_entry(at.list, k, work) else {
                break;
            };
            let (stones, count) = e.setup?;
            for f in 0..2 {
                if candidates >> (2 * k + f) & 1 == 0 {
                    continue;
                }
                let want = if f == 1 { rel.flip() } else { rel };
                let (mut added, mut holds) = (0usize, false);
                for i in 0..count {
                    let Some((a, b)) = self.l.stone(stones, i) else {
                        continue;
                    };
                    let colour = match a >> 6 {
                        0 => Rel::Same,
                        1 => Rel::Opposite,
                        _ => continue, // a removed stone
                    };
                    added += 1;
                    holds |= (a & 0x3f, b, colour) == (x, y, want);
                }
                if !holds {
                    continue;
                }
                if added == played as usize {
                    if done.is_none() {
                        done = Some((e, k, f));
                    }
                } else {
                    got |= 1 << (2 * k + f);
                    larger = true;
                }
            }
        }
        match done {
            Some((e, _, f)) if !larger => Some(At {
                flip: at.flip ^ (f == 1),
                ..At::new(e.children().map_or(LEAF, list_key), at.last)
            }),
            Some((_, k, f)) => Some(At {
                got,
                played,
                done: (1 + 2 * k + f) as u8,
                ..at
            }),
            None if got != 0 => Some(At {
                got,
                played,
                done: 0,
                ..at
            }),
            None if at.done != 0 => {
                // No stone of a larger setup: the complete one stands, and this move is played
                // below it (colours read as that setup's).
                let below = self.settle(at, work);
                let rel = if below.flip != at.flip {
                    rel.flip()
                } else {
                    rel
                };
                self.step(below, rel, point, work)
            }
            None => None,
        }
    }

    /// The root's setup stones: sorted `(setup_stone_key(x, y, rel), candidates)`, where
    /// `candidates` has bit `2k + f` when the `k`-th root setup edge (the first
    /// [`MAX_SETUPS`]) adds a stone at `(x, y)` of colour `rel` read with colours reversed
    /// (`f == 1`) or not: exactly the candidates `setup_step` keeps for a first stone there.
    pub(crate) fn root_setups(&self) -> Vec<(u32, u32)> {
        let root = self.root_at();
        let mut index = std::collections::BTreeMap::<u32, u32>::new();
        if root.list == LEAF {
            return Vec::new();
        }
        let mut work = Work::default();
        for k in 0..MAX_SETUPS {
            let Some(e) = self.setup_entry(root.list, k, &mut work) else {
                break;
            };
            let Some((stones, count)) = e.setup else {
                break;
            };
            for i in 0..count {
                let Some((a, b)) = self.l.stone(stones, i) else {
                    continue;
                };
                let colour = match a >> 6 {
                    0 => Rel::Same,
                    1 => Rel::Opposite,
                    _ => continue, // a removed stone
                };
                for rel in [Rel::Same, Rel::Opposite] {
                    let f = (colour != rel) as u32;
                    *index.entry(setup_stone_key(a & 0x3f, b, rel)).or_default() |=
                        1 << (2 * k as u32 + f);
                }
            }
        }
        index.into_iter().collect()
    }

    /// A walk waiting on a setup with a complete candidate stands below that candidate;
    /// any other walk as it is.
    pub(crate) fn settle(&self, at: At, work: &mut Work) -> At {
        if at.got == 0 || at.done == 0 {
            return at;
        }
        let d = (at.done - 1) as usize;
        match self.setup_entry(at.list, d / 2, work) {
            Some(e) => At {
                flip: at.flip ^ (d % 2 == 1),
                ..At::new(e.children().map_or(LEAF, list_key), at.last)
            },
            None => at,
        }
    }

    /// The `k`-th setup entry of the list `list` (a blob offset).
    pub(crate) fn setup_entry(&self, list: u32, k: usize, work: &mut Work) -> Option<RawEntry> {
        let pos = match &self.table {
            Some(t) => {
                work.probes += 1;
                t.setup_at(list, k)? as usize
            }
            None => {
                let mut pos = list as usize;
                let mut seen = 0;
                loop {
                    let e = read_entry(&self.l, pos).ok()?;
                    work.parsed += e.end - e.start;
                    if e.setup.is_some() {
                        if seen == k {
                            break pos;
                        }
                        seen += 1;
                    }
                    if !e.has_sibling {
                        return None;
                    }
                    pos = match (e.subtree(), e.skip) {
                        (None, _) => e.end,
                        (Some(_), Some(next)) => next,
                        (Some(sub), None) => self.skip(sub, &mut work.parsed)?,
                    };
                }
            }
        };
        read_entry(&self.l, pos).ok().filter(|e| e.setup.is_some())
    }

    /// Where the other side's recorded tenuki at `at` leads (for the side that moved last
    /// to move again), if the list has one.
    pub(crate) fn after_pass(&self, at: At, work: &mut Work) -> Option<At> {
        if at.list == LEAF || at.got != 0 {
            return None;
        }
        let child = match &self.table {
            Some(t) if !t.partial() => {
                work.probes += 1;
                t.get(at.list, Point::Pass, false)?
            }
            _ => {
                self.seek(
                    list_pos(at.list),
                    at.last,
                    Point::Pass,
                    at.last.flip(),
                    &mut work.parsed,
                )?
                .list
            }
        };
        Some(At::new(child, at.last.flip()))
    }

    /// [`Walker::step`] by scanning the blob (the walker without a table, and the reference
    /// the table is tested against).
    #[inline(never)]
    pub(crate) fn scan_step(
        &self,
        at: At,
        rel: Rel,
        point: Point,
        parsed: &mut usize,
    ) -> Option<At> {
        if at.list == LEAF {
            return None;
        }
        self.seek(list_pos(at.list), at.last, point, rel, parsed)
    }

    /// A recorded tenuki then the move, by scanning (as `Transitions::after_tenuki`).
    fn scan_tenuki(&self, at: At, rel: Rel, point: Point, parsed: &mut usize) -> Option<At> {
        if at.list == LEAF || point == Point::Pass {
            return None;
        }
        let list = list_pos(at.list);
        // A recorded tenuki (of the other side, or of the same side, see `Transitions::step`),
        // then the move.
        let p = self.seek(list, at.last, Point::Pass, at.last.flip(), parsed)?;
        if p.list == LEAF {
            return None;
        }
        self.seek(list_pos(p.list), p.last, point, rel, parsed)
    }

    /// The entry for (`rel`, `point`) in the list at `list` (after a move of colour `pc`).
    #[inline]
    pub(super) fn seek(
        &self,
        list: usize,
        pc: Rel,
        point: Point,
        rel: Rel,
        parsed: &mut usize,
    ) -> Option<At> {
        let exception = rel == pc;
        // A one-byte entry is never a colour exception, a pass or a far point.
        let want = match crate::codec::small_point(point) {
            Some(b) if !exception => b as u16,
            _ => 0x100,
        };
        let mut pos = list;
        loop {
            if let Some((m, p, end)) = self.one_byte(pos) {
                *parsed += end - pos;
                if p as u16 == want {
                    return Some(At::new(
                        if m & CHILD != 0 { list_key(end) } else { LEAF },
                        rel,
                    ));
                }
                if m & SIB == 0 {
                    return None;
                }
                pos = if m & CHILD != 0 {
                    self.skip(end, parsed)?
                } else {
                    end
                };
                continue;
            }
            let e = read_entry(&self.l, pos).ok()?;
            *parsed += e.end - e.start;
            if e.setup.is_none() && e.point == point && e.colour(pc) == rel {
                return Some(At::new(e.children().map_or(LEAF, list_key), rel));
            }
            if !e.has_sibling {
                return None;
            }
            pos = match (e.subtree(), e.skip) {
                (None, _) => e.end,
                (Some(_), Some(next)) => next,
                (Some(sub), None) => self.skip(sub, parsed)?,
            };
        }
    }

    /// Offset just after the list at `pos` and every inline subtree in it (a pair code's
    /// second move, at its virtual position, counts as the pair's child).
    #[inline]
    fn skip(&self, mut pos: usize, parsed: &mut usize) -> Option<usize> {
        if let Some(end) = self.jumps.as_ref().and_then(|j| j.get(list_key(pos))) {
            return Some(end);
        }
        let mut pending: usize = 1;
        loop {
            if let Some((m, _, end)) = self.one_byte(pos) {
                *parsed += end - pos;
                pos = end;
                pending = pending - 1 + (m & SIB) as usize + (m & CHILD != 0) as usize;
            } else {
                let e = read_entry(&self.l, pos).ok()?;
                *parsed += e.end - e.start;
                pending -= 1;
                if let Some(v) = e.ptr.filter(|&p| crate::codec::is_virtual(p)) {
                    pos = v;
                    pending += 1 + e.has_sibling as usize;
                } else if let Some(next) = e.skip.filter(|_| e.inline_children()) {
                    pos = next;
                    pending += e.has_sibling as usize;
                } else {
                    pos = e.end;
                    pending += e.has_sibling as usize + e.inline_children() as usize;
                }
            }
            if pending == 0 {
                return Some(pos);
            }
        }
    }

    /// Call `f` on every move entry of the list at `at` (setup entries are not moves).
    #[inline]
    pub(crate) fn each(&self, at: At, parsed: &mut usize, mut f: impl FnMut(View)) {
        self.each_child(at, parsed, |v, _| f(v));
    }

    /// [`Walker::each`], with each entry's child list (`LEAF`: none).
    #[inline]
    pub(crate) fn each_child(&self, at: At, parsed: &mut usize, mut f: impl FnMut(View, u32)) {
        // In the middle of a setup: no book position, nothing to list.
        if at.list == LEAF || at.got != 0 {
            return;
        }
        let mut pos = list_pos(at.list);
        loop {
            // (has a sibling, Ok(next sibling) | Err(inline children to skip over)).
            let (has_sibling, next) = if let Some((m, p, end)) = self.one_byte(pos) {
                *parsed += end - pos;
                f(
                    View {
                        point: crate::codec::from_small(p),
                        colour: at.last.flip(),
                        kind: MoveType::Normal,
                        symmetric: false,
                        reverse: false,
                    },
                    if m & CHILD != 0 { list_key(end) } else { LEAF },
                );
                let next = if m & CHILD != 0 { Err(end) } else { Ok(end) };
                (m & SIB != 0, next)
            } else {
                let Ok(e) = read_entry(&self.l, pos) else {
                    return;
                };
                *parsed += e.end - e.start;
                if e.setup.is_none() {
                    f(
                        View {
                            point: e.point,
                            colour: e.colour(at.last),
                            kind: e.kind,
                            symmetric: e.symmetric,
                            reverse: e.reverse,
                        },
                        e.children().map_or(LEAF, list_key),
                    );
                }
                let next = match (e.subtree(), e.skip) {
                    (None, _) => Ok(e.end),
                    (Some(_), Some(n)) => Ok(n),
                    (Some(sub), None) => Err(sub),
                };
                (e.has_sibling, next)
            };
            if !has_sibling {
                return;
            }
            pos = match next {
                Ok(n) => n,
                Err(children) => match self.skip(children, parsed) {
                    Some(n) => n,
                    None => return,
                },
            };
        }
    }
}

/// The answer being written: the caller's buffer, the continuations counted, and which
/// (board point, colour) pairs are in the buffer already (a bit each), so that only a repeat
/// searches the buffer.
pub(crate) struct Answer<'o> {
    out: &'o mut [Continuation],
    pub n: usize,
    /// Bit `2 * (x * 25 + y) + colour` for a board point (sizes up to 25), `2 * 625 +
    /// colour` for a tenuki.
    seen: [u64; 20],
}

impl<'o> Answer<'o> {
    pub(crate) fn new(out: &'o mut [Continuation]) -> Answer<'o> {
        Answer {
            out,
            n: 0,
            seen: [0; 20],
        }
    }

    #[inline(always)]
    fn full(&self) -> bool {
        self.n >= self.out.len()
    }

    /// One continuation. Until the buffer is full, a repeat (same point and colour: the same
    /// move seen through two orientations, a symmetric position or a book holding both
    /// reflections) is not written again but keeps the stronger type (the union's rule,
    /// `MoveType::stronger`), so the answer does not depend on which orientation was listed
    /// first; once it is full, further continuations are only counted.
    #[inline(always)]
    fn add(&mut self, c: Continuation) {
        if self.full() {
            self.n += 1;
            return;
        }
        let key = match c.at {
            Some((x, y)) => x as usize * 25 + y as usize,
            None => 625,
        } * 2
            + (c.colour == Colour::White) as usize;
        let (word, bit) = (key / 64 % 20, 1u64 << (key % 64));
        if self.seen[word] & bit != 0 {
            let n = self.n;
            if let Some(d) = self.out[..n]
                .iter_mut()
                .find(|d| d.at == c.at && d.colour == c.colour)
            {
                d.kind = d.kind.stronger(c.kind);
                d.symmetric |= c.symmetric;
                d.colour_reverse |= c.colour_reverse;
                return;
            }
        }
        self.seen[word] |= bit;
        self.out[self.n] = c;
        self.n += 1;
    }
}

impl Walker<'_> {
    /// Add the continuations at `at`, seen through `frame`, to the answer. Points off the
    /// board are not continuations. `first` colours `Rel::Same`.
    pub(crate) fn list_into(
        &self,
        at: At,
        frame: &Frame,
        first: Colour,
        answer: &mut Answer<'_>,
        parsed: &mut usize,
    ) {
        self.list_colour(at, frame, first, None, answer, parsed);
    }

    /// The book's moves at `at` for the side to move (`want`, relative to `first`): the moves
    /// of that colour in the list; when that side also moved last (the other side played
    /// elsewhere), also the moves after the other side's recorded tenuki.
    pub(crate) fn list_for(
        &self,
        at: At,
        frame: &Frame,
        first: Colour,
        want: Rel,
        answer: &mut Answer<'_>,
        work: &mut Work,
    ) {
        self.list_colour(at, frame, first, Some(want), answer, &mut work.parsed);
        if want == at.last
            && let Some(p) = self.after_pass(at, work)
        {
            self.list_colour(p, frame, first, Some(want), answer, &mut work.parsed);
        }
    }

    fn list_colour(
        &self,
        at: At,
        frame: &Frame,
        first: Colour,
        want: Option<Rel>,
        answer: &mut Answer<'_>,
        parsed: &mut usize,
    ) {
        let continuation = |point: Point, colour: Rel, kind, symmetric, reverse| {
            let at = match point {
                Point::Pass => None,
                Point::At { x, y } => Some(frame.to_board(x, y)?),
            };
            Some(Continuation {
                at,
                colour: if colour == Rel::Same {
                    first
                } else {
                    first.opponent()
                },
                kind,
                symmetric,
                colour_reverse: reverse,
            })
        };
        // A decoded list (fast mode: every list; small mode: the long ones).
        if at.got == 0
            && let Some(list) = self.listings.as_ref().and_then(|l| l.get(at.list))
        {
            // The colour of a plain entry, and of a colour exception.
            let (plain, exception) = (at.last.flip(), at.last);
            // Once the buffer is full, the rest of the list is counted without reading it
            // when every point is on the board.
            let on_board = list.max_coord <= frame.size;
            let (total, wanted_bit) = match want {
                None => (list.entries.len(), None),
                Some(w) if w == exception => (list.exceptions, Some(EXCEPTION)),
                Some(_) => (list.entries.len() - list.exceptions, Some(0)),
            };
            let mut wanted = 0;
            for &e in list.entries {
                if wanted_bit.is_some_and(|b| e & EXCEPTION != b) {
                    continue;
                }
                if on_board && answer.full() {
                    answer.n += total - wanted;
                    return;
                }
                wanted += 1;
                let e = Entry(e);
                let colour = if e.exception() { exception } else { plain };
                if let Some(c) =
                    continuation(e.point(), colour, e.kind(), e.symmetric(), e.reverse())
                {
                    answer.add(c);
                }
            }
            return;
        }
        self.each(at, parsed, |v| {
            if want.is_some_and(|w| w != v.colour) {
                return;
            }
            if let Some(c) = continuation(v.point, v.colour, v.kind, v.symmetric, v.reverse) {
                answer.add(c);
            }
        });
    }

    /// Follow corner-frame moves (colours relative to the first, passes allowed) on the fast
    /// path and list the continuations in frame coordinates: the frame-level form of
    /// [`Walker::lookup`], for tools and differential tests. `None`: a move is not in the book.
    /// Returns (continuations known, blob bytes parsed: by the listing, and by the walk of a
    /// walker without a table); only `out.len()` are written.
    pub fn frame_next(
        &self,
        line: &[(Rel, Point)],
        out: &mut [(Rel, Point, MoveType)],
    ) -> Option<(usize, usize)> {
        let mut work = Work::default();
        let mut at = self.root_at();
        for &(rel, point) in line {
            at = self.step(at, rel, point, &mut work)?;
        }
        let mut n = 0;
        self.each(at, &mut work.parsed, |v| {
            if let Some(slot) = out.get_mut(n) {
                *slot = (v.colour, v.point, v.kind);
            }
            n += 1;
        });
        Some((n, work.parsed))
    }
}
