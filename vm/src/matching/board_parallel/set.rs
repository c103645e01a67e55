//! One walk for several classes and both colours (docs/performance.md, "One walk per
//! position").
//!
//! An engine scans every class of a position for both colours. A class anchored on one
//! colour's stones (friend or foe) has as foci the stones of one colour per perspective: its
//! two scans together cover all the stones, and seen from each focus's own colour ("friend"
//! of an O-anchored class is the focus's colour, of an X-anchored one the other colour) their
//! keys are the same. A [`ScanSet`] merges such classes' entries into one trie with keys
//! relative to the focus's colour, walks it once per position over all the stones (candidate
//! sets of up to four words), and routes each survivor to its class and to the perspective
//! its focus's colour gives. The shared top of the trie is visited once instead of once per
//! class and colour. Classes that cannot join (not plain, keys out of reach, other foci) are
//! scanned by their own [`ScanPlan`]. The same entries also form a trie over patterns
//! ([`super::by_pattern`]: a pattern's eight orientations walked at once), walked first; the
//! oriented trie serves the scans it declines.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::by_pattern::{self, Oriented, PatternTrie};
use super::compact::{self, CompactKeys, MAX_STONES};
use super::plan::{self, Fact, ScanPlan, fingerprint, put_plain};
use super::{ENTRY_BITS, MAX_SIDE, MAX_WORDS, ScanScratch};
use crate::board::{BoardView, Colour};
use crate::geometry::Orientation;
use crate::matching::{
    HitBuf, Host, Match, MatchBuf, Orientations, Query, Scratch, Sink, map_result,
    reported_orientation,
};
use crate::rom::{ClassId, RawResult, Rom};

/// A hit's entry in a set's trie: its index in [`ScanSet::facts`] (the merged classes'
/// entries in class order, then entry order, so that sorted hits keep each class's order).
const ENTRY: u32 = (1 << ENTRY_BITS) - 1;

/// Scan plans of several classes of one ROM, walked together for both colours (see the module
/// docs). Build it once with [`ScanSet::new`]; [`ScanSet::scan`] gives every class's matches
/// for Black and for White, each list the same as [`ScanPlan::scan`]'s (and [`Rom::scan`]'s).
#[derive(Clone, Debug)]
pub struct ScanSet {
    plans: Vec<ScanPlan>,
    /// Per plan: in the shared walk, anchored on the foe's stones (`Some(true)`) or the
    /// friend's (`Some(false)`); `None`: scanned by its own plan.
    walked: Vec<Option<bool>>,
    walk: Option<CompactKeys>,
    /// The same entries as a trie over patterns (sets over focus x orientation), walked first;
    /// `None` when they do not form one.
    by_pattern: Option<PatternTrie>,
    /// Per entry of the shared walk: what it writes (see [`Record`]).
    records: Vec<Record>,
    /// The patterns of the records.
    patterns: Vec<PatternOut>,
    /// Per entry of the shared walk: its pattern's index in the ROM (what a compact hit
    /// holds: read instead of the pattern's match).
    pattern_index: Vec<u32>,
    /// Per entry of the shared walk: its match's facts, for a focus where the query admits
    /// only some of its covers.
    facts: Vec<Fact>,
}

/// What a hit of one entry of the shared walk writes when the query admits all the entry's
/// covers at its focus (12 bytes, so that the entries hit stay in the second-level cache: the
/// writing waited on these reads when each entry held its whole match).
#[derive(Clone, Copy, Debug)]
struct Record {
    /// Its pattern in [`ScanSet::patterns`].
    pat: u32,
    /// Its output: `2 * class`, plus 1 when the class is anchored on the foe's stones.
    out: u16,
    cov: u8,
    /// The orientation reported.
    t: u8,
    /// A move's point relative to the focus, in that orientation.
    dx: i16,
    dy: i16,
}

/// A pattern of the shared walk: its match at focus (0, 0) in orientation 0 (a move at the
/// focus) and its index in the ROM.
#[derive(Clone, Copy, Debug)]
struct PatternOut {
    m: Match,
    p: u32,
}

/// Allowed states with friend and foe swapped.
fn swap(allowed: u8) -> u8 {
    allowed & !3 | (allowed & 1) << 1 | (allowed >> 1) & 1
}

