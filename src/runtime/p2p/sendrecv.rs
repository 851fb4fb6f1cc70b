//! RPN_COMM_sendrecv: a message to one PE and one from another (maybe the same) in one call,
//! which cannot deadlock a ring of PEs; `status` is the number of elements received, as in the
//! original (4.6.3, MPI_Sendrecv then MPI_Get_count).
//!
//! MPI build: MPI_Isend, MPI_Recv, then the wait of the send, on the communicator's Fortran
//! handle (as RPN_COMM_send and recv). Shared memory: the transport's channels, the message
//! behind an envelope (`core::envelope`: tag, datatype, length) that the receiver checks before
//! it copies anything. There messages from one PE are received in the order it sent them: a
//! message whose tag is not the one received is refused and left in place, and so is a message
//! of another routine (a halo exchange's), which stays for that routine.

#[cfg(not(feature = "mpi"))]
use crate::core::Communicator;
use crate::core::MessageType;
use crate::error::{Error, Result};
#[cfg(not(feature = "mpi"))]
use {
    super::super::Runtime,
    super::super::caller_buffers::{read_caller_bytes, write_caller_bytes},
    crate::core::envelope::{ENVELOPE_BYTES, Envelope},
};

/// One side of a sendrecv: buffer, count, datatype name, peer rank and tag as the caller gave them.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The caller's buffer (an address).
    pub buf: usize,
    /// Elements of `dtype`.
    pub count: i32,
    /// The datatype's name.
    pub dtype: &'a str,
    /// The peer's rank in the communicator.
    pub peer: i32,
    /// The message's tag.
    pub tag: i32,
}

impl Side<'_> {
    /// The datatype and the byte count, checked (`what`: the count's dummy argument).
    fn checked(&self, what: &'static str) -> Result<(MessageType, usize)> {
        let t = MessageType::from_name(self.dtype)?;
        let bytes = t.message_size(what, self.count)?;
        if bytes > 0 && self.buf == 0 {
            return Err(Error::NullBuffer { what: "sendrecv", nelem: i64::from(self.count) });
        }
        Ok((t, bytes))
    }

    /// The peer as a job rank (the channels' numbering).
    #[cfg(not(feature = "mpi"))]
    fn job_peer(&self, comm: &Communicator) -> Result<usize> {
        usize::try_from(self.peer).ok().and_then(|p| comm.job_rank(p)).ok_or_else(|| Error::BadRank {
            rank: i64::from(self.peer),
            npes: comm.size(),
            comm: comm.name().map_or(String::new(), |n| format!(" '{n}'")),
        })
    }
}

/// RPN_COMM_sendrecv over the communicator `com`: sends `out`, receives into `into`; returns the
/// number of elements received.
///
/// # Safety
/// `out.buf` holds `out.count` elements of its datatype, `into.buf` has room for `into.count`.
pub unsafe fn sendrecv(out: Side, into: Side, com: &str) -> Result<i32> {
    // SAFETY: the caller's contract, passed on.
    unsafe { exchange(Some(out), Some(into), com) }.map(|n| n.unwrap_or(0))
}

