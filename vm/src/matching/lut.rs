//! The lookup kernel for 3x3 classes with a table in the `lut` section ([`crate::rom::lut`]):
//! one window cut gives the focus state and the neighbourhood code, two table loads give the
//! candidate entry set, and the class program walks that list instead of the masks.

use super::Geometry;
use crate::rom::lut::LutSet;

pub(crate) struct Lut<'a> {
    set: LutSet<'a>,
    /// Next list position to look at (`next` is called with ascending `from`).
    pos: usize,
    first: u32,
}

impl<'a> Lut<'a> {
    pub(crate) fn new(set: LutSet<'a>, first: u32) -> Self {
        Lut { set, pos: 0, first }
    }
}

impl Geometry for Lut<'_> {
    #[inline]
    fn next(&mut self, from: u32, end: u32) -> Option<u32> {
        let from = from.checked_sub(self.first)?;
        let end = end.checked_sub(self.first)?;
        if self.pos > 0 && self.set.get(self.pos - 1) >= from {
            self.pos = 0; // a caller going back (not the class program): start over
        }
        while self.pos < self.set.len() {
            let e = self.set.get(self.pos);
            if e >= from {
                return (e < end).then_some(self.first + e);
            }
            self.pos += 1;
        }
        None
    }
}
