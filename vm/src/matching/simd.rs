//! The instruction set the hot loops run with, chosen once (step 3 of `matching/dispatch.rs`).
//!
//! Three loops are compiled once per level: the bit-sliced kernel's row ORs
//! (`matching/sliced.rs`), the board-parallel scan's plane ANDs (`matching/board_parallel.rs`, from
//! the ROM or a plan's trie) and the 7x7 view cut (`matching/view.rs`, whose BMI2 path gathers the
//! ring order with `pext`, or with AVX-512 bit shuffles and byte permutes). The Rust source of
//! the first two is the same for every level: a kernel implements `Kernel` and `run` calls it
//! inside a function compiled with `#[target_feature]`, so LLVM vectorises it for that width.
//! The whole-board scan builds its offset planes with `pext` at the AVX-512 level (`gather`).
//! The incremental filter's ANDs over a chunk of bucket words (`and_rows`) are written per
//! level with masked loads. This is the crate's only `unsafe`: calling such a function is
//! sound only on a CPU with the feature, and `run`, `gather`, `view` and `and_rows` do so only
//! when [`current`] says the CPU has it.
//!
//! * With `std`, the CPU is asked once (`is_x86_feature_detected!`: AVX2, AVX-512F, BMI2,
//!   AVX-512 BITALG with VBMI and BW).
//! * Without `std`, the levels are those the build's `target_feature`s enable (for example
//!   `-C target-cpu=native`); the portable path otherwise.
//! * [`force`] picks another supported level (tests run every one; benchmarks compare them).
//!   It refuses a level the CPU does not have, so forcing can never make the `unsafe` unsound.
//!
//! The view cut is [`Cut::Shuffle`] where the CPU has AVX-512 BITALG, VBMI and BW (with the
//! AVX-512 level), else the tables. The BMI2 cut is not chosen by default: `pext` is microcoded on AMD
//! before Zen 3 (family 0x17 and older: tens of cycles), and where it is fast (AMD family 0x19,
//! AVX-512) the table cut still measured faster (`cargo bench -p lens-vm --bench matching --
//! view_7x7`, docs/performance.md). It can be forced wherever the CPU has BMI2.

use core::sync::atomic::{AtomicU8, Ordering};

/// Vector width of the sliced ORs and the plane ANDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Vector {
    /// What the build targets without extra features (SSE2 on x86-64).
    Portable,
    /// 256-bit AVX2.
    Avx2,
    /// 512-bit AVX-512F.
    Avx512,
}

/// How the 7x7 view cut puts the window's points in ring order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cut {
    /// One table lookup per window row and colour (every machine).
    Tables,
    /// BMI2 `pext`, one per run of the ring order and colour.
    Pext,
    /// AVX-512: one bit shuffle per colour (BITALG `vpshufbitqmb`) cuts the window's rows,
    /// one byte permute per word (VBMI `vpermb`) places its points (with the AVX-512 level).
    Shuffle,
}

/// One path through the hot loops: a vector width and a view cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Simd {
    /// The sliced kernel's and the plane scan's width.
    pub vector: Vector,
    /// The view cut.
    pub cut: Cut,
}

impl Simd {
    /// The portable path (every machine).
    pub const PORTABLE: Simd = Simd {
        vector: Vector::Portable,
        cut: Cut::Tables,
    };

    /// Every path this CPU (or, without `std`, this build) can run, the portable one first.
    pub fn supported() -> impl Iterator<Item = Simd> {
        let have = detect();
        [Vector::Portable, Vector::Avx2, Vector::Avx512]
            .into_iter()
            .flat_map(|vector| {
                [Cut::Tables, Cut::Pext, Cut::Shuffle].map(|cut| Simd { vector, cut })
            })
            .filter(move |s| have.allows(*s))
    }

