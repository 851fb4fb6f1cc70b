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
    /// Called over and over while waiting, where another agent needs this process to act
    /// (the MPI transport: MPI progress, which PEs of other nodes may need from us while we wait).
    pub progress: Option<&'a dyn Fn()>,
}

/// How long one sleep lasts before the liveness check runs again.
const SLEEP_SLICE: Duration = Duration::from_millis(20);
/// How long one sleep lasts when the wait has `progress` to make.
const PROGRESS_SLICE: Duration = Duration::from_micros(100);
/// Spins between two calls of `progress` (a few microseconds).
const SPINS_PER_PROGRESS: u32 = 4096;

/// `a` is at or after `b` in wrapping 32-bit epoch order.
pub fn epoch_reached(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) >= 0
}

/// While spinning, the core is offered to other processes this often: a yield that returns at
/// once costs a system call (about 1% of the interval); one that takes long shows that the
/// core is wanted, and the spin stops.
const OFFER_CORE_EVERY: Duration = Duration::from_micros(25);

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
        return sleep_until(signal, ctx, done, start).inspect(|_| judge_sleep(ctx, start));
    }
    // A spin lasts as long as nobody else wants the core (up to the limit): a waiter that
    // falls asleep while it has a core of its own costs whoever waits on it a wake-up later
    // (tens of microseconds), and in a chain of waits (the group epochs of a ring of PEs)
    // every PE downstream then falls asleep in turn.
    let mut offer_at = start + OFFER_CORE_EVERY;
    let mut spins = 0u32;
    while !done(signal.value.load(Ordering::Acquire)) {
        std::hint::spin_loop();
        spins = spins.wrapping_add(1);
        if !spins.is_multiple_of(64) {
            continue;
        }
        if let Some(progress) = ctx.progress.filter(|_| spins.is_multiple_of(SPINS_PER_PROGRESS)) {
            progress();
        }
        let now = Instant::now();
        if now >= offer_at || now - start >= limit {
            // A yield that takes long gave the core to another process: the spin kept it
            // from running, and it may be the very PE we wait for.
            sync::yield_now();
            let after = Instant::now();
            if after - now >= spin::CORE_WAS_WANTED {
                spin::BUDGET.wasted(ctx.spin);
                return sleep_until(signal, ctx, done, start);
            }
            if after - start >= limit {
                // (Not counted as wasted: nobody wanted the core meanwhile, and sleeping would
                // not have brought the peer any sooner.)
                return sleep_until(signal, ctx, done, start).inspect(|_| judge_sleep(ctx, start));
            }
            offer_at = after + OFFER_CORE_EVERY;
        }
    }
    spin::BUDGET.hit(ctx.spin);
    Ok(())
}

/// A wait that slept but ended within the longest spin would have ended while spinning: a hit.
/// Without this, a budget cut low (by a burst of yields that gave the core away) stays low for
/// the rest of the run once the waits sleep: no spin is long enough to end one, and each sleep
/// makes the next PE's wait longer (the chain of sleeps of group epochs around a ring of PEs).
fn judge_sleep(ctx: &WaitContext<'_>, start: Instant) {
    if !ctx.spin.is_zero() && start.elapsed() < ctx.spin {
        spin::BUDGET.hit(ctx.spin);
    }
}

