//! The joseki model: a DAG of moves in the corner frame.
//!
//! Vertices are corner positions (the root is the empty corner); edges are moves with Fotland's
//! node data (type, colour relative to the corner's first move, symmetric, colour-reverse).
//! Two orders that reach the same position (same stones after captures, same side to move, same
//! number of moves on the board and of passes since) end at one vertex, so a walker following
//! either order finds the union of both continuations. The move and pass counts keep ko loops
//! and pass pairs acyclic; a pass then a move of the same side reaches the same vertex as that
//! move played as a colour repeat (the board cannot tell them apart).

use crate::board::Replay;
use std::collections::{HashMap, HashSet};

/// Fotland's move types (3 bits). The first six are the `.lens` language's; `Minor` (GNU Go
/// `j`/`s`) and `TenukiOk` (GNU Go `t`, Pachi `<tenuki>`) use the two spare values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum MoveType {
    #[default]
    Normal = 0,
    Urgent = 1,
    Complex = 2,
    Trick = 3,
    Bad = 4,
    Ignore = 5,
    Minor = 6,
    TenukiOk = 7,
}

impl MoveType {
    pub const ALL: [MoveType; 8] = [
        MoveType::Normal,
        MoveType::Urgent,
        MoveType::Complex,
        MoveType::Trick,
        MoveType::Bad,
        MoveType::Ignore,
        MoveType::Minor,
        MoveType::TenukiOk,
    ];
    pub const fn from_bits(bits: u8) -> MoveType {
        MoveType::ALL[(bits & 7) as usize]
    }
    pub const fn bits(self) -> u8 {
        self as u8
    }
    /// The name used by the text format and the CLI.
    pub const fn name(self) -> &'static str {
        match self {
            MoveType::Normal => "normal",
            MoveType::Urgent => "urgent",
            MoveType::Complex => "complex",
            MoveType::Trick => "trick",
            MoveType::Bad => "bad",
            MoveType::Ignore => "ignore",
            MoveType::Minor => "minor",
            MoveType::TenukiOk => "tenuki-ok",
        }
    }
    pub fn from_name(name: &str) -> Option<MoveType> {
        MoveType::ALL.into_iter().find(|t| t.name() == name)
    }
    /// Which type wins when two sources type the same move differently (a union of books, two
    /// orders of one book, or a move seen through two orientations): [`MoveType::PRECEDENCE`]
    /// order, whatever order the sources came in.
    pub fn stronger(self, other: MoveType) -> MoveType {
        if self.rank() >= other.rank() {
            self
        } else {
            other
        }
    }
    /// The merge order, strongest first: the warnings (`bad`, `ignore`, `trick`: losing one
    /// lets an engine play a move a book warns against), then the specific advice (`urgent`,
    /// `complex`, `tenuki-ok`, `minor`), then `normal`.
    pub const PRECEDENCE: [MoveType; 8] = [
        MoveType::Bad,
        MoveType::Ignore,
        MoveType::Trick,
        MoveType::Urgent,
        MoveType::Complex,
        MoveType::TenukiOk,
        MoveType::Minor,
        MoveType::Normal,
    ];
    const fn rank(self) -> u8 {
        let mut i = 0;
        while i < 8 {
            if MoveType::PRECEDENCE[i] as u8 == self as u8 {
                return 8 - i as u8;
            }
            i += 1;
        }
        0
    }
}

/// A colour relative to the first move played in the corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    Same,
    Opposite,
}

impl Rel {
    pub const fn flip(self) -> Rel {
        match self {
            Rel::Same => Rel::Opposite,
            Rel::Opposite => Rel::Same,
        }
    }
    pub(crate) const fn stone(self) -> u8 {
        match self {
            Rel::Same => 1,
            Rel::Opposite => 2,
        }
    }
}

/// A point in the corner frame: `x` columns and `y` rows from the corner, 1-based (`a1` is
/// `(1, 1)`, the corner point), at most 25; or a pass (tenuki).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Point {
    Pass,
    At { x: u8, y: u8 },
}

impl Point {
    pub const fn at(x: u8, y: u8) -> Point {
        Point::At { x, y }
    }
}

