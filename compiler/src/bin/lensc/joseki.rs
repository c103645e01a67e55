//! `lensc joseki build|stats|next`: joseki dictionaries from SGF or text, their blobs, lookups.

use lens_joseki::{
    BoardMove, BookState, Colour, Continuation, Conventions, Detected, Encoding, Frame, MoveType,
    Rel, Tree, Walker, decode, encode, import_sgf_into, stats, text,
};
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Build a blob from SGF files, joseki text files or blobs (one union dictionary).
    Build(BuildArgs),
    /// Moves, vertices, bytes per move per encoding, 1-byte entries, bytes parsed per lookup.
    Stats(StatsArgs),
    /// The continuations after a move list, on a small board diagram of the corner.
    Next(NextArgs),
    /// Write an HTML page that walks the book by clicking (DIR/index.html).
    Explore(ExploreArgs),
}

#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub input: Input,
    /// Output directory (created).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Positions to explore at most (breadth first; the page says when the book is larger).
    #[arg(long, default_value_t = 50_000)]
    pub max_nodes: usize,
}

#[derive(clap::Args, Debug)]
pub struct Input {
    /// Inputs: `.sgf` files, joseki text (any other name; `-` reads text from stdin), blobs, or
    /// ROM images (their joseki sections).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Whose conventions give the move types in SGF files.
    #[arg(long, value_parser = ["auto", "gnugo", "pachi", "plain"], default_value = "auto")]
    pub conventions: String,
    /// Keep transpositions apart (a plain tree instead of a DAG).
    #[arg(long)]
    pub no_merge: bool,
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub input: Input,
    /// Output blob.
    #[arg(short, long)]
    pub output: PathBuf,
    /// `packed` is storage only (range coded); `lensc joseki next` and engines unpack it first.
    #[arg(long, value_parser = ["compact", "fotland", "packed"], default_value = "compact")]
    pub encoding: String,
    /// Write a ROM image holding the blob as a joseki section of this name (instead of the
    /// bare blob); engines read it with `Rom::joseki_blob(NAME)`.
    #[arg(long, value_name = "NAME")]
    pub rom: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: Input,
    /// Report each input separately, then their union (default: the union only).
    #[arg(long)]
    pub each: bool,
}

#[derive(clap::Args, Debug)]
pub struct NextArgs {
    #[command(flatten)]
    pub input: Input,
    /// Moves in the corner frame (`a1` = the corner point), black first, e.g. "d4 c6 tenuki".
    #[arg(long, short, default_value = "")]
    pub moves: String,
}

pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Build(a) => build(a),
        Command::Stats(a) => stats_cmd(a),
        Command::Next(a) => next(a),
        Command::Explore(a) => explore(a),
    }
}

