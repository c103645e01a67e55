//! Compact version 4's entropy layer: one static canonical Huffman code per blob over the
//! symbol bytes of Compact's entries (prefixes, code bytes, escape and far point bytes), at
//! most [`MAX_LEN`] bits a code, so a symbol decodes with one load from a 1,024-entry table.
//! Entries stay depth-first and self-delimiting, so a reader walks the blob in place as before,
//! only in bits instead of bytes; pointer values, setup counts and stones are raw 8-bit groups.
//!
//! ```text
//! lengths  for each symbol 0..=255: bit 0 = the previous symbol's length, or bit 1 and a
//!          4-bit length (0 = unused); MSB first, padded to a byte
//! codes    canonical: by (length, symbol), MSB first
//! ```

use super::{DecodeError, err};

/// Longest code, in bits: the decode table has `1 << MAX_LEN` entries.
pub(crate) const MAX_LEN: u32 = 10;
const SLOTS: usize = 1 << MAX_LEN;
/// A decode-table slot with no code.
const NONE: u16 = 0xFFFF;

/// Code lengths for symbol counts `freq`, at most [`MAX_LEN`] bits; unused symbols get 0.
/// Deterministic: ties go to the lower symbol.
pub(crate) fn lengths(freq: &[u64; 256]) -> [u8; 256] {
    let mut f: Vec<u64> = freq.to_vec();
    loop {
        let lens = huffman(&f);
        if lens.iter().all(|&l| (l as u32) <= MAX_LEN) {
            return lens;
        }
        // Flatten the counts and retry: a few rounds at most on any real data.
        for v in f.iter_mut().filter(|v| **v > 0) {
            *v = (*v).div_ceil(2);
        }
    }
}

/// Plain Huffman code lengths (no limit).
fn huffman(freq: &[u64]) -> [u8; 256] {
    let mut lens = [0u8; 256];
    let used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    match used.len() {
        0 => return lens,
        1 => {
            lens[used[0]] = 1;
            return lens;
        }
        _ => {}
    }
    // Nodes: (weight, id); leaves 0..256, internal nodes from 256 on; parent links.
    let mut parent: Vec<usize> = vec![usize::MAX; 512];
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> = used
        .iter()
        .map(|&s| std::cmp::Reverse((freq[s], s)))
        .collect();
    let mut next = 256;
    while heap.len() > 1 {
        let std::cmp::Reverse((wa, a)) = heap.pop().expect("two nodes");
        let std::cmp::Reverse((wb, b)) = heap.pop().expect("two nodes");
        parent[a] = next;
        parent[b] = next;
        heap.push(std::cmp::Reverse((wa + wb, next)));
        next += 1;
    }
    for &s in &used {
        let (mut d, mut n) = (0u32, s);
        while parent[n] != usize::MAX {
            n = parent[n];
            d += 1;
        }
        lens[s] = d.min(255) as u8;
    }
    lens
}

/// Canonical codes for `lens`: (code, length) per symbol.
pub(crate) fn codes(lens: &[u8; 256]) -> [(u16, u8); 256] {
    let mut order: Vec<usize> = (0..256).filter(|&s| lens[s] > 0).collect();
    order.sort_by_key(|&s| (lens[s], s));
    let mut out = [(0u16, 0u8); 256];
    let (mut code, mut len) = (0u32, 0u8);
    for s in order {
        code <<= lens[s] - len;
        len = lens[s];
        out[s] = (code as u16, len);
        code += 1;
    }
    out
}

/// MSB-first bit writer.
#[derive(Default)]
pub(crate) struct BitWriter {
    pub out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    pub fn push(&mut self, bits: u32, n: u32) {
        debug_assert!(n <= 32 && (n == 32 || bits >> n == 0));
        self.acc = self.acc << n | bits as u64;
        self.n += n;
        while self.n >= 8 {
            self.n -= 8;
            self.out.push((self.acc >> self.n) as u8);
        }
        self.acc &= (1 << self.n) - 1;
    }
    /// Bits written so far.
    pub fn bits(&self) -> usize {
        self.out.len() * 8 + self.n as usize
    }
    /// Pad with zero bits to a byte boundary.
    pub fn align(&mut self) {
        if self.n > 0 {
            self.push(0, 8 - self.n);
        }
    }
}

/// Write the code lengths (see the module docs), padded to a byte.
pub(crate) fn write_lengths(w: &mut BitWriter, lens: &[u8; 256]) {
    let mut prev = 0u8;
    for &l in lens {
        if l == prev {
            w.push(0, 1);
        } else {
            w.push(0x10 | l as u32, 5);
            prev = l;
        }
    }
    w.align();
}

