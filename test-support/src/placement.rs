//! Where a bench's ROM image lies in memory. From format v6 the `sliced` tables lie on 64-byte
//! lines of the file, so a 512-entry row is one cache line only when the image itself starts
//! on a line (docs/performance.md, "Session 10"); a `Vec<u8>` from the allocator gives no such
//! promise.

use lens_vm::RomBuf;

/// A copy of `bytes` starting `skew` bytes past a 64-byte boundary (`skew` 0: on a cache line,
/// as [`lens_vm::AlignedRom`] and [`RomBuf`] hold an image), leaked: the benches' images live
/// for the process.
pub fn on_line(bytes: &[u8], skew: usize) -> &'static [u8] {
    // A `RomBuf` of `skew` zero bytes and the image starts on a line, so the image `skew` past it.
    let mut padded = vec![0u8; skew];
    padded.extend_from_slice(bytes);
    let buf: &'static RomBuf = Box::leak(Box::new(RomBuf::copy_from(&padded)));
    &buf[skew..]
}