    /// Whether the whole-board scan builds its offset planes with BMI2 `pext` on this path
    /// (the AVX-512 level; see `gather`), else with the portable gather.
    pub fn pext_offsets(self) -> bool {
        self.vector == Vector::Avx512
    }

    fn code(self) -> u8 {
        let v = match self.vector {
            Vector::Portable => 0,
            Vector::Avx2 => 1,
            Vector::Avx512 => 2,
        };
        0x80 | v << 2 | self.cut as u8
    }

    fn from_code(c: u8) -> Simd {
        let vector = match (c >> 2) & 3 {
            2 => Vector::Avx512,
            1 => Vector::Avx2,
            _ => Vector::Portable,
        };
        let cut = match c & 3 {
            2 => Cut::Shuffle,
            1 => Cut::Pext,
            _ => Cut::Tables,
        };
        Simd { vector, cut }
    }
}

/// What the CPU has.
#[derive(Clone, Copy, Debug)]
struct Features {
    avx2: bool,
    avx512: bool,
    bmi2: bool,
    /// `pext` is fast (not microcoded).
    fast_pext: bool,
    /// AVX-512 BITALG (`vpshufbitqmb`), VBMI (`vpermb`) and BW (byte masks and compares).
    bitalg: bool,
}

impl Features {
    fn allows(self, s: Simd) -> bool {
        let v = match s.vector {
            Vector::Portable => true,
            Vector::Avx2 => self.avx2,
            Vector::Avx512 => self.avx512,
        };
        v && match s.cut {
            Cut::Tables => true,
            Cut::Pext => self.bmi2,
            // (It uses 512-bit registers: only with that level.)
            Cut::Shuffle => self.bitalg && s.vector == Vector::Avx512,
        }
    }

