//! This thread's CPU time, for benches on a shared machine: wall-clock times include waiting
//! for the other processes; CPU time does not.

use std::time::Duration;

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
