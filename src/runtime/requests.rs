//! The request-based operations (`RPN_COMM_i_win_rput_r`, `_rget_r`, `_rgetacc_r`) and their
//! completion (`_wait`, `_test`, `_flush`, `_flush_all`, close, free).
//!
//! What a blocking one-element put pays per call, besides its few loads and its store, is the
//! window's gate (two atomic read-modify-writes, see `gate`) and the reading of the window's
//! state behind it. A request-based operation pays neither: it is checked against a snapshot of
//! the window's state kept in the issuing thread's lane book (`core::requests`), valid while the
//! window's configuration generation is unchanged, and queued there behind the lane's own lock
//! (one read-modify-write, on a line only this thread uses as long as a PE has at most `LANES`
//! threads). The data moves at the completion point, which passes the gate once for the whole
//! batch: a flush runs every queued operation to its target(s) in issue order, through the
//! transport's ordinary put/get/accumulate (so passive-mode atomicity, CONTRACT 3, is that of
//! the blocking calls: one-element operations are single atomic instructions, longer ones take
//! the target's lock); close runs what is left; a wait or test runs its lane's queue for its
//! window. A completion point re-checks each operation's generation: an operation issued while
//! another thread reconfigured the window (a race the rules forbid) is refused then, never run
//! against a state it was not checked against.
//!
//! Lock order: a configuration call shuts the gate, then takes lane locks; a flush passes the
//! gate, then takes lane locks; issue, wait and test take their lane lock, then only try the
//! gate (`read` never blocks on a shut gate), so no cycle.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};

use super::gate::{LANES, my_lane};
use super::names::operator_of;
use super::stats::DataOp;
use super::window_table::{RequestSite, WindowTable};
use super::windows::Window;
use crate::core::requests::{Deferred, Found, LaneRequests, Pending, RequestId, Snapshot, never_made};
use crate::core::{Handle, HandleKind, Mode, WindowState};
use crate::error::{Error, Result};
use crate::transport::Fetch;

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

/// Runs one queued operation on the window, in the epoch it was checked in (`mode`, `epoch`).
///
/// # Safety
/// The caller's buffers of `p` are still valid as the issuing call's contract requires (until
/// the operation completes).
unsafe fn run(w: &Window, p: &Pending, mode: Mode, epoch: u32) -> Result<()> {
    let acc = p.access(mode, epoch);
    let bytes = acc.nelem * w.state.dtype().size();
    match p.what {
        Deferred::Put { src } => {
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::PutR, bytes));
            // SAFETY: the caller's contract: `src` holds nelem elements.
            unsafe { w.memory.put(&acc, src as *const u8) }
        }
        Deferred::Get { dst } => {
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetR, bytes));
            // SAFETY: the caller's contract: `dst` has room for nelem elements.
            unsafe { w.memory.get(&acc, dst as *mut u8) }
        }
        Deferred::Acc { src, garray, before, op } => {
            let _timing = w.stats.as_deref().and_then(|s| s.data(DataOp::GetaccR, bytes));
            let fetch = (garray != 0).then_some(Fetch { dst: garray as *mut u8, before });
            // SAFETY: the caller's contract: `src` (and `garray` when not null) hold nelem elements.
            unsafe { w.memory.accumulate(&acc, src as *const u8, fetch, op) }
        }
    }
}

/// Runs the queued operations of `book` on window `w` (of `site`), those to `target` only when
/// given, and records their outcomes in their requests; the first error.
fn run_book(site: &RequestSite<'_>, book: &mut LaneRequests, w: &Window, target: Option<usize>) -> Result<()> {
    // Read behind the gate (or with it shut, in close): no configuration call changes it now.
    let generation = site.generation.load(Ordering::Acquire);
    let (mode, epoch) = (w.state.mode(), w.state.epoch());
    book.run_pending(site.serial, target, |p| match mode {
        // SAFETY: the issuing call's contract holds until completion, which is now; checked in
        // this configuration of the window, so in this epoch and mode.
        Some(mode) if p.checked_at(generation) => unsafe { run(w, p, mode, epoch) },
        _ => Err(Error::BadRequest(
            "another thread reconfigured the window (open, close, group, oper ...) while the operation was issued: not done".into(),
        )),
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
        let lane = my_lane() % LANES;
        let mut book = site.lanes[lane].lock();
        let generation = site.generation.load(Ordering::Acquire);
        if !book.snapshot.as_ref().is_some_and(|s| s.window == site.serial && s.generation == generation) {
            // Once per configuration of the window (and lane): behind the gate, state and
            // generation are read together.
            let snapshot = self.read(h, |w| {
                Ok(Snapshot { window: site.serial, generation: site.generation.load(Ordering::Acquire), state: w.state.clone() })
            })?;
            book.snapshot = Some(snapshot);
        }
        let snapshot = book.snapshot.as_ref().expect("taken above");
        let state = &snapshot.state;
        let (t, o, n) = (target as i64, offset as i64, nelem as i64);
        let Some(acc) = state.accepted_remote(t, o, n, buffer_is_null) else {
            return Err(state.refuse_remote(routine, t, o, n, buffer_is_null));
        };
        let what = what(state)?;
        let pending = Pending::new(&acc, snapshot.generation, what);
        let (slot, serial) = book.issue(site.serial, pending)?;
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
        let mut polls = 0u32;
        loop {
            let site = self.request_site_at(id.entry, 0).ok_or_else(never_made)?;
            let mut book = site.lanes[id.lane % LANES].lock();
            let window = match book.release_if_done(id.slot, id.serial)? {
                Found::Released(None) => return Ok(true),
                Found::Released(Some(e)) => return Err(e),
                Found::Pending { window } => window,
            };
            let site = RequestSite { serial: window, ..site };
            let wh = Handle::of_entry(HandleKind::Window, id.entry, window);
            let ran = self.read(&wh, |w| run_book(&site, &mut book, w, None));
            if let Err(Error::WindowBusy) = ran {
                // Another thread is in a configuration call on the window (a close completes
                // the operation): a test says "not yet", a wait tries again once it is over.
                if !wait {
                    return Ok(false);
                }
                drop(book);
                polls += 1;
                pause(polls);
                continue;
            }
            // Each operation's outcome is in its request (the first error may be another's).
            return match book.release_if_done(id.slot, id.serial)? {
                Found::Released(None) => Ok(true),
                Found::Released(Some(e)) => Err(e),
                // the window is gone or the library finalized: the operation cannot run
                Found::Pending { .. } => {
                    Err(ran.err().unwrap_or_else(|| Error::Internal("a request still pending after its lane ran".into())))
                }
            };
        }
    }

    /// RPN_COMM_i_win_wait: completes request `req` and releases it.
    pub fn req_wait(&self, req: &Handle) -> Result<()> {
        self.complete(req, true).map(|_| ())
    }

    /// RPN_COMM_i_win_test: whether request `req` is complete (then it is released).
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
            for lane in site.lanes {
                let out = run_book(&site, &mut lane.lock(), w, target);
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
            for lane in site.lanes {
                let _ = run_book(&site, &mut lane.lock(), w, None);
            }
        }
    }

    /// Releases every request of window `h` (being freed); how many had not been waited for.
    pub(super) fn release_requests(&self, h: &Handle) -> usize {
        self.request_site(h).map_or(0, |site| site.lanes.iter().map(|lane| lane.lock().release_window(site.serial)).sum())
    }
}
