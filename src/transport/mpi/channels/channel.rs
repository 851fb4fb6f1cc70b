//! Point-to-point channels (`transport::channel`) over MPI: one MPI message per channel message,
//! sent from a buffer of this PE (`SLOTS` per peer, reused: a message is written into the lowest
//! slot whose earlier send completed, then MPI_Isend). A message whose length the receiver knows
//! (`expect`: the halo exchange computes it from its own arguments before it sends) is received
//! into a receive posted ahead (MPI_Irecv), so that MPI delivers it straight into that buffer as
//! the raw patterns' receives do; any other is received by probe (the length is learnt first).
//! A message longer than the receive posted for it (a neighbour with other arguments) is lost
//! (MPI_ERR_TRUNCATE; MPICH leaves the buffer untouched) and reported `cut`. No derived datatype, no window, no
//! collective. Waits test in a loop (yielding the core) and report a long one naming the peers
//! waited for, as the shared-memory waits do.

use std::collections::{HashMap, VecDeque};
use std::ffi::{c_int, c_void};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::transport::channel::{Channels, Loopback, Message, SLOTS};
use crate::transport::mpi::comm::Comm;
use crate::transport::mpi::shim::{self, RawReq};
pub(super) use crate::transport::mpi::wait::wait_for;

/// The tag of channel messages, on a duplicate of MPI_COMM_WORLD that only the channels use.
const TAG: c_int = 0x5250;

/// A send buffer and its send in progress (null: none).
struct Slot {
    buf: Vec<u8>,
    request: *mut RawReq,
}

impl Default for Slot {
    fn default() -> Self {
        Slot { buf: Vec::new(), request: std::ptr::null_mut() }
    }
}

/// A receive posted ahead of its message (`expect`).
struct Posted {
    /// As long as the receive.
    buf: Vec<u8>,
    request: *mut RawReq,
}

/// Where the message held (received and not yet released) lies.
#[derive(Clone, Copy)]
enum Held {
    /// In `received` (by probe), this long.
    Probed(usize),
    /// In the oldest posted receive's buffer, this long.
    Posted(usize),
    /// The oldest posted receive took a longer message (lost).
    Cut,
}

/// This PE's channels with one peer.
#[derive(Default)]
struct Link {
    slots: [Slot; SLOTS],
    /// The slot reserved for the next message.
    reserved: usize,
    posted: u64,
    /// The buffer of messages received by probe.
    received: Vec<u8>,
    holding: Option<Held>,
    /// Receives posted ahead, oldest first (they take the next messages in this order).
    receives: VecDeque<Posted>,
    /// Buffers of completed receives, for the next ones.
    spare: Vec<Vec<u8>>,
    /// The longest message received from the peer so far.
    longest: usize,
}

/// This PE's MPI channels (ranks of the job's communicator).
pub struct MpiChannels {
    world: Arc<Comm>,
    links: HashMap<usize, Link>,
    looped: Loopback,
}

// SAFETY: the request pointers are the shim's, used only through `&mut self` (one thread at a
// time), and every MPI call takes `shim::serial()` at the thread levels that need it.
unsafe impl Send for MpiChannels {}

impl MpiChannels {
    pub fn new(world: Arc<Comm>) -> Self {
        MpiChannels { world, links: HashMap::new(), looped: Loopback::default() }
    }

    /// This PE's rank.
    pub fn rank(&self) -> usize {
        self.world.rank
    }

    fn link(&mut self, peer: usize) -> Result<&mut Link> {
        if peer >= self.world.size {
            return Err(Error::Internal(format!("channel to PE {peer} of a job of {}", self.world.size)));
        }
        Ok(self.links.entry(peer).or_default())
    }

