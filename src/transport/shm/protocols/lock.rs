//! The passive-mode lock of one PE's window: a reader-writer lock in one shared word
//! (shared for gets, exclusive for puts and accumulates), sleeping on a futex under contention.

use super::sync::Ordering;
use super::wait::{Signal, WaitContext, wait_until};
use crate::error::Result;

const WRITER: u32 = 1 << 31;

pub fn lock_exclusive(lock: &Signal, ctx: &WaitContext<'_>) -> Result<()> {
    loop {
        if lock.value.compare_exchange_weak(0, WRITER, Ordering::Acquire, Ordering::Relaxed).is_ok() {
            return Ok(());
        }
        wait_until(lock, ctx, |v| v == 0)?;
    }
}

pub fn unlock_exclusive(lock: &Signal) {
    lock.store(0);
}

pub fn lock_shared(lock: &Signal, ctx: &WaitContext<'_>) -> Result<()> {
    loop {
        let v = lock.value.load(Ordering::Relaxed);
        if v & WRITER == 0 {
            if lock.value.compare_exchange_weak(v, v + 1, Ordering::Acquire, Ordering::Relaxed).is_ok() {
                return Ok(());
            }
            continue;
        }
        wait_until(lock, ctx, |v| v & WRITER == 0)?;
    }
}

pub fn unlock_shared(lock: &Signal) {
    lock.fetch_add(u32::MAX); // wrapping -1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicU32;

    #[test]
    fn exclusive_sections_do_not_overlap() {
        let lock = Arc::new(Signal { value: AtomicU32::new(0), sleepers: AtomicU32::new(0) });
        let inside = Arc::new(AtomicU32::new(0));
        let threads: Vec<_> = (0..4)
            .map(|i| {
                let (lock, inside) = (Arc::clone(&lock), Arc::clone(&inside));
                std::thread::spawn(move || {
                    let alive = || Ok(());
                    let ctx = WaitContext { alive: &alive, spin: std::time::Duration::from_micros(1), waiting_for: None, progress: None };
                    for _ in 0..2000 {
                        if i % 2 == 0 {
                            lock_exclusive(&lock, &ctx).unwrap();
                            assert_eq!(inside.fetch_add(1000, Ordering::SeqCst), 0);
                            inside.fetch_sub(1000, Ordering::SeqCst);
                            unlock_exclusive(&lock);
                        } else {
                            lock_shared(&lock, &ctx).unwrap();
                            assert!(inside.fetch_add(1, Ordering::SeqCst) < 1000);
                            inside.fetch_sub(1, Ordering::SeqCst);
                            unlock_shared(&lock);
                        }
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(lock.value.load(Ordering::SeqCst), 0);
    }
}
