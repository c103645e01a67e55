//! `stats`: sizes and counts of a ROM image (text and JSON). Bytes per pattern are given for
//! a single orientation and for all 8, so images compare with RiscIgo's 16-18 bytes/pattern.

use lens_vm::rom::{Kernel, Rom, Section};
use std::fmt::Write;

/// The figures `stats` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub total_bytes: usize,
    /// `(section name, offset, bytes)` for each present section.
    pub sections: Vec<(&'static str, usize, usize)>,
    pub classes: usize,
    pub patterns: usize,
    pub variants: usize,
    pub lenses: usize,
    pub sequences: usize,
    pub joseki: usize,
    /// Pattern records, cells, tests, bytecode and results per pattern (orientation-free).
    pub pattern_bytes: f64,
    /// Entry record + mask words per stored variant.
    pub variant_bytes: f64,
    /// `pattern_bytes + variant_bytes`.
    pub bytes_per_pattern_1: f64,
    /// `pattern_bytes + 8 * variant_bytes`.
    pub bytes_per_pattern_8: f64,
    /// Everything pattern-related divided by patterns, with the variants actually stored.
    pub bytes_per_pattern_stored: f64,
    /// `(name, kernel, words, patterns, variants, bytes of entries + masks)` per class.
    pub per_class: Vec<(String, String, usize, u32, u32, usize)>,
}

pub fn compute(rom: &Rom<'_>) -> Stats {
    let mut sections = Vec::new();
    let size = |s: Section| rom.section_span(s).map(|x| x.1).unwrap_or(0);
    for s in Section::ALL {
        if let Some((off, len)) = rom.section_span(s) {
            sections.push((s.name(), off, len));
        }
    }
    let patterns = rom.pattern_count();
    let variants = rom.entry_count();
    let pattern_cells: usize = (0..patterns)
        .map(|p| rom.pattern(p as u32).cells().count() * 4)
        .sum();
    let pat_total = size(Section::Patterns)
        + pattern_cells
        + size(Section::Tests)
        + size(Section::Bytecode)
        + size(Section::Results);
    let var_total = size(Section::Entries) + size(Section::Masks);
    let per = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let pattern_bytes = per(pat_total, patterns);
    let variant_bytes = per(var_total, variants);
    let per_class = rom
        .classes()
        .map(|c| {
            let kernel = match c.kernel() {
                Kernel::Packed => "packed",
                Kernel::General => "general",
            };
            let bytes = c.entry_count() as usize * (8 + 8 * c.words());
            (
                c.name().to_string(),
                kernel.to_string(),
                c.words(),
                c.pattern_count(),
                c.entry_count(),
                bytes,
            )
        })
        .collect();
    Stats {
        total_bytes: rom.as_bytes().len(),
        sections,
        classes: rom.class_count(),
        patterns,
        variants,
        lenses: rom.lens_count(),
        sequences: rom.sequence_count(),
        joseki: rom.joseki_count(),
        pattern_bytes,
        variant_bytes,
        bytes_per_pattern_1: pattern_bytes + variant_bytes,
        bytes_per_pattern_8: pattern_bytes + 8.0 * variant_bytes,
        bytes_per_pattern_stored: per(pat_total + var_total, patterns),
        per_class,
    }
}

