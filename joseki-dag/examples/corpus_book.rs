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
//!
//! `--dictionary` shapes the book like a hand-made joseki dictionary instead (see [`dictionary`]):
//! every corner line turned into one corner and one side of its diagonal, so lines share their
//! openings and branch most near the root; lines of 8-25 moves that end when play leaves the
//! corner (a long gap, or a tenuki answered elsewhere), a tenuki sometimes recorded as a pass
//! and played on; now and then the move elsewhere that ended the line (a far move) and a setup
//! node; `MA`/`SQ` marks and English comments; no whole-board openings. Deterministic: the same
//! games give the same file.

use sgf_parse::go::{self, Prop};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// (black, point or pass).
type GameMove = (bool, Option<(u8, u8)>);

/// A line's step: a move, or setup stones (black, point).
#[derive(Clone, PartialEq, Eq)]
enum Item {
    Move(GameMove),
    Setup(Vec<(bool, (u8, u8))>),
}

/// A trie of lines: children by step, in first-seen order.
#[derive(Default)]
struct Node {
    children: Vec<(Item, Node)>,
}

impl Node {
    fn add(&mut self, line: &[GameMove]) {
        let items: Vec<Item> = line.iter().map(|&m| Item::Move(m)).collect();
        self.add_items(&items);
    }

    fn add_items(&mut self, line: &[Item]) {
        let Some((m, rest)) = line.split_first() else {
            return;
        };
        let k = match self.children.iter().position(|(c, _)| c == m) {
            Some(k) => k,
            None => {
                self.children.push((m.clone(), Node::default()));
                self.children.len() - 1
            }
        };
        self.children[k].1.add_items(rest);
    }

    /// (moves, setup nodes, passes) below this node.
    fn count(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for (item, n) in &self.children {
            match item {
                Item::Move((_, None)) => (c.0, c.2) = (c.0 + 1, c.2 + 1),
                Item::Move(_) => c.0 += 1,
                Item::Setup(_) => c.1 += 1,
            }
            let d = n.count();
            c = (c.0 + d.0, c.1 + d.1, c.2 + d.2);
        }
        c
    }
}

/// Comments of the dictionary mode: ordinary English, some starting with a GNU Go class letter.
const REMARKS: [&str; 8] = [
    "This move is covered as the usual reply; see the next diagram.",
    "Joseki. Black has the corner, White the outside.",
    "Slow, but solid.",
    "The usual move: it keeps the corner territory.",
    "Tenuki is possible here.",
    "A trick play: the natural reply fails.",
    "Simple and good for both sides.",
    "Urgent: otherwise the cut hurts.",
];

fn sgf_point(out: &mut String, (x, y): (u8, u8)) {
    let _ = write!(out, "[{}{}]", (b'a' + x) as char, (b'a' + y) as char);
}

/// The trie as SGF variations; `dictionary` picks the marks and comments of that mode (the
/// default mode's output stays as it was).
fn write_sgf(node: &Node, out: &mut String, serial: &mut usize, dictionary: bool) {
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
        let (item, child) = &n.children[i];
        if n.children.len() > 1 {
            out.push('(');
        }
        out.push(';');
        *serial += 1;
        match item {
            Item::Setup(stones) => {
                for (black, tag) in [(true, "AB"), (false, "AW")] {
                    let mut first = true;
                    for &(_, p) in stones.iter().filter(|s| s.0 == black) {
                        if first {
                            out.push_str(tag);
                            first = false;
                        }
                        sgf_point(out, p);
                    }
                }
                out.push_str("C[Suppose this stone is already in place.]");
            }
            Item::Move((black, at)) => {
                out.push(if *black { 'B' } else { 'W' });
                match at {
                    Some(p) => sgf_point(out, *p),
                    None => out.push_str("[]"),
                }
                if !dictionary {
                    if *serial % 7 == 0
                        && let Some(p) = at
                    {
                        out.push_str("MA");
                        sgf_point(out, *p);
                    }
                    if *serial % 23 == 0 {
                        out.push_str(
                            "C[This move is covered as the usual reply; see the next diagram.]",
                        );
                    }
                } else {
                    if let Some(&p) = at.as_ref().filter(|_| *serial % 5 == 0) {
                        out.push_str(if *serial % 2 == 0 { "MA" } else { "SQ" });
                        sgf_point(out, p);
                    }
                    if *serial % 13 == 0 {
                        let _ = write!(out, "C[{}]", REMARKS[*serial / 13 % REMARKS.len()]);
                    }
                }
            }
        }
        if *serial % 10 == 0 {
            out.push('\n');
        }
        stack.push((child, 0));
    }
}

