//! The request-based operations (`RPN_COMM_i_win_rput_r`, `_rget_r`, `_rgetacc_r`) and their
//! completion (`_wait`, `_test`, `_flush`, `_flush_all`, close, free).
//!
//! What a blocking one-element put pays per call, besides its few loads and its store, is the
//! window's gate (two atomic read-modify-writes, see `gate`) and the reading of the window's
//! state behind it. A request-based operation pays neither (but once per configuration of the
//! window and lane, to take its snapshot), nor any other read-modify-write: each thread issues into a lane of its own (`LaneStore`, one per window table entry and gate
//! lane, made at the lane's first request; the threads past the gate's `LANES` share one more,
//! behind a lock). The operation is checked against a snapshot of the window's state kept by the
//! lane's issuer, valid while the window's configuration generation is unchanged, written into a
//! free slot and queued on the lane's ring with plain stores, published by one release store of
//! the ring's tail. The data moves at the completion point, which passes the gate once for the
//! whole batch and takes each lane's consumer lock: a flush runs the queued operations to its
//! target(s) in issue order, puts and gets as transport batches (`TransportWindow::run_batch`:
//! the ordinary put/get one after the other on shared memory, one passive lock epoch per target
//! over MPI), accumulates one by one, so passive-mode atomicity (CONTRACT 3) is at least that of
//! the blocking calls; close runs what is left; a wait or test runs its lane's queue for its
//! window. A completion point re-checks each operation's
//! generation: an operation issued while another thread reconfigured the window (a race the
//! rules forbid) is refused then, never run against a state it was not checked against.
//!
//! Each slot has a word (`core::requests::word`: serial, window, state) that every thread reads;
//! the consumer marks an operation DONE (or FAILED) with a release store after running it, and a
//! wait releases a done request with one compare-and-swap to FREE (two waits of one request:
//! one wins, the other is refused), which the issuer later finds and reuses the slot.
//!
//! Lock order: a configuration call shuts the gate, then takes consumer locks; a flush, wait or
//! test passes the gate (`read`, which never blocks on a shut gate: a wait retries, yielding,
//! until the configuration call is over), then takes consumer locks; so no cycle. Issuing takes
//! no consumer lock (only the shared lane's issuers take turns on `issuing`).

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use super::gate::{LANES, my_lane};
use super::names::operator_of;
use super::stats::DataOp;
use super::window_table::{RequestSite, WindowTable};
use super::windows::Window;
use crate::core::requests::{Deferred, Issuer, LANE_CAPACITY, Pending, RequestId, Snapshot, never_made, stale, too_many, word};
use crate::core::{Handle, HandleKind, Mode, RemoteAccess, WindowState};
use crate::error::{Error, Result};
use crate::transport::{BatchOp, Fetch};

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
fn pause(polls: u32) {
    if polls > 64 {
        std::thread::sleep(std::time::Duration::from_micros(20));
    } else {
        std::thread::yield_now();
    }
}

/// Request sets per window table entry: one per gate lane, and one the threads past them share.
pub const LANE_STORES: usize = LANES + 1;