/// One move with Fotland's node data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub point: Point,
    pub colour: Rel,
    pub kind: MoveType,
    /// The position after this move is symmetric about the corner's diagonal (computed by the
    /// tree; whatever the caller passes is replaced).
    pub symmetric: bool,
    /// Fotland's colour-reverse flag: the continuation is a transposition with colours reversed.
    /// Kept and encoded, never inferred.
    pub colour_reverse: bool,
}

impl Move {
    pub const fn new(point: Point, colour: Rel) -> Move {
        Move {
            point,
            colour,
            kind: MoveType::Normal,
            symmetric: false,
            colour_reverse: false,
        }
    }
    pub const fn with_kind(mut self, kind: MoveType) -> Move {
        self.kind = kind;
        self
    }
}

/// A setup stone (SGF `AB`/`AW`/`AE` in the middle of a tree), colour relative to the corner's
/// first move; `None` removes a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SetupStone {
    pub x: u8,
    pub y: u8,
    pub colour: Option<Rel>,
}

/// What an edge does: play a move, or add setup stones. Lines below a setup edge need those
/// stones on the board; the walker never enters them for a plain move list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Move(Move),
    Setup(Vec<SetupStone>),
}

impl Step {
    /// What identifies a sibling: the point and colour of a move, or the stones of a setup.
    fn key(&self) -> StepKey {
        match self {
            Step::Move(m) => StepKey::Move(m.point, m.colour),
            Step::Setup(s) => StepKey::Setup(s.clone()),
        }
    }
    pub fn as_move(&self) -> Option<&Move> {
        match self {
            Step::Move(m) => Some(m),
            Step::Setup(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum StepKey {
    Move(Point, Rel),
    Setup(Vec<SetupStone>),
}

/// Two sources gave one move two different types (neither `normal`): the union kept the
/// stronger by [`MoveType::PRECEDENCE`], whatever the order of the sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypeConflict {
    /// The vertex the move leaves from (see `text::line_to` for a line that reaches it).
    pub vertex: u32,
    pub point: Point,
    pub colour: Rel,
    pub kept: MoveType,
    pub dropped: MoveType,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub step: Step,
    pub to: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vertex {
    pub edges: Vec<Edge>,
}

/// Where a line being built stands: the vertex, the replayed corner and the colour of the last
/// move (the root acts as if the opposite side moved last, so the first move is `Same`).
#[derive(Clone)]
pub struct Cursor {
    pub(crate) vertex: u32,
    pub(crate) board: Replay,
    /// Moves on the board (passes not counted) and setups so far.
    pub(crate) depth: u32,
    /// Passes since the last move on the board or setup.
    pub(crate) passes: u32,
    pub(crate) last: Rel,
    trie: u32,
}

impl Cursor {
    pub fn vertex(&self) -> u32 {
        self.vertex
    }
    /// Colour of the last move on this line (`Opposite` at the root).
    pub fn last_colour(&self) -> Rel {
        self.last
    }
}

/// A position: stones, moves on the board (and setups), passes since, side that moved last.
/// Each step increases (depth, passes) lexicographically, so the DAG has no cycle; a recorded
/// pass then a move and the same move as a colour repeat reach one vertex, as on the board.
type PosKey = (u64, u32, u32, Rel);

impl Cursor {
    /// Apply a step to the replayed corner and the key parts.
    fn apply(&mut self, step: &Step) {
        match step {
            Step::Move(m) => {
                if let Point::At { x, y } = m.point {
                    self.board.play(x, y, m.colour.stone());
                    self.depth += 1;
                    self.passes = 0;
                } else {
                    self.passes += 1;
                }
                self.last = m.colour;
            }
            Step::Setup(stones) => {
                for s in stones {
                    self.board.place(s.x, s.y, s.colour.map_or(0, Rel::stone));
                }
                self.depth += 1;
                self.passes = 0;
            }
        }
    }
    fn key(&self) -> PosKey {
        (self.board.hash, self.depth, self.passes, self.last)
    }
}

/// A joseki DAG. Vertex 0 is the empty corner. Import and decode keep vertices numbered in
/// depth-first order of first visit, so equal DAGs compare equal.
#[derive(Clone)]
pub struct Tree {
    vertices: Vec<Vertex>,
    tree_moves: u64,
    size: u8,
    merge: bool,
    // Derived lookup state (not part of equality).
    indexed: bool,
    index: HashMap<PosKey, u32>,
    trie: HashMap<(u32, StepKey), u32>,
    /// Edges added by [`Tree::merge_from`]: their moves were counted as the merged DAG's share,
    /// so a later line through them adds no move to `tree_moves`.
    merged: HashSet<(u32, StepKey)>,
    conflicts: Vec<TypeConflict>,
}

impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        self.vertices == other.vertices && self.tree_moves == other.tree_moves
    }
}
impl Eq for Tree {}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tree")
            .field("vertices", &self.vertices.len())
            .field("tree_moves", &self.tree_moves)
            .finish()
    }
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// An empty dictionary that merges transpositions, replaying on a 19x19 board.
    pub fn new() -> Tree {
        Tree::with_options(19, true)
    }

