//! `disasm`: a stable text listing of a ROM image, the snapshot format. It reads everything
//! back from the image (masks are decoded from their bits, tests from bytecode), so a listing
//! shows what the VM will run, not what the compiler meant.
//!
//! State symbols (cells and mask diagrams): `O` friend, `X` foe, `.` empty, `?` any stone or
//! empty, `o` friend|empty, `x` foe|empty, `@` friend|foe, `#` off board, `,` empty|off,
//! `P` friend|off, `Q` foe|off, `p` friend|empty|off, `q` foe|empty|off, `S` stone|off,
//! `!` nothing, `_` unconstrained, `*` the focus.

use lens_vm::geometry::Orientation;
use lens_vm::rom::{ClassInfo, Item, Kernel, LensNode, Mode, OrientPolicy, RawResult, Rom};
use lens_vm::spec::{CallArg, Colour, ExternArg, TestExpr};
use std::fmt::Write;

/// Symbol of an allowed-state set (bit 0 friend, 1 foe, 2 empty, 3 off).
pub fn state_symbol(allowed: u8) -> char {
    b"!OX@.ox?#PQS,pq_"[(allowed & 15) as usize] as char
}

/// State set names for headers: `empty`, `friend|foe`, ...
pub fn state_names(s: u8) -> String {
    let names = ["friend", "foe", "empty", "off"];
    let v: Vec<&str> = (0..4)
        .filter(|b| s & (1 << b) != 0)
        .map(|b| names[b])
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join("|")
    }
}

fn dir_name(d: (i32, i32)) -> &'static str {
    match d {
        (0, -1) => "N",
        (1, 0) => "E",
        (0, 1) => "S",
        _ => "W",
    }
}

fn covers(c: u8) -> String {
    let v: Vec<String> = (0..8)
        .filter(|b| c & (1 << b) != 0)
        .map(|b| b.to_string())
        .collect();
    v.join(",")
}

