//! Handles as the Fortran caller holds them (`type(rpncomm_window)` etc.: a pointer-sized
//! signature and two integers) and their validation. A handle is never dereferenced:
//! its fields are checked against signatures and, for windows, against a table whose
//! entries carry a serial number that is never reused, so a stale handle stays invalid
//! after its table entry is taken by a new window.

use crate::error::{Error, Result};

/// The C layout of every RPN_COMM handle type (`type, bind(C)` with `p`, `t1`, `t2`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Handle {
    /// Signature of the handle's kind (never a pointer).
    pub p: usize,
    /// The object's code (datatype, operator, communicator) or table index (window).
    pub t1: i32,
    /// A check of `t1` (code) or the serial number of the table entry (window), masked by the kind.
    pub t2: i32,
}

/// What a handle designates; each kind has its own signature so one kind cannot pass for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleKind {
    /// A datatype (`rpncomm_datatype`).
    Datatype,
    /// An operator (`rpncomm_operator`).
    Operator,
    /// A communicator (`rpncomm_communicator`).
    Communicator,
    /// A window (`rpncomm_window`).
    Window,
    /// A request of a request-based operation (`rpncomm_request`).
    Request,
    /// A context of RPN_COMM_spread (`rpncomm_context`).
    Context,
}

impl HandleKind {
    fn signature(self) -> usize {
        // "RPNC" followed by the kind: recognisable in a debugger, never a plausible pointer.
        0x5250_4E43_0000_0000_u64 as usize
            | match self {
                Self::Datatype => 0xD7,
                Self::Operator => 0x0B,
                Self::Communicator => 0xC0,
                Self::Window => 0x3D,
                Self::Request => 0x7E,
                Self::Context => 0xCE,
            }
    }

    fn check_mask(self) -> i32 {
        0x2B5F_1E37 ^ (self.signature() as i32)
    }

    /// The kind's name in messages ("window", ...).
    pub fn name(self) -> &'static str {
        match self {
            Self::Datatype => "datatype",
            Self::Operator => "operator",
            Self::Communicator => "communicator",
            Self::Window => "window",
            Self::Request => "request",
            Self::Context => "spread context",
        }
    }
}

impl Handle {
    /// The null handle (all zero), which designates nothing.
    pub const NULL: Handle = Handle { p: 0, t1: 0, t2: 0 };

    /// Whether this is the null handle.
    pub fn is_null(&self) -> bool {
        *self == Self::NULL
    }

    /// A handle for a value-like object (datatype, operator, communicator) identified by `code`.
    pub fn encode(kind: HandleKind, code: u32) -> Handle {
        Handle { p: kind.signature(), t1: code as i32, t2: (code as i32) ^ kind.check_mask() }
    }

    /// What a lookup of an unknown name returns: not the NULL handle (which means "default"
    /// where a default exists) but one that every routine refuses.
    pub fn refused(kind: HandleKind) -> Handle {
        Self::encode(kind, 0)
    }

    /// The handle of entry `index` of a table of `kind`, holding the object of serial `serial`.
    pub fn of_entry(kind: HandleKind, index: usize, serial: u32) -> Handle {
        Handle { p: kind.signature(), t1: index as i32, t2: (serial as i32) ^ kind.check_mask() }
    }

    /// The (index, serial) of a table handle of `kind`, or `InvalidHandle` (the table checks
    /// that the entry holds that serial).
    pub fn entry(&self, kind: HandleKind) -> Result<(usize, u32)> {
        if self.p != kind.signature() || self.t1 < 0 {
            return Err(Error::InvalidHandle { what: kind.name() });
        }
        Ok((self.t1 as usize, (self.t2 ^ kind.check_mask()) as u32))
    }

    /// The code of a value-like handle, or `InvalidHandle`.
    pub fn decode(&self, kind: HandleKind) -> Result<u32> {
        if self.p != kind.signature() || self.t2 != self.t1 ^ kind.check_mask() || self.t1 < 0 {
            return Err(Error::InvalidHandle { what: kind.name() });
        }
        Ok(self.t1 as u32)
    }
}

/// Table of live objects addressed by handles carrying (index, serial).
#[derive(Debug)]
pub struct HandleTable<T> {
    kind: HandleKind,
    entries: Vec<Option<(u32, T)>>,
    next_serial: u32,
}

