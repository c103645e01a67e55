//! The engine lookup: the moves played on the board, every corner in both orientations (the
//! 8 orientations) and either colour, RiscIgo's rectangles from the half boards down to the
//! quarter board; and the incremental cursor it is built on.
//!
//! Work is done once where frames coincide:
//! * colours are relative to the first move inside a rectangle, so the two colours that may
//!   open a corner are one walk;
//! * the two orientations of a corner (transposed or not) share one walk while every move so
//!   far lies on the corner's diagonal (4-4, 3-3, 5-5 ...), and split at the first move off it;
//! * the three rectangles of a corner share the quarter board's walk until a move falls inside
//!   a half board but outside the quarter (the half then copies the quarter's state);
//! * a frame dies at its first move that is not in the book and costs nothing after that.
//!
//! Each move costs, per live frame, one scan of the sibling list it is played from.

use super::fast::{At, LEAF};
use super::{BoardMove, Colour, Continuation, Frame, Walker};
use crate::model::{Point, Rel};

/// What a corner looks like to the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BookState {
    /// No move in the corner's quarter board, and no larger rectangle in the book.
    #[default]
    Empty,
    /// Every move in a rectangle (at least one) is in the book.
    InBook,
    /// The quarter board has moves and no rectangle is in the book.
    OutOfBook,
}

/// The result for one corner (`corner`: bit 0 right, bit 1 bottom, as [`Frame`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CornerBook {
    pub corner: u8,
    pub state: BookState,
    /// The rectangle that decided (`InBook`) or went deepest (`OutOfBook`), as the width and
    /// height of the corner's untransposed frame; the quarter board when `Empty`.
    pub width: u8,
    pub height: u8,
    /// Bit `t` set: the frame with `transpose == (t == 1)` is in the book (`InBook`; both
    /// bits for an empty corner, whose first moves are listed in both orientations).
    pub orientations: u8,
    /// `InBook`: moves in the rectangle (all followed). `OutOfBook`: moves followed before
    /// the first one not in the book (the best orientation).
    pub followed: usize,
    /// `OutOfBook`: index (into the moves played) of the move that left the book.
    pub left_at: Option<usize>,
}

impl CornerBook {
    const fn empty(corner: u8, half: u8) -> CornerBook {
        CornerBook {
            corner,
            state: BookState::Empty,
            width: half,
            height: half,
            orientations: 0,
            followed: 0,
            left_at: None,
        }
    }

    /// The frame of orientation `transpose` with this rectangle.
    pub fn frame(&self, size: u8, transpose: bool) -> Frame {
        let f = Frame::new(size, self.corner, transpose);
        if transpose {
            f.with_rect(self.height, self.width)
        } else {
            f.with_rect(self.width, self.height)
        }
    }
}

/// The result of [`Walker::lookup`] / [`BookCursor::lookup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookLookup {
    /// Every corner, by index; corners not asked about are `Empty` with no orientation.
    pub corners: [CornerBook; 4],
    /// Distinct continuations (board point or tenuki, and colour) of the corners in the book,
    /// plus the first moves of a named empty corner. Only `out.len()` are written; once `out`
    /// is full, further ones are counted without removing duplicates.
    pub continuations: usize,
    /// Blob bytes parsed by the walk and the listing.
    pub parsed: usize,
}

impl BookLookup {
    /// Some corner has moves and all of them (in its deciding rectangle) are in the book.
    pub fn in_book(&self) -> bool {
        self.corners.iter().any(|c| c.state == BookState::InBook)
    }
    /// The earliest move at which a corner left the book.
    pub fn left_at(&self) -> Option<usize> {
        self.corners.iter().filter_map(|c| c.left_at).min()
    }
}

/// One rectangle of one corner, in both orientations.
#[derive(Clone, Copy, Debug)]
struct RectWalk {
    /// Moves inside the rectangle so far.
    n: u16,
    /// The colour of the first of them: colours are relative to it.
    first: Colour,
    /// Orientation `t` (0 untransposed, 1 transposed): where its walk stands.
    at: [At; 2],
    /// Moves followed, and the index of the move it died at (`u32::MAX`: alive).
    followed: [u16; 2],
    left: [u32; 2],
    /// The two orientations have seen the same corner-frame moves (all on the diagonal).
    shared: bool,
}

impl RectWalk {
    const NEW: RectWalk = RectWalk {
        n: 0,
        first: Colour::Black,
        at: [
            At {
                list: LEAF,
                last: Rel::Opposite,
            },
            At {
                list: LEAF,
                last: Rel::Opposite,
            },
        ],
        followed: [0; 2],
        left: [u32::MAX; 2],
        shared: true,
    };

    fn alive(&self, t: usize) -> bool {
        self.left[t] == u32::MAX
    }