/// Yields first (`yield_phase`), then sleeps on the futex until `done` holds, checking the job's
/// liveness every SLEEP_SLICE.
fn sleep_until(signal: &Signal, ctx: &WaitContext<'_>, done: impl Fn(u32) -> bool, start: Instant) -> Result<()> {
    let mut checked = Instant::now();
    let report_every = diagnostics::hang_report_interval();
    let mut next_report = report_every.map(|every| start + every);
    let slice = if ctx.progress.is_some() { PROGRESS_SLICE } else { SLEEP_SLICE };
    loop {
        if let Some(progress) = ctx.progress {
            progress();
        }
        if yield_phase(signal, ctx, &done) {
            return Ok(());
        }
        signal.sleepers.fetch_add(1, Ordering::SeqCst);
        sync::order_store_before_load();
        let seen = signal.value.load(Ordering::SeqCst);
        if !done(seen) {
            futex::wait(&signal.value, seen, slice);
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

/// Yields wanted by other processes after which a waiter sleeps: they have work for this core.
const WANTED_YIELDS: u32 = 4;
/// The longest a waiter yields a core that nobody else wants before it sleeps.
const YIELD_PHASE: Duration = Duration::from_micros(50);
/// Yields between two calls of the wait's `progress` (a few microseconds).
const YIELDS_PER_PROGRESS: u32 = 8;

/// Yields until `done` holds (true), or until WANTED_YIELDS yields ran other processes, or until
/// the core has been offered for YIELD_PHASE (false: sleep).
///
/// Yielding first pays where the awaited PE needs this very core (no system call to wake
/// anybody then: on 2 cores with 4 PEs, 3-4x faster than sleeping at once). Yielding on while
/// nobody else wants the core pays too: a waiter that sleeps there leaves its CPU idle, and on a
/// virtual machine an idle CPU halts, and waking the waiter takes the host. Four PEs left three
/// on one CPU and one on the other by the scheduler, the lone one sleeping after four quick
/// yields, made every fence epoch 3x slower for a whole run (bench/README.md); yielding for up
/// to YIELD_PHASE cured it (3+1 now within 1.5x of 2+2: the placements of `make bench`).
fn yield_phase(signal: &Signal, ctx: &WaitContext<'_>, done: &impl Fn(u32) -> bool) -> bool {
    let start = Instant::now();
    let mut wanted = 0;
    let mut yields = 0u32;
    loop {
        if done(signal.value.load(Ordering::Acquire)) {
            return true;
        }
        // (In the model the clock must not steer executions: a fixed number of yields.)
        if cfg!(loom) {
            if wanted == WANTED_YIELDS {
                return false;
            }
            wanted += 1;
            sync::yield_now();
            continue;
        }
        let before = Instant::now();
        if before - start >= YIELD_PHASE {
            return false;
        }
        sync::yield_now();
        yields = yields.wrapping_add(1);
        if let Some(progress) = ctx.progress.filter(|_| yields.is_multiple_of(YIELDS_PER_PROGRESS)) {
            progress();
        }
        if before.elapsed() >= spin::CORE_WAS_WANTED {
            wanted += 1;
            if wanted == WANTED_YIELDS {
                return done(signal.value.load(Ordering::Acquire));
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
            let ctx = WaitContext { alive: &alive, spin: Duration::ZERO, waiting_for: None, progress: None };
            wait_epoch(&s2, 3, &ctx).unwrap();
        });
        std::thread::sleep(Duration::from_millis(50));
        s.store(3);
        t.join().unwrap();
    }

    #[test]
    fn yield_phase_ends_when_done_or_after_its_time() {
        let s = signal();
        let alive = || Ok(());
        let ctx = WaitContext { alive: &alive, spin: Duration::ZERO, waiting_for: None, progress: None };
        assert!(yield_phase(&s, &ctx, &|v| v == 0), "done at once");
        // Nobody stores: the phase gives up, for the caller to sleep (once its time is out, or
        // sooner after WANTED_YIELDS yields that ran other processes on a busy machine).
        assert!(!yield_phase(&s, &ctx, &|v| v == 1), "gives up");
    }

    #[test]
    fn liveness_error_ends_the_wait() {
        let s = signal();
        let alive = || Err(Error::PeerGone { pe: 1, how: "died" });
        let ctx = WaitContext { alive: &alive, spin: Duration::from_micros(1), waiting_for: None, progress: None };
        assert_eq!(wait_epoch(&s, 1, &ctx), Err(Error::PeerGone { pe: 1, how: "died" }));
    }

    #[test]
    fn progress_runs_while_waiting_spinning_or_asleep() {
        // The awaited value comes only from the progress calls (as a peer's answer can come only
        // once MPI has progressed here): the wait must keep calling them, asleep or spinning.
        for spin in [Duration::ZERO, Duration::from_micros(200)] {
            let s = signal();
            let calls = AtomicU32::new(0);
            let progress = || {
                if calls.fetch_add(1, Ordering::Relaxed) == 20 {
                    s.store(1);
                }
            };
            let alive = || Ok(());
            let ctx = WaitContext { alive: &alive, spin, waiting_for: None, progress: Some(&progress) };
            wait_epoch(&s, 1, &ctx).unwrap();
            assert!(calls.load(Ordering::Relaxed) > 20);
        }
    }
}
