//! The requests of the request-based operations (`RPN_COMM_i_win_rput_r`, `_rget_r`,
//! `_rgetacc_r`): the book one lane of one window keeps of them. Safe logic only; the runtime
//! holds one book per (window table entry, thread lane) behind a lock of its own.
//!
//! An operation is checked when it is issued (against a snapshot of the window's state) and
//! queued here as `Pending`; it runs at the first completion point that covers it (wait or test
//! of its request, flush, flush_all, close), which marks its request done. A request lives from
//! its operation's issue until a wait (or a test that finds it done) releases it; its handle
//! carries the lane's serial of the request, never reused, so a released request's handle stays
//! refused ("waited twice"), also once its slot holds another request.

use super::handle::{Handle, HandleKind};
use super::operator::Operator;
use super::window_state::{RemoteAccess, WindowState};
use crate::error::{Error, Result};

/// Bits of the slot in a request handle: the most requests alive at once on one lane of a window.
const SLOT_BITS: u32 = 15;
/// Bits of the lane in a request handle (lanes of the window gates: 16).
const LANE_BITS: u32 = 4;
/// The most requests alive at once on one lane of one window.
pub const LANE_CAPACITY: usize = 1 << SLOT_BITS;

/// Where a request lives: the window table entry, the lane, the slot, and its serial there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestId {
    /// Index of the window's entry in the window table.
    pub entry: usize,
    /// The lane of the thread that issued it.
    pub lane: usize,
    /// Its slot in the lane's book.
    pub slot: u32,
    /// Its serial in the lane's book.
    pub serial: u32,
}

/// The error of a handle that designates no request ever made.
pub fn never_made() -> Error {
    Error::BadRequest("not a request handle (never made by RPN_COMM_i_win_rput_r, _rget_r or _rgetacc_r, or overwritten)".into())
}

fn stale() -> Error {
    Error::BadRequest(
        "the request was already completed and freed (waited for or tested complete before, or its window was freed): a stale request"
            .into(),
    )
}

impl RequestId {
    /// The handle the caller holds (entries below 2^12, lanes below 2^4).
    pub fn handle(self) -> Handle {
        debug_assert!(self.lane < 1 << LANE_BITS && (self.slot as usize) < LANE_CAPACITY && self.entry < 1 << 12);
        let t1 = (self.entry << (LANE_BITS + SLOT_BITS)) | (self.lane << SLOT_BITS) | self.slot as usize;
        Handle::of_entry(HandleKind::Request, t1, self.serial)
    }

    /// The request a handle designates, or why it designates none (the book checks the serial).
    pub fn from_handle(h: &Handle) -> Result<RequestId> {
        if h.is_null() {
            return Err(Error::BadRequest(
                "null request (RPN_COMM_i_win_wait and a successful _test set the request to null: waited twice?)".into(),
            ));
        }
        let (t1, serial) = h.entry(HandleKind::Request).map_err(|_| never_made())?;
        Ok(RequestId {
            entry: t1 >> (LANE_BITS + SLOT_BITS),
            lane: (t1 >> SLOT_BITS) & ((1 << LANE_BITS) - 1),
            slot: (t1 & (LANE_CAPACITY - 1)) as u32,
            serial,
        })
    }
}

/// The operation a request stands for, with the caller's buffers (addresses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deferred {
    /// A put from `src`.
    Put {
        /// The caller's source buffer.
        src: usize,
    },
    /// A get into `dst`.
    Get {
        /// The caller's destination buffer.
        dst: usize,
    },
    /// An accumulate of `src` with `op`; `garray` (0: none) receives the values from before or after.
    Acc {
        /// The caller's operand.
        src: usize,
        /// The caller's buffer for the fetched values (0: plain accumulate).
        garray: usize,
        /// Fetch the values from before the update (else after).
        before: bool,
        /// The operator (the window's default already applied).
        op: Operator,
    },
}

/// A checked operation waiting for a completion point (kept small: a batch of them is written
/// at issue and read at completion).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    /// Its request's slot.
    pub slot: u32,
    /// Target PE (rank in the window's communicator).
    pub target: u32,
    /// Offset in elements in the target's part (checked).
    pub offset: u32,
    /// Number of elements (checked).
    pub nelem: u32,
    /// The window's configuration generation it was checked against (low 32 bits): a
    /// configuration call since then, which a completion point would find, means the check no
    /// longer holds; while it holds, the window's mode and epoch are those of the check.
    pub generation: u32,
    /// What to do.
    pub what: Deferred,
}

