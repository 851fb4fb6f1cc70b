//! The requests of the request-based operations (`RPN_COMM_i_win_rput_r`, `_rget_r`,
//! `_rgetacc_r`): their handles, the operations they queue, the word that says where a request
//! stands, and the issuing thread's bookkeeping of its slots. Safe logic only; the runtime keeps
//! one set of slots per (window table entry, thread lane) in shared memory of the process
//! (`runtime::requests`).
//!
//! An operation is checked when it is issued (against a snapshot of the window's state) and
//! queued as `Pending`; it runs at the first completion point that covers it (wait or test of
//! its request, flush, flush_all, close), which marks its request done. A request lives from
//! its operation's issue until a wait (or a test that finds it done) releases it; its handle
//! carries the lane's serial of the request, never reused, so a released request's handle stays
//! refused ("waited twice"), also once its slot holds another request.

use super::window_state::{RemoteAccess, WindowState};
use crate::core::handle::{Handle, HandleKind};
use crate::core::operator::Operator;
use crate::error::{Error, Result};

/// Bits of the slot in a request handle: the most requests alive at once on one lane of a window.
const SLOT_BITS: u32 = 12;
/// Bits of the lane in a request handle (the 16 lanes of the window gates, and one shared).
const LANE_BITS: u32 = 5;
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

/// The error of a handle of a request released before.
pub fn stale() -> Error {
    Error::BadRequest(
        "the request was already completed and freed (waited for or tested complete before, or its window was freed): a stale request"
            .into(),
    )
}

