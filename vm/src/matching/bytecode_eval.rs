//! The test bytecode interpreter ([`crate::rom::bytecode`]): a fixed 32-slot stack, no
//! allocation. Blocks were validated by the loader; anything unexpected evaluates to 0.

use super::{Ctx, Host, HostArg, state};
use crate::board::{BoardView, Colour, Point};
use crate::geometry::Orientation;
use crate::rom::bytecode::{MAX_ARGS, MAX_STACK, Op, RawArg, args, decode};

fn colour(persp: Colour, c: u8) -> Colour {
    if c == 0 { persp } else { persp.opponent() }
}

fn is_stone<B: BoardView + ?Sized>(b: &B, x: i32, y: i32) -> bool {
    matches!(b.point(x, y), Point::Stone(_))
}

/// Evaluate one block with points mapped through `t` around the context's focus.
pub(crate) fn eval<B: BoardView + ?Sized, H: Host + ?Sized>(
    code: &[u8],
    c: &Ctx<'_, '_, B, H>,
    t: Orientation,
) -> i32 {
    let mut stack = [0i32; MAX_STACK];
    let mut sp = 0usize;
    let mut pc = 0usize;
    let b = c.board;
    let map = |dx: i8, dy: i8| {
        let (ox, oy) = t.apply(dx as i32, dy as i32);
        (c.x + ox, c.y + oy)
    };
    while pc < code.len() {
        let Ok((op, next)) = decode(code, pc) else {
            return 0;
        };
        pc = next;
        let v = match op {
            Op::Int(v) => v,
            Op::Libs(dx, dy) => {
                let (x, y) = map(dx, dy);
                b.liberties(x, y) as i32
            }
            Op::Line(dx, dy) => {
                let (x, y) = map(dx, dy);
                line(b, x, y)
            }
            Op::Atari(dx, dy) => {
                let (x, y) = map(dx, dy);
                (is_stone(b, x, y) && b.liberties(x, y) == 1) as i32
            }
            Op::NbrAtari(dx, dy, col) => {
                let (x, y) = map(dx, dy);
                let want = Point::Stone(colour(c.persp, col));
                crate::geometry::DIRECTIONS.iter().any(|&(ux, uy)| {
                    b.point(x + ux, y + uy) == want && b.liberties(x + ux, y + uy) == 1
                }) as i32
            }
            Op::Dist(dx, dy, col) => {
                let (x, y) = map(dx, dy);
                dist(b, x, y, colour(c.persp, col))
            }
            Op::Count {
                dx,
                dy,
                states,
                radius,
            } => {
                let (x, y) = map(dx, dy);
                let r = radius as i32;
                let mut n = 0;
                for qy in y - r..=y + r {
                    for qx in x - r..=x + r {
                        if states & (1 << state(b, c.persp, qx, qy)) != 0 {
                            n += 1;
                        }
                    }
                }
                n
            }
            Op::Any(dx, dy, stones) => {
                // NEMESIS ANYn: exactly n stones in the 9x9 square, the rest empty or off-board.
                let (x, y) = map(dx, dy);
                let mut n = 0;
                for qy in y - 4..=y + 4 {
                    for qx in x - 4..=x + 4 {
                        n += is_stone(b, qx, qy) as i32;
                    }
                }
                (n == stones as i32) as i32
            }
            Op::Adj(dx, dy) => {
                // NEMESIS ADJn counts the centre and its 4 orthogonal neighbours.
                let (x, y) = map(dx, dy);
                is_stone(b, x, y) as i32
                    + crate::geometry::DIRECTIONS
                        .iter()
                        .filter(|&&(ux, uy)| is_stone(b, x + ux, y + uy))
                        .count() as i32
            }
            Op::Empty8(dx, dy) => {
                // NEMESIS EMPTY8: the centre and its 8 neighbours empty or off-board.
                let (x, y) = map(dx, dy);
                let mut none = true;
                for qy in y - 1..=y + 1 {
                    for qx in x - 1..=x + 1 {
                        if is_stone(b, qx, qy) {
                            none = false;
                        }
                    }
                }
                none as i32
            }
            Op::Empty25(dx, dy) => {
                let (x, y) = map(dx, dy);
                let mut none = true;
                for qy in y - 2..=y + 2 {
                    for qx in x - 2..=x + 2 {
                        if is_stone(b, qx, qy) {
                            none = false;
                        }
                    }
                }
                none as i32
            }
            Op::Mark(dx, dy) => {
                let (x, y) = map(dx, dy);
                c.host.mark(x, y) as i32
            }
            Op::Global(i) => c.host.global(i),
            Op::Extern {
                index,
                nargs,
                args: raw,
            } => {
                let mut buf = [HostArg::Int(0); MAX_ARGS];
                let mut n = 0;
                for a in args(raw).take(MAX_ARGS) {
                    buf[n] = match a {
                        RawArg::Point(dx, dy) => {
                            let (x, y) = map(dx, dy);
                            HostArg::Point(x, y)
                        }
                        RawArg::Int(v) => HostArg::Int(v),
                        RawArg::Colour(k) => HostArg::Colour(colour(c.persp, k)),
                    };
                    n += 1;
                }
                let _ = nargs;
                c.host.call(index, &buf[..n])
            }
            Op::Not | Op::Neg => {
                if sp == 0 {
                    return 0;
                }
                sp -= 1;
                let a = stack[sp];
                if matches!(op, Op::Not) {
                    (a == 0) as i32
                } else {
                    a.wrapping_neg()
                }
            }
            Op::Bin(k) => {
                if sp < 2 {
                    return 0;
                }
                sp -= 2;
                k.apply(stack[sp], stack[sp + 1])
            }
        };
        if sp >= MAX_STACK {
            return 0;
        }
        stack[sp] = v;
        sp += 1;
    }
    if sp == 1 { stack[0] } else { 0 }
}

/// 1-based distance to the nearest edge; 0 off the board.
pub(crate) fn line<B: BoardView + ?Sized>(b: &B, x: i32, y: i32) -> i32 {
    let s = b.size() as i32;
    if x < 0 || y < 0 || x >= s || y >= s {
        return 0;
    }
    x.min(y).min(s - 1 - x).min(s - 1 - y) + 1
}

/// Manhattan distance from `(x, y)` to the nearest stone of `col`; 255 if none.
pub(crate) fn dist<B: BoardView + ?Sized>(b: &B, x: i32, y: i32, col: Colour) -> i32 {
    let s = b.size() as i32;
    let mut best = 255;
    for qy in 0..s {
        for qx in 0..s {
            if b.point(qx, qy) == Point::Stone(col) {
                best = best.min((qx - x).abs() + (qy - y).abs());
            }
        }
    }
    best
}
