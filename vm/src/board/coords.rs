//! Coordinate conversions. Board coordinates are `(x, y)`: column from the left, row from the
//! top, from 0.
//!
//! - GTP vertices: a column letter `A`..`Z` skipping `I` (case-insensitive), then the row number
//!   counted from the bottom (1 = southmost row): `"A1"` is `(0, size - 1)`; `"pass"` is a pass.
//! - SGF points: two lowercase letters, column then row, from the top-left: `"dd"` is `(3, 3)`;
//!   the empty string, and `"tt"` on boards up to 19x19, are passes (the `FF[3]` convention).

use core::fmt;

use super::layout::{MAX_SIZE, MIN_SIZE};

/// Why a coordinate did not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoordError {
    /// Not of the expected shape.
    Malformed,
    /// Well formed but outside a board of the given size.
    OutOfRange,
    /// The board size is not in 5..=25.
    BadSize,
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CoordError::Malformed => "malformed coordinate",
            CoordError::OutOfRange => "coordinate outside the board",
            CoordError::BadSize => "board size not in 5..=25",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CoordError {}

/// GTP column letters (no `I`).
const GTP_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

fn check_size(size: u8) -> Result<i32, CoordError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(size as i32)
    } else {
        Err(CoordError::BadSize)
    }
}

/// Parses a GTP vertex (`"D4"`, `"q16"`, `"pass"`); `Ok(None)` is a pass.
pub fn parse_vertex(s: &str, size: u8) -> Result<Option<(i32, i32)>, CoordError> {
    let n = check_size(size)?;
    let s = s.trim();
    if s.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    let bytes = s.as_bytes();
    let (&letter, digits) = bytes.split_first().ok_or(CoordError::Malformed)?;
    let letter = letter.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() || letter == b'I' {
        return Err(CoordError::Malformed);
    }
    if digits.is_empty()
        || digits.len() > 2
        || !digits.iter().all(u8::is_ascii_digit)
        || digits[0] == b'0'
    {
        return Err(CoordError::Malformed);
    }
    let x = GTP_LETTERS
        .iter()
        .position(|&l| l == letter)
        .ok_or(CoordError::OutOfRange)? as i32;
    let row = digits.iter().fold(0i32, |a, d| a * 10 + (d - b'0') as i32);
    if x >= n || row > n {
        return Err(CoordError::OutOfRange);
    }
    Ok(Some((x, n - row)))
}

/// A short coordinate name held inline (no allocation); `Display` and [`Name::as_str`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    buf: [u8; 4],
    len: u8,
}

impl Name {
    /// The vertex as text (`D4`).
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever written.
        core::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The GTP vertex of `(x, y)` (`"D4"`); `None` when outside a board of `size`.
pub fn format_vertex(x: i32, y: i32, size: u8) -> Option<Name> {
    let n = check_size(size).ok()?;
    if !(0..n).contains(&x) || !(0..n).contains(&y) {
        return None;
    }
    let row = (n - y) as u8;
    let mut buf = [0u8; 4];
    buf[0] = GTP_LETTERS[x as usize];
    let len = if row >= 10 {
        buf[1] = b'0' + row / 10;
        buf[2] = b'0' + row % 10;
        3
    } else {
        buf[1] = b'0' + row;
        2
    };
    Some(Name { buf, len })
}

/// Parses an SGF point (`"dd"`); `Ok(None)` is a pass (`""`, or `"tt"` when `size <= 19`).
pub fn parse_sgf_point(s: &str, size: u8) -> Result<Option<(i32, i32)>, CoordError> {
    let n = check_size(size)?;
    let b = s.as_bytes();
    if b.is_empty() || (b == b"tt" && n <= 19) {
        return Ok(None);
    }
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return Err(CoordError::Malformed);
    }
    let (x, y) = ((b[0] - b'a') as i32, (b[1] - b'a') as i32);
    if x >= n || y >= n {
        return Err(CoordError::OutOfRange);
    }
    Ok(Some((x, y)))
}

/// The SGF point of `(x, y)` (`"dd"`); `None` outside `0..25`.
pub fn format_sgf_point(x: i32, y: i32) -> Option<Name> {
    let r = 0..MAX_SIZE as i32;
    if !r.contains(&x) || !r.contains(&y) {
        return None;
    }
    Some(Name {
        buf: [b'a' + x as u8, b'a' + y as u8, 0, 0],
        len: 2,
    })
}
