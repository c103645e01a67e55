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

/// A deliberately naive board (flood fills, no incremental state) with the same rules, the
/// oracle for differential tests of legality, captures and ko.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NaiveBoard {
    pub size: i32,
    pub cells: Vec<Option<Colour>>,
    /// The point `ko.1` may not play at next.
    pub ko: Option<((i32, i32), Colour)>,
}

impl NaiveBoard {
    pub fn new(size: u8) -> NaiveBoard {
        NaiveBoard {
            size: size as i32,
            cells: vec![None; size as usize * size as usize],
            ko: None,
        }
    }

    fn at(&self, x: i32, y: i32) -> Option<Option<Colour>> {
        ((0..self.size).contains(&x) && (0..self.size).contains(&y))
            .then(|| self.cells[(y * self.size + x) as usize])
    }

    /// Stones and liberty count of the string at `(x, y)`.
    fn string(&self, x: i32, y: i32) -> (Vec<(i32, i32)>, usize) {
        let c = self.at(x, y).flatten().unwrap();
        let mut stones = vec![(x, y)];
        let mut libs = Vec::new();
        let mut i = 0;
        while i < stones.len() {
            let (sx, sy) = stones[i];
            i += 1;
            for (dx, dy) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
                let q = (sx + dx, sy + dy);
                match self.at(q.0, q.1) {
                    Some(None) if !libs.contains(&q) => libs.push(q),
                    Some(Some(c2)) if c2 == c && !stones.contains(&q) => stones.push(q),
                    _ => {}
                }
            }
        }
        (stones, libs.len())
    }

    /// Same contract as `Board::play`, returning the error as a string tag.
    pub fn play(&mut self, c: Colour, x: i32, y: i32) -> Result<(), &'static str> {
        match self.at(x, y) {
            None => return Err("off"),
            Some(Some(_)) => return Err("occupied"),
            Some(None) => {}
        }
        if self.ko == Some(((x, y), c)) {
            return Err("ko");
        }
        let saved = self.clone();
        self.cells[(y * self.size + x) as usize] = Some(c);
        let mut captured = Vec::new();
        for (dx, dy) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if self.at(nx, ny) == Some(Some(c.opponent())) {
                let (stones, libs) = self.string(nx, ny);
                if libs == 0 {
                    for (sx, sy) in stones {
                        self.cells[(sy * self.size + sx) as usize] = None;
                        captured.push((sx, sy));
                    }
                }
            }
        }
        let (own, own_libs) = self.string(x, y);
        if own_libs == 0 {
            *self = saved;
            return Err("suicide");
        }
        self.ko = (captured.len() == 1 && own.len() == 1 && own_libs == 1)
            .then(|| (captured[0], c.opponent()));
        Ok(())
    }

    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Compares with the real board: stones, liberties, ko.
    pub fn assert_same(&self, b: &Board) {
        for y in 0..self.size {
            for x in 0..self.size {
                let expect = match self.cells[(y * self.size + x) as usize] {
                    None => Point::Empty,
                    Some(c) => Point::Stone(c),
                };
                assert_eq!(b.point(x, y), expect, "point ({x},{y})\n{b}");
                let libs = if expect == Point::Empty {
                    0
                } else {
                    self.string(x, y).1 as u16
                };
                assert_eq!(b.liberties(x, y), libs, "liberties ({x},{y})\n{b}");
            }
        }
        assert_eq!(b.ko_point(), self.ko.map(|k| k.0), "ko point\n{b}");
        assert_eq!(b.ko_colour(), self.ko.map(|k| k.1), "ko colour\n{b}");
    }
}
