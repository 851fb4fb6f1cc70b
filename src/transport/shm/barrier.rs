//! A central barrier in shared memory: one arrival counter and one release word, each on
//! its own cache line. Every PE sleeps at most once per round, on the release word, and only
//! the last arriver wakes the sleepers (one system call), so a round costs O(npes) wake-ups
//! even when PEs outnumber cores. (Waiting on each peer's own word instead costs O(npes^2)
//! wake-ups: every peer's arrival wakes everybody sleeping on it, who then sleep again.)
//!
//! Rounds are numbered by each PE locally (1, 2, ...; wrapping); every PE goes through the
//! same rounds in the same order, so the numbers agree. The release word holds the last
//! round completed.

use super::sync::{AtomicU32, Ordering};
use super::wait::{Signal, WaitContext, wait_epoch};
use crate::error::Result;

#[repr(C, align(128))]
struct Arrivals {
    count: AtomicU32,
}

#[repr(C, align(128))]
struct Release {
    round: Signal,
}

/// The shared words of one barrier (zero-initialised memory is a barrier before round 1).
#[repr(C)]
pub struct BarrierWords {
    arrivals: Arrivals,
    release: Release,
}

impl BarrierWords {
    pub fn new() -> Self {
        BarrierWords {
            arrivals: Arrivals { count: AtomicU32::new(0) },
            release: Release { round: Signal { value: AtomicU32::new(0), sleepers: AtomicU32::new(0) } },
        }
    }

    /// Arrives at `round` as one of `npes` PEs and waits until all have arrived.
    /// Memory written by any PE before it arrives is visible to every PE after it returns.
    pub fn arrive_and_wait(&self, round: u32, npes: usize, ctx: &WaitContext<'_>) -> Result<()> {
        // AcqRel: the arrivals form one release sequence, so the last arriver acquires
        // everything the others wrote before arriving, and publishes it with the release.
        let before = self.arrivals.count.fetch_add(1, Ordering::AcqRel);
        if before as usize + 1 == npes {
            // Reset before the release: a PE can only arrive at the next round after it saw
            // this release, hence after the reset.
            self.arrivals.count.store(0, Ordering::Relaxed);
            self.release.round.store(round);
            return Ok(());
        }
        wait_epoch(&self.release.round, round, ctx)
    }

    /// The last round completed.
    pub fn completed(&self) -> u32 {
        self.release.round.load()
    }

    /// The word waiters sleep on (to wake them when the job loses a PE).
    pub fn release_word(&self) -> &AtomicU32 {
        &self.release.round.value
    }
}

impl Default for BarrierWords {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    /// Threads standing in for PEs: in every round each one adds to a total before arriving
    /// and checks after the barrier that every PE's addition of that round is there; a second
    /// barrier per round keeps anybody from adding for the next round too early.
    fn run(npes: usize, rounds: u32, spin: Duration) {
        let words = Arc::new(BarrierWords::new());
        let total = Arc::new(AtomicU32::new(0));
        let threads: Vec<_> = (0..npes)
            .map(|_| {
                let (words, total) = (Arc::clone(&words), Arc::clone(&total));
                std::thread::spawn(move || {
                    let alive = || Ok(());
                    let ctx = WaitContext { alive: &alive, spin, waiting_for: None };
                    let mut local_round = 0u32;
                    for k in 1..=rounds {
                        total.fetch_add(1, Ordering::Relaxed);
                        local_round += 1;
                        words.arrive_and_wait(local_round, npes, &ctx).unwrap();
                        assert_eq!(total.load(Ordering::Relaxed), k * npes as u32);
                        local_round += 1;
                        words.arrive_and_wait(local_round, npes, &ctx).unwrap();
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(total.load(Ordering::Relaxed), rounds * npes as u32);
    }

    #[test]
    fn rounds_hold_everybody_spinning() {
        run(3, 500, Duration::from_micros(50));
    }

    #[test]
    fn rounds_hold_everybody_sleeping_oversubscribed() {
        run(8, 200, Duration::ZERO);
    }

    #[test]
    fn single_pe_never_waits() {
        let words = BarrierWords::new();
        let alive = || Ok(());
        let ctx = WaitContext { alive: &alive, spin: Duration::ZERO, waiting_for: None };
        for round in 1..10 {
            words.arrive_and_wait(round, 1, &ctx).unwrap();
            assert_eq!(words.completed(), round);
        }
    }
}