fn explore(a: ExploreArgs) -> u8 {
    let tree = match load(&a.input, &mut Seen::new()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let blob = encode(&tree, Encoding::Compact);
    let walker = Walker::new(&blob).expect("a blob just encoded");
    let graph = lens_compiler::render::joseki::explore(&walker, a.max_nodes);
    let title = a
        .input
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let page = lens_compiler::render::joseki::explore_page(&format!("joseki: {title}"), &graph);
    let out = a.output.join("index.html");
    if let Err(e) = std::fs::create_dir_all(&a.output).and_then(|_| std::fs::write(&out, page)) {
        eprintln!("error: {}: {e}", out.display());
        return 2;
    }
    eprintln!(
        "{}: {} positions{}",
        out.display(),
        graph.nodes.len(),
        if graph.truncated {
            " (truncated: raise --max-nodes)"
        } else {
            ""
        }
    );
    0
}

fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut v = Vec::new();
        std::io::stdin()
            .read_to_end(&mut v)
            .map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(v);
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The conventions each SGF input was read with, for the report.
type Seen = Vec<(String, Detected)>;

/// Add one input to `tree`.
fn load_into(
    tree: &mut Tree,
    path: &Path,
    conv: Conventions,
    seen: &mut Seen,
) -> Result<(), String> {
    let bytes = read_input(path)?;
    load_bytes_into(tree, path, bytes, conv, seen)
}

fn load_bytes_into(
    tree: &mut Tree,
    path: &Path,
    bytes: Vec<u8>,
    conv: Conventions,
    seen: &mut Seen,
) -> Result<(), String> {
    let name = path.display().to_string();
    if bytes.starts_with(b"LJ") {
        let t = decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
        // Each position once (not every order of a transposition), counted as the blob's share.
        tree.merge_from(&t);
        return Ok(());
    }
    if let Ok(rom) = lens_vm::Rom::from_bytes(&bytes) {
        // A ROM image: every joseki section joins the union.
        for i in 0..rom.joseki_count() {
            let (section, blob) = rom.joseki_at(i);
            let t = decode(blob).map_err(|e| format!("{name}: joseki `{section}`: {e}"))?;
            tree.merge_from(&t);
        }
        return Ok(());
    }
    let s = String::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 text ({e})"))?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
    {
        let d =
            import_sgf_into(tree, &s, conv).map_err(|e| e.with_file(name.clone()).to_string())?;
        seen.push((name, d));
        Ok(())
    } else {
        text::parse_text_into(tree, &s).map_err(|e| format!("{name}: {e}"))
    }
}

fn conventions(s: &str) -> Conventions {
    match s {
        "gnugo" => Conventions::GnuGo,
        "pachi" => Conventions::Pachi,
        "plain" => Conventions::Plain,
        _ => Conventions::Auto,
    }
}

fn load(input: &Input, seen: &mut Seen) -> Result<Tree, String> {
    if let [one] = input.inputs.as_slice() {
        // A single blob is used as decoded (its move count stays the source tree's).
        let bytes = read_input(one)?;
        if bytes.starts_with(b"LJ") {
            return decode(&bytes).map_err(|e| format!("{}: {e}", one.display()));
        }
        let mut tree = Tree::with_options(19, !input.no_merge);
        load_bytes_into(&mut tree, one, bytes, conventions(&input.conventions), seen)?;
        tree.canonicalize();
        warn(&tree, seen);
        return Ok(tree);
    }
    let mut tree = Tree::with_options(19, !input.no_merge);
    let mut progress = crate::progress::Progress::new(input.inputs.len(), "files");
    for p in &input.inputs {
        progress.start(&p.display().to_string());
        load_into(&mut tree, p, conventions(&input.conventions), seen)?;
        progress.done();
    }
    tree.canonicalize();
    warn(&tree, seen);
    Ok(tree)
}

/// Warnings on stderr: Pachi `[override]` sections not imported, moves typed two ways.
fn warn(tree: &Tree, seen: &Seen) {
    for (name, d) in seen {
        if d.pachi_overrides > 0 {
            eprintln!(
                "warning: {name}: {} Pachi [override] sections not imported (josekifix \
                 conditions a book move cannot hold; their moves are plain book moves)",
                d.pachi_overrides
            );
        }
    }
    let conflicts = tree.type_conflicts();
    if let Some(c) = conflicts.first() {
        let order: Vec<&str> = MoveType::PRECEDENCE.iter().map(|t| t.name()).collect();
        eprintln!(
            "warning: {} moves typed two ways; kept by precedence {} (first: {} then {} {}: \
             kept {}, dropped {})",
            conflicts.len(),
            order.join(" > "),
            text::line_to(tree, c.vertex).unwrap_or_default(),
            match c.colour {
                Rel::Same => "black",
                Rel::Opposite => "white",
            },
            text::point_name(c.point),
            c.kept.name(),
            c.dropped.name()
        );
    }
}

/// One line per SGF input: the conventions its types were read with.
fn conventions_report(seen: &Seen) -> String {
    seen.iter()
        .map(|(name, d)| format!("  conventions {name}: {d}\n"))
        .collect()
}

fn build(a: BuildArgs) -> u8 {
    let tree = match load(&a.input, &mut Seen::new()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let enc = Encoding::from_name(&a.encoding).unwrap_or(Encoding::Compact);
    let blob = encode(&tree, enc);
    let image = match &a.rom {
        None => blob.clone(),
        Some(name) => lens_vm::rom::write(&lens_vm::spec::RomSpec {
            toolchain: format!("lensc {}", env!("CARGO_PKG_VERSION")),
            joseki: vec![lens_vm::spec::JosekiBlobSpec {
                name: name.clone(),
                bytes: blob.clone(),
            }],
            ..Default::default()
        }),
    };
    if let Err(e) = std::fs::write(&a.output, &image) {
        eprintln!("error: {}: {e}", a.output.display());
        return 1;
    }
    eprintln!(
        "{}: {} moves, {} bytes ({:.3} bytes/move, {})",
        a.output.display(),
        tree.tree_moves(),
        blob.len(),
        blob.len() as f64 / tree.tree_moves().max(1) as f64,
        enc.name()
    );
    0
}

fn stats_cmd(a: StatsArgs) -> u8 {
    let conv = conventions(&a.input.conventions);
    if a.each {
        for p in &a.input.inputs {
            let mut t = Tree::with_options(19, !a.input.no_merge);
            let mut seen = Seen::new();
            if let Err(e) = load_into(&mut t, p, conv, &mut seen) {
                eprintln!("error: {e}");
                return 1;
            }
            t.canonicalize();
            warn(&t, &seen);
            print!("{}", stats::report(&p.display().to_string(), &t));
            print!("{}", conventions_report(&seen));
        }
        if a.input.inputs.len() == 1 {
            return 0;
        }
    }
    let mut seen = Seen::new();
    match load(&a.input, &mut seen) {
        Ok(t) => {
            let name = if a.input.inputs.len() == 1 {
                a.input.inputs[0].display().to_string()
            } else {
                "union".into()
            };
            print!("{}", stats::report(&name, &t));
            print!("{}", conventions_report(&seen));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn next(a: NextArgs) -> u8 {
    let tree = match load(&a.input, &mut Seen::new()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // The move list is a joseki text line: parse it into corner-frame points.
    let line = match text::parse_line(&a.moves) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: --moves: {e}");
            return 1;
        }
    };
    let blob = encode(&tree, Encoding::Compact);
    let walker = Walker::new(&blob).expect("a blob just encoded");
    // Show the corner as the top-left corner of a 19x19 board, frame x = column, y = row.
    let frame = Frame::new(19, 0, false);
    let mut moves = Vec::new();
    for (k, &(black, point)) in line.iter().enumerate() {
        let at = match point {
            lens_joseki::Point::Pass => None,
            lens_joseki::Point::At { x, y } => match frame.to_board(x, y) {
                Some(at) => Some(at),
                None => {
                    eprintln!(
                        "error: --moves: move {}, `{}{y}`, is off the 19x19 board",
                        k + 1,
                        (b'a' + x - 1) as char
                    );
                    return 1;
                }
            },
        };
        moves.push(BoardMove {
            colour: if black { Colour::Black } else { Colour::White },
            at,
        });
    }
    // The side to move: the other side of the last move (a trailing `tenuki` is a move: the
    // same side then plays again in this corner).
    let to_move = match line.last() {
        Some(&(true, _)) => Colour::White,
        _ => Colour::Black,
    };
    // The engine lookup of that corner: both orientations (a position symmetric about the
    // diagonal shows both reflections of each book move), the whole board, RiscIgo's
    // rectangles.
    let mut out = [Continuation::EMPTY; 64];
    let r = walker.lookup(19, &moves, Some(0), to_move, &mut out);
    let corner = r.corners[0];
    if corner.state == BookState::OutOfBook {
        let k = corner.left_at.map_or(0, |i| i + 1);
        println!(
            "out of book at move {k} (followed {} moves)",
            corner.followed
        );
        return 0;
    }
    let conts = &out[..r.continuations.min(out.len())];
    print!("{}", diagram(&moves, conts));
    if conts.is_empty() {
        println!("end of the line: no continuation in the book");
    }
    for (k, c) in conts.iter().enumerate() {
        let who = if c.colour == Colour::Black {
            "black"
        } else {
            "white"
        };
        let at = match c.at {
            None => "tenuki".to_string(),
            Some((x, y)) => {
                let (cx, cy) = frame.to_corner(x, y).expect("on board");
                format!("{}{}", (b'a' + cx - 1) as char, cy)
            }
        };
        let kind = if c.kind == MoveType::Normal {
            String::new()
        } else {
            format!(" ({})", c.kind.name())
        };
        println!("{}: {who} {at}{kind}", label(k));
    }
    0
}

fn label(k: usize) -> char {
    const L: &[u8] = b"abcdefghijklmnpqrstuvwyzABCDEFGHIJKLMNPQRSTUVWYZ";
    L.get(k).map_or('?', |&b| b as char)
}

/// The corner drawn with row 1 at the bottom (as `a1` reads), stones `X`/`O`, labels for the
/// continuations. Big enough for every stone and label, at least 9x9.
fn diagram(moves: &[BoardMove], conts: &[Continuation]) -> String {
    let mut size = 9u8;
    for p in moves
        .iter()
        .filter_map(|m| m.at)
        .chain(conts.iter().filter_map(|c| c.at))
    {
        size = size.max(p.0 + 2).max(p.1 + 2).min(19);
    }
    let mut cells = vec![vec!['.'; size as usize]; size as usize];
    for m in moves {
        if let Some((x, y)) = m.at
            && x < size
            && y < size
        {
            cells[y as usize][x as usize] = if m.colour == Colour::Black { 'X' } else { 'O' };
        }
    }
    for (k, c) in conts.iter().enumerate() {
        if let Some((x, y)) = c.at
            && x < size
            && y < size
        {
            cells[y as usize][x as usize] = label(k);
        }
    }
    let mut s = String::new();
    for y in (0..size as usize).rev() {
        s.push_str(&format!("{:>2} ", y + 1));
        for &c in &cells[y][..size as usize] {
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("   ");
    for x in 0..size {
        s.push((b'a' + x) as char);
        s.push(' ');
    }
    s.push('\n');
    s
}
