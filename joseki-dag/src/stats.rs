//! Figures about a tree and its encodings (what `lensc joseki stats` prints).

use crate::codec::{Encoding, encode, parse_header, read_entry};
use crate::model::{MoveType, Point, Rel, Step, Tree};
use crate::walk::Walker;
use std::fmt::Write;

/// Counts over the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeStats {
    /// Source-tree moves (the bytes-per-move denominator).
    pub tree_moves: u64,
    pub vertices: usize,
    pub move_edges: usize,
    pub transposed: usize,
    pub leaves: usize,
    pub passes: usize,
    pub typed: usize,
    pub colour_exceptions: usize,
    pub setup_edges: usize,
    pub far_moves: usize,
    pub symmetric: usize,
    pub first_moves: usize,
}

/// Figures for one encoding.
#[derive(Clone, Debug, PartialEq)]
pub struct EncodingStats {
    pub encoding: Encoding,
    pub bytes: usize,
    pub bytes_per_move: f64,
    pub entries: usize,
    pub one_byte_entries: usize,
    /// Bytes of setup-stone entries (the reference reconstruction stores no setup stones).
    pub setup_bytes: usize,
    /// Bytes before the root list (magic, version, encoding, move count, code table).
    pub header_bytes: usize,
    /// Mean bytes parsed to reach a vertex from the root (over every vertex's first path), by
    /// the small mode's scans (`Walker::small`: hops over subtrees with its jump table).
    pub parsed_per_lookup: f64,
    pub parsed_per_step: f64,
}

pub fn tree_stats(tree: &Tree) -> TreeStats {
    let vs = tree.vertices();
    let mut s = TreeStats {
        tree_moves: tree.tree_moves(),
        vertices: vs.len(),
        move_edges: tree.move_edges(),
        transposed: tree.transposed_vertices(),
        leaves: vs.iter().filter(|v| v.edges.is_empty()).count(),
        passes: 0,
        typed: 0,
        colour_exceptions: 0,
        setup_edges: 0,
        far_moves: 0,
        symmetric: 0,
        first_moves: vs[0].edges.len(),
    };
    // Colour exceptions need the parent colour: walk every edge once from its first-visit parent.
    let mut colour = vec![None::<Rel>; vs.len()];
    colour[0] = Some(Rel::Opposite);
    let mut stack = vec![0u32];
    while let Some(v) = stack.pop() {
        let pc = colour[v as usize].unwrap_or(Rel::Opposite);
        for e in &vs[v as usize].edges {
            let c = match &e.step {
                Step::Move(m) => {
                    s.passes += (m.point == Point::Pass) as usize;
                    s.typed += (m.kind != MoveType::Normal) as usize;
                    s.colour_exceptions += (m.colour == pc) as usize;
                    s.symmetric += m.symmetric as usize;
                    if let Point::At { x, y } = m.point {
                        s.far_moves += (x > 16 || y > 16) as usize;
                    }
                    m.colour
                }
                Step::Setup(_) => {
                    s.setup_edges += 1;
                    pc
                }
            };
            if colour[e.to as usize].is_none() {
                colour[e.to as usize] = Some(c);
                stack.push(e.to);
            }
        }
    }
    s
}

/// Every vertex's first path from the root, as walker input (lines through setups are left out).
pub fn first_paths(tree: &Tree) -> Vec<Vec<(Rel, Point)>> {
    // A path's prefix is the first path of the vertex it leaves from, listed before it.
    let mut at = vec![usize::MAX; tree.vertices().len()];
    let mut out: Vec<Vec<(Rel, Point)>> = Vec::new();
    for (from, to, step, _) in first_steps(tree) {
        let mut p = out.get(at[from as usize]).cloned().unwrap_or_default();
        p.push(step);
        at[to as usize] = out.len();
        out.push(p);
    }
    out
}

/// Where a walk stands after a path: its list, the colour of its last move, bytes parsed.
type Reached = (Option<usize>, Rel, usize);

