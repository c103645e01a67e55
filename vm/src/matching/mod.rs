//! The matching API: classes at a focus point or over the whole board, lenses from endpoints.
//! `no_std`, no allocation: matches go into a caller-owned [`MatchBuf`], per-call working
//! memory is the caller's [`Scratch`].
//!
//! Semantics (shared by the fast kernels and the [`crate::reference`] oracle):
//! * The focus must be on the board and its state (seen from `perspective`: friend = the
//!   perspective colour) must be in the class's focus set, or nothing matches.
//! * The class program is run in order (priority order, fixed by the compiler). A variant with
//!   orientation `o` and covers set `C` is tried when `C` meets the active orientation set
//!   (the query's set, narrowed inside globs); it is reported in `o` when `o` is active, else in
//!   the lowest active orientation of `C`.
//! * Glob: the header's passing variants (masks and tests) give the set of orientations in
//!   which its members are tried; an empty set skips the whole glob in one step.
//! * Tests run only on variants whose masks pass, in stored order; the first zero rejects.
//! * Results are mapped to board coordinates through the reported orientation. A reject goes
//!   into the output and drops later move suggestions at that point within the same call.
//! * Modes: `All` reports every match; `First` stops at the first suggestion (move or value);
//!   `Best` reports all rejects, then the one suggestion with the highest priority, then the
//!   highest value, the earliest on ties. A class default is appended as a `Value` (pattern
//!   [`DEFAULT_PATTERN`]): always in `All`, only when no suggestion was found otherwise.

mod board_parallel;
mod bytecode_eval;
mod dispatch;
pub(crate) use dispatch::match_lut_key;
mod kernel;
mod lens;
pub(crate) mod lut;
mod results;
#[allow(unsafe_code)]
pub mod simd;
pub(crate) mod sliced;
pub(crate) mod view;

pub use board_parallel::{Area, ScanScratch};
#[cfg(feature = "alloc")]
pub(crate) use board_parallel::{Fact, plain_facts, put_plain};
#[cfg(feature = "alloc")]
pub use board_parallel::{ScanPlan, ScanSet};
#[cfg(all(feature = "alloc", feature = "bench-internals"))]
pub(crate) use board_parallel::{pattern_walks, set_walk_pending, walk_fallbacks};
#[cfg(feature = "alloc")]
pub use results::HitPlan;
pub(crate) use results::Sink;
pub use results::{Hit, HitBuf};
pub use view::{KeptViews, WithViews};
#[cfg(feature = "bench-internals")]
pub use view::{build as view_words, cut_views};

use crate::board::{BoardView, Colour, Point};
use crate::geometry::Orientation;
use crate::rom::records::PatternRec;
use crate::rom::{
    ClassId, ClassInfo, Item, MAX_GLOB_DEPTH, Mode, NONE as NO_RESULT, RawResult, Rom, Section,
};

/// The record of pattern `p` (one decode for all the class program reads of it).
#[inline(always)]
fn pattern_rec(rom: &Rom<'_>, p: u32) -> PatternRec {
    rom.t(Section::Patterns).rec(p as usize)
}

/// `Match::pattern` of a class default.
pub const DEFAULT_PATTERN: u32 = u32::MAX;

/// An argument passed to an engine predicate: points in board coordinates, colours absolute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostArg {
    /// A board point `(x, y)`; may be off the board.
    Point(i32, i32),
    /// A constant from the pattern.
    Int(i32),
    /// `friend` or `foe` resolved against the query's perspective.
    Colour(Colour),
}

/// What the engine supplies: globals, `extern` predicates and mark bits (all by index as the
/// ROM's globals/externs tables list them). Must be pure during one call.
pub trait Host {
    /// The value of global `index` ([`crate::Rom::global_name`] names it).
    fn global(&self, _index: u16) -> i32 {
        0
    }
    /// Extern predicate `index` ([`crate::Rom::extern_info`]) on these arguments: 0 is
    /// false, anything else true.
    fn call(&self, _index: u16, _args: &[HostArg]) -> i32 {
        0
    }
    /// The engine's mark bit on a board point (`mark(p)` in tests).
    fn mark(&self, _x: i32, _y: i32) -> bool {
        false
    }
}

/// A host that answers every question with 0 / false.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHost;
impl Host for NoHost {}

/// Which orientation variants to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientations {
    /// Every variant.
    All,
    /// Only variants whose "up" points from the focus at the board point `toward` (which must
    /// be an orthogonal neighbour of the focus; otherwise nothing is tried at that focus).
    Up {
        /// The board point "up" points at.
        toward: (i32, i32),
    },
    /// A bit set over orientation indices.
    Set(u8),
}

