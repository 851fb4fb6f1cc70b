//! Model checking (loom) of the shared-memory protocols, with threads standing in for PEs:
//! loom runs the protocol code itself (built with `--cfg loom`, its atomics are loom's, see
//! `transport::shm::sync`) in every interleaving and every memory-model outcome it can tell
//! apart, up to LOOM_MAX_PREEMPTIONS preemptions (default here 2). The data the protocols
//! protect is in `loom::cell::UnsafeCell`s, so a write not ordered before a read (a put
//! not visible after close, two holders of an exclusive lock) fails the model as a data
//! race; a lost wake-up fails it as a deadlock (the modelled futex has no timeout).
//!
//!   RUSTFLAGS="--cfg loom" cargo test --release --test loom_protocols
//! (`make check` runs it, see tests/loom.sh).
#![cfg(loom)]

use std::time::Duration;

use loom::cell::UnsafeCell;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicI32, AtomicU32};
use loom::thread;
use rpncomm_windows::internals::runtime::gate::Gate;
use rpncomm_windows::internals::shm::barrier::OwnedBarrier;
use rpncomm_windows::internals::shm::lock::{lock_exclusive, lock_shared, unlock_exclusive, unlock_shared};
use rpncomm_windows::internals::shm::sync::Ordering;
use rpncomm_windows::internals::shm::wait::{Signal, WaitContext};
use rpncomm_windows::internals::shm::{epochs, slots};

