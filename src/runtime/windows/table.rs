//! The table of this PE's windows, which the operations of any number of threads read at once
//! without a common lock (see `gate`), while the configuration calls (create, open, close,
//! free ...) have a window to themselves.
//!
//! Entries are allocated once and never freed while the table lives: a thread that looked an
//! entry up keeps valid memory whatever other threads do. A handle names an entry and the
//! serial of the window it held; a window freed, or replaced by a new one, leaves the old
//! handles invalid.
//!
//! Below the calls that use it (`calls`, `requests`, `boxes`): it holds the `Window` an
//! entry stores and, per entry, the request sets of `request_lanes`.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use super::super::stats::WindowStats;
use super::gate::{Gate, my_lane};
use super::request_lanes::{LANE_STORES, LaneStore};
use crate::core::{Communicator, Handle, HandleKind, WindowState};
use crate::error::{Error, Result};
use crate::transport::TransportWindow;

/// A window of the process: its core state and its transport part, which configuration calls
/// change and operations only read, and the slots this PE holds in the targets' secondary
/// windows, which posts (operations) change.
pub(crate) struct Window {
    pub(in crate::runtime) state: WindowState,
    pub(in crate::runtime) memory: Box<dyn TransportWindow>,
    /// The communicator the window was created over (its collectives run there).
    pub(in crate::runtime) comm: Communicator,
    /// Its statistics, when they are recorded (`RPNCOMM_STATS`).
    pub(in crate::runtime) stats: Option<Box<WindowStats>>,
    /// The slot claimed in each target's secondary window, kept across epochs until the
    /// secondary window is made again or fully reinitialised (posts from several threads share
    /// it, and operations hold the window by `&`: hence the lock).
    pub(in crate::runtime) posted_slots: Mutex<Vec<Option<u32>>>,
}

impl Window {
    /// Forgets the slots held in the targets' secondary windows (made again, or reinitialised).
    pub(in crate::runtime) fn forget_posted_slots(&self) {
        self.posted_slots.lock().unwrap_or_else(|p| p.into_inner()).iter_mut().for_each(|s| *s = None);
    }
}

/// The most windows alive at once on one PE.
pub(in crate::runtime) const CAPACITY: usize = 4096;

struct Entry {
    gate: Gate,
    /// The window and its serial (None: free). Read by operations counted in on the gate;
    /// written only while the gate is shut, by one configuration call.
    slot: UnsafeCell<Option<(u32, Window)>>,
    /// Counts the configuration calls on the entry's windows: request-based operations are
    /// checked against a snapshot of the window's state that holds while it is unchanged.
    generation: AtomicU64,
    /// The requests of the request-based operations, one set per lane (see `requests`),
    /// made when a thread of that lane first issues one.
    requests: [OnceLock<Box<LaneStore>>; LANE_STORES],
}

impl Entry {
    fn new() -> Self {
        Entry {
            gate: Gate::default(),
            slot: UnsafeCell::new(None),
            generation: AtomicU64::new(0),
            requests: std::array::from_fn(|_| OnceLock::new()),
        }
    }
}

/// What the request-based operations use of a window's table entry.
pub(in crate::runtime) struct RequestSite<'a> {
    /// The entry's index (requests name it).
    pub index: usize,
    /// The window's serial (from the handle; `read` checks it is alive).
    pub serial: u32,
    /// The entry's configuration generation.
    pub generation: &'a AtomicU64,
    /// The entry's request sets, one per lane.
    pub lanes: &'a [OnceLock<Box<LaneStore>>; LANE_STORES],
}

// SAFETY: the slot is shared only between `Gate::enter` and `leave`, and mutated only between
// `Gate::shut` (which excludes every other closer and waits until no operation is counted in)
// and `open`; the window itself is Sync (its transport part is, `TransportWindow: Sync`).
unsafe impl Sync for Entry {}

/// Which entries hold a window, and the serial the next window takes.
struct Book {
    used: Vec<bool>,
    next_serial: u32,
}

/// The windows of one PE.
pub(crate) struct WindowTable {
    entries: Box<[OnceLock<Box<Entry>>]>,
    book: Mutex<Book>,
    finalized: AtomicBool,
}

/// Counts the calling thread out of a gate when dropped.
struct Entered<'a> {
    gate: &'a Gate,
    lane: usize,
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        self.gate.leave(self.lane);
    }
}

/// Opens a shut gate when dropped.
struct Shut<'a>(&'a Gate);

impl Drop for Shut<'_> {
    fn drop(&mut self) {
        self.0.open();
    }
}

fn invalid() -> Error {
    Error::InvalidHandle { what: "window" }
}

impl WindowTable {
    pub(in crate::runtime) fn new() -> Self {
        WindowTable {
            entries: (0..CAPACITY).map(|_| OnceLock::new()).collect(),
            book: Mutex::new(Book { used: vec![false; CAPACITY], next_serial: 1 }),
            finalized: AtomicBool::new(false),
        }
    }

    fn entry(&self, h: &Handle) -> Result<(&Entry, u32)> {
        let (index, serial) = h.entry(HandleKind::Window)?;
        let entry = self.entries.get(index).and_then(OnceLock::get).ok_or_else(invalid)?;
        Ok((entry, serial))
    }

    /// Why an operation found a gate shut.
    fn refusal(&self) -> Error {
        match self.finalized.load(Ordering::Acquire) {
            true => Error::CallOrder("RPN_COMM_finalize was already called".into()),
            false => Error::WindowBusy,
        }
    }

