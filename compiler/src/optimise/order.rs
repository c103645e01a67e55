//! The order patterns are tried in, and the order of each pattern's tests.
//!
//! Patterns: priority (higher first), then selectivity within equal priority (the pattern
//! least likely to pass its masks first, so a class fails fast), then source order. The sort
//! is stable and uses integer scores only, so it is the same on every machine. In `first`
//! mode the order within equal priority decides which match is reported, so there it stays in
//! source order.

use lens_vm::spec::{Mode, States, TestExpr, TestSpec};

use crate::ir::{Node, Pattern};

/// `-log2(p) * 1000` of a point passing an allowed-state set, with the rough state frequencies
/// friend 0.2, foe 0.2, empty 0.5, off-board 0.1 (fixed integers: no float in the output path).
const SURPRISE: [u32; 16] = [
    100_000, // nothing allowed: never matches
    2322,    // friend
    2322,    // foe
    1322,    // stone
    1000,    // empty
    515,     // friend | empty
    515,     // foe | empty
    152,     // on board
    3322,    // off
    1737,    // friend | off
    1737,    // foe | off
    1000,    // stone | off
    737,     // empty | off
    322,     // friend | empty | off
    322,     // foe | empty | off
    0,       // anything
];

/// How unlikely the pattern's masks are to pass on a random point (higher = more selective).
pub fn selectivity(p: &Pattern) -> u32 {
    p.cells.values().map(|s| SURPRISE[(*s & 15) as usize]).sum()
}

fn node_key(n: &Node) -> (i32, u32) {
    match n {
        Node::Pattern(p) => (p.priority, selectivity(p)),
        Node::Glob(g) => (glob_priority(n), selectivity(&g.header)),
    }
}

/// A glob is tried at the priority of its best member.
pub fn glob_priority(n: &Node) -> i32 {
    match n {
        Node::Pattern(p) => p.priority,
        Node::Glob(g) => g
            .members
            .iter()
            .map(glob_priority)
            .max()
            .unwrap_or(i32::MIN),
    }
}

/// Sort nodes (recursively inside globs) into the order the VM tries them.
pub fn order_nodes(nodes: &mut [Node], mode: Mode) {
    for n in nodes.iter_mut() {
        if let Node::Glob(g) = n {
            order_nodes(&mut g.members, mode);
        }
    }
    match mode {
        Mode::First => nodes.sort_by_key(|n| (std::cmp::Reverse(node_key(n).0), n.source_order())),
        Mode::Best | Mode::All => nodes.sort_by_key(|n| {
            let (priority, sel) = node_key(n);
            (
                std::cmp::Reverse(priority),
                std::cmp::Reverse(sel),
                n.source_order(),
            )
        }),
    }
}

/// Estimated cost of evaluating an expression: the sum of its calls' costs.
pub fn expr_cost(
    e: &TestExpr,
    builtin_cost: &impl Fn(&TestExpr) -> u32,
    extern_cost: &impl Fn(u16) -> u32,
) -> u32 {
    use TestExpr::*;
    match e {
        Int(_) => 0,
        Global(_) => 1,
        Extern { index, .. } => extern_cost(*index),
        Not(x) | Neg(x) => expr_cost(x, builtin_cost, extern_cost),
        Bin(_, a, b) => expr_cost(a, builtin_cost, extern_cost).saturating_add(expr_cost(
            b,
            builtin_cost,
            extern_cost,
        )),
        other => builtin_cost(other),
    }
}

/// Tests are ANDed: run the cheapest first (stable, so equal costs keep source order).
pub fn order_tests(tests: &mut [TestSpec]) {
    tests.sort_by_key(|t| t.cost);
}

/// Allowed states as a short text (`friend|empty`), for diagnostics.
pub fn states_text(s: States) -> String {
    let names = ["friend", "foe", "empty", "off"];
    let parts: Vec<&str> = (0..4)
        .filter(|i| s & (1 << i) != 0)
        .map(|i| names[i])
        .collect();
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts.join("|")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lens_vm::spec::Offset;

    fn pat(order: u32, priority: i32, cells: &[States]) -> Node {
        let mut p = Pattern::empty(order, order, 0, Default::default());
        p.priority = priority;
        for (i, s) in cells.iter().enumerate() {
            p.cells.insert(Offset::new(i as i16 + 1, 0), *s);
        }
        Node::Pattern(p)
    }

    fn ids(nodes: &[Node]) -> Vec<u32> {
        nodes.iter().map(|n| n.source_order()).collect()
    }

    #[test]
    fn priority_then_selectivity_then_source() {
        let mut nodes = vec![
            pat(0, 0, &[7]),    // loose
            pat(1, 0, &[1, 2]), // tight
            pat(2, 5, &[7]),    // high priority
            pat(3, 0, &[7]),    // same as 0: stays after it
        ];
        order_nodes(&mut nodes, Mode::Best);
        assert_eq!(ids(&nodes), vec![2, 1, 0, 3]);
    }

    #[test]
    fn first_mode_keeps_source_order_within_priority() {
        let mut nodes = vec![pat(0, 0, &[7]), pat(1, 0, &[1, 2]), pat(2, 5, &[7])];
        order_nodes(&mut nodes, Mode::First);
        assert_eq!(ids(&nodes), vec![2, 0, 1]);
    }

    #[test]
    fn tests_cheapest_first_stable() {
        let t = |c, v| TestSpec {
            expr: TestExpr::Int(v),
            cost: c,
        };
        let mut tests = vec![t(50, 0), t(1, 1), t(50, 2), t(0, 3)];
        order_tests(&mut tests);
        let got: Vec<i32> = tests
            .iter()
            .map(|t| if let TestExpr::Int(v) = t.expr { v } else { -1 })
            .collect();
        assert_eq!(got, vec![3, 1, 0, 2]);
    }

    #[test]
    fn surprise_grows_as_sets_shrink() {
        for s in 1..16u8 {
            for sub in 1..16u8 {
                if sub & s == sub && sub != s {
                    assert!(
                        SURPRISE[sub as usize] > SURPRISE[s as usize],
                        "{sub} vs {s}"
                    );
                }
            }
        }
    }
}
