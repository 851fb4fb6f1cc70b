//! The collective calls over a named communicator whose results reach every PE: RPN_COMM_barrier,
//! RPN_COMM_allreduce, RPN_COMM_allgather and RPN_COMM_bcast. As in the original, a PE that is
//! a member of none of the name's communicators ('BLOCMASTER' on a PE that is no block's
//! master) returns from them at once, without an error and without touching its buffers.
//!
//! Each is checked against the other PEs' calls as `check` says: over MPI it is the MPI call the
//! original makes, logged and compared where the PEs meet; over shared memory the exchange of
//! the data carries every PE's call, and PEs in different collectives, or with different counts,
//! types, operators or roots, all fail with one line naming the PEs and what each does, before
//! any buffer is written. In the checking mode each starts with the agreement step
//! (`agreement`) instead, on every transport; a barrier is then that step alone.

use std::borrow::Cow;

use super::super::Runtime;
use super::super::caller_buffers::{caller_bytes, caller_bytes_mut, read_caller_bytes, write_caller_bytes};
use crate::core::collectives::call_log::CallEntry;
use crate::core::{CollectiveId, Communicator, MessageType, Operator};
use crate::error::{Error, Result};
use crate::transport::{Toward, Transport};

/// A communicator with this PE's checked element type and byte count of a reduction or gather.
type ReductionArgs = (Communicator, Result<(MessageType, usize)>);

/// The arguments of a reduction or a gather as every PE must give them: byte count, element
/// type and operator codes (0 where the call has none).
pub(super) fn describe(row: &[u32]) -> String {
    let t = MessageType::from_code(row[1]).map_or("?", |t| t.name());
    match Operator::from_code(row[2]) {
        Some(op) => format!("{} bytes of {t} with {}", row[0], op.name()),
        None => format!("{} bytes of {t}", row[0]),
    }
}

/// The first PE whose row differs from PE 0's, as a mismatch error naming both.
pub(super) fn same_everywhere(id: CollectiveId, rows: &[Vec<u32>], what: impl Fn(&[u32]) -> String) -> Result<()> {
    match rows.iter().position(|r| r != &rows[0]) {
        Some(pe) => Err(Error::Collective(format!("{id}: PE {pe} gives {}, PE 0 {}", what(&rows[pe]), what(&rows[0])))),
        None => Ok(()),
    }
}

/// What a PE other than the root gives to a broadcast made of an exchange.
static ZEROS: [u8; 1024] = [0; 1024];

/// Every PE's `bytes` bytes (`blocks`, rank order) combined with `op`, in rank order (the same
/// order, hence the same bits, on every PE).
pub(super) fn combine_in_rank_order<'a>(t: MessageType, op: Operator, blocks: impl Iterator<Item = &'a [u8]>, bytes: usize) -> Vec<u8> {
    let mut result = vec![0u8; bytes];
    combine_into(t, op, blocks, &mut result);
    result
}

/// `combine_in_rank_order` into `out` (as long as a block).
pub(super) fn combine_into<'a>(t: MessageType, op: Operator, mut blocks: impl Iterator<Item = &'a [u8]>, out: &mut [u8]) {
    if let Some(first) = blocks.next() {
        out.copy_from_slice(&first[..out.len()]);
    }
    for other in blocks {
        t.combine(op, out, other);
    }
}

impl Runtime {
    /// Every PE's `mine` in rank order: what the agreement carried (`inline`), else a second
    /// exchange (the PEs agreed on the length).
    fn gathered(&mut self, comm: &Communicator, inline: Option<Vec<u8>>, mine: &[u8]) -> Result<Vec<u8>> {
        if let Some(all) = inline {
            return Ok(all);
        }
        let mut all = vec![0u8; mine.len() * comm.size()];
        self.transport.allgather(comm, mine, &mut all)?;
        Ok(all)
    }

    /// Blocks until every PE of the communicator `name` has called it. Over shared memory (and
    /// MPI on one node) it is an exchange of the PEs' calls alone; over MPI across nodes it
    /// compares the PEs' logs of their calls (one allreduce of 8 bytes, the cost of a barrier);
    /// in the checking mode the agreement step alone. Every one of them waits for every PE.
    pub fn barrier(&mut self, name: &str) -> Result<()> {
        let Some(comm) = self.named(name)? else { return Ok(()) };
        let id = CollectiveId::Barrier;
        if self.checks_each_call() {
            self.agree(&comm, id, &Ok(()), &[]).map(drop)
        } else if self.logs_calls(&comm) {
            self.compare_calls(&comm, id)
        } else {
            self.exchange(&comm, CallEntry::new(id, 0, None, None, None), &Ok(()), &[]).map(drop)
        }
    }

