//! The request sets of the request-based operations (see `requests`, which issues into them and
//! completes them): one `LaneStore` per window table entry and gate lane, with its issuer's
//! slots, the ring that publishes the operations in issue order, and the consumer's queue.
//! Below the window table, whose entries hold them.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use super::gate::{LANES, my_lane};
use crate::core::Mode;
use crate::core::requests::{Deferred, Issuer, LANE_CAPACITY, Pending, too_many, word};
use crate::error::{Error, Result};

/// A lock for one lane's request book, alone on its cache lines: taken by one thread in the
/// common case (one compare-and-swap, released by a plain store); a waiter yields, then sleeps.
#[repr(align(128))]
#[derive(Default)]
pub struct LaneLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the value is reached only through a `LaneGuard`, and the flag lets one thread at a time
// hold one (acquire on taking, release on giving back), so the value moves between threads as a
// `Send` value would.
unsafe impl<T: Send> Sync for LaneLock<T> {}

/// The lane's book, held (`LaneLock::lock`).
pub struct LaneGuard<'a, T> {
    lock: &'a LaneLock<T>,
}

impl<T> LaneLock<T> {
    /// Takes the lock, yielding (then sleeping a little) while another thread holds it.
    pub fn lock(&self) -> LaneGuard<'_, T> {
        let mut polls = 0u32;
        while self.locked.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            polls += 1;
            pause(polls);
        }
        LaneGuard { lock: self }
    }
}

