//! An owned image on a 64-byte line, for images read at run time (a file, `CompactRom::expand`).
//! From format v6 every bit-sliced table row lies on a 64-byte line of the file, so a row is one
//! cache line only when the image starts on one; the allocator promises 8 or 16 (docs/performance.md,
//! "Session 10": rows split over two lines make match calls about 1.1-1.4x slower).

use alloc::vec::Vec;
use core::ops::Deref;

use super::{LoadError, Rom};

/// The alignment [`RomBuf`] and [`super::AlignedRom`] give an image: one cache line.
pub const IMAGE_ALIGN: usize = 64;

/// An owned copy of a ROM image starting on a 64-byte line (feature `alloc`): the run-time
/// counterpart of [`super::AlignedRom`], which does the same for `include_bytes!` data.
/// Load it with [`RomBuf::rom`] (or `Rom::from_bytes(&buf)`); it never reallocates, so the
/// start stays on its line for the buffer's life.
#[derive(Clone)]
pub struct RomBuf {
    /// Over-allocated by up to one line; the image is `storage[start..start + len]`.
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl RomBuf {
    /// Copies `bytes` to a new buffer whose first byte lies on a 64-byte line.
    pub fn copy_from(bytes: &[u8]) -> Self {
        let mut storage = alloc::vec![0u8; bytes.len() + IMAGE_ALIGN - 1];
        // `align_offset` may return `usize::MAX` only for types whose alignment it cannot
        // reach; for `u8` it always gives the distance, below `IMAGE_ALIGN`.
        let start = storage.as_ptr().align_offset(IMAGE_ALIGN);
        storage[start..start + bytes.len()].copy_from_slice(bytes);
        RomBuf {
            storage,
            start,
            len: bytes.len(),
        }
    }

    /// The image.
    pub fn as_bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }

    /// Loads the image ([`Rom::from_bytes`]: validated once, zero-copy).
    ///
    /// # Errors
    /// The loader's [`LoadError`] (offset and reason) when the image is malformed.
    pub fn rom(&self) -> Result<Rom<'_>, LoadError> {
        Rom::from_bytes(self.as_bytes())
    }
}

/// Keeps the vector when it already starts on a line, copies it otherwise.
impl From<Vec<u8>> for RomBuf {
    fn from(bytes: Vec<u8>) -> Self {
        if bytes.as_ptr().align_offset(IMAGE_ALIGN) == 0 {
            let len = bytes.len();
            RomBuf {
                storage: bytes,
                start: 0,
                len,
            }
        } else {
            RomBuf::copy_from(&bytes)
        }
    }
}

impl Deref for RomBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl AsRef<[u8]> for RomBuf {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Debug for RomBuf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RomBuf")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_start_on_a_line_and_keep_the_bytes() {
        for len in [0usize, 1, 63, 64, 65, 4097] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let buf = RomBuf::copy_from(&bytes);
            assert_eq!(buf.as_bytes(), &bytes[..]);
            if len > 0 {
                assert_eq!(buf.as_ptr() as usize % IMAGE_ALIGN, 0, "len {len}");
            }
            let moved = RomBuf::from(bytes.clone());
            assert_eq!(&*moved, &bytes[..]);
            if len > 0 {
                assert_eq!(moved.as_ptr() as usize % IMAGE_ALIGN, 0, "len {len}");
            }
        }
    }

    #[test]
    fn a_malformed_image_is_refused_with_an_offset() {
        let buf = RomBuf::copy_from(b"not a rom image at all, not at all");
        let e = buf.rom().unwrap_err();
        assert!(e.offset <= buf.len(), "{e}");
    }
}
