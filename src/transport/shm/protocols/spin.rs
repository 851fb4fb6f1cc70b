//! How long a waiter spins before it yields the core: adaptive, one budget per process.
//!
//! Spinning pays when the awaited PE runs on another core: its answer arrives within
//! microseconds and no system call is made; and a waiter that sleeps while it has a core of its
//! own costs whoever waits on it a wake-up later (so that a chain of waits, as in group epochs
//! around a ring of PEs, turns into a chain of sleeps). It costs a whole spin when the awaited
//! PE needs this very core (other processes share the machine, or PEs outnumber cores): the
//! answer only comes after we yield. The budget tells the two apart by outcome: a wait that
//! ends while spinning, or that slept but ended within the maximum (a spin would have caught
//! it), doubles it (up to the maximum); a yield during the spin that gave the
//! core away (it took long) halves it. A yield that returns at once means nobody wanted the
//! core, and the spin goes on (a spin that runs to its end then sleeps, the budget unchanged:
//! sleeping would not have brought the peer sooner). At a budget of zero, one wait in
//! PROBE_EVERY still spins briefly, so the budget recovers when the cores free up.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// A yield that lasts this long ran another process on our core.
pub const CORE_WAS_WANTED: Duration = Duration::from_micros(3);
/// The longest spin of a PE that has a core of its own (RPNCOMM_SPIN_US overrides it). Longer
/// than a wake-up from a futex sleep (5 to 100 us, more on virtual machines), so that a peer
/// woken late does not put its own waiters to sleep in turn; the spin ends earlier when
/// another process wants the core.
pub const SPIN_WITH_A_CORE: Duration = Duration::from_micros(250);
const PROBE_EVERY: u32 = 16;
const PROBE_NS: u32 = 1_000;
/// Below this a budget counts as zero (no spin).
const OFF_NS: u32 = 200;
const GROW_NS: u32 = 500;

pub struct SpinBudget {
    nanos: AtomicU32,
    waits: AtomicU32,
}

/// The budget of this process's waits.
pub static BUDGET: SpinBudget = SpinBudget::new();

fn nanos_of(d: Duration) -> u32 {
    d.as_nanos().min(u32::MAX as u128) as u32
}

impl SpinBudget {
    pub const fn new() -> Self {
        SpinBudget { nanos: AtomicU32::new(u32::MAX), waits: AtomicU32::new(0) }
    }

    fn current(&self, max: Duration) -> u32 {
        self.nanos.load(Ordering::Relaxed).min(nanos_of(max))
    }

    /// How long the next wait may spin, given the most it may (zero: do not spin).
    pub fn limit(&self, max: Duration) -> Duration {
        if max.is_zero() {
            return Duration::ZERO;
        }
        match self.current(max) {
            n if n >= OFF_NS => Duration::from_nanos(n as u64),
            _ if self.waits.fetch_add(1, Ordering::Relaxed).is_multiple_of(PROBE_EVERY) => {
                Duration::from_nanos(PROBE_NS.min(nanos_of(max)) as u64)
            }
            _ => Duration::ZERO,
        }
    }

    /// The wait ended while spinning.
    pub fn hit(&self, max: Duration) {
        let n = self.current(max);
        self.nanos.store(n.saturating_mul(2).saturating_add(GROW_NS).min(nanos_of(max)), Ordering::Relaxed);
    }

    /// The core was wanted by another process while we spun.
    pub fn wasted(&self, max: Duration) {
        self.nanos.store(self.current(max) / 2, Ordering::Relaxed);
    }
}

impl Default for SpinBudget {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: Duration = Duration::from_micros(10);

    #[test]
    fn wasted_spins_turn_spinning_off_and_hits_bring_it_back() {
        let b = SpinBudget::new();
        assert_eq!(b.limit(MAX), MAX, "starts at the maximum");
        for _ in 0..10 {
            b.wasted(MAX);
        }
        let spins = (0..PROBE_EVERY * 4).filter(|_| !b.limit(MAX).is_zero()).count();
        assert_eq!(spins, 4, "off, but for one probe in {PROBE_EVERY}");
        for _ in 0..6 {
            b.hit(MAX);
        }
        assert_eq!(b.limit(MAX), MAX, "back at the maximum");
    }

    #[test]
    fn no_spin_when_the_maximum_is_zero() {
        let b = SpinBudget::new();
        assert!((0..100).all(|_| b.limit(Duration::ZERO).is_zero()));
    }
}