impl Pending {
    /// The checked access of `acc` (offset and count fit in u32: they came from C ints).
    pub fn new(acc: &RemoteAccess, generation: u64, what: Deferred) -> Self {
        Pending {
            slot: 0,
            target: acc.target as u32,
            offset: acc.offset as u32,
            nelem: acc.nelem as u32,
            generation: generation as u32,
            what,
        }
    }

    /// Whether it was checked against the window's configuration `generation`.
    pub fn checked_at(&self, generation: u64) -> bool {
        self.generation == generation as u32
    }

    /// Its access in an epoch of `mode` and number `epoch` (those of its check).
    pub fn access(&self, mode: super::window_state::Mode, epoch: u32) -> RemoteAccess {
        RemoteAccess { target: self.target as usize, offset: self.offset as usize, nelem: self.nelem as usize, mode, epoch }
    }
}

#[derive(Debug)]
enum State {
    Free,
    Pending,
    /// Its operation ran (the error, when it failed).
    Done(Option<Error>),
}

#[derive(Debug)]
struct Slot {
    serial: u32,
    /// Serial of the window it belongs to.
    window: u32,
    state: State,
}

/// The window state the operations of one lane are checked against, taken (under the window's
/// gate) once per configuration of the window.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Serial of the window.
    pub window: u32,
    /// The window's configuration generation when it was taken.
    pub generation: u64,
    /// The window's state then.
    pub state: WindowState,
}

/// The requests of one lane of one window table entry (see the module's documentation).
#[derive(Debug, Default)]
pub struct LaneRequests {
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Serial of the next request (serials start at 1 and only grow).
    next_serial: u32,
    /// Operations not yet run, in the order they were issued.
    pending: Vec<Pending>,
    /// What the operations of this lane are checked against.
    pub snapshot: Option<Snapshot>,
}

/// What a wait or test finds.
#[derive(Debug)]
pub enum Found {
    /// The operation has not run yet; the request belongs to the window of this serial.
    Pending {
        /// Serial of the request's window.
        window: u32,
    },
    /// The operation ran; the request is released (the error, when the operation failed).
    Released(Option<Error>),
}

impl LaneRequests {
    /// Queues `pending` (its `slot` is set here) for window `window`; the new request's (slot, serial).
    pub fn issue(&mut self, window: u32, mut pending: Pending) -> Result<(u32, u32)> {
        let slot = match self.free.pop() {
            Some(s) => s,
            None if self.slots.len() < LANE_CAPACITY => {
                self.slots.push(Slot { serial: 0, window: 0, state: State::Free });
                (self.slots.len() - 1) as u32
            }
            None => {
                return Err(Error::Limit(format!(
                    "{LANE_CAPACITY} requests of this thread on this window are not waited for yet: wait for some first"
                )));
            }
        };
        self.next_serial = self.next_serial.max(1);
        let serial = self.next_serial;
        // Serials only grow; wrapping after 2^31 requests on one lane is accepted.
        self.next_serial = self.next_serial.wrapping_add(1).max(1) & 0x7FFF_FFFF;
        self.slots[slot as usize] = Slot { serial, window, state: State::Pending };
        pending.slot = slot;
        self.pending.push(pending);
        Ok((slot, serial))
    }

    fn slot_of(&self, slot: u32, serial: u32) -> Result<&Slot> {
        let s = self.slots.get(slot as usize).ok_or_else(never_made)?;
        if s.serial == serial && !matches!(s.state, State::Free) {
            return Ok(s);
        }
        // A serial this lane never gave out is a handle it never made.
        if serial == 0 || serial >= self.next_serial.max(1) { Err(never_made()) } else { Err(stale()) }
    }

    /// The window a live request belongs to, or why the handle designates none.
    pub fn window_of(&self, slot: u32, serial: u32) -> Result<u32> {
        self.slot_of(slot, serial).map(|s| s.window)
    }

