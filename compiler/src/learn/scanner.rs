//! Reading a learned class's matches per candidate move: the class (shapes) scanned by the VM,
//! plus its features class ([`super::features`]) computed on the host when it is the standard
//! one, or scanned by the VM too when it is not.

use std::sync::Arc;

use lens_vm::board::{Board, Colour};
use lens_vm::matching::{DEFAULT_PATTERN, ScanPlan};
use lens_vm::{ClassId, Match, MatchBuf, MatchResult, Orientations, Query, Rom, Scratch};

use super::features::{HostFeatures, PolicyHost, features_class};

/// `(point index y * 32 + x, pattern id, value)` of a move suggestion.
pub type Found = (u16, u32, i32);

/// How the features class of a learned class is scanned.
#[derive(Clone, Debug)]
enum FeatureScan {
    /// No features class in the image (or the features are patterns of the class itself).
    None,
    /// The standard features, computed on the host.
    Host(Box<HostFeatures>),
    /// Another features class, scanned by the VM like the class (and why).
    Vm(ClassId, Option<ScanPlan>, String),
}

/// What a [`Scanner`] needs from the image, prepared once (scan plans, the host features) and
/// shared by the scanners of several threads.
#[derive(Clone, Debug)]
pub struct ScanSetup {
    class: ClassId,
    plan: Option<ScanPlan>,
    features: FeatureScan,
}

impl ScanSetup {
    /// The setup of learned class `class` of `rom`, with its features class
    /// (`<class>_features`) when the image has one.
    pub fn new(rom: &Rom<'_>, class: ClassId) -> ScanSetup {
        let features = rom
            .class(class)
            .and_then(|c| rom.class_by_name(&features_class(c.name())))
            .map_or(FeatureScan::None, |f| match HostFeatures::new(rom, f) {
                Ok(h) => FeatureScan::Host(Box::new(h)),
                Err(why) => FeatureScan::Vm(f, ScanPlan::new(rom, f), why),
            });
        ScanSetup {
            class,
            plan: ScanPlan::new(rom, class),
            features,
        }
    }

    /// The classes whose patterns score a move: the class, then its features class if any.
    pub fn classes(&self) -> Vec<ClassId> {
        let mut out = vec![self.class];
        match &self.features {
            FeatureScan::None => {}
            FeatureScan::Host(h) => out.push(h.class()),
            FeatureScan::Vm(c, _, _) => out.push(*c),
        }
        out
    }

    /// Whether the features class is computed on the host.
    pub fn host_features(&self) -> bool {
        matches!(self.features, FeatureScan::Host(_))
    }

    /// Why the features class is scanned by the VM, when it is.
    pub fn vm_features_reason(&self) -> Option<&str> {
        match &self.features {
            FeatureScan::Vm(_, _, why) => Some(why),
            _ => None,
        }
    }
}

/// Scans a learned class over a board and hands out, per candidate move, the distinct
/// patterns that suggest it. Reuses its buffers; one per thread.
pub struct Scanner<'r> {
    rom: Rom<'r>,
    setup: Arc<ScanSetup>,
    /// The feature predicates: set it for each position before [`Scanner::scan`].
    pub host: PolicyHost,
    scratch: Box<Scratch>,
    slots: Vec<Match>,
    /// The class's suggestions, then the features', each sorted; `found` merges them.
    shapes: Vec<Found>,
    features: Vec<Found>,
    found: Vec<Found>,
}

impl<'r> Scanner<'r> {
    /// A scanner of `class` of `rom` with a setup of its own.
    pub fn new(rom: Rom<'r>, class: ClassId) -> Scanner<'r> {
        let setup = Arc::new(ScanSetup::new(&rom, class));
        Scanner::with_setup(rom, setup)
    }

    /// A scanner using `setup` (`ScanSetup::new(&rom, class)`, built once for several threads).
    pub fn with_setup(rom: Rom<'r>, setup: Arc<ScanSetup>) -> Scanner<'r> {
        Scanner {
            host: PolicyHost::new(&rom),
            rom,
            setup,
            scratch: Box::new(Scratch::new()),
            slots: vec![Match::EMPTY; 1 << 14],
            shapes: Vec::new(),
            features: Vec::new(),
            found: Vec::new(),
        }
    }

    /// The setup scanned.
    pub fn setup(&self) -> &ScanSetup {
        &self.setup
    }

    /// Scans `board` for `colour` to move (the host must be set for this position) and returns
    /// every move suggestion of the class and its features class, each pattern once per point,
    /// sorted by point then pattern.
    pub fn scan(&mut self, board: &Board, colour: Colour) -> &[Found] {
        let setup = Arc::clone(&self.setup);
        let mut shapes = std::mem::take(&mut self.shapes);
        self.scan_class(setup.class, setup.plan.as_ref(), board, colour, &mut shapes);
        let mut features = std::mem::take(&mut self.features);
        features.clear();
        match &setup.features {
            FeatureScan::None => {}
            FeatureScan::Host(h) => h.add(board, colour, &self.host, &mut features),
            FeatureScan::Vm(c, plan, _) => {
                self.scan_class(*c, plan.as_ref(), board, colour, &mut features)
            }
        }
        merge(&shapes, &features, &mut self.found);
        self.shapes = shapes;
        self.features = features;
        &self.found
    }

    /// The move suggestions of one class, sorted by point then pattern, deduplicated.
    fn scan_class(
        &mut self,
        class: ClassId,
        plan: Option<&ScanPlan>,
        board: &Board,
        colour: Colour,
        out: &mut Vec<Found>,
    ) {
        let q = Query {
            class,
            perspective: colour,
            orientations: Orientations::All,
        };
        let len = loop {
            let mut buf = MatchBuf::new(&mut self.slots);
            match plan {
                Some(plan) => plan.scan(
                    &self.rom,
                    board,
                    &self.host,
                    &q,
                    &mut self.scratch,
                    &mut buf,
                ),
                None => self
                    .rom
                    .scan(board, &self.host, &q, &mut self.scratch, &mut buf),
            };
            let (len, dropped) = (buf.len(), buf.dropped());
            if dropped == 0 {
                break len;
            }
            let grown = (len + dropped).next_power_of_two();
            self.slots.resize(grown, Match::EMPTY);
        };
        out.clear();
        for m in &self.slots[..len] {
            if m.pattern == DEFAULT_PATTERN {
                continue;
            }
            if let MatchResult::Move { x, y, value, .. } = m.result {
                out.push(((y * 32 + x) as u16, m.pattern, value));
            }
        }
        // A scan reports point by point (row by row); the results of `=> *` patterns are their
        // foci, so only each point's few matches need sorting. Other results: sort them all.
        if out.is_sorted_by_key(|f| f.0) {
            for run in out.chunk_by_mut(|a, b| a.0 == b.0) {
                run.sort_unstable();
            }
        } else {
            out.sort_unstable();
        }
        out.dedup();
    }
}

/// `a` and `b` (each sorted) merged into `out`, sorted, without duplicates.
fn merge(a: &[Found], b: &[Found], out: &mut Vec<Found>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}
