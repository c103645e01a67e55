//! Format v5: the facts a whole match call writes a `Match` from (docs/rom-format.md,
//! "pattern_facts"). Each entry record's `plain` field says whether its pattern's match is
//! known without running anything (no tests, a result): the result's kind and stored offset.
//! The optional `pattern_facts` section holds, per pattern, the id, priority, value, bits and
//! sequence a `Match` takes from the pattern's and the result's records. So a plain match
//! reads the entry and one fact instead of the entry, the pattern and the result records
//! (`matching::results::FromRom`). Both are derived from the records and checked against
//! them at load; images without the section (v1-v4, or written without it) have `plain`
//! zero and take the records.

use super::records::{EntryRec, PatFactRec, PatternRec, ResultRec, entry_at, pat_fact_at};
use super::{LoadError, LoadErrorKind, NONE, Rom, Section};

/// `plain` kinds (`matching::results::Plain` uses the same numbers): not plain (tests, or no
/// result), a move, a reject, a value.
pub(crate) const NOT_PLAIN: u8 = 0;
pub(crate) const MOVE: u8 = 1;
pub(crate) const REJECT: u8 = 2;
pub(crate) const VALUE: u8 = 3;

/// The entry field: the kind in bits 0-1, the result's `dx` in bits 2-8 and `dy` in bits
/// 9-15 (7-bit two's complement: offsets lie within -24..=24).
pub(crate) const fn encode(kind: u8, dx: i8, dy: i8) -> u16 {
    (kind as u16 & 3) | ((dx as u8 as u16) & 0x7f) << 2 | ((dy as u8 as u16) & 0x7f) << 9
}

/// `(kind, dx, dy)` of an entry field.
#[inline(always)]
pub(crate) const fn decode(v: u16) -> (u8, i8, i8) {
    // Each offset's 7 bits moved to the top of a byte, then shifted back with their sign.
    let dx = (((v >> 2) << 1) as u8 as i8) >> 1;
    let dy = (((v >> 9) << 1) as u8 as i8) >> 1;
    (v as u8 & 3, dx, dy)
}

/// The entry field and the fact of a pattern, from its record and its result's (`None`: no
/// result).
pub(crate) fn derive(p: &PatternRec, r: Option<&ResultRec>) -> (u16, PatFactRec) {
    let (kind, dx, dy, value, bits, sequence) = match r {
        Some(r) if r.kind == 0 => (MOVE, r.dx, r.dy, r.value, r.bits, r.sequence),
        Some(r) if r.kind == 1 => (REJECT, r.dx, r.dy, 0, 0, NONE),
        Some(r) => (VALUE, 0, 0, r.value, r.bits, NONE),
        None => (NOT_PLAIN, 0, 0, 0, 0, NONE),
    };
    let plain = if p.test_count == 0 {
        encode(kind, dx, dy)
    } else {
        0
    };
    let fact = PatFactRec {
        id: p.id,
        priority: p.priority,
        value,
        bits,
        sequence,
    };
    (plain, fact)
}

impl Rom<'_> {
    /// Whether the image carries the `pattern_facts` section (format v5).
    pub fn has_pattern_facts(&self) -> bool {
        self.t(Section::PatFacts).base != 0
    }

    /// Entry `e`: `(pattern index, orientation, covers, plain)`, `plain` as [`decode`] reads it
    /// (kind [`NOT_PLAIN`] without `pattern_facts`).
    #[inline(always)]
    pub(crate) fn entry_plain(&self, e: u32) -> (u32, u8, u8, u16) {
        let r: EntryRec = self.t(Section::Entries).rec(e as usize);
        (r.pattern, r.orientation, r.covers, r.plain)
    }

    /// The fact of pattern index `p` (zeros without `pattern_facts`: only plain entries,
    /// which need the section, read it).
    #[inline(always)]
    pub(crate) fn pat_fact(&self, p: u32) -> PatFactRec {
        self.t(Section::PatFacts).rec(p as usize)
    }
}

/// The entry field and fact of pattern `p` of a loaded image (records already validated;
/// also what `matching::HitPlan` builds its facts from).
pub(crate) fn derived(rom: &Rom<'_>, p: usize) -> (u16, PatFactRec) {
    let pat: PatternRec = rom.t(Section::Patterns).rec(p);
    let res: Option<ResultRec> =
        (pat.result != NONE).then(|| rom.t(Section::Results).rec(pat.result as usize));
    derive(&pat, res.as_ref())
}

