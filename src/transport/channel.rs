//! Point-to-point channels: ordered messages from one PE to another of the job, set up on first
//! use between the two PEs only (no collective), kept for the rest of the job and freed at
//! finalize. The halo exchanges use them (one message per neighbour); RPN_COMM_send and _recv
//! do not (they call MPI on the caller's communicator, in the MPI build only).
//!
//! A message is written in place: `reserve` gives the sender room for it (in shared memory on
//! one node: the receiver reads it from there, so a byte crosses between cores once), `post`
//! sends it; the receiver `poll`s (or `wait_any`s) for the next message from a peer, reads it
//! where it lies and `release`s it. Messages from one peer arrive in the order they were
//! posted. A sender may have `SLOTS` messages to one peer posted and not yet released; the next
//! `reserve` waits for the oldest one's release.

use crate::error::Result;

/// Messages one PE may have posted to another and not yet released by it.
pub const SLOTS: usize = 4;

/// A message received: its bytes, valid until the channel's `release` for its peer.
#[derive(Debug, Clone, Copy)]
pub struct Message {
    /// The first byte.
    pub data: *const u8,
    /// Its length in bytes.
    pub len: usize,
    /// Longer than the receive posted for it (`Channels::expect`): its bytes are lost (MPICH
    /// leaves the receive buffer as it was), only the fact is known.
    pub cut: bool,
}

impl Message {
    /// The message's bytes.
    ///
    /// # Safety
    /// Until the channel releases it (the lifetime is the caller's to keep).
    pub unsafe fn bytes<'a>(&self) -> &'a [u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: the channel keeps `len` bytes at `data` until the release (caller's contract).
        unsafe { std::slice::from_raw_parts(self.data, self.len) }
    }
}

/// The channels of one PE to the others (job ranks), as a transport provides them.
pub trait Channels: Send {
    /// Room for the next message to `peer`, at least `len` bytes, writable until `post`: waits
    /// while `SLOTS` earlier messages to it are not released (the hang report names `peer`).
    fn reserve(&mut self, peer: usize, len: usize) -> Result<*mut u8>;
    /// Sends the first `len` bytes of the room `reserve` gave for `peer`.
    fn post(&mut self, peer: usize, len: usize) -> Result<()>;
    /// The next message from `peer` if it has come (again the same one until `release`).
    fn poll(&mut self, peer: usize) -> Result<Option<Message>>;
    /// Waits until a message from one of `peers` has come (a peer gone ends the wait with an
    /// error naming it); `waiting_for` says whom and why for the report of a long wait.
    fn wait_any(&mut self, peers: &[usize], waiting_for: &dyn Fn() -> String) -> Result<()>;
    /// Done with the message `poll` gave from `peer`: its room goes back to the sender.
    fn release(&mut self, peer: usize) -> Result<()>;
    /// Every PE of the job is reached through shared memory (the same answer on every PE).
    fn shared_memory_only(&self) -> bool {
        false
    }

    /// Whether `peer` is in a collective call over the whole job that this PE has not entered
    /// (it will not send what this PE waits for: the caller joins that collective's agreement,
    /// which names both routines, docs/contract.md rule 11). `wait_any` returns when this turns true
    /// for one of its peers. A transport that cannot tell says false (the wait then ends in the
    /// report of a PE that does not come).
    fn in_collective_without_me(&mut self, peer: usize) -> bool {
        let _ = peer;
        false
    }

    /// Whether `peer` is in a collective call over a communicator of some PEs (a row, a column)
    /// of which this PE is a member and that this PE has not entered: its routine and
    /// communicator ("RPN_COMM_allreduce on EW"). The caller then fails at once, naming both
    /// (its own routine stays out of that collective, which can never complete). `wait_any`
    /// returns when this turns true for one of its peers too. None where a transport cannot tell.
    fn in_part_collective_without_me(&mut self, peer: usize) -> Option<String> {
        let _ = peer;
        None
    }

    /// The next message from `peer` not yet expected is likely `len` bytes long (the receiver
    /// knows it from its own arguments): a transport may get ready to receive it before it is
    /// sent (MPI: a receive posted ahead). A shorter message arrives as it is; a longer one may
    /// arrive `cut`, without its bytes.
    fn expect(&mut self, peer: usize, len: usize) -> Result<()> {
        let _ = (peer, len);
        Ok(())
    }
}

/// A PE's channel to itself (a periodic direction of one PE): messages queued in this process.
#[derive(Default)]
pub struct Loopback {
    /// Posted messages, oldest first, and rooms reused.
    queue: std::collections::VecDeque<Vec<u8>>,
    spare: Vec<Vec<u8>>,
    reserved: Option<Vec<u8>>,
}

impl Loopback {
    /// Room for the next message.
    pub fn reserve(&mut self, len: usize) -> *mut u8 {
        let mut room = self.spare.pop().unwrap_or_default();
        room.resize(len.max(1), 0);
        let at = room.as_mut_ptr();
        self.reserved = Some(room);
        at
    }

    /// Queues the reserved room's first `len` bytes.
    pub fn post(&mut self, len: usize) {
        if let Some(mut room) = self.reserved.take() {
            room.truncate(len);
            self.queue.push_back(room);
        }
    }

    /// The oldest message queued.
    pub fn poll(&self) -> Option<Message> {
        self.queue.front().map(|m| Message { data: m.as_ptr(), len: m.len(), cut: false })
    }

    /// Drops the oldest message (its room is kept for the next).
    pub fn release(&mut self) {
        if let Some(room) = self.queue.pop_front() {
            self.spare.push(room);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_keeps_order_and_reuses_rooms() {
        let mut l = Loopback::default();
        for v in [1u8, 2] {
            let at = l.reserve(3);
            // SAFETY: the room holds 3 bytes until post.
            unsafe { std::ptr::write_bytes(at, v, 3) };
            l.post(2);
        }
        // SAFETY: released below.
        let first = unsafe { l.poll().unwrap().bytes() }.to_vec();
        assert_eq!(first, vec![1, 1]);
        l.release();
        // SAFETY: as above.
        assert_eq!(unsafe { l.poll().unwrap().bytes() }, &[2, 2]);
        l.release();
        assert!(l.poll().is_none());
        assert_eq!(l.spare.len(), 2);
    }
}
