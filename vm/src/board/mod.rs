//! The reference board and the [`BoardView`] trait.

mod view;
pub use view::{BoardView, Colour, Point};
