//! Futex wait/wake on 32-bit words in memory shared between processes
//! (no FUTEX_PRIVATE_FLAG: the word may be mapped at different addresses in each process).
//!
//! Under `--cfg loom` (model tests) a futex is modelled by one mutex and condition variable
//! for all words: `wait` compares the word and blocks under the mutex, as the kernel compares
//! and blocks under its bucket lock, and `wake_all` wakes every sleeper (spurious wake-ups
//! are allowed). The model's wait has no timeout, so a lost wake-up shows as a deadlock.

use std::time::Duration;

use super::sync::AtomicU32;

/// Sleeps while `*word == expected`, at most `timeout`. Spurious returns are fine: callers re-check.
#[cfg(not(loom))]
pub fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
    // SAFETY: `word` is a live, aligned 4-byte atomic for the duration of the call; the kernel
    // only reads it and compares with `expected`; `ts` outlives the call.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAIT, expected, &ts as *const libc::timespec);
    }
}

/// Wakes every process sleeping on `word`.
#[cfg(not(loom))]
pub fn wake_all(word: &AtomicU32) {
    // SAFETY: `word` is a live, aligned 4-byte atomic; FUTEX_WAKE does not access user memory.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX);
    }
}

#[cfg(loom)]
loom::lazy_static! {
    static ref FUTEX: (loom::sync::Mutex<()>, loom::sync::Condvar) = (loom::sync::Mutex::new(()), loom::sync::Condvar::new());
}

#[cfg(loom)]
pub fn wait(word: &AtomicU32, expected: u32, _timeout: Duration) {
    let (bucket, sleepers) = &*FUTEX;
    let guard = bucket.lock().unwrap();
    if word.load(super::sync::Ordering::SeqCst) == expected {
        drop(sleepers.wait(guard).unwrap());
    }
}

#[cfg(loom)]
pub fn wake_all(_word: &AtomicU32) {
    let (bucket, sleepers) = &*FUTEX;
    let _guard = bucket.lock().unwrap();
    sleepers.notify_all();
}
