//! Where a bench's ROM image lies in memory. From format v6 the `sliced` tables lie on 64-byte
//! lines of the file, so a 512-entry row is one cache line only when the image itself starts
//! on a line (docs/performance.md, "Session 10"); a `Vec<u8>` from the allocator gives no such
//! promise.

/// A copy of `bytes` starting `skew` bytes past a 64-byte boundary (`skew` 0: on a cache line,
/// as [`lens_vm::AlignedRom`] holds an image), leaked: the benches' images live for the
/// process.
pub fn on_line(bytes: &[u8], skew: usize) -> &'static [u8] {
    let len = skew + bytes.len();
    // Over-allocate by a line and start at the first 64-byte boundary inside.
    let buf: &'static mut [u8] = vec![0u8; len + 64].leak();
    let at = buf.as_ptr().align_offset(64);
    let out = &mut buf[at + skew..at + len];
    out.copy_from_slice(bytes);
    out
}