impl Orientations {
    /// The orientation bit set at focus `(x, y)`.
    pub fn mask_at(&self, x: i32, y: i32) -> u8 {
        match *self {
            Orientations::All => 0xFF,
            Orientations::Set(m) => m,
            Orientations::Up { toward } => {
                let d = (toward.0 - x, toward.1 - y);
                let mut m = 0;
                for t in Orientation::ALL {
                    if t.up() == d {
                        m |= 1 << t.index();
                    }
                }
                m
            }
        }
    }
}

/// What to match: a class, whose side to read the board for, which orientations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    /// The class ([`crate::Rom::class_by_name`]).
    pub class: ClassId,
    /// The colour patterns call friend.
    pub perspective: Colour,
    /// Which orientation variants to try.
    pub orientations: Orientations,
}

/// A match's result in board coordinates (the stored offsets mapped through the matched
/// orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchResult {
    /// Suggest the move at `(x, y)`.
    Move {
        /// Column, 0 = west.
        x: i32,
        /// Row, 0 = north.
        y: i32,
        /// The pattern's value for the move.
        value: i32,
        /// Engine-defined descriptor bits.
        bits: u32,
        /// The follow-up sequence ([`crate::Rom::sequence`]).
        sequence: Option<u32>,
    },
    /// Do not play at `(x, y)` (already applied to this call's later suggestions).
    Reject {
        /// Column, 0 = west.
        x: i32,
        /// Row, 0 = north.
        y: i32,
    },
    /// A value with no move.
    Value {
        /// The value.
        value: i32,
        /// Engine-defined descriptor bits.
        bits: u32,
    },
    /// No result ([`Match::EMPTY`]'s filler).
    None,
}

/// One match: which pattern, where, in which orientation, with what result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// `PatternSpec::id` ([`DEFAULT_PATTERN`] for a class default; the field index for lenses).
    pub pattern: u32,
    /// The orientation (0..8) the pattern matched in.
    pub orientation: u8,
    /// The focus point `(x, y)` (for lenses, the first endpoint).
    pub focus: (i32, i32),
    /// What the pattern yields there.
    pub result: MatchResult,
    /// The pattern's priority.
    pub priority: i32,
}

impl Match {
    /// A filler for output slots: `[Match::EMPTY; 64]`.
    pub const EMPTY: Match = Match {
        pattern: 0,
        orientation: 0,
        focus: (0, 0),
        result: MatchResult::None,
        priority: 0,
    };
}

/// Caller-owned output buffer over slots of `T` ([`MatchBuf`] for full matches, [`HitBuf`] for
/// compact hits). When full, further outputs are counted in [`OutBuf::dropped`] instead of
/// stored. Slots past the stored ones are scratch: a call may write them.
#[derive(Debug)]
pub struct OutBuf<'b, T> {
    slots: &'b mut [T],
    len: usize,
    dropped: usize,
}

/// Caller-owned buffer of matches: `MatchBuf::new(&mut [Match::EMPTY; 64])`.
pub type MatchBuf<'b> = OutBuf<'b, Match>;

impl<'b, T> OutBuf<'b, T> {
    /// An empty buffer writing into `slots` (its capacity).
    pub fn new(slots: &'b mut [T]) -> Self {
        OutBuf {
            slots,
            len: 0,
            dropped: 0,
        }
    }
    /// The outputs stored so far, in the order found.
    pub fn as_slice(&self) -> &[T] {
        &self.slots[..self.len]
    }
    /// Number of outputs stored.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Outputs that did not fit since the last [`OutBuf::clear`].
    pub fn dropped(&self) -> usize {
        self.dropped
    }
    /// Forgets every output and the dropped count (the slots are reused).
    pub fn clear(&mut self) {
        self.len = 0;
        self.dropped = 0;
    }
    /// Stores `t`, or counts it as dropped when full.
    #[inline]
    fn push(&mut self, t: T) -> bool {
        if self.len < self.slots.len() {
            self.slots[self.len] = t;
            self.len += 1;
            true
        } else {
            self.dropped += 1;
            false
        }
    }
}

impl MatchBuf<'_> {
    fn rejected_since(&self, start: usize, x: i32, y: i32) -> bool {
        self.slots[start.min(self.len)..self.len]
            .iter()
            .any(|m| matches!(m.result, MatchResult::Reject { x: rx, y: ry } if rx == x && ry == y))
    }
}

