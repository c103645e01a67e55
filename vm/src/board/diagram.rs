//! Text diagrams: `X` black, `O` white, `.` (or `+`) empty, whitespace between cells optional,
//! one board row per line, north first; the number of rows is the size (square, 5..=25).
//! An optional line `to_move: B` or `to_move: W` (default Black) may appear anywhere.
//! Blank lines are ignored. [`Board`]'s `Display` writes this format (cells separated by one
//! space, then a `to_move:` line), so printing and parsing round-trip.

use core::fmt;

use super::layout::{BLACK, EMPTY, MAX_SIZE, MIN_SIZE, WHITE, cell, neighbours};
use super::{Board, Colour};

/// A diagram that is not a valid position: where (1-based line and column, in characters) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiagramError {
    /// 1-based line of the diagram.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// What is wrong.
    pub kind: DiagramErrorKind,
}

/// Why a diagram is not a valid position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagramErrorKind {
    /// A character that is not a cell (`X`, `O`, `.`, `+`) nor whitespace.
    UnexpectedChar(char),
    /// A row with a different number of cells than the first row.
    RaggedRow {
        /// Cells in the first row.
        expected: u32,
        /// Cells in this row.
        found: u32,
    },
    /// More than 25 rows or cells in a row.
    TooLarge,
    /// As many rows as the size, but rows have another length.
    NotSquare {
        /// Rows given.
        rows: u32,
        /// Cells per row.
        columns: u32,
    },
    /// Fewer than 5 rows.
    TooSmall {
        /// Rows given.
        rows: u32,
    },
    /// No rows at all.
    Empty,
    /// `to_move:` not followed by `B` or `W`, or given twice.
    BadToMove,
    /// A string without liberties (the column is one of its stones).
    NoLiberties,
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match self.kind {
            DiagramErrorKind::UnexpectedChar(c) => {
                write!(f, "unexpected character {c:?} (expected X, O, . or +)")
            }
            DiagramErrorKind::RaggedRow { expected, found } => {
                write!(f, "row has {found} cells, the first row has {expected}")
            }
            DiagramErrorKind::TooLarge => write!(f, "board larger than {MAX_SIZE}x{MAX_SIZE}"),
            DiagramErrorKind::NotSquare { rows, columns } => {
                write!(f, "board is not square: {rows} rows of {columns} cells")
            }
            DiagramErrorKind::TooSmall { rows } => {
                write!(
                    f,
                    "board of {rows} rows is smaller than {MIN_SIZE}x{MIN_SIZE}"
                )
            }
            DiagramErrorKind::Empty => write!(f, "no board rows"),
            DiagramErrorKind::BadToMove => {
                write!(f, "expected `to_move: B` or `to_move: W` (once)")
            }
            DiagramErrorKind::NoLiberties => write!(f, "string without liberties"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DiagramError {}

const N: usize = MAX_SIZE as usize;

impl Board {
    /// Parses a text diagram: `X` black, `O` white, `.` (or `+`) empty, whitespace between cells
    /// optional, one board row per line, north first; the number of rows is the size (square,
    /// 5..=25). An optional line `to_move: B` or `to_move: W` (default Black) may appear
    /// anywhere; blank lines are ignored. Strings without liberties are refused. Never panics:
    /// every problem is a [`DiagramError`] with its line and column.
    ///
    /// ```
    /// use lens_vm::board::{Board, BoardView, Colour, Point};
    /// let b = Board::from_diagram(
    ///     ". . . . .
    ///      . X O . .
    ///      . . . . .
    ///      . . . . .
    ///      . . . . .
    ///      to_move: W",
    /// ).unwrap();
    /// assert_eq!(b.point(2, 1), Point::Stone(Colour::White));
    /// assert_eq!(b.liberties(1, 1), 3);
    /// assert_eq!(b.to_move(), Colour::White);
    /// ```
    pub fn from_diagram(text: &str) -> Result<Board, DiagramError> {
        let err = |line: usize, column: usize, kind| DiagramError {
            line: line as u32,
            column: column as u32,
            kind,
        };
        let mut grid = [[EMPTY; N]; N];
        let mut cols = [[0u32; N]; N];
        let mut row_line = [0u32; N];
        let mut rows = 0usize;
        let mut width = 0usize;
        let mut to_move = None;
        for (li, raw) in text.lines().enumerate() {
            let line = li + 1;
            let trimmed = raw.trim_start();
            if trimmed.is_empty() {
                continue;
            }
            if let Some(rest) = trimmed.strip_prefix("to_move") {
                let lead = raw.chars().count() - trimmed.chars().count();
                let col_after = lead + "to_move".len() + 1;
                let rest_t = rest.trim_start();
                let Some(value) = rest_t.strip_prefix(':') else {
                    return Err(err(
                        line,
                        col_after + (rest.chars().count() - rest_t.chars().count()),
                        DiagramErrorKind::BadToMove,
                    ));
                };
                let v = value.trim();
                let vcol = raw.chars().count() - value.trim_start().chars().count() + 1;
                if to_move.is_some() {
                    return Err(err(line, lead + 1, DiagramErrorKind::BadToMove));
                }
                to_move = Some(match v {
                    "B" | "b" => Colour::Black,
                    "W" | "w" => Colour::White,
                    _ => return Err(err(line, vcol, DiagramErrorKind::BadToMove)),
                });
                continue;
            }
            if rows == N {
                return Err(err(line, 1, DiagramErrorKind::TooLarge));
            }
            let mut n = 0usize;
            for (ci, ch) in raw.chars().enumerate() {
                let v = match ch {
                    'X' => BLACK,
                    'O' => WHITE,
                    '.' | '+' => EMPTY,
                    c if c.is_whitespace() => continue,
                    c => return Err(err(line, ci + 1, DiagramErrorKind::UnexpectedChar(c))),
                };
                if n == N {
                    return Err(err(line, ci + 1, DiagramErrorKind::TooLarge));
                }
                grid[rows][n] = v;
                cols[rows][n] = (ci + 1) as u32;
                n += 1;
            }
            if rows == 0 {
                width = n;
            } else if n != width {
                return Err(err(
                    line,
                    1,
                    DiagramErrorKind::RaggedRow {
                        expected: width as u32,
                        found: n as u32,
                    },
                ));
            }
            row_line[rows] = line as u32;
            rows += 1;
        }
        if rows == 0 {
            return Err(err(text.lines().count().max(1), 1, DiagramErrorKind::Empty));
        }
        if width != rows {
            let kind = DiagramErrorKind::NotSquare {
                rows: rows as u32,
                columns: width as u32,
            };
            return Err(err(row_line[0] as usize, 1, kind));
        }
        if rows < MIN_SIZE as usize {
            return Err(err(
                row_line[0] as usize,
                1,
                DiagramErrorKind::TooSmall { rows: rows as u32 },
            ));
        }
        let Some(mut b) = Board::new(rows as u8) else {
            return Err(err(row_line[0] as usize, 1, DiagramErrorKind::TooLarge));
        };
        b.to_move = to_move.unwrap_or(Colour::Black);
        for (y, row) in grid.iter().enumerate().take(rows) {
            for (x, &v) in row.iter().enumerate().take(rows) {
                if v != EMPTY {
                    b.set_stone_raw(cell(x as i32, y as i32), v);
                }
            }
        }
        b.rebuild_strings();
        for (y, row) in grid.iter().enumerate().take(rows) {
            for (x, &v) in row.iter().enumerate().take(rows) {
                let c = cell(x as i32, y as i32);
                if v != EMPTY && b.libs[b.head[c] as usize] == 0 {
                    let kind = DiagramErrorKind::NoLiberties;
                    return Err(err(row_line[y] as usize, cols[y][x] as usize, kind));
                }
            }
        }
        Ok(b)
    }

    /// The diagram of the position (the same text as `Display`).
    pub fn to_diagram(&self) -> impl fmt::Display + '_ {
        self
    }

    fn set_stone_raw(&mut self, p: usize, c: u8) {
        self.colour[p] = c;
        let (x, y) = super::layout::xy(p);
        self.rows[y as usize + super::ROW_PAD] |=
            1 << (x as usize + super::ROW_PAD + super::colour_shift(c));
        self.stone_hash ^= super::zobrist::KEYS.stones[c as usize - 1][p];
    }

    /// Recomputes every string (heads, cycles, counts, liberties) from the stones alone
    /// (for positions built without moves; the history must be empty).
    pub(crate) fn rebuild_strings(&mut self) {
        self.head = super::layout::Cells::filled(0);
        self.next = super::layout::Cells::filled(0);
        self.libs = super::layout::Cells::filled(0);
        self.count = super::layout::Cells::filled(0);
        let mut stack = [0u16; N * N];
        for y in 0..self.size as i32 {
            for x in 0..self.size as i32 {
                let h = cell(x, y);
                let c = self.colour[h];
                if c == EMPTY || self.head[h] != 0 {
                    continue;
                }
                // Flood fill, linking stones into a cycle as they are found.
                self.head[h] = h as u16;
                self.next[h] = h as u16;
                let mut count = 1;
                let mut top = 1;
                stack[0] = h as u16;
                while top > 0 {
                    top -= 1;
                    let s = stack[top] as usize;
                    for n in neighbours(s) {
                        if self.colour[n] == c && self.head[n] == 0 {
                            self.head[n] = h as u16;
                            self.next[n] = self.next[h];
                            self.next[h] = n as u16;
                            count += 1;
                            stack[top] = n as u16;
                            top += 1;
                        }
                    }
                }
                self.count[h] = count;
                self.libs[h] = self.count_libs(h);
            }
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for y in 0..self.size as i32 {
            for x in 0..self.size as i32 {
                if x > 0 {
                    f.write_char(' ')?;
                }
                f.write_char(match self.colour[cell(x, y)] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                })?;
            }
            f.write_char('\n')?;
        }
        let side = if self.to_move == Colour::Black {
            'B'
        } else {
            'W'
        };
        writeln!(f, "to_move: {side}")
    }
}