impl ScanSet {
    /// The plans of `classes` of `rom`, the classes that can be walked together merged into
    /// one trie; `None` when a class does not exist.
    pub fn new(rom: &Rom<'_>, classes: &[ClassId]) -> Option<ScanSet> {
        let plans: Vec<ScanPlan> = classes
            .iter()
            .map(|&c| ScanPlan::new(rom, c))
            .collect::<Option<_>>()?;
        let mut walked = alloc::vec![None; plans.len()];
        let mut lists = Vec::new();
        let mut records = Vec::new();
        let mut patterns: Vec<PatternOut> = Vec::new();
        let mut numbered: BTreeMap<u32, u32> = BTreeMap::new();
        let mut facts = Vec::new();
        let mut pattern_index = Vec::new();
        let mut oriented = Vec::new();
        for (i, p) in plans.iter().enumerate() {
            let info = rom.class(p.class)?;
            let foe = match info.focus() & 7 {
                1 => false,
                2 => true,
                _ => continue,
            };
            let (Some(plain), Some(_)) = (&p.plain, &p.compact) else {
                continue;
            };
            if facts.len() + info.entry_count() as usize > ENTRY as usize
                || 2 * i + 1 > u16::MAX as usize
            {
                continue;
            }
            walked[i] = Some(foe);
            let out = 2 * i as u32 + u32::from(foe);
            for (mut cells, r, cov) in plan::entry_lists(rom, &info) {
                let Some(&f) = plain.get(r as usize) else {
                    continue;
                };
                // An entry that reports nothing (or in no orientation) needs no walk.
                if f.skip || f.cov == 0 {
                    continue;
                }
                if foe {
                    for c in &mut cells {
                        c.2 = swap(c.2);
                    }
                }
                oriented.push((
                    (i, f.p),
                    Oriented {
                        cells: cells.clone(),
                        o: f.o,
                        entry: facts.len() as u32,
                        cov,
                    },
                ));
                lists.push((cells, facts.len() as u32, cov));
                let pat = *numbered.entry(f.p).or_insert_with(|| {
                    patterns.push(PatternOut {
                        m: Match {
                            pattern: f.id,
                            orientation: 0,
                            focus: (0, 0),
                            result: map_result(f.result, Orientation::IDENTITY, 0, 0),
                            priority: f.priority,
                        },
                        p: f.p,
                    });
                    patterns.len() as u32 - 1
                });
                let t = reported_orientation(f.o, f.cov);
                let (dx, dy) = match f.result {
                    RawResult::Move { dx, dy, .. } => Orientation::new(t)
                        .unwrap_or(Orientation::IDENTITY)
                        .apply(dx as i32, dy as i32),
                    _ => (0, 0),
                };
                records.push(Record {
                    pat,
                    out: out as u16,
                    cov: f.cov,
                    t,
                    dx: dx as i16,
                    dy: dy as i16,
                });
                pattern_index.push(f.p);
                facts.push(f);
            }
        }
        let walk = if lists.is_empty() {
            None
        } else {
            let (keys, nodes, entries) = plan::trie(lists);
            CompactKeys::new(&keys, &nodes, &entries)
        };
        if walk.is_none() {
            walked.fill(None);
        }
        let by_pattern = walk
            .as_ref()
            .and_then(|_| PatternTrie::new(by_pattern::group(oriented)));
        Some(ScanSet {
            plans,
            walked,
            walk,
            by_pattern,
            records,
            patterns,
            pattern_index,
            facts,
        })
    }

    /// Whether the shared walk runs over patterns (sets over focus x orientation: each
    /// pattern's orientations walked at once) rather than over oriented entries.
    pub fn by_pattern(&self) -> bool {
        self.by_pattern.is_some()
    }

    /// Whether the walk over patterns writes each pattern's hits as a run in entry order, so
    /// that they are sorted by one pass by focus (the patterns' entries lie in pattern order)
    /// rather than by focus and entry.
    pub fn sorts_by_runs(&self) -> bool {
        self.by_pattern.as_ref().is_some_and(|pt| pt.runs())
    }

    /// The same set with its walk over patterns writing hits in no particular order, sorted
    /// by focus and entry afterwards (as the oriented walk's): the same matches, for tests.
    #[cfg(feature = "bench-internals")]
    pub fn without_runs(mut self) -> ScanSet {
        if let Some(pt) = &mut self.by_pattern {
            pt.without_runs();
        }
        self
    }

    /// The same set walking oriented entries only (the walk before the trie over patterns):
    /// the same matches, for benches and tests.
    #[cfg(feature = "bench-internals")]
    pub fn without_pattern_walk(mut self) -> ScanSet {
        self.by_pattern = None;
        self
    }

    /// The plans, in the order of the classes given to [`ScanSet::new`].
    pub fn plans(&self) -> &[ScanPlan] {
        &self.plans
    }

    /// How many of the classes share the one walk (the others are scanned by their own plan).
    pub fn walked(&self) -> usize {
        self.walked.iter().filter(|w| w.is_some()).count()
    }

