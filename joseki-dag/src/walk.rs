//! The walker: follows the moves played in a corner through an encoded blob. `Walker::new`
//! builds a transition table beside the blob (a step is one hash probe, `walk/table.rs`);
//! `Walker::in_place` scans the blob's sibling lists instead. Answers read the lists decoded
//! (`walk/listing.rs`: every list in the fast mode, the long ones in the small mode) or from
//! the blob.
//!
//! A [`Frame`] maps board coordinates into the corner frame: one of 4 corners times a possible
//! transposition about the corner's diagonal (the 8 orientations), and a rectangle of the frame
//! in which moves count (moves outside it are play elsewhere). Colours are taken relative to the
//! first move inside the rectangle, so either colour may open the corner. A colour repeat (the
//! other side played elsewhere) follows a recorded tenuki if the book has one, else a move
//! stored with the colour exception. Lines below setup stones are entered once the stones are
//! played (`fast::setup_step`); the old per-frame path ([`Walker::follow`]) never enters them.
//!
//! Lookups allocate nothing: the caller provides the moves and the output buffer.

use crate::codec::{DecodeError, Layout, RawEntry, parse_header, read_entry, skip_list};
use crate::model::{MoveType, Point, Rel};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub const fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

/// A move on the board: `at` is `(x, y)`, 0-based column and row from the top-left; `None` is
/// a pass (ignored: a pass is play elsewhere for every corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardMove {
    pub colour: Colour,
    pub at: Option<(u8, u8)>,
}

/// Corner, orientation and rectangle: how board points map into the corner frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub size: u8,
    /// Bit 0: right-hand corner; bit 1: bottom corner.
    pub corner: u8,
    /// Swap the frame's x and y (reflection about the corner's diagonal).
    pub transpose: bool,
    /// The rectangle that counts: frame `x <= width`, `y <= height`.
    pub width: u8,
    pub height: u8,
}

impl Frame {
    /// The whole board seen from `corner` in `orientation & 1` (transpose).
    pub fn new(size: u8, corner: u8, transpose: bool) -> Frame {
        Frame {
            size,
            corner: corner & 3,
            transpose,
            width: size,
            height: size,
        }
    }
    /// The 8 orientations: `index = corner * 2 + transpose`. This numbering is the walker's:
    /// it counts corners, because a corner's two orientations share a walk while the moves lie
    /// on its diagonal. lens-vm numbers the same 8 symmetries as transforms of a drawn
    /// pattern's offsets (`geometry::Orientation`: mirror, then clockwise quarter turns);
    /// [`Frame::vm_orientation`] converts.
    pub fn orientation(size: u8, index: u8) -> Frame {
        Frame::new(size, (index >> 1) & 3, index & 1 != 0)
    }

    /// This frame's orientation in lens-vm's numbering (`lens_vm::geometry::Orientation`
    /// index): the transform that turns an offset in the corner frame (`x` away from the
    /// corner's vertical edge, `y` away from its horizontal edge) into the board offset
    /// (`x` east, `y` south). Tested against lens-vm in `tests/tests/joseki_walk.rs`.
    pub const fn vm_orientation(&self) -> u8 {
        // By `corner * 2 + transpose`: top-left (a, b) -> (a, b) is 0 and (b, a) is 7 (mirror,
        // then 3 turns); top-right (-a, b) 4, (-b, a) 1; bottom-left (a, -b) 6, (b, -a) 3;
        // bottom-right (-a, -b) 2, (-b, -a) 5.
        const VM: [u8; 8] = [0, 7, 4, 1, 6, 3, 2, 5];
        VM[((self.corner & 3) * 2 + self.transpose as u8) as usize]
    }
    pub fn with_rect(mut self, width: u8, height: u8) -> Frame {
        self.width = width;
        self.height = height;
        self
    }
    /// Board point -> corner frame (1-based), if on the board.
    #[inline]
    pub fn to_corner(&self, x: u8, y: u8) -> Option<(u8, u8)> {
        if x >= self.size || y >= self.size {
            return None;
        }
        let cx = if self.corner & 1 != 0 {
            self.size - x
        } else {
            x + 1
        };
        let cy = if self.corner & 2 != 0 {
            self.size - y
        } else {
            y + 1
        };
        Some(if self.transpose { (cy, cx) } else { (cx, cy) })
    }
    /// Corner frame -> board point, if on the board.
    #[inline]
    pub fn to_board(&self, cx: u8, cy: u8) -> Option<(u8, u8)> {
        let (cx, cy) = if self.transpose { (cy, cx) } else { (cx, cy) };
        if cx == 0 || cy == 0 || cx > self.size || cy > self.size {
            return None;
        }
        let x = if self.corner & 1 != 0 {
            self.size - cx
        } else {
            cx - 1
        };
        let y = if self.corner & 2 != 0 {
            self.size - cy
        } else {
            cy - 1
        };
        Some((x, y))
    }
    #[inline]
    fn in_rect(&self, c: (u8, u8)) -> bool {
        c.0 <= self.width && c.1 <= self.height
    }
}