    /// Gives up the sends still in progress (they complete without us) and cancels the
    /// receives still posted: before MPI_Finalize.
    pub fn release_requests(&mut self) {
        let _mpi = shim::serial();
        for link in self.links.values_mut() {
            for slot in &mut link.slots {
                // SAFETY: a request of the shim, or null (nothing done).
                unsafe { shim::rpnmpi_request_free(&mut slot.request) };
            }
            for mut r in link.receives.drain(..) {
                // SAFETY: a receive of the shim still posted (or null); its buffer lives until
                // the cancel completed.
                unsafe { shim::rpnmpi_chan_cancel(&mut r.request) };
            }
            link.holding = None;
        }
    }

    /// Whether the message after those released from `peer` is there (taken in if so).
    fn take(&mut self, peer: usize) -> Result<bool> {
        let raw = self.world.raw();
        let link = self.link(peer)?;
        if link.holding.is_some() {
            return Ok(true);
        }
        if let Some(r) = link.receives.front_mut() {
            let (mut done, mut bytes, mut truncated): (c_int, c_int, c_int) = (0, 0, 0);
            let _mpi = shim::serial();
            // SAFETY: a receive of the shim, posted by `expect`.
            let rc = unsafe { shim::rpnmpi_chan_test_recv(&mut r.request, &mut done, &mut bytes, &mut truncated) };
            shim::check(rc, "MPI_Test (halo or channel message)")?;
            if done == 0 {
                return Ok(false);
            }
            if truncated != 0 {
                link.longest = link.longest.max(r.buf.len());
                link.holding = Some(Held::Cut);
            } else {
                let len = bytes.max(0) as usize;
                link.longest = link.longest.max(len);
                link.holding = Some(Held::Posted(len));
            }
            return Ok(true);
        }
        let (mut found, mut bytes): (c_int, c_int) = (0, 0);
        let _mpi = shim::serial();
        // SAFETY: live communicator; out-parameters.
        shim::check(unsafe { shim::rpnmpi_iprobe(raw, peer as c_int, TAG, &mut found, &mut bytes) }, "MPI_Iprobe")?;
        if found == 0 {
            return Ok(false);
        }
        let len = bytes.max(0) as usize;
        if link.received.len() < len {
            link.received.resize(len, 0);
        }
        // SAFETY: the buffer holds `len` bytes; the probed message is that long.
        let rc = unsafe { shim::rpnmpi_chan_recv(raw, link.received.as_mut_ptr() as *mut c_void, bytes, peer as c_int, TAG) };
        shim::check(rc, "MPI_Recv")?;
        link.longest = link.longest.max(len);
        link.holding = Some(Held::Probed(len));
        Ok(true)
    }
}

impl Channels for MpiChannels {
    fn reserve(&mut self, peer: usize, len: usize) -> Result<*mut u8> {
        if peer == self.world.rank {
            return Ok(self.looped.reserve(len));
        }
        let m = self.link(peer)?.posted;
        // The lowest slot whose send is complete: with one exchange in flight, always the same
        // buffer, which stays in the caches.
        let waiting = || format!("PE {peer} to receive the halo or channel messages this PE sent it (message {})", m + 1 - SLOTS as u64);
        let links = &mut self.links;
        let mut chosen = 0;
        wait_for(
            || {
                let link = links.get_mut(&peer).expect("made above");
                let _mpi = shim::serial();
                for (i, slot) in link.slots.iter_mut().enumerate() {
                    let mut done: c_int = 0;
                    // SAFETY: a request of the shim, or null (done at once).
                    shim::check(unsafe { shim::rpnmpi_test(&mut slot.request, &mut done) }, "MPI_Test")?;
                    if done != 0 {
                        chosen = i;
                        return Ok(true);
                    }
                }
                Ok(false)
            },
            &waiting,
        )?;
        let link = self.links.get_mut(&peer).expect("made above");
        link.reserved = chosen;
        let slot = &mut link.slots[chosen];
        if slot.buf.len() < len.max(1) {
            slot.buf.resize(len.max(1), 0);
        }
        Ok(slot.buf.as_mut_ptr())
    }

