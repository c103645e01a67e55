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
    /// Bytes of setup-stone entries (research/joseki.md stores no setup stones).
    pub setup_bytes: usize,
    /// Bytes before the root list (magic, version, encoding, move count, code table).
    pub header_bytes: usize,
    /// Mean bytes parsed to reach a vertex from the root (over every vertex's first path).
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
    let vs = tree.vertices();
    let mut seen = vec![false; vs.len()];
    seen[0] = true;
    let mut out = Vec::new();
    let mut stack: Vec<(u32, Vec<(Rel, Point)>)> = vec![(0, Vec::new())];
    while let Some((v, path)) = stack.pop() {
        for e in vs[v as usize].edges.iter().rev() {
            let Step::Move(m) = &e.step else { continue };
            if seen[e.to as usize] {
                continue;
            }
            seen[e.to as usize] = true;
            let mut p = path.clone();
            p.push((m.colour, m.point));
            out.push(p.clone());
            stack.push((e.to, p));
        }
    }
    out
}

pub fn encoding_stats(tree: &Tree, blob: &[u8]) -> EncodingStats {
    let l = parse_header(blob).expect("a blob we just encoded");
    let (mut entries, mut one, mut setup_bytes) = (0, 0, 0);
    let mut pos = l.root;
    while pos < blob.len() {
        let e = read_entry(&l, pos).expect("a blob we just encoded");
        entries += 1;
        one += (e.end - e.start == 1) as usize;
        if e.setup.is_some() {
            setup_bytes += e.end - e.start;
        }
        pos = e.end;
    }
    let w = Walker::new(blob).expect("a blob we just encoded");
    let (mut parsed, mut lookups, mut steps) = (0usize, 0usize, 0usize);
    for p in first_paths(tree) {
        if let Some(b) = w.parsed_for(&p) {
            parsed += b;
            lookups += 1;
            steps += p.len();
        }
    }
    EncodingStats {
        encoding: l.enc,
        bytes: blob.len(),
        bytes_per_move: blob.len() as f64 / tree.tree_moves().max(1) as f64,
        entries,
        one_byte_entries: one,
        setup_bytes,
        header_bytes: l.root,
        parsed_per_lookup: parsed as f64 / lookups.max(1) as f64,
        parsed_per_step: parsed as f64 / steps.max(1) as f64,
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
        "  encoding  bytes  bytes/move  1-byte entries  parsed/lookup  parsed/step"
    );
    for enc in Encoding::EVERY {
        let blob = encode(tree, enc);
        if !enc.walkable() {
            // Storage only: no entries to walk; header = everything before the payload.
            let _ = writeln!(
                s,
                "  {:<8} {:>6}  {:>10.3}  {:>14}  {:>13}  {:>11}  {:>6}  {:>5}",
                enc.name(),
                blob.len(),
                blob.len() as f64 / tree.tree_moves().max(1) as f64,
                "-",
                "-",
                "-",
                4 + crate::codec::varint_len(tree.tree_moves()) + 1 + 4,
                "-"
            );
            continue;
        }
        let e = encoding_stats(tree, &blob);
        let _ = writeln!(
            s,
            "  {:<8} {:>6}  {:>10.3}  {:>13.1}%  {:>13.1}  {:>11.1}  {:>6}  {:>5}",
            enc.name(),
            e.bytes,
            e.bytes_per_move,
            100.0 * e.one_byte_entries as f64 / e.entries.max(1) as f64,
            e.parsed_per_lookup,
            e.parsed_per_step,
            e.header_bytes,
            e.setup_bytes
        );
    }
    s
}
