//! The engine lookup: the moves played on the board, every corner in both orientations (the
//! 8 orientations) and either colour, rectangles from the whole board through RiscIgo's half
//! boards down to the quarter board; and the incremental cursor it is built on.
//!
//! Work is done once where frames coincide:
//! * colours are relative to the first move inside a rectangle, so the two colours that may
//!   open a corner are one walk;
//! * the two orientations of a corner (transposed or not) share one walk while every move so
//!   far lies on the corner's diagonal (4-4, 3-3, 5-5 ...), and split at the first move off it;
//! * the four rectangles of a corner share the quarter board's walk until a move falls inside
//!   a larger one but outside the quarter (the larger one then copies the quarter's state);
//! * a frame dies at its first move that is not in the book and costs nothing after that.
//!
//! Each move costs, per live frame, one probe of the transition table (`table`), or with a
//! walker built by `Walker::in_place`, one scan of the sibling list it is played from.

use super::fast::{Answer, At, LEAF, Work};
use super::table::Transitions;
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
    /// Blob bytes parsed by the walk (a walker without a table) and the listing.
    pub parsed: usize,
    /// Transition-table probes made by the walk (a walker with a table).
    pub probes: usize,
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

/// Rectangles are numbered `corner * 4 + r`: `r` 0 is the corner's quarter board, 1 the half
/// board along its untransposed frame's x axis (full width), 2 the half along its y axis (full
/// height), 3 the whole board (a book line may hold moves anywhere: the opposite quarter, both
/// half boards). Walks are numbered `rect * 2 + t`, `t` 1 for the transposed orientation.
const RECTS: usize = 16;
const PER_CORNER: usize = 4;
const WHOLE: usize = 3;
const WALKS: usize = 2 * RECTS;

/// The region lanes a move adds one to, by its half boards (as [`RECTS_OF`]): quarter board
/// `c` in lane `c`, then the top, bottom, left and right halves.
const REGION_INC: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut h = 0;
    while h < 16 {
        let (l, r, tp, b) = (h & 1 != 0, h & 2 != 0, h & 4 != 0, h & 8 != 0);
        let lanes = [l && tp, r && tp, l && b, r && b, tp, b, l, r];
        let mut i = 0;
        while i < 8 {
            if lanes[i] {
                t[h] |= 1 << (16 * i);
            }
            i += 1;
        }
        h += 1;
    }
    t
};

/// The quarter boards' bits.
const QUARTERS: u16 = 0x1111;

/// (corner, r) of each rectangle.
const RECT_CR: [(u8, u8); RECTS] = {
    let mut t = [(0, 0); RECTS];
    let mut i = 0;
    while i < RECTS {
        t[i] = ((i / PER_CORNER) as u8, (i % PER_CORNER) as u8);
        i += 1;
    }
    t
};

/// The rectangles holding a board point, by which half boards hold it (bit 0 the left half,
/// 1 the right, 2 the top, 3 the bottom; the middle line of an odd board is in both). Every
/// corner's whole board holds every point.
const RECTS_OF: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut h = 0;
    while h < 16 {
        let mut c = 0;
        while c < 4 {
            // Frame y <= half: the top half for a top corner; frame x <= half: the left half
            // for a left corner.
            let in_h1 = h & (if c & 2 != 0 { 8 } else { 4 }) != 0;
            let in_h2 = h & (if c & 1 != 0 { 2 } else { 1 }) != 0;
            if in_h1 && in_h2 {
                t[h] |= 1 << (c * 4);
            }
            if in_h1 {
                t[h] |= 1 << (c * 4 + 1);
            }
            if in_h2 {
                t[h] |= 1 << (c * 4 + 2);
            }
            t[h] |= 1 << (c * 4 + 3);
            c += 1;
        }
        h += 1;
    }
    t
};

