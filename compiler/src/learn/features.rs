//! The move features besides shapes, and reading a class's matches per candidate move.
//!
//! Features are ordinary patterns of the learned class (so their values live in the `.lens`
//! source like the shapes'): the edge line and capture/atari are built-in tests; the distance
//! to the last two moves and self-atari are engine predicates, declared as `extern`s and
//! answered by [`PolicyHost`]. Any engine that uses a learned class implements the same three
//! predicates (or uses [`PolicyHost`]).

use lens_vm::board::{Board, BoardView, Colour, Point};
use lens_vm::matching::{DEFAULT_PATTERN, ScanPlan};
use lens_vm::{
    ClassId, Host, HostArg, Match, MatchBuf, MatchResult, Orientations, Query, Rom, Scratch,
};

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

/// Distance levels with a feature of their own (Coulom: 2..=16; farther is the baseline).
pub const DIST_LEVELS: std::ops::RangeInclusive<i32> = 2..=16;

/// The feature patterns of a learned class `class` (values 0: `lensc learn` fills them in).
pub fn feature_patterns(class: &str) -> String {
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
            Some(Predicate::SelfAtari) => {
                let (x, y) = point;
                ((0..32).contains(&x)
                    && (0..32).contains(&y)
                    && self.self_atari[y as usize] >> x & 1 == 1) as i32
            }
            _ => 0,
        }
    }
}

/// Scans one class over a board and hands out, per legal candidate move, the distinct patterns
/// that suggest it. Reuses its buffers; one per thread.
pub struct Scanner<'r> {
    rom: Rom<'r>,
    class: ClassId,
    plan: Plan<'r>,
    pub host: PolicyHost,
    scratch: Box<Scratch>,
    slots: Vec<Match>,
    /// `(point index y * 32 + x, pattern id, value)` of the last scan, sorted and deduplicated.
    found: Vec<(u16, u32, i32)>,
}

/// The scan plan of a [`Scanner`]: its own, or one shared by the threads of a scan.
enum Plan<'r> {
    Own(Option<ScanPlan>),
    Shared(Option<&'r ScanPlan>),
}

impl<'r> Scanner<'r> {
    pub fn new(rom: Rom<'r>, class: ClassId) -> Scanner<'r> {
        let plan = Plan::Own(ScanPlan::new(&rom, class));
        Scanner::with(rom, class, plan)
    }

    /// A scanner using `plan` (`ScanPlan::new(&rom, class)`, built once for several threads).
    pub fn with_plan(rom: Rom<'r>, class: ClassId, plan: Option<&'r ScanPlan>) -> Scanner<'r> {
        Scanner::with(rom, class, Plan::Shared(plan))
    }

    fn with(rom: Rom<'r>, class: ClassId, plan: Plan<'r>) -> Scanner<'r> {
        Scanner {
            plan,
            host: PolicyHost::new(&rom),
            rom,
            class,
            scratch: Box::new(Scratch::new()),
            slots: vec![Match::EMPTY; 1 << 14],
            found: Vec::new(),
        }
    }

    /// Scans `board` for `colour` to move (the host must be set for this position) and returns
    /// `(point index y * 32 + x, pattern id, value)` for every move suggestion, each pattern
    /// once per point, sorted by point then pattern.
    pub fn scan(&mut self, board: &Board, colour: Colour) -> &[(u16, u32, i32)] {
        let q = Query {
            class: self.class,
            perspective: colour,
            orientations: Orientations::All,
        };
        let len = loop {
            let mut out = MatchBuf::new(&mut self.slots);
            let plan = match &self.plan {
                Plan::Own(p) => p.as_ref(),
                Plan::Shared(p) => *p,
            };
            match plan {
                Some(plan) => plan.scan(
                    &self.rom,
                    board,
                    &self.host,
                    &q,
                    &mut self.scratch,
                    &mut out,
                ),
                None => self
                    .rom
                    .scan(board, &self.host, &q, &mut self.scratch, &mut out),
            };
            let (len, dropped) = (out.len(), out.dropped());
            if dropped == 0 {
                break len;
            }
            let grown = (len + dropped).next_power_of_two();
            self.slots.resize(grown, Match::EMPTY);
        };
        self.found.clear();
        for m in &self.slots[..len] {
            if m.pattern == DEFAULT_PATTERN {
                continue;
            }
            if let MatchResult::Move { x, y, value, .. } = m.result {
                self.found.push(((y * 32 + x) as u16, m.pattern, value));
            }
        }
        // A scan reports point by point (row by row); the results of `=> *` patterns are their
        // foci, so only each point's few matches need sorting. Other results: sort them all.
        if self.found.is_sorted_by_key(|f| f.0) {
            for run in self.found.chunk_by_mut(|a, b| a.0 == b.0) {
                run.sort_unstable();
            }
        } else {
            self.found.sort_unstable();
        }
        self.found.dedup();
        &self.found
    }
}
