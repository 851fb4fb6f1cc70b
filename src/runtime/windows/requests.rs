//! The request-based operations (`RPN_COMM_i_win_rput_r`, `_rget_r`, `_rgetacc_r`) and their
//! completion (`_wait`, `_test`, `_flush`, `_flush_all`, close, free).
//!
//! What a blocking one-element put pays per call, besides its few loads and its store, is the
//! window's gate (two atomic read-modify-writes, see `gate`) and the reading of the window's
//! state behind it. A request-based operation pays neither (but once per configuration of the
//! window and lane, to take its snapshot), nor any other read-modify-write: each thread issues into a lane of its own (`request_lanes::LaneStore`, one per window table entry and gate
//! lane, made at the lane's first request; the threads past the gate's `LANES` share one more,
//! behind a lock). The operation is checked against a snapshot of the window's state kept by the
//! lane's issuer, valid while the window's configuration generation is unchanged, written into a
//! free slot and queued on the lane's ring with plain stores, published by one release store of
//! the ring's tail. The data moves at the completion point, which passes the gate once for the
//! whole batch and takes each lane's consumer lock: a flush runs the queued operations to its
//! target(s) in issue order, puts and gets as transport batches (`TransportWindow::run_batch`:
//! the ordinary put/get one after the other on shared memory, one passive lock epoch per target
//! over MPI), accumulates one by one, so passive-mode atomicity (docs/contract.md rule 3) is at least that of
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

use std::sync::OnceLock;
use std::sync::atomic::Ordering;

use super::super::names::operator_of;
use super::super::stats::DataOp;
use super::gate::LANES;
use super::request_lanes::{LaneStore, my_store_lane, pause};
use super::table::{RequestSite, Window, WindowTable};
use crate::core::requests::{Deferred, Pending, RequestId, Snapshot, never_made, stale, word};
use crate::core::{Handle, HandleKind, Mode, RemoteAccess, WindowState};
use crate::error::{Error, Result};
use crate::transport::{BatchOp, Fetch};

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
    pub(in crate::runtime) fn complete_all(&self, h: &Handle, w: &Window) {
        if let Ok(site) = self.request_site(h) {
            for store in site.lanes.iter().filter_map(OnceLock::get) {
                let _ = run_store(&site, store, w, None);
            }
        }
    }

    /// Releases every request of window `h` (being freed); how many had not been waited for.
    pub(in crate::runtime) fn release_requests(&self, h: &Handle) -> usize {
        self.request_site(h).map_or(0, |site| site.lanes.iter().filter_map(OnceLock::get).map(|s| s.release_window(site.serial)).sum())
    }
}