/// An incremental lookup: play the moves of a game one at a time, ask for the book's
/// continuations whenever needed. It is `Copy` (about 800 bytes, no heap), so an engine can
/// save and restore it around a search.
///
/// The 32 frames (4 corners x 4 rectangles x 2 orientations) are walks; bitmasks say which are
/// alive, which rectangle has its own walks and which orientations still share one, so a move
/// costs one table probe per live walk it falls in and nothing for dead ones.
#[derive(Clone, Copy, Debug)]
pub struct BookCursor<'w, 'a> {
    walker: &'w Walker<'a>,
    /// The walker's transition table (`None`: steps scan the blob).
    table: Option<&'w Transitions>,
    size: u8,
    half: u8,
    /// Bit `c`: corner `c` is looked up; `rects`: the rectangles of those corners.
    mask: u8,
    rects: u16,
    played: u32,
    work: Work,
    /// Moves in each region, a 16-bit lane each (counting stops at 65,535 moves played): the
    /// quarter boards by corner, then the top, bottom, left and right half boards (the moves
    /// inside a rectangle, see [`BookCursor::n`]).
    regions: u128,
    /// Moves on the board (the whole board's count).
    on_board: u32,
    /// Rectangles holding at least one move.
    nonempty: u16,
    /// Rectangles with walks of their own: a quarter board from its first move; a half board
    /// or the whole board shares its quarter's walks until it holds a move the quarter does
    /// not.
    own: u16,
    /// Rectangles whose transposed walk still equals the untransposed one (every move so far
    /// on the corner's diagonal); the two are stepped once and kept equal.
    shared: u16,
    /// Rectangles with walks of their own, none alive: a move in them costs nothing.
    done: u16,
    /// Walks alive.
    live: u32,
    /// Per rectangle: the colour of its first move (colours are relative to it).
    first: [Colour; RECTS],
    /// Per walk: where it stands, moves followed, index of the move it died at (`u32::MAX`).
    at: [At; WALKS],
    followed: [u16; WALKS],
    left: [u32; WALKS],
    /// Per walk, the other reading of its first stone when that stone is both a book move at
    /// the root and a stone of a root setup edge (a line opening with setup stones): the walk
    /// follows the move and falls back on this reading if the move line leaves the book.
    alt: [At; WALKS],
    /// Walks with an `alt` reading alive.
    alt_live: u32,
}

impl<'w, 'a> BookCursor<'w, 'a> {
    /// An empty `size` board (at most 25); `corner`: only that corner, or `None`: all four.
    pub fn new(walker: &'w Walker<'a>, size: u8, corner: Option<u8>) -> BookCursor<'w, 'a> {
        let size = size.clamp(2, 25);
        let mask = corner.map_or(0xF, |c| 1 << (c & 3));
        BookCursor {
            walker,
            // The engine's own fast path needs a table of every list (not the small mode's).
            table: walker.table.as_ref().filter(|t| !t.partial()),
            size,
            half: size.div_ceil(2),
            mask,
            rects: (0..4)
                .filter(|c| mask & (1 << c) != 0)
                .fold(0, |m, c| m | 0xF << (PER_CORNER * c)),
            played: 0,
            work: Work::default(),
            regions: 0,
            on_board: 0,
            nonempty: 0,
            own: 0,
            shared: 0,
            done: 0,
            live: 0,
            first: [Colour::Black; RECTS],
            at: [At::new(LEAF, Rel::Opposite); WALKS],
            followed: [0; WALKS],
            left: [u32::MAX; WALKS],
            alt: [At::new(LEAF, Rel::Opposite); WALKS],
            alt_live: 0,
        }
    }

    /// Moves played so far (passes included): the index the next move will have.
    pub fn moves(&self) -> usize {
        self.played as usize
    }

    /// Blob bytes parsed by the moves played so far (a lookup adds its listing).
    pub fn parsed(&self) -> usize {
        self.work.parsed
    }

    /// Transition-table probes made by the moves played so far.
    pub fn probes(&self) -> usize {
        self.work.probes
    }

    /// Moves inside rectangle `r` of corner `c`.
    #[inline]
    fn n(&self, c: usize, r: usize) -> u32 {
        if r == WHOLE {
            return self.on_board;
        }
        (self.regions >> (16 * [c, 4 + (c >> 1), 6 + (c & 1)][r]) & 0xFFFF) as u32
    }

