//! Snapshots of the SVG the catalogue draws for a few standard-library patterns (the library
//! is ours, so its pictures may live in the repository): a shape with a value, the first edge
//! pattern with off-board points, and the first reject.

use lens_compiler::render::catalogue::{figures, pattern_diagram};
use lens_compiler::render::svg::Diagram;
use lens_vm::Rom;
use lens_vm::rom::RawResult;

/// The first pattern of `class` whose drawing satisfies `pick`: its name and SVG.
fn first(rom: &Rom<'_>, class: &str, pick: impl Fn(&str, &Diagram) -> bool) -> (String, String) {
    let c = rom.class(rom.class_by_name(class).unwrap()).unwrap();
    for f in figures(rom, &c) {
        let name = rom.pattern_name(rom.pattern(f.pattern).id()).unwrap_or("?");
        let d = pattern_diagram(rom, f.pattern);
        if pick(name, &d) {
            return (name.to_string(), d.svg("dia"));
        }
    }
    panic!("no such pattern in {class}");
}

#[test]
fn shape_edge_and_reject_diagrams() {
    let rom = lens_stdlib::rom();
    let (_, svg) = first(&rom, lens_stdlib::SHAPE3X3, |n, _| n == "wedge_table");
    insta::assert_snapshot!("svg_shape3x3_wedge_table", svg);

    let (name, svg) = first(&rom, lens_stdlib::EDGE, |_, d| {
        d.cells.iter().any(|c| c.1 == 8)
    });
    assert!(svg.contains("class=\"off\""));
    insta::assert_snapshot!(format!("svg_edge_{name}"), svg);

    let reject = |_: &str, d: &Diagram| matches!(d.result, Some(RawResult::Reject { .. }));
    let (name, svg) = rom
        .classes()
        .find_map(|c| {
            figures(&rom, &c)
                .iter()
                .any(|f| reject("", &pattern_diagram(&rom, f.pattern)))
                .then(|| first(&rom, c.name(), reject))
        })
        .expect("the library rejects somewhere");
    assert!(svg.contains("class=\"rj\""));
    insta::assert_snapshot!(format!("svg_reject_{name}"), svg);
}