/// Runs `f` under loom with the preemption bound of LOOM_MAX_PREEMPTIONS, 2 by default, and
/// prints how many executions it explored (seen with `--nocapture`).
fn model(name: &str, f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(2);
    }
    let bound = builder.preemption_bound;
    let executions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = std::sync::Arc::clone(&executions);
    let start = std::time::Instant::now();
    builder.check(move || {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        f()
    });
    println!(
        "loom model {name}: {} executions, preemption bound {bound:?}, {:.1} s",
        executions.load(std::sync::atomic::Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
}

/// Runs `pe(rank)` for ranks 0..npes, rank 0 on the model's main thread.
fn pes(npes: usize, pe: impl Fn(usize) + Send + Sync + 'static) {
    let pe = Arc::new(pe);
    let others: Vec<_> = (1..npes)
        .map(|r| {
            let pe = Arc::clone(&pe);
            thread::spawn(move || pe(r))
        })
        .collect();
    pe(0);
    others.into_iter().for_each(|t| t.join().unwrap());
}

fn signal() -> Signal {
    Signal { value: AtomicU32::new(0), sleepers: AtomicU32::new(0) }
}

fn with_ctx<T>(f: impl FnOnce(&WaitContext<'_>) -> T) -> T {
    let alive = || Ok(());
    f(&WaitContext { alive: &alive, spin: Duration::ZERO, waiting_for: None, progress: None })
}

/// Window memory in the model: plain (non-atomic) cells, whose accesses loom checks for races.
struct Cells(Vec<UnsafeCell<u32>>);

// SAFETY: shared on purpose: the protocols under test must order every access, and loom
// reports any access they leave unordered.
unsafe impl Sync for Cells {}

impl std::ops::Deref for Cells {
    type Target = [UnsafeCell<u32>];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

fn cells(n: usize) -> Arc<Cells> {
    Arc::new(Cells((0..n).map(|_| UnsafeCell::new(0)).collect()))
}

// ------------------------------------------------------------------------------- barrier

/// Every PE writes its cell, arrives, reads everybody's cell of the round, arrives again
/// (so nobody writes the next round's value while another still reads): `rounds` rounds on
/// one barrier, i.e. reuse of the arrival counters, the release word and the flags. With
/// `fan_in` 2 and 3 PEs the tree has two levels (PEs 0 and 1 meet at one leaf counter, PE 2
/// alone at the other, both leaves at the root): a write must travel up through a counter it
/// did not pass.
fn barrier_rounds(npes: usize, fan_in: usize, rounds: u32) {
    let shape = if npes == 2 { "pair of flags".to_string() } else { format!("tree of fan-in {fan_in}") };
    model(&format!("barrier ({shape}), {npes} PEs, {rounds} rounds"), move || {
        let words = Arc::new(OwnedBarrier::with_fan_in(npes, fan_in));
        let data = cells(npes);
        pes(npes, move |me| {
            let words = words.barrier();
            with_ctx(|ctx| {
                let mut round = 0;
                for r in 1..=rounds {
                    // SAFETY (model): only `me` writes its cell, between two barriers.
                    data[me].with_mut(|p| unsafe { *p = r });
                    round += 1;
                    words.arrive_and_wait(round, me, ctx).unwrap();
                    for cell in data.iter() {
                        // SAFETY (model): no PE writes between these two barriers.
                        assert_eq!(cell.with(|p| unsafe { *p }), r, "a write before the barrier is visible after it");
                    }
                    round += 1;
                    words.arrive_and_wait(round, me, ctx).unwrap();
                }
                assert_eq!(words.completed(), 2 * rounds);
            })
        });
    });
}

#[test]
fn barrier_2_pes_3_rounds() {
    // two PEs make a pair of flags (each PE's arrival in its own line), not a tree
    barrier_rounds(2, 4, 3);
}

#[test]
fn barrier_3_pes_1_round() {
    barrier_rounds(3, 4, 1);
}

#[test]
fn barrier_tree_two_levels_3_pes_1_round() {
    barrier_rounds(3, 2, 1);
}

// --------------------------------------------------------------------------- passive lock

/// PEs alternately take the lock of one window exclusively (increment the data) and shared
/// (read it); the data is a plain cell, so two exclusive holders, or a reader beside a
/// writer, are a data race. Every PE finishes (no lost wake-up) and the lock ends free.
fn lock_model(npes: usize, exclusive: &'static [bool]) {
    model(&format!("passive lock, {npes} PEs, exclusive {exclusive:?}"), move || {
        let lock = Arc::new(signal());
        let data = cells(1);
        let (lock2, data2) = (Arc::clone(&lock), Arc::clone(&data));
        pes(npes, move |me| {
            with_ctx(|ctx| {
                if exclusive[me] {
                    lock_exclusive(&lock2, ctx).unwrap();
                    // SAFETY (model): exclusive holder.
                    data2[0].with_mut(|p| unsafe { *p += 1 });
                    unlock_exclusive(&lock2);
                } else {
                    lock_shared(&lock2, ctx).unwrap();
                    // SAFETY (model): shared holder, no writer inside.
                    let v = data2[0].with(|p| unsafe { *p });
                    assert!(v <= exclusive.iter().filter(|&&x| x).count() as u32);
                    unlock_shared(&lock2);
                }
            })
        });
        assert_eq!(lock.value.load(Ordering::SeqCst), 0, "the lock ends free");
        let writers = exclusive[..npes].iter().filter(|&&x| x).count() as u32;
        // SAFETY (model): every PE joined.
        assert_eq!(data[0].with(|p| unsafe { *p }), writers);
    });
}

#[test]
fn lock_2_pes_exclusive() {
    lock_model(2, &[true, true]);
}

#[test]
fn lock_2_pes_exclusive_and_shared() {
    lock_model(2, &[true, false]);
}

#[test]
fn lock_3_pes_two_writers_one_reader() {
    lock_model(3, &[true, false, true]);
}

// ------------------------------------------------------------------------------ PSCW epochs

const GROUP: u32 = 2;

/// Group (PSCW) mode: PE 0 exposes its window to PEs 1..npes (its pes_from) for `epochs`
/// epochs; in each, every origin waits for PE 0's open, puts into its own cell of PE 0's
/// memory and closes; PE 0 closes, waiting for its pes_from, then reads the puts of the
/// epoch. A put not visible after the close, or a PE 0 leaving close early (before a put),
/// is a data race or a wrong value; an origin putting before PE 0 opened the epoch races
/// with PE 0's read of the previous epoch.
fn pscw(npes: usize, n_epochs: u32) {
    model(&format!("PSCW (group mode), {npes} PEs, {n_epochs} epochs"), move || {
        let opened: Arc<Vec<Signal>> = Arc::new((0..npes).map(|_| signal()).collect());
        let closed: Arc<Vec<Signal>> = Arc::new((0..npes).map(|_| signal()).collect());
        let modes: Arc<Vec<AtomicU32>> = Arc::new((0..npes).map(|_| AtomicU32::new(0)).collect());
        let memory = cells(npes); // PE 0's window: one element per origin
        pes(npes, move |me| {
            with_ctx(|ctx| {
                for epoch in 1..=n_epochs {
                    epochs::publish_open(&modes[me], &opened[me], GROUP, epoch);
                    if me == 0 {
                        epochs::publish_close(&closed[0], epoch);
                        for from in 1..npes {
                            epochs::await_close(&closed[from], epoch, ctx).unwrap();
                        }
                        for (from, cell) in memory.iter().enumerate().skip(1) {
                            // SAFETY (model): every origin closed the epoch.
                            let v = cell.with(|p| unsafe { *p });
                            assert_eq!(v, epoch * 10 + from as u32, "the put of the epoch is visible after close");
                        }
                    } else {
                        let mode = epochs::await_open(&modes[0], &opened[0], epoch, ctx).unwrap();
                        assert_eq!(mode, GROUP, "the target's mode is visible with its epoch");
                        // SAFETY (model): PE 0 opened the epoch and reads only after our close.
                        memory[me].with_mut(|p| unsafe { *p = epoch * 10 + me as u32 });
                        epochs::publish_close(&closed[me], epoch);
                    }
                }
            })
        });
    });
}

#[test]
fn pscw_2_pes_2_epochs() {
    pscw(2, 2);
}

#[test]
fn pscw_3_pes_1_epoch() {
    pscw(3, 1);
}

/// Fence mode: every PE opens, puts into the next PE's memory once that PE opened, closes
/// through the window barrier, then reads what the previous PE put.
fn fence(npes: usize) {
    model(&format!("fence epoch, {npes} PEs"), move || {
        let opened: Arc<Vec<Signal>> = Arc::new((0..npes).map(|_| signal()).collect());
        let modes: Arc<Vec<AtomicU32>> = Arc::new((0..npes).map(|_| AtomicU32::new(0)).collect());
        let words = Arc::new(OwnedBarrier::with_fan_in(npes, 2));
        let memory = cells(npes);
        pes(npes, move |me| {
            with_ctx(|ctx| {
                epochs::publish_open(&modes[me], &opened[me], 1, 1);
                let next = (me + 1) % npes;
                assert_eq!(epochs::await_open(&modes[next], &opened[next], 1, ctx).unwrap(), 1);
                // SAFETY (model): `next` reads its memory only after the close barrier.
                memory[next].with_mut(|p| unsafe { *p = 100 + me as u32 });
                words.barrier().arrive_and_wait(1, me, ctx).unwrap();
                let prev = (me + npes - 1) % npes;
                // SAFETY (model): after the close barrier nobody writes.
                assert_eq!(memory[me].with(|p| unsafe { *p }), 100 + prev as u32);
            })
        });
    });
}

#[test]
fn fence_2_pes() {
    fence(2);
}

#[test]
fn fence_3_pes() {
    fence(3);
}

// ------------------------------------------------------------------------------ slot claim

/// `npes` clients claim a slot of one secondary window of `capacity` records (the counter
/// starts at 1, the header): the slots taken are distinct, in 2..=capacity, as many as there
/// are free records, and a refused claim saw a full counter.
fn slot_claim(npes: usize, capacity: usize) {
    model(&format!("slot claim, {npes} PEs, capacity {capacity}"), move || {
        let counter = Arc::new(AtomicI32::new(1));
        let taken: Arc<Vec<AtomicU32>> = Arc::new((0..npes).map(|_| AtomicU32::new(0)).collect());
        let (c2, t2) = (Arc::clone(&counter), Arc::clone(&taken));
        pes(npes, move |me| match slots::claim(&*c2, capacity) {
            Ok(slot) => t2[me].store(slot, Ordering::Relaxed),
            Err(last) => assert!(last as usize >= capacity, "refused with room left ({last})"),
        });
        let mut got: Vec<u32> = taken.iter().map(|t| t.load(Ordering::Relaxed)).filter(|&s| s != 0).collect();
        got.sort_unstable();
        assert_eq!(got, (2..=capacity.min(npes + 1) as u32).collect::<Vec<_>>(), "distinct slots, none past capacity");
        assert_eq!(counter.load(Ordering::Relaxed) as usize, capacity.min(npes + 1));
    });
}

#[test]
fn slot_claim_2_pes_room_for_both() {
    slot_claim(2, 3);
}

#[test]
fn slot_claim_3_pes_room_for_two() {
    slot_claim(3, 3);
}

// ---------------------------------------------------------------------------------- gate

/// What the window gate guards, as the runtime uses it: operations (threads of one PE) read
/// the window's slot between `enter` and `leave`; a configuration call writes it between
/// `shut` and `open`. An operation must never overlap the write (loom reports the race) and
/// reads either the value from before the configuration call or the one after it, never the
/// intermediate one.
trait GateLike: Default + Send + Sync + 'static {
    fn enter(&self, lane: usize) -> bool;
    fn leave(&self, lane: usize);
    fn shut(&self) -> bool;
    fn open(&self);
}

impl GateLike for Gate {
    fn enter(&self, lane: usize) -> bool {
        Gate::enter(self, lane)
    }
    fn leave(&self, lane: usize) {
        Gate::leave(self, lane)
    }
    fn shut(&self) -> bool {
        Gate::shut(self)
    }
    fn open(&self) {
        Gate::open(self)
    }
}

/// A deliberately broken gate: an operation checks the gate before counting itself in
/// (check-then-act), so a closer can find no one counted in while the operation goes through.
/// The model must catch it (`gate_broken_variant_is_caught`).
#[derive(Default)]
struct CheckThenEnterGate {
    shut: AtomicU32,
    count: AtomicU32,
}

impl GateLike for CheckThenEnterGate {
    fn enter(&self, _lane: usize) -> bool {
        if self.shut.load(Ordering::SeqCst) != 0 {
            return false;
        }
        self.count.fetch_add(1, Ordering::SeqCst);
        true
    }
    fn leave(&self, _lane: usize) {
        self.count.fetch_sub(1, Ordering::Release);
    }
    fn shut(&self) -> bool {
        self.shut.store(1, Ordering::SeqCst);
        while self.count.load(Ordering::SeqCst) != 0 {
            thread::yield_now();
        }
        true
    }
    fn open(&self) {
        self.shut.store(0, Ordering::Release);
    }
}

/// `lanes[i]`: the lane of operation thread i; one closer thread writes the slot twice.
fn gate_model<G: GateLike>(name: &str, lanes: &'static [usize]) {
    model(name, move || {
        let gate = Arc::new(G::default());
        let slot = cells(1);
        let ops: Vec<_> = lanes
            .iter()
            .map(|&lane| {
                let (gate, slot) = (Arc::clone(&gate), Arc::clone(&slot));
                thread::spawn(move || {
                    if gate.enter(lane) {
                        // SAFETY: counted in: no configuration call writes the slot meanwhile.
                        let v = slot[0].with(|p| unsafe { *p });
                        assert!(v == 0 || v == 2, "an operation saw a configuration call half done ({v})");
                        gate.leave(lane);
                    }
                })
            })
            .collect();
        assert!(gate.shut());
        // SAFETY: the gate is shut and drained: no operation reads the slot.
        slot[0].with_mut(|p| unsafe { *p = 1 });
        // SAFETY: as above.
        slot[0].with_mut(|p| unsafe { *p = 2 });
        gate.open();
        ops.into_iter().for_each(|t| t.join().unwrap());
    });
}

#[test]
fn gate_one_operation_against_a_closer() {
    gate_model::<Gate>("gate, 1 operation + closer", &[0]);
}

#[test]
fn gate_two_operations_on_distinct_lanes_against_a_closer() {
    gate_model::<Gate>("gate, 2 operations (lanes 0, 1) + closer", &[0, 1]);
}

#[test]
fn gate_two_operations_on_one_lane_against_a_closer() {
    gate_model::<Gate>("gate, 2 operations (one lane) + closer", &[0, 0]);
}

#[test]
#[should_panic]
fn gate_broken_variant_is_caught() {
    gate_model::<CheckThenEnterGate>("broken gate (check, then count in), 1 operation + closer", &[0]);
}