    /// `size`: the board the lines are replayed on (captures at the far edges);
    /// `merge`: merge transpositions (otherwise a plain tree).
    pub fn with_options(size: u8, merge: bool) -> Tree {
        Tree {
            vertices: vec![Vertex::default()],
            tree_moves: 0,
            size,
            merge,
            indexed: true,
            index: HashMap::new(),
            trie: HashMap::new(),
            merged: HashSet::new(),
            conflicts: Vec::new(),
        }
    }

    /// Rebuild from decoded parts; vertex 0 is the root.
    pub(crate) fn from_parts(vertices: Vec<Vertex>, tree_moves: u64) -> Tree {
        let mut t = Tree::new();
        t.vertices = vertices;
        t.tree_moves = tree_moves;
        t.indexed = false;
        t
    }

    pub fn vertices(&self) -> &[Vertex] {
        &self.vertices
    }
    pub fn vertex(&self, v: u32) -> &Vertex {
        &self.vertices[v as usize]
    }
    /// Moves in the source tree (lines' distinct prefixes, duplicate siblings merged, before
    /// transpositions are merged): the denominator of every bytes-per-move figure.
    pub fn tree_moves(&self) -> u64 {
        self.tree_moves
    }
    /// Edges that are moves (passes included, setup edges excluded).
    pub fn move_edges(&self) -> usize {
        self.vertices
            .iter()
            .flat_map(|v| &v.edges)
            .filter(|e| e.step.as_move().is_some())
            .count()
    }
    pub fn is_empty(&self) -> bool {
        self.vertices[0].edges.is_empty()
    }

    pub fn root_cursor(&self) -> Cursor {
        Cursor {
            vertex: 0,
            board: Replay::new(self.size),
            depth: 0,
            passes: 0,
            last: Rel::Opposite,
            trie: 0,
        }
    }

    /// Add a line of moves from the empty corner (colours as given, the first normally `Same`).
    /// Returns the vertex reached.
    pub fn add_line(&mut self, line: &[Move]) -> u32 {
        let mut c = self.root_cursor();
        for m in line {
            c = self.step(&c, Step::Move(*m));
        }
        c.vertex
    }

    /// Add a line of steps (moves and setups) from the empty corner.
    pub fn add_steps(&mut self, line: &[Step]) -> u32 {
        let mut c = self.root_cursor();
        for s in line {
            c = self.step(&c, s.clone());
        }
        c.vertex
    }

    /// Extend the line at `at` by one step; follows an existing sibling with the same point and
    /// colour, else merges into a vertex with the same position, else creates one. When the
    /// sibling exists with another type, a type beats none and two types keep the stronger
    /// ([`MoveType::stronger`], recorded in [`Tree::type_conflicts`]), so the result does not
    /// depend on the order of the lines; colour-reverse flags are or-ed.
    pub fn step(&mut self, at: &Cursor, step: Step) -> Cursor {
        self.step_inner(at, step, true).0
    }

    /// Type conflicts met so far (typed moves given two different types), in the order met.
    pub fn type_conflicts(&self) -> &[TypeConflict] {
        &self.conflicts
    }