/// [`first_paths`] without the paths: per path, in the same order, (the vertex its prefix
/// reaches, the vertex it reaches, its last move, its length). No path is copied or hashed.
fn first_steps(tree: &Tree) -> Vec<(u32, u32, (Rel, Point), usize)> {
    let vs = tree.vertices();
    let mut seen = vec![false; vs.len()];
    seen[0] = true;
    let mut out = Vec::new();
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    while let Some((v, len)) = stack.pop() {
        for e in vs[v as usize].edges.iter().rev() {
            let Step::Move(m) = &e.step else { continue };
            if seen[e.to as usize] {
                continue;
            }
            seen[e.to as usize] = true;
            out.push((v, e.to, (m.colour, m.point), len + 1));
            stack.push((e.to, len + 1));
        }
    }
    out
}

pub fn encoding_stats(tree: &Tree, blob: &[u8]) -> EncodingStats {
    let l = parse_header(blob).expect("a blob we just encoded");
    // Positions per byte: Compact version 4 counts bits.
    let unit = if l.in_bits() { 8 } else { 1 };
    let (mut entries, mut one, mut setup_bytes) = (0, 0, 0);
    for pos in crate::codec::entry_starts(&l).expect("a blob we just encoded") {
        let e = read_entry(&l, pos).expect("a blob we just encoded");
        entries += 1;
        one += (crate::codec::compact::first_symbol_end(&l, e.start) == Some(e.end)
            && l.enc == Encoding::Compact
            || e.end - e.start == 1) as usize;
        if e.setup.is_some() {
            setup_bytes += e.end - e.start;
        }
    }
    // The small mode: scans that hop over subtrees (what a walker without its transition
    // table parses).
    let w = Walker::small(blob).expect("a blob we just encoded");
    let (mut parsed, mut lookups, mut steps) = (0usize, 0usize, 0usize);
    // Each first path is its prefix's plus one move, and the prefix comes first: follow the
    // last move from the prefix's end (what `Walker::parsed_for` would parse, in linear time).
    // A first path is its vertex's, so the walk's state is kept per vertex.
    let mut reached: Vec<Option<Reached>> = vec![None; tree.vertices().len()];
    reached[0] = Some((w.root_list(), Rel::Opposite, 0));
    for (from, to, step, len) in first_steps(tree) {
        let Some((list, last, before)) = reached[from as usize] else {
            continue;
        };
        let mut b = 0;
        let (list, last, _, ok) = w.follow_rel_from(list, last, std::iter::once(step), &mut b);
        if ok {
            let b = before + b;
            parsed += b;
            lookups += 1;
            steps += len;
            reached[to as usize] = Some((list, last, b));
        }
    }
    EncodingStats {
        encoding: l.enc,
        bytes: blob.len(),
        bytes_per_move: blob.len() as f64 / tree.tree_moves().max(1) as f64,
        entries,
        one_byte_entries: one,
        setup_bytes: setup_bytes / unit,
        header_bytes: l.root / unit,
        parsed_per_lookup: parsed as f64 / (unit * lookups.max(1)) as f64,
        parsed_per_step: parsed as f64 / (unit * steps.max(1)) as f64,
    }
}