impl<T> HandleTable<T> {
    /// An empty table of handles of `kind`.
    pub fn new(kind: HandleKind) -> Self {
        HandleTable { kind, entries: Vec::new(), next_serial: 1 }
    }

    /// Stores `value` and returns its handle; reuses the lowest free entry.
    pub fn insert(&mut self, value: T) -> Handle {
        let serial = self.next_serial;
        // Serials only grow; wrapping after 2^31 objects is accepted (it needs that many creates).
        self.next_serial = self.next_serial.wrapping_add(1).max(1) & 0x7FFF_FFFF;
        let index = match self.entries.iter().position(Option::is_none) {
            Some(i) => {
                self.entries[i] = Some((serial, value));
                i
            }
            None => {
                self.entries.push(Some((serial, value)));
                self.entries.len() - 1
            }
        };
        Handle::of_entry(self.kind, index, serial)
    }

    fn index_of(&self, handle: &Handle) -> Result<usize> {
        let (index, serial) = handle.entry(self.kind)?;
        match self.entries.get(index) {
            Some(Some((s, _))) if *s == serial => Ok(index),
            _ => Err(Error::InvalidHandle { what: self.kind.name() }),
        }
    }

    /// The entry `handle` designates (refused: not a live handle of this table).
    pub fn get(&self, handle: &Handle) -> Result<&T> {
        let i = self.index_of(handle)?;
        Ok(&self.entries[i].as_ref().expect("checked by index_of").1)
    }

    /// The entry `handle` designates, mutable.
    pub fn get_mut(&mut self, handle: &Handle) -> Result<&mut T> {
        let i = self.index_of(handle)?;
        Ok(&mut self.entries[i].as_mut().expect("checked by index_of").1)
    }

    /// Removes and returns the entry `handle` designates; the handle stays invalid for good.
    pub fn remove(&mut self, handle: &Handle) -> Result<T> {
        let i = self.index_of(handle)?;
        Ok(self.entries[i].take().expect("checked by index_of").1)
    }

    /// The live entries, in table order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.entries.iter().flatten().map(|(_, v)| v)
    }

    /// The number of live entries.
    pub fn len(&self) -> usize {
        self.entries.iter().filter(|e| e.is_some()).count()
    }

    /// Whether the table holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_handles_round_trip_and_reject_other_kinds() {
        let h = Handle::encode(HandleKind::Datatype, 3);
        assert_eq!(h.decode(HandleKind::Datatype).unwrap(), 3);
        assert!(h.decode(HandleKind::Operator).is_err());
        assert!(Handle::NULL.decode(HandleKind::Datatype).is_err());
        let mut forged = h;
        forged.t1 = 4;
        assert!(forged.decode(HandleKind::Datatype).is_err());
        let refused = Handle::refused(HandleKind::Operator);
        assert!(!refused.is_null(), "must not mean 'use the default'");
        assert_eq!(refused.decode(HandleKind::Operator).unwrap(), 0, "code 0 designates nothing");
    }

    #[test]
    fn stale_handle_stays_invalid_after_entry_reuse() {
        let mut t = HandleTable::new(HandleKind::Window);
        let a = t.insert("a");
        assert_eq!(*t.get(&a).unwrap(), "a");
        assert_eq!(t.remove(&a).unwrap(), "a");
        assert!(t.get(&a).is_err());
        let b = t.insert("b");
        assert_eq!(b.t1, a.t1, "entry is reused");
        assert!(t.get(&a).is_err(), "old handle must not designate the new window");
        assert_eq!(*t.get(&b).unwrap(), "b");
        assert!(t.remove(&a).is_err());
    }

    #[test]
    fn garbage_and_null_handles_refused() {
        let mut t: HandleTable<u8> = HandleTable::new(HandleKind::Window);
        t.insert(1);
        for h in [Handle::NULL, Handle { p: 0xdead_beef, t1: 0, t2: 0 }, Handle { p: 0, t1: -5, t2: 7 }] {
            assert!(t.get(&h).is_err());
        }
        let op = Handle::encode(HandleKind::Operator, 1);
        assert!(t.get(&op).is_err(), "an operator handle is not a window");
    }
}