    /// The rectangle whose walks rectangle `r` of corner `c` uses.
    #[inline]
    fn resolve(&self, c: usize, r: usize) -> usize {
        let i = c * PER_CORNER + r;
        if self.own & (1 << i) != 0 {
            i
        } else {
            c * PER_CORNER
        }
    }

    #[inline]
    fn alive(&self, rect: usize, t: usize) -> bool {
        self.live & (1 << (rect * 2 + t)) != 0
    }

    /// Play one move (a pass, or a point off the board, is play elsewhere for every corner).
    pub fn play(&mut self, m: BoardMove) {
        let k = self.played;
        self.played = self.played.saturating_add(1);
        let Some((x, y)) = m.at else { return };
        let (size, half) = (self.size, self.half);
        if x >= size || y >= size {
            return;
        }
        let (l, r, t, b) = (x < half, x >= size - half, y < half, y >= size - half);
        let h = l as usize | (r as usize) << 1 | (t as usize) << 2 | (b as usize) << 3;
        if k < u16::MAX as u32 {
            // No region holds more moves than were played: no lane overflows.
            self.regions += REGION_INC[h];
        }
        self.on_board += 1;
        let holds = RECTS_OF[h];
        self.nonempty |= holds;
        // A larger rectangle without walks of its own, for a move in its quarter, is played
        // as the quarter.
        let quarters = holds & QUARTERS;
        let sharing = (quarters << 1 | quarters << 2 | quarters << 3) & !self.own;
        let mut todo = holds & self.rects & !self.done & !sharing;
        while todo != 0 {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let (c, r) = RECT_CR[i];
            let bit = 1u16 << i;
            if self.own & bit == 0 {
                self.start(i, i - r as usize, m.colour);
                if self.done & bit != 0 {
                    continue;
                }
            }
            // The untransposed frame of corner c (Frame::to_corner, inlined).
            let cx = if c & 1 != 0 { size - x } else { x + 1 };
            let cy = if c & 2 != 0 { size - y } else { y + 1 };
            self.step_rect(i, cx, cy, m.colour, k);
        }
    }

    /// Give rectangle `i` walks of its own: a quarter board (`i == quarter`), or a half board
    /// whose quarter has none, starts at the empty corner; a half board copies its quarter's.
    #[cold]
    fn start(&mut self, i: usize, quarter: usize, colour: Colour) {
        let bit = 1u16 << i;
        self.own |= bit;
        if i != quarter && self.own & (1 << quarter) != 0 {
            self.first[i] = self.first[quarter];
            for t in 0..2 {
                let (a, b) = (2 * i + t, 2 * quarter + t);
                self.at[a] = self.at[b];
                self.alt[a] = self.alt[b];
                self.followed[a] = self.followed[b];
                self.left[a] = self.left[b];
            }
            self.live = self.live & !(3 << (2 * i)) | (self.live >> (2 * quarter) & 3) << (2 * i);
            self.alt_live =
                self.alt_live & !(3 << (2 * i)) | (self.alt_live >> (2 * quarter) & 3) << (2 * i);
            self.shared = self.shared & !bit | ((self.shared >> quarter) & 1) << i;
            self.done = self.done & !bit | ((self.done >> quarter) & 1) << i;
            return;
        }
        self.first[i] = colour;
        let root = self.walker.root_at();
        self.at[2 * i] = root;
        self.at[2 * i + 1] = root;
        self.alt_live &= !(3 << (2 * i));
        self.live |= 3 << (2 * i);
        self.shared |= bit;
    }

