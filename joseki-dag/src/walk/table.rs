//! The transition table, built once by `Walker::new` beside the blob (the blob is unchanged and
//! stays the walkable format): one open-addressed hash over every move entry of every list
//! reachable from the root, keyed by (list, point, colour exception) and giving the entry's
//! child list. A step is one probe instead of a scan of the sibling list; a move that is not
//! in the list (the common fate of a frame that dies) is a probe that meets an empty slot.
//!
//! Lists are named as `At` names them: blob offsets, or a pair code's virtual second position
//! ([`VBIT`]). The first entry of a list for a key wins, as the in-place scan finds it.

#[cfg(test)]
use super::fast::list_pos;
use super::fast::{At, LEAF, VBIT, list_key};
use super::jumps::Jumps;
use crate::codec::{Layout, read_entry, skip_list};
use crate::model::{Point, Rel};

/// One slot: `key` (`EMPTY`: free) and the child list of the entry it names.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Slot {
    key: u64,
    child: u32,
}

const EMPTY: u64 = u64::MAX;
/// The bottom half of the key that marks a list holding setup edges; `SETUP_MARK | 1 + k`
/// gives its `k`-th setup entry's offset.
const SETUP_MARK: u64 = 1 << 18;
/// The bottom half of the key that marks a list whose moves a partial table holds.
const INDEXED_MARK: u64 = 1 << 19;

/// (list, point, colour exception) -> child list.
#[derive(Clone, Debug)]
pub(crate) struct Transitions {
    slots: Box<[Slot]>,
    /// `64 - log2(slots.len())`: the hash keeps the top bits.
    shift: u32,
    lists: usize,
    entries: usize,
    /// Only lists of at least `min_len` moves are held (marked `INDEXED_MARK`); the walker
    /// scans the others. Setup marks are held for every list.
    partial: bool,
}

/// The key of a move in a list: the list in the top half; the point (`x << 8 | y`, a pass
/// `1 << 16`) and the colour exception (`1 << 17`) in the bottom half. [`SETUP_MARK`] alone in
/// the bottom half marks a list that holds setup edges.
#[inline(always)]
fn key(list: u32, point: Point, exception: bool) -> u64 {
    let p = match point {
        Point::Pass => 1 << 16,
        Point::At { x, y } => (x as u32) << 8 | y as u32,
    };
    (list as u64) << 32 | p as u64 | (exception as u64) << 17
}

