//! Dev tool: bytes/move of every encoding on the data files and their union, Fotland's figures
//! against the reference figures' per-file table, entry classes, and what informs the 1.08 goal.
//! `cargo run --release -p lens-joseki --example measure [DATA_DIR]`
use lens_joseki::codec::encode_compact_with_space_of;
use lens_joseki::stats::{self, EntryClasses, RESEARCH_FILES};
use lens_joseki::{Conventions, Encoding, Tree, decode, encode, import_sgf_into};
use std::path::PathBuf;

fn import(texts: &[&str], merge: bool) -> Tree {
    let mut t = Tree::with_options(19, merge);
    for s in texts {
        import_sgf_into(&mut t, s, Conventions::Auto).unwrap();
    }
    t.canonicalize();
    t
}

fn pct(ours: f64, theirs: f64) -> String {
    format!("{:+.1}%", 100.0 * (ours / theirs - 1.0))
}

fn main() {
    let d = PathBuf::from(std::env::args().nth(1).unwrap_or("../shared/data".into()));
    let mut files = Vec::new();
    for (set, dir) in [("gnugo", "gnugo/joseki"), ("pachi", "pachi/joseki")] {
        let mut ps: Vec<PathBuf> = std::fs::read_dir(d.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        ps.sort();
        for p in ps {
            files.push((
                format!("{set}_{}", p.file_stem().unwrap().to_string_lossy()),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    let all: Vec<&str> = files.iter().map(|f| f.1.as_str()).collect();
    let family = |set: &str| -> Vec<&str> {
        files
            .iter()
            .filter(|f| f.0.starts_with(set))
            .map(|f| f.1.as_str())
            .collect()
    };
    let mut trees: Vec<(String, Tree)> = files
        .iter()
        .map(|(n, t)| (n.clone(), import(&[t], true)))
        .collect();
    trees.push(("union".into(), import(&all, true)));

    println!(
        "== bytes/move per encoding (cmp: Fotland as the reference figures count it; lk: mean bytes parsed per lookup)"
    );
    for (n, t) in &trees {
        let m = t.tree_moves() as f64;
        print!("{n:<22} {:>5}", t.tree_moves());
        for e in Encoding::WALKABLE {
            let b = encode(t, e);
            let s = stats::encoding_stats(t, &b);
            let c = stats::entry_classes(&b).unwrap();
            let cmp = match e {
                Encoding::Fotland => format!(
                    "cmp {:.3}, ",
                    stats::research_comparable_bytes(&c) as f64 / m
                ),
                _ => String::new(),
            };
            print!(
                "  {} {:>5} {:.3} ({cmp}lk {:.0})",
                e.name(),
                b.len(),
                b.len() as f64 / m,
                s.parsed_per_lookup
            );
            assert_eq!(&decode(&b).unwrap(), t);
        }
        let b = encode(t, Encoding::Packed);
        let t0 = std::time::Instant::now();
        assert_eq!(&decode(&b).unwrap(), t);
        println!(
            "  packed {:>5} {:.3} ({:.1} ms)",
            b.len(),
            b.len() as f64 / m,
            t0.elapsed().as_secs_f64() * 1e3
        );
    }

    println!("\n== Fotland (a) against the reference figures' per-file table (ours / reference)");
    println!(
        "{:<20} {:>11} {:>9} {:>9} {:>7} {:>9}  {:>22}  {:>22}",
        "file",
        "moves",
        "leaves",
        "depth",
        "passes",
        "typed",
        "F:tree (no merge)",
        "F:posdag (merged)"
    );
    for (name, text) in &files {
        let Some(r) = RESEARCH_FILES.iter().find(|r| r.name == name) else {
            continue;
        };
        let plain = import(&[text], false);
        let merged = import(&[text], true);
        let (leaves, depth) = stats::shape(&plain);
        let ts = stats::tree_stats(&plain);
        let cmp = |t: &Tree| {
            let c = stats::entry_classes(&encode(t, Encoding::Fotland)).unwrap();
            stats::research_comparable_bytes(&c) as f64 / t.tree_moves() as f64
        };
        let (a, b) = (cmp(&plain), cmp(&merged));
        println!(
            "{name:<20} {:>5}/{:<5} {:>4}/{:<4} {:>4}/{:<4} {:>3}/{:<3} {:>4}/{:<4}  {a:.3}/{:.3} {:>7}  {b:.3}/{:.3} {:>7}",
            plain.tree_moves(),
            r.moves,
            leaves,
            r.leaves,
            depth,
            r.max_depth,
            ts.passes,
            r.passes,
            ts.typed,
            r.typed,
            r.tree,
            pct(a, r.tree),
            r.posdag,
            pct(b, r.posdag),
        );
    }

    // The research's two family rows (its "Data sets" and "Faithful-format details" tables).
    println!(
        "\n== Fotland (a), families as one book, against the reference figures (ours / reference)"
    );
    for (r, r_one, r_esc) in [
        (&stats::RESEARCH_FAMILIES[0], 68.5, 2.6),
        (&stats::RESEARCH_FAMILIES[1], 88.1, 3.0),
    ] {
        let set = r.name;
        let plain = import(&family(set), false);
        let merged = import(&family(set), true);
        let (leaves, depth) = stats::shape(&plain);
        let ts = stats::tree_stats(&plain);
        let figures = |t: &Tree| {
            let c = stats::entry_classes(&encode(t, Encoding::Fotland)).unwrap();
            let n: usize = c.classes.iter().map(|k| k.entries).sum();
            let one =
                c.get("table hit").unwrap().entries + c.get("table hit: pass").unwrap().entries;
            (
                stats::research_comparable_bytes(&c) as f64 / t.tree_moves() as f64,
                100.0 * one as f64 / n as f64,
                100.0 * c.get("escape").unwrap().entries as f64 / n as f64,
            )
        };
        let (a, one, esc) = figures(&plain);
        let (b, _, _) = figures(&merged);
        println!(
            "{set}: moves {}/{} leaves {leaves}/{} depth {depth}/{} passes {}/{} typed {}/{}; F:tree {a:.3}/{:.3} {}, F:posdag {b:.3}/{:.3} {}; 1-byte {one:.1}%/{r_one}% escapes {esc:.1}%/{r_esc}%",
            plain.tree_moves(),
            r.moves,
            r.leaves,
            r.max_depth,
            ts.passes,
            r.passes,
            ts.typed,
            r.typed,
            r.tree,
            pct(a, r.tree),
            r.posdag,
            pct(b, r.posdag),
        );
    }

    println!("\n== Fotland entry classes (merged DAG): entries / bytes");
    let print_classes = |name: &str, c: &EntryClasses| {
        print!("{name:<20} hdr {:>3}", c.header_bytes);
        for k in &c.classes {
            if k.entries > 0 {
                print!(" | {} {}/{}", k.name, k.entries, k.bytes);
            }
        }
        println!(
            " | pointers {}/{} B{}",
            c.pointers,
            c.pointer_bytes,
            if c.skip_bytes + c.prefix_bytes > 0 {
                format!(", skip {} B, prefixes {} B", c.skip_bytes, c.prefix_bytes)
            } else {
                String::new()
            }
        );
    };
    for (n, t) in &trees {
        print_classes(
            n,
            &stats::entry_classes(&encode(t, Encoding::Fotland)).unwrap(),
        );
    }
    println!("\n== Compact (b) entry classes: entries / bytes");
    for (n, t) in &trees {
        print_classes(
            n,
            &stats::entry_classes(&encode(t, Encoding::Compact)).unwrap(),
        );
    }

    println!("\n== Compact (b): code space (per-blob tables) against entries, bytes/move");
    let gnugo = import(&family("gnugo"), true);
    let pachi = import(&family("pachi"), true);
    let mut sets: Vec<(String, &Tree)> = trees.iter().map(|(n, t)| (n.clone(), t)).collect();
    sets.push(("gnugo (7 files)".into(), &gnugo));
    sets.push(("pachi (4 files)".into(), &pachi));
    for (n, t) in &sets {
        let b = encode(t, Encoding::Compact);
        let c = stats::entry_classes(&b).unwrap();
        let m = t.tree_moves() as f64;
        // Without skip fields: the layout the reference figures' J248pairs figure measures.
        let ns = lens_joseki::codec::encode_compact_with_skip(t, usize::MAX);
        let nc = stats::entry_classes(&ns).unwrap();
        println!(
            "{n:<20} {:>5} moves, total {:>5} = header+tables {:>4} + entries {:>5} (skip fields {:>3}): {:.3} B/move, entries only {:.3}; no skip fields {:.3}, entries only {:.3}",
            t.tree_moves(),
            b.len(),
            c.header_bytes,
            c.entry_bytes(),
            c.skip_bytes,
            b.len() as f64 / m,
            c.entry_bytes() as f64 / m,
            ns.len() as f64 / m,
            nc.entry_bytes() as f64 / m,
        );
    }

    println!("\n== Compact (b) with tables trained on the other family (entries only, bytes/move)");
    for (train_name, train, test_name, test) in [
        ("gnugo", &gnugo, "pachi", &pachi),
        ("pachi", &pachi, "gnugo", &gnugo),
        (
            "union",
            &trees.last().unwrap().1,
            "union",
            &trees.last().unwrap().1,
        ),
    ] {
        let own = encode(test, Encoding::Compact);
        let own_c = stats::entry_classes(&own).unwrap();
        let (b, space) = encode_compact_with_space_of(train, test);
        assert_eq!(&decode(&b).unwrap(), test);
        let c = stats::entry_classes(&b).unwrap();
        let m = test.tree_moves() as f64;
        println!(
            "{test_name} with {train_name}'s tables ({space} B): entries {:.3} B/move (own tables: {:.3}, own total {:.3})",
            c.entry_bytes() as f64 / m,
            own_c.entry_bytes() as f64 / m,
            own.len() as f64 / m,
        );
    }
    // Every file with the other family's tables.
    for (n, t) in &trees {
        let train = if n.starts_with("gnugo") {
            &pachi
        } else if n.starts_with("pachi") {
            &gnugo
        } else {
            continue;
        };
        let (b, _) = encode_compact_with_space_of(train, t);
        let c = stats::entry_classes(&b).unwrap();
        let own = stats::entry_classes(&encode(t, Encoding::Compact)).unwrap();
        let m = t.tree_moves() as f64;
        println!(
            "  {n:<20} entries, other family's tables {:.3}, own {:.3}",
            c.entry_bytes() as f64 / m,
            own.entry_bytes() as f64 / m
        );
    }

    // Parent-relative points (measuring only): the same Compact layout over offsets from the
    // previous point on the line, on plain trees (a DAG's shared list has several parents).
    println!(
        "\n== Compact (b) on plain trees: absolute points against parent-relative (bytes/move)"
    );
    for (n, texts) in [
        ("gnugo (7 files)", family("gnugo")),
        ("pachi (4 files)", family("pachi")),
        ("union", all.clone()),
    ] {
        let plain = import(&texts, false);
        let rel = stats::parent_relative_copy(&plain).unwrap();
        let m = plain.tree_moves() as f64;
        let (a, r) = (
            encode(&plain, Encoding::Compact),
            encode(&rel, Encoding::Compact),
        );
        let (ca, cr) = (
            stats::entry_classes(&a).unwrap(),
            stats::entry_classes(&r).unwrap(),
        );
        let pairs = |c: &EntryClasses| c.get("code: pair (2 moves)").unwrap().entries;
        let esc = |c: &EntryClasses| c.get("escape").unwrap().entries;
        println!(
            "{n:<16} absolute {:.3} (pairs {}, escapes {}), parent-relative {:.3} (pairs {}, escapes {})",
            a.len() as f64 / m,
            pairs(&ca),
            esc(&ca),
            r.len() as f64 / m,
            pairs(&cr),
            esc(&cr),
        );
    }
}