/// Per-call working memory of the scans (the glob orientation stack, and the board-parallel
/// scan's planes and hit lists: about 355 KiB); reusable across calls, never allocated by the
/// VM. A single [`Rom::match_at`] needs only a [`FocusScratch`] (17 bytes): pass either.
#[derive(Clone, Debug)]
pub struct Scratch {
    active: FocusScratch,
    scan: ScanScratch,
}

/// The working memory of one call at one focus: the glob orientation stack (17 bytes). All
/// that [`Rom::match_at`] needs, so an engine with little memory matches without a
/// [`Scratch`].
#[derive(Clone, Copy, Debug)]
pub struct FocusScratch {
    pub(crate) active: [u8; MAX_GLOB_DEPTH + 1],
}

impl Default for FocusScratch {
    fn default() -> Self {
        Self::new()
    }
}

impl FocusScratch {
    /// Zeroed scratch (17 bytes; no allocation).
    pub const fn new() -> Self {
        FocusScratch {
            active: [0; MAX_GLOB_DEPTH + 1],
        }
    }
}

/// Memory a call at one focus can work in: a [`FocusScratch`], alone or inside a [`Scratch`].
pub trait CallScratch {
    /// The glob orientation stack.
    fn focus_scratch(&mut self) -> &mut FocusScratch;
}

impl CallScratch for FocusScratch {
    fn focus_scratch(&mut self) -> &mut FocusScratch {
        self
    }
}

impl CallScratch for Scratch {
    fn focus_scratch(&mut self) -> &mut FocusScratch {
        &mut self.active
    }
}

impl<T: CallScratch + ?Sized> CallScratch for &mut T {
    fn focus_scratch(&mut self) -> &mut FocusScratch {
        (**self).focus_scratch()
    }
}

/// A boxed [`Scratch`] (the usual way to keep its 355 KiB off the stack) passes as it is.
#[cfg(feature = "alloc")]
impl<T: CallScratch + ?Sized> CallScratch for alloc::boxed::Box<T> {
    fn focus_scratch(&mut self) -> &mut FocusScratch {
        (**self).focus_scratch()
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}

impl Scratch {
    /// Zeroed scratch (about 355 KiB: box it, or keep one per thread).
    pub const fn new() -> Self {
        Scratch {
            active: FocusScratch::new(),
            scan: ScanScratch::new(),
        }
    }

    /// See `internals::walk_fallbacks`.
    #[cfg(all(feature = "alloc", feature = "bench-internals"))]
    pub(crate) fn walk_fallbacks(&self) -> usize {
        walk_fallbacks(&self.scan)
    }

    /// See `internals::pattern_walks`.
    #[cfg(all(feature = "alloc", feature = "bench-internals"))]
    pub(crate) fn pattern_walks(&self) -> usize {
        pattern_walks(&self.scan)
    }
}

/// State of a board point seen from `persp`: 0 friend, 1 foe, 2 empty, 3 off.
#[inline]
pub(crate) fn state<B: BoardView + ?Sized>(b: &B, persp: Colour, x: i32, y: i32) -> u8 {
    match b.point(x, y) {
        Point::Stone(c) if c == persp => 0,
        Point::Stone(_) => 1,
        Point::Empty => 2,
        Point::Off => 3,
    }
}

#[inline]
pub(crate) fn on_board<B: BoardView + ?Sized>(b: &B, x: i32, y: i32) -> bool {
    let s = b.size() as i32;
    x >= 0 && y >= 0 && x < s && y < s
}

/// A geometric filter over the entries of one class at one focus: the fast kernels and the
/// reference matcher differ only here.
pub(crate) trait Geometry {
    /// The first entry in `from..end` whose cells all hold, if any.
    fn next(&mut self, from: u32, end: u32) -> Option<u32>;
}

/// Everything a call needs besides the geometry.
pub(crate) struct Ctx<'r, 'a, B: ?Sized, H: ?Sized> {
    pub rom: &'r Rom<'a>,
    pub board: &'r B,
    pub host: &'r H,
    pub persp: Colour,
    pub x: i32,
    pub y: i32,
}

impl<B: BoardView + ?Sized, H: Host + ?Sized> Ctx<'_, '_, B, H> {
    fn tests_pass(&self, p: &crate::rom::PatternInfo<'_>, t: Orientation) -> bool {
        p.tests()
            .all(|(code, _)| bytecode_eval::eval(code, self, t) != 0)
    }

