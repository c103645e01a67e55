//! Load-time expansion (feature `alloc`), SuperEgo style: a compact image back to its
//! [`RomSpec`], then through the one writer to the fast profile's image, in memory the caller
//! owns. The result is byte for byte the image the compiler writes for the fast profile with
//! the same options (`tests/tests/rom_profiles.rs` checks this on the standard library and
//! GNU Go's databases), so every fast kernel, scan plan and table works on it unchanged.

use super::{CompactClass, CompactRom, Record};
use crate::rom::bytecode;
use crate::rom::{LensId, LensNode, RawResult, Rom, WriteError, WriteOptions};
use crate::spec::*;
use alloc::string::ToString;
use alloc::vec::Vec;

impl CompactRom<'_> {
    /// The fast profile's image of the same patterns, built at load into a buffer the caller
    /// owns: `RomBuf::from(compact.expand(&WriteOptions::COMPILER)?)` (on a cache line), then
    /// [`crate::RomBuf::rom`]. `opts.profile` is
    /// ignored (always the fast profile); the table options choose the optional sections as
    /// for the compiler. Names and spans are carried over with the `metadata` feature; without
    /// it the expanded image is stripped.
    pub fn expand(&self, opts: &WriteOptions) -> Result<Vec<u8>, WriteError> {
        let fast = WriteOptions {
            profile: crate::rom::Profile::Fast,
            ..*opts
        };
        crate::rom::try_write_with(&self.to_spec(), &fast)
    }

    /// Everything the image holds, as the compiler handed it to the writer.
    pub fn to_spec(&self) -> RomSpec {
        let rom = self.rom();
        let lists = Lists {
            results: self.results().map(result).collect(),
            tests: self
                .tests()
                .map(|(code, cost)| TestSpec {
                    expr: bytecode::to_expr(code),
                    cost,
                })
                .collect(),
        };
        let lists = &lists;
        RomSpec {
            toolchain: rom.toolchain().to_string(),
            source_hash: rom.source_hash(),
            classes: self.classes().map(|c| class(rom, lists, &c)).collect(),
            globals: (0..rom.global_count())
                .map(|i| rom.global_name(i).to_string())
                .collect(),
            externs: (0..rom.extern_count())
                .map(|i| {
                    let (name, arity, cost) = rom.extern_info(i);
                    ExternSpec {
                        name: name.to_string(),
                        arity,
                        cost,
                    }
                })
                .collect(),
            sequences: (0..rom.sequence_count() as u32)
                .map(|s| SequenceSpec {
                    nodes: rom
                        .sequence(s)
                        .map(|(at, depth)| SeqNodeSpec {
                            at: at.map(|(dx, dy)| Offset::new(dx as i16, dy as i16)),
                            depth,
                        })
                        .collect(),
                })
                .collect(),
            lenses: (0..rom.lens_count() as u32)
                .filter_map(|l| lens(rom, lists, LensId(l)))
                .collect(),
            joseki: (0..rom.joseki_count())
                .map(|i| {
                    let (name, bytes) = rom.joseki_at(i);
                    JosekiBlobSpec {
                        name: name.to_string(),
                        bytes: bytes.to_vec(),
                    }
                })
                .collect(),
            debug: self.debug(),
        }
    }

    #[cfg(feature = "metadata")]
    fn debug(&self) -> Option<DebugSpec> {
        self.metadata().map(|m| m.debug)
    }

    #[cfg(not(feature = "metadata"))]
    fn debug(&self) -> Option<DebugSpec> {
        None
    }
}

/// The shared results and tests, decoded once (records refer to them by index).
struct Lists {
    results: Vec<ResultSpec>,
    tests: Vec<TestSpec>,
}

impl Lists {
    fn test(&self, i: u32) -> TestSpec {
        self.tests.get(i as usize).cloned().unwrap_or(TestSpec {
            expr: TestExpr::Int(0),
            cost: 0,
        })
    }
    fn result(&self, i: u32) -> ResultSpec {
        self.results
            .get(i as usize)
            .copied()
            .unwrap_or(ResultSpec::Value { value: 0, bits: 0 })
    }
}