/// The `stats` report: tree counts, then one line per encoding. Stable text (snapshot format).
pub fn report(name: &str, tree: &Tree) -> String {
    let t = tree_stats(tree);
    let mut s = String::new();
    let _ = writeln!(s, "joseki {name}");
    let _ = writeln!(
        s,
        "  moves {} (edges {}, vertices {}, transposed {}), first moves {}, leaves {}",
        t.tree_moves, t.move_edges, t.vertices, t.transposed, t.first_moves, t.leaves
    );
    let _ = writeln!(
        s,
        "  passes {}, typed {}, colour exceptions {}, far (x or y > 16) {}, symmetric {}, setup edges {}",
        t.passes, t.typed, t.colour_exceptions, t.far_moves, t.symmetric, t.setup_edges
    );
    let _ = writeln!(
        s,
        "  encoding  bytes  bytes/move  1-byte entries  parsed/lookup  parsed/step  header  setup"
    );
    // One line per encoding, each built on its own thread where the platform allows: Packed's
    // board-aware encoder costs about as much as the other two with their lookups together.
    let lines: Vec<String> = std::thread::scope(|scope| {
        let jobs: Vec<_> = Encoding::ALL
            .iter()
            .map(|&enc| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || encoding_line(tree, enc))
                    .map_err(|_| enc)
            })
            .collect();
        jobs.into_iter()
            .map(|job| match job {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(enc) => encoding_line(tree, enc),
            })
            .collect()
    });
    for line in lines {
        s.push_str(&line);
    }
    s
}

/// One encoding's line of the `stats` report.
fn encoding_line(tree: &Tree, enc: Encoding) -> String {
    let blob = encode(tree, enc);
    if !enc.walkable() {
        // Storage only: no entries to walk; header = everything before the payload.
        return format!(
            "  {:<8} {:>6}  {:>10.3}  {:>14}  {:>13}  {:>11}  {:>6}  {:>5}\n",
            enc.name(),
            blob.len(),
            blob.len() as f64 / tree.tree_moves().max(1) as f64,
            "-",
            "-",
            "-",
            4 + crate::codec::varint_len(tree.tree_moves()) + 1 + 4,
            "-"
        );
    }
    let e = encoding_stats(tree, &blob);
    format!(
        "  {:<8} {:>6}  {:>10.3}  {:>13.1}%  {:>13.1}  {:>11.1}  {:>6}  {:>5}\n",
        enc.name(),
        e.bytes,
        e.bytes_per_move,
        100.0 * e.one_byte_entries as f64 / e.entries.max(1) as f64,
        e.parsed_per_lookup,
        e.parsed_per_step,
        e.header_bytes,
        e.setup_bytes
    )
}

/// One class of entries in a walkable blob: the reference reconstruction's "Where the bytes go".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryClass {
    pub name: &'static str,
    pub entries: usize,
    /// Moves the entries hold (a Compact pair code holds two; a setup entry none).
    pub moves: usize,
    pub bytes: usize,
}

/// The entries of a walkable blob by class, and the bytes before the root list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryClasses {
    /// Magic, version, encoding, move count, code table (Fotland: 62 of them are the table).
    pub header_bytes: usize,
    pub classes: Vec<EntryClass>,
    /// Entries with a pointer to a shared child list, and the pointer bytes they hold
    /// (included in their class's bytes).
    pub pointers: usize,
    pub pointer_bytes: usize,
    /// Compact only: skip-field bytes and type / flag prefix bytes (included in the classes).
    pub skip_bytes: usize,
    pub prefix_bytes: usize,
}

impl EntryClasses {
    pub fn get(&self, name: &str) -> Option<&EntryClass> {
        self.classes.iter().find(|c| c.name == name)
    }
    /// Bytes of the entries of the named classes.
    pub fn bytes_of(&self, names: &[&str]) -> usize {
        names
            .iter()
            .filter_map(|n| self.get(n))
            .map(|c| c.bytes)
            .sum()
    }
    pub fn entry_bytes(&self) -> usize {
        self.classes.iter().map(|c| c.bytes).sum()
    }
}

/// Fotland's classes: a 1-byte table hit (a point, or the pass when it ranks among the 62), a
/// 2-byte escape, or an extended entry by its first reason in this order: setup stones, far
/// (x or y > 16), pass not in the table, type, colour exception, symmetric, colour-reverse,
/// pointer only (the reference reconstruction counts one reason per entry, from the same list).
pub const FOTLAND_CLASSES: [&str; 11] = [
    "table hit",
    "table hit: pass",
    "escape",
    "ext: setup",
    "ext: far",
    "ext: pass",
    "ext: type",
    "ext: colour exception",
    "ext: symmetric",
    "ext: colour-reverse",
    "ext: pointer",
];