    /// Add every line of `other` (a decoded blob, another book) to this dictionary, as its
    /// lines would be added: transpositions merge, types merge as in [`Tree::step`]. Each
    /// vertex of `other` is entered once (its first path), so a DAG adds its edges, not every
    /// order of them. The source tree behind `other` is gone, so its moves are counted as its
    /// share of edges that are new here: `other.tree_moves() * new / edges`, exact when `other`
    /// is all new or all known (a blob merged twice, or after its own SGF, adds nothing).
    /// Returns the moves added to [`Tree::tree_moves`].
    pub fn merge_from(&mut self, other: &Tree) -> u64 {
        let (mut new, mut total) = (0u64, 0u64);
        let mut seen = vec![false; other.vertices.len()];
        let mut stack = vec![(0u32, self.root_cursor())];
        seen[0] = true;
        while let Some((v, cur)) = stack.pop() {
            for e in &other.vertices[v as usize].edges {
                let is_move = e.step.as_move().is_some();
                let (next, added) = self.step_inner(&cur, e.step.clone(), false);
                if is_move {
                    total += 1;
                    new += added as u64;
                }
                if added {
                    self.merged.insert((cur.vertex, e.step.key()));
                }
                // A plain tree (no merge) takes every order; a DAG each position once.
                if !self.merge || !std::mem::replace(&mut seen[e.to as usize], true) {
                    stack.push((e.to, next));
                }
            }
        }
        let added = if total == 0 {
            0
        } else {
            ((other.tree_moves as u128 * new as u128 + total as u128 / 2) / total as u128) as u64
        };
        self.tree_moves += added;
        added
    }

    /// [`Tree::step`]; `count`: count a new line prefix as a move of the source tree. Returns
    /// the cursor and whether the edge is new.
    fn step_inner(&mut self, at: &Cursor, mut step: Step, count: bool) -> (Cursor, bool) {
        self.ensure_index();
        let mut next = at.clone();
        next.apply(&step);
        if let Step::Move(m) = &mut step {
            m.symmetric = m.point != Point::Pass && next.board.diagonally_symmetric();
        }
        let key = step.key();
        let is_move = step.as_move().is_some();
        // Source-tree identity, for the bytes-per-move denominator.
        let trie_len = self.trie.len() as u32;
        let trie_id = *self
            .trie
            .entry((at.trie, key.clone()))
            .or_insert(trie_len + 1);
        let new_prefix = trie_id == trie_len + 1 && is_move && count;
        next.trie = trie_id;

        let from = at.vertex as usize;
        if let Some(k) = self.vertices[from]
            .edges
            .iter()
            .position(|e| e.step.key() == key)
        {
            let e = &mut self.vertices[from].edges[k];
            if let (Step::Move(old), Step::Move(new)) = (&mut e.step, &step) {
                if old.kind != new.kind {
                    let kept = old.kind.stronger(new.kind);
                    if old.kind != MoveType::Normal && new.kind != MoveType::Normal {
                        let dropped = if kept == old.kind { new.kind } else { old.kind };
                        self.conflicts.push(TypeConflict {
                            vertex: at.vertex,
                            point: old.point,
                            colour: old.colour,
                            kept,
                            dropped,
                        });
                    }
                    old.kind = kept;
                }
                old.colour_reverse |= new.colour_reverse;
            }
            next.vertex = e.to;
            if new_prefix && !self.merged.contains(&(at.vertex, key)) {
                self.tree_moves += 1;
            }
            return (next, false);
        }
        if new_prefix {
            self.tree_moves += 1;
        }
        let pos: PosKey = next.key();
        let target = match self.merge.then(|| self.index.get(&pos).copied()).flatten() {
            Some(v) => v,
            None => {
                let v = self.vertices.len() as u32;
                self.vertices.push(Vertex::default());
                if self.merge {
                    self.index.insert(pos, v);
                }
                v
            }
        };
        self.vertices[from].edges.push(Edge { step, to: target });
        next.vertex = target;
        (next, true)
    }

