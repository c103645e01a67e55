//! The move features besides shapes.
//!
//! Features are ordinary patterns (so their values live in the `.lens` source like the
//! shapes'), of a class of their own beside the shapes: `policy_features` next to `policy`
//! ([`features_class`]). The edge line and capture/atari are built-in tests; the distance to the
//! last two moves and self-atari are engine predicates, declared as `extern`s and answered by
//! [`PolicyHost`]. Any engine can scan both classes with the VM; [`HostFeatures`] instead
//! computes the features class on the host, once per point, when its patterns are exactly the
//! ones [`feature_patterns`] writes (checked against a compile of them), which is what makes
//! learning and prediction fast: the VM would run every feature's `where` at every empty point.

use lens_vm::board::{Board, BoardView, Colour, Point};
use lens_vm::rom::RawResult;
use lens_vm::{ClassId, Host, HostArg, Rom};

/// `extern` declarations of the predicates the feature patterns use.
pub const EXTERNS: &str = "\
// Engine predicates of the move features (lens_compiler::learn::PolicyHost answers them).
// Gridcular distance d = dx + dy + max(dx, dy) from the point to the last move / the move
// before it (no such move, or a pass: never true); self_atari: playing the point leaves the
// new string with one liberty and captures nothing.
extern last_dist(point, int) cost 2;
extern prev_dist(point, int) cost 2;
extern self_atari(point) cost 6;
";

/// The class holding the feature patterns of the learned class `class`.
pub fn features_class(class: &str) -> String {
    format!("{class}_features")
}

/// The declarations of the learned class `class` (shapes) and of its features class.
pub fn class_declarations(class: &str) -> String {
    let features = features_class(class);
    format!(
        "class {class} {{\n    mode all;\n    focus empty;\n    field 7x7;\n    orient all;\n}}\n\n\
         // The move features: a move's score is the sum over both classes. An engine may scan\n\
         // this class with the VM or compute it itself (lens_compiler::learn::HostFeatures\n\
         // does, once per point, while these patterns keep the definitions written here).\n\
         class {features} {{\n    mode all;\n    focus empty;\n    field 3x3;\n    orient all;\n}}\n"
    )
}

/// Distance levels with a feature of their own (Coulom: 2..=16; farther is the baseline).
pub const DIST_LEVELS: std::ops::RangeInclusive<i32> = 2..=16;

/// The feature patterns of the learned class `class`, in its features class (values 0:
/// `lensc learn` fills them in).
pub fn feature_patterns(class: &str) -> String {
    let class = features_class(class);
    let mut s = String::new();
    let mut one = |name: &str, group: &str, diagram: &str, legend: &str, test: &str| {
        s.push_str(&format!("pattern {name} : {class} {{\n"));
        s.push_str(&format!("    diagram {{ {diagram} }}\n"));
        if !legend.is_empty() {
            s.push_str(&format!("    legend {{ {legend} }}\n"));
        }
        s.push_str(&format!("    where {test};\n"));
        s.push_str(&format!("    attr group = \"{group}\";\n"));
        s.push_str("    => * 0;\n}\n\n");
    };
    for l in 1..=4 {
        one(
            &format!("line_{l}"),
            "line",
            "*",
            "",
            &format!("line(*) == {l}"),
        );
    }
    one("capture", "capture", "*", "", "nbr_atari(*, foe)");
    one("atari", "atari", "* A", "A = foe;", "libs(A) == 2");
    one("self_atari", "self_atari", "*", "", "self_atari(*)");
    for d in DIST_LEVELS {
        one(
            &format!("last_dist_{d}"),
            "last_dist",
            "*",
            "",
            &format!("last_dist(*, {d})"),
        );
    }
    for d in DIST_LEVELS {
        one(
            &format!("prev_dist_{d}"),
            "prev_dist",
            "*",
            "",
            &format!("prev_dist(*, {d})"),
        );
    }
    s
}