/// Compact's classes by main part: a one-byte table code (plain, or in a group that carries a
/// type, the pass or a colour exception), a pair code (two moves in one byte), an escape (2
/// bytes), a far point or pass (3), setup stones. Prefixes, pointers and skip fields are
/// counted apart and included in the entry's class.
pub const COMPACT_CLASSES: [&str; 6] = [
    "code: plain",
    "code: typed/pass/colour group",
    "code: pair (2 moves)",
    "escape",
    "far or pass",
    "setup",
];

/// Split a walkable blob's entries into classes (every entry once, in blob order).
pub fn entry_classes(blob: &[u8]) -> Result<EntryClasses, crate::DecodeError> {
    use crate::codec::compact::{self, MainKind};
    let l = parse_header(blob)?;
    let names: &[&'static str] = match l.enc {
        Encoding::Fotland => &FOTLAND_CLASSES,
        _ => &COMPACT_CLASSES,
    };
    let unit = if l.in_bits() { 8 } else { 1 };
    let mut out = EntryClasses {
        header_bytes: l.root / unit,
        classes: names
            .iter()
            .map(|&name| EntryClass {
                name,
                entries: 0,
                moves: 0,
                bytes: 0,
            })
            .collect(),
        pointers: 0,
        pointer_bytes: 0,
        skip_bytes: 0,
        prefix_bytes: 0,
    };
    for pos in crate::codec::entry_starts(&l)? {
        let e = read_entry(&l, pos)?;
        let len = e.end - e.start;
        let far = matches!(e.point, Point::At { x, y } if x > 16 || y > 16);
        let (class, moves) = match l.enc {
            Encoding::Fotland => {
                if e.ptr.is_some() {
                    out.pointers += 1;
                    out.pointer_bytes += if blob[pos + 1] & 1 != 0 { 3 } else { 2 };
                }
                let c = if len == 1 {
                    if e.point == Point::Pass { 1 } else { 0 }
                } else if len == 2 {
                    2
                } else if e.setup.is_some() {
                    3
                } else if far {
                    4
                } else if e.point == Point::Pass {
                    5
                } else if e.kind != MoveType::Normal {
                    6
                } else if e.colour_exception {
                    7
                } else if e.symmetric {
                    8
                } else if e.reverse {
                    9
                } else {
                    10
                };
                (c, (e.setup.is_none()) as usize)
            }
            _ => {
                let p = compact::parts(&l, pos)?;
                if p.pointer > 0 {
                    out.pointers += 1;
                    out.pointer_bytes += p.pointer;
                }
                out.skip_bytes += p.skip;
                out.prefix_bytes += p.prefix;
                match p.main_kind {
                    MainKind::Code => (0, 1),
                    MainKind::GroupCode => (1, 1),
                    MainKind::Pair => (2, 2),
                    MainKind::Escape => (3, 1),
                    MainKind::Far => (4, 1),
                    MainKind::Setup => (5, 0),
                }
            }
        };
        let c = &mut out.classes[class];
        c.entries += 1;
        c.moves += moves;
        c.bytes += len;
    }
    if unit > 1 {
        // Bits to bytes, rounded.
        let bytes = |b: &mut usize| *b = (*b + unit / 2) / unit;
        for c in &mut out.classes {
            bytes(&mut c.bytes);
        }
        bytes(&mut out.pointer_bytes);
        bytes(&mut out.skip_bytes);
        bytes(&mut out.prefix_bytes);
    }
    Ok(out)
}

/// Fotland's bytes as the reference figures count them (docs/joseki.md): the 62-byte table and
/// the entries, without our header (magic, version, encoding, move count) and without
/// setup-stone entries (the reconstruction stores no setup stones; the lines below them are
/// kept, as here).
/// (For a Fotland blob's classes.)
pub fn research_comparable_bytes(classes: &EntryClasses) -> usize {
    62 + classes.entry_bytes() - classes.bytes_of(&["ext: setup"])
}