    /// The communicator, element type and byte count of `count` elements of `dtype` over `com`
    /// (None: this PE is no member of `com`); the type and count checked in `Ok`'s second part.
    fn reduction_args(&self, count: i32, dtype: &str, com: &str) -> Result<Option<ReductionArgs>> {
        let Some(comm) = self.named(com)? else { return Ok(None) };
        let checked = MessageType::from_name(dtype).and_then(|t| Ok((t, t.message_size("count", count)?)));
        Ok(Some((comm, checked)))
    }

    /// Reduces `count` elements of `dtype` from every PE of `com` with `op` into `recv`.
    ///
    /// # Safety
    /// `send` holds and `recv` has room for `count` elements of `dtype`.
    pub unsafe fn allreduce(&mut self, send: usize, recv: usize, count: i32, dtype: &str, op: &str, com: &str) -> Result<()> {
        let Some((comm, args)) = self.reduction_args(count, dtype, com)? else { return Ok(()) };
        let checked = args.and_then(|(t, bytes)| {
            let op = Operator::from_name(op)?;
            t.check_operator(op)?;
            if bytes > 0 && (send == 0 || recv == 0) {
                return Err(Error::NullBuffer { what: "reduction", nelem: count as i64 });
            }
            Ok((t, op, bytes))
        });
        let payload = checked.as_ref().map_or([0; 3], |&(t, op, bytes)| [bytes as u32, t.code(), op.code()]);
        let id = CollectiveId::Allreduce;
        let local = checked.as_ref().map(drop).map_err(Clone::clone);
        if !self.checks_each_call() {
            let entry = checked
                .as_ref()
                .map_or(CallEntry::new(id, 0, None, None, None), |&(t, op, bytes)| CallEntry::new(id, bytes, Some(t), Some(op), None));
            let itself = checked.as_ref().is_ok_and(|&(t, op, _)| self.reduces_itself(&comm, t, op));
            if !self.logs_calls(&comm) && !itself {
                // SAFETY: caller's contract: send holds `bytes` bytes (read only when the arguments
                // are valid), borrowed until the exchange copied them.
                let mine = checked.as_ref().map_or(&[][..], |&(_, _, bytes)| unsafe { caller_bytes(send, bytes) });
                let all = self.exchange(&comm, entry, &local, mine)?;
                let (t, op, bytes) = checked?;
                // SAFETY: caller's contract: recv has room for `bytes` bytes; send, which it may
                // be, is no longer borrowed (the exchange copied it).
                combine_into(t, op, all.each(), unsafe { caller_bytes_mut(recv, bytes) });
                return Ok(());
            }
            if !itself {
                self.log_call(&comm, entry, &local)?;
            }
            let (t, op, bytes) = checked?;
            // SAFETY: caller's contract: send holds `bytes` bytes.
            let mine = unsafe { read_caller_bytes(send, bytes) };
            let native = |tr: &mut dyn Transport| tr.allreduce_native(&comm, &mine, t, op);
            let made = if itself { self.own_reduction(&comm, entry, native) } else { self.unchecked(&comm, id, native) };
            let result = match made? {
                Some(result) => result,
                None => {
                    let all = self.gathered(&comm, None, &mine)?;
                    combine_in_rank_order(t, op, all.chunks_exact(bytes.max(1)).take(comm.size()), bytes)
                }
            };
            // SAFETY: caller's contract: recv has room for `bytes` bytes (result holds as many).
            unsafe { write_caller_bytes(&result, recv) };
            return Ok(());
        }
        // SAFETY: caller's contract: send holds `bytes` bytes (read only when the arguments are valid).
        let mine = checked.as_ref().map_or(Vec::new(), |&(_, _, bytes)| unsafe { read_caller_bytes(send, bytes) });
        let (rows, inline) = self.agree_inline(&comm, id, &local, &payload, &mine)?;
        let (t, op, bytes) = checked?;
        same_everywhere(id, &rows, describe)?;
        // Every PE's data came with the agreement: an integer or logical reduction is then made
        // here, with no second exchange (one latency, not two, across nodes).
        let local_reduction = inline.is_some() && t.reduces_in_any_order(op);
        if let Some(result) = if local_reduction { None } else { self.transport.allreduce_native(&comm, &mine, t, op)? } {
            // SAFETY: caller's contract: recv has room for `bytes` bytes (result holds as many).
            unsafe { write_caller_bytes(&result, recv) };
            return Ok(());
        }
        let all = self.gathered(&comm, inline, &mine)?;
        let result = combine_in_rank_order(t, op, all.chunks_exact(bytes.max(1)).take(comm.size()), bytes);
        // SAFETY: caller's contract: recv has room for `bytes` bytes (result holds as many).
        unsafe { write_caller_bytes(&result, recv) };
        Ok(())
    }

