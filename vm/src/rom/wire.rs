//! Little-endian field access and checksums. Every read is bounds-checked and returns 0 when
//! out of range, so a logic slip can never turn into a panic or an out-of-bounds read; the
//! loader proves beforehand that every read the VM makes is in range.

/// FNV-1a, 32 bits: the section and header checksum (tiny, no dependency, byte-order free).
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    fnv1a32_continue(0x811c_9dc5, bytes)
}

/// Continue an FNV-1a hash over more bytes.
pub fn fnv1a32_continue(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[inline]
pub fn u8_at(b: &[u8], off: usize) -> u8 {
    match b.get(off) {
        Some(v) => *v,
        None => 0,
    }
}

#[inline]
pub fn i8_at(b: &[u8], off: usize) -> i8 {
    u8_at(b, off) as i8
}

#[inline]
pub fn u16_at(b: &[u8], off: usize) -> u16 {
    match b.get(off..off.wrapping_add(2)) {
        Some(s) => u16::from_le_bytes([s[0], s[1]]),
        None => 0,
    }
}

#[inline]
pub fn u32_at(b: &[u8], off: usize) -> u32 {
    match b.get(off..off.wrapping_add(4)) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

#[inline]
pub fn i32_at(b: &[u8], off: usize) -> i32 {
    u32_at(b, off) as i32
}

#[inline]
pub fn u64_at(b: &[u8], off: usize) -> u64 {
    match b.get(off..off.wrapping_add(8)) {
        Some(s) => {
            let mut a = [0u8; 8];
            a.copy_from_slice(s);
            u64::from_le_bytes(a)
        }
        None => 0,
    }
}

/// A little-endian field type of a record (`super::records`): both directions in one place.
pub trait Field: Copy {
    /// The field at `off` of `b` (0 when out of range).
    fn get(b: &[u8], off: usize) -> Self;
    /// Appends the field.
    #[cfg(feature = "alloc")]
    fn put(self, out: &mut alloc::vec::Vec<u8>);
}

macro_rules! field {
    ($($t:ty => $get:ident),*) => {$(
        impl Field for $t {
            #[inline(always)]
            fn get(b: &[u8], off: usize) -> Self {
                $get(b, off)
            }
            #[cfg(feature = "alloc")]
            #[inline]
            fn put(self, out: &mut alloc::vec::Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

field!(u8 => u8_at, i8 => i8_at, u16 => u16_at, u32 => u32_at, i32 => i32_at, u64 => u64_at);

/// Appends a little-endian `u16` (header and section-table fields).
#[cfg(feature = "alloc")]
pub fn put_u16(out: &mut alloc::vec::Vec<u8>, v: u16) {
    v.put(out)
}
/// Appends a little-endian `i32`.
#[cfg(feature = "alloc")]
pub fn put_i32(out: &mut alloc::vec::Vec<u8>, v: i32) {
    v.put(out)
}

/// A section viewed as an array of fixed-size records, decoded through their types in
/// [`super::records`] (`Table::rec`): no field is read by a bare offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct Table<'a> {
    pub data: &'a [u8],
    /// File offset of `data[0]` (for error offsets).
    pub base: usize,
    pub rec: usize,
}

impl<'a> Table<'a> {
    pub const fn empty(rec: usize) -> Self {
        Table {
            data: &[],
            base: 0,
            rec,
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.rec).unwrap_or(0)
    }
    /// Record `i` (empty slice when out of range).
    #[inline]
    pub fn get(&self, i: usize) -> &'a [u8] {
        let start = i.wrapping_mul(self.rec);
        self.data
            .get(start..start.wrapping_add(self.rec))
            .unwrap_or(&[])
    }
    /// Record `i` decoded (all fields 0 when out of range).
    #[inline(always)]
    pub fn rec<R: super::records::Record>(&self, i: usize) -> R {
        R::read(self.get(i))
    }
    /// File offset of a field, for error reports.
    pub fn at(&self, i: usize, field: usize) -> usize {
        self.base + i * self.rec + field
    }
}

/// Read an unsigned LEB128 `u32` at `*pos`, advancing it. `None` when the bytes end first, the
/// encoding is longer than 5 bytes, or the value does not fit in 32 bits (so every value has
/// one canonical reading and a corrupt stream is an error, never a panic).
#[inline]
pub fn read_varint(b: &[u8], pos: &mut usize) -> Option<u32> {
    let mut v = 0u32;
    let mut shift = 0u32;
    loop {
        let byte = *b.get(*pos)?;
        *pos += 1;
        let low = (byte & 0x7F) as u32;
        if shift == 28 && low > 0x0F {
            return None;
        }
        v |= low << shift;
        if byte & 0x80 == 0 {
            // Overlong forms (a trailing zero group) are refused: one encoding per value.
            if byte == 0 && shift > 0 {
                return None;
            }
            return Some(v);
        }
        shift += 7;
        if shift > 28 {
            return None;
        }
    }
}

/// Zigzag-decode a signed value read with [`read_varint`].
#[inline]
pub const fn unzigzag(v: u32) -> i32 {
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

/// Zigzag-encode a signed value for [`put_varint`].
#[inline]
pub const fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

/// Append `v` as unsigned LEB128 (the writer side of [`read_varint`]).
#[cfg(feature = "alloc")]
pub fn put_varint(out: &mut alloc::vec::Vec<u8>, mut v: u32) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Bytes [`put_varint`] writes for `v`.
pub const fn varint_len(v: u32) -> usize {
    match v {
        0..0x80 => 1,
        0x80..0x4000 => 2,
        0x4000..0x20_0000 => 3,
        0x20_0000..0x1000_0000 => 4,
        _ => 5,
    }
}

#[cfg(all(test, feature = "alloc"))]
mod varint_tests {
    use super::*;

    #[test]
    fn round_trip_and_canonical() {
        for v in [0u32, 1, 127, 128, 300, 16_383, 16_384, 1 << 28, u32::MAX] {
            let mut b = alloc::vec::Vec::new();
            put_varint(&mut b, v);
            assert_eq!(b.len(), varint_len(v));
            let mut pos = 0;
            assert_eq!(read_varint(&b, &mut pos), Some(v));
            assert_eq!(pos, b.len());
        }
        for v in [0, 1, -1, 63, -64, i32::MAX, i32::MIN] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        // truncated, overlong, too large
        for bad in [
            &[0x80u8][..],
            &[0x80, 0x00],
            &[0xFF, 0xFF, 0xFF, 0xFF, 0x1F],
            &[0xFF; 6],
        ] {
            assert_eq!(read_varint(bad, &mut 0), None, "{bad:?}");
        }
    }
}