/// The lane of the calling thread's requests.
fn my_store_lane() -> usize {
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
    issuer: UnsafeCell<Issuer>,
    /// Taken by the issuers of the shared lane (unused on the others).
    issuing: LaneLock<()>,
    /// Serials below it were given out (for telling stale requests from never-made ones).
    issued: AtomicU32,
    /// Each slot's word (`word`).
    words: Box<[AtomicU64]>,
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
    fn new() -> Self {
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
    unsafe fn enqueue(&self, issuer: &mut Issuer, window: u32, op: Pending) -> Result<(u32, u32)> {
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
    fn run_queue(&self, window: u32, target: Option<usize>, run: impl FnOnce(&[Pending], &mut dyn FnMut(usize, Result<()>))) -> Result<()> {
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
    fn release_window(&self, window: u32) -> usize {
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
    fn take_error(&self, slot: u32, serial: u32) -> Error {
        let mut errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        match errors.iter().position(|e| e.0 == slot && e.1 == serial) {
            Some(i) => errors.swap_remove(i).2,
            None => Error::Internal("a failed request lost its error".into()),
        }
    }
}

/// The refusal of an operation issued while another thread reconfigured its window.
fn reconfigured() -> Error {
    Error::BadRequest(
        "another thread reconfigured the window (open, close, group, oper ...) while the operation was issued: not done".into(),
    )
}

/// Runs the queued operations of `store` on window `w` (of `site`), those to `target` only when
/// given: each run of puts and gets as one transport batch (`TransportWindow::run_batch`: over
/// MPI, one passive lock per target), accumulates one by one; the first error.
fn run_store(site: &RequestSite<'_>, store: &LaneStore, w: &Window, target: Option<usize>) -> Result<()> {
    // Read behind the gate (or with it shut, in close): no configuration call changes it now.
    let generation = site.generation.load(Ordering::Acquire);
    let (mode, epoch) = (w.state.mode(), w.state.epoch());
    store.run_queue(site.serial, target, |ops, done| {
        let elem = w.state.dtype().size();
        let mut batch: Vec<(RemoteAccess, BatchOp)> = Vec::with_capacity(ops.len());
        let mut first_of_batch = 0;
        let flush_batch = |batch: &mut Vec<(RemoteAccess, BatchOp)>, first: usize, done: &mut dyn FnMut(usize, Result<()>)| {
            if !batch.is_empty() {
                // SAFETY: the issuing calls' contract holds until completion, which is now; the
                // operations were checked in this configuration of the window (this epoch and mode).
                unsafe { w.memory.run_batch(batch, &mut |i, out| done(first + i, out)) };
                batch.clear();
            }
        };
        for (i, p) in ops.iter().enumerate() {
            let Some(mode) = mode.filter(|_| p.checked_at(generation)) else {
                flush_batch(&mut batch, first_of_batch, done);
                done(i, Err(reconfigured()));
                continue;
            };
            let acc = p.access(mode, epoch);
            let bytes = acc.nelem * elem;
            let op = match p.what {
                Deferred::Put { src } => {
                    drop(w.stats.as_deref().and_then(|s| s.data(DataOp::PutR, bytes)));
                    BatchOp::Put { src: src as *const u8 }
                }
                Deferred::Get { dst } => {
                    drop(w.stats.as_deref().and_then(|s| s.data(DataOp::GetR, bytes)));
                    BatchOp::Get { dst: dst as *mut u8 }
                }
                Deferred::Acc { src, garray, before, op } => {
                    flush_batch(&mut batch, first_of_batch, done);
                    let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetaccR, bytes));
                    let fetch = (garray != 0).then_some(Fetch { dst: garray as *mut u8, before });
                    // SAFETY: as for the batch: the issuing call's contract holds until now.
                    done(i, unsafe { w.memory.accumulate(&acc, src as *const u8, fetch, op) });
                    continue;
                }
            };
            if batch.is_empty() {
                first_of_batch = i;
            }
            batch.push((acc, op));
        }
        flush_batch(&mut batch, first_of_batch, done);
    })
}

impl WindowTable {
    /// Checks an operation against this lane's snapshot of window `h` and queues it; its request.
    #[allow(clippy::too_many_arguments)]
    fn issue(
        &self,
        h: &Handle,
        routine: &'static str,
        target: i32,
        offset: i32,
        nelem: i32,
        buffer_is_null: bool,
        what: impl FnOnce(&WindowState) -> Result<Deferred>,
    ) -> Result<Handle> {
        let site = self.request_site(h)?;
        let lane = my_store_lane();
        let store = site.lanes[lane].get_or_init(|| Box::new(LaneStore::new()));
        // The shared lane's issuers take turns; every other lane has one thread.
        let _turn = (lane == LANES).then(|| store.issuing.lock());
        // SAFETY: this thread is the lane's issuer: the lane is its own (`my_lane` numbers
        // threads uniquely), or it holds `issuing` on the shared one.
        let issuer = unsafe { &mut *store.issuer.get() };
        let generation = site.generation.load(Ordering::Acquire);
        if !issuer.snapshot.as_ref().is_some_and(|s| s.window == site.serial && s.generation == generation) {
            // Once per configuration of the window (and lane): behind the gate, state and
            // generation are read together.
            let snapshot = self.read(h, |w| {
                Ok(Snapshot { window: site.serial, generation: site.generation.load(Ordering::Acquire), state: w.state.clone() })
            })?;
            issuer.snapshot = Some(snapshot);
        }
        let snapshot = issuer.snapshot.as_ref().expect("taken above");
        let state = &snapshot.state;
        let (t, o, n) = (target as i64, offset as i64, nelem as i64);
        let Some(acc) = state.accepted_remote(t, o, n, buffer_is_null) else {
            return Err(state.refuse_remote(routine, t, o, n, buffer_is_null));
        };
        let op = Pending::new(&acc, snapshot.generation, what(state)?);
        // SAFETY: this thread is the lane's issuer (above).
        let (slot, serial) = unsafe { store.enqueue(issuer, site.serial, op) }?;
        Ok(RequestId { entry: site.index, lane, slot, serial }.handle())
    }

    /// Starts a put of `nelem` elements from `larray` at `offset` of PE `target`'s part of
    /// window `h`; its request.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is readable for `nelem` elements of the window's type until the
    /// operation completes (wait, test, flush, flush_all or close).
    pub unsafe fn win_rput_r(&self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32) -> Result<Handle> {
        self.issue(h, "RPN_COMM_i_win_rput_r", target, offset, nelem, larray == 0, |_| Ok(Deferred::Put { src: larray }))
    }

    /// Starts a get of `nelem` elements at `offset` of PE `target`'s part of window `h` into
    /// `larray`; its request.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is writable for `nelem` elements of the window's type until the
    /// operation completes.
    pub unsafe fn win_rget_r(&self, h: &Handle, larray: usize, target: i32, offset: i32, nelem: i32) -> Result<Handle> {
        self.issue(h, "RPN_COMM_i_win_rget_r", target, offset, nelem, larray == 0, |_| Ok(Deferred::Get { dst: larray }))
    }

    /// Starts an accumulate (as `win_getacc_r`); its request.
    ///
    /// # Safety
    /// When `nelem > 0`, `larray` is readable and `garray` (when not 0) writable for `nelem`
    /// elements of the window's type until the operation completes.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn win_rgetacc_r(
        &self,
        h: &Handle,
        larray: usize,
        garray: usize,
        before: bool,
        target: i32,
        offset: i32,
        nelem: i32,
        oper: &Handle,
    ) -> Result<Handle> {
        self.issue(h, "RPN_COMM_i_win_rgetacc_r", target, offset, nelem, larray == 0, |state| {
            let op = if oper.is_null() { state.default_operator() } else { operator_of(oper)? };
            state.check_operator(op)?;
            Ok(Deferred::Acc { src: larray, garray, before, op })
        })
    }

    /// Completes request `req` and releases it (`wait`), or does so only if that needs no
    /// waiting for another thread (`!wait`: test); whether it was released.
    fn complete(&self, req: &Handle, wait: bool) -> Result<bool> {
        let id = RequestId::from_handle(req)?;
        let site = self.request_site_at(id.entry, 0).ok_or_else(never_made)?;
        let store = site.lanes.get(id.lane).and_then(OnceLock::get).ok_or_else(never_made)?;
        let slot_word = store.words.get(id.slot as usize).ok_or_else(never_made)?;
        let mut polls = 0u32;
        loop {
            let w = slot_word.load(Ordering::Acquire);
            if word::serial(w) != id.serial || word::state(w) == word::FREE {
                let issued = store.issued.load(Ordering::Relaxed);
                return Err(if id.serial == 0 || id.serial >= issued { never_made() } else { stale() });
            }
            if word::state(w) != word::PENDING {
                // Done: release it (one of two concurrent waits wins; the other finds it FREE).
                if slot_word.compare_exchange(w, word::make(0, 0, word::FREE), Ordering::AcqRel, Ordering::Acquire).is_err() {
                    continue;
                }
                return match word::state(w) {
                    word::FAILED => Err(store.take_error(id.slot, id.serial)),
                    _ => Ok(true),
                };
            }
            // Not run yet: run this lane's queue of its window.
            let window = word::window(w);
            let site = RequestSite { serial: window, ..site };
            let wh = Handle::of_entry(HandleKind::Window, id.entry, window);
            match self.read(&wh, |win| run_store(&site, store, win, None)) {
                // Another thread is in a configuration call on the window (a close completes
                // the operation): a test says "not yet", a wait tries again once it is over.
                Err(Error::WindowBusy) if !wait => return Ok(false),
                Err(Error::WindowBusy) => {
                    polls += 1;
                    pause(polls);
                }
                // The window is gone or the library finalized: the operation cannot run.
                Err(e @ (Error::InvalidHandle { .. } | Error::CallOrder(_)))
                    if word::state(slot_word.load(Ordering::Acquire)) == word::PENDING =>
                {
                    return Err(e);
                }
                // Each operation's outcome is in its request (the first error may be another's).
                _ => {}
            }
        }
    }

    /// RPN_COMM_i_win_wait: completes request `req` and releases it.
    pub fn req_wait(&self, req: &Handle) -> Result<()> {
        self.complete(req, true).map(|_| ())
    }

    /// RPN_COMM_i_win_test_req: whether request `req` is complete (then it is released).
    pub fn req_test(&self, req: &Handle) -> Result<bool> {
        self.complete(req, false)
    }

    /// RPN_COMM_i_win_flush (`target` given) and `_flush_all`: completes this PE's operations on
    /// window `h` (to `target`), from every thread; passive epochs only.
    pub fn win_flush(&self, h: &Handle, target: Option<i32>) -> Result<()> {
        let site = self.request_site(h)?;
        self.read(h, |w| {
            if w.state.mode() != Some(Mode::Passive) {
                return Err(Error::FlushNotPassive);
            }
            let target = target.map(|t| w.state.check_rank(t as i64)).transpose()?;
            let mut first = Ok(());
            for store in site.lanes.iter().filter_map(OnceLock::get) {
                let out = run_store(&site, store, w, target);
                if first.is_ok() {
                    first = out;
                }
            }
            first
        })
    }

    /// Runs every queued operation on window `w` (of handle `h`): close, with the gate shut.
    /// Their outcomes are in their requests, for the waits.
    pub(super) fn complete_all(&self, h: &Handle, w: &Window) {
        if let Ok(site) = self.request_site(h) {
            for store in site.lanes.iter().filter_map(OnceLock::get) {
                let _ = run_store(&site, store, w, None);
            }
        }
    }

    /// Releases every request of window `h` (being freed); how many had not been waited for.
    pub(super) fn release_requests(&self, h: &Handle) -> usize {
        self.request_site(h).map_or(0, |site| site.lanes.iter().filter_map(OnceLock::get).map(|s| s.release_window(site.serial)).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
