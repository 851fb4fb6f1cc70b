//! The table of this PE's windows, which the operations of any number of threads read at once
//! without a common lock (see `gate`), while the configuration calls (create, open, close,
//! free ...) have a window to themselves.
//!
//! Entries are allocated once and never freed while the table lives: a thread that looked an
//! entry up keeps valid memory whatever other threads do. A handle names an entry and the
//! serial of the window it held; a window freed, or replaced by a new one, leaves the old
//! handles invalid.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use super::gate::{Gate, my_lane};
use super::windows::Window;
use crate::core::{Handle, HandleKind};
use crate::error::{Error, Result};

/// The most windows alive at once on one PE.
pub(super) const CAPACITY: usize = 4096;

struct Entry {
    gate: Gate,
    /// The window and its serial (None: free). Read by operations counted in on the gate;
    /// written only while the gate is shut, by one configuration call.
    slot: UnsafeCell<Option<(u32, Window)>>,
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
    pub(super) fn new() -> Self {
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
    pub(super) fn read<T>(&self, h: &Handle, f: impl FnOnce(&Window) -> Result<T>) -> Result<T> {
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
    pub(super) fn write<T>(&self, h: &Handle, f: impl FnOnce(&mut Window) -> Result<T>) -> Result<T> {
        let (entry, serial) = self.entry(h)?;
        if !entry.gate.shut() {
            return Err(self.refusal());
        }
        let _shut = Shut(&entry.gate);
        // SAFETY: the gate is shut by this thread alone and no operation is counted in: nothing
        // else reads or writes the slot until `_shut` opens it.
        match unsafe { &mut *entry.slot.get() } {
            Some((s, w)) if *s == serial => f(w),
            _ => Err(invalid()),
        }
    }

    /// Stores a new window; its handle.
    pub(super) fn insert(&self, window: Window) -> Result<Handle> {
        let mut book = self.book.lock().unwrap_or_else(|p| p.into_inner());
        let index = book
            .used
            .iter()
            .position(|u| !u)
            .ok_or_else(|| Error::Limit(format!("{CAPACITY} windows are alive on this PE already: free some first")))?;
        let serial = book.next_serial;
        // Serials only grow; wrapping after 2^31 windows is accepted.
        book.next_serial = book.next_serial.wrapping_add(1).max(1) & 0x7FFF_FFFF;
        let entry = self.entries[index].get_or_init(|| Box::new(Entry { gate: Gate::default(), slot: UnsafeCell::new(None) }));
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
    pub(super) fn remove(&self, h: &Handle) -> Result<Window> {
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
        book.used[index] = false;
        Ok(window)
    }

    /// RPN_COMM_finalize: every later operation is refused; waits for those in progress.
    pub(super) fn seal(&self) {
        self.finalized.store(true, Ordering::Release);
        self.entries.iter().filter_map(OnceLock::get).for_each(|e| e.gate.seal());
    }

    /// The windows alive, once `seal` has returned: no operation runs any more, and no
    /// configuration call either (they need the runtime's lock, which the caller holds).
    pub(super) fn sealed_windows(&self) -> impl Iterator<Item = &Window> {
        assert!(self.is_sealed(), "sealed_windows before seal");
        self.entries.iter().filter_map(OnceLock::get).filter_map(|e| {
            // SAFETY: sealed: every gate is shut for good and no operation is counted in, and the
            // slot is no longer written (see above), so shared reads are race-free.
            unsafe { (*e.slot.get()).as_ref() }.map(|(_, w)| w)
        })
    }

    /// Whether `seal` was called.
    pub(super) fn is_sealed(&self) -> bool {
        self.finalized.load(Ordering::Acquire)
    }
}
