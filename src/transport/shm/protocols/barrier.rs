//! The barrier of fence and passive closes, of the job barrier and of the collectives: a
//! combining tree of arrival counters with one release word (two PEs: a pair of flags).
//!
//! Arrival: the PEs are the leaves of a tree whose nodes are counters of FAN_IN children, each
//! on its own cache line. A PE adds one to its leaf's counter; the last child to arrive at a
//! node resets it and arrives at the parent; the last to arrive at the root publishes the round
//! in the release word. Nobody waits on the way up, so the critical path of the arrival is one
//! counter line per level, ceil(log4 n) lines (2 at 16 PEs, 3 at 64), with at most FAN_IN
//! read-modify-writes on each when all arrive at once, where a central counter takes one
//! transfer of the same line per PE (16, 64).
//!
//! Release: every PE waits on the one release word. When PEs outnumber cores, each sleeps at
//! most once per round and the last arriver wakes all sleepers with one system call. Measured
//! on a 16-core Xeon VM (bench/README.md), two other releases did worse: down the tree (each
//! node's last arriver releases the PEs that waited there; one line per level instead of one
//! line read by every PE) was no faster up to 12 PEs and far slower at 16, where one PE
//! preempted by a background process stalls every PE below it; dissemination (log2 n rounds of
//! point-to-point flags) cost 1.6 us per fence epoch at 16 PEs against 1.2 for this tree. Both
//! also wait, and sleep, once per level or round where PEs share cores.
//!
//! Two PEs (a row or a column of two, the smallest window of all) skip the tree: each publishes
//! the round it arrived at in its own line and waits for the other's. After the last arrival
//! that is one line moved to the other PE, where the tree moves three (the counter to the last
//! arriver, the release word to it, then to the waiter): a 2-PE fence epoch with one put went
//! from 0.98-0.99 to 0.81-0.85 us on a 2-core VM (alternating runs; bench/README.md). With three
//! or more PEs, flags cost a round of them per doubling, more than the tree.
//!
//! Subtrees hold consecutive ranks, so with ranks placed on neighbouring cores (the launcher's
//! order, the usual bindings) the lower levels stay within one socket and only the top cross.
//!
//! Rounds are numbered by each PE locally (1, 2, ...; wrapping); every PE goes through the
//! same rounds in the same order, so the numbers agree. The release word holds the last
//! round completed.

use super::sync::{AtomicU32, Ordering};
use super::wait::{Signal, WaitContext, epoch_reached, wait_epoch};
use crate::error::Result;

/// Children per node of the tree. Four levels of 4 cost about as much as two levels of 16
/// would (more lines on the path, fewer read-modify-writes per line), with fewer
/// read-modify-writes per PE than a binary tree when PEs outnumber cores.
const FAN_IN: usize = 4;
/// One line per counter and for the release word (two 64-byte lines: the adjacent-line
/// prefetcher pairs them).
const LINE: usize = 128;

#[repr(C, align(128))]
struct Counter {
    count: AtomicU32,
}

#[repr(C, align(128))]
struct Release {
    round: Signal,
}

// (loom's atomics are larger: not in the model)
#[cfg(not(loom))]
const _: () = assert!(size_of::<Counter>() == LINE && size_of::<Release>() == LINE);

/// Number of counters of the tree for `npes` leaves.
fn counters(npes: usize, fan_in: usize) -> usize {
    let (mut width, mut total) = (npes, 0);
    while width > 1 {
        width = width.div_ceil(fan_in);
        total += width;
    }
    total
}

/// Bytes of shared memory a barrier of `npes` PEs takes (the release line, then the counters).
pub fn barrier_bytes(npes: usize) -> usize {
    LINE * (1 + counters(npes, FAN_IN))
}

#[cfg(test)]
/// Levels of the tree: counter lines on the critical path of a round (the release adds one
/// line, read by every PE).
pub fn levels(npes: usize) -> usize {
    let (mut width, mut levels) = (npes, 0);
    while width > 1 {
        width = width.div_ceil(FAN_IN);
        levels += 1;
    }
    levels
}

/// A barrier of `npes` PEs over its words (in shared memory, or in an [`OwnedBarrier`]).
pub struct Barrier<'a> {
    shape: Shape<'a>,
    npes: usize,
}

