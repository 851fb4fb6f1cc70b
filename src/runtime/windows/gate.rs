//! The gate of one window: the operations of any number of threads of this PE pass it at the
//! same time, and a configuration call (open, close, free ...) shuts it to have the window to
//! itself. An operation that finds the gate shut is refused (the rules forbid overlapping a
//! configuration call on the same window), never let through.
//!
//! Why not a reader-writer lock: its one reader count is a cache line every operation writes,
//! and two threads doing one-element puts (0.03 us each) would spend their time passing that
//! line between cores. Here each thread counts itself in on a lane of its own (its own cache
//! line; threads beyond `LANES` share lanes, still correctly), so operations from different
//! threads write no common line. The price is on the rare side: shutting reads every lane.
//!
//! The protocol is Dekker's: an operation increments its lane, then reads `shut`; the closer
//! sets `shut`, then reads every lane. Both pairs are ordered (SeqCst), so at least one side
//! sees the other: either the operation sees the gate shut and backs out, or the closer sees it
//! counted in and waits until it leaves. Checked by the loom model `gate_*`
//! (tests/loom_protocols.rs), with a broken variant that the model catches.

use crate::transport::shm::sync::{AtomicU32, Ordering, order_store_before_load, yield_now};

/// Lanes per gate: the threads of one PE that can operate without sharing a line.
#[cfg(not(loom))]
pub const LANES: usize = 16;
/// In the model, two lanes are enough to have threads on distinct and on shared lanes.
#[cfg(loom)]
pub const LANES: usize = 2;

const OPEN: u32 = 0;
const SHUT: u32 = 1;
const SEALED: u32 = 2;

/// One lane's count of operations in progress, alone on its cache lines (128 bytes: the
/// adjacent-line prefetcher pairs lines).
#[repr(align(128))]
struct Lane(AtomicU32);

/// A window's gate (see the module's documentation).
pub struct Gate {
    shut: AtomicU32,
    lanes: [Lane; LANES],
}

impl Default for Gate {
    fn default() -> Self {
        Gate { shut: AtomicU32::new(OPEN), lanes: std::array::from_fn(|_| Lane(AtomicU32::new(0))) }
    }
}

impl Gate {
    /// Counts an operation in on `lane` (any number: taken modulo `LANES`). False: the gate is
    /// shut (a configuration call has the window); the operation must not touch it.
    pub fn enter(&self, lane: usize) -> bool {
        let count = &self.lanes[lane % LANES].0;
        count.fetch_add(1, Ordering::SeqCst);
        order_store_before_load();
        if self.shut.load(Ordering::SeqCst) != OPEN {
            count.fetch_sub(1, Ordering::Release);
            return false;
        }
        true
    }

    /// Counts out an operation that `enter` let in on `lane`.
    pub fn leave(&self, lane: usize) {
        self.lanes[lane % LANES].0.fetch_sub(1, Ordering::Release);
    }

    /// Shuts the gate and waits until every operation in progress has left; false when the
    /// gate is sealed (`seal`). Closers take turns (the runtime's configuration lock already
    /// makes them one at a time; this keeps the slot exclusive whatever calls it).
    pub fn shut(&self) -> bool {
        let mut polls = 0u32;
        loop {
            match self.shut.compare_exchange(OPEN, SHUT, Ordering::SeqCst, Ordering::Relaxed) {
                Ok(_) => break,
                Err(SEALED) => return false,
                Err(_) => {
                    polls += 1;
                    Self::pause(polls);
                }
            }
        }
        order_store_before_load();
        for lane in &self.lanes {
            while lane.0.load(Ordering::SeqCst) != 0 {
                polls += 1;
                Self::pause(polls);
            }
        }
        true
    }

    /// Opens the gate again after `shut`.
    pub fn open(&self) {
        self.shut.store(OPEN, Ordering::Release);
    }

    /// Shuts the gate for good (RPN_COMM_finalize), once the operations in progress have left.
    pub fn seal(&self) {
        if self.shut() {
            self.shut.store(SEALED, Ordering::Release);
        }
    }

    /// Between polls of an operation still in progress: yield, and once that has gone on,
    /// sleep a little (the operation may wait for another PE, and the cores are shared).
    fn pause(polls: u32) {
        #[cfg(not(loom))]
        if polls > 64 {
            std::thread::sleep(std::time::Duration::from_micros(50));
            return;
        }
        let _ = polls;
        yield_now();
    }
}

/// This thread's lane: threads take lanes in the order they first operate, so the first
/// `LANES` threads of a PE have one each.
pub fn my_lane() -> usize {
    use std::sync::atomic::AtomicUsize;
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static LANE: usize = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    LANE.with(|l| *l)
}
