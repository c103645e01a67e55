//! (c) The load-time storage form: the depth-first plan, range coded (`constriction`) with
//! adaptive context models. Not walkable: [`super::unpack`] decodes it once into a Compact blob.
//!
//! ```text
//! after the common header: n, the largest coordinate (1..=25), fnv1a-32 of the payload (4
//! bytes LE), then the payload: the range coder's u32 words (LE). Per entry, depth-first:
//!   structure (has_sibling, has_child)   context: depth (capped), first in its list
//!   flags: pointer, setup, colour exception, symmetric, colour-reverse (5 bits, one symbol)
//!   pointer: the ordinal of the shared list (uniform over the lists opened so far)
//!   setup:   stone count (10 bits), 2 bytes per stone (uniform)
//!   move:    type (context: the parent move's type), point (pass or x, y in 1..=n): a blend
//!            of order-2 (grandparent, parent points), order-1 (parent) and order-0 counts;
//!            points already on the line or already coded in this list are down-weighted
//! ```
//! Probabilities are 24-bit fixed point, computed with integer and plain f64 arithmetic only
//! (no transcendental functions), so encoder and decoder agree on every platform.

use super::{DecodeError, PEntry, err};
use crate::model::{Edge, Move, MoveType, Point, Rel, SetupStone, Step, Tree, Vertex};
use constriction::stream::model::{DecoderModel, EncoderModel, EntropyModel};
use constriction::stream::queue::{DefaultRangeDecoder, DefaultRangeEncoder};
use constriction::stream::{Decode, Encode};
use std::collections::HashMap;
use std::num::NonZeroU32;

const PRECISION: usize = 24;
const ONE: u64 = 1 << PRECISION;
/// Point symbols: 0 pass, 1 + (x-1)*n + (y-1), where n (<= 25) is the largest coordinate
/// in the tree, stored in the header.
const MAX_DEPTH_CTX: usize = 20;

/// A fixed-point categorical model: `cdf[s]..cdf[s+1]` is symbol `s`'s interval.
struct Quantized {
    cdf: Vec<u32>,
}

impl Quantized {
    /// From nonnegative weights (some positive): every symbol gets at least 1/2^24.
    fn new(weights: &[f64]) -> Quantized {
        let k = weights.len() as u64;
        let total: f64 = weights.iter().sum();
        let scale = (ONE - k) as f64 / total;
        let mut p: Vec<u64> = weights.iter().map(|&w| 1 + (w * scale) as u64).collect();
        let sum: u64 = p.iter().sum();
        // Rounding leaves a remainder: give it to the first most likely symbol.
        let top = (0..p.len()).fold(0, |b, i| if p[i] > p[b] { i } else { b });
        p[top] += ONE - sum;
        let mut cdf = Vec::with_capacity(p.len() + 1);
        let mut c = 0u64;
        cdf.push(0);
        for v in p {
            c += v;
            cdf.push(c as u32);
        }
        Quantized { cdf }
    }
    fn uniform(k: usize) -> Quantized {
        Quantized::new(&vec![1.0; k])
    }
}

impl EntropyModel<PRECISION> for Quantized {
    type Symbol = usize;
    type Probability = u32;
}

impl EncoderModel<PRECISION> for Quantized {
    fn left_cumulative_and_probability(
        &self,
        symbol: impl std::borrow::Borrow<usize>,
    ) -> Option<(u32, NonZeroU32)> {
        let s = *symbol.borrow();
        let (a, b) = (*self.cdf.get(s)?, *self.cdf.get(s + 1)?);
        Some((a, NonZeroU32::new(b - a)?))
    }
}

impl DecoderModel<PRECISION> for Quantized {
    fn quantile_function(&self, quantile: u32) -> (usize, u32, NonZeroU32) {
        // The last s with cdf[s] <= quantile; every interval is nonempty.
        let s = self.cdf.partition_point(|&c| c <= quantile) - 1;
        let s = s.min(self.cdf.len() - 2);
        let (a, b) = (self.cdf[s], self.cdf[s + 1]);
        (s, a, NonZeroU32::new(b - a).unwrap_or(NonZeroU32::MIN))
    }
}

