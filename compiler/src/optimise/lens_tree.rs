//! Lens fields compiled to a decision tree over point states.
//!
//! Each branch tests the point that the most still-possible fields constrain (ties: the
//! smallest offset), so the most common tests come first and each state read prunes as many
//! fields as possible. Leaves list the fields whose state constraints all hold on the path
//! (their extra tests still run at match time). Identical subtrees are shared.

use std::collections::BTreeMap;

use lens_vm::spec::{Offset, States, TreeNode};

/// A field's constraints still unresolved on the current path.
type Pending = Vec<(u32, Vec<(Offset, States)>)>;

struct Builder {
    nodes: Vec<TreeNode>,
    memo: BTreeMap<Pending, u32>,
}

/// Build the tree; node 0 is the root.
pub fn build(fields: &[BTreeMap<Offset, States>]) -> Vec<TreeNode> {
    let pending: Pending = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            (
                i as u32,
                f.iter()
                    .filter(|(_, s)| **s & 15 != 15)
                    .map(|(o, s)| (*o, *s))
                    .collect(),
            )
        })
        .collect();
    let mut b = Builder {
        nodes: Vec::new(),
        memo: BTreeMap::new(),
    };
    let root = b.node(pending);
    topological(b.nodes, root)
}

/// Renumber so that the root is node 0 and every child comes after each of its parents
/// (shared subtrees make the tree a DAG; the ROM format wants children after parents).
fn topological(nodes: Vec<TreeNode>, root: u32) -> Vec<TreeNode> {
    // Reverse post-order of a depth-first walk is a topological order.
    let mut post = Vec::with_capacity(nodes.len());
    let mut seen = vec![false; nodes.len()];
    let mut stack = vec![(root, false)];
    while let Some((n, expanded)) = stack.pop() {
        if expanded {
            post.push(n);
            continue;
        }
        if std::mem::replace(&mut seen[n as usize], true) {
            continue;
        }
        stack.push((n, true));
        if let TreeNode::Branch { children, .. } = &nodes[n as usize] {
            for c in children.iter().rev() {
                if !seen[*c as usize] {
                    stack.push((*c, false));
                }
            }
        }
    }
    post.reverse();
    let mut index = vec![u32::MAX; nodes.len()];
    for (i, n) in post.iter().enumerate() {
        index[*n as usize] = i as u32;
    }
    post.iter()
        .map(|n| match &nodes[*n as usize] {
            TreeNode::Branch { at, children } => TreeNode::Branch {
                at: *at,
                children: children.map(|c| index[c as usize]),
            },
            leaf => leaf.clone(),
        })
        .collect()
}

impl Builder {
    fn node(&mut self, pending: Pending) -> u32 {
        if let Some(&id) = self.memo.get(&pending) {
            return id;
        }
        // The point constrained by the most fields (BTreeMap: ties go to the smallest offset).
        let mut counts: BTreeMap<Offset, u32> = BTreeMap::new();
        for (_, cons) in &pending {
            for (o, _) in cons {
                *counts.entry(*o).or_default() += 1;
            }
        }
        let best = counts
            .iter()
            .fold(None, |best: Option<(Offset, u32)>, (o, c)| match best {
                Some((_, bc)) if bc >= *c => best,
                _ => Some((*o, *c)),
            });
        // Allocate before the children so the recursion can fill it in; `topological` fixes
        // the numbering afterwards.
        let id = self.push(TreeNode::Leaf { fields: Vec::new() });
        match best {
            None => {
                let fields = pending.iter().map(|(i, _)| *i).collect();
                self.nodes[id as usize] = TreeNode::Leaf { fields };
            }
            Some((at, _)) => {
                let mut children = [0u32; 4];
                for (state, child) in children.iter_mut().enumerate() {
                    let bit = 1u8 << state;
                    let next: Pending = pending
                        .iter()
                        .filter(|(_, cons)| cons.iter().all(|(o, s)| *o != at || s & bit != 0))
                        .map(|(i, cons)| {
                            (*i, cons.iter().filter(|(o, _)| *o != at).copied().collect())
                        })
                        .collect();
                    *child = self.node(next);
                }
                self.nodes[id as usize] = TreeNode::Branch { at, children };
            }
        }
        self.memo.insert(pending, id);
        id
    }