/// Human-readable table.
pub fn stats(rom: &Rom<'_>) -> String {
    let s = compute(rom);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "image {} bytes, format v{}{}",
        s.total_bytes,
        rom.format_version(),
        if rom.is_stripped() { ", stripped" } else { "" }
    );
    let _ = writeln!(
        o,
        "classes {}  patterns {}  variants {}  lenses {}  sequences {}  joseki {}",
        s.classes, s.patterns, s.variants, s.lenses, s.sequences, s.joseki
    );
    let _ = writeln!(
        o,
        "bytes per pattern: {:.1} (1 orientation), {:.1} (8 orientations), {:.1} (as stored)",
        s.bytes_per_pattern_1, s.bytes_per_pattern_8, s.bytes_per_pattern_stored
    );
    let _ = writeln!(
        o,
        "  of which {:.1} pattern data + {:.1} per variant (entry + masks)",
        s.pattern_bytes, s.variant_bytes
    );
    // The fast kernel's tables are optional and not pattern data: reported apart.
    if let Some((_, _, len)) = s.sections.iter().find(|(n, _, _)| *n == "sliced") {
        let _ = writeln!(
            o,
            "  plus {:.1} per stored variant in the optional bit-sliced tables (`--no-sliced` leaves them out)",
            *len as f64 / s.variants.max(1) as f64
        );
    }
    for class in rom.classes() {
        if let Some(t) = rom.class_lut(&class) {
            let (blocks, sets) = t.counts();
            let _ = writeln!(
                o,
                "  plus a {}-byte 3x3 lookup table for `{}` ({blocks} blocks, {sets} entry sets; `--no-lut` leaves it out)",
                t.len(),
                class.name()
            );
        }
    }
    let _ = writeln!(o, "\n{:<16} {:>8} {:>8}", "section", "offset", "bytes");
    for (n, off, len) in &s.sections {
        let _ = writeln!(o, "{n:<16} {off:>8} {len:>8}");
    }
    if !s.per_class.is_empty() {
        let _ = writeln!(
            o,
            "\n{:<20} {:<8} {:>5} {:>8} {:>8} {:>8}",
            "class", "kernel", "words", "patterns", "variants", "bytes"
        );
        for (n, k, w, p, v, b) in &s.per_class {
            let _ = writeln!(o, "{n:<20} {k:<8} {w:>5} {p:>8} {v:>8} {b:>8}");
        }
    }
    o
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// One JSON object (no trailing newline).
pub fn stats_json(rom: &Rom<'_>) -> String {
    let s = compute(rom);
    let sections: Vec<String> = s
        .sections
        .iter()
        .map(|(n, off, len)| {
            format!(
                "{{\"name\":{},\"offset\":{off},\"bytes\":{len}}}",
                json_str(n)
            )
        })
        .collect();
    let classes: Vec<String> = s
        .per_class
        .iter()
        .map(|(n, k, w, p, v, b)| {
            format!("{{\"name\":{},\"kernel\":{},\"words\":{w},\"patterns\":{p},\"variants\":{v},\"bytes\":{b}}}", json_str(n), json_str(k))
        })
        .collect();
    format!(
        "{{\"bytes\":{},\"format_version\":{},\"stripped\":{},\"classes\":{},\"patterns\":{},\"variants\":{},\"lenses\":{},\"sequences\":{},\"joseki\":{},\"bytes_per_pattern_1\":{:.2},\"bytes_per_pattern_8\":{:.2},\"bytes_per_pattern_stored\":{:.2},\"sections\":[{}],\"per_class\":[{}]}}",
        s.total_bytes,
        rom.format_version(),
        rom.is_stripped(),
        s.classes,
        s.patterns,
        s.variants,
        s.lenses,
        s.sequences,
        s.joseki,
        s.bytes_per_pattern_1,
        s.bytes_per_pattern_8,
        s.bytes_per_pattern_stored,
        sections.join(","),
        classes.join(",")
    )
}