    /// Gathers `sendcount` elements from every PE of `com` into `recv`, in rank order.
    ///
    /// # Safety
    /// `send` holds `sendcount` elements of `sendtype`; `recv` has room for (PEs of `com`)
    /// times `reccount` elements of `rectype`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn allgather(
        &mut self,
        send: usize,
        sendcount: i32,
        sendtype: &str,
        recv: usize,
        reccount: i32,
        rectype: &str,
        com: &str,
    ) -> Result<()> {
        let Some((comm, sent)) = self.reduction_args(sendcount, sendtype, com)? else { return Ok(()) };
        let Some((_, received)) = self.reduction_args(reccount, rectype, com)? else { return Ok(()) };
        let checked = sent.and_then(|(t, sbytes)| {
            let (_, rbytes) = received?;
            if sbytes != rbytes {
                return Err(Error::BadArgument(format!("sends {sbytes} bytes per PE but receives {rbytes}")));
            }
            if sbytes > 0 && (send == 0 || recv == 0) {
                return Err(Error::NullBuffer { what: "allgather", nelem: sendcount as i64 });
            }
            Ok((t, sbytes))
        });
        let payload = checked.as_ref().map_or([0; 3], |&(t, bytes)| [bytes as u32, t.code(), 0]);
        // SAFETY: caller's contract: send holds sbytes bytes (read only when the arguments are valid).
        let mine = checked.as_ref().map_or(Vec::new(), |&(_, sbytes)| unsafe { read_caller_bytes(send, sbytes) });
        let id = CollectiveId::Allgather;
        let local = checked.as_ref().map(drop).map_err(Clone::clone);
        if !self.checks_each_call() {
            // (the types may differ: MPI_REAL sent as MPI_INTEGER)
            let entry = CallEntry::new(id, checked.as_ref().map_or(0, |&(_, bytes)| bytes), None, None, None);
            if self.logs_calls(&comm) {
                self.log_call(&comm, entry, &local)?;
                let all = self.unchecked(&comm, id, |tr| {
                    let mut all = vec![0u8; mine.len() * comm.size()];
                    tr.allgather(&comm, &mine, &mut all).map(|()| all)
                })?;
                // SAFETY: caller's contract: recv has room for comm.size() * sbytes bytes.
                unsafe { write_caller_bytes(&all, recv) };
            } else {
                let all = self.exchange(&comm, entry, &local, &mine)?;
                for (pe, block) in all.each().enumerate() {
                    // SAFETY: caller's contract: recv has room for comm.size() blocks of sbytes bytes.
                    unsafe { write_caller_bytes(block, recv + pe * mine.len()) };
                }
            }
            return Ok(());
        }
        let (rows, inline) = self.agree_inline(&comm, id, &local, &payload, &mine)?;
        checked?;
        // the byte counts must agree (the types may differ: MPI_REAL sent as MPI_INTEGER)
        let counts: Vec<Vec<u32>> = rows.iter().map(|r| vec![r[0]]).collect();
        same_everywhere(id, &counts, |r| format!("{} bytes", r[0]))?;
        let all = self.gathered(&comm, inline, &mine)?;
        // SAFETY: caller's contract: recv has room for comm.size() * sbytes bytes.
        unsafe { write_caller_bytes(&all, recv) };
        Ok(())
    }

    /// Copies `count` elements of `dtype` of the PE of rank `root` in `com` into `buffer` on
    /// every PE of `com`. The PEs first agree on the count, type and root, so that a PE that
    /// disagrees (or gives a bad argument) fails the call on all of them instead of hanging
    /// them or overrunning a buffer.
    ///
    /// # Safety
    /// `buffer` holds (on the root) and has room for (elsewhere) `count` elements of `dtype`.
    pub unsafe fn bcast(&mut self, buffer: usize, count: i32, dtype: &str, root: i32, com: &str) -> Result<()> {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.broadcast(CollectiveId::Bcast, buffer, None, count, dtype, root, com) }
    }

    /// RPN_COMM_bcastc: `bcast` of a character buffer of `capacity` bytes (its Fortran length),
    /// which the count must fit in (`count` elements of `dtype`, MPI_CHARACTER as a rule).
    ///
    /// # Safety
    /// `buffer` holds `capacity` bytes.
    pub unsafe fn bcastc(&mut self, buffer: usize, capacity: usize, count: i32, dtype: &str, root: i32, com: &str) -> Result<()> {
        // SAFETY: the caller's contract, passed on (the count is checked against the capacity).
        unsafe { self.broadcast(CollectiveId::Bcastc, buffer, Some(capacity), count, dtype, root, com) }
    }

    /// `bcast` as routine `id`, into a buffer of `capacity` bytes where it is known.
    ///
    /// # Safety
    /// As `bcast`'s.
    #[allow(clippy::too_many_arguments)]
    unsafe fn broadcast(
        &mut self,
        id: CollectiveId,
        buffer: usize,
        capacity: Option<usize>,
        count: i32,
        dtype: &str,
        root: i32,
        com: &str,
    ) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        // SAFETY: the caller's contract, passed on.
        unsafe { self.broadcast_over(&comm, id, buffer, capacity, count, dtype, root) }
    }

    /// `broadcast` over the communicator `comm` (of which this PE is a member): also the
    /// broadcast of an I/O PE set (RPN_COMM_io_pe_bcast).
    ///
    /// # Safety
    /// As `bcast`'s.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::runtime) unsafe fn broadcast_over(
        &mut self,
        comm: &Communicator,
        id: CollectiveId,
        buffer: usize,
        capacity: Option<usize>,
        count: i32,
        dtype: &str,
        root: i32,
    ) -> Result<()> {
        let checked = MessageType::from_name(dtype).and_then(|t| {
            let bytes = t.message_size("count", count)?;
            if let Some(cap) = capacity.filter(|&cap| bytes > cap) {
                return Err(Error::BadArgument(format!("count {count} of {} makes {bytes} bytes, the buffer holds {cap}", t.name())));
            }
            let root = usize::try_from(root).ok().filter(|&r| r < comm.size()).ok_or_else(|| Error::BadRank {
                rank: root as i64,
                npes: comm.size(),
                comm: comm.name().map_or(String::new(), |n| format!(" '{n}'")),
            })?;
            if bytes > 0 && buffer == 0 {
                return Err(Error::NullBuffer { what: "bcast", nelem: count as i64 });
            }
            Ok((root, bytes))
        });
        let (root_u, bytes) = checked.as_ref().map_or((0, 0), |&(r, b)| (r as u32, b as u32));
        let local = checked.as_ref().map(|_| ()).map_err(Clone::clone);
        // Through the allgather of every transport (the root's block is the one kept), or the
        // transport's broadcast.
        let mine: Cow<'_, [u8]> = match checked {
            // SAFETY: caller's contract: the root's buffer holds `bytes` bytes, which the root does
            // not write in this call.
            Ok((root, bytes)) if comm.rank() == root => Cow::Borrowed(unsafe { caller_bytes(buffer, bytes) }),
            Ok((_, bytes)) if bytes <= ZEROS.len() => Cow::Borrowed(&ZEROS[..bytes]),
            Ok((_, bytes)) => Cow::Owned(vec![0u8; bytes]),
            Err(_) => Cow::Borrowed(&[]),
        };
        if !self.checks_each_call() {
            let entry = CallEntry::new(id, bytes as usize, None, None, Some(root_u as usize));
            if self.logs_calls(comm) {
                self.log_call(comm, entry, &local)?;
                let (root, _) = checked?;
                let mut data = mine.into_owned();
                self.unchecked(comm, id, |tr| tr.bcast(comm, &mut data, root))?;
                if comm.rank() != root {
                    // SAFETY: caller's contract: buffer has room for `bytes` bytes (data holds as many).
                    unsafe { write_caller_bytes(&data, buffer) };
                }
            } else {
                let all = self.exchange_rooted(comm, entry, &local, &mine, root, Toward::Others)?;
                let (root, _) = checked?;
                if comm.rank() != root {
                    // SAFETY: caller's contract: buffer has room for `bytes` bytes (the root's block).
                    unsafe { write_caller_bytes(all.of(root), buffer) };
                }
            }
            return Ok(());
        }
        let (rows, inline) = self.agree_inline(comm, id, &local, &[root_u, bytes], &mine)?;
        let (root, bytes) = checked?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!(
                "PE {pe} broadcasts {} bytes from root {}, PE 0 {} bytes from root {}",
                rows[pe][1], rows[pe][0], rows[0][1], rows[0][0]
            )));
        }
        let all = self.gathered(comm, inline, &mine)?;
        if comm.rank() != root {
            // SAFETY: caller's contract: buffer has room for `bytes` bytes.
            unsafe { write_caller_bytes(&all[root * bytes..(root + 1) * bytes], buffer) };
        }
        Ok(())
    }
}