/// A deterministic hash of a few numbers (splitmix64), for the dictionary mode's choices.
fn mix(values: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &v in values {
        h = (h ^ v).wrapping_add(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
    }
    h
}

/// Game moves since the last move of a line after which play has left the corner.
const GAP: usize = 16;

/// The dictionary mode's lines from one game: per corner, in that corner's frame turned into
/// the top-left corner (SGF `aa`) with the line's first move on or above the diagonal (x >= y).
///
/// A line starts at the corner's first move and takes the moves in the corner's quarter (10x10)
/// in game order. It ends at its length (8-25, drawn per line), or when play leaves the corner:
/// after the line's first two moves, a gap of more than `GAP` moves elsewhere; or a tenuki
/// answered elsewhere (the same side plays twice in the corner), which 1 line in 4 records as a
/// pass and plays on. A line that ends at a gap takes, 1 time in 6, the move elsewhere that
/// ended it (anywhere on the board: far moves) and the corner move after it. 1 line in 12 gets a
/// setup node after its third to sixth move: a stone that a later move of the game puts in the
/// corner.
fn dictionary(moves: &[GameMove], game: u64) -> Vec<Vec<Item>> {
    let mut lines = Vec::new();
    for corner in 0..4u8 {
        let local = |(x, y): (u8, u8)| {
            let cx = if corner & 1 != 0 { 18 - x } else { x };
            let cy = if corner & 2 != 0 { 18 - y } else { y };
            (cx, cy)
        };
        let inside = |p: (u8, u8)| {
            let (x, y) = local(p);
            x < 10 && y < 10
        };
        let h = |k: u64| mix(&[game, corner as u64, k]);
        let cap = 10 + (h(0) % 21) as usize;
        let mut line: Vec<GameMove> = Vec::new();
        let mut last = 0usize; // index in `moves` of the line's last move
        let mut far: Option<usize> = None; // index of the move elsewhere to add
        for (i, &(black, at)) in moves.iter().enumerate() {
            let Some(p) = at.filter(|&p| inside(p)) else {
                continue;
            };
            if line.len() >= cap {
                break;
            }
            // Play left the corner: the line ends there, or (1 in 2) the book plays on.
            if line.len() >= 2 && i - last > GAP && h(50 + line.len() as u64) % 3 == 0 {
                if h(1) % 6 == 0 {
                    far = Some(last + 1);
                }
                break;
            }
            if line.last().is_some_and(|l| l.0 == black) {
                if h(2 + line.len() as u64) % 2 != 0 {
                    break;
                }
                line.push((!black, None)); // the other side played elsewhere
            }
            line.push((black, Some(p)));
            last = i;
        }
        if let Some(f) = far {
            // The move elsewhere, then the corner's next move if it alternates.
            let (black, at) = moves[f];
            if let Some(p) = at
                && line.last().is_some_and(|l| l.0 != black)
            {
                line.push((black, Some(p)));
                if let Some(&(b2, Some(q))) = moves[f + 1..].iter().find(|m| {
                    m.1.is_some_and(|q| inside(q) && !line.iter().any(|l| l.1 == Some(q)))
                }) && b2 != black
                {
                    line.push((b2, Some(q)));
                }
            }
        }
        if line.len() < 2 {
            continue;
        }
        // To the top-left corner, first move on or above the diagonal.
        let first = line[0].1.map(local).expect("a line starts with a move");
        let flip = first.0 < first.1;
        let turn = |p: (u8, u8)| {
            let (x, y) = local(p);
            if flip { (y, x) } else { (x, y) }
        };
        let mut items: Vec<Item> = line
            .iter()
            .map(|&(b, at)| Item::Move((b, at.map(turn))))
            .collect();
        if h(100) % 12 == 0 && items.len() > 6 {
            let k = 3 + (h(101) % 4) as usize;
            // A stone the game plays in the corner later, not on the line's points.
            let used: Vec<(u8, u8)> = line.iter().filter_map(|m| m.1).collect();
            if let Some(&(b, Some(q))) = moves[last + 1..]
                .iter()
                .find(|m| m.1.is_some_and(|q| inside(q) && !used.contains(&q)))
            {
                items.insert(k, Item::Setup(vec![(b, turn(q))]));
            }
        }
        lines.push(items);
    }
    lines
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut output) = (None, None);
    let (mut corner_moves, mut opening, mut games) = (30usize, 40usize, usize::MAX);
    let mut dict = false;
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
            "--dictionary" => dict = true,
            _ if dir.is_none() => dir = Some(a),
            _ => output = Some(a),
        }
    }
    let (Some(dir), Some(output)) = (dir, output) else {
        eprintln!(
            "usage: corpus_book GAMES_DIR OUT.sgf [--dictionary] [--corner-moves N] [--opening N] [--games N]"
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
    for (gi, f) in files.iter().enumerate() {
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
        if dict {
            for line in dictionary(&moves, gi as u64) {
                root.add_items(&line);
                lines += 1;
            }
            continue;
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
    let name = if dict {
        "Joseki dictionary from the corners of game records"
    } else {
        "Corner sequences of game records"
    };
    let mut sgf = format!("(;GM[1]FF[4]SZ[19]GN[{name}]\n");
    let mut serial = 0;
    write_sgf(&root, &mut sgf, &mut serial, dict);
    sgf.push_str(")\n");
    std::fs::write(&output, sgf).expect("writable output");
    let (moves, setups, passes) = root.count();
    eprintln!(
        "{output}: {} games ({sizes:?} by size), {lines} lines, {moves} moves ({passes} passes), \
         {setups} setup nodes",
        files.len(),
    );
}