fn bad(offset: usize, why: &'static str) -> LoadError {
    LoadError {
        offset,
        reason: LoadErrorKind::Malformed(why),
    }
}

/// Checks every entry's `plain` field and every `pattern_facts` record against the pattern
/// and result records (already validated): equal to what [`derive`] gives with the section,
/// zero without it. O(entries + patterns).
pub(super) fn validate(rom: &Rom<'_>) -> Result<(), LoadError> {
    if rom.is_compact() {
        return Ok(());
    }
    let has = rom.has_pattern_facts();
    let facts = *rom.t(Section::PatFacts);
    let npat = rom.t(Section::Patterns).len();
    if has {
        if facts.len() != npat {
            return Err(bad(
                facts.base,
                "pattern_facts does not hold one record per pattern",
            ));
        }
        for p in 0..npat {
            let (_, want) = derived(rom, p);
            let got: PatFactRec = facts.rec(p);
            let field = if got.id != want.id {
                pat_fact_at::id
            } else if got.priority != want.priority {
                pat_fact_at::priority
            } else if got.value != want.value {
                pat_fact_at::value
            } else if got.bits != want.bits {
                pat_fact_at::bits
            } else if got.sequence != want.sequence {
                pat_fact_at::sequence
            } else {
                continue;
            };
            return Err(bad(
                facts.at(p, field),
                "pattern fact disagrees with its pattern and result records",
            ));
        }
    }
    let entries = rom.t(Section::Entries);
    for e in 0..entries.len() {
        let r: EntryRec = entries.rec(e);
        let want = if has {
            derived(rom, r.pattern as usize).0
        } else {
            0
        };
        if r.plain != want {
            return Err(bad(
                entries.at(e, entry_at::plain),
                match (has, rom.format_version() >= 5) {
                    (true, _) => "entry's plain fact disagrees with its pattern and result records",
                    (false, true) => "entry's plain fact is set but the image has no pattern_facts",
                    (false, false) => "reserved field is not zero",
                },
            ));
        }
    }
    Ok(())
}

#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
static WRITE_FACTS: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(true);

/// Whether the writer adds the facts (the default; off: format v4's records, the entries'
/// `plain` zero and no `pattern_facts`, for a baseline in the same bench run; feature
/// `bench-internals`).
#[cfg(feature = "bench-internals")]
pub fn set_write_facts(on: Option<bool>) {
    WRITE_FACTS.store(on.unwrap_or(true), core::sync::atomic::Ordering::Relaxed);
}

/// The entries section with its `plain` fields filled, and the `pattern_facts` section
/// (empty: leave it out), from the written `entries`, `patterns` and `results` sections.
#[cfg(feature = "alloc")]
pub(super) fn build(
    entries: &[u8],
    patterns: &[u8],
    results: &[u8],
) -> (alloc::vec::Vec<u8>, alloc::vec::Vec<u8>) {
    if !WRITE_FACTS.load(core::sync::atomic::Ordering::Relaxed) {
        return (entries.to_vec(), alloc::vec::Vec::new());
    }
    let of = |p: usize| {
        let pat = PatternRec::read(&patterns[p * PatternRec::LEN..]);
        let res = (pat.result != NONE)
            .then(|| ResultRec::read(&results[pat.result as usize * ResultRec::LEN..]));
        derive(&pat, res.as_ref())
    };
    let mut filled = alloc::vec::Vec::with_capacity(entries.len());
    for e in entries.chunks_exact(EntryRec::LEN) {
        let mut r = EntryRec::read(e);
        r.plain = of(r.pattern as usize).0;
        r.write_to(&mut filled);
    }
    let mut facts = alloc::vec::Vec::new();
    for p in 0..patterns.len() / PatternRec::LEN {
        of(p).1.write_to(&mut facts);
    }
    (filled, facts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind and every offset an image can name (-24..=24) survives the 16-bit field.
    #[test]
    fn plain_fields_round_trip() {
        for kind in [NOT_PLAIN, MOVE, REJECT, VALUE] {
            for dx in -24i8..=24 {
                for dy in -24i8..=24 {
                    assert_eq!(decode(encode(kind, dx, dy)), (kind, dx, dy));
                }
            }
        }
        // The largest 7-bit offsets too (-64..=63), so a wider window would still fit.
        assert_eq!(decode(encode(MOVE, -64, 63)), (MOVE, -64, 63));
    }
}