    /// Play a move at corner-frame `(cx, cy)` in rectangle `i` (which has walks of its own).
    #[inline]
    fn step_rect(&mut self, i: usize, cx: u8, cy: u8, colour: Colour, k: u32) {
        let bit = 1u16 << i;
        let rel = if colour == self.first[i] {
            Rel::Same
        } else {
            Rel::Opposite
        };
        let (a, b) = (2 * i, 2 * i + 1);
        if self.shared & bit != 0 {
            if cx == cy {
                // On the diagonal: one step serves both orientations.
                self.step_walk(a, rel, (cx, cy), k);
                self.at[b] = self.at[a];
                self.alt[b] = self.alt[a];
                self.alt_live = self.alt_live & !(1 << b) | (self.alt_live >> a & 1) << b;
                self.followed[b] = self.followed[a];
                self.left[b] = self.left[a];
                self.live = self.live & !(1 << b) | (self.live >> a & 1) << b;
            } else {
                self.shared &= !bit;
                if self.live & (1 << a) != 0 {
                    self.step_walk(a, rel, (cx, cy), k);
                    self.step_walk(b, rel, (cy, cx), k);
                }
            }
        } else {
            if self.live & (1 << a) != 0 {
                self.step_walk(a, rel, (cx, cy), k);
            }
            if self.live & (1 << b) != 0 {
                self.step_walk(b, rel, (cy, cx), k);
            }
        }
        if self.live & (3 << a) == 0 {
            self.done |= bit;
        }
    }

    #[inline(always)]
    fn step_walk(&mut self, j: usize, rel0: Rel, p: (u8, u8), k: u32) {
        let at = self.at[j];
        let rel = if at.flip { rel0.flip() } else { rel0 };
        let next = match self.table {
            Some(t) if at.got == 0 => t
                .step_xy(at, rel, p.0, p.1, &mut self.work.probes)
                .map(|n| At { flip: at.flip, ..n })
                .or_else(|| {
                    self.walker
                        .missed(at, rel, Point::at(p.0, p.1), &mut self.work)
                }),
            _ => self
                .walker
                .step(at, rel, Point::at(p.0, p.1), &mut self.work),
        };
        let alt = if self.alt_live & (1 << j) != 0 {
            self.step_alt(j, rel0, p)
        } else if next.is_some() && self.walker.has_root_setups() && at == self.walker.root_at() {
            // A first stone that is a book move and also a stone of a root setup edge: keep
            // the setup reading beside the move.
            self.walker
                .setup_step(at, rel, Point::at(p.0, p.1), &mut self.work)
                .filter(|&s| Some(s) != next)
        } else {
            None
        };
        self.alt_live &= !(1 << j);
        if let Some(a) = alt {
            self.alt[j] = a;
            self.alt_live |= 1 << j;
        }
        match next.or_else(|| {
            // The move line left the book: the setup reading stands in for it.
            let a = alt?;
            self.alt_live &= !(1 << j);
            Some(a)
        }) {
            Some(next) => {
                self.at[j] = next;
                self.followed[j] = self.followed[j].saturating_add(1);
            }
            None => {
                self.left[j] = k;
                self.live &= !(1 << j);
            }
        }
    }

    /// One move on walk `j`'s other reading (see [`BookCursor::alt`]).
    #[cold]
    #[inline(never)]
    fn step_alt(&mut self, j: usize, rel0: Rel, p: (u8, u8)) -> Option<At> {
        let a = self.alt[j];
        let rel = if a.flip { rel0.flip() } else { rel0 };
        self.walker
            .step(a, rel, Point::at(p.0, p.1), &mut self.work)
    }