    /// Every class's matches on `board` under `orientations`, for both colours: `outs[2 * i]`
    /// receives class `i`'s matches for Black, `outs[2 * i + 1]` for White (each the list
    /// [`ScanPlan::scan`] gives; classes without both outputs are not scanned). Returns the
    /// matches written in all.
    pub fn scan<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        orientations: Orientations,
        scratch: &mut Scratch,
        outs: &mut [MatchBuf<'_>],
    ) -> usize {
        self.scan_into(
            rom,
            board,
            host,
            orientations,
            scratch,
            outs,
            ScanPlan::scan,
        )
    }

    /// [`ScanSet::scan`] writing compact [`Hit`](crate::matching::Hit)s (focus, pattern index,
    /// orientation: 8 bytes instead of a whole [`Match`]) into `outs`, laid out as there: the
    /// same matches in the same order, resolved only when read
    /// ([`Hit::resolve`](crate::matching::Hit::resolve)).
    pub fn scan_hits<B: BoardView + ?Sized, H: Host + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        orientations: Orientations,
        scratch: &mut Scratch,
        outs: &mut [HitBuf<'_>],
    ) -> usize {
        self.scan_into(
            rom,
            board,
            host,
            orientations,
            scratch,
            outs,
            ScanPlan::scan_hits,
        )
    }

    /// The shared walk into `outs`, then the classes outside it by `plan_scan`.
    #[allow(clippy::too_many_arguments)]
    fn scan_into<B: BoardView + ?Sized, H: Host + ?Sized, O: Sink>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        host: &H,
        orientations: Orientations,
        scratch: &mut Scratch,
        outs: &mut [O],
        plan_scan: impl Fn(&ScanPlan, &Rom<'_>, &B, &H, &Query, &mut Scratch, &mut O) -> usize,
    ) -> usize {
        let walked = self.walk(rom, board, orientations, scratch, outs);
        let mut produced = walked.unwrap_or(0);
        for (i, (plan, w)) in self.plans.iter().zip(&self.walked).enumerate() {
            if walked.is_some() && w.is_some() {
                continue;
            }
            for (k, perspective) in [Colour::Black, Colour::White].into_iter().enumerate() {
                let Some(out) = outs.get_mut(2 * i + k) else {
                    continue;
                };
                let q = Query {
                    class: plan.class,
                    perspective,
                    orientations,
                };
                produced += plan_scan(plan, rom, board, host, &q, scratch, out);
            }
        }
        produced
    }

    /// Only the shared walk (the merged classes' outputs), forced: `None`, with nothing written,
    /// when it cannot serve this scan. For benchmarks and tests (the differential tests assert
    /// the path is taken).
    pub fn scan_shared<B: BoardView + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        orientations: Orientations,
        scratch: &mut Scratch,
        outs: &mut [MatchBuf<'_>],
    ) -> Option<usize> {
        self.walk(rom, board, orientations, scratch, outs)
    }

    /// [`ScanSet::scan_shared`] writing compact hits (as [`ScanSet::scan_hits`]).
    pub fn scan_shared_hits<B: BoardView + ?Sized>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        orientations: Orientations,
        scratch: &mut Scratch,
        outs: &mut [HitBuf<'_>],
    ) -> Option<usize> {
        self.walk(rom, board, orientations, scratch, outs)
    }