/// Gridcular distance (Coulom, Pachi): `dx + dy + max(dx, dy)`.
pub fn gridcular(a: (i32, i32), b: (i32, i32)) -> i32 {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    dx + dy + dx.max(dy)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Predicate {
    LastDist,
    PrevDist,
    SelfAtari,
    Unknown,
}

/// Answers the feature predicates for one position. Build it once per ROM
/// ([`PolicyHost::new`]), then [`PolicyHost::set_position`] before each scan.
#[derive(Clone, Debug)]
pub struct PolicyHost {
    predicates: Vec<Predicate>,
    last: Option<(i32, i32)>,
    prev: Option<(i32, i32)>,
    /// Self-atari points for the side to move, bit `y * 32 + x`.
    self_atari: [u32; 32],
}

impl PolicyHost {
    /// Resolves the ROM's externs by name; unknown ones answer 0.
    pub fn new(rom: &Rom<'_>) -> PolicyHost {
        let predicates = (0..rom.extern_count())
            .map(|i| match rom.extern_info(i).0 {
                "last_dist" => Predicate::LastDist,
                "prev_dist" => Predicate::PrevDist,
                "self_atari" => Predicate::SelfAtari,
                _ => Predicate::Unknown,
            })
            .collect();
        PolicyHost {
            predicates,
            last: None,
            prev: None,
            self_atari: [0; 32],
        }
    }

    /// The position to answer for: the last two moves and, for `colour` to move, the
    /// self-atari points (found by playing and undoing on `board`, which is left as it was).
    pub fn set_position(
        &mut self,
        board: &mut Board,
        colour: Colour,
        last: Option<(i32, i32)>,
        prev: Option<(i32, i32)>,
    ) {
        self.last = last;
        self.prev = prev;
        self.self_atari = [0; 32];
        if !self.predicates.contains(&Predicate::SelfAtari) {
            return;
        }
        let n = board.size() as i32;
        for y in 0..n {
            for x in 0..n {
                if is_self_atari(board, colour, x, y) {
                    self.self_atari[y as usize] |= 1 << x;
                }
            }
        }
    }
}

impl PolicyHost {
    /// Whether `(x, y)` is a self-atari for the side to move of the last
    /// [`PolicyHost::set_position`].
    pub fn self_atari_at(&self, x: i32, y: i32) -> bool {
        (0..32).contains(&x) && (0..32).contains(&y) && self.self_atari[y as usize] >> x & 1 == 1
    }
}

/// Whether `colour` playing at `(x, y)` is legal and leaves its string with one liberty
/// without capturing anything. Cheap checks first: a point with two empty neighbours never is.
pub fn is_self_atari(board: &mut Board, colour: Colour, x: i32, y: i32) -> bool {
    if board.get(x, y) != Point::Empty {
        return false;
    }
    let empties = lens_vm::geometry::DIRECTIONS
        .iter()
        .filter(|(dx, dy)| board.get(x + dx, y + dy) == Point::Empty)
        .count();
    if empties >= 2 || board.check_play(colour, x, y).is_err() {
        return false;
    }
    let captures = lens_vm::geometry::DIRECTIONS.iter().any(|(dx, dy)| {
        board.get(x + dx, y + dy) == Point::Stone(colour.opponent())
            && board.liberties(x + dx, y + dy) == 1
    });
    if captures || board.play(colour, x, y).is_err() {
        return false;
    }
    let one = board.liberties(x, y) == 1;
    board.undo();
    one
}

impl Host for PolicyHost {
    fn call(&self, index: u16, args: &[HostArg]) -> i32 {
        let point = match args.first() {
            Some(HostArg::Point(x, y)) => (*x, *y),
            _ => return 0,
        };
        let int = match args.get(1) {
            Some(HostArg::Int(v)) => *v,
            _ => 0,
        };
        match self.predicates.get(index as usize) {
            Some(Predicate::LastDist) => {
                self.last.is_some_and(|m| gridcular(m, point) == int) as i32
            }
            Some(Predicate::PrevDist) => {
                self.prev.is_some_and(|m| gridcular(m, point) == int) as i32
            }
            Some(Predicate::SelfAtari) => self.self_atari_at(point.0, point.1) as i32,
            _ => 0,
        }
    }
}

/// A feature the host computes, read from its pattern's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Line(usize),
    Capture,
    Atari,
    SelfAtari,
    LastDist(usize),
    PrevDist(usize),
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        let level = |rest: &str| rest.parse::<usize>().ok();
        Some(match name {
            "capture" => Kind::Capture,
            "atari" => Kind::Atari,
            "self_atari" => Kind::SelfAtari,
            _ => {
                if let Some(l) = name.strip_prefix("line_").and_then(level) {
                    Kind::Line(l)
                } else if let Some(d) = name.strip_prefix("last_dist_").and_then(level) {
                    Kind::LastDist(d)
                } else if let Some(d) = name.strip_prefix("prev_dist_").and_then(level) {
                    Kind::PrevDist(d)
                } else {
                    return None;
                }
            }
        })
    }
}