/// `n <= 25` bits at bit offset `pos` (zeros past the end), MSB first.
#[inline(always)]
pub(crate) fn peek(bytes: &[u8], pos: usize, n: u32) -> u32 {
    let i = pos >> 3;
    let get = |k: usize| bytes.get(i + k).copied().unwrap_or(0) as u32;
    let w = get(0) << 24 | get(1) << 16 | get(2) << 8 | get(3);
    (w << (pos & 7)) >> (32 - n)
}

/// The decode table of one blob.
#[derive(Clone, Copy)]
pub(crate) struct Decoder {
    /// Slot = the next `MAX_LEN` bits: symbol | length << 8, or `NONE`.
    table: [u16; SLOTS],
}

impl Decoder {
    /// Read the lengths at byte `pos`; returns the decoder and the byte after the lengths.
    pub fn read(bytes: &[u8], pos: usize) -> Result<(Decoder, usize), DecodeError> {
        let mut lens = [0u8; 256];
        let mut bit = pos * 8;
        let total = bytes.len() * 8;
        let mut prev = 0u8;
        for l in lens.iter_mut() {
            if bit >= total {
                return err(bit / 8, "truncated code lengths");
            }
            if peek(bytes, bit, 1) == 1 {
                if bit + 5 > total {
                    return err(bit / 8, "truncated code lengths");
                }
                prev = (peek(bytes, bit, 5) & 15) as u8;
                bit += 5;
            } else {
                bit += 1;
            }
            if prev as u32 > MAX_LEN {
                return err(bit / 8, "code length over 10 bits");
            }
            *l = prev;
        }
        // Kraft: the lengths must describe a prefix code.
        let kraft: u64 = lens
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 1u64 << (MAX_LEN - l as u32))
            .sum();
        if kraft > SLOTS as u64 {
            return err(pos, "code lengths are no prefix code");
        }
        let mut table = [NONE; SLOTS];
        for (s, &(code, len)) in codes(&lens).iter().enumerate() {
            if len == 0 {
                continue;
            }
            let shift = MAX_LEN - len as u32;
            let first = (code as usize) << shift;
            for slot in &mut table[first..first + (1 << shift)] {
                *slot = s as u16 | (len as u16) << 8;
            }
        }
        Ok((Decoder { table }, bit.div_ceil(8)))
    }

    /// The symbol at bit `pos` and the bit after it; `None` past the end or on no code.
    #[inline(always)]
    pub fn symbol(&self, bytes: &[u8], pos: usize) -> Option<(u8, usize)> {
        let t = self.table[peek(bytes, pos, MAX_LEN) as usize];
        let end = pos + (t >> 8) as usize;
        (t != NONE && end <= bytes.len() * 8).then_some((t as u8, end))
    }
}

/// LEB128 in raw 8-bit groups at bit `pos`: (value, bit after it).
pub(crate) fn read_raw_varint(bytes: &[u8], mut pos: usize) -> Result<(u64, usize), DecodeError> {
    let start = pos;
    let (mut v, mut shift) = (0u64, 0u32);
    loop {
        if pos + 8 > bytes.len() * 8 {
            return err(start / 8, "truncated varint");
        }
        let c = peek(bytes, pos, 8);
        pos += 8;
        if shift >= 63 && c > 1 {
            return err(start / 8, "varint overflows 64 bits");
        }
        v |= ((c & 0x7f) as u64) << shift;
        if c & 0x80 == 0 {
            return Ok((v, pos));
        }
        shift += 7;
        if shift > 63 {
            return err(start / 8, "varint too long");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_stay_within_the_length_limit() {
        // Skewed counts that plain Huffman would code in up to 30 bits (Fibonacci weights).
        let mut freq = [0u64; 256];
        let (mut a, mut b) = (1u64, 1u64);
        for f in freq.iter_mut().take(30) {
            *f = a;
            (a, b) = (b, a + b);
        }
        freq[200] = 5;
        let lens = lengths(&freq);
        assert!(lens.iter().all(|&l| l as u32 <= MAX_LEN));
        assert!((0..256).all(|s| (lens[s] > 0) == (freq[s] > 0)));
        let codes = codes(&lens);
        let mut w = BitWriter::default();
        write_lengths(&mut w, &lens);
        let head = w.out.len();
        let msg: Vec<u8> = (0..30u8).chain([200, 0, 29, 7]).collect();
        for &s in &msg {
            w.push(codes[s as usize].0 as u32, codes[s as usize].1 as u32);
        }
        w.align();
        let (d, at) = Decoder::read(&w.out, 0).unwrap();
        assert_eq!(at, head);
        let mut pos = at * 8;
        for &s in &msg {
            let (got, next) = d.symbol(&w.out, pos).unwrap();
            assert_eq!(got, s);
            pos = next;
        }
        // Lengths that are no prefix code are refused.
        let mut bad = BitWriter::default();
        write_lengths(&mut bad, &[1u8; 256]);
        let e = Decoder::read(&bad.out, 0).err().unwrap();
        assert_eq!(e.reason, "code lengths are no prefix code");
    }
}