    /// [`Ctx::tests_pass`] from the pattern's record (read once by the caller).
    #[inline]
    fn tests_pass_rec(&self, p: &PatternRec, t: Orientation) -> bool {
        (p.first_test..p.first_test + p.test_count)
            .all(|i| bytecode_eval::eval(self.rom.test(i).0, self, t) != 0)
    }
}

/// Whether the focus admits the class at all.
pub(crate) fn focus_ok<B: BoardView + ?Sized>(
    class: &ClassInfo<'_>,
    b: &B,
    persp: Colour,
    x: i32,
    y: i32,
) -> bool {
    on_board(b, x, y) && class.focus() & (1 << state(b, persp, x, y)) != 0
}

/// Run a class program at one focus with the given geometry. Returns matches written.
pub(crate) fn run_class<B: BoardView + ?Sized, H: Host + ?Sized, G: Geometry, O: Sink + ?Sized>(
    ctx: &Ctx<'_, '_, B, H>,
    class: &ClassInfo<'_>,
    qmask: u8,
    geo: &mut G,
    scratch: &mut impl CallScratch,
    out: &mut O,
) -> usize {
    let stack = &mut scratch.focus_scratch().active;
    run_class_with(ctx, class, qmask, geo, stack, out)
}

/// [`run_class`] with only the glob stack borrowed (the board-parallel scan keeps its hit
/// lists in the rest of the [`Scratch`]).
pub(crate) fn run_class_with<
    B: BoardView + ?Sized,
    H: Host + ?Sized,
    G: Geometry,
    O: Sink + ?Sized,
>(
    ctx: &Ctx<'_, '_, B, H>,
    class: &ClassInfo<'_>,
    qmask: u8,
    geo: &mut G,
    stack: &mut [u8; MAX_GLOB_DEPTH + 1],
    out: &mut O,
) -> usize {
    run_class_from(ctx, class, qmask, geo, &results::FromRom, stack, out)
}

/// [`run_class_with`] reading the entries from `src` (the ROM's records, or a [`HitPlan`]'s
/// facts, which let a plain match go out as a [`Hit`] without reading its records).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn run_class_from<
    B: BoardView + ?Sized,
    H: Host + ?Sized,
    G: Geometry,
    S: results::Entries + ?Sized,
    O: Sink + ?Sized,
>(
    ctx: &Ctx<'_, '_, B, H>,
    class: &ClassInfo<'_>,
    qmask: u8,
    geo: &mut G,
    src: &S,
    stack: &mut [u8; MAX_GLOB_DEPTH + 1],
    out: &mut O,
) -> usize {
    let start = out.stored();
    let rom = ctx.rom;
    let mode = class.mode();
    let mut best: Option<(Match, u32)> = None;
    let mut stopped = false;
    // The points rejected so far at this focus (one bit test per move).
    let mut rejects = results::Rejected::new();
    let mut depth = 0usize;
    let mut active = qmask;
    let first = class.first_item();
    let iend = first + class.item_count();
    let mut i = first;
    'items: while i < iend {
        match rom.item(i) {
            Item::Run { first: e0, end } => {
                let mut e = e0;
                while let Some(hit) = geo.next(e, end) {
                    e = hit + 1;
                    let (p, o, cov, plain) = src.get(rom, hit);
                    let sel = cov & active;
                    if sel == 0 {
                        continue;
                    }
                    let t = reported_orientation(o, sel);
                    let orient = Orientation::new(t).unwrap_or(Orientation::IDENTITY);
                    // A compact hit of a match known from the entry's facts (no tests; result
                    // kind and offset): the pattern's and result's records are not read. Kept
                    // free of branches on the (unpredictable) kind and orientation.
                    if plain.kind != results::Plain::NO && mode != Mode::Best {
                        let (px, py) = plain.at(o, t, ctx.x, ctx.y);
                        let is_reject = plain.kind == results::Plain::REJECT;
                        // A move at a rejected point is written but not kept (no branch).
                        let at = results::Rejected::index(px, py);
                        let keep = !((plain.kind == results::Plain::MOVE)
                            & rejects.has_at(at, rom, out, start, px, py));
                        let before = out.stored();
                        if O::HITS {
                            out.put_hit_if(ctx.x, ctx.y, t, p, keep);
                        } else {
                            let f = src.pattern(rom, p);
                            let point = (px, py);
                            out.put_plain((ctx.x, ctx.y), t, p, plain.kind, point, &f, keep);
                        }
                        rejects.add_if_at(at, is_reject & (out.stored() > before), px, py);
                        if mode == Mode::First && keep && !is_reject {
                            stopped = true;
                            break 'items;
                        }
                        continue;
                    }
                    // The pattern's record, read once (tests, result, id, priority).
                    let pat = pattern_rec(rom, p);
                    if pat.result == NO_RESULT {
                        continue;
                    }
                    if !ctx.tests_pass_rec(&pat, orient) {
                        continue;
                    }
                    let m = Match {
                        pattern: pat.id,
                        orientation: t,
                        focus: (ctx.x, ctx.y),
                        result: map_result(rom.result(pat.result), orient, ctx.x, ctx.y),
                        priority: pat.priority,
                    };
                    match m.result {
                        MatchResult::Reject { x, y } => {
                            let before = out.stored();
                            out.put(&m, p);
                            if out.stored() > before {
                                rejects.add(x, y);
                            }
                            continue;
                        }
                        MatchResult::Move { x, y, .. } if rejects.has(rom, out, start, x, y) => {
                            continue;
                        }
                        _ => {}
                    }
                    match mode {
                        Mode::All => {
                            out.put(&m, p);
                        }
                        Mode::First => {
                            out.put(&m, p);
                            stopped = true;
                            break 'items;
                        }
                        Mode::Best => {
                            if best.is_none_or(|(b, _)| better(&m, &b)) {
                                best = Some((m, p));
                            }
                        }
                    }
                }
            }
            Item::Glob {
                first: e0,
                end,
                close,
            } => {
                let mut pass = 0u8;
                let mut e = e0;
                while let Some(hit) = geo.next(e, end) {
                    e = hit + 1;
                    let (p, o, cov, _) = src.get(rom, hit);
                    let sel = cov & active & !pass;
                    if sel == 0 {
                        continue;
                    }
                    let t = reported_orientation(o, sel);
                    if ctx.tests_pass(
                        &rom.pattern(p),
                        Orientation::new(t).unwrap_or(Orientation::IDENTITY),
                    ) {
                        pass |= sel;
                    }
                }
                if pass == 0 || depth >= MAX_GLOB_DEPTH {
                    i = close + 1;
                    continue;
                }
                stack[depth] = active;
                depth += 1;
                active = pass;
            }
            Item::GlobEnd => {
                if depth > 0 {
                    depth -= 1;
                    active = stack[depth];
                }
            }
        }
        i += 1;
    }
    let found = best.is_some() || (mode == Mode::First && stopped);
    if let Some((b, p)) = best {
        out.put(&b, p);
    }
    if let Some(v) = class.default_value()
        && (mode == Mode::All || !found)
    {
        let m = Match {
            pattern: DEFAULT_PATTERN,
            orientation: 0,
            focus: (ctx.x, ctx.y),
            result: MatchResult::Value { value: v, bits: 0 },
            priority: i32::MIN,
        };
        out.put(&m, DEFAULT_PATTERN);
    }
    out.stored() - start
}