    /// Renumber vertices in depth-first order of first visit (the order every encoding uses).
    /// Transpositions into a leaf are split (a leaf has nothing to share, and the encodings
    /// share only child lists), so equal trees have equal vertex counts.
    pub fn canonicalize(&mut self) {
        let mut seen = vec![false; self.vertices.len()];
        for v in 0..self.vertices.len() {
            for k in 0..self.vertices[v].edges.len() {
                let t = self.vertices[v].edges[k].to as usize;
                if self.vertices[t].edges.is_empty() {
                    if seen[t] {
                        self.vertices[v].edges[k].to = self.vertices.len() as u32;
                        self.vertices.push(Vertex::default());
                    }
                    seen[t] = true;
                }
            }
        }
        let n = self.vertices.len();
        let mut new_id = vec![u32::MAX; n];
        let mut order = Vec::with_capacity(n);
        let mut stack = vec![0u32];
        new_id[0] = 0;
        order.push(0u32);
        // Iterative preorder: visit edges in order, descending into first visits.
        let mut iters: Vec<(u32, usize)> = vec![(0, 0)];
        stack.clear();
        while let Some((v, i)) = iters.pop() {
            let edges = &self.vertices[v as usize].edges;
            if i < edges.len() {
                iters.push((v, i + 1));
                let t = edges[i].to;
                if new_id[t as usize] == u32::MAX {
                    new_id[t as usize] = order.len() as u32;
                    order.push(t);
                    iters.push((t, 0));
                }
            }
        }
        let mut old = std::mem::take(&mut self.vertices);
        let mut vertices = Vec::with_capacity(order.len());
        for &o in &order {
            let mut vx = std::mem::take(&mut old[o as usize]);
            for e in &mut vx.edges {
                e.to = new_id[e.to as usize];
            }
            vertices.push(vx);
        }
        self.vertices = vertices;
        for v in self.index.values_mut() {
            *v = new_id[*v as usize];
        }
        self.index.retain(|_, v| *v != u32::MAX);
        self.merged = std::mem::take(&mut self.merged)
            .into_iter()
            .map(|(v, k)| (new_id[v as usize], k))
            .filter(|&(v, _)| v != u32::MAX)
            .collect();
        for c in &mut self.conflicts {
            c.vertex = new_id[c.vertex as usize];
        }
    }

    /// Replay every vertex's first path to rebuild the position index (after decode).
    fn ensure_index(&mut self) {
        if self.indexed {
            return;
        }
        self.indexed = true;
        self.index.clear();
        let mut seen = vec![false; self.vertices.len()];
        seen[0] = true;
        let mut stack = vec![self.root_cursor()];
        while let Some(c) = stack.pop() {
            for e in self.vertices[c.vertex as usize].edges.clone() {
                if seen[e.to as usize] {
                    continue;
                }
                seen[e.to as usize] = true;
                let mut n = c.clone();
                n.apply(&e.step);
                n.vertex = e.to;
                if self.merge {
                    self.index.entry(n.key()).or_insert(e.to);
                }
                stack.push(n);
            }
        }
    }

    /// Vertices reached by more than one edge (merged transpositions).
    pub fn transposed_vertices(&self) -> usize {
        let mut indeg = vec![0u32; self.vertices.len()];
        for v in &self.vertices {
            for e in &v.edges {
                indeg[e.to as usize] += 1;
            }
        }
        indeg.iter().filter(|&&d| d > 1).count()
    }
}

#[cfg(test)]
mod union_tests {
    use super::*;
    use crate::{Encoding, decode, encode, parse_text, text};

    /// Two orders reach one position, which has three continuations: 10 moves in the source,
    /// 13 once every order of the transposition is written out.
    const TRANSPOSED: &str = "d4 ( c6 f3 f6 ( c3 | d3 ) | f6 f3 c6 e3 )";

    fn blob_tree(src: &str) -> Tree {
        decode(&encode(&parse_text(src).unwrap(), Encoding::Compact)).unwrap()
    }

    /// (line, type) for every move edge, first paths: what a union must agree on.
    fn typed_lines(t: &Tree) -> std::collections::BTreeSet<(String, &'static str)> {
        let mut out = std::collections::BTreeSet::new();
        for (v, vx) in t.vertices().iter().enumerate() {
            for e in &vx.edges {
                if let Step::Move(m) = &e.step {
                    let at = text::line_to(t, v as u32).unwrap();
                    out.insert((format!("{at} {}", text::point_name(m.point)), m.kind.name()));
                }
            }
        }
        out
    }

