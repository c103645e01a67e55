//! Glob headers. A glob without a written header gets one derived from its members: at each
//! point, the union of what the members allow, kept only where that union still constrains
//! the point. Whenever any member matches in an orientation, the derived header matches in
//! that orientation too, so skipping the glob on a header failure never loses a match.

use std::collections::BTreeMap;

use lens_vm::spec::{Offset, States};

use crate::ir::{Glob, Node};

/// What every match of the node must satisfy (points absent are unconstrained).
fn effective(node: &Node) -> BTreeMap<Offset, States> {
    match node {
        Node::Pattern(p) => p.cells.clone(),
        Node::Glob(g) => {
            let mut cells = union_of(&g.members);
            if !g.derived {
                // A written header is also required; intersect it in.
                for (at, s) in &g.header.cells {
                    let merged = cells.get(at).copied().unwrap_or(15) & s;
                    cells.insert(*at, merged);
                }
            }
            cells
        }
    }
}

/// Point-wise union of the members' constraints; points some member leaves free drop out.
fn union_of(members: &[Node]) -> BTreeMap<Offset, States> {
    let mut iter = members.iter().map(effective);
    let Some(mut acc) = iter.next() else {
        return BTreeMap::new();
    };
    for cells in iter {
        acc.retain(|at, s| match cells.get(at) {
            Some(t) => {
                *s |= t;
                *s != 15
            }
            None => false,
        });
    }
    acc
}

/// Fill in derived headers, innermost first, and give each header the union of its members'
/// orientations (it is tested in every orientation a member may be tried in).
pub fn derive_headers(nodes: &mut [Node]) {
    for n in nodes.iter_mut() {
        if let Node::Glob(g) = n {
            derive_headers(&mut g.members);
            derive_header(g);
        }
    }
}

fn allowed_of(n: &Node) -> u8 {
    match n {
        Node::Pattern(p) => p.allowed,
        Node::Glob(g) => g.members.iter().map(allowed_of).fold(0, |a, b| a | b),
    }
}

fn derive_header(g: &mut Glob) {
    if g.derived {
        g.header.cells = union_of(&g.members);
    }
    g.header.allowed = g.members.iter().map(allowed_of).fold(0, |a, b| a | b);
    g.header.priority = g
        .members
        .iter()
        .map(crate::optimise::order::glob_priority)
        .max()
        .unwrap_or(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Pattern;

    fn member(order: u32, cells: &[((i16, i16), States)]) -> Node {
        let mut p = Pattern::empty(order, order, 0, Default::default());
        p.cells = cells
            .iter()
            .map(|&((x, y), s)| (Offset::new(x, y), s))
            .collect();
        Node::Pattern(p)
    }

    fn glob(members: Vec<Node>) -> Glob {
        Glob {
            name: "g".into(),
            header: Pattern::empty(99, 99, 0, Default::default()),
            derived: true,
            members,
        }
    }

    #[test]
    fn derived_header_keeps_common_constraints() {
        let mut g = glob(vec![
            member(0, &[((0, -1), 1), ((1, 0), 2), ((-1, 0), 4)]),
            member(1, &[((0, -1), 1), ((1, 0), 4)]),
            member(2, &[((0, -1), 3), ((1, 0), 8)]),
        ]);
        derive_header(&mut g);
        let want: BTreeMap<Offset, States> = [(Offset::new(0, -1), 3), (Offset::new(1, 0), 14)]
            .into_iter()
            .collect();
        assert_eq!(g.header.cells, want);
    }

    #[test]
    fn nested_glob_contributes_its_effective_constraints() {
        let mut inner = glob(vec![
            member(0, &[((0, 1), 2)]),
            member(1, &[((0, 1), 2), ((1, 1), 1)]),
        ]);
        inner.derived = false;
        inner.header.cells.insert(Offset::new(1, 1), 1);
        let mut outer = glob(vec![
            Node::Glob(inner),
            member(2, &[((0, 1), 4), ((1, 1), 2)]),
        ]);
        derive_headers(std::slice::from_mut(&mut Node::Glob(outer.clone())));
        derive_header(&mut outer);
        let want: BTreeMap<Offset, States> = [(Offset::new(0, 1), 6), (Offset::new(1, 1), 3)]
            .into_iter()
            .collect();
        assert_eq!(outer.header.cells, want);
    }

    #[test]
    fn empty_glob_gets_an_unconstrained_header() {
        let mut g = glob(vec![]);
        derive_header(&mut g);
        assert!(g.header.cells.is_empty());
        assert_eq!(g.header.allowed, 0);
    }
}
