//! The last phase: the optimised IR as a [`RomSpec`] for `lens_vm::rom::try_write_with`, which
//! also emits the bit-sliced tables (section `sliced`) from the masks it packs.

use lens_vm::spec::{
    CellSpec, ClassNode, ClassSpec, DebugSpec, LensFieldSpec, LensSpec, Offset, PatternSpec,
    RomSpec,
};

use crate::ir;

/// Order of a pattern's cells: innermost ring first, then nearest by Manhattan distance, then
/// row-major. (The ROM writer chooses the bit layout; this order is only the listing order.)
fn cell_order(o: &Offset) -> (i16, i16, i16, i16) {
    let ring = o.dx.abs().max(o.dy.abs());
    (ring, o.dx.abs() + o.dy.abs(), o.dy, o.dx)
}

pub fn cells(map: &std::collections::BTreeMap<Offset, u8>) -> Vec<CellSpec> {
    let mut cells: Vec<CellSpec> = map
        .iter()
        .map(|(at, s)| CellSpec {
            at: *at,
            allowed: *s,
        })
        .collect();
    cells.sort_by_key(|c| cell_order(&c.at));
    cells
}

fn pattern(p: &ir::Pattern) -> PatternSpec {
    PatternSpec {
        id: p.id,
        priority: p.priority,
        cells: cells(&p.cells),
        orientations: p.orientations.clone(),
        covers: p.covers.clone(),
        tests: p.tests.clone(),
        result: p.result,
    }
}

fn node(n: &ir::Node) -> ClassNode {
    match n {
        ir::Node::Pattern(p) => ClassNode::Pattern(pattern(p)),
        ir::Node::Glob(g) => ClassNode::Glob {
            header: pattern(&g.header),
            members: g.members.iter().map(node).collect(),
        },
    }
}

/// Build the ROM contents. `source_hash` covers every input; `strip` drops names and spans.
pub fn emit(program: &ir::Program, source_hash: u64, strip: bool) -> RomSpec {
    RomSpec {
        toolchain: crate::TOOLCHAIN.to_string(),
        source_hash,
        classes: program
            .classes
            .iter()
            .map(|c| ClassSpec {
                name: c.name.clone(),
                mode: c.mode,
                focus: c.focus,
                width: c.width,
                height: c.height,
                orient: c.orient,
                default_value: c.default_value,
                nodes: c.nodes.iter().map(node).collect(),
            })
            .collect(),
        globals: program.globals.clone(),
        externs: program.externs.clone(),
        sequences: program.sequences.clone(),
        lenses: program
            .lenses
            .iter()
            .map(|l| LensSpec {
                lens_type: l.lens_type,
                name: l.name.clone(),
                endpoints: l.endpoints.clone(),
                fields: l
                    .fields
                    .iter()
                    .map(|f| LensFieldSpec {
                        states: cells(&f.states),
                        tests: f.tests.clone(),
                        result: f.result,
                    })
                    .collect(),
                tree: l.tree.clone(),
            })
            .collect(),
        joseki: program.joseki.clone(),
        debug: if strip {
            None
        } else {
            Some(DebugSpec {
                files: program.files.clone(),
                patterns: program.debug.clone(),
            })
        },
    }
}

/// FNV-1a 64 over every source's name and text, in input order (a 0xff byte after each part
/// keeps `("ab","c")` and `("a","bc")` apart: 0xff never occurs in UTF-8).
pub fn source_hash(sources: &lens_dsl::SourceMap) -> u64 {
    let mut h = FNV_OFFSET;
    for f in &sources.files {
        h = fnv1a(fnv1a(h, f.name.as_bytes()), &[0xff]);
        h = fnv1a(fnv1a(h, f.text.as_bytes()), &[0xff]);
    }
    h
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_reference_vector_and_separates_parts() {
        // FNV-1a 64 of the empty input is the offset basis; here every part adds a 0xff.
        let mut a = lens_dsl::SourceMap::default();
        a.add("ab", "c");
        let mut b = lens_dsl::SourceMap::default();
        b.add("a", "bc");
        assert_ne!(source_hash(&a), source_hash(&b));
        assert_eq!(source_hash(&a), source_hash(&a.clone()));
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn cells_innermost_first() {
        let map = [
            (Offset::new(2, 0), 1u8),
            (Offset::new(0, -1), 2),
            (Offset::new(1, 1), 4),
        ]
        .into_iter()
        .collect();
        let got: Vec<Offset> = cells(&map).iter().map(|c| c.at).collect();
        assert_eq!(
            got,
            vec![Offset::new(0, -1), Offset::new(1, 1), Offset::new(2, 0)]
        );
    }
}
