//! Optimisation passes over the IR: derived glob headers, tests cheapest first, distinct
//! orientation variants (symmetric duplicates dropped), the try order, lens decision trees.

pub mod glob;
pub mod lens_tree;
pub mod lut;
pub mod order;
pub mod symmetry;

use lens_dsl::Diagnostic;
use lens_vm::spec::SequenceSpec;

use crate::codes;
use crate::ir::{self, Node, Pattern};

/// Run every pass; returns warnings (declared symmetry that disagrees with the pattern).
pub fn optimise(program: &mut ir::Program) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let sequences = std::mem::take(&mut program.sequences);
    for class in &mut program.classes {
        glob::derive_headers(&mut class.nodes);
        for_each_pattern(&mut class.nodes, &mut |p| {
            finish_pattern(p, &sequences, &mut warnings)
        });
        order::order_nodes(&mut class.nodes, class.mode);
    }
    program.sequences = sequences;
    for lens in &mut program.lenses {
        for f in &mut lens.fields {
            order::order_tests(&mut f.tests);
        }
        let fields: Vec<_> = lens.fields.iter().map(|f| f.states.clone()).collect();
        lens.tree = lens_tree::build(&fields);
    }
    warnings
}

/// Visit every pattern and glob header.
pub fn for_each_pattern(nodes: &mut [Node], f: &mut impl FnMut(&mut Pattern)) {
    for n in nodes {
        match n {
            Node::Pattern(p) => f(p),
            Node::Glob(g) => {
                f(&mut g.header);
                for_each_pattern(&mut g.members, f);
            }
        }
    }
}

fn finish_pattern(p: &mut Pattern, sequences: &[SequenceSpec], warnings: &mut Vec<Diagnostic>) {
    order::order_tests(&mut p.tests);
    if let Some((declared, span)) = p.declared_symmetry {
        let detected = symmetry::detect_group(p, sequences);
        let claimed = symmetry::declared_group(declared);
        if detected != claimed {
            warnings.push(
                Diagnostic::warning(
                    codes::WRONG_SYMMETRY,
                    format!(
                        "declared symmetry {} disagrees with the pattern, whose symmetry is {}",
                        symmetry::group_name(claimed),
                        symmetry::group_name(detected)
                    ),
                    p.file,
                    span,
                    "declared here",
                )
                .with_help(
                    "the compiler uses the symmetry it detects; fix or remove the declaration",
                ),
            );
        }
    }
    let (orientations, covers) = symmetry::distinct_orientations(p, sequences);
    p.orientations = orientations;
    p.covers = covers;
}