/// Leaves and the longest line (in moves and setups) of a tree or DAG.
pub fn shape(tree: &Tree) -> (usize, usize) {
    let vs = tree.vertices();
    // Longest path from each vertex: post-order over the DAG, iteratively.
    let mut depth = vec![usize::MAX; vs.len()];
    let mut stack = vec![(0u32, false)];
    while let Some((v, done)) = stack.pop() {
        let vi = v as usize;
        if done {
            depth[vi] = vs[vi]
                .edges
                .iter()
                .map(|e| 1 + depth[e.to as usize])
                .max()
                .unwrap_or(0);
            continue;
        }
        if depth[vi] != usize::MAX {
            continue;
        }
        stack.push((v, true));
        for e in &vs[vi].edges {
            if depth[e.to as usize] == usize::MAX {
                stack.push((e.to, false));
            }
        }
    }
    let leaves = vs.iter().filter(|v| v.edges.is_empty()).count();
    (leaves, depth[0])
}

/// One row of the reference reconstruction's per-file table ("Per file, faithful Fotland
/// format"): its Python reconstruction's counts on the plain tree and its bytes/move on the
/// tree and on the position DAG (transpositions merged), 62-byte table included. Reference figures to compare
/// with, not results of this crate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResearchFile {
    /// `gnugo_NAME` / `pachi_NAME`, as the data file's stem with its set.
    pub name: &'static str,
    pub moves: u64,
    pub leaves: usize,
    pub max_depth: usize,
    pub passes: usize,
    pub typed: usize,
    pub tree: f64,
    pub posdag: f64,
}

#[allow(clippy::too_many_arguments)]
const fn rf(
    name: &'static str,
    moves: u64,
    leaves: usize,
    max_depth: usize,
    passes: usize,
    typed: usize,
    tree: f64,
    posdag: f64,
) -> ResearchFile {
    ResearchFile {
        name,
        moves,
        leaves,
        max_depth,
        passes,
        typed,
        tree,
        posdag,
    }
}

/// The reference reconstruction's per-file rows for the files in `../shared/data` (Kogo and Pachi's
/// josekifix / fusekifix are not there).
pub const RESEARCH_FILES: [ResearchFile; 11] = [
    rf("gnugo_gogo", 130, 16, 18, 0, 21, 1.846, 1.846),
    rf("gnugo_hoshi_keima", 891, 157, 41, 22, 315, 1.802, 1.842),
    rf("gnugo_hoshi_other", 315, 56, 33, 3, 70, 1.695, 1.695),
    rf("gnugo_komoku", 496, 89, 31, 6, 91, 1.508, 1.514),
    rf("gnugo_mokuhazushi", 20, 3, 10, 0, 3, 4.500, 4.500),
    rf("gnugo_sansan", 18, 3, 9, 0, 5, 5.333, 5.333),
    rf("gnugo_takamoku", 74, 8, 37, 2, 35, 2.797, 2.797),
    rf("pachi_joseki_33", 27, 7, 8, 0, 1, 3.444, 3.444),
    rf("pachi_joseki_34", 1042, 184, 36, 1, 77, 1.253, 1.257),
    rf("pachi_joseki_44", 1487, 298, 28, 18, 109, 1.264, 1.267),
    rf("pachi_joseki_54", 190, 19, 41, 1, 6, 1.416, 1.416),
];

/// The reference reconstruction's rows for the two families as one book each ("Data sets"
/// and "Bytes per move" tables: `gnugo_all`, the 7 GNU Go files; `pachi_joseki`, the 4 Pachi
/// joseki files), named `gnugo` and `pachi`.
pub const RESEARCH_FAMILIES: [ResearchFile; 2] = [
    rf("gnugo", 1943, 332, 41, 33, 540, 1.637, 1.657),
    rf("pachi", 2746, 508, 41, 20, 193, 1.236, 1.239),
];