fn value_of(m: &Match) -> i32 {
    match m.result {
        MatchResult::Move { value, .. } | MatchResult::Value { value, .. } => value,
        _ => i32::MIN,
    }
}

fn better(a: &Match, b: &Match) -> bool {
    (a.priority, value_of(a)) > (b.priority, value_of(b))
}

/// The orientation a hit is reported in, of those in `sel` (its covers that the query
/// admits, never empty): the entry's own orientation `o` when admitted, else the first.
#[inline]
pub(crate) fn reported_orientation(o: u8, sel: u8) -> u8 {
    if sel & (1 << o) != 0 {
        o
    } else {
        sel.trailing_zeros() as u8
    }
}

pub(crate) fn map_result(r: RawResult, t: Orientation, x: i32, y: i32) -> MatchResult {
    match r {
        RawResult::Move {
            dx,
            dy,
            value,
            bits,
            sequence,
        } => {
            let (ox, oy) = t.apply(dx as i32, dy as i32);
            MatchResult::Move {
                x: x + ox,
                y: y + oy,
                value,
                bits,
                sequence,
            }
        }
        RawResult::Reject { dx, dy } => {
            let (ox, oy) = t.apply(dx as i32, dy as i32);
            MatchResult::Reject {
                x: x + ox,
                y: y + oy,
            }
        }
        RawResult::Value { value, bits } => MatchResult::Value { value, bits },
    }
}