/// Where the bytes of a compact-profile image go.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompactStats {
    pub total_bytes: usize,
    /// `(section name, offset, bytes)` for each present section.
    pub sections: Vec<(&'static str, usize, usize)>,
    pub classes: usize,
    /// Pattern records (glob headers included), as `patterns` counts them in a fast image.
    pub patterns: usize,
    pub lenses: usize,
    /// Bytes of all pattern records.
    pub pattern_bytes: usize,
    /// `(part, bytes)` of the pattern records, in record order.
    pub parts: Vec<(&'static str, usize)>,
    /// `(cells form, records, bytes)`.
    pub cell_forms: Vec<(&'static str, usize, usize)>,
    /// `(name, patterns, record bytes)` per class.
    pub per_class: Vec<(String, usize, usize)>,
}

/// Figures of a compact image: every record byte is attributed to one part.
pub fn compute_compact(c: &lens_vm::rom::CompactRom<'_>) -> CompactStats {
    use lens_vm::rom::compact::{H_CELLS_SHIFT, RECORD_PARTS};
    let rom = c.rom();
    let mut s = CompactStats {
        total_bytes: rom.as_bytes().len(),
        classes: c.class_count(),
        lenses: rom.lens_count(),
        ..Default::default()
    };
    for sec in Section::ALL {
        if let Some((off, len)) = rom.section_span(sec) {
            s.sections.push((sec.name(), off, len));
        }
    }
    let mut parts = [0usize; 9];
    let mut forms = [(0usize, 0usize); 4];
    for class in c.classes() {
        let (mut n, mut bytes) = (0, 0);
        for (_, r) in class.records() {
            n += 1;
            bytes += r.len;
            for (k, &b) in r.part_bytes.iter().enumerate() {
                parts[k] += b as usize;
            }
            let f = (r.header >> H_CELLS_SHIFT) as usize;
            forms[f].0 += 1;
            forms[f].1 += r.part_bytes[8] as usize;
        }
        s.patterns += n;
        s.pattern_bytes += bytes;
        s.per_class
            .push((rom.string(class.name_index()).to_string(), n, bytes));
    }
    s.parts = RECORD_PARTS.iter().copied().zip(parts).collect();
    s.cell_forms = ["none", "dense", "sparse", "box"]
        .iter()
        .zip(forms)
        .map(|(n, (k, b))| (*n, k, b))
        .collect();
    s
}

fn per(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Human-readable figures of a compact image, with the breakdown of every pattern byte.
pub fn compact_stats(c: &lens_vm::rom::CompactRom<'_>) -> String {
    let s = compute_compact(c);
    let rom = c.rom();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "image {} bytes, format v{}, compact profile{}",
        s.total_bytes,
        rom.format_version(),
        if rom.is_stripped() { ", stripped" } else { "" }
    );
    let _ = writeln!(
        o,
        "classes {}  patterns {}  lenses {}  sequences {}  joseki {}",
        s.classes,
        s.patterns,
        s.lenses,
        rom.sequence_count(),
        rom.joseki_count()
    );
    let _ = writeln!(
        o,
        "bytes per pattern: {:.1} pattern data (records), {:.1} whole image",
        per(s.pattern_bytes, s.patterns),
        per(s.total_bytes, s.patterns)
    );
    let _ = writeln!(
        o,
        "\n{:<22} {:>8} {:>12}",
        "pattern data", "bytes", "per pattern"
    );
    for (n, b) in &s.parts {
        let _ = writeln!(o, "{n:<22} {b:>8} {:>12.2}", per(*b, s.patterns));
    }
    let _ = writeln!(o, "\n{:<22} {:>8} {:>8}", "cells form", "records", "bytes");
    for (n, k, b) in &s.cell_forms {
        let _ = writeln!(o, "{n:<22} {k:>8} {b:>8}");
    }
    let _ = writeln!(
        o,
        "\n{:<18} {:>8} {:>8} {:>12}",
        "section", "offset", "bytes", "per pattern"
    );
    let table = lens_vm::rom::HEADER_LEN + lens_vm::rom::TABLE_ENTRY_LEN * s.sections.len();
    let _ = writeln!(
        o,
        "{:<18} {:>8} {table:>8} {:>12.2}",
        "header + table",
        0,
        per(table, s.patterns)
    );
    for (n, off, len) in &s.sections {
        let _ = writeln!(
            o,
            "{n:<18} {off:>8} {len:>8} {:>12.2}",
            per(*len, s.patterns)
        );
    }
    let _ = writeln!(
        o,
        "\n{:<20} {:>8} {:>8} {:>12}",
        "class", "patterns", "bytes", "per pattern"
    );
    for (n, p, b) in &s.per_class {
        let _ = writeln!(o, "{n:<20} {p:>8} {b:>8} {:>12.2}", per(*b, *p));
    }
    o
}

/// One JSON object (no trailing newline) of [`compute_compact`].
pub fn compact_stats_json(c: &lens_vm::rom::CompactRom<'_>) -> String {
    let s = compute_compact(c);
    let list = |items: Vec<String>| items.join(",");
    format!(
        "{{\"bytes\":{},\"format_version\":{},\"profile\":\"compact\",\"stripped\":{},\"classes\":{},\"patterns\":{},\"lenses\":{},\"pattern_bytes\":{},\"bytes_per_pattern_data\":{:.2},\"bytes_per_pattern_image\":{:.2},\"parts\":[{}],\"cell_forms\":[{}],\"sections\":[{}],\"per_class\":[{}]}}",
        s.total_bytes,
        c.rom().format_version(),
        c.rom().is_stripped(),
        s.classes,
        s.patterns,
        s.lenses,
        s.pattern_bytes,
        per(s.pattern_bytes, s.patterns),
        per(s.total_bytes, s.patterns),
        list(
            s.parts
                .iter()
                .map(|(n, b)| format!("{{\"part\":{},\"bytes\":{b}}}", json_str(n)))
                .collect()
        ),
        list(
            s.cell_forms
                .iter()
                .map(|(n, k, b)| format!(
                    "{{\"form\":{},\"records\":{k},\"bytes\":{b}}}",
                    json_str(n)
                ))
                .collect()
        ),
        list(
            s.sections
                .iter()
                .map(|(n, off, len)| format!(
                    "{{\"name\":{},\"offset\":{off},\"bytes\":{len}}}",
                    json_str(n)
                ))
                .collect()
        ),
        list(
            s.per_class
                .iter()
                .map(|(n, p, b)| format!(
                    "{{\"name\":{},\"patterns\":{p},\"bytes\":{b}}}",
                    json_str(n)
                ))
                .collect()
        ),
    )
}