/// A known continuation, in board coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Continuation {
    /// `None`: tenuki (play elsewhere) is a book move here.
    pub at: Option<(u8, u8)>,
    pub colour: Colour,
    pub kind: MoveType,
    pub symmetric: bool,
    pub colour_reverse: bool,
}

impl Continuation {
    pub const EMPTY: Continuation = Continuation {
        at: None,
        colour: Colour::Black,
        kind: MoveType::Normal,
        symmetric: false,
        colour_reverse: false,
    };
}

/// The result of a lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookup {
    pub frame: Frame,
    /// Every move inside the rectangle was found.
    pub in_book: bool,
    /// Moves inside the rectangle that were followed.
    pub followed: usize,
    /// Index (into the caller's moves) of the first move that left the book.
    pub left_at: Option<usize>,
    /// Continuations known (may exceed the output buffer; only that many were written).
    pub continuations: usize,
    /// Blob bytes parsed by this lookup.
    pub parsed: usize,
}

/// The small mode indexes sibling lists of at least this many moves.
const LONG_LIST: usize = 8;

mod engine;
mod fast;
mod jumps;
mod listing;
mod table;

pub use engine::{BookCursor, BookLookup, BookState, CornerBook};

/// A walker over one encoded blob (either encoding).
#[derive(Clone)]
pub struct Walker<'a> {
    l: Layout<'a>,
    /// Per code byte: a one-byte entry and its sibling / child bits (`fast::meta`).
    meta: [u8; 256],
    /// The transition table (`Walker::new`); `None`: steps scan the blob (`Walker::small`,
    /// `Walker::in_place`).
    table: Option<table::Transitions>,
    /// The small mode's jump table over large subtrees (`Walker::small`).
    jumps: Option<jumps::Jumps>,
    /// The fast and small modes' index of the root's setup stones (`fast::root_setups`): every walk
    /// starts at the root, and a first move that is no root move would otherwise try each
    /// root setup edge in turn.
    root_setups: Option<Vec<(u32, u32)>>,
    /// Decoded lists for the answer (`walk/listing.rs`): every list in the fast mode, the long
    /// ones in the small mode.
    listings: Option<listing::Listings>,
}

impl std::fmt::Debug for Walker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Walker");
        d.field("encoding", &self.l.enc)
            .field("bytes", &self.l.bytes.len());
        match &self.table {
            Some(t) => d
                .field("table_lists", &t.lists())
                .field("table_entries", &t.entries())
                .field("table_bytes", &t.heap_bytes())
                .field(
                    "table_bytes_per_entry",
                    &format_args!("{:.1}", t.heap_bytes() as f64 / t.entries().max(1) as f64),
                ),
            None => d.field("table", &"none (scans in place)"),
        };
        if let Some(j) = &self.jumps {
            d.field("jumps", &j.len())
                .field("jump_bytes", &j.heap_bytes());
        }
        if let Some(l) = &self.listings {
            d.field("decoded_lists", &l.lists())
                .field("decoded_bytes", &l.heap_bytes());
        }
        d.finish()
    }
}