    /// The book's answer for the moves played so far, for `to_move`. Continuations come from
    /// every corner in the book, from every orientation in the book in its deciding rectangle
    /// (for a position symmetric about the diagonal, both reflections), without duplicates;
    /// only moves of `to_move` are offered, and when `to_move` also made the rectangle's last
    /// move (the other side played elsewhere or passed), the book's moves after the other
    /// side's recorded tenuki too. With a named corner that is `Empty`, its first moves in both
    /// orientations, coloured for `to_move`. Does not change the cursor.
    pub fn lookup(&self, to_move: Colour, out: &mut [Continuation]) -> BookLookup {
        let w = self.walker;
        let mut work = self.work;
        let mut answer = Answer::new(out);
        let mut corners = [0u8, 1, 2, 3].map(|c| CornerBook::empty(c, self.half));
        let dims = [
            (self.half, self.half),
            (self.size, self.half),
            (self.half, self.size),
            (self.size, self.size),
        ];
        // The rectangles that may decide, for all corners at once: a move in them and a walk
        // alive (their own, or the quarter's that they share).
        let alive = {
            let mut x = (self.live | self.live >> 1) & 0x5555_5555;
            x = (x | x >> 1) & 0x3333_3333;
            x = (x | x >> 2) & 0x0F0F_0F0F;
            x = (x | x >> 4) & 0x00FF_00FF;
            x = (x | x >> 8) & 0x0000_FFFF;
            x as u16
        };
        let q = alive & QUARTERS;
        let deciding = ((alive & self.own) | ((q << 1 | q << 2 | q << 3) & !self.own))
            & self.nonempty
            & self.rects;
        for (c, book) in corners.iter_mut().enumerate() {
            if self.mask & (1 << c) == 0 {
                continue;
            }
            // Largest rectangles first: the whole board, the two half boards (the one holding
            // more moves first), then the quarter.
            let can = deciding >> (PER_CORNER * c) & 0xF;
            let found = if can & 8 != 0 {
                Some(WHOLE)
            } else if can & 6 == 6 {
                Some(if self.n(c, 2) > self.n(c, 1) { 2 } else { 1 })
            } else if can & 4 != 0 {
                Some(2)
            } else if can & 2 != 0 {
                Some(1)
            } else if can != 0 {
                Some(0)
            } else {
                None
            };
            if let Some(r) = found {
                debug_assert!(self.n(c, r) > 0);
                let i = self.resolve(c, r);
                debug_assert!(self.alive(i, 0) || self.alive(i, 1));
                (book.width, book.height) = dims[r];
                book.state = BookState::InBook;
                book.followed = self.n(c, r) as usize;
                for t in 0..2 {
                    if !self.alive(i, t) {
                        continue;
                    }
                    book.orientations |= 1 << t;
                    let frame = book.frame(self.size, t == 1);
                    let j = 2 * i + t;
                    // The walk, and its setup reading where both stand (one position reached
                    // by moves and by setup stones: both lines' continuations).
                    let alt = (self.alt_live & (1 << j) != 0).then_some(self.alt[j]);
                    for at in std::iter::once(self.at[j]).chain(alt) {
                        let at = w.settle(at, &mut work);
                        // The colour the book calls `Same` (the first stone's, or the other
                        // one after a line that opened with the other side's setup stones).
                        let first = if at.flip {
                            self.first[i].opponent()
                        } else {
                            self.first[i]
                        };
                        let want = if to_move == first {
                            Rel::Same
                        } else {
                            Rel::Opposite
                        };
                        w.list_for(at, &frame, first, want, &mut answer, &mut work);
                    }
                }
                continue;
            }
            if self.n(c, 0) == 0 {
                // Empty: a named corner offers the book's first moves.
                if self.mask != 0xF {
                    book.orientations = 3;
                    for t in [false, true] {
                        let frame = book.frame(self.size, t);
                        w.list_into(w.root_at(), &frame, to_move, &mut answer, &mut work.parsed);
                    }
                }
                continue;
            }
            // Out of the book: the deepest attempt.
            book.state = BookState::OutOfBook;
            // Ties go to the attempt that left the book later (the quarter board rather
            // than a half board whose first move is some other corner's).
            let mut best: Option<((u16, u32), usize)> = None;
            let order = if self.n(c, 2) > self.n(c, 1) {
                [WHOLE, 2usize, 1, 0]
            } else {
                [WHOLE, 1, 2, 0]
            };
            for r in order {
                if self.n(c, r) == 0 {
                    continue;
                }
                let i = self.resolve(c, r);
                for t in 0..2 {
                    let key = (self.followed[2 * i + t], self.left[2 * i + t]);
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
            continuations: answer.n,
            parsed: work.parsed,
            probes: work.probes,
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
