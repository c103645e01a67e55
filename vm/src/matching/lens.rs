//! Lens evaluation: map the written endpoints onto the given board points in each of the 8
//! orientations that fit, walk the decision tree on point states, run the leaf fields' tests.

use super::{Ctx, Host, Match, MatchBuf, map_result, state};
use crate::board::{BoardView, Colour};
use crate::geometry::Orientation;
use crate::rom::{LensId, LensInfo, LensNode, Rom};

/// `naive`: ignore the tree and check every field's state cells directly (the reference).
#[allow(clippy::too_many_arguments)]
pub(crate) fn eval<B: BoardView + ?Sized, H: Host + ?Sized>(
    rom: &Rom<'_>,
    id: LensId,
    endpoints: &[(i32, i32)],
    persp: Colour,
    board: &B,
    host: &H,
    out: &mut MatchBuf<'_>,
    naive: bool,
) -> usize {
    let Some(lens) = rom.lens(id) else { return 0 };
    if endpoints.len() != lens.endpoint_count() as usize || endpoints.is_empty() {
        return 0;
    }
    let (x, y) = endpoints[0];
    let start = out.len();
    let mut produced = 0;
    for t in Orientation::ALL {
        let fits = lens
            .endpoints()
            .zip(endpoints)
            .all(|((dx, dy), &(ex, ey))| {
                let (ox, oy) = t.apply(dx as i32, dy as i32);
                (x + ox, y + oy) == (ex, ey)
            });
        if !fits {
            continue;
        }
        let ctx = Ctx {
            rom,
            board,
            host,
            persp,
            x,
            y,
        };
        let at = |dx: i8, dy: i8| {
            let (ox, oy) = t.apply(dx as i32, dy as i32);
            state(board, persp, x + ox, y + oy)
        };
        let mut emit = |f: u32, out: &mut MatchBuf<'_>| {
            let (_, _, t0, nt, r) = lens.field(f);
            if (t0..t0 + nt).all(|k| super::eval_test(rom.test(k).0, &ctx, t) != 0) {
                let m = Match {
                    pattern: f,
                    orientation: t.index(),
                    focus: (x, y),
                    result: map_result(rom.result(r), t, x, y),
                    priority: 0,
                };
                out.push(m);
                produced += 1;
            }
        };
        if naive {
            for f in 0..lens.field_count() {
                let (c0, nc, ..) = lens.field(f);
                if (c0..c0 + nc).all(|c| {
                    let (dx, dy, allowed) = rom.cell(c);
                    allowed & (1 << at(dx, dy)) != 0
                }) {
                    emit(f, out);
                }
            }
        } else {
            let leaf = walk(&lens, &at);
            if let Some((first, count)) = leaf {
                for k in first..first + count {
                    emit(lens.leaf_field(k), out);
                }
            }
        }
    }
    let _ = start;
    produced
}

fn walk(lens: &LensInfo<'_>, at: &dyn Fn(i8, i8) -> u8) -> Option<(u32, u32)> {
    let mut n = 0u32;
    // Children always follow their parent (loader-checked), so this terminates.
    for _ in 0..lens.node_count() {
        match lens.node(n) {
            LensNode::Branch { dx, dy, children } => {
                let next = children[at(dx, dy) as usize & 3];
                if next <= n {
                    return None;
                }
                n = next;
            }
            LensNode::Leaf { first, count } => return Some((first, count)),
        }
    }
    None
}