    /// The shared walk of the merged classes: `None` (nothing written) when it cannot serve
    /// this scan (board wider than 25, more than [`MAX_STONES`] stones, more hits than the
    /// scratch holds, a plan from another ROM, missing outputs).
    fn walk<B: BoardView + ?Sized, O: Sink>(
        &self,
        rom: &Rom<'_>,
        board: &B,
        orientations: Orientations,
        scratch: &mut Scratch,
        outs: &mut [O],
    ) -> Option<usize> {
        let ck = self.walk.as_ref()?;
        let s = board.size() as i32;
        if !(1..=MAX_SIDE).contains(&s) || outs.len() < 2 * self.plans.len() {
            return None;
        }
        for (p, w) in self.plans.iter().zip(&self.walked) {
            let info = rom.class(p.class)?;
            if w.is_some()
                && p.fingerprint != fingerprint(rom, info.first_entry(), info.entry_count())
            {
                return None;
            }
        }
        // All stones, and which are black.
        let mut rows = [[0u32; 3]; MAX_SIDE as usize];
        board.window_rows(0, 0, s as u32, &mut rows[..s as usize]);
        let line = (1u64 << s) - 1;
        let (mut stones, mut black) = ([0u64; MAX_WORDS], [0u64; MAX_WORDS]);
        for (y, r) in rows.iter().take(s as usize).enumerate() {
            let (b, w) = (r[0] as u64 & line, r[1] as u64 & line);
            // A point reported as both colours is a focus of both perspectives: not one walk.
            if b & w != 0 {
                return None;
            }
            super::put(&mut stones, y as i32 * s, b | w);
            super::put(&mut black, y as i32 * s, b);
        }
        if stones
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum::<usize>()
            > MAX_STONES
        {
            return None;
        }
        let q = Query {
            class: self.plans[0].class,
            perspective: Colour::Black,
            orientations,
        };
        let sc = &mut scratch.scan;
        sc.compact.position(board, s);
        let qfilter = super::qfilter(&q);
        // Over patterns first; declined (out of room), over oriented entries.
        let by_pattern = self.by_pattern.as_ref().map(|pt| {
            super::super::simd::run(PatternWalk {
                pt,
                qfilter,
                sc: &mut *sc,
                stones: &stones,
                s,
            })
        });
        let (hits, runs) = match by_pattern {
            Some(Ok(hits)) => (hits, self.by_pattern.as_ref().is_some_and(|pt| pt.runs())),
            Some(Err(by_pattern::Stop::Full)) => return None,
            _ => {
                let walk = Walk {
                    ck,
                    qfilter,
                    sc: &mut *sc,
                    stones: &stones,
                    s,
                };
                (super::super::simd::run(walk).ok()?, false)
            }
        };
        let raw = if runs {
            compact::sorted_runs(sc, hits, (s * s) as usize)
        } else {
            compact::sorted_hits(sc, hits, (s * s) as usize, self.records.len())
        };
        // Matches written: the outputs' total after less before (no allocation per scan).
        let before: usize = outs.iter().map(|o| o.stored()).sum();
        let (mut focus, mut x, mut y, mut qmask, mut white) = (u32::MAX, 0, 0, 0u8, 0usize);
        for &h in raw.iter() {
            let e = (h & ENTRY) as usize;
            let Some(r) = self.records.get(e) else {
                continue;
            };
            if h >> ENTRY_BITS != focus {
                focus = h >> ENTRY_BITS;
                (x, y) = (focus as i32 % s, focus as i32 / s);
                qmask = orientations.mask_at(x, y);
                white = usize::from(black[(focus >> 6) as usize] >> (focus & 63) & 1 == 0);
            }
            // The perspective: the focus's colour (O-anchored, `out` even) or the other
            // (X-anchored, `out` odd).
            let out = &mut outs[r.out as usize ^ white];
            if O::HITS && r.cov & !qmask == 0 {
                // A compact hit: the pattern's index, not its match.
                let Some(&p) = self.pattern_index.get(e) else {
                    continue;
                };
                out.put_hit(x, y, r.t, p);
            } else if r.cov & !qmask == 0 {
                let Some(pt) = self.patterns.get(r.pat as usize) else {
                    continue;
                };
                let mv = (x + i32::from(r.dx), y + i32::from(r.dy));
                out.put_moved(&pt.m, pt.p, r.t, (x, y), mv);
            } else {
                put_plain(&self.facts[e], qmask, x, y, out);
            }
        }
        Some(outs.iter().map(|o| o.stored()).sum::<usize>() - before)
    }
}

/// The shared walk, as a [`crate::matching::simd::Kernel`]: compiled once per vector level.
struct Walk<'w> {
    ck: &'w CompactKeys,
    qfilter: u8,
    sc: &'w mut ScanScratch,
    stones: &'w [u64; MAX_WORDS],
    s: i32,
}

impl crate::matching::simd::Kernel for Walk<'_> {
    type Out = Result<usize, (u64, u64)>;
    #[inline(always)]
    fn run(self) -> Self::Out {
        compact::collect_stones(self.ck, self.qfilter, self.sc, self.stones, self.s)
    }
}

/// The shared walk over patterns, as a [`crate::matching::simd::Kernel`].
struct PatternWalk<'w> {
    pt: &'w PatternTrie,
    qfilter: u8,
    sc: &'w mut ScanScratch,
    stones: &'w [u64; MAX_WORDS],
    s: i32,
}

impl crate::matching::simd::Kernel for PatternWalk<'_> {
    type Out = Result<usize, by_pattern::Stop>;
    #[inline(always)]
    fn run(self) -> Self::Out {
        compact::collect_patterns(
            self.pt,
            self.qfilter,
            self.sc,
            self.stones,
            self.s,
            compact::pending_limit(),
        )
    }
}