/// Adaptive counts over a small alphabet, per context.
struct Small {
    k: usize,
    counts: HashMap<usize, Vec<u32>>,
}

impl Small {
    fn new(k: usize) -> Small {
        Small {
            k,
            counts: HashMap::new(),
        }
    }
    fn model(&self, ctx: usize) -> Quantized {
        let w: Vec<f64> = match self.counts.get(&ctx) {
            Some(c) => c.iter().map(|&n| n as f64 + 0.4).collect(),
            None => vec![1.0; self.k],
        };
        Quantized::new(&w)
    }
    fn update(&mut self, ctx: usize, s: usize) {
        self.counts.entry(ctx).or_insert_with(|| vec![0; self.k])[s] += 1;
    }
}

/// The point model: order-2 (grandparent, parent), order-1 (parent), parent-relative order-0
/// and absolute order-0 counts, blended. Contexts are folded about the corner's diagonal (a
/// line and its mirror image share statistics): when the parent (then the grandparent) lies
/// below the diagonal, every point is transposed before it is counted or looked up.
struct Points {
    n: usize,
    o0: Vec<u32>,
    n0: u32,
    rel: Vec<u32>,
    nrel: u32,
    o1: HashMap<usize, Counts>,
    o2: HashMap<(usize, usize), Counts>,
}

/// A context's total and its (symbol, count) list.
type Counts = (u32, Vec<(u16, u32)>);

fn transpose(n: usize, s: usize) -> usize {
    if s == 0 {
        0
    } else {
        let (x, y) = ((s - 1) / n, (s - 1) % n);
        1 + y * n + x
    }
}

/// Fold (grandparent, parent) about the diagonal: whether to transpose.
fn folds(n: usize, gp: usize, p: usize) -> bool {
    let ((px, py), (gx, gy)) = (xy(n, p), xy(n, gp));
    px < py || (px == py && gx < gy)
}

/// A point symbol's (x - 1, y - 1); the pass gives (0, 0).
fn xy(n: usize, s: usize) -> (i32, i32) {
    if s == 0 {
        (0, 0)
    } else {
        (((s - 1) / n) as i32, ((s - 1) % n) as i32)
    }
}

/// Index of `s` relative to `p` (dx, dy in -(n-1)..=n-1).
fn offset(n: usize, p: usize, s: usize) -> Option<usize> {
    if p == 0 || s == 0 {
        return None;
    }
    let ((px, py), (x, y)) = (xy(n, p), xy(n, s));
    let (m, w) = (n as i32 - 1, 2 * n as i32 - 1);
    Some(((x - px + m) * w + (y - py + m)) as usize)
}

