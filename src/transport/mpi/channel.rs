//! Point-to-point channels (`transport::channel`) over MPI: one MPI message per channel message,
//! sent from a buffer of this PE (`SLOTS` per peer, reused: a message is written into the lowest
//! slot whose earlier send completed, then MPI_Isend), received by probe (the
//! length is learnt first, so a neighbour whose message is longer than expected is read, and its
//! header says what differs) into a buffer per peer kept between messages. No derived datatype,
//! no window, no collective. Waits test in a loop (yielding the core) and report a long one naming
//! the peers waited for, as the shared-memory waits do.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::Arc;
use std::time::Instant;

use super::comm::Comm;
use super::shim::{self, RawReq};
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::transport::channel::{Channels, Loopback, Message, SLOTS};

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

/// This PE's channels with one peer.
#[derive(Default)]
struct Link {
    slots: [Slot; SLOTS],
    /// The slot reserved for the next message.
    reserved: usize,
    posted: u64,
    /// The message received and not yet released (its length in `received`).
    received: Vec<u8>,
    holding: Option<usize>,
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

    fn link(&mut self, peer: usize) -> Result<&mut Link> {
        if peer >= self.world.size {
            return Err(Error::Internal(format!("channel to PE {peer} of a job of {}", self.world.size)));
        }
        Ok(self.links.entry(peer).or_default())
    }

    /// Gives up the sends still in progress (they complete without us): before MPI_Finalize.
    pub fn release_requests(&mut self) {
        let Ok(_mpi) = shim::serial() else { return };
        for link in self.links.values_mut() {
            for slot in &mut link.slots {
                // SAFETY: a request of the shim, or null (nothing done).
                unsafe { shim::rpnmpi_request_free(&mut slot.request) };
            }
        }
    }

    /// Whether the message after those released from `peer` is there (taken in if so).
    fn take(&mut self, peer: usize) -> Result<bool> {
        let raw = self.world.raw();
        let link = self.link(peer)?;
        if link.holding.is_some() {
            return Ok(true);
        }
        let (mut found, mut bytes): (c_int, c_int) = (0, 0);
        let _mpi = shim::serial()?;
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
        link.holding = Some(len);
        Ok(true)
    }
}

/// Calls `ready` until it says true, yielding the core in between; reports a long wait.
fn wait_for(mut ready: impl FnMut() -> Result<bool>, waiting_for: &dyn Fn() -> String) -> Result<()> {
    let start = Instant::now();
    let every = diagnostics::hang_report_interval();
    let mut next = every.map(|e| start + e);
    let mut spins = 0u32;
    while !ready()? {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(16) {
            std::thread::yield_now();
        }
        if let (Some(at), Some(e)) = (next, every)
            && Instant::now() >= at
        {
            diagnostics::report_hang(start.elapsed(), &waiting_for());
            next = Some(at + e);
        }
    }
    Ok(())
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
                let _mpi = shim::serial()?;
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
        let _mpi = shim::serial()?;
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
        Ok(link.holding.map(|len| Message { data: link.received.as_ptr(), len }))
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
        self.link(peer)?.holding = None;
        Ok(())
    }
}