    fn post(&mut self, peer: usize, len: usize) -> Result<()> {
        if peer == self.world.rank {
            self.looped.post(len);
            return Ok(());
        }
        let raw = self.world.raw();
        let bytes = c_int::try_from(len).map_err(|_| Error::Limit(format!("a message of {len} bytes to PE {peer} (at most 2 GiB)")))?;
        let link = self.link(peer)?;
        let slot = &mut link.slots[link.reserved];
        let _mpi = shim::serial();
        // SAFETY: the slot's buffer holds `len` bytes (reserve) and is not written again until
        // the send completed (the next reserve of this slot tests it).
        let rc = unsafe { shim::rpnmpi_chan_isend(raw, slot.buf.as_ptr() as *const c_void, bytes, peer as c_int, TAG, &mut slot.request) };
        shim::check(rc, "MPI_Isend")?;
        link.posted += 1;
        Ok(())
    }

    fn poll(&mut self, peer: usize) -> Result<Option<Message>> {
        if peer == self.world.rank {
            return Ok(self.looped.poll());
        }
        if !self.take(peer)? {
            return Ok(None);
        }
        let link = self.link(peer)?;
        Ok(match link.holding {
            Some(Held::Probed(len)) => Some(Message { data: link.received.as_ptr(), len, cut: false }),
            Some(Held::Posted(len)) => link.receives.front().map(|r| Message { data: r.buf.as_ptr(), len, cut: false }),
            Some(Held::Cut) => Some(Message { data: std::ptr::null(), len: 0, cut: true }),
            None => None,
        })
    }

    fn wait_any(&mut self, peers: &[usize], waiting_for: &dyn Fn() -> String) -> Result<()> {
        if peers.contains(&self.world.rank) && self.looped.poll().is_some() {
            return Ok(());
        }
        let me = self.world.rank;
        wait_for(
            || {
                for &p in peers.iter().filter(|&&p| p != me) {
                    if self.take(p)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            },
            waiting_for,
        )
    }

    fn release(&mut self, peer: usize) -> Result<()> {
        if peer == self.world.rank {
            self.looped.release();
            return Ok(());
        }
        let link = self.link(peer)?;
        if let Some(Held::Posted(_) | Held::Cut) = link.holding.take()
            && let Some(r) = link.receives.pop_front()
        {
            link.spare.push(r.buf);
        }
        Ok(())
    }

    fn expect(&mut self, peer: usize, len: usize) -> Result<()> {
        if peer == self.world.rank {
            return Ok(());
        }
        let raw = self.world.raw();
        let link = self.link(peer)?;
        // A message taken by probe and held is the one expected (the halo's check for stale
        // messages met it first): a receive posted now would take the message after it.
        if let Some(Held::Probed(_)) = link.holding {
            return Ok(());
        }
        // As long as the longest message seen from the peer: a longer message than expected (a
        // neighbour with other arguments) is then mostly read whole, its header naming what
        // differs, rather than lost (`cut`).
        let room = len.max(link.longest);
        let mut buf = link.spare.pop().unwrap_or_default();
        if buf.len() < room.max(1) {
            buf.resize(room.max(1), 0);
        }
        let bytes =
            c_int::try_from(buf.len()).map_err(|_| Error::Limit(format!("a message of {room} bytes from PE {peer} (at most 2 GiB)")))?;
        let mut r = Posted { buf, request: std::ptr::null_mut() };
        let _mpi = shim::serial();
        // SAFETY: the buffer holds `bytes` bytes and stays (in `receives`, its heap block
        // unmoved) until the receive completed or was cancelled.
        let rc = unsafe { shim::rpnmpi_chan_irecv(raw, r.buf.as_mut_ptr() as *mut c_void, bytes, peer as c_int, TAG, &mut r.request) };
        shim::check(rc, "MPI_Irecv")?;
        link.receives.push_back(r);
        Ok(())
    }
}