impl RequestId {
    /// The handle the caller holds (entries below 2^14, lanes below 2^5).
    pub fn handle(self) -> Handle {
        debug_assert!(self.lane < 1 << LANE_BITS && (self.slot as usize) < LANE_CAPACITY && self.entry < 1 << 14);
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

/// The word of one request slot, which every thread of the PE reads: the request's serial (31
/// bits), its window's serial (31 bits) and where it stands (2 bits).
pub mod word {
    /// No request (released, or never used).
    pub const FREE: u64 = 0;
    /// Its operation waits for a completion point.
    pub const PENDING: u64 = 1;
    /// Its operation ran.
    pub const DONE: u64 = 2;
    /// Its operation failed (the error is kept beside).
    pub const FAILED: u64 = 3;

    /// The word of request `serial` of window `window` in state `state`.
    pub fn make(serial: u32, window: u32, state: u64) -> u64 {
        ((serial as u64 & 0x7FFF_FFFF) << 33) | ((window as u64 & 0x7FFF_FFFF) << 2) | (state & 3)
    }

    /// The request's serial.
    pub fn serial(w: u64) -> u32 {
        (w >> 33) as u32
    }

    /// Its window's serial.
    pub fn window(w: u64) -> u32 {
        ((w >> 2) & 0x7FFF_FFFF) as u32
    }

    /// Where it stands (FREE, PENDING, DONE or FAILED).
    pub fn state(w: u64) -> u64 {
        w & 3
    }
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

/// What the issuing thread of a lane keeps to itself: the snapshot its operations are checked
/// against and which slots it handed out.
#[derive(Debug, Default)]
pub struct Issuer {
    /// What the operations of this lane are checked against.
    pub snapshot: Option<Snapshot>,
    /// Slots known to be free.
    free: Vec<u32>,
    /// Slots handed out and not seen released since (waits release them behind its back).
    in_use: Vec<bool>,
    /// Serial of the next request (serials start at 1 and only grow, on 31 bits).
    next_serial: u32,
}

impl Issuer {
    /// A slot for a new request among `capacity`: one known free, else one a wait released
    /// (`released(i)`: slot i's word is FREE; looked for at most once per 64 new slots while
    /// there is room, so that slots are reused and stay few), else a new one; None when all are
    /// in use.
    pub fn take_slot(&mut self, capacity: usize, released: impl Fn(usize) -> bool) -> Option<u32> {
        if let Some(s) = self.free.pop() {
            self.in_use[s as usize] = true;
            return Some(s);
        }
        let room = self.in_use.len() < capacity;
        if !room || self.in_use.len().is_multiple_of(64) {
            for (i, used) in self.in_use.iter_mut().enumerate() {
                if *used && released(i) {
                    *used = false;
                    self.free.push(i as u32);
                }
            }
            // the lowest first
            self.free.reverse();
            if let Some(s) = self.free.pop() {
                self.in_use[s as usize] = true;
                return Some(s);
            }
        }
        if !room {
            return None;
        }
        self.in_use.push(true);
        Some((self.in_use.len() - 1) as u32)
    }

    /// The serial of the next request.
    pub fn next_serial(&mut self) -> u32 {
        let serial = self.next_serial.max(1);
        // Serials only grow; wrapping after 2^31 requests on one lane is accepted.
        self.next_serial = serial.wrapping_add(1).max(1) & 0x7FFF_FFFF;
        serial
    }

    /// The serial the next request will take: those below were given out (ignoring wrap).
    pub fn issued(&self) -> u32 {
        self.next_serial.max(1)
    }
}

/// The refusal of a limit of `capacity` requests of one thread on one window.
pub fn too_many(capacity: usize) -> Error {
    Error::Limit(format!("{capacity} requests of this thread on this window are not waited for yet: wait for some first"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Mode;

    #[test]
    fn handles_round_trip_and_refuse_other_kinds() {
        let id = RequestId { entry: 4095, lane: 16, slot: (LANE_CAPACITY - 1) as u32, serial: 0x7FFF_FFFF };
        assert_eq!(RequestId::from_handle(&id.handle()).unwrap(), id);
        let id0 = RequestId { entry: 0, lane: 0, slot: 0, serial: 1 };
        assert_eq!(RequestId::from_handle(&id0.handle()).unwrap(), id0);
        assert!(RequestId::from_handle(&Handle::NULL).unwrap_err().to_string().contains("null request"));
        let window = Handle::of_entry(HandleKind::Window, 0, 1);
        assert!(RequestId::from_handle(&window).unwrap_err().to_string().contains("never made"));
    }

    #[test]
    fn slot_words_keep_serial_window_and_state() {
        let w = word::make(0x7FFF_FFFF, 0x7FFF_FFFE, word::FAILED);
        assert_eq!((word::serial(w), word::window(w), word::state(w)), (0x7FFF_FFFF, 0x7FFF_FFFE, word::FAILED));
        let w = word::make(1, 2, word::PENDING);
        assert_eq!((word::serial(w), word::window(w), word::state(w)), (1, 2, word::PENDING));
        assert_eq!(word::make(0, 0, word::FREE), 0);
    }

    #[test]
    fn pending_keeps_the_checked_access() {
        let acc = RemoteAccess { target: 3, offset: 17, nelem: 2, mode: Mode::Passive, epoch: 5 };
        let p = Pending::new(&acc, (1 << 40) + 7, Deferred::Get { dst: 0x2000 });
        assert_eq!(p.access(Mode::Passive, 5), acc);
        assert!(p.checked_at((1 << 40) + 7) && !p.checked_at(8));
    }

    #[test]
    fn issuer_reuses_released_slots_and_stops_at_capacity() {
        let mut issuer = Issuer::default();
        let released = std::cell::RefCell::new(vec![false; 200]);
        let taken: Vec<u32> = (0..64).map(|_| issuer.take_slot(200, |i| released.borrow()[i]).unwrap()).collect();
        assert_eq!(taken, (0..64).collect::<Vec<_>>());
        // the waits release them all: the next 64 reuse them, lowest first
        released.borrow_mut()[..64].fill(true);
        let again: Vec<u32> = (0..64)
            .map(|_| {
                let s = issuer.take_slot(200, |i| released.borrow()[i]).unwrap();
                released.borrow_mut()[s as usize] = false;
                s
            })
            .collect();
        assert_eq!(again, (0..64).collect::<Vec<_>>());
        // none released: new slots up to the capacity, then none
        for _ in 64..200 {
            assert!(issuer.take_slot(200, |i| released.borrow()[i]).is_some());
        }
        assert_eq!(issuer.take_slot(200, |i| released.borrow()[i]), None);
        released.borrow_mut()[150] = true;
        assert_eq!(issuer.take_slot(200, |i| released.borrow()[i]), Some(150));
        assert!(too_many(200).to_string().contains("200 requests"));
    }

    #[test]
    fn serials_grow_from_one() {
        let mut issuer = Issuer::default();
        assert_eq!(issuer.issued(), 1);
        assert_eq!((issuer.next_serial(), issuer.next_serial()), (1, 2));
        assert_eq!(issuer.issued(), 3);
    }
}