/// `(pattern id, value)` of a feature the class has.
type Slot = Option<(u32, i32)>;

/// Distance slots: gridcular distances are at most `3 * 31`.
const DIST_SLOTS: usize = 96;

/// The features class of a learned class, computed on the host: per empty point, the same
/// patterns (and values) as the VM's scan of the class gives, with one pass over the board
/// instead of every feature's `where` at every point. Built by [`HostFeatures::new`] only for
/// a class whose every pattern is one [`feature_patterns`] writes, compiled to the same cells,
/// tests and result (so the `.lens` text stays the definition); a test compares the two on
/// real games.
#[derive(Clone, Debug)]
pub struct HostFeatures {
    class: ClassId,
    line: [Slot; 5],
    capture: Slot,
    atari: Slot,
    self_atari: Slot,
    last: [Slot; DIST_SLOTS],
    prev: [Slot; DIST_SLOTS],
}

impl HostFeatures {
    /// The host computation of class `features` of `rom` (named `<class>_features`), or why
    /// not, when one of its patterns is not exactly a standard feature (another name, an edited
    /// test, a stripped image without names, externs declared in another order): scan that
    /// class with the VM then.
    pub fn new(rom: &Rom<'_>, features: ClassId) -> Result<HostFeatures, String> {
        let info = rom.class(features).ok_or("no such class")?;
        let name = info.name();
        let base = name
            .strip_suffix("_features")
            .ok_or_else(|| format!("`{name}` is not named `<class>_features`"))?;
        let text = format!(
            "{EXTERNS}\n{}\n{}",
            class_declarations(base),
            feature_patterns(base)
        );
        let (_, compiled) = crate::compile_str("features.lens", &text, &crate::Options::default());
        let bytes = compiled
            .map_err(|d| format!("internal: the standard features do not compile: {d:?}"))?
            .rom;
        let canon = Rom::from_bytes(&bytes).map_err(|e| format!("internal: {e}"))?;
        let canon_info = canon
            .class_by_name(name)
            .and_then(|c| canon.class(c))
            .ok_or("internal: no features class")?;
        if (info.mode(), info.focus(), info.orient())
            != (canon_info.mode(), canon_info.focus(), canon_info.orient())
        {
            return Err(format!("`{name}` differs in mode, focus or orientations"));
        }
        let canon_ids: std::collections::BTreeMap<&str, u32> = (canon_info.first_pattern()
            ..canon_info.first_pattern() + canon_info.pattern_count())
            .filter_map(|p| Some((canon.pattern_name(canon.pattern(p).id())?, p)))
            .collect();
        let mut out = HostFeatures {
            class: features,
            line: [None; 5],
            capture: None,
            atari: None,
            self_atari: None,
            last: [None; DIST_SLOTS],
            prev: [None; DIST_SLOTS],
        };
        // `p` indexes the pattern table; matches name patterns by `id`.
        for p in info.first_pattern()..info.first_pattern() + info.pattern_count() {
            let id = rom.pattern(p).id();
            let pname = rom
                .pattern_name(id)
                .ok_or("the image has no pattern names")?;
            let not = || format!("pattern `{pname}` is not a standard feature");
            let &q = canon_ids.get(pname).ok_or_else(not)?;
            let value = same_pattern(rom, p, &canon, q).ok_or_else(not)?;
            let slot = Some((id, value));
            let target = match Kind::of(pname).ok_or_else(not)? {
                Kind::Line(l) => out.line.get_mut(l),
                Kind::Capture => Some(&mut out.capture),
                Kind::Atari => Some(&mut out.atari),
                Kind::SelfAtari => Some(&mut out.self_atari),
                Kind::LastDist(d) => out.last.get_mut(d),
                Kind::PrevDist(d) => out.prev.get_mut(d),
            };
            *target.ok_or_else(not)? = slot;
        }
        Ok(out)
    }

