//! Waiting on a word in shared memory: spin briefly, then sleep on a futex, so that
//! oversubscribed jobs (more PEs than cores) give the core to the PE they wait for.
//! While sleeping, the waiter checks that the job is still alive, so a dead PE never
//! leaves the others waiting forever.

use std::time::{Duration, Instant};

use super::futex;
use super::spin;
use super::sync::{self, AtomicU32, Ordering};
use crate::diagnostics;
use crate::error::Result;

/// A word others wait on, with the count of its sleepers (so a writer only pays for a
/// wake-up system call when somebody sleeps).
#[repr(C)]
pub struct Signal {
    pub value: AtomicU32,
    pub sleepers: AtomicU32,
}

impl Signal {
    /// Publishes `v` and wakes sleepers.
    pub fn store(&self, v: u32) {
        self.value.store(v, Ordering::SeqCst);
        sync::order_store_before_load();
        if self.sleepers.load(Ordering::SeqCst) != 0 {
            futex::wake_all(&self.value);
        }
    }

    /// Adds `delta` (wrapping), wakes sleepers, returns the previous value.
    pub fn fetch_add(&self, delta: u32) -> u32 {
        let old = self.value.fetch_add(delta, Ordering::SeqCst);
        sync::order_store_before_load();
        if self.sleepers.load(Ordering::SeqCst) != 0 {
            futex::wake_all(&self.value);
        }
        old
    }

    pub fn load(&self) -> u32 {
        self.value.load(Ordering::Acquire)
    }
}

/// Why and on whom a PE waits, for liveness checks and diagnostics.
pub struct WaitContext<'a> {
    /// Job-wide liveness check, called while sleeping: an error ends the wait.
    pub alive: &'a dyn Fn() -> Result<()>,
    /// How long to spin before yielding and sleeping (zero when PEs outnumber cores).
    pub spin: Duration,
    /// Describes whom the PE waits for ("PE 3 to close epoch 7 of window 2"), for the
    /// report of a wait that lasts too long; evaluated only then.
    pub waiting_for: Option<&'a dyn Fn() -> String>,
}

/// How long one sleep lasts before the liveness check runs again.
const SLEEP_SLICE: Duration = Duration::from_millis(20);

/// `a` is at or after `b` in wrapping 32-bit epoch order.
pub fn epoch_reached(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) >= 0
}

/// Waits until `done(signal value)` holds.
pub fn wait_until(signal: &Signal, ctx: &WaitContext<'_>, done: impl Fn(u32) -> bool) -> Result<()> {
    if done(signal.value.load(Ordering::Acquire)) {
        return Ok(());
    }
    // Spinning is bounded in time, not in iterations, and adapts to whether it pays (see
    // `spin`): a peer that lost its core to another process must not cost a spin per wait.
    let start = Instant::now();
    // (Under the model checker, every interleaving of a spin would be explored: no spin there.)
    let limit = if cfg!(loom) { Duration::ZERO } else { spin::BUDGET.limit(ctx.spin) };
    if limit.is_zero() {
        return sleep_until(signal, ctx, done, start);
    }
    let mut spins = 0u32;
    while !done(signal.value.load(Ordering::Acquire)) {
        std::hint::spin_loop();
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(64) && start.elapsed() >= limit {
            // A yield that takes long gave the core to another process: the spin kept it
            // from running, and it may be the very PE we wait for.
            let yielded = Instant::now();
            sync::yield_now();
            if yielded.elapsed() >= spin::CORE_WAS_WANTED {
                spin::BUDGET.wasted(ctx.spin);
            }
            return sleep_until(signal, ctx, done, start);
        }
    }
    spin::BUDGET.hit(ctx.spin);
    Ok(())
}

fn sleep_until(signal: &Signal, ctx: &WaitContext<'_>, done: impl Fn(u32) -> bool, start: Instant) -> Result<()> {
    let mut checked = Instant::now();
    let report_every = diagnostics::hang_report_interval();
    let mut next_report = report_every.map(|every| start + every);
    loop {
        for _ in 0..4 {
            if done(signal.value.load(Ordering::Acquire)) {
                return Ok(());
            }
            sync::yield_now();
        }
        signal.sleepers.fetch_add(1, Ordering::SeqCst);
        sync::order_store_before_load();
        let seen = signal.value.load(Ordering::SeqCst);
        if !done(seen) {
            futex::wait(&signal.value, seen, SLEEP_SLICE);
        }
        signal.sleepers.fetch_sub(1, Ordering::SeqCst);
        if done(signal.value.load(Ordering::Acquire)) {
            return Ok(());
        }
        // (not in the model: its executions must not depend on the clock)
        if !cfg!(loom) && checked.elapsed() >= SLEEP_SLICE {
            if let Err(e) = (ctx.alive)() {
                // A PE publishes its last signal before it is marked finalized or exited:
                // look once more so that its final signal is not mistaken for its absence.
                return if done(signal.value.load(Ordering::SeqCst)) { Ok(()) } else { Err(e) };
            }
            checked = Instant::now();
            if let (Some(at), Some(every), Some(what)) = (next_report, report_every, ctx.waiting_for)
                && checked >= at
            {
                diagnostics::report_hang(checked - start, &what());
                next_report = Some(at + every);
            }
        }
    }
}

/// Waits until the epoch stored in `signal` reaches `epoch`.
pub fn wait_epoch(signal: &Signal, epoch: u32, ctx: &WaitContext<'_>) -> Result<()> {
    wait_until(signal, ctx, |v| epoch_reached(v, epoch))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::sync::Arc;

    fn signal() -> Signal {
        Signal { value: AtomicU32::new(0), sleepers: AtomicU32::new(0) }
    }

    #[test]
    fn epochs_compare_across_wrap() {
        assert!(epoch_reached(5, 5));
        assert!(epoch_reached(6, 5));
        assert!(!epoch_reached(4, 5));
        assert!(epoch_reached(1, u32::MAX));
        assert!(!epoch_reached(u32::MAX, 1));
    }

    #[test]
    fn sleeper_is_woken_by_store() {
        let s = Arc::new(signal());
        let s2 = Arc::clone(&s);
        let t = std::thread::spawn(move || {
            let alive = || Ok(());
            let ctx = WaitContext { alive: &alive, spin: Duration::ZERO, waiting_for: None };
            wait_epoch(&s2, 3, &ctx).unwrap();
        });
        std::thread::sleep(Duration::from_millis(50));
        s.store(3);
        t.join().unwrap();
    }

    #[test]
    fn liveness_error_ends_the_wait() {
        let s = signal();
        let alive = || Err(Error::PeerGone { pe: 1, how: "died" });
        let ctx = WaitContext { alive: &alive, spin: Duration::from_micros(1), waiting_for: None };
        assert_eq!(wait_epoch(&s, 1, &ctx), Err(Error::PeerGone { pe: 1, how: "died" }));
    }
}
