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
use std::collections::HashMap;

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
    /// colour (the first type given wins), else merges into a vertex with the same position,
    /// else creates one.
    pub fn step(&mut self, at: &Cursor, mut step: Step) -> Cursor {
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
        if trie_id == trie_len + 1 && is_move {
            self.tree_moves += 1;
        }
        next.trie = trie_id;

        let from = at.vertex as usize;
        if let Some(e) = self.vertices[from]
            .edges
            .iter()
            .find(|e| e.step.key() == key)
        {
            next.vertex = e.to;
            return next;
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
        next
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