/// `sendrecv` where either side may be missing (a PE at the edge of a non-periodic grid sends or
/// receives only, as RPN_COMM_move); returns the number of elements received, if any.
///
/// # Safety
/// As `sendrecv`'s, for the sides given.
pub unsafe fn exchange(out: Option<Side>, into: Option<Side>, com: &str) -> Result<Option<i32>> {
    #[cfg(feature = "mpi")]
    {
        use super::super::with_runtime;
        use super::mpi_handles::mpi_type_code;
        use crate::transport::mpi::p2p as mpi;
        let scode = out.map(|o| o.checked("sendcount").and_then(|_| mpi_type_code(o.dtype))).transpose()?;
        let rcode = into.map(|i| i.checked("recvcount").and_then(|_| mpi_type_code(i.dtype))).transpose()?;
        let fcomm = with_runtime(|rt| rt.member_fortran_comm(com))?
            .ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", com.trim())))?;
        let mut req = Vec::new();
        if let (Some(o), Some(code)) = (out, scode) {
            // SAFETY: the caller's contract; the send buffer stays valid until the wait below.
            req.push(unsafe { mpi::isend(o.buf, o.count, code, o.peer, o.tag, fcomm) }?);
        }
        let received = match (into, rcode) {
            // SAFETY: the caller's contract.
            (Some(i), Some(code)) => unsafe { mpi::recv(i.buf, i.count, code, i.peer, i.tag, fcomm) }.map(Some),
            _ => Ok(None),
        };
        let sent = mpi::wait_all(&mut req);
        let received = received?;
        sent?;
        Ok(received)
    }
    #[cfg(not(feature = "mpi"))]
    {
        // SAFETY: the caller's contract, passed on.
        super::super::with_runtime(|rt| unsafe { rt.exchange_channels(out, into, com) })
    }
}

#[cfg(not(feature = "mpi"))]
impl Runtime {
    /// `exchange` through the transport's channels (shared memory).
    ///
    /// # Safety
    /// As `exchange`'s.
    unsafe fn exchange_channels(&mut self, out: Option<Side>, into: Option<Side>, com: &str) -> Result<Option<i32>> {
        let comm =
            self.named(com)?.ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", com.trim())))?;
        let sent = out.map(|o| o.checked("sendcount")).transpose()?;
        let expected = into.map(|i| i.checked("recvcount")).transpose()?;
        let channels = self.transport.channels().ok_or(Error::Unsupported("RPN_COMM_sendrecv needs point-to-point channels"))?;
        if let (Some(out), Some((st, sbytes))) = (out, sent) {
            let dest = out.job_peer(&comm)?;
            let mut message = Envelope { tag: out.tag, dtype: st.code(), bytes: sbytes as u64 }.encode().to_vec();
            // SAFETY: the caller's contract: out.buf holds sbytes bytes.
            message.extend_from_slice(&unsafe { read_caller_bytes(out.buf, sbytes) });
            let room = channels.reserve(dest, message.len())?;
            // SAFETY: reserve gave room for the message, writable until post.
            unsafe { std::ptr::copy_nonoverlapping(message.as_ptr(), room, message.len()) };
            channels.post(dest, message.len())?;
        }
        let (Some(into), Some((rt, rbytes))) = (into, expected) else {
            return Ok(None);
        };
        let source = into.job_peer(&comm)?;
        let m = loop {
            if let Some(m) = channels.poll(source)? {
                break m;
            }
            // (its message may have come since the poll above: it posts it before it goes on)
            if channels.in_collective_without_me(source) && channels.poll(source)?.is_none() {
                return Err(Error::Collective(format!("PE {} is in a collective call, not sending to this PE", into.peer)));
            }
            let what = || format!("RPN_COMM_sendrecv: the message of PE {} (tag {})", into.peer, into.tag);
            channels.wait_any(&[source], &what)?;
        };
        if m.cut {
            channels.release(source)?;
            return Err(Error::BadArgument(format!("the message from PE {} is longer than this PE's receive", into.peer)));
        }
        // SAFETY: the message stays until its release below.
        let bytes = unsafe { m.bytes() };
        let Some(e) = Envelope::decode(bytes) else {
            return Err(Error::Collective(format!(
                "the next message from PE {} is another routine's (a halo exchange's?), not RPN_COMM_sendrecv's",
                into.peer
            )));
        };
        e.accept(into.peer as usize, into.tag, rbytes)?;
        // SAFETY: the caller's contract: into.buf has room for rbytes >= e.bytes bytes.
        unsafe { write_caller_bytes(&bytes[ENVELOPE_BYTES..], into.buf) };
        channels.release(source)?;
        Ok(Some((e.bytes as usize / rt.size().max(1)) as i32))
    }
}
