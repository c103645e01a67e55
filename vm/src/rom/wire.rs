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

/// A section viewed as an array of fixed-size records.
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
        if self.rec == 0 {
            0
        } else {
            self.data.len() / self.rec
        }
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Record `i` (empty slice when out of range).
    #[inline]
    pub fn get(&self, i: usize) -> &'a [u8] {
        let start = i.wrapping_mul(self.rec);
        self.data
            .get(start..start.wrapping_add(self.rec))
            .unwrap_or(&[])
    }
    #[inline]
    pub fn u8(&self, i: usize, field: usize) -> u8 {
        u8_at(self.get(i), field)
    }
    #[inline]
    pub fn i8(&self, i: usize, field: usize) -> i8 {
        i8_at(self.get(i), field)
    }
    #[inline]
    pub fn u16(&self, i: usize, field: usize) -> u16 {
        u16_at(self.get(i), field)
    }
    #[inline]
    pub fn u32(&self, i: usize, field: usize) -> u32 {
        u32_at(self.get(i), field)
    }
    #[inline]
    pub fn i32(&self, i: usize, field: usize) -> i32 {
        i32_at(self.get(i), field)
    }
    /// File offset of a field, for error reports.
    pub fn at(&self, i: usize, field: usize) -> usize {
        self.base + i * self.rec + field
    }
}