impl<'a> Walker<'a> {
    /// The fast mode: validate the blob once (a full decode) and build the transition table
    /// beside it: a step is then one hash probe. The blob stays the walkable format (listings
    /// read it, hopping over subtrees with the small mode's jump table, which it also keeps).
    pub fn new(bytes: &'a [u8]) -> Result<Walker<'a>, DecodeError> {
        let mut w = Walker::in_place(bytes)?;
        // The jump table stays: listings hop over subtrees with it, and the build uses it.
        let jumps = jumps::Jumps::build(&w.l);
        let table = table::Transitions::build(&w.l, &jumps, 0);
        w.jumps = Some(jumps);
        w.listings = Some(listing::Listings::build(&w, &table.list_names(), 1));
        w.table = Some(table);
        w.root_setups = Some(w.root_setups());
        Ok(w)
    }

    /// The small mode: validate the blob once and build a jump table beside it (where each
    /// subtree of `JUMP_MIN` (6) bytes or more that has a next sibling ends);
    /// steps scan their sibling list, hopping over large subtrees with one probe. A fraction
    /// of the blob's size beside it, against [`Walker::new`]'s 10-30x; lookups cost a few
    /// times more (see docs/joseki.md, Walker memory).
    pub fn small(bytes: &'a [u8]) -> Result<Walker<'a>, DecodeError> {
        let mut w = Walker::in_place(bytes)?;
        let jumps = jumps::Jumps::build(&w.l);
        // The long lists (the first moves, big branch points) are decoded: steps and answers
        // read them there, not in the blob. The table holds the setup marks only.
        let all = table::Transitions::build(&w.l, &jumps, 0);
        w.jumps = Some(jumps);
        w.listings = Some(listing::Listings::build(&w, &all.list_names(), LONG_LIST));
        drop(all);
        let jumps = w.jumps.as_ref().expect("set above");
        w.table = Some(table::Transitions::build(&w.l, jumps, usize::MAX));
        w.root_setups = Some(w.root_setups());
        Ok(w)
    }

    /// Validate the blob once (a full decode), then walk it in place: every step scans its
    /// sibling list, parsing earlier siblings' subtrees. No heap; slow on large books (see
    /// [`Walker::small`]).
    pub fn in_place(bytes: &'a [u8]) -> Result<Walker<'a>, DecodeError> {
        if bytes.len() >= fast::VBIT as usize {
            return Err(DecodeError {
                offset: 0,
                reason: "blob of 2 GiB or more: too large to walk",
            });
        }
        crate::codec::decode(bytes)?;
        let l = parse_header(bytes)?;
        if l.limit() >= fast::VBIT as usize {
            return Err(DecodeError {
                offset: 0,
                reason: "blob of 2 GiB or more: too large to walk",
            });
        }
        Ok(Walker {
            l,
            meta: fast::meta(&l),
            table: None,
            jumps: None,
            root_setups: None,
            listings: None,
        })
    }

    /// The root may hold setup edges (lines opening with setup stones): the fast and small
    /// modes know from their index; a walker without one may.
    #[inline]
    pub(crate) fn has_root_setups(&self) -> bool {
        self.root_setups.as_ref().is_none_or(|r| !r.is_empty())
    }

    /// Heap bytes held beside the blob (the transition table, or the jump table).
    pub fn heap_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, |t| t.heap_bytes())
            + self.jumps.as_ref().map_or(0, |j| j.heap_bytes())
            + self.root_setups.as_ref().map_or(0, |r| r.capacity() * 8)
            + self.listings.as_ref().map_or(0, |l| l.heap_bytes())
    }

    /// Offset just after the subtree at `sub`: one probe of the jump table when the walker has
    /// one and the subtree is large, else parsed (counted in `parsed`).
    fn skip_subtree(&self, sub: usize, parsed: &mut usize) -> Result<usize, DecodeError> {
        match self.jumps.as_ref().and_then(|j| j.get(fast::list_key(sub))) {
            Some(end) => Ok(end),
            None => skip_list(&self.l, sub, parsed),
        }
    }

    fn root(&self) -> Option<usize> {
        (self.l.root < self.l.limit()).then_some(self.l.root)
    }

    #[inline]
    /// The entry in the list at `list` for `point` with colour `rel` after a move of colour `pc`.
    fn find(
        &self,
        list: usize,
        pc: Rel,
        point: Point,
        rel: Rel,
        parsed: &mut usize,
    ) -> Result<Option<RawEntry>, DecodeError> {
        let mut pos = list;
        let target = crate::codec::small_point(point);
        let compact = self.l.enc == crate::codec::Encoding::Compact && !self.l.in_bits();
        loop {
            // Fast path (Compact): a one-byte entry of classes 0-3, compared on its code.
            if compact && let Some(&c0) = self.l.bytes.get(pos) {
                let class = self.l.code_class[c0 as usize];
                if class < 4 {
                    *parsed += 1;
                    let (has_sibling, has_child) =
                        crate::codec::compact::CLASS_BITS[class as usize];
                    if target == Some(self.l.code_point[c0 as usize]) && pc.flip() == rel {
                        return read_entry(&self.l, pos).map(Some);
                    }
                    if !has_sibling {
                        return Ok(None);
                    }
                    pos = if has_child {
                        self.skip_subtree(pos + 1, parsed)?
                    } else {
                        pos + 1
                    };
                    continue;
                }
            }
            let e = read_entry(&self.l, pos)?;
            *parsed += e.end - e.start;
            if e.setup.is_none() && e.point == point && e.colour(pc) == rel {
                return Ok(Some(e));
            }
            if !e.has_sibling {
                return Ok(None);
            }
            pos = match (e.subtree(), e.skip) {
                (None, _) => e.end,
                (Some(_), Some(next)) => next,
                (Some(sub), None) => self.skip_subtree(sub, parsed)?,
            };
        }
    }

    /// Follow corner-frame moves `(colour relative to the first, point)` from the empty corner.
    /// Returns (list of the node reached or None at a leaf, its colour, moves followed).
    fn follow_rel(
        &self,
        moves: impl Iterator<Item = (Rel, Point)>,
        parsed: &mut usize,
    ) -> (Option<usize>, Rel, usize, bool) {
        self.follow_rel_from(self.root(), Rel::Opposite, moves, parsed)
    }

    /// [`Walker::follow_rel`] from the list `list` reached by a move of colour `last`.
    pub(crate) fn follow_rel_from(
        &self,
        mut list: Option<usize>,
        mut last: Rel,
        moves: impl Iterator<Item = (Rel, Point)>,
        parsed: &mut usize,
    ) -> (Option<usize>, Rel, usize, bool) {
        let mut n = 0;
        for (rel, point) in moves {
            let Some(at) = list else {
                return (None, last, n, false);
            };
            let found = match self.find(at, last, point, rel, parsed) {
                Ok(Some(e)) => Some(e),
                Ok(None) if rel == last && point != Point::Pass => {
                    // The other side played elsewhere: a recorded tenuki, then the move.
                    match self.find(at, last, Point::Pass, last.flip(), parsed) {
                        Ok(Some(p)) => match p.children() {
                            Some(c) => self.find(c, last.flip(), point, rel, parsed).ok().flatten(),
                            None => None,
                        },
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some(e) = found else {
                return (list, last, n, false);
            };
            list = e.children();
            last = rel;
            n += 1;
        }
        (list, last, n, true)
    }

    /// List the continuations of the list at `list` (after a move of colour `last`).
    fn list(
        &self,
        frame: &Frame,
        list: Option<usize>,
        last: Rel,
        first: Colour,
        out: &mut [Continuation],
        parsed: &mut usize,
    ) -> usize {
        let Some(mut pos) = list else { return 0 };
        let mut n = 0;
        loop {
            let Ok(e) = read_entry(&self.l, pos) else {
                return n;
            };
            *parsed += e.end - e.start;
            if e.setup.is_none() {
                let at = match e.point {
                    Point::Pass => None,
                    Point::At { x, y } => frame.to_board(x, y),
                };
                // Points off this board are not continuations here.
                if at.is_some() || e.point == Point::Pass {
                    if let Some(slot) = out.get_mut(n) {
                        let colour = if e.colour(last) == Rel::Same {
                            first
                        } else {
                            first.opponent()
                        };
                        *slot = Continuation {
                            at,
                            colour,
                            kind: e.kind,
                            symmetric: e.symmetric,
                            colour_reverse: e.reverse,
                        };
                    }
                    n += 1;
                }
            }
            if !e.has_sibling {
                return n;
            }
            pos = match (e.subtree(), e.skip) {
                (None, _) => e.end,
                (Some(_), Some(next)) => next,
                (Some(sub), None) => match self.skip_subtree(sub, parsed) {
                    Ok(p) => p,
                    Err(_) => return n,
                },
            };
        }
    }

    /// Follow `moves` in one known frame, on the general entry path: the per-frame walk that
    /// [`Walker::lookup`] replaces, kept as the benchmark's baseline. `to_move` colours the
    /// continuations of an empty corner.
    pub fn follow(
        &self,
        frame: &Frame,
        moves: &[BoardMove],
        to_move: Colour,
        out: &mut [Continuation],
    ) -> Lookup {
        let first = moves
            .iter()
            .find(|m| {
                m.at.and_then(|(x, y)| frame.to_corner(x, y))
                    .is_some_and(|c| frame.in_rect(c))
            })
            .map(|m| m.colour);
        let base = first.unwrap_or(to_move);
        let mut parsed = 0;
        let iter = moves.iter().filter_map(|m| {
            let c = frame.to_corner(m.at?.0, m.at?.1)?;
            frame.in_rect(c).then(|| {
                (
                    if m.colour == base {
                        Rel::Same
                    } else {
                        Rel::Opposite
                    },
                    Point::at(c.0, c.1),
                )
            })
        });
        let (list, last, followed, in_book) = self.follow_rel(iter, &mut parsed);
        let left_at = if in_book {
            None
        } else {
            // The (followed + 1)-th move inside the rectangle.
            let mut k = 0;
            moves.iter().position(|m| {
                let inside =
                    m.at.and_then(|(x, y)| frame.to_corner(x, y))
                        .is_some_and(|c| frame.in_rect(c));
                if inside {
                    k += 1;
                }
                inside && k == followed + 1
            })
        };
        let continuations = if in_book {
            self.list(frame, list, last, base, out, &mut parsed)
        } else {
            0
        };
        Lookup {
            frame: *frame,
            in_book,
            followed,
            left_at,
            continuations,
            parsed,
        }
    }

    /// One corner, as [`Walker::lookup`] with `Some(corner)` (both orientations, RiscIgo's
    /// rectangles), reported as a [`Lookup`]: `frame` is the deciding rectangle in the first
    /// orientation in the book, `continuations` those of every orientation in the book. An
    /// empty corner is `in_book` with the book's first moves.
    pub fn lookup_corner(
        &self,
        size: u8,
        corner: u8,
        moves: &[BoardMove],
        to_move: Colour,
        out: &mut [Continuation],
    ) -> Lookup {
        let r = self.lookup(size, moves, Some(corner), to_move, out);
        let c = r.corners[corner as usize & 3];
        Lookup {
            frame: c.frame(size, c.orientations == 2),
            in_book: c.state != BookState::OutOfBook,
            followed: c.followed,
            left_at: c.left_at,
            continuations: r.continuations,
            parsed: r.parsed,
        }
    }

    /// Follow corner-frame moves (colours relative to the first) and list the continuations in
    /// frame coordinates. For tools and tests; allocation-free too.
    pub fn follow_frame(
        &self,
        line: &[(Rel, Point)],
        out: &mut [(Rel, Point, MoveType)],
    ) -> Option<usize> {
        let mut parsed = 0;
        let (list, last, _, ok) = self.follow_rel(line.iter().copied(), &mut parsed);
        if !ok {
            return None;
        }
        let Some(mut pos) = list else { return Some(0) };
        let mut n = 0;
        loop {
            let e = read_entry(&self.l, pos).ok()?;
            if e.setup.is_none() {
                if let Some(s) = out.get_mut(n) {
                    *s = (e.colour(last), e.point, e.kind);
                }
                n += 1;
            }
            if !e.has_sibling {
                return Some(n);
            }
            pos = match (e.subtree(), e.skip) {
                (None, _) => e.end,
                (Some(_), Some(next)) => next,
                (Some(sub), None) => self.skip_subtree(sub, &mut parsed).ok()?,
            };
        }
    }

    /// The list at the root of the blob, for [`Walker::follow_rel_from`].
    pub(crate) fn root_list(&self) -> Option<usize> {
        self.root()
    }

    /// Bytes parsed to follow `line` (corner frame, relative colours); `None` if not in book.
    pub fn parsed_for(&self, line: &[(Rel, Point)]) -> Option<usize> {
        let mut parsed = 0;
        let (_, _, _, ok) = self.follow_rel(line.iter().copied(), &mut parsed);
        ok.then_some(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_map_back_and_forth_and_cover_8_distinct_orientations() {
        for size in [9u8, 13, 19] {
            let mut images = std::collections::BTreeSet::new();
            for o in 0..8 {
                let f = Frame::orientation(size, o);
                for x in 0..size {
                    for y in 0..size {
                        let (cx, cy) = f.to_corner(x, y).unwrap();
                        assert_eq!(f.to_board(cx, cy), Some((x, y)));
                    }
                }
                assert_eq!(f.to_corner(size, 0), None);
                // Where the frame's (3, 4) lands: 8 different board points.
                images.insert(f.to_board(3, 4).unwrap());
                // The frame's corner point is a board corner.
                let (bx, by) = f.to_board(1, 1).unwrap();
                assert!((bx == 0 || bx == size - 1) && (by == 0 || by == size - 1));
            }
            assert_eq!(images.len(), 8);
        }
    }
}