enum Shape<'a> {
    /// Two PEs: PE p's arrival is the round in `flags[p]` (the two lines of the tree's layout
    /// for 2 PEs: its release line and its one counter line).
    Pair([&'a Release; 2]),
    Tree {
        release: &'a Release,
        counters: &'a [Counter],
        fan_in: usize,
    },
}

impl<'a> Barrier<'a> {
    /// The barrier of `npes` PEs whose words start at `base`.
    ///
    /// # Safety
    /// `base` is 128-byte aligned and points to [`barrier_bytes`]`(npes)` bytes that stay
    /// mapped for `'a`, are zero-filled before the first round (a barrier before round 1), and
    /// are used by every PE as the words of this barrier of `npes` PEs only.
    pub unsafe fn at(base: *const u8, npes: usize) -> Self {
        debug_assert_eq!(base as usize % LINE, 0);
        // SAFETY: (caller) the memory holds the Release line then the counters, each a
        // 128-byte line (barrier_bytes; for 2 PEs one counter, used as a second Release line:
        // both are 128-byte lines of atomics); zero bytes are valid atomics; only atomics are
        // accessed through these references.
        let shape = unsafe {
            if npes == 2 {
                Shape::Pair([&*(base as *const Release), &*(base.add(LINE) as *const Release)])
            } else {
                Shape::Tree {
                    release: &*(base as *const Release),
                    counters: std::slice::from_raw_parts(base.add(LINE) as *const Counter, counters(npes, FAN_IN)),
                    fan_in: FAN_IN,
                }
            }
        };
        Barrier { shape, npes }
    }

    /// Arrives at `round` as PE `rank` and waits until all PEs have arrived.
    /// Memory written by any PE before it arrives is visible to every PE after it returns.
    pub fn arrive_and_wait(&self, round: u32, rank: usize, ctx: &WaitContext<'_>) -> Result<()> {
        debug_assert!(rank < self.npes);
        let (release, counters, fan_in) = match &self.shape {
            Shape::Pair(flags) => {
                // The store releases what this PE wrote; the other's flag at `round` or later
                // (it may already be one round ahead) acquires what it wrote.
                flags[rank].round.store(round);
                return wait_epoch(&flags[1 - rank].round, round, ctx);
            }
            Shape::Tree { release, counters, fan_in } => (release, counters, *fan_in),
        };
        let (mut index, mut width, mut level_start) = (rank, self.npes, 0);
        while width > 1 {
            let node = index / fan_in;
            let children = fan_in.min(width - node * fan_in);
            let counter = &counters[level_start + node].count;
            // AcqRel: the arrivals at a node form one release sequence, so its last arriver
            // acquires everything the others (and, through them, their subtrees) wrote before
            // arriving, and passes it on up with its own arrival at the parent.
            let before = counter.fetch_add(1, Ordering::AcqRel);
            if before as usize + 1 < children {
                return wait_epoch(&release.round, round, ctx);
            }
            // Reset before going on: a PE can only arrive at the next round after it saw this
            // round's release, hence after this reset (ordered before the release by the
            // release sequence up to the root).
            counter.store(0, Ordering::Relaxed);
            index = node;
            level_start += width.div_ceil(fan_in);
            width = width.div_ceil(fan_in);
        }
        release.round.store(round);
        Ok(())
    }

    /// The last round completed.
    pub fn completed(&self) -> u32 {
        match &self.shape {
            Shape::Pair([a, b]) => {
                let (a, b) = (a.round.load(), b.round.load());
                if epoch_reached(a, b) { b } else { a }
            }
            Shape::Tree { release, .. } => release.round.load(),
        }
    }

    /// Wakes every PE sleeping in this barrier (when the job loses a PE: they then notice).
    pub fn wake_all(&self) {
        match &self.shape {
            Shape::Pair(flags) => flags.iter().for_each(|f| super::futex::wake_all(&f.round.value)),
            Shape::Tree { release, .. } => super::futex::wake_all(&release.round.value),
        }
    }
}

#[cfg(any(test, loom))]
fn signal() -> Signal {
    Signal { value: AtomicU32::new(0), sleepers: AtomicU32::new(0) }
}

/// A barrier in this process's memory (threads standing in for PEs: tests and models).
#[cfg(any(test, loom))]
pub struct OwnedBarrier {
    /// PE 0's flag of a pair, or the tree's release word.
    release: Release,
    /// PE 1's flag of a pair.
    second: Release,
    counters: Vec<Counter>,
    npes: usize,
    fan_in: usize,
}

#[cfg(any(test, loom))]
impl OwnedBarrier {
    pub fn new(npes: usize) -> Self {
        Self::with_fan_in(npes, FAN_IN)
    }

    /// A tree of `fan_in` children per node (the models use 2, for a tree of several levels
    /// with few PEs); 2 PEs make a pair whatever `fan_in`, as in shared memory.
    pub fn with_fan_in(npes: usize, fan_in: usize) -> Self {
        assert!(fan_in >= 2 && npes >= 1);
        OwnedBarrier {
            release: Release { round: signal() },
            second: Release { round: signal() },
            counters: (0..counters(npes, fan_in)).map(|_| Counter { count: AtomicU32::new(0) }).collect(),
            npes,
            fan_in,
        }
    }

    pub fn barrier(&self) -> Barrier<'_> {
        let shape = match self.npes {
            2 => Shape::Pair([&self.release, &self.second]),
            _ => Shape::Tree { release: &self.release, counters: &self.counters, fan_in: self.fan_in },
        };
        Barrier { shape, npes: self.npes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn tree_sizes() {
        assert_eq!(counters(1, 4), 0);
        assert_eq!(counters(2, 4), 1);
        assert_eq!(counters(4, 4), 1);
        assert_eq!(counters(5, 4), 3);
        assert_eq!(counters(16, 4), 5);
        assert_eq!(counters(64, 4), 21);
        assert_eq!(counters(3, 2), 3);
        assert_eq!(barrier_bytes(16), (1 + 5) * 128);
        assert_eq!([1, 2, 4, 5, 16, 64, 1024].map(levels), [0, 1, 1, 2, 2, 3, 5]);
    }

    /// Threads standing in for PEs: in every round each one adds to a total before arriving
    /// and checks after the barrier that every PE's addition of that round is there; a second
    /// barrier per round keeps anybody from adding for the next round too early.
    fn run(npes: usize, fan_in: usize, rounds: u32, spin: Duration) {
        let words = Arc::new(OwnedBarrier::with_fan_in(npes, fan_in));
        let total = Arc::new(AtomicU32::new(0));
        let threads: Vec<_> = (0..npes)
            .map(|rank| {
                let (words, total) = (Arc::clone(&words), Arc::clone(&total));
                std::thread::spawn(move || {
                    let alive = || Ok(());
                    let ctx = WaitContext { alive: &alive, spin, waiting_for: None, progress: None };
                    let barrier = words.barrier();
                    let mut local_round = 0u32;
                    for k in 1..=rounds {
                        total.fetch_add(1, Ordering::Relaxed);
                        local_round += 1;
                        barrier.arrive_and_wait(local_round, rank, &ctx).unwrap();
                        assert_eq!(total.load(Ordering::Relaxed), k * npes as u32);
                        local_round += 1;
                        barrier.arrive_and_wait(local_round, rank, &ctx).unwrap();
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(total.load(Ordering::Relaxed), rounds * npes as u32);
        assert_eq!(words.barrier().completed(), 2 * rounds);
    }

    #[test]
    fn rounds_hold_everybody_spinning() {
        run(3, FAN_IN, 500, Duration::from_micros(50));
    }

    #[test]
    fn rounds_hold_for_a_pair_spinning_and_sleeping() {
        run(2, FAN_IN, 2000, Duration::from_micros(50));
        run(2, FAN_IN, 300, Duration::ZERO);
    }

    #[test]
    fn critical_path_grows_with_the_log_of_the_pes() {
        // arrival lines on the critical path (the release line adds one): log4(npes) rounded up
        assert_eq!([1, 2, 4, 5, 16, 17, 64, 128].map(levels), [0, 1, 1, 2, 2, 3, 3, 4]);
    }

    #[test]
    fn rounds_hold_on_trees_of_several_levels() {
        run(7, 2, 300, Duration::from_micros(50));
        run(6, FAN_IN, 300, Duration::from_micros(50));
    }

    #[test]
    fn rounds_hold_everybody_sleeping_oversubscribed() {
        run(8, FAN_IN, 200, Duration::ZERO);
        run(9, 2, 100, Duration::ZERO);
    }

    #[test]
    fn single_pe_never_waits() {
        let words = OwnedBarrier::new(1);
        let alive = || Ok(());
        let ctx = WaitContext { alive: &alive, spin: Duration::ZERO, waiting_for: None, progress: None };
        for round in 1..10 {
            words.barrier().arrive_and_wait(round, 0, &ctx).unwrap();
            assert_eq!(words.barrier().completed(), round);
        }
    }

    #[test]
    fn shared_memory_view_matches_its_size() {
        let npes = 21;
        let mut memory = vec![0u128; barrier_bytes(npes) / 16 + 8];
        let base = (memory.as_mut_ptr() as usize).next_multiple_of(LINE) as *const u8;
        // SAFETY: zero-filled, 128-aligned, barrier_bytes(npes) long inside `memory`, which
        // outlives the barrier; used by this thread only.
        let barrier = unsafe { Barrier::at(base, npes) };
        let Shape::Tree { counters: lines, .. } = barrier.shape else { panic!("21 PEs make a tree") };
        assert_eq!(lines.len(), counters(npes, FAN_IN));
        let end = lines.as_ptr() as usize + lines.len() * LINE;
        assert_eq!(end, base as usize + barrier_bytes(npes));
        // two PEs: their two flags are the two lines of barrier_bytes(2)
        // SAFETY: as above, barrier_bytes(2) <= barrier_bytes(21) bytes of `memory`.
        let pair = unsafe { Barrier::at(base, 2) };
        let Shape::Pair([a, b]) = pair.shape else { panic!("2 PEs make a pair") };
        assert_eq!((a as *const Release as usize, b as *const Release as usize), (base as usize, base as usize + LINE));
        assert_eq!(barrier_bytes(2), 2 * LINE);
    }
}