    /// Play a move inside the rectangle. A dead rectangle only counts it (inlined: most
    /// rectangles of a lookup die at their first move).
    #[inline(always)]
    fn play(&mut self, w: &Walker<'_>, cx: u8, cy: u8, colour: Colour, k: u32, parsed: &mut usize) {
        if self.n > 0 && self.left[0] != u32::MAX && self.left[1] != u32::MAX {
            self.n = self.n.saturating_add(1);
            return;
        }
        self.play_live(w, cx, cy, colour, k, parsed);
    }

    fn play_live(
        &mut self,
        w: &Walker<'_>,
        cx: u8,
        cy: u8,
        colour: Colour,
        k: u32,
        parsed: &mut usize,
    ) {
        if self.n == 0 {
            self.first = colour;
            self.at = [w.root_at(); 2];
        }
        self.n = self.n.saturating_add(1);
        let rel = if colour == self.first {
            Rel::Same
        } else {
            Rel::Opposite
        };
        if self.shared {
            if !self.alive(0) {
                return;
            }
            if cx == cy {
                self.advance(w, 0, rel, Point::at(cx, cy), k, parsed);
                self.at[1] = self.at[0];
                self.followed[1] = self.followed[0];
                self.left[1] = self.left[0];
                return;
            }
            self.shared = false;
        }
        if self.alive(0) {
            self.advance(w, 0, rel, Point::at(cx, cy), k, parsed);
        }
        if self.alive(1) {
            self.advance(w, 1, rel, Point::at(cy, cx), k, parsed);
        }
    }

    #[inline]
    fn advance(
        &mut self,
        w: &Walker<'_>,
        t: usize,
        rel: Rel,
        p: Point,
        k: u32,
        parsed: &mut usize,
    ) {
        match w.step(self.at[t], rel, p, parsed) {
            Some(next) => {
                self.at[t] = next;
                self.followed[t] += 1;
            }
            None => self.left[t] = k,
        }
    }
}

/// One corner: its quarter board (0) and the two half boards along its edges (1: full width of
/// the untransposed frame, 2: full height), a half sharing the quarter's walk until it holds a
/// move the quarter does not.
#[derive(Clone, Copy, Debug)]
struct CornerWalk {
    rects: [RectWalk; 3],
    own: [bool; 3],
}

impl CornerWalk {
    const NEW: CornerWalk = CornerWalk {
        rects: [RectWalk::NEW; 3],
        own: [true, false, false],
    };

    fn rect(&self, r: usize) -> &RectWalk {
        &self.rects[if self.own[r] { r } else { 0 }]
    }
}

/// An incremental lookup: play the moves of a game one at a time, ask for the book's
/// continuations whenever needed. Each move costs one sibling-list scan per live frame. It is
/// `Copy` (a few hundred bytes, no heap), so an engine can save and restore it around a search.
#[derive(Clone, Copy, Debug)]
pub struct BookCursor<'w, 'a> {
    walker: &'w Walker<'a>,
    size: u8,
    half: u8,
    /// Bit `c`: corner `c` is looked up.
    mask: u8,
    played: u32,
    parsed: usize,
    corners: [CornerWalk; 4],
}

impl<'w, 'a> BookCursor<'w, 'a> {
    /// An empty `size` board (at most 25); `corner`: only that corner, or `None`: all four.
    pub fn new(walker: &'w Walker<'a>, size: u8, corner: Option<u8>) -> BookCursor<'w, 'a> {
        let size = size.clamp(2, 25);
        BookCursor {
            walker,
            size,
            half: size.div_ceil(2),
            mask: corner.map_or(0xF, |c| 1 << (c & 3)),
            played: 0,
            parsed: 0,
            corners: [CornerWalk::NEW; 4],
        }
    }

    /// Moves played so far (passes included): the index the next move will have.
    pub fn moves(&self) -> usize {
        self.played as usize
    }

    /// Blob bytes parsed by the moves played so far (a lookup adds its listing).
    pub fn parsed(&self) -> usize {
        self.parsed
    }

    /// Play one move (a pass, or a point off the board, is play elsewhere for every corner).
    pub fn play(&mut self, m: BoardMove) {
        let k = self.played;
        self.played = self.played.saturating_add(1);
        let Some((x, y)) = m.at else { return };
        if x >= self.size || y >= self.size {
            return;
        }
        let (size, half, w) = (self.size, self.half, self.walker);
        for c in 0..4u8 {
            if self.mask & (1 << c) == 0 {
                continue;
            }
            // The untransposed frame of corner c (Frame::to_corner, inlined).
            let cx = if c & 1 != 0 { size - x } else { x + 1 };
            let cy = if c & 2 != 0 { size - y } else { y + 1 };
            let in_h1 = cy <= half;
            let in_h2 = cx <= half;
            if !in_h1 && !in_h2 {
                continue;
            }
            let cw = &mut self.corners[c as usize];
            if in_h1 && in_h2 {
                cw.rects[0].play(w, cx, cy, m.colour, k, &mut self.parsed);
                for r in 1..3 {
                    if cw.own[r] {
                        cw.rects[r].play(w, cx, cy, m.colour, k, &mut self.parsed);
                    }
                }
            } else {
                let r = if in_h1 { 1 } else { 2 };
                if !cw.own[r] {
                    cw.rects[r] = cw.rects[0];
                    cw.own[r] = true;
                }
                cw.rects[r].play(w, cx, cy, m.colour, k, &mut self.parsed);
            }
        }
    }