impl Points {
    fn new(n: usize) -> Points {
        Points {
            n,
            o0: vec![0; 1 + n * n],
            n0: 0,
            rel: vec![0; (2 * n - 1) * (2 * n - 1)],
            nrel: 0,
            o1: HashMap::new(),
            o2: HashMap::new(),
        }
    }
    fn model(&self, gp: usize, p: usize, avoid: &[u16]) -> Quantized {
        let n = self.n;
        let points = 1 + n * n;
        let t = folds(n, gp, p);
        let f = |s: usize| if t { transpose(n, s) } else { s };
        let (gp, p) = (f(gp), f(p));
        // The blend, outermost first: order 2, order 1, then parent-relative and absolute
        // order 0. Each longer context's weight grows with its sample count.
        fn weight(
            ctx: Option<&(u32, Vec<(u16, u32)>)>,
            k: f64,
        ) -> (f64, f64, Option<&[(u16, u32)]>) {
            ctx.map_or((0.0, 1.0, None), |e| {
                let n = e.0 as f64;
                (n / (n + k), n, Some(&e.1[..]))
            })
        }
        let (l2, n2, list2) = weight(self.o2.get(&(gp, p)), 6.0);
        let (l1, n1, list1) = weight(self.o1.get(&p), 64.0);
        let rest = (1.0 - l2) * (1.0 - l1);
        let lr = if p != 0 && self.nrel > 0 {
            let n = self.nrel as f64;
            n / (n + 8.0) * 0.5
        } else {
            0.0
        };
        // Absolute order 0 with a small floor, so every point stays possible.
        let floor = 0.02;
        let a0 = rest * (1.0 - lr) / (self.n0 as f64 + floor * points as f64);
        let ar = rest * lr / (self.nrel.max(1) as f64);
        let mut w = vec![0.0f64; points];
        let (px, py) = xy(n, p);
        let (m, width) = (n as i32 - 1, 2 * n as i32 - 1);
        for (s, v) in w.iter_mut().enumerate() {
            *v = a0 * (self.o0[s] as f64 + floor);
        }
        if lr > 0.0 {
            for (s, v) in w.iter_mut().enumerate().skip(1) {
                let (x, y) = xy(n, s);
                let o = ((x + m - px) * width + (y + m - py)) as usize;
                *v += ar * self.rel[o] as f64;
            }
        }
        for (l, n, list) in [(l1 * (1.0 - l2), n1, list1), (l2, n2, list2)] {
            for &(s, c) in list.into_iter().flatten() {
                w[s as usize] += l * c as f64 / n;
            }
        }
        for &s in avoid {
            w[f(s as usize)] *= 0.05;
        }
        if t {
            // Back to the real frame.
            let mut real = vec![0.0; points];
            for (s, v) in w.into_iter().enumerate() {
                real[transpose(n, s)] = v;
            }
            w = real;
        }
        Quantized::new(&w)
    }
    fn update(&mut self, gp: usize, p: usize, s: usize) {
        let n = self.n;
        let t = folds(n, gp, p);
        let f = |s: usize| if t { transpose(n, s) } else { s };
        let (gp, p, s) = (f(gp), f(p), f(s));
        self.o0[s] += 1;
        self.n0 += 1;
        if let Some(o) = offset(n, p, s) {
            self.rel[o] += 1;
            self.nrel += 1;
        }
        bump(self.o1.entry(p).or_default(), s);
        bump(self.o2.entry((gp, p)).or_default(), s);
    }
}

fn bump(e: &mut (u32, Vec<(u16, u32)>), s: usize) {
    e.0 += 1;
    match e.1.iter_mut().find(|x| x.0 as usize == s) {
        Some(x) => x.1 += 1,
        None => e.1.push((s as u16, 1)),
    }
}

fn point_sym(n: usize, p: Point) -> usize {
    match p {
        Point::Pass => 0,
        Point::At { x, y } => 1 + (x as usize - 1) * n + (y as usize - 1),
    }
}

fn sym_point(n: usize, s: usize) -> Point {
    if s == 0 {
        Point::Pass
    } else {
        Point::at(((s - 1) / n) as u8 + 1, ((s - 1) % n) as u8 + 1)
    }
}