/// A small diagram of constrained points (bounding box including the focus).
fn diagram(points: &[((i32, i32), u8)], indent: &str, out: &mut String) {
    let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
    for &((x, y), _) in points {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    for y in y0..=y1 {
        let mut row = String::new();
        for x in x0..=x1 {
            let c = points
                .iter()
                .find(|p| p.0 == (x, y))
                .map(|p| state_symbol(p.1));
            let c = if (x, y) == (0, 0) && c.is_none() {
                '*'
            } else {
                c.unwrap_or('_')
            };
            if !row.is_empty() {
                row.push(' ');
            }
            row.push(c);
        }
        let _ = writeln!(out, "{indent}{row}");
    }
}

fn pt(dx: i8, dy: i8) -> String {
    if (dx, dy) == (0, 0) {
        "*".into()
    } else {
        format!("({dx},{dy})")
    }
}

/// Infix text of one test block (read back from its bytecode).
pub fn test_text(rom: &Rom<'_>, code: &[u8]) -> String {
    match lens_vm::rom::decode_test(code) {
        Ok(e) => expr_text(rom, &e).0,
        Err(_) => "<bad bytecode>".into(),
    }
}

/// An expression's text and its precedence (9 for atoms and unary operators): an operand
/// is bracketed when it binds looser than its operator (on the right, also when equally).
fn expr_text(rom: &Rom<'_>, e: &TestExpr) -> (String, u8) {
    let col = |c: &Colour| match c {
        Colour::Friend => "friend",
        Colour::Foe => "foe",
    };
    let atom = |s: String| (s, 9u8);
    if let Some((name, args)) = e.as_call() {
        let args: Vec<String> = args
            .iter()
            .map(|a| match *a {
                CallArg::Point(o) => pt(o.dx as i8, o.dy as i8),
                CallArg::States(s) => state_names(s),
                CallArg::Int(v) => v.to_string(),
            })
            .collect();
        return atom(format!("{name}({})", args.join(", ")));
    }
    match e {
        TestExpr::Int(v) => atom(v.to_string()),
        TestExpr::Global(i) => atom(format!(
            "global({})",
            name_or(rom.global_name(*i as usize), *i)
        )),
        TestExpr::Extern { index, args } => {
            let a: Vec<String> = args
                .iter()
                .map(|a| match a {
                    ExternArg::Point(o) => pt(o.dx as i8, o.dy as i8),
                    ExternArg::Int(v) => v.to_string(),
                    ExternArg::Colour(c) => col(c).into(),
                })
                .collect();
            let name = name_or(rom.extern_info(*index as usize).0, *index);
            atom(format!("{name}({})", a.join(", ")))
        }
        TestExpr::Not(a) | TestExpr::Neg(a) => {
            let (a, p) = expr_text(rom, a);
            let a = if p < 9 { format!("({a})") } else { a };
            let sign = if matches!(e, TestExpr::Not(_)) {
                "!"
            } else {
                "-"
            };
            (format!("{sign}{a}"), 9)
        }
        TestExpr::Bin(b, l, r) => {
            let prec = match b.symbol() {
                "||" => 1,
                "&&" => 2,
                "==" | "!=" => 3,
                "<" | "<=" | ">" | ">=" => 4,
                _ => 5,
            };
            let (l, pl) = expr_text(rom, l);
            let (r, pr) = expr_text(rom, r);
            let l = if pl < prec { format!("({l})") } else { l };
            let r = if pr <= prec { format!("({r})") } else { r };
            (format!("{l} {} {r}", b.symbol()), prec)
        }
        // Predicates are calls (above).
        _ => atom(String::new()),
    }
}

fn name_or(name: &str, i: u16) -> String {
    if name.is_empty() {
        format!("#{i}")
    } else {
        name.to_string()
    }
}

/// One line for a result: `move (dx,dy) value V`, `reject ...`, `value V`.
pub fn result_text(r: RawResult) -> String {
    match r {
        RawResult::Move {
            dx,
            dy,
            value,
            bits,
            sequence,
        } => {
            let mut s = format!("move {} value {value}", pt(dx, dy));
            if bits != 0 {
                let _ = write!(s, " bits {bits:#x}");
            }
            if let Some(q) = sequence {
                let _ = write!(s, " seq {q}");
            }
            s
        }
        RawResult::Reject { dx, dy } => format!("reject {}", pt(dx, dy)),
        RawResult::Value { value, bits } => {
            if bits != 0 {
                format!("value {value} bits {bits:#x}")
            } else {
                format!("value {value}")
            }
        }
    }
}

fn pattern_block(
    rom: &Rom<'_>,
    class: &ClassInfo<'_>,
    first: u32,
    end: u32,
    indent: &str,
    out: &mut String,
) {
    let mut e = first;
    while e < end {
        let (p, ..) = rom.entry(e);
        let pat = rom.pattern(p);
        let name = rom.pattern_name(pat.id()).unwrap_or("");
        let _ = write!(
            out,
            "{indent}pattern #{} {name} priority {}",
            pat.id(),
            pat.priority()
        );
        if let Some((_, file, start, endb)) = rom.pattern_debug(pat.id()) {
            let _ = write!(out, " at {file}:{start}..{endb}");
        }
        out.push('\n');
        for (k, v) in rom.pattern_attrs(pat.id()) {
            let _ = writeln!(out, "{indent}  attr {k} = {v}");
        }
        let cells: Vec<String> = pat
            .cells()
            .map(|(x, y, a)| format!("{}={}", pt(x, y), state_symbol(a)))
            .collect();
        let _ = writeln!(
            out,
            "{indent}  cells {}",
            if cells.is_empty() {
                "-".into()
            } else {
                cells.join(" ")
            }
        );
        for (code, cost) in pat.tests() {
            let _ = writeln!(out, "{indent}  test [cost {cost}] {}", test_text(rom, code));
        }
        match pat.result() {
            Some(r) => {
                let _ = writeln!(out, "{indent}  => {}", result_text(r));
            }
            None => {
                let _ = writeln!(out, "{indent}  => (glob header)");
            }
        }
        while e < end && rom.entry(e).0 == p {
            let (_, o, cov) = rom.entry(e);
            let t = Orientation::new(o).unwrap_or(Orientation::IDENTITY);
            let _ = write!(
                out,
                "{indent}  variant o{o} up {} covers {{{}}}",
                dir_name(t.up()),
                covers(cov)
            );
            let points: Vec<_> = match class.kernel() {
                Kernel::Packed => {
                    let m = rom.entry_masks(class, e);
                    let words: Vec<String> = m[..class.words()]
                        .iter()
                        .map(|w| format!("{w:016x}"))
                        .collect();
                    let _ = writeln!(out, " masks {}", words.join(" "));
                    lens_vm::rom::mask_cells(&m).collect()
                }
                Kernel::General => {
                    out.push('\n');
                    pat.cells()
                        .map(|(x, y, a)| (t.apply(x as i32, y as i32), a))
                        .collect()
                }
            };
            diagram(&points, &format!("{indent}    "), out);
            e += 1;
        }
    }
}

/// The listing.
pub fn disasm(rom: &Rom<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "lens rom v{} toolchain \"{}\" source {:016x} {} bytes{}",
        rom.format_version(),
        rom.toolchain(),
        rom.source_hash(),
        rom.as_bytes().len(),
        if rom.is_stripped() { " stripped" } else { "" }
    );
    for f in rom.debug_files() {
        let _ = writeln!(out, "file {f}");
    }
    for i in 0..rom.global_count() {
        let _ = writeln!(out, "global {i} {}", rom.global_name(i));
    }
    for i in 0..rom.extern_count() {
        let (n, a, c) = rom.extern_info(i);
        let _ = writeln!(out, "extern {i} {n} arity {a} cost {c}");
    }
    for class in rom.classes() {
        let mode = match class.mode() {
            Mode::Best => "best",
            Mode::All => "all",
            Mode::First => "first",
        };
        let orient = match class.orient() {
            OrientPolicy::All => "all",
            OrientPolicy::Up => "up",
            OrientPolicy::Identity => "identity",
        };
        let kernel = match class.kernel() {
            Kernel::Packed => match rom.class_lut(&class) {
                Some(t) => format!("packed {}w lut {}", class.words(), t.len()),
                None => format!("packed {}w", class.words()),
            },
            Kernel::General => "general".into(),
        };
        let _ = write!(
            out,
            "\nclass {} mode {mode} focus {} field {}x{} orient {orient} kernel {kernel} patterns {} variants {}",
            class.name(),
            state_names(class.focus()),
            class.width(),
            class.height(),
            class.pattern_count(),
            class.entry_count()
        );
        if let Some(d) = class.default_value() {
            let _ = write!(out, " default {d}");
        }
        out.push('\n');
        let mut indent = String::from("  ");
        for item in class.items() {
            match item {
                Item::Run { first, end } => {
                    pattern_block(rom, &class, first, end, &indent, &mut out)
                }
                Item::Glob { first, end, .. } => {
                    let _ = writeln!(out, "{indent}glob");
                    indent.push_str("  ");
                    let _ = writeln!(out, "{indent}header");
                    pattern_block(rom, &class, first, end, &format!("{indent}  "), &mut out);
                }
                Item::GlobEnd => {
                    indent.truncate(indent.len().saturating_sub(2));
                    let _ = writeln!(out, "{indent}end glob");
                }
            }
        }
    }
    for s in 0..rom.sequence_count() {
        let nodes: Vec<String> = rom
            .sequence(s as u32)
            .map(|(p, d)| match p {
                Some((x, y)) => format!("{d}:{}", pt(x, y)),
                None => format!("{d}:pass"),
            })
            .collect();
        let _ = writeln!(out, "\nsequence {s} {}", nodes.join(" "));
    }
    for l in 0..rom.lens_count() {
        let Some(lens) = rom.lens(lens_vm::LensId(l as u32)) else {
            continue;
        };
        let ends: Vec<String> = lens
            .endpoints()
            .map(|(x, y)| format!("({x},{y})"))
            .collect();
        let _ = writeln!(
            out,
            "\nlens {} type {} endpoints {}",
            lens.name(),
            lens.lens_type(),
            ends.join(" ")
        );
        for f in 0..lens.field_count() {
            let (c0, nc, t0, nt, r) = lens.field(f);
            let cells: Vec<String> = (c0..c0 + nc)
                .map(|c| {
                    let (x, y, a) = rom.cell(c);
                    format!("({x},{y})={}", state_symbol(a))
                })
                .collect();
            let _ = writeln!(out, "  field {f} cells {}", cells.join(" "));
            for t in t0..t0 + nt {
                let (code, cost) = rom.test(t);
                let _ = writeln!(out, "    test [cost {cost}] {}", test_text(rom, code));
            }
            let _ = writeln!(out, "    => {}", result_text(rom.result(r)));
        }
        for n in 0..lens.node_count() {
            match lens.node(n) {
                LensNode::Branch { dx, dy, children } => {
                    let _ = writeln!(
                        out,
                        "  node {n} branch ({dx},{dy}) friend->{} foe->{} empty->{} off->{}",
                        children[0], children[1], children[2], children[3]
                    );
                }
                LensNode::Leaf { first, count } => {
                    let f: Vec<String> = (first..first + count)
                        .map(|k| lens.leaf_field(k).to_string())
                        .collect();
                    let _ = writeln!(out, "  node {n} leaf fields [{}]", f.join(","));
                }
            }
        }
    }
    for j in 0..rom.joseki_count() {
        let (name, bytes) = rom.joseki_at(j);
        let _ = writeln!(
            out,
            "\njoseki {name} {} bytes fnv {:08x}",
            bytes.len(),
            lens_vm::rom::fnv1a32(bytes)
        );
    }
    out
}