    #[test]
    fn a_union_with_a_blob_counts_its_source_moves_once() {
        let src = parse_text(TRANSPOSED).unwrap();
        assert_eq!(src.tree_moves(), 10);
        // Through the text form (every order written out), the old way, it overcounts.
        let mut via_text = Tree::new();
        text::parse_text_into(&mut via_text, &text::to_text(&blob_tree(TRANSPOSED))).unwrap();
        assert_eq!(via_text.tree_moves(), 13);
        // A blob alone, twice, after its own text, before it: 10.
        let b = blob_tree(TRANSPOSED);
        let mut once = Tree::new();
        assert_eq!(once.merge_from(&b), 10);
        let mut twice = once.clone();
        assert_eq!(twice.merge_from(&b), 0);
        twice.canonicalize();
        assert_eq!(
            (twice.tree_moves(), twice.vertices().len()),
            (10, src.vertices().len())
        );
        let mut text_then_blob = Tree::new();
        text::parse_text_into(&mut text_then_blob, TRANSPOSED).unwrap();
        text_then_blob.merge_from(&b);
        let mut blob_then_text = once.clone();
        text::parse_text_into(&mut blob_then_text, TRANSPOSED).unwrap();
        assert_eq!(text_then_blob.tree_moves(), 10);
        assert_eq!(blob_then_text.tree_moves(), 10);
        // Disjoint books add up; the union walks like the text union.
        let other = blob_tree("c3 d3 c4 ( d5 | b5 )");
        let mut both = once.clone();
        assert_eq!(both.merge_from(&other), other.tree_moves());
        assert_eq!(both.tree_moves(), 15);
        both.canonicalize();
        let mut want = parse_text(TRANSPOSED).unwrap();
        text::parse_text_into(&mut want, "c3 d3 c4 ( d5 | b5 )").unwrap();
        want.canonicalize();
        assert_eq!(typed_lines(&both), typed_lines(&want));
    }

    #[test]
    fn a_union_keeps_the_stronger_type_in_either_order_and_reports_conflicts() {
        let a = "( d4 ( c6:urgent f3 | e3:minor ) | c3 d3 )";
        let b = "( d4 ( c6:trick e3:minor | f3 ) | c3:bad )";
        let union = |first: &str, second: &str| {
            let mut t = Tree::new();
            text::parse_text_into(&mut t, first).unwrap();
            text::parse_text_into(&mut t, second).unwrap();
            t.canonicalize();
            t
        };
        let (ab, ba) = (union(a, b), union(b, a));
        assert_eq!(typed_lines(&ab), typed_lines(&ba));
        let lines = typed_lines(&ab);
        assert!(lines.contains(&("d4 c6".into(), "trick")), "{lines:?}");
        // A type beats none, silently; two types are a conflict.
        assert!(lines.contains(&(" c3".into(), "bad")), "{lines:?}");
        assert!(lines.contains(&("d4 e3".into(), "minor")), "{lines:?}");
        for t in [&ab, &ba] {
            let c = t.type_conflicts();
            assert_eq!(c.len(), 1, "{c:?}");
            assert_eq!(
                (c[0].kept, c[0].dropped),
                (MoveType::Trick, MoveType::Urgent)
            );
            assert_eq!(text::line_to(t, c[0].vertex).as_deref(), Some("d4"));
            assert_eq!(c[0].point, Point::at(3, 6));
        }
        // The same through blobs (merge_from) in both orders.
        let (ta, tb) = (blob_tree(a), blob_tree(b));
        let mut x = Tree::new();
        x.merge_from(&ta);
        x.merge_from(&tb);
        let mut y = Tree::new();
        y.merge_from(&tb);
        y.merge_from(&ta);
        x.canonicalize();
        y.canonicalize();
        assert_eq!(typed_lines(&x), lines);
        assert_eq!(typed_lines(&y), lines);
        assert_eq!(x.type_conflicts().len(), 1);
    }

    #[test]
    fn precedence_is_a_total_order_with_warnings_first() {
        for a in MoveType::ALL {
            assert_eq!(a.stronger(MoveType::Normal), a);
            for b in MoveType::ALL {
                assert_eq!(a.stronger(b), b.stronger(a), "{a:?} {b:?}");
            }
        }
        assert_eq!(MoveType::Urgent.stronger(MoveType::Bad), MoveType::Bad);
        assert_eq!(
            MoveType::TenukiOk.stronger(MoveType::Trick),
            MoveType::Trick
        );
    }
}
