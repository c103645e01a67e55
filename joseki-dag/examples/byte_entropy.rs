//! Dev tool: how far Compact version 3's byte stream is from its own entropy, the bound an
//! entropy layer over it can reach (version 4 codes it order-0): bytes/move of the version 3
//! blob, of its order-0 entropy, and of its order-1 entropy (each byte given the one before,
//! tables not counted), for the union of the books given. The same for the Packed blob: a
//! range coder's output is close to uniform bytes, so its order-0 entropy is about its length
//! (no byte-level entropy layer can shrink it).
//! `cargo run --release -p lens-joseki --example byte_entropy -- A.sgf [B.sgf ...]`
use lens_joseki::codec::encode_compact_with_skip;
use lens_joseki::{Conventions, Tree, import_sgf_into};

/// Order-0 information of `b`, in bytes.
fn order0(b: &[u8]) -> f64 {
    let mut c = [0u64; 256];
    for &x in b {
        c[x as usize] += 1;
    }
    let n = b.len() as f64;
    let bits: f64 = c
        .iter()
        .filter(|&&k| k > 0)
        .map(|&k| -(k as f64 / n).log2() * k as f64)
        .sum();
    bits / 8.0
}

/// Order-1 information of `b` (each byte given the previous one), in bytes.
fn order1(b: &[u8]) -> f64 {
    let mut c = vec![[0u64; 256]; 256];
    let mut prev = 0u8;
    for &x in b {
        c[prev as usize][x as usize] += 1;
        prev = x;
    }
    let mut bits = 0.0;
    for row in &c {
        let n: u64 = row.iter().sum();
        for &k in row.iter().filter(|&&k| k > 0) {
            bits -= (k as f64 / n as f64).log2() * k as f64;
        }
    }
    bits / 8.0
}

fn main() {
    let mut union = Tree::new();
    for f in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&f).unwrap();
        import_sgf_into(&mut union, &text, Conventions::Auto).unwrap();
    }
    union.canonicalize();
    let m = union.tree_moves() as f64;
    let b = encode_compact_with_skip(&union, usize::MAX);
    println!(
        "moves {m}: Compact v3 {:.3} B/move; order-0 {:.3}; order-1 (no tables) {:.3}",
        b.len() as f64 / m,
        order0(&b) / m,
        order1(&b) / m
    );
    let p = lens_joseki::encode(&union, lens_joseki::Encoding::Packed);
    println!(
        "Packed {:.3} B/move; its order-0 {:.3}; order-1 (no tables) {:.3}",
        p.len() as f64 / m,
        order0(&p) / m,
        order1(&p) / m
    );
}
