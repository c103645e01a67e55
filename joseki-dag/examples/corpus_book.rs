//! A large joseki dictionary assembled from game records, to measure at scale: every corner of
//! every game gives one line (the game's moves in that quarter board, a pass where the same
//! side plays there twice), and every game its opening on the whole board; lines share their
//! prefixes in one SGF tree. Some moves carry `MA` marks and English comments, so the file
//! looks like a hand-made dictionary, not like GNU Go's.
//!
//! ```sh
//! cargo run --release -p lens-joseki --example corpus_book -- ../shared/data/gnugo/corpus book.sgf
//! lensc joseki stats book.sgf
//! ```
//!
//! Options: `--corner-moves N` (moves per corner line, default 30), `--opening N` (moves of the
//! whole-board line, default 40; 0: none), `--games N` (at most N games). The output is
//! derived from its input: keep it beside the data, not in the repository.

use sgf_parse::go::{self, Prop};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// (black, point or pass).
type GameMove = (bool, Option<(u8, u8)>);

/// A trie of lines: children by (black, point or pass), in first-seen order.
#[derive(Default)]
struct Node {
    children: Vec<(GameMove, Node)>,
}

impl Node {
    fn add(&mut self, line: &[GameMove]) {
        let Some((&m, rest)) = line.split_first() else {
            return;
        };
        let k = match self.children.iter().position(|(c, _)| *c == m) {
            Some(k) => k,
            None => {
                self.children.push((m, Node::default()));
                self.children.len() - 1
            }
        };
        self.children[k].1.add(rest);
    }

    fn count(&self) -> usize {
        self.children.iter().map(|(_, n)| 1 + n.count()).sum()
    }
}

fn write_sgf(node: &Node, out: &mut String, serial: &mut usize) {
    // Iterative: (node, next child index).
    let mut stack: Vec<(&Node, usize)> = vec![(node, 0)];
    while let Some((n, i)) = stack.pop() {
        if i > 0 && n.children.len() > 1 {
            out.push(')');
        }
        if i == n.children.len() {
            continue;
        }
        stack.push((n, i + 1));
        let ((black, at), child) = &n.children[i];
        if n.children.len() > 1 {
            out.push('(');
        }
        out.push(';');
        out.push(if *black { 'B' } else { 'W' });
        match at {
            Some((x, y)) => {
                let _ = write!(out, "[{}{}]", (b'a' + x) as char, (b'a' + y) as char);
            }
            None => out.push_str("[]"),
        }
        *serial += 1;
        if *serial % 7 == 0
            && let Some((x, y)) = at
        {
            let _ = write!(out, "MA[{}{}]", (b'a' + x) as char, (b'a' + y) as char);
        }
        if *serial % 23 == 0 {
            out.push_str("C[This move is covered as the usual reply; see the next diagram.]");
        }
        if *serial % 10 == 0 {
            out.push('\n');
        }
        stack.push((child, 0));
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut output) = (None, None);
    let (mut corner_moves, mut opening, mut games) = (30usize, 40usize, usize::MAX);
    while let Some(a) = args.next() {
        let mut num = |what: &str| -> usize {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match a.as_str() {
            "--corner-moves" => corner_moves = num("--corner-moves"),
            "--opening" => opening = num("--opening"),
            "--games" => games = num("--games"),
            _ if dir.is_none() => dir = Some(a),
            _ => output = Some(a),
        }
    }
    let (Some(dir), Some(output)) = (dir, output) else {
        eprintln!(
            "usage: corpus_book GAMES_DIR OUT.sgf [--corner-moves N] [--opening N] [--games N]"
        );
        std::process::exit(2);
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    files.truncate(games);
    let mut root = Node::default();
    let mut lines = 0;
    let mut sizes = BTreeMap::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(trees) = go::parse(&text) else {
            continue;
        };
        let Some(game) = trees.first() else { continue };
        let mut size = 19u8;
        if let Some(Prop::SZ((w, _))) = game.get_property("SZ") {
            size = *w;
        }
        *sizes.entry(size).or_insert(0) += 1;
        if size != 19 {
            continue;
        }
        // The main line's moves.
        let mut moves: Vec<GameMove> = Vec::new();
        let mut node = Some(game);
        while let Some(n) = node {
            for p in n.properties() {
                match p {
                    Prop::B(m) | Prop::W(m) => {
                        let black = matches!(p, Prop::B(_));
                        let at = match m {
                            go::Move::Move(q) if q.x < 19 && q.y < 19 => Some((q.x, q.y)),
                            _ => None,
                        };
                        moves.push((black, at));
                    }
                    _ => {}
                }
            }
            node = n.children().next();
        }
        if opening > 0 {
            root.add(&moves[..moves.len().min(opening)]);
            lines += 1;
        }
        for corner in 0..4u8 {
            let inside = |(x, y): (u8, u8)| {
                let cx = if corner & 1 != 0 { 18 - x } else { x };
                let cy = if corner & 2 != 0 { 18 - y } else { y };
                cx < 10 && cy < 10
            };
            let mut line: Vec<GameMove> = Vec::new();
            for &(black, at) in &moves {
                let Some(p) = at.filter(|&p| inside(p)) else {
                    continue;
                };
                if line.len() >= corner_moves {
                    break;
                }
                if line.last().is_some_and(|l| l.0 == black) {
                    line.push((!black, None)); // the other side played elsewhere
                }
                line.push((black, Some(p)));
            }
            if line.len() >= 2 {
                root.add(&line);
                lines += 1;
            }
        }
    }
    let mut sgf = String::from("(;GM[1]FF[4]SZ[19]GN[Corner sequences of game records]\n");
    let mut serial = 0;
    write_sgf(&root, &mut sgf, &mut serial);
    sgf.push_str(")\n");
    std::fs::write(&output, sgf).expect("writable output");
    eprintln!(
        "{output}: {} games ({sizes:?} by size), {lines} lines, {} moves",
        files.len(),
        root.count()
    );
}
