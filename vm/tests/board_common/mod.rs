//! From-scratch recomputations the incremental board is checked against (tests only).
#![allow(dead_code)]

use lens_vm::board::{Board, BoardView, Colour, Point, zobrist_keys};

/// Liberties of the string at `(x, y)` by flood fill over `point()`.
pub fn scratch_liberties(b: &Board, x: i32, y: i32) -> u16 {
    let n = b.size() as i32;
    let Point::Stone(c) = b.point(x, y) else {
        return 0;
    };
    let mut seen = vec![false; (n * n) as usize];
    let mut lib = vec![false; (n * n) as usize];
    let mut stack = vec![(x, y)];
    seen[(y * n + x) as usize] = true;
    let mut libs = 0;
    while let Some((sx, sy)) = stack.pop() {
        for (dx, dy) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
            let (nx, ny) = (sx + dx, sy + dy);
            match b.point(nx, ny) {
                Point::Empty => {
                    let i = (ny * n + nx) as usize;
                    if !lib[i] {
                        lib[i] = true;
                        libs += 1;
                    }
                }
                Point::Stone(c2) if c2 == c => {
                    let i = (ny * n + nx) as usize;
                    if !seen[i] {
                        seen[i] = true;
                        stack.push((nx, ny));
                    }
                }
                _ => {}
            }
        }
    }
    libs
}

/// The hash recomputed from the stones, the side to move and the ko point.
pub fn scratch_hash(b: &Board) -> u64 {
    let n = b.size() as i32;
    let mut h = 0;
    for y in 0..n {
        for x in 0..n {
            if let Point::Stone(c) = b.point(x, y) {
                h ^= zobrist_keys::stone(c, x, y);
            }
        }
    }
    assert_eq!(h, b.stones_hash(), "stone hash");
    if b.to_move() == Colour::White {
        h ^= zobrist_keys::white_to_move();
    }
    if let Some((x, y)) = b.ko_point() {
        h ^= zobrist_keys::ko(x, y);
    }
    h
}

/// Asserts every incrementally kept quantity equals its recomputation.
pub fn assert_consistent(b: &Board) {
    let n = b.size() as i32;
    for y in -1..=n {
        for colour in [Colour::Black, Colour::White] {
            let mut row = 0u32;
            for x in 0..n {
                if b.point(x, y) == Point::Stone(colour) {
                    row |= 1 << x;
                }
            }
            let expect = if (0..n).contains(&y) {
                Some(row)
            } else {
                Some(0)
            };
            assert_eq!(
                b.row_bits(colour, y),
                expect,
                "row bits {colour:?} y={y}\n{b}"
            );
        }
        for x in -1..=n {
            let expect = scratch_liberties(b, x, y);
            assert_eq!(b.liberties(x, y), expect, "liberties at ({x},{y})\n{b}");
            if b.point(x, y) != Point::Empty && b.point(x, y) != Point::Off {
                assert!(expect > 0, "string without liberties at ({x},{y})\n{b}");
            }
        }
    }
    assert_eq!(b.point(-1, 0), Point::Off);
    assert_eq!(b.point(n, n - 1), Point::Off);
    assert_eq!(b.hash(), scratch_hash(b), "hash\n{b}");
}