impl Transitions {
    /// Every move entry of every list reachable from the root (below setup edges too), and a
    /// mark on each list that holds setup edges. The blob was validated.
    /// `min_len`: hold the moves of lists of at least this many moves only (0 or 1: all).
    pub(crate) fn build(l: &Layout<'_>, jumps: &Jumps, min_len: usize) -> Transitions {
        let n = l.limit();
        let mut moves: Vec<(u64, u32)> = Vec::new();
        let mut visited = vec![false; n];
        let mut lists = 0;
        let mut stack = Vec::new();
        if l.root < n {
            stack.push(l.root);
        }
        while let Some(list) = stack.pop() {
            if !crate::codec::is_virtual(list)
                && (list >= n || std::mem::replace(&mut visited[list], true))
            {
                continue;
            }
            let lk = list_key(list);
            let mut pos = list;
            let mut setups = 0;
            let mut own: Vec<(u64, u32)> = Vec::new();
            while let Ok(e) = read_entry(l, pos) {
                if e.setup.is_none() {
                    let child = e.children().map_or(LEAF, list_key);
                    own.push((key(lk, e.point, e.colour_exception), child));
                } else {
                    if setups == 0 {
                        moves.push(((lk as u64) << 32 | SETUP_MARK, LEAF));
                    }
                    // The k-th setup entry's offset.
                    moves.push((
                        (lk as u64) << 32 | SETUP_MARK | (1 + setups),
                        e.start as u32,
                    ));
                    setups += 1;
                }
                if let Some(c) = e.children() {
                    stack.push(c);
                }
                if !e.has_sibling {
                    break;
                }
                let mut scratch = 0;
                pos = match (e.subtree(), e.skip) {
                    (None, _) => e.end,
                    (Some(_), Some(next)) => next,
                    (Some(sub), None) => match jumps.get(list_key(sub)) {
                        Some(p) => p,
                        None => match skip_list(l, sub, &mut scratch) {
                            Ok(p) => p,
                            Err(_) => break,
                        },
                    },
                };
            }
            if own.len() >= min_len {
                lists += 1;
                moves.append(&mut own);
                if min_len > 1 {
                    moves.push(((lk as u64) << 32 | INDEXED_MARK, LEAF));
                }
            }
        }
        // Load factor at most 1/2: a miss meets an empty slot within a probe or two.
        let cap = (moves.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![
            Slot {
                key: EMPTY,
                child: LEAF
            };
            cap
        ]
        .into_boxed_slice();
        let shift = 64 - cap.trailing_zeros();
        let mut entries = 0;
        for (k, child) in moves {
            let mut i = hash(k, shift);
            loop {
                let s = &mut slots[i];
                if s.key == k {
                    break; // an earlier sibling with the same key wins, as in a scan
                }
                if s.key == EMPTY {
                    *s = Slot { key: k, child };
                    entries += (k & (SETUP_MARK | INDEXED_MARK) == 0) as usize;
                    break;
                }
                i = (i + 1) & (cap - 1);
            }
        }
        Transitions {
            slots,
            shift,
            lists,
            entries,
            partial: min_len > 1,
        }
    }

    /// Only long lists are held (the small mode's index).
    pub(crate) fn partial(&self) -> bool {
        self.partial
    }

    /// The child list of the move (`point`, colour `exception`) in `list`, if the list has it.
    #[inline(always)]
    pub(crate) fn get(&self, list: u32, point: Point, exception: bool) -> Option<u32> {
        self.get_key(key(list, point, exception))
    }

    /// Play the move at `(x, y)` (1-based, no pass) from `at`, as [`Transitions::step`]: the
    /// cursor's path. `at` may be a leaf (`LEAF` is never a list: the probe misses).
    #[inline(always)]
    pub(crate) fn step_xy(&self, at: At, rel: Rel, x: u8, y: u8, probes: &mut usize) -> Option<At> {
        *probes += 1;
        let exception = rel == at.last;
        let k = (at.list as u64) << 32 | ((x as u64) << 8 | y as u64) | (exception as u64) << 17;
        self.get_key(k).map(|child| At::new(child, rel))
    }

    /// A move not in the list: a recorded tenuki, then the move. After the other side's tenuki
    /// the move is a colour repeat on the board (`rel == at.last`); after the same side's, the
    /// book's move is its colour exception (the other side's tenuki went unrecorded).
    #[cold]
    #[inline(never)]
    pub(crate) fn after_tenuki(
        &self,
        at: At,
        rel: Rel,
        point: Point,
        probes: &mut usize,
    ) -> Option<At> {
        if point == Point::Pass || at.list == LEAF {
            return None;
        }
        *probes += 1;
        let p = self.get(at.list, Point::Pass, false)?;
        if p == LEAF {
            return None;
        }
        *probes += 1;
        let child = self.get(p, point, rel != at.last)?;
        Some(At::new(child, rel))
    }

    #[inline(always)]
    fn get_key(&self, k: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = hash(k, self.shift);
        loop {
            // In bounds: `i` is masked and `slots` is not empty.
            let s = self.slots[i];
            if s.key == k {
                return Some(s.child);
            }
            if s.key == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The move (`rel`, `point`) of the list at `at` (not a leaf), as `Walker::step` reads
    /// it first. Counts probes.
    #[inline(always)]
    pub(crate) fn step(&self, at: At, rel: Rel, point: Point, probes: &mut usize) -> Option<At> {
        *probes += 1;
        self.get(at.list, point, rel == at.last)
            .map(|child| At::new(child, rel))
    }

    /// The list holds setup edges.
    #[inline]
    pub(crate) fn has_setup(&self, list: u32) -> bool {
        self.get_key((list as u64) << 32 | SETUP_MARK).is_some()
    }

    /// The blob offset of the `k`-th setup entry of the list.
    pub(crate) fn setup_at(&self, list: u32, k: usize) -> Option<u32> {
        self.get_key((list as u64) << 32 | SETUP_MARK | (1 + k as u64))
    }

    /// Every list with a key in the table (moves or setup marks), in ascending order.
    pub(crate) fn list_names(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .slots
            .iter()
            .filter(|s| s.key != EMPTY)
            .map(|s| (s.key >> 32) as u32)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Lists and move entries held.
    pub(crate) fn lists(&self) -> usize {
        self.lists
    }
    pub(crate) fn entries(&self) -> usize {
        self.entries
    }
    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Every key held, as (list position, point, colour exception, child list position):
    /// for the differential test against the scan.
    #[cfg(test)]
    pub(crate) fn keys(&self) -> Vec<(usize, Point, bool, usize)> {
        let mut v: Vec<_> = self
            .slots
            .iter()
            .filter(|s| s.key != EMPTY && s.key & (SETUP_MARK | INDEXED_MARK) == 0)
            .map(|s| {
                let list = (s.key >> 32) as u32;
                let p = s.key as u32;
                let point = if p & 1 << 16 != 0 {
                    Point::Pass
                } else {
                    Point::at((p >> 8) as u8, p as u8)
                };
                let child = if s.child == LEAF {
                    usize::MAX
                } else {
                    list_pos(s.child)
                };
                (list_pos(list), point, p & 1 << 17 != 0, child)
            })
            .collect();
        v.sort();
        v
    }
}

#[inline(always)]
fn hash(k: u64, shift: u32) -> usize {
    (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

const _: () = assert!(VBIT == 1 << 31);

#[cfg(test)]
mod tests {
    use super::super::fast::Work;
    use super::*;
    use crate::{Conventions, Encoding, Tree, Walker, encode, import_sgf_into, parse_text};

    /// Every data file and their union (None: the data folder is absent).
    fn data_trees() -> Option<Vec<(String, Tree)>> {
        let d = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
        if !d.is_dir() {
            eprintln!("skipped: ../shared/data absent");
            return None;
        }
        let mut out = Vec::new();
        let mut union = Tree::new();
        for dir in ["gnugo/joseki", "pachi/joseki"] {
            let mut files: Vec<_> = std::fs::read_dir(d.join(dir))
                .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect())
                .unwrap_or_default();
            files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "sgf"));
            files.sort();
            for f in files {
                let text = std::fs::read_to_string(&f).expect("readable data file");
                let mut t = Tree::new();
                import_sgf_into(&mut t, &text, Conventions::Auto).expect("data file imports");
                import_sgf_into(&mut union, &text, Conventions::Auto).expect("imports");
                t.canonicalize();
                out.push((f.display().to_string(), t));
            }
        }
        union.canonicalize();
        out.push(("union".into(), union));
        Some(out)
    }

    /// Walk every list reachable from the root by scanning the blob, and in each ask the table
    /// and the scan for every point of a 19x19 corner frame, a pass and the list's own moves,
    /// with and without the colour exception: same child list (or both absent). Returns the
    /// lists visited, which must be all the table holds.
    /// The small mode's scan (jumps over large subtrees) agrees too, parsing at most as much.
    fn table_agrees_with_the_scan(w: &Walker<'_>, name: &str) -> usize {
        let t = w.table.as_ref().expect("Walker::new builds a table");
        let small = Walker::small(w.l.bytes).expect("a valid blob");
        let (mut parsed_scan, mut parsed_small) = (0, 0);
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = vec![w.root_at().list];
        let mut candidates: Vec<Point> = (1..=19u8)
            .flat_map(|x| (1..=19u8).map(move |y| Point::at(x, y)))
            .chain([Point::Pass])
            .collect();
        let plain = candidates.len();
        while let Some(list) = stack.pop() {
            if list == LEAF || !seen.insert(list) {
                continue;
            }
            candidates.truncate(plain);
            let mut parsed = 0;
            w.each(At::new(list, Rel::Opposite), &mut parsed, |v| {
                candidates.push(v.point)
            });
            // Lists below setup edges are in the table too.
            for k in 0..crate::walk::fast::MAX_SETUPS {
                let mut work = Work::default();
                match w.setup_entry(list, k, &mut work) {
                    Some(e) => stack.push(e.children().map_or(LEAF, list_key)),
                    None => break,
                }
            }
            for &point in &candidates {
                for exception in [false, true] {
                    let rel = if exception { Rel::Opposite } else { Rel::Same };
                    let scan = w.seek(list_pos(list), Rel::Opposite, point, rel, &mut parsed_scan);
                    let hop =
                        small.seek(list_pos(list), Rel::Opposite, point, rel, &mut parsed_small);
                    assert_eq!(scan, hop, "{name}: small mode, list {list:#x} {point:?}");
                    let got = t.get(list, point, exception);
                    assert_eq!(
                        got,
                        scan.map(|a| a.list),
                        "{name}: list {list:#x} {point:?} exception {exception}"
                    );
                    if let Some(child) = got {
                        stack.push(child);
                    }
                }
            }
        }
        assert_eq!(
            seen.len(),
            t.lists(),
            "{name}: lists reachable = lists held"
        );
        assert!(
            parsed_small <= parsed_scan,
            "{name}: {parsed_small} > {parsed_scan}"
        );
        seen.len()
    }

    #[test]
    fn the_table_agrees_with_the_in_place_scan_on_every_list_of_every_data_file() {
        let Some(trees) = data_trees() else { return };
        let (mut lists, mut pairs) = (0, 0);
        for (name, tree) in &trees {
            for enc in Encoding::WALKABLE {
                let blob = encode(tree, enc);
                let w = Walker::new(&blob).unwrap();
                lists += table_agrees_with_the_scan(&w, name);
                let keys = w.table.as_ref().unwrap().keys();
                pairs += keys
                    .iter()
                    .filter(|k| crate::codec::is_virtual(k.0))
                    .count();
            }
        }
        assert!(lists > 8000, "{lists} lists");
        assert!(pairs > 0, "pair codes' second moves are keyed too");
        // The union's small walker jumps, and holds under 4x the blob beside it.
        let union = &trees.last().unwrap().1;
        for enc in Encoding::WALKABLE {
            let blob = encode(union, enc);
            let small = Walker::small(&blob).unwrap();
            let jumps = small.jumps.as_ref().unwrap();
            assert!(jumps.len() > 100, "{enc:?}: {} jumps", jumps.len());
            assert!(small.heap_bytes() < 4 * blob.len(), "{enc:?}: {small:?}");
        }
    }

    #[test]
    fn the_table_holds_colour_exceptions_tenuki_far_points_and_pair_codes() {
        // A colour repeat, a recorded tenuki, far points (x or y over 16), a setup line
        // (never entered), a transposition, and long single lines (pair codes in Compact).
        let mut t = parse_text(
            "( d4 ( c6 ( d6 c7 e7 c8 d8 | f3 ) | f3 ( c6 d6 | d3 ) | e3 tenuki c3 | c3 d3 q17 ) \
             | c4 ( e3 ( d5 | c6 ) | d3 c3 | d5:repeat ) | c3 d3 | e3 c3 d4 | setup(o:c3) d4 e3 \
             | r4 s5 )",
        )
        .unwrap();
        t.canonicalize();
        for enc in Encoding::WALKABLE {
            let blob = encode(&t, enc);
            let w = Walker::new(&blob).unwrap();
            let lists = table_agrees_with_the_scan(&w, &format!("{enc:?}"));
            assert!(lists > 10, "{enc:?}: {lists}");
            let keys = w.table.as_ref().unwrap().keys();
            assert!(keys.iter().any(|k| k.1 == Point::Pass), "{enc:?}: a tenuki");
            assert!(keys.iter().any(|k| k.2), "{enc:?}: a colour exception");
            assert!(
                keys.iter()
                    .any(|k| matches!(k.1, Point::At { x, .. } if x > 16)),
                "{enc:?}: a far point"
            );
            // The walker with the table and the one without follow the same lines.
            let scan = Walker::in_place(&blob).unwrap();
            assert!(scan.table.is_none() && scan.heap_bytes() == 0);
            assert!(w.heap_bytes() >= 16 * keys.len());
            let line = [
                (Rel::Same, Point::at(4, 4)),
                (Rel::Opposite, Point::at(5, 3)),
                (Rel::Opposite, Point::at(3, 3)),
            ];
            let (mut a, mut b) = (Work::default(), Work::default());
            let (mut at, mut bt) = (w.root_at(), scan.root_at());
            for &(rel, p) in &line {
                at = w.step(at, rel, p, &mut a).expect("in the book (table)");
                bt = scan.step(bt, rel, p, &mut b).expect("in the book (scan)");
                assert_eq!(at, bt);
            }
            assert_eq!((a.parsed, b.probes), (0, 0));
            assert!(a.probes >= line.len() && b.parsed >= line.len());
        }
    }
}