    /// The features class.
    pub fn class(&self) -> ClassId {
        self.class
    }

    /// Appends `(point index y * 32 + x, pattern id, value)` of every feature matching an empty
    /// point of `board` with `colour` to move (`host` set for this position), in board order
    /// and by pattern id within a point.
    pub fn add(
        &self,
        board: &Board,
        colour: Colour,
        host: &PolicyHost,
        out: &mut Vec<(u16, u32, i32)>,
    ) {
        let n = board.size() as i32;
        let foe = Point::Stone(colour.opponent());
        let dist = |m: Option<(i32, i32)>, table: &[Slot; DIST_SLOTS], x: i32, y: i32| {
            m.and_then(|m| table.get(gridcular(m, (x, y)) as usize).copied().flatten())
        };
        let mut here: Vec<(u32, i32)> = Vec::with_capacity(8);
        for y in 0..n {
            for x in 0..n {
                if board.get(x, y) != Point::Empty {
                    continue;
                }
                here.clear();
                let line = x.min(y).min(n - 1 - x).min(n - 1 - y) as usize + 1;
                here.extend(self.line.get(line).copied().flatten());
                let (mut one, mut two) = (false, false);
                for (dx, dy) in lens_vm::geometry::DIRECTIONS {
                    if board.get(x + dx, y + dy) == foe {
                        match board.liberties(x + dx, y + dy) {
                            1 => one = true,
                            2 => two = true,
                            _ => {}
                        }
                    }
                }
                if one {
                    here.extend(self.capture);
                }
                if two {
                    here.extend(self.atari);
                }
                if host.self_atari_at(x, y) {
                    here.extend(self.self_atari);
                }
                here.extend(dist(host.last, &self.last, x, y));
                here.extend(dist(host.prev, &self.prev, x, y));
                here.sort_unstable();
                let pt = (y * 32 + x) as u16;
                out.extend(here.iter().map(|&(p, v)| (pt, p, v)));
            }
        }
    }
}

/// Whether pattern `p` of `rom` and `q` of `canon` have the same cells, tests and result
/// point: then `p`'s value.
fn same_pattern(rom: &Rom<'_>, p: u32, canon: &Rom<'_>, q: u32) -> Option<i32> {
    let (a, b) = (rom.pattern(p), canon.pattern(q));
    if !a.cells().eq(b.cells()) || !a.tests().eq(b.tests()) {
        return None;
    }
    match (a.result()?, b.result()?) {
        (
            RawResult::Move {
                dx,
                dy,
                value,
                bits,
                sequence: None,
            },
            RawResult::Move {
                dx: cx,
                dy: cy,
                bits: cbits,
                sequence: None,
                ..
            },
        ) if (dx, dy, bits) == (cx, cy, cbits) => Some(value),
        _ => None,
    }
}
