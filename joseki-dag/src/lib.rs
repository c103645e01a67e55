//! Joseki DAG: SGF and text import, Fotland's compressed encoding and a denser walkable one,
//! and an allocation-free walker over the encoded bytes in 8 orientations x 2 colours.
//!
//! Pipeline: [`import_sgf`] / [`parse_text`] / [`Tree::add_line`] build a [`Tree`] (a DAG in the
//! corner frame, transpositions merged); [`encode`] turns it into a blob ([`Encoding::Fotland`]
//! or the default [`Encoding::Compact`], or the storage-only [`Encoding::Packed`]); [`decode`]
//! gives the tree back exactly ([`unpack`]: packed to Compact); [`Walker`]
//! follows the moves of a corner through a blob without decoding it. See `docs/joseki.md`.

mod board;
pub mod codec;
mod model;
pub mod sgf;
pub mod stats;
pub mod text;
pub mod walk;

pub use codec::{DecodeError, Encoding, decode, encode, unpack};
pub use model::{Edge, Move, MoveType, Point, Rel, SetupStone, Step, Tree, TypeConflict, Vertex};
pub use sgf::{Conventions, Detected, SgfError, import_sgf, import_sgf_into};
pub use text::{TextError, parse_text};
pub use walk::{
    BoardMove, BookCursor, BookLookup, BookState, Colour, Continuation, CornerBook, Frame, Lookup,
    Walker,
};