/// Measuring only (examples/measure.rs): a copy of a plain tree (no merged transpositions)
/// whose points are parent-relative, to size a parent-relative variant of a layout without
/// writing one. Each point becomes its offset from the last point played on its line (a pass
/// keeps the reference; the first move stays absolute), stored as the point (dx + 9, dy + 9)
/// (offsets -8..=7 fit the 4+4-bit forms, larger ones go far; beyond 1..=25, clamped there).
/// Not a joseki tree: walking it means nothing. `None` if a vertex has two parents.
pub fn parent_relative_copy(tree: &Tree) -> Option<Tree> {
    use crate::model::{Edge, Vertex};
    let vs = tree.vertices();
    let mut out: Vec<Vertex> = vec![Vertex::default(); vs.len()];
    let mut parents = vec![0u32; vs.len()];
    let mut stack: Vec<(u32, Option<(u8, u8)>)> = vec![(0, None)];
    while let Some((v, reference)) = stack.pop() {
        for e in &vs[v as usize].edges {
            parents[e.to as usize] += 1;
            if parents[e.to as usize] > 1 {
                return None;
            }
            let (step, next) = match &e.step {
                Step::Move(m) => match (m.point, reference) {
                    (Point::At { x, y }, Some((rx, ry))) => {
                        let c = |a: u8, r: u8| (a as i32 - r as i32 + 9).clamp(1, 25) as u8;
                        let mut m2 = *m;
                        m2.point = Point::at(c(x, rx), c(y, ry));
                        (Step::Move(m2), Some((x, y)))
                    }
                    (Point::At { x, y }, None) => (Step::Move(*m), Some((x, y))),
                    (Point::Pass, r) => (Step::Move(*m), r),
                },
                Step::Setup(s) => (Step::Setup(s.clone()), reference),
            };
            out[v as usize].edges.push(Edge { step, to: e.to });
            stack.push((e.to, next));
        }
    }
    Some(Tree::from_parts(out, tree.tree_moves()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Move;

    fn points(t: &Tree) -> Vec<Point> {
        t.vertices()
            .iter()
            .flat_map(|v| &v.edges)
            .filter_map(|e| e.step.as_move().map(|m| m.point))
            .collect()
    }

    #[test]
    fn parent_relative_copy_codes_offsets_from_the_last_point_played() {
        let mut t = Tree::with_options(19, false);
        let (s, o) = (Rel::Same, Rel::Opposite);
        t.add_line(&[
            Move::new(Point::at(4, 4), s),
            Move::new(Point::at(3, 6), o),
            Move::new(Point::Pass, s),
            Move::new(Point::at(19, 1), o),
        ]);
        t.canonicalize();
        let r = parent_relative_copy(&t).unwrap();
        assert_eq!(r.tree_moves(), t.tree_moves());
        // (4,4) absolute; (3,6) - (4,4) + 9; the pass keeps (3,6) as the reference;
        // (19,1) - (3,6) + 9 = (25, 4), clamped into 1..=25.
        assert_eq!(
            points(&r),
            [
                Point::at(4, 4),
                Point::at(8, 11),
                Point::Pass,
                Point::at(25, 4)
            ]
        );
        // Two orders into one position: the shared list has two parents.
        let mut d = Tree::new();
        let (a, b) = (Point::at(4, 4), Point::at(3, 3));
        let (c, e) = (Point::at(6, 3), Point::at(3, 6));
        d.add_line(&[a, b, c, e, Point::at(5, 5)].map(|p| Move::new(p, s)));
        d.add_line(&[a, b, e, c, Point::at(5, 5)].map(|p| Move::new(p, s)));
        d.canonicalize();
        assert!(d.transposed_vertices() > 0);
        assert!(parent_relative_copy(&d).is_none());
    }
}