    /// Runs the operation `f` on window `h`, at the same time as other threads' operations.
    pub(in crate::runtime) fn read<T>(&self, h: &Handle, f: impl FnOnce(&Window) -> Result<T>) -> Result<T> {
        let (entry, serial) = self.entry(h)?;
        let lane = my_lane();
        if !entry.gate.enter(lane) {
            return Err(self.refusal());
        }
        let _entered = Entered { gate: &entry.gate, lane };
        // SAFETY: counted in on the gate: no configuration call writes the slot until we leave.
        match unsafe { &*entry.slot.get() } {
            Some((s, w)) if *s == serial => f(w),
            _ => Err(invalid()),
        }
    }

    /// Runs the configuration call `f` on window `h`, alone on it: operations of other threads
    /// that come meanwhile are refused (`WindowBusy`).
    pub(in crate::runtime) fn write<T>(&self, h: &Handle, f: impl FnOnce(&mut Window) -> Result<T>) -> Result<T> {
        let (entry, serial) = self.entry(h)?;
        if !entry.gate.shut() {
            return Err(self.refusal());
        }
        let _shut = Shut(&entry.gate);
        // SAFETY: the gate is shut by this thread alone and no operation is counted in: nothing
        // else reads or writes the slot until `_shut` opens it.
        let out = match unsafe { &mut *entry.slot.get() } {
            Some((s, w)) if *s == serial => f(w),
            _ => Err(invalid()),
        };
        // Snapshots of the window's state taken before this call no longer hold (counted after
        // the call: the operations a close completes were checked against the state before it).
        entry.generation.fetch_add(1, Ordering::AcqRel);
        out
    }

    /// The request site of window handle `h` (its entry; the window itself may be gone).
    pub(in crate::runtime) fn request_site(&self, h: &Handle) -> Result<RequestSite<'_>> {
        let (index, serial) = h.entry(HandleKind::Window)?;
        let (entry, _) = self.entry(h)?;
        Ok(RequestSite { index, serial, generation: &entry.generation, lanes: &entry.requests })
    }

    /// The request site of entry `index` for the window of serial `serial`.
    pub(in crate::runtime) fn request_site_at(&self, index: usize, serial: u32) -> Option<RequestSite<'_>> {
        let entry = self.entries.get(index).and_then(OnceLock::get)?;
        Some(RequestSite { index, serial, generation: &entry.generation, lanes: &entry.requests })
    }

    /// Stores a new window; its handle.
    pub(in crate::runtime) fn insert(&self, window: Window) -> Result<Handle> {
        let mut book = self.book.lock().unwrap_or_else(|p| p.into_inner());
        let index = book
            .used
            .iter()
            .position(|u| !u)
            .ok_or_else(|| Error::Limit(format!("{CAPACITY} windows are alive on this PE already: free some first")))?;
        let serial = book.next_serial;
        // Serials only grow; wrapping after 2^31 windows is accepted.
        book.next_serial = book.next_serial.wrapping_add(1).max(1) & 0x7FFF_FFFF;
        let entry = self.entries[index].get_or_init(|| Box::new(Entry::new()));
        if !entry.gate.shut() {
            return Err(self.refusal());
        }
        let _shut = Shut(&entry.gate);
        // SAFETY: as in `write`.
        unsafe { *entry.slot.get() = Some((serial, window)) };
        book.used[index] = true;
        Ok(Handle::of_entry(HandleKind::Window, index, serial))
    }

    /// Takes window `h` out of the table (waiting for operations in progress on it to end).
    pub(in crate::runtime) fn remove(&self, h: &Handle) -> Result<Window> {
        let mut book = self.book.lock().unwrap_or_else(|p| p.into_inner());
        let (index, serial) = h.entry(HandleKind::Window)?;
        let (entry, _) = self.entry(h)?;
        if !entry.gate.shut() {
            return Err(self.refusal());
        }
        let _shut = Shut(&entry.gate);
        // SAFETY: as in `write`.
        let slot = unsafe { &mut *entry.slot.get() };
        let (_, window) = slot.take_if(|(s, _)| *s == serial).ok_or_else(invalid)?;
        entry.generation.fetch_add(1, Ordering::AcqRel);
        book.used[index] = false;
        Ok(window)
    }

    /// RPN_COMM_finalize: every later operation is refused; waits for those in progress.
    pub(in crate::runtime) fn seal(&self) {
        self.finalized.store(true, Ordering::Release);
        self.entries.iter().filter_map(OnceLock::get).for_each(|e| e.gate.seal());
    }

    /// The windows alive, once `seal` has returned: no operation runs any more, and no
    /// configuration call either (they need the runtime's lock, which the caller holds).
    pub(in crate::runtime) fn sealed_windows(&self) -> impl Iterator<Item = &Window> {
        assert!(self.is_sealed(), "sealed_windows before seal");
        self.entries.iter().filter_map(OnceLock::get).filter_map(|e| {
            // SAFETY: sealed: every gate is shut for good and no operation is counted in, and the
            // slot is no longer written (see above), so shared reads are race-free.
            unsafe { (*e.slot.get()).as_ref() }.map(|(_, w)| w)
        })
    }

    /// Whether `seal` was called.
    pub(in crate::runtime) fn is_sealed(&self) -> bool {
        self.finalized.load(Ordering::Acquire)
    }
}