fn class(rom: &Rom<'_>, lists: &Lists, c: &CompactClass<'_>) -> ClassSpec {
    // Open globs: (header, members so far); frame 0 is the class itself.
    let mut frames: Vec<(Option<PatternSpec>, Vec<ClassNode>)> = alloc::vec![(None, Vec::new())];
    let close = |frames: &mut Vec<(Option<PatternSpec>, Vec<ClassNode>)>| {
        if let Some((Some(header), members)) = frames.pop()
            && let Some(parent) = frames.last_mut()
        {
            parent.1.push(ClassNode::Glob { header, members });
        }
    };
    for (depth, r) in c.records() {
        while frames.len() > depth + 1 {
            close(&mut frames);
        }
        let p = pattern(lists, &r);
        if r.glob_members.is_some() {
            frames.push((Some(p), Vec::new()));
        } else if let Some(top) = frames.last_mut() {
            top.1.push(ClassNode::Pattern(p));
        }
    }
    while frames.len() > 1 {
        close(&mut frames);
    }
    ClassSpec {
        name: rom.string(c.name_index()).to_string(),
        mode: c.mode(),
        focus: c.focus(),
        width: c.width(),
        height: c.height(),
        orient: c.orient(),
        default_value: c.default_value(),
        nodes: frames.pop().map(|f| f.1).unwrap_or_default(),
    }
}

fn pattern(lists: &Lists, r: &Record<'_>) -> PatternSpec {
    let (orientations, covers) = r.variants().unzip();
    let mut cells: Vec<CellSpec> = r
        .cells()
        .map(|(dx, dy, allowed)| CellSpec {
            at: Offset::new(dx as i16, dy as i16),
            allowed,
        })
        .collect();
    // The compiler lists cells in ring order, as the dense and sparse forms read them; the
    // box form reads them row by row.
    if matches!(r.cells, super::CellsForm::Box { .. }) {
        cells.sort_by_cached_key(|c| super::ring::index_of(c.at.dx as i32, c.at.dy as i32));
    }
    PatternSpec {
        id: r.id,
        priority: r.priority,
        cells,
        orientations,
        covers,
        tests: r.tests().map(|t| lists.test(t)).collect(),
        result: r.result.map(|i| lists.result(i)),
    }
}

fn result(r: RawResult) -> ResultSpec {
    let at = |dx: i8, dy: i8| Offset::new(dx as i16, dy as i16);
    match r {
        RawResult::Move {
            dx,
            dy,
            value,
            bits,
            sequence,
        } => ResultSpec::Move {
            at: at(dx, dy),
            value,
            bits,
            sequence,
        },
        RawResult::Reject { dx, dy } => ResultSpec::Reject { at: at(dx, dy) },
        RawResult::Value { value, bits } => ResultSpec::Value { value, bits },
    }
}

fn lens(rom: &Rom<'_>, lists: &Lists, id: LensId) -> Option<LensSpec> {
    let l = rom.lens(id)?;
    let cells = |first: u32, n: u32| {
        (first..first + n)
            .map(|c| {
                let (dx, dy, allowed) = rom.cell(c);
                CellSpec {
                    at: Offset::new(dx as i16, dy as i16),
                    allowed,
                }
            })
            .collect()
    };
    Some(LensSpec {
        lens_type: l.lens_type(),
        name: l.name().to_string(),
        endpoints: l
            .endpoints()
            .map(|(dx, dy)| Offset::new(dx as i16, dy as i16))
            .collect(),
        fields: (0..l.field_count())
            .map(|f| {
                let (c0, nc, t0, nt, r) = l.field(f);
                LensFieldSpec {
                    states: cells(c0, nc),
                    tests: (t0..t0 + nt).map(|t| lists.test(t)).collect(),
                    result: lists.result(r),
                }
            })
            .collect(),
        tree: (0..l.node_count())
            .map(|n| match l.node(n) {
                LensNode::Branch { dx, dy, children } => TreeNode::Branch {
                    at: Offset::new(dx as i16, dy as i16),
                    children,
                },
                LensNode::Leaf { first, count } => TreeNode::Leaf {
                    fields: (first..first + count).map(|k| l.leaf_field(k)).collect(),
                },
            })
            .collect(),
    })
}