/// The record listing of a compact-profile image: per class, one line per pattern record with
/// its stored fields and byte count (glob members indented), then the shared lists. The
/// patterns themselves read best in the listing of the expansion ([`disasm`]).
pub fn disasm_compact(c: &lens_vm::rom::CompactRom<'_>) -> String {
    use lens_vm::rom::compact::{CellsForm, H_CELLS_SHIFT};
    use std::fmt::Write;
    let rom = c.rom();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "lens rom v{} compact toolchain {:?} source {:016x} {} bytes{}",
        rom.format_version(),
        rom.toolchain(),
        rom.source_hash(),
        rom.as_bytes().len(),
        if rom.is_stripped() { " stripped" } else { "" }
    );
    for class in c.classes() {
        let _ = writeln!(
            o,
            "\nclass {} mode {:?} focus {} field {}x{} orient {:?}{} records {} bytes",
            rom.string(class.name_index()),
            class.mode(),
            state_names(class.focus()),
            class.width(),
            class.height(),
            class.orient(),
            class
                .default_value()
                .map(|v| format!(" default {v}"))
                .unwrap_or_default(),
            class.stream().len()
        );
        for (depth, r) in class.records() {
            let indent = "  ".repeat(depth + 1);
            let orient: Vec<String> = r
                .variants()
                .map(|(t, cov)| {
                    if cov == 1 << t {
                        format!("{t}")
                    } else {
                        format!("{t}={cov:08b}")
                    }
                })
                .collect();
            let form = match r.cells {
                CellsForm::None => "none".to_string(),
                CellsForm::Dense { positions, .. } => format!("dense {positions}"),
                CellsForm::Sparse { bytes } => format!("sparse {}", bytes.len()),
                CellsForm::Box { frame, .. } => format!(
                    "box {}x{} at ({},{}) edges {:04b}",
                    frame.w, frame.h, frame.x0, frame.y0, frame.edges
                ),
            };
            let _ = writeln!(
                o,
                "{indent}{} #{} prio {} orient [{}] tests {:?} result {} cells {} ({} cells, form {}) {} bytes",
                if r.glob_members.is_some() {
                    "glob"
                } else {
                    "pattern"
                },
                r.id,
                r.priority,
                orient.join(" "),
                r.tests().collect::<Vec<_>>(),
                r.result
                    .map(|x| x.to_string())
                    .unwrap_or_else(|| "-".into()),
                form,
                r.cells().count(),
                r.header >> H_CELLS_SHIFT,
                r.len
            );
        }
    }
    let _ = writeln!(o, "\nresults");
    for (i, r) in c.results().enumerate() {
        let _ = writeln!(o, "  {i}: {r:?}");
    }
    let _ = writeln!(o, "tests");
    for (i, (code, cost)) in c.tests().enumerate() {
        let _ = writeln!(o, "  {i}: cost {cost} {}", test_text(rom, code));
    }
    o
}
