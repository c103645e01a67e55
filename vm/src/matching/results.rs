//! Where the class program writes its matches: a [`MatchBuf`] of full [`Match`]es (results
//! mapped to the board, pattern ids and priorities read), or a [`HitBuf`] of compact [`Hit`]s
//! (focus, pattern, orientation: 8 bytes) that the caller resolves to a [`Match`] only for the
//! hits it reads ([`Hit::resolve`]).
//!
//! Both receive the same matches in the same order: the class program decides (tests, globs,
//! rejects, modes) before it writes.

use super::{DEFAULT_PATTERN, Match, MatchBuf, MatchResult, OutBuf, map_result};
use crate::geometry::Orientation;
use crate::rom::{ClassId, Rom};

/// A match in compact form: its focus, the ROM's pattern index and the orientation it is
/// reported in. [`Hit::resolve`] gives the full [`Match`] (the same one a [`MatchBuf`] would
/// have received).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Focus column.
    pub x: u8,
    /// Focus row.
    pub y: u8,
    /// The orientation the match is reported in (index of [`Orientation`]).
    pub orientation: u8,
    /// Index of the pattern in the ROM (not its `PatternSpec::id`: see [`Hit::pattern_id`]);
    /// [`DEFAULT_PATTERN`] for a class default.
    pub pattern: u32,
}

impl Hit {
    /// An empty slot, to fill a [`HitBuf`]'s storage.
    pub const EMPTY: Hit = Hit {
        x: 0,
        y: 0,
        orientation: 0,
        pattern: 0,
    };

    /// The focus as board coordinates.
    pub fn focus(&self) -> (i32, i32) {
        (self.x as i32, self.y as i32)
    }

    /// The pattern's `PatternSpec::id` (what [`Match::pattern`] holds).
    pub fn pattern_id(&self, rom: &Rom<'_>) -> u32 {
        if self.pattern == DEFAULT_PATTERN {
            DEFAULT_PATTERN
        } else {
            rom.pattern(self.pattern).id()
        }
    }

    /// The full match: result mapped to board coordinates, pattern id, priority. `class` is
    /// the class the hit was found in (for a class default's value).
    pub fn resolve(&self, rom: &Rom<'_>, class: ClassId) -> Match {
        let focus = self.focus();
        if self.pattern == DEFAULT_PATTERN {
            let value = rom
                .class(class)
                .and_then(|c| c.default_value())
                .unwrap_or(0);
            return Match {
                pattern: DEFAULT_PATTERN,
                orientation: 0,
                focus,
                result: MatchResult::Value { value, bits: 0 },
                priority: i32::MIN,
            };
        }
        let pat = rom.pattern(self.pattern);
        let t = Orientation::new(self.orientation).unwrap_or(Orientation::IDENTITY);
        Match {
            pattern: pat.id(),
            orientation: self.orientation,
            focus,
            result: pat
                .result()
                .map_or(MatchResult::None, |r| map_result(r, t, focus.0, focus.1)),
            priority: pat.priority(),
        }
    }
}

/// Caller-owned buffer of compact hits: `HitBuf::new(&mut [Hit::EMPTY; 256])`.
pub type HitBuf<'b> = OutBuf<'b, Hit>;

/// An output of the class program (see the module docs).
pub(crate) trait Sink {
    /// Entries stored so far.
    fn stored(&self) -> usize;
    /// Stores `m`, found as pattern index `p` (counted as dropped when full).
    fn put(&mut self, m: &Match, p: u32);
    /// Whether a reject at `(x, y)` was stored since entry `start` (`rom` resolves compact
    /// entries).
    fn rejected_since(&self, rom: &Rom<'_>, start: usize, x: i32, y: i32) -> bool;
}

impl Sink for MatchBuf<'_> {
    #[inline(always)]
    fn stored(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn put(&mut self, m: &Match, _p: u32) {
        self.push(*m);
    }
    fn rejected_since(&self, _rom: &Rom<'_>, start: usize, x: i32, y: i32) -> bool {
        MatchBuf::rejected_since(self, start, x, y)
    }
}

impl Sink for HitBuf<'_> {
    #[inline(always)]
    fn stored(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn put(&mut self, m: &Match, p: u32) {
        self.push(Hit {
            x: m.focus.0 as u8,
            y: m.focus.1 as u8,
            orientation: m.orientation,
            pattern: p,
        });
    }
    fn rejected_since(&self, rom: &Rom<'_>, start: usize, x: i32, y: i32) -> bool {
        self.slots[start.min(self.len)..self.len].iter().any(|h| {
            h.pattern != DEFAULT_PATTERN
                && matches!(
                    h.resolve(rom, ClassId(0)).result,
                    MatchResult::Reject { x: rx, y: ry } if rx == x && ry == y
                )
        })
    }
}

/// The rejected points of one call at one focus: a bit per point of the largest board, so a
/// move is checked against the rejects in one step (points off that grid ask the sink).
#[derive(Clone, Copy)]
pub(crate) struct Rejected {
    bits: [u64; 10],
    /// Rejects stored so far (0: `bits` not cleared yet).
    count: usize,
    /// Rejects outside the grid (off the board): the first [`OUTSIDE`] of them.
    outside: [(i32, i32); OUTSIDE],
    /// How many rejects lay outside the grid.
    outside_count: usize,
}

/// Off-board rejects kept in [`Rejected`]; beyond that, moves are checked against the sink.
const OUTSIDE: usize = 8;

impl Rejected {
    /// No rejects yet.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Rejected {
            bits: [0; 10],
            count: 0,
            outside: [(0, 0); OUTSIDE],
            outside_count: 0,
        }
    }

    fn index(x: i32, y: i32) -> Option<usize> {
        ((0..25).contains(&x) && (0..25).contains(&y)).then_some((y * 25 + x) as usize)
    }

    /// Notes a reject at `(x, y)`.
    pub(crate) fn add(&mut self, x: i32, y: i32) {
        self.count += 1;
        match Self::index(x, y) {
            Some(i) => self.bits[i >> 6] |= 1 << (i & 63),
            None => {
                if self.outside_count < OUTSIDE {
                    self.outside[self.outside_count] = (x, y);
                }
                self.outside_count += 1;
            }
        }
    }

    /// Whether a move at `(x, y)` was rejected since `start` of `out`.
    #[inline(always)]
    pub(crate) fn has<S: Sink + ?Sized>(
        &self,
        rom: &Rom<'_>,
        out: &S,
        start: usize,
        x: i32,
        y: i32,
    ) -> bool {
        if self.count == 0 {
            return false;
        }
        match Self::index(x, y) {
            Some(i) => self.bits[i >> 6] & (1 << (i & 63)) != 0,
            None if self.outside_count <= OUTSIDE => {
                self.outside[..self.outside_count].contains(&(x, y))
            }
            None => out.rejected_since(rom, start, x, y),
        }
    }
}