/// The largest coordinate of any move (at least 1).
fn span(plan: &[PEntry<'_>]) -> usize {
    let mut n = 1;
    for p in plan {
        if let Step::Move(m) = &p.edge.step
            && let Point::At { x, y } = m.point
        {
            n = n.max(x.max(y) as usize);
        }
    }
    n
}

/// All the adaptive models.
struct Models {
    structure: Small,
    flags: Small,
    kind: Small,
    points: Points,
}

impl Models {
    fn new(n: usize) -> Models {
        Models {
            structure: Small::new(4),
            flags: Small::new(32),
            kind: Small::new(8),
            points: Points::new(n),
        }
    }
}

/// One open list on the depth-first walk.
struct List {
    /// Decoder: the vertex whose edges this list holds.
    v: u32,
    /// Colour of the move before the list's moves.
    pc: Rel,
    parent: usize,
    grandparent: usize,
    parent_kind: u8,
    first: bool,
    /// Points coded so far in this list.
    coded: Vec<u16>,
    /// After the current entry's inline children, this list continues.
    resume: bool,
}

impl List {
    /// The root's child list: no move before it (the first move is "opposite" to none).
    fn root() -> List {
        List {
            v: 0,
            pc: Rel::Opposite,
            parent: 0,
            grandparent: 0,
            parent_kind: 0,
            first: true,
            coded: Vec::new(),
            resume: false,
        }
    }
    /// The child list of an entry of this list, vertex `v` (decoder), after a move of colour
    /// `pc` at context point `sym`; a setup edge plays no move, so it keeps this list's context.
    fn child(&self, v: u32, pc: Rel, setup: bool, sym: usize, kind: u8) -> List {
        let (grandparent, parent) = if setup {
            (self.grandparent, self.parent)
        } else {
            (self.parent, sym)
        };
        List {
            v,
            pc,
            parent,
            grandparent,
            parent_kind: kind,
            first: true,
            coded: Vec::new(),
            resume: false,
        }
    }
    fn structure_ctx(&self, depth: usize) -> usize {
        depth.min(MAX_DEPTH_CTX) * 2 + self.first as usize
    }
}

/// Points on the line so far (the enclosing lists' parents), for down-weighting.
fn line_points(stack: &[List], top: &List) -> Vec<u16> {
    let mut v: Vec<u16> = stack.iter().map(|l| l.parent as u16).collect();
    v.push(top.parent as u16);
    v.extend_from_slice(&top.coded);
    v.retain(|&s| s != 0);
    v
}

fn bits_for(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

pub(crate) fn encode(plan: &[PEntry<'_>], out: &mut Vec<u8>) {
    if plan.is_empty() {
        out.push(1);
        out.extend_from_slice(&fnv1a(&[]).to_le_bytes());
        return;
    }
    let mut enc = DefaultRangeEncoder::new();
    let mut put = |s: usize, m: &Quantized| {
        enc.encode_symbol(s, m)
            .expect("every symbol has a nonzero probability");
    };
    let n = span(plan);
    let mut models = Models::new(n);
    let mut stack: Vec<List> = Vec::new();
    let mut top = List::root();
    // List ordinal of every list head (entry index), for pointers.
    let mut ordinal_of: HashMap<usize, usize> = HashMap::new();
    let mut lists = 0usize;
    let (bit, byte) = (Quantized::uniform(2), Quantized::uniform(256));
    for (i, p) in plan.iter().enumerate() {
        let depth = stack.len();
        let sctx = top.structure_ctx(depth);
        let s = (p.has_sibling as usize) << 1 | p.has_child as usize;
        put(s, &models.structure.model(sctx));
        models.structure.update(sctx, s);
        let (m, setup) = match &p.edge.step {
            Step::Move(m) => (Some(m), None),
            Step::Setup(st) => (None, Some(st)),
        };
        let flags = p.ptr_target.is_some() as usize
            | (setup.is_some() as usize) << 1
            | (p.colour_exception() as usize) << 2
            | (m.is_some_and(|m| m.symmetric) as usize) << 3
            | (m.is_some_and(|m| m.colour_reverse) as usize) << 4;
        put(flags, &models.flags.model(0));
        models.flags.update(0, flags);
        if let Some(t) = p.ptr_target {
            let ord = ordinal_of[&t];
            for b in (0..bits_for(lists)).rev() {
                put(ord >> b & 1, &bit);
            }
        }
        let (sym, kind) = match (m, setup) {
            (_, Some(stones)) => {
                for b in (0..10).rev() {
                    put(stones.len() >> b & 1, &bit);
                }
                let mut bytes = Vec::new();
                super::write_stones(&mut bytes, stones);
                for b in bytes {
                    put(b as usize, &byte);
                }
                (top.parent, top.parent_kind)
            }
            (Some(m), None) => {
                let k = m.kind.bits() as usize;
                put(k, &models.kind.model(top.parent_kind as usize));
                models.kind.update(top.parent_kind as usize, k);
                let sym = point_sym(n, m.point);
                let avoid = line_points(&stack, &top);
                put(
                    sym,
                    &models.points.model(top.grandparent, top.parent, &avoid),
                );
                models.points.update(top.grandparent, top.parent, sym);
                top.coded.push(sym as u16);
                (sym, k as u8)
            }
            (None, None) => unreachable!("a step is a move or a setup"),
        };
        top.first = false;
        if p.inline() {
            ordinal_of.insert(i + 1, lists);
            lists += 1;
            let colour = match m {
                Some(m) => m.colour,
                None => top.pc,
            };
            top.resume = p.has_sibling;
            let child = top.child(0, colour, setup.is_some(), sym, kind);
            stack.push(std::mem::replace(&mut top, child));
            continue;
        }
        if p.has_sibling {
            continue;
        }
        // The list ended: close it and every enclosing list whose last entry it ended.
        while let Some(parent) = stack.pop() {
            top = parent;
            if top.resume {
                break;
            }
        }
    }
    let words = enc.into_compressed().expect("a Vec backend cannot fail");
    let mut payload = Vec::with_capacity(4 * words.len());
    for w in words {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    out.push(n as u8);
    out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
}

/// Decode the payload starting at `pos` (after the common header).
pub(crate) fn decode(bytes: &[u8], pos: usize, tree_moves: u64) -> Result<Tree, DecodeError> {
    let n = match bytes.get(pos) {
        Some(&n) if (1..=25).contains(&n) => n as usize,
        Some(_) => return err(pos, "largest coordinate outside 1..=25"),
        None => return err(pos, "truncated header"),
    };
    let pos = pos + 1;
    let Some(sum) = bytes.get(pos..pos + 4) else {
        return err(pos, "truncated checksum");
    };
    let payload = &bytes[pos + 4..];
    if payload.len() % 4 != 0 {
        return err(pos + 4, "payload is not a whole number of 32-bit words");
    }
    if fnv1a(payload) != u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]) {
        return err(pos, "checksum does not match the payload");
    }
    let words: Vec<u32> = payload
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut vertices: Vec<Vertex> = vec![Vertex::default()];
    if words.is_empty() {
        return Ok(Tree::from_parts(vertices, tree_moves));
    }
    let at = pos + 4;
    let mut dec = DefaultRangeDecoder::from_compressed(words)
        .or_else(|_| err(at, "range coder cannot start"))?;
    let mut get = |m: &Quantized| -> Result<usize, DecodeError> {
        dec.decode_symbol(m)
            .or_else(|_| err(at, "invalid range-coded data"))
    };
    // A bound on entries, so garbage cannot run long: generous for any real dictionary.
    let max_entries = 64 * payload.len() + 64;
    let mut models = Models::new(n);
    let mut stack: Vec<List> = Vec::new();
    let mut top = List::root();
    let mut list_vertex: Vec<u32> = Vec::new();
    let mut finished: Vec<bool> = vec![false];
    let (bit, byte) = (Quantized::uniform(2), Quantized::uniform(256));
    for _ in 0..max_entries {
        let depth = stack.len();
        if depth > 100_000 {
            return err(at, "lists nested too deep");
        }
        let sctx = top.structure_ctx(depth);
        let s = get(&models.structure.model(sctx))?;
        models.structure.update(sctx, s);
        let (has_sibling, has_child) = (s & 2 != 0, s & 1 != 0);
        let flags = get(&models.flags.model(0))?;
        models.flags.update(0, flags);
        let (ptr, setup, colexc, sym_flag, rev) = (
            flags & 1 != 0,
            flags & 2 != 0,
            flags & 4 != 0,
            flags & 8 != 0,
            flags & 16 != 0,
        );
        if ptr && !has_child {
            return err(at, "pointer on an entry without children");
        }
        if setup && flags & !3 != 0 {
            return err(at, "move flags on a setup entry");
        }
        let target = if ptr {
            let mut ord = 0usize;
            for _ in 0..bits_for(list_vertex.len()) {
                ord = ord << 1 | get(&bit)?;
            }
            match list_vertex.get(ord) {
                Some(&t) if finished[t as usize] => Some(t),
                _ => return err(at, "pointer to no finished child list"),
            }
        } else {
            None
        };
        let (step, sym, kind) = if setup {
            let mut n = 0usize;
            for _ in 0..10 {
                n = n << 1 | get(&bit)?;
            }
            let mut stones = Vec::with_capacity(n);
            for _ in 0..n {
                let (a, b) = (get(&byte)? as u8, get(&byte)? as u8);
                let colour = match a >> 6 {
                    0 => Some(Rel::Same),
                    1 => Some(Rel::Opposite),
                    2 => None,
                    _ => return err(at, "bad setup stone colour"),
                };
                let x = a & 0x3f;
                if !(1..=25).contains(&x) || !(1..=25).contains(&b) {
                    return err(at, "setup stone outside 1..=25");
                }
                stones.push(SetupStone { x, y: b, colour });
            }
            (Step::Setup(stones), top.parent, top.parent_kind)
        } else {
            let k = get(&models.kind.model(top.parent_kind as usize))?;
            models.kind.update(top.parent_kind as usize, k);
            let avoid = line_points(&stack, &top);
            let sym = get(&models.points.model(top.grandparent, top.parent, &avoid))?;
            models.points.update(top.grandparent, top.parent, sym);
            top.coded.push(sym as u16);
            let colour = if colexc { top.pc } else { top.pc.flip() };
            let mut m =
                Move::new(sym_point(n, sym), colour).with_kind(MoveType::from_bits(k as u8));
            m.symmetric = sym_flag;
            m.colour_reverse = rev;
            (Step::Move(m), sym, k as u8)
        };
        top.first = false;
        let colour = match &step {
            Step::Move(m) => m.colour,
            Step::Setup(_) => top.pc,
        };
        let to = match target {
            Some(t) => t,
            None => {
                vertices.push(Vertex::default());
                finished.push(!has_child);
                (vertices.len() - 1) as u32
            }
        };
        vertices[top.v as usize].edges.push(Edge { step, to });
        if has_child && target.is_none() {
            list_vertex.push(to);
            top.resume = has_sibling;
            let child = top.child(to, colour, setup, sym, kind);
            stack.push(std::mem::replace(&mut top, child));
            continue;
        }
        if has_sibling {
            continue;
        }
        loop {
            finished[top.v as usize] = true;
            let Some(parent) = stack.pop() else {
                return Ok(Tree::from_parts(vertices, tree_moves));
            };
            top = parent;
            if top.resume {
                break;
            }
        }
    }
    err(at, "more entries than the payload can hold")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Encoding, decode, encode, unpack};

    fn sample() -> Tree {
        crate::text::parse_text(
            "( d4 ( c6:urgent ( d6 c7 | f3 ) | f3:complex ( c6 d6 | d3 ) | e3:trick tenuki c3 ) \
             | c4 ( e3:bad ( d5 | c6:ignore ) | d3 c3:repeat ) | setup(x:c3 o:d4 e:e5) d3 \
             | q17:reverse c18 | d4 c3 e3 | e3 c3 d4 d3 )",
        )
        .unwrap()
    }

    #[test]
    fn packed_round_trips_and_unpacks_to_the_compact_blob() {
        let t = sample();
        let blob = encode(&t, Encoding::Packed);
        assert_eq!(crate::codec::encoding_of(&blob), Ok(Encoding::Packed));
        assert_eq!(decode(&blob).unwrap(), t);
        assert_eq!(encode(&decode(&blob).unwrap(), Encoding::Packed), blob);
        assert_eq!(unpack(&blob).unwrap(), encode(&t, Encoding::Compact));
        // Not walkable in place: the walker says so instead of walking garbage.
        let e = crate::Walker::new(&blob).unwrap_err();
        assert!(e.reason.contains("unpack"), "{e}");
        // The empty tree.
        let empty = Tree::new();
        assert_eq!(decode(&encode(&empty, Encoding::Packed)).unwrap(), empty);
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    #[test]
    fn mutated_packed_blobs_give_errors_never_panics() {
        let blob = encode(&sample(), Encoding::Packed);
        let payload_at = 4 + crate::codec::varint_len(sample().tree_moves()) + 1 + 4;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut caught, mut garbage_ok) = (0, 0);
        for round in 0..3000 {
            let mut m = blob.clone();
            let i = rng.below(m.len());
            match rng.below(3) {
                0 => m[i] ^= 1 << rng.below(8),
                1 => m.truncate(i),
                _ => m.insert(i, rng.below(256) as u8),
            }
            if round % 2 == 1 && m.len() > payload_at {
                // Fix the checksum, so the range decoder itself meets the garbage.
                let sum = fnv1a(&m[payload_at..]).to_le_bytes();
                m[payload_at - 4..payload_at].copy_from_slice(&sum);
            }
            match decode(&m) {
                Ok(t) => {
                    garbage_ok += 1;
                    // Whatever decodes is a tree that encodes again.
                    let _ = encode(&t, Encoding::Compact);
                }
                Err(e) => {
                    caught += 1;
                    assert!(e.offset <= m.len(), "{e}");
                }
            }
        }
        assert!(caught > 1500, "{caught} errors, {garbage_ok} decoded");
    }
}