    /// The book's answer for the moves played so far. Continuations come from every corner in
    /// the book, from every orientation in the book in its deciding rectangle (for a position
    /// symmetric about the diagonal, both reflections), without duplicates. With a named
    /// corner that is `Empty`, its first moves in both orientations, coloured for `to_move`.
    /// Does not change the cursor.
    pub fn lookup(&self, to_move: Colour, out: &mut [Continuation]) -> BookLookup {
        let w = self.walker;
        let mut parsed = self.parsed;
        let mut n = 0;
        let mut corners = [0u8, 1, 2, 3].map(|c| CornerBook::empty(c, self.half));
        for c in 0..4usize {
            if self.mask & (1 << c) == 0 {
                continue;
            }
            let cw = &self.corners[c];
            let dims = [
                (self.half, self.half),
                (self.size, self.half),
                (self.half, self.size),
            ];
            let book = &mut corners[c];
            // Largest rectangles first: the two half boards (the one holding more moves
            // first), then the quarter.
            let order = if cw.rect(2).n > cw.rect(1).n {
                [2usize, 1, 0]
            } else {
                [1, 2, 0]
            };
            let found = order.into_iter().find(|&r| {
                let rw = cw.rect(r);
                rw.n > 0 && (rw.alive(0) || rw.alive(1))
            });
            if let Some(r) = found {
                let rw = cw.rect(r);
                (book.width, book.height) = dims[r];
                book.state = BookState::InBook;
                book.followed = rw.n as usize;
                for t in 0..2 {
                    if rw.alive(t) {
                        book.orientations |= 1 << t;
                        let frame = book.frame(self.size, t == 1);
                        w.list_into(rw.at[t], &frame, rw.first, out, &mut n, &mut parsed);
                    }
                }
                continue;
            }
            if cw.rects[0].n == 0 {
                // Empty: a named corner offers the book's first moves.
                if self.mask != 0xF {
                    book.orientations = 3;
                    for t in [false, true] {
                        let frame = book.frame(self.size, t);
                        w.list_into(w.root_at(), &frame, to_move, out, &mut n, &mut parsed);
                    }
                }
                continue;
            }
            // Out of the book: the deepest attempt.
            book.state = BookState::OutOfBook;
            // Ties go to the attempt that left the book later (the quarter board rather
            // than a half board whose first move is some other corner's).
            let mut best: Option<((u16, u32), usize)> = None;
            for r in order {
                let rw = cw.rect(r);
                if rw.n == 0 {
                    continue;
                }
                for t in 0..2 {
                    let key = (rw.followed[t], rw.left[t]);
                    if best.is_none_or(|b| key > b.0) {
                        best = Some((key, r));
                    }
                }
            }
            if let Some(((followed, left), r)) = best {
                (book.width, book.height) = dims[r];
                book.followed = followed as usize;
                book.left_at = Some(left as usize);
            }
        }
        BookLookup {
            corners,
            continuations: n,
            parsed,
        }
    }
}

impl<'a> Walker<'a> {
    /// The engine lookup: the moves played on a `size` board (in order, either colour first;
    /// passes allowed), in one named corner or (`None`) in all four, each tried in both
    /// orientations (so all 8 with `None`) and RiscIgo's rectangles: the half board along
    /// each edge, then the quarter board; the first rectangle with a move in it and every move
    /// in the book decides the corner. Continuations are written to `out` in board
    /// coordinates. Allocation-free; the work is shared where frames coincide (module docs).
    pub fn lookup(
        &self,
        size: u8,
        moves: &[BoardMove],
        corner: Option<u8>,
        to_move: Colour,
        out: &mut [Continuation],
    ) -> BookLookup {
        let mut c = BookCursor::new(self, size, corner);
        for &m in moves {
            c.play(m);
        }
        c.lookup(to_move, out)
    }

    /// A cursor for playing moves one at a time (see [`BookCursor`]).
    pub fn cursor(&self, size: u8, corner: Option<u8>) -> BookCursor<'_, 'a> {
        BookCursor::new(self, size, corner)
    }
}