    /// The widest path, with the shuffle view cut where it runs, else the tables (see the
    /// module docs on `pext`).
    fn best(self) -> Simd {
        let vector = if self.avx512 {
            Vector::Avx512
        } else if self.avx2 {
            Vector::Avx2
        } else {
            Vector::Portable
        };
        // (Were the `pext` gather ever faster than the tables: `self.bmi2 && self.fast_pext`.)
        let cut = if self.bitalg && vector == Vector::Avx512 {
            Cut::Shuffle
        } else {
            Cut::Tables
        };
        Simd { vector, cut }
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn features() -> Features {
    let bmi2 = std::is_x86_feature_detected!("bmi2");
    Features {
        // The vector levels also count bits (`popcnt`, on every AVX2 CPU in practice).
        avx2: std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt"),
        avx512: std::is_x86_feature_detected!("avx512f"),
        bmi2,
        fast_pext: bmi2 && !amd_before_zen3(),
        bitalg: std::is_x86_feature_detected!("avx512bitalg")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512bw"),
    }
}

/// AMD family 0x17 or older (Zen 1 and 2 run `pext`/`pdep` in microcode).
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn amd_before_zen3() -> bool {
    use core::arch::x86_64::__cpuid;
    let v = __cpuid(0);
    let amd = (v.ebx, v.edx, v.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163); // "AuthenticAMD"
    let f = __cpuid(1).eax;
    let family = ((f >> 8) & 0xF)
        + if (f >> 8) & 0xF == 0xF {
            (f >> 20) & 0xFF
        } else {
            0
        };
    amd && family <= 0x17
}

#[cfg(not(all(feature = "std", target_arch = "x86_64")))]
fn features() -> Features {
    Features {
        avx2: cfg!(all(
            target_arch = "x86_64",
            target_feature = "avx2",
            target_feature = "popcnt"
        )),
        avx512: cfg!(all(target_arch = "x86_64", target_feature = "avx512f")),
        bmi2: cfg!(all(target_arch = "x86_64", target_feature = "bmi2")),
        fast_pext: true,
        bitalg: cfg!(all(
            target_arch = "x86_64",
            target_feature = "avx512bitalg",
            target_feature = "avx512vbmi",
            target_feature = "avx512bw"
        )),
    }
}

/// Detected features, cached: bit 7 set once filled in.
static DETECTED: AtomicU8 = AtomicU8::new(0);
/// The path in use ([`Simd::code`]); 0 until the first call.
static CURRENT: AtomicU8 = AtomicU8::new(0);

fn detect() -> Features {
    let c = DETECTED.load(Ordering::Relaxed);
    let f = if c & 0x80 != 0 {
        Features {
            avx2: c & 1 != 0,
            avx512: c & 2 != 0,
            bmi2: c & 4 != 0,
            fast_pext: c & 8 != 0,
            bitalg: c & 16 != 0,
        }
    } else {
        let f = features();
        let c = 0x80
            | f.avx2 as u8
            | (f.avx512 as u8) << 1
            | (f.bmi2 as u8) << 2
            | (f.fast_pext as u8) << 3
            | (f.bitalg as u8) << 4;
        DETECTED.store(c, Ordering::Relaxed);
        f
    };
    // AVX-512 code here also uses AVX2 instructions, and BMI2 (`gather`).
    let avx512 = f.avx512 && f.avx2 && f.bmi2;
    Features {
        avx512,
        bitalg: f.bitalg && avx512,
        ..f
    }
}

/// The path the hot loops take now: the detected best, unless [`force`]d.
#[inline]
pub fn current() -> Simd {
    let c = CURRENT.load(Ordering::Relaxed);
    if c != 0 {
        return Simd::from_code(c);
    }
    let s = detect().best();
    CURRENT.store(s.code(), Ordering::Relaxed);
    s
}

/// A path this CPU does not support was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported(pub Simd);

/// Use `simd` from now on, in every thread (`None`: back to the detected best). For tests
/// and benchmarks; every path gives the same matches.
pub fn force(simd: Option<Simd>) -> Result<(), Unsupported> {
    let s = match simd {
        Some(s) if !detect().allows(s) => return Err(Unsupported(s)),
        Some(s) => s,
        None => detect().best(),
    };
    CURRENT.store(s.code(), Ordering::Relaxed);
    Ok(())
}

/// A hot loop compiled once per [`Vector`] level: its `run` must be `#[inline(always)]` (and
/// so must what it calls in its inner loop), so that it is compiled into [`run`]'s
/// per-level functions.
pub(crate) trait Kernel {
    type Out;
    fn run(self) -> Self::Out;
}

/// Runs `k` with the current vector level.
#[inline]
pub(crate) fn run<K: Kernel>(k: K) -> K::Out {
    match current().vector {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `current()` reports AVX-512F (with AVX2) only when the CPU has them
        // (`detect`, and `force` refuses other paths).
        Vector::Avx512 => unsafe { x86::avx512(k) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, AVX2 only when the CPU has it.
        Vector::Avx2 => unsafe { x86::avx2(k) },
        _ => k.run(),
    }
}

/// A loop that gathers bits by index: with BMI2 `pext` at the AVX-512 level, portably
/// otherwise (the whole-board scan's offset planes, `matching/board_parallel/compact.rs`).
/// Every AVX-512 CPU has BMI2 with a fast `pext` (AMD before Zen 3, where it is microcoded,
/// has no AVX-512), so the level decides and forcing it tests both forms.
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) whole-board scan
pub(crate) trait Gather {
    type Out;
    /// With `pext` (the closure is BMI2's).
    fn pext(self, pext: impl Fn(u64, u64) -> u64) -> Self::Out;
    /// Without it.
    fn portable(self) -> Self::Out;
}

/// Runs `g` in the form the current vector level takes (see [`Gather`]).
#[inline]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) whole-board scan
pub(crate) fn gather<G: Gather>(g: G) -> G::Out {
    match current().vector {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the AVX-512 level is reported only with BMI2 (`detect`; `force` refuses
        // paths the CPU lacks).
        Vector::Avx512 => unsafe { x86::gather_bmi2(g) },
        _ => g.portable(),
    }
}

/// The view words of an on-board or off-board focus by the current path's [`Cut`].
#[inline]
pub(crate) fn view<B: crate::board::BoardView + ?Sized>(
    b: &B,
    persp: crate::board::Colour,
    x: i32,
    y: i32,
) -> [u64; 3] {
    match current().cut {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `current()` reports a cut only when the CPU has its features (`allows`).
        Cut::Shuffle => unsafe { x86::view_bitalg(b, persp, x, y) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, BMI2.
        Cut::Pext => unsafe { x86::view_bmi2(b, persp, x, y) },
        _ => super::view::build_tables(b, persp, x, y),
    }
}

/// [`view`] at every focus of `foci` into `out` (as many as both hold; returns that many),
/// the path resolved once for all of them: the per-path loop is compiled inside the path's
/// `#[target_feature]` function, so the cut is inlined with its constants loaded once.
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))] // reached through `internals`
pub(crate) fn views<B: crate::board::BoardView + ?Sized>(
    b: &B,
    persp: crate::board::Colour,
    foci: &[(i32, i32)],
    out: &mut [[u64; 3]],
) -> usize {
    use super::view::{build_tables, each};
    match current().cut {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `view`.
        Cut::Shuffle => unsafe { x86::views_bitalg(b, persp, foci, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `view`.
        Cut::Pext => unsafe { x86::views_bmi2(b, persp, foci, out) },
        _ => each(b, persp, foci, out, |b, p, x, y, o| {
            *o = build_tables(b, p, x, y)
        }),
    }
}

/// The incremental filter's AND over a chunk of a bucket's words (`incremental/scan.rs`):
/// `block` holds one row of `words` u64 per (state, point), point `i` in state `s` at
/// `(s * st.len() + i) * words`; lane `l < n` of the result is the AND of lane `from + l` of
/// the rows of the states `st` (taken `& 3`) at their points, in order, left once every lane
/// is zero at point `early` or later; lanes `n..` are zero. Each point's `n` lanes are one
/// load (masked at the vector levels), so no row beyond them is read.
#[inline]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) incremental scan
pub(crate) fn and_rows(
    block: &[u64],
    st: &[u8],
    words: usize,
    from: usize,
    n: usize,
    early: usize,
) -> [u64; 8] {
    // What the vector paths' unchecked reads rely on: every row read lies in `block`.
    assert!(n <= 8 && from + n <= words && block.len() >= 4 * st.len() * words);
    match current().vector {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F only when the CPU has it (`detect`; `force` refuses the rest);
        // the rows read are in `block` (asserted above).
        Vector::Avx512 => unsafe { x86::and_rows_avx512(block, st, words, from, n, early) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, AVX2.
        Vector::Avx2 => unsafe { x86::and_rows_avx2(block, st, words, from, n, early) },
        _ => and_rows_portable(block, st, words, from, n, early),
    }
}

#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
fn and_rows_portable(
    block: &[u64],
    st: &[u8],
    words: usize,
    from: usize,
    n: usize,
    early: usize,
) -> [u64; 8] {
    // One copy per lane count, so each point's lanes are a fixed-length, unrolled AND.
    match n {
        0 => [0; 8],
        1 => and_rows_lanes::<1>(block, st, words, from, early),
        2 => and_rows_lanes::<2>(block, st, words, from, early),
        3 => and_rows_lanes::<3>(block, st, words, from, early),
        4 => and_rows_lanes::<4>(block, st, words, from, early),
        5 => and_rows_lanes::<5>(block, st, words, from, early),
        6 => and_rows_lanes::<6>(block, st, words, from, early),
        7 => and_rows_lanes::<7>(block, st, words, from, early),
        _ => and_rows_lanes::<8>(block, st, words, from, early),
    }
}

/// [`and_rows_portable`] for `N` lanes.
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
#[inline(always)]
fn and_rows_lanes<const N: usize>(
    block: &[u64],
    st: &[u8],
    words: usize,
    from: usize,
    early: usize,
) -> [u64; 8] {
    let mut acc = [u64::MAX; N];
    let stride = st.len() * words;
    for (i, &s) in st.iter().enumerate() {
        let a = (s & 3) as usize * stride + i * words + from;
        let row: &[u64; N] = block[a..a + N].try_into().unwrap();
        let mut any = 0;
        for (x, &r) in acc.iter_mut().zip(row) {
            *x &= r;
            any |= *x;
        }
        if i >= early && any == 0 {
            break;
        }
    }
    let mut out = [0u64; 8];
    out[..N].copy_from_slice(&acc);
    out
}

/// Asks for the cache line holding `r` ahead of its use, so that independent misses are in
/// flight together (the incremental update's phases); a no-op off x86-64. A hint: it never
/// faults and changes no result.
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) incremental scan
pub(crate) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` (SSE, baseline on x86-64) only hints the cache; `r` is a live
    // reference in any case.
    unsafe {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((r as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// [`prefetch`] of element `i` of `s`, with no bounds check (an address, never read: an `i`
/// past the end only asks for a line nobody uses), for the incremental filter's 17 rows per
/// candidate.
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // only the (alloc) incremental scan
pub(crate) fn prefetch_in<T>(s: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache and never faults; the address is computed
    // with `wrapping_add` and not dereferenced.
    unsafe {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(s.as_ptr().wrapping_add(i).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, i);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Kernel;

    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn avx2<K: Kernel>(k: K) -> K::Out {
        k.run()
    }

    #[target_feature(enable = "avx2,avx512f,popcnt")]
    pub(super) fn avx512<K: Kernel>(k: K) -> K::Out {
        k.run()
    }

    /// [`super::and_rows`] with one masked 512-bit load per point. Safety: every row read
    /// must lie in `block` (`n <= 8`, `from + n <= words`, `4 * st.len() * words` u64s).
    #[target_feature(enable = "avx2,avx512f")]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(super) unsafe fn and_rows_avx512(
        block: &[u64],
        st: &[u8],
        words: usize,
        from: usize,
        n: usize,
        early: usize,
    ) -> [u64; 8] {
        use core::arch::x86_64::*;
        // (A mask of the live lanes would make each load wait for the AND before it.)
        let m = ((1u32 << n) - 1) as u8;
        let mut acc = _mm512_maskz_set1_epi64(m, -1);
        let stride = st.len() * words;
        let mut p = block.as_ptr().wrapping_add(from);
        for (i, &s) in st.iter().enumerate() {
            // SAFETY: row `(s & 3) * stride + i * words`, lanes `from..from + n`: in `block`
            // (the caller's promise); the mask reads those lanes only.
            let v = unsafe { _mm512_maskz_loadu_epi64(m, p.add((s & 3) as usize * stride).cast()) };
            acc = _mm512_and_si512(acc, v);
            if i >= early && _mm512_test_epi64_mask(acc, acc) == 0 {
                break;
            }
            p = p.wrapping_add(words);
        }
        let mut out = [0u64; 8];
        // SAFETY: 64 bytes.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), acc) };
        out
    }

    /// [`super::and_rows`] with one or two masked 256-bit loads per point. Safety: as
    /// [`and_rows_avx512`].
    #[target_feature(enable = "avx2")]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(super) unsafe fn and_rows_avx2(
        block: &[u64],
        st: &[u8],
        words: usize,
        from: usize,
        n: usize,
        early: usize,
    ) -> [u64; 8] {
        use core::arch::x86_64::*;
        // Lane `l` of a half is loaded when its sign bit is set.
        let lanes = |k: usize| {
            let k = k.min(4) as i64;
            _mm256_set_epi64x(
                -((k > 3) as i64),
                -((k > 2) as i64),
                -((k > 1) as i64),
                -((k > 0) as i64),
            )
        };
        let (m0, m1) = (lanes(n), lanes(n.saturating_sub(4)));
        let (mut lo, mut hi) = (m0, m1);
        let stride = st.len() * words;
        let mut p = block.as_ptr().wrapping_add(from);
        for (i, &s) in st.iter().enumerate() {
            let r = p.wrapping_add((s & 3) as usize * stride);
            // SAFETY: as in `and_rows_avx512`: the masks read lanes `from..from + n` of a row
            // in `block` (the upper half only when `n > 4`).
            unsafe {
                lo = _mm256_and_si256(lo, _mm256_maskload_epi64(r.cast(), m0));
                if n > 4 {
                    hi = _mm256_and_si256(hi, _mm256_maskload_epi64(r.add(4).cast(), m1));
                }
            }
            // (A compare and a byte mask: LLVM turns `vptest` here into an OR reduction.)
            let zero = _mm256_cmpeq_epi64(_mm256_or_si256(lo, hi), _mm256_setzero_si256());
            if i >= early && _mm256_movemask_epi8(zero) == -1 {
                break;
            }
            p = p.wrapping_add(words);
        }
        let mut out = [0u64; 8];
        // SAFETY: 2 x 32 bytes.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast(), lo);
            _mm256_storeu_si256(out.as_mut_ptr().add(4).cast(), hi);
        }
        out
    }

    #[target_feature(enable = "bmi2")]
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(super) fn gather_bmi2<G: super::Gather>(g: G) -> G::Out {
        g.pext(|v, m| core::arch::x86_64::_pext_u64(v, m))
    }

    #[target_feature(enable = "bmi2")]
    #[inline]
    pub(super) fn view_bmi2<B: crate::board::BoardView + ?Sized>(
        b: &B,
        persp: crate::board::Colour,
        x: i32,
        y: i32,
    ) -> [u64; 3] {
        crate::matching::view::build_with(b, persp, x, y, |v, m| {
            core::arch::x86_64::_pext_u64(v, m)
        })
    }

    #[target_feature(enable = "bmi2")]
    #[cfg_attr(not(feature = "bench-internals"), allow(dead_code))]
    pub(super) fn views_bmi2<B: crate::board::BoardView + ?Sized>(
        b: &B,
        persp: crate::board::Colour,
        foci: &[(i32, i32)],
        out: &mut [[u64; 3]],
    ) -> usize {
        crate::matching::view::each(b, persp, foci, out, |b, p, x, y, o| {
            *o = view_bmi2(b, p, x, y)
        })
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    #[cfg_attr(not(feature = "bench-internals"), allow(dead_code))]
    pub(super) fn views_bitalg<B: crate::board::BoardView + ?Sized>(
        b: &B,
        persp: crate::board::Colour,
        foci: &[(i32, i32)],
        out: &mut [[u64; 3]],
    ) -> usize {
        crate::matching::view::each(b, persp, foci, out, |b, p, x, y, o| shuffled(b, p, x, y, o))
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    pub(super) fn view_bitalg<B: crate::board::BoardView + ?Sized>(
        b: &B,
        persp: crate::board::Colour,
        x: i32,
        y: i32,
    ) -> [u64; 3] {
        let mut out = [0; 3];
        shuffled(b, persp, x, y, &mut out);
        out
    }

    /// The shuffle cut's steps (`view::build_shuffled`), writing into `out` (in a loop, the
    /// words go straight from the mask registers to the caller's slice).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    #[inline]
    fn shuffled<B: crate::board::BoardView + ?Sized>(
        b: &B,
        persp: crate::board::Colour,
        x: i32,
        y: i32,
        out: &mut [u64; 3],
    ) {
        use crate::matching::view::{
            FOE_FLAG, FOE_INDEX, FRIEND_FLAG, FRIEND_INDEX, OFF_FLAG, WORD_PERM, WORD_TEST,
            build_shuffled,
        };
        use core::arch::x86_64::*;
        let planes = |rows: &[u64; 7], r: u32| {
            // SAFETY: the mask reads the 7 u64s of `rows` only.
            let lanes = unsafe { _mm512_maskz_loadu_epi64(0x7F, rows.as_ptr().cast()) };
            let lanes = _mm512_rorv_epi64(lanes, _mm512_set1_epi64(r as i64));
            [FRIEND_INDEX, FOE_INDEX]
                .map(|i| _mm512_bitshuffle_epi64_mask(lanes, _mm512_set1_epi64(i as i64)))
        };
        let words = |f: u64, o: u64, off: u64| {
            // One state byte per point (the three planes are disjoint; empty is 0), each
            // plane's flag set in parallel.
            let (f, o, n) = (
                _mm512_maskz_set1_epi8(f, FRIEND_FLAG as i8),
                _mm512_maskz_set1_epi8(o, FOE_FLAG as i8),
                _mm512_maskz_set1_epi8(off, OFF_FLAG as i8),
            );
            let v = _mm512_ternarylogic_epi64::<0xFE>(f, o, n);
            core::array::from_fn(|w| {
                // SAFETY: 64 bytes each.
                let (perm, test) = unsafe {
                    (
                        _mm512_loadu_epi64(WORD_PERM.0[w].as_ptr().cast()),
                        _mm512_loadu_epi64(WORD_TEST.0[w].as_ptr().cast()),
                    )
                };
                _mm512_cmpeq_epi8_mask(_mm512_permutexvar_epi8(perm, v), test)
            })
        };
        build_shuffled(b, persp, x, y, planes, words, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_force_refuses_what_is_missing() {
        for vector in [Vector::Portable, Vector::Avx2, Vector::Avx512] {
            for cut in [Cut::Tables, Cut::Pext, Cut::Shuffle] {
                let s = Simd { vector, cut };
                assert_eq!(Simd::from_code(s.code()), s);
            }
        }
        let have = detect();
        assert!(Simd::supported().next() == Some(Simd::PORTABLE));
        for s in Simd::supported() {
            assert!(have.allows(s));
        }
        if !have.avx512 {
            let s = Simd {
                vector: Vector::Avx512,
                cut: Cut::Tables,
            };
            assert_eq!(force(Some(s)), Err(Unsupported(s)));
        }
        assert!(have.allows(have.best()));
    }

    #[test]
    fn and_rows_agrees_on_every_path() {
        use alloc::vec::Vec;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..400 {
            let points = 1 + round % 17;
            let words = 1 + round % 11;
            // Dense rows (ANDs stay non-zero a while) and sparse ones (early exits).
            let block: Vec<u64> = (0..4 * points * words)
                .map(|k| {
                    if k % 3 == 0 {
                        next() & next()
                    } else {
                        next() | next() | next()
                    }
                })
                .collect();
            let st: Vec<u8> = (0..points).map(|_| next() as u8).collect();
            let from = (next() as usize) % words;
            let n = (next() as usize) % (words - from + 1).min(9);
            let early = round % 5;
            let want = and_rows_portable(&block, &st, words, from, n, early);
            assert!(want[n..].iter().all(|&w| w == 0));
            // Independently: the AND of every point's lanes.
            for l in 0..n {
                let and = st.iter().enumerate().fold(u64::MAX, |a, (i, &s)| {
                    a & block[((s & 3) as usize * points + i) * words + from + l]
                });
                assert_eq!(want[l], and, "round {round}, lane {l}");
            }
            for s in Simd::supported() {
                force(Some(s)).unwrap();
                let got = and_rows(&block, &st, words, from, n, early);
                assert_eq!(got, want, "{s:?}, round {round}");
            }
        }
        force(None).unwrap();
    }
}