    fn push(&mut self, n: TreeNode) -> u32 {
        self.nodes.push(n);
        (self.nodes.len() - 1) as u32
    }
}

/// Evaluate a tree on a point-state oracle (tests and the CLI use it to check trees).
pub fn eval(tree: &[TreeNode], state_at: impl Fn(Offset) -> u8) -> &[u32] {
    let mut i = 0usize;
    loop {
        match &tree[i] {
            TreeNode::Leaf { fields } => return fields,
            TreeNode::Branch { at, children } => i = children[state_at(*at) as usize] as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(cells: &[((i16, i16), States)]) -> BTreeMap<Offset, States> {
        cells
            .iter()
            .map(|&((x, y), s)| (Offset::new(x, y), s))
            .collect()
    }

    /// The seed's diagonal connection defence: d4/c3 relative to d3 (endpoint).
    fn seed() -> Vec<BTreeMap<Offset, States>> {
        let d4 = (0, -1);
        let c3 = (-1, 0);
        vec![
            field(&[(d4, 4), (c3, 4)]),
            field(&[(d4, 2), (c3, 4)]),
            field(&[(d4, 2), (c3, 4)]),
        ]
    }

    #[test]
    fn tree_agrees_with_brute_force_on_every_state_assignment() {
        let fields = seed();
        let tree = build(&fields);
        let points = [Offset::new(0, -1), Offset::new(-1, 0)];
        for a in 0..4u8 {
            for b in 0..4u8 {
                let state = |o: Offset| {
                    if o == points[0] {
                        a
                    } else if o == points[1] {
                        b
                    } else {
                        2
                    }
                };
                let want: Vec<u32> = fields
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.iter().all(|(o, s)| s & (1 << state(*o)) != 0))
                    .map(|(i, _)| i as u32)
                    .collect();
                assert_eq!(eval(&tree, state), want.as_slice(), "d4={a} c3={b}");
            }
        }
    }

    #[test]
    fn children_follow_parents() {
        let fields: Vec<_> = (0..5)
            .map(|i| field(&[((i, 0), 4), ((0, i + 1), 1 << (i % 3))]))
            .collect();
        let tree = build(&fields);
        for (i, n) in tree.iter().enumerate() {
            if let TreeNode::Branch { children, .. } = n {
                assert!(
                    children
                        .iter()
                        .all(|&c| c as usize > i && (c as usize) < tree.len()),
                    "node {i}: {children:?}"
                );
            }
        }
    }

    #[test]
    fn most_common_point_is_tested_first() {
        // c3 is constrained by all three fields, d4 by two.
        let fields = vec![
            field(&[((-1, 0), 4), ((0, -1), 4)]),
            field(&[((-1, 0), 4)]),
            field(&[((-1, 0), 4), ((0, -1), 2)]),
        ];
        let tree = build(&fields);
        match &tree[0] {
            TreeNode::Branch { at, .. } => assert_eq!(*at, Offset::new(-1, 0)),
            other => panic!("root is {other:?}"),
        }
    }

    #[test]
    fn unconstrained_lens_is_a_single_leaf() {
        let tree = build(&[field(&[]), field(&[])]);
        assert_eq!(tree, vec![TreeNode::Leaf { fields: vec![0, 1] }]);
    }

    #[test]
    fn shared_subtrees_keep_the_tree_small() {
        // 6 independent points constrained by 6 fields: without sharing 4^6 nodes.
        let fields: Vec<_> = (0..6).map(|i| field(&[((i, 0), 4)])).collect();
        let tree = build(&fields);
        assert!(tree.len() < 200, "{} nodes", tree.len());
    }
}