impl<'a> Rom<'a> {
    /// Match a class at one focus point. Appends to `out`; returns how many matches were
    /// produced (stored or dropped for lack of room). Never allocates. `scratch` is a
    /// [`FocusScratch`] (17 bytes: all a call needs) or a [`Scratch`].
    #[allow(clippy::too_many_arguments)]
    pub fn match_at<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        x: i32,
        y: i32,
        scratch: &mut impl CallScratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        dispatch::match_at(self, board, host, q, x, y, scratch, out)
    }

    /// [`Rom::match_at`] writing compact [`Hit`]s (focus, pattern, orientation: 8 bytes)
    /// instead of full matches: the same matches in the same order, resolved only when read
    /// ([`Hit::resolve`]).
    #[allow(clippy::too_many_arguments)]
    pub fn match_hits_at<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        x: i32,
        y: i32,
        scratch: &mut impl CallScratch,
        out: &mut HitBuf<'_>,
    ) -> usize {
        dispatch::match_at(self, board, host, q, x, y, scratch, out)
    }

    /// [`Rom::scan`] writing compact [`Hit`]s instead of full matches (see
    /// [`Rom::match_hits_at`]).
    pub fn scan_hits<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut HitBuf<'_>,
    ) -> usize {
        dispatch::scan(
            dispatch::Keys::Rom,
            None,
            self,
            board,
            host,
            q,
            Area::ALL,
            scratch,
            out,
        )
        .unwrap_or(0)
    }

    /// Match a class at every board point, row by row (each point is its own call: rejects
    /// apply within a point). Returns how many matches were produced.
    ///
    /// The strategy is chosen in one place (`matching/dispatch.rs`): usually board-parallel
    /// (every entry against all foci at once, then the class program at the foci with
    /// geometric hits), per focus where that is cheaper (3x3 lookup tables) or the only way (a
    /// board wider than 25). Every strategy gives the same matches in the same order as
    /// [`Rom::scan_points`].
    pub fn scan<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        self.scan_area(board, host, q, Area::ALL, scratch, out)
    }

    /// The board-parallel strategy of [`Rom::scan`], forced: `None`, with nothing written, when
    /// it cannot take this scan (a board wider than 25, a class of more than 2^22 entries).
    pub fn scan_parallel<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> Option<usize> {
        dispatch::scan(
            dispatch::Keys::Rom,
            Some(dispatch::ScanKernel::Planes),
            self,
            board,
            host,
            q,
            Area::ALL,
            scratch,
            out,
        )
    }

    /// [`Rom::scan`] restricted to the foci in `area`, row by row: the same matches as the
    /// whole-board scan has at those foci, in the same order. The incremental rescan after a
    /// move: only the foci of [`Area::around`] the move (radius = the class's reach) can
    /// change, at most `(2r + 1)^2` of them (49 for 7x7 fields).
    #[allow(clippy::too_many_arguments)]
    pub fn scan_area<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        area: Area,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        dispatch::scan(
            dispatch::Keys::Rom,
            None,
            self,
            board,
            host,
            q,
            area,
            scratch,
            out,
        )
        .unwrap_or(0)
    }

    /// The per-focus strategy of [`Rom::scan`], forced: the per-focus kernel (lookup table,
    /// bit-sliced, masks or general) at every board point, row by row.
    pub fn scan_points<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        board: &B,
        host: &H,
        q: &Query,
        scratch: &mut Scratch,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        dispatch::scan(
            dispatch::Keys::Rom,
            Some(dispatch::ScanKernel::PerFocus),
            self,
            board,
            host,
            q,
            Area::ALL,
            scratch,
            out,
        )
        .unwrap_or(0)
    }

    /// Evaluate a lens from its endpoints (board points, as many as the lens declares) in
    /// every orientation that maps the written endpoints onto them. Returns matches produced.
    pub fn eval_lens<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        lens: crate::rom::LensId,
        endpoints: &[(i32, i32)],
        perspective: Colour,
        board: &B,
        host: &H,
        out: &mut MatchBuf<'_>,
    ) -> usize {
        lens::eval(self, lens, endpoints, perspective, board, host, out, false)
    }
}

pub(crate) use bytecode_eval::eval as eval_test;
pub(crate) use lens::eval as eval_lens_impl;

/// The point-by-point geometry (the reference matcher's).
pub(crate) fn kernel_cells<'r, 'a, B: BoardView + ?Sized>(
    rom: &'r Rom<'a>,
    board: &'r B,
    persp: Colour,
    x: i32,
    y: i32,
) -> kernel::Cells<'r, 'a, B> {
    kernel::Cells {
        rom,
        board,
        persp,
        x,
        y,
    }
}