    /// Releases the request if its operation ran (a wait or a successful test).
    pub fn release_if_done(&mut self, slot: u32, serial: u32) -> Result<Found> {
        let s = self.slot_of(slot, serial)?;
        if let State::Pending = s.state {
            return Ok(Found::Pending { window: s.window });
        }
        let s = &mut self.slots[slot as usize];
        let outcome = match std::mem::replace(&mut s.state, State::Free) {
            State::Done(e) => e,
            _ => None,
        };
        s.serial = 0;
        self.free.push(slot);
        Ok(Found::Released(outcome))
    }

    /// Runs, in issue order, the operations of window `window` not run yet (those to `target`
    /// only, when given) with `run`, records their outcomes in their requests and drops them
    /// from the queue; the first error.
    pub fn run_pending(&mut self, window: u32, target: Option<usize>, mut run: impl FnMut(&Pending) -> Result<()>) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut first = Ok(());
        let mut all = true;
        let ours = |slots: &[Slot], p: &Pending| slots[p.slot as usize].window == window && target.is_none_or(|t| t == p.target as usize);
        for p in &self.pending {
            if !ours(&self.slots, p) {
                all = false;
                continue;
            }
            let out = run(p);
            let slot = &mut self.slots[p.slot as usize];
            match out {
                Ok(()) => slot.state = State::Done(None),
                Err(e) => {
                    if first.is_ok() {
                        first = Err(e.clone());
                    }
                    slot.state = State::Done(Some(e));
                }
            }
        }
        if all {
            self.pending.clear();
        } else {
            let slots = &self.slots;
            self.pending.retain(|p| !ours(slots, p));
        }
        first
    }

    /// Releases every request of window `window` (it is being freed): how many there were.
    /// Their operations must have run (close runs them); any left are dropped, counted too.
    pub fn release_window(&mut self, window: u32) -> usize {
        let slots = &self.slots;
        self.pending.retain(|p| slots[p.slot as usize].window != window);
        let mut count = 0;
        for (i, s) in self.slots.iter_mut().enumerate() {
            if s.window == window && !matches!(s.state, State::Free) {
                *s = Slot { serial: 0, window: 0, state: State::Free };
                self.free.push(i as u32);
                count += 1;
            }
        }
        if self.snapshot.as_ref().is_some_and(|s| s.window == window) {
            self.snapshot = None;
        }
        count
    }

    /// Whether operations of window `window` wait for a completion point.
    pub fn has_pending(&self, window: u32) -> bool {
        self.pending.iter().any(|p| self.slots[p.slot as usize].window == window)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Mode;

    fn put(target: usize, offset: usize) -> Pending {
        let acc = RemoteAccess { target, offset, nelem: 1, mode: Mode::Passive, epoch: 1 };
        Pending::new(&acc, 3, Deferred::Put { src: 0x1000 })
    }

    /// Runs the operations of `window` (to `target`) successfully; their (slot, offset) in order.
    fn run_ok(book: &mut LaneRequests, window: u32, target: Option<usize>) -> Vec<(u32, usize)> {
        let mut ran = Vec::new();
        book.run_pending(window, target, |p| {
            ran.push((p.slot, p.offset as usize));
            Ok(())
        })
        .unwrap();
        ran
    }

    #[test]
    fn handles_round_trip_and_refuse_other_kinds() {
        let id = RequestId { entry: 4095, lane: 15, slot: (LANE_CAPACITY - 1) as u32, serial: 77 };
        assert_eq!(RequestId::from_handle(&id.handle()).unwrap(), id);
        let id0 = RequestId { entry: 0, lane: 0, slot: 0, serial: 1 };
        assert_eq!(RequestId::from_handle(&id0.handle()).unwrap(), id0);
        assert!(RequestId::from_handle(&Handle::NULL).unwrap_err().to_string().contains("null request"));
        let window = Handle::of_entry(HandleKind::Window, 0, 1);
        assert!(RequestId::from_handle(&window).unwrap_err().to_string().contains("never made"));
    }

    #[test]
    fn wait_releases_once_and_a_second_wait_is_stale() {
        let mut book = LaneRequests::default();
        let (slot, serial) = book.issue(9, put(1, 0)).unwrap();
        assert!(matches!(book.release_if_done(slot, serial).unwrap(), Found::Pending { window: 9 }));
        let ran = run_ok(&mut book, 9, None);
        assert_eq!(ran, vec![(slot, 0)]);
        let acc = put(1, 0).access(Mode::Fence, 4);
        assert_eq!((acc.target, acc.offset, acc.nelem, acc.mode, acc.epoch), (1, 0, 1, Mode::Fence, 4));
        assert!(put(1, 0).checked_at(3) && !put(1, 0).checked_at(4));
        assert!(matches!(book.release_if_done(slot, serial).unwrap(), Found::Released(None)));
        let again = book.release_if_done(slot, serial).unwrap_err().to_string();
        assert!(again.contains("stale"), "{again}");
        // the slot is reused by the next request; the old handle stays stale
        let (slot2, serial2) = book.issue(9, put(1, 0)).unwrap();
        assert_eq!(slot2, slot);
        assert_ne!(serial2, serial);
        assert!(book.release_if_done(slot, serial).unwrap_err().to_string().contains("stale"));
        // a serial never given out, or a slot never used: never made
        assert!(book.release_if_done(slot, serial2 + 5).unwrap_err().to_string().contains("never made"));
        assert!(book.release_if_done(40, 1).unwrap_err().to_string().contains("never made"));
    }

    #[test]
    fn pending_taken_by_window_and_target_in_issue_order() {
        let mut book = LaneRequests::default();
        let a = book.issue(1, put(0, 10)).unwrap();
        let b = book.issue(2, put(0, 11)).unwrap();
        let c = book.issue(1, put(1, 12)).unwrap();
        let d = book.issue(1, put(0, 13)).unwrap();
        assert!(book.has_pending(1) && book.has_pending(2));
        let to0: Vec<usize> = run_ok(&mut book, 1, Some(0)).iter().map(|r| r.1).collect();
        assert_eq!(to0, vec![10, 13]);
        assert_eq!(run_ok(&mut book, 1, None), vec![(c.0, 12)]);
        assert!(!book.has_pending(1) && book.has_pending(2));
        // a failed operation: its request carries the error, the flush returns it
        let e = book.issue(2, put(0, 14)).unwrap();
        let first = book.run_pending(2, None, |p| if p.offset == 14 { Err(Error::NotExposed { op: "x" }) } else { Ok(()) });
        assert!(first.unwrap_err().to_string().contains("not exposed"));
        assert!(matches!(book.release_if_done(b.0, b.1).unwrap(), Found::Released(None)));
        match book.release_if_done(e.0, e.1).unwrap() {
            Found::Released(Some(e)) => assert!(e.to_string().contains("not exposed"), "{e}"),
            other => panic!("{other:?}"),
        }
        let _ = (a, d);
    }

    #[test]
    fn freeing_a_window_releases_and_counts_its_requests() {
        let mut book = LaneRequests::default();
        let a = book.issue(1, put(0, 0)).unwrap();
        let b = book.issue(2, put(0, 0)).unwrap();
        let c = book.issue(1, put(0, 1)).unwrap();
        run_ok(&mut book, 1, None);
        assert!(matches!(book.release_if_done(c.0, c.1).unwrap(), Found::Released(None)));
        assert_eq!(book.release_window(1), 1, "a was never waited for; c was");
        assert!(book.release_if_done(a.0, a.1).unwrap_err().to_string().contains("stale"));
        assert!(matches!(book.release_if_done(b.0, b.1).unwrap(), Found::Pending { window: 2 }));
        assert_eq!(book.release_window(2), 1, "b was still pending: dropped and counted");
        assert!(!book.has_pending(2));
    }

    #[test]
    fn a_lane_holds_at_most_its_capacity() {
        let mut book = LaneRequests::default();
        for _ in 0..LANE_CAPACITY {
            book.issue(1, put(0, 0)).unwrap();
        }
        assert!(book.issue(1, put(0, 0)).unwrap_err().to_string().contains("not waited for yet"));
        run_ok(&mut book, 1, None);
        assert_eq!(book.release_window(1), LANE_CAPACITY);
        assert!(book.issue(1, put(0, 0)).is_ok());
    }
}