impl<T> Deref for LaneGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: this guard holds the flag: no other reference to the value exists.
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for LaneGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`, and the guard is borrowed mutably.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for LaneGuard<'_, T> {
    fn drop(&mut self) {
        self.lock.locked.store(false, Ordering::Release);
    }
}

/// Between two tries: yield (the holder may want this core), and once that has gone on, sleep.
pub(in crate::runtime) fn pause(polls: u32) {
    if polls > 64 {
        std::thread::sleep(std::time::Duration::from_micros(20));
    } else {
        std::thread::yield_now();
    }
}

/// Request sets per window table entry: one per gate lane, and one the threads past them share.
pub const LANE_STORES: usize = LANES + 1;

/// The lane of the calling thread's requests.
pub(in crate::runtime) fn my_store_lane() -> usize {
    my_lane().min(LANES)
}

/// What the completion points keep of a lane: the queue taken off the ring, not run yet.
#[derive(Default)]
struct Consumer {
    /// Ring entries taken so far.
    head: u64,
    /// (slot, serial) of the operations taken off the ring and not run yet, in issue order.
    queue: Vec<(u32, u32)>,
    /// (slot, serial) and operation of those a completion point runs now (buffers kept).
    picked: Vec<(u32, u32)>,
    ops: Vec<Pending>,
}

/// The requests of one lane of one window table entry (see the module's documentation).
pub struct LaneStore {
    /// The issuer's own: its snapshot and slots. Only the lane's thread (or, on the shared lane,
    /// the holder of `issuing`) touches it.
    pub(in crate::runtime) issuer: UnsafeCell<Issuer>,
    /// Taken by the issuers of the shared lane (unused on the others).
    pub(in crate::runtime) issuing: LaneLock<()>,
    /// Serials below it were given out (for telling stale requests from never-made ones).
    pub(in crate::runtime) issued: AtomicU32,
    /// Each slot's word (`word`).
    pub(in crate::runtime) words: Box<[AtomicU64]>,
    /// Each slot's operation: written by the issuer while the slot is FREE and off the ring, read
    /// by a consumer once the ring's tail has published it, until it marks the slot done.
    ops: Box<[UnsafeCell<Pending>]>,
    /// (serial << 32 | slot) of the operations in issue order, LANE_CAPACITY entries in a circle:
    /// never more are on it than slots are PENDING.
    ring: Box<[AtomicU64]>,
    /// Ring entries written so far (by the issuer; release).
    tail: AtomicU64,
    consumer: LaneLock<Consumer>,
    /// The errors of FAILED slots: (slot, serial, error).
    errors: Mutex<Vec<(u32, u32, Error)>>,
}

// SAFETY: `issuer` is reached by one thread at a time (the lane's own thread, or the holder of
// `issuing` on the shared lane: see `issue`); an `ops` entry is written only by that issuer while
// its slot is FREE and on no queue, and read by consumers only after the release store of `tail`
// that published it and before the release store of its word that marks it done, after which
// only a FREE word (released by a wait, acquired by the issuer) lets the issuer write it again.
// Everything else is atomic or behind a lock.
unsafe impl Sync for LaneStore {}
// SAFETY: the raw addresses inside `Pending` are the caller's buffers, valid from any thread of
// the process until the operation completes (API contract).
unsafe impl Send for LaneStore {}

impl LaneStore {
    pub(in crate::runtime) fn new() -> Self {
        let zeros = |n: usize| (0..n).map(|_| AtomicU64::new(0)).collect::<Box<[_]>>();
        let blank = Pending::new(
            &crate::core::RemoteAccess { target: 0, offset: 0, nelem: 0, mode: Mode::Passive, epoch: 0 },
            0,
            Deferred::Put { src: 0 },
        );
        LaneStore {
            issuer: UnsafeCell::new(Issuer::default()),
            issuing: LaneLock::default(),
            issued: AtomicU32::new(1),
            words: zeros(LANE_CAPACITY),
            ops: (0..LANE_CAPACITY).map(|_| UnsafeCell::new(blank)).collect(),
            ring: zeros(LANE_CAPACITY),
            tail: AtomicU64::new(0),
            consumer: LaneLock::default(),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// Queues `op` as a request of window `window` on this lane: its (slot, serial).
    ///
    /// # Safety
    /// The caller is this lane's issuer (see `issuer`) and passes its `Issuer` in.
    pub(in crate::runtime) unsafe fn enqueue(&self, issuer: &mut Issuer, window: u32, op: Pending) -> Result<(u32, u32)> {
        let slot = issuer
            .take_slot(LANE_CAPACITY, |i| word::state(self.words[i].load(Ordering::Acquire)) == word::FREE)
            .ok_or_else(|| too_many(LANE_CAPACITY))?;
        let serial = issuer.next_serial();
        self.issued.store(issuer.issued(), Ordering::Relaxed);
        // SAFETY: the slot is FREE (released by a wait, acquired above, or never used) and on no
        // queue: no other thread reads or writes its operation now.
        unsafe { *self.ops[slot as usize].get() = op };
        self.words[slot as usize].store(word::make(serial, window, word::PENDING), Ordering::Release);
        let t = self.tail.load(Ordering::Relaxed);
        self.ring[(t % LANE_CAPACITY as u64) as usize].store(((serial as u64) << 32) | slot as u64, Ordering::Relaxed);
        self.tail.store(t + 1, Ordering::Release);
        Ok((slot, serial))
    }

    /// Takes the ring's new entries into the consumer's queue.
    fn drain_ring(&self, c: &mut Consumer) {
        let tail = self.tail.load(Ordering::Acquire);
        while c.head < tail {
            let e = self.ring[(c.head % LANE_CAPACITY as u64) as usize].load(Ordering::Relaxed);
            c.queue.push((e as u32, (e >> 32) as u32));
            c.head += 1;
        }
    }

    /// Runs the queued operations of window `window` (to `target` only, when given), in issue
    /// order, with `run`, which tells `done(i, outcome)` of each, and marks them done or failed;
    /// the first error.
    pub(in crate::runtime) fn run_queue(
        &self,
        window: u32,
        target: Option<usize>,
        run: impl FnOnce(&[Pending], &mut dyn FnMut(usize, Result<()>)),
    ) -> Result<()> {
        let mut c = self.consumer.lock();
        self.drain_ring(&mut c);
        let Consumer { queue, picked, ops, .. } = &mut *c;
        picked.clear();
        ops.clear();
        queue.retain(|&(slot, serial)| {
            let w = self.words[slot as usize].load(Ordering::Acquire);
            if word::serial(w) != serial || word::state(w) != word::PENDING {
                return false; // dropped (its window was freed)
            }
            if word::window(w) != window {
                return true;
            }
            // SAFETY: published by the tail (acquired in drain_ring) and not written again before
            // the slot is marked done (in `run`'s `done`) and then released (see `LaneStore`).
            let op = unsafe { *self.ops[slot as usize].get() };
            if target.is_some_and(|t| t != op.target as usize) {
                return true;
            }
            picked.push((slot, serial));
            ops.push(op);
            false
        });
        if ops.is_empty() {
            return Ok(());
        }
        let mut first = Ok(());
        let mut done = |i: usize, out: Result<()>| {
            let Some(&(slot, serial)) = picked.get(i) else { return };
            let state = match out {
                Ok(()) => word::DONE,
                Err(e) => {
                    if first.is_ok() {
                        first = Err(e.clone());
                    }
                    self.errors.lock().unwrap_or_else(|p| p.into_inner()).push((slot, serial, e));
                    word::FAILED
                }
            };
            self.words[slot as usize].store(word::make(serial, window, state), Ordering::Release);
        };
        run(ops, &mut done);
        first
    }

    /// Releases every request of window `window` (being freed); how many there were.
    pub(in crate::runtime) fn release_window(&self, window: u32) -> usize {
        let mut c = self.consumer.lock();
        self.drain_ring(&mut c);
        let mut count = 0;
        for w in self.words.iter() {
            let v = w.load(Ordering::Acquire);
            if word::state(v) != word::FREE
                && word::window(v) == window
                && w.compare_exchange(v, 0, Ordering::AcqRel, Ordering::Acquire).is_ok()
            {
                count += 1;
            }
        }
        c.queue.retain(|&(slot, serial)| word::serial(self.words[slot as usize].load(Ordering::Acquire)) == serial);
        let words = &self.words;
        self.errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|&(slot, serial, _)| word::serial(words[slot as usize].load(Ordering::Acquire)) == serial);
        count
    }

    /// The error of a FAILED request, taken out.
    pub(in crate::runtime) fn take_error(&self, slot: u32, serial: u32) -> Error {
        let mut errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        match errors.iter().position(|e| e.0 == slot && e.1 == serial) {
            Some(i) => errors.swap_remove(i).2,
            None => Error::Internal("a failed request lost its error".into()),
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::RemoteAccess;
    use std::sync::Arc;

    fn put(target: usize, offset: usize) -> Pending {
        let acc = RemoteAccess { target, offset, nelem: 1, mode: Mode::Passive, epoch: 1 };
        Pending::new(&acc, 0, Deferred::Put { src: offset })
    }

    /// Releases slot `slot` of request `serial` as a wait does, if it is done.
    fn release(store: &LaneStore, slot: u32, serial: u32) -> bool {
        let w = store.words[slot as usize].load(Ordering::Acquire);
        word::serial(w) == serial
            && word::state(w) == word::DONE
            && store.words[slot as usize].compare_exchange(w, 0, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    #[test]
    fn one_thread_issues_another_runs_in_order_and_a_third_releases() {
        const N: usize = 20_000;
        let store = Arc::new(LaneStore::new());
        let (tx, rx) = std::sync::mpsc::channel::<(u32, u32)>();
        let issuer = {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                let mut issuer = Issuer::default();
                for i in 0..N {
                    // the waits below release slots behind the issuer's back; when all are in
                    // use, it waits for them as a program would
                    loop {
                        // SAFETY: this thread is the only issuer of the store.
                        match unsafe { store.enqueue(&mut issuer, 7, put(i % 3, i)) } {
                            Ok(id) => {
                                tx.send(id).unwrap();
                                break;
                            }
                            Err(_) => std::thread::yield_now(),
                        }
                    }
                }
            })
        };
        let runner = {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                let mut seen = Vec::with_capacity(N);
                while seen.len() < N {
                    store
                        .run_queue(7, None, |ops, done| {
                            for (i, op) in ops.iter().enumerate() {
                                seen.push(op.offset as usize);
                                done(i, Ok(()));
                            }
                        })
                        .unwrap();
                    std::thread::yield_now();
                }
                seen
            })
        };
        let mut released = 0;
        for (slot, serial) in rx.iter() {
            while !release(&store, slot, serial) {
                std::thread::yield_now();
            }
            released += 1;
        }
        issuer.join().unwrap();
        let seen = runner.join().unwrap();
        assert_eq!(released, N);
        assert_eq!(seen, (0..N).collect::<Vec<_>>(), "operations ran once each, in issue order");
    }

    #[test]
    fn flush_to_one_target_leaves_the_others_and_failures_keep_their_error() {
        let store = LaneStore::new();
        let mut issuer = Issuer::default();
        // SAFETY: this thread is the only issuer of the store (also below).
        let a = unsafe { store.enqueue(&mut issuer, 1, put(0, 10)) }.unwrap();
        // SAFETY: as above.
        let b = unsafe { store.enqueue(&mut issuer, 1, put(1, 11)) }.unwrap();
        // SAFETY: as above.
        let c = unsafe { store.enqueue(&mut issuer, 2, put(0, 12)) }.unwrap();
        let mut ran = Vec::new();
        store
            .run_queue(1, Some(0), |ops, done| {
                ops.iter().enumerate().for_each(|(i, op)| {
                    ran.push(op.offset);
                    done(i, Ok(()));
                })
            })
            .unwrap();
        assert_eq!(ran, vec![10]);
        let failed =
            store.run_queue(1, None, |ops, done| ops.iter().enumerate().for_each(|(i, _)| done(i, Err(Error::NotExposed { op: "x" }))));
        assert!(failed.is_err());
        assert_eq!(word::state(store.words[b.0 as usize].load(Ordering::Acquire)), word::FAILED);
        assert!(store.take_error(b.0, b.1).to_string().contains("not exposed"));
        assert!(release(&store, a.0, a.1));
        // freeing window 2 releases its pending request and counts it; window 1's failed one too
        assert_eq!(store.release_window(2), 1);
        assert_eq!(store.words[c.0 as usize].load(Ordering::Acquire), 0);
        assert_eq!(store.release_window(1), 1);
        assert!(store.run_queue(2, None, |ops, _| assert!(ops.is_empty())).is_ok());
    }
}
