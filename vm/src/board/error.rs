//! Errors of moves.

use core::fmt;

/// Why a move was refused. The board is unchanged after an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlayError {
    /// The coordinates are outside the board.
    OffBoard,
    /// The point already holds a stone.
    Occupied,
    /// An immediate recapture of a ko.
    Ko,
    /// The stone would have no liberties (and captures nothing).
    Suicide,
    /// A setup stone ([`super::Board::place`]) would leave an opponent string without liberties.
    WouldCapture,
    /// [`super::Board::remove`] on an empty point.
    Empty,
    /// The undo history is full ([`super::HISTORY_CAPACITY`]); see [`super::Board::clear_history`].
    HistoryFull,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::OffBoard => "point outside the board",
            PlayError::Occupied => "point already occupied",
            PlayError::Ko => "immediate ko recapture",
            PlayError::Suicide => "suicide",
            PlayError::WouldCapture => {
                "setup stone would leave an opponent string without liberties"
            }
            PlayError::Empty => "no stone to remove",
            PlayError::HistoryFull => "undo history full",
        })
    }
}

/// Why [`super::Board::from_moves`] failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovesError {
    /// The size is not in 5..=25.
    BadSize(u8),
    /// Move number `index` (from 0) was refused.
    Illegal {
        /// The move's position in the list, from 0.
        index: usize,
        /// Why the board refused it.
        error: PlayError,
    },
}

impl fmt::Display for MovesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovesError::BadSize(s) => write!(f, "board size {s} is not in 5..=25"),
            MovesError::Illegal { index, error } => write!(f, "move {index}: {error}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PlayError {}
#[cfg(feature = "std")]
impl std::error::Error for MovesError {}
