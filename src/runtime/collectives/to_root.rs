//! The rooted collectives RPN_COMM_reduce and RPN_COMM_gather: every PE's data combined or
//! gathered on one PE, the root, which every PE must name alike. Checked as `check` says (the
//! root is part of the call every PE must make alike), or, in the checking mode, by the agreement.

use super::super::Runtime;
use super::super::caller_buffers::{caller_bytes, caller_bytes_mut, read_caller_bytes, write_caller_bytes};
use super::to_all::{combine_into, describe, same_everywhere};
use crate::core::collectives::call_log::CallEntry;
use crate::core::{CollectiveId, Communicator, MessageType, Operator};
use crate::error::{Error, Result};
use crate::transport::{Toward, Transport};

/// `root` as a rank of `comm`, or the error that names the communicator.
fn root_of(comm: &Communicator, root: i32) -> Result<usize> {
    usize::try_from(root).ok().filter(|&r| r < comm.size()).ok_or_else(|| Error::BadRank {
        rank: root as i64,
        npes: comm.size(),
        comm: comm.name().map_or(String::new(), |n| format!(" '{n}'")),
    })
}

impl Runtime {
    /// The agreement of a rooted collective (`id`) over `comm`: every PE tells its routine, its
    /// `root`, its arguments as words (`args`, named by `what`) and whether it accepted them
    /// (`mine`); unless all were accepted, all are in the same routine and give the same root
    /// (a rank of `comm`) and arguments, every PE fails (none hangs in a collective another PE
    /// left, none combines or stores blocks unlike its own). Returns the root.
    fn agree_on_root(
        &mut self,
        comm: &Communicator,
        id: CollectiveId,
        root: i32,
        args: &[u32],
        what: impl Fn(&[u32]) -> String,
        mine: &Result<()>,
    ) -> Result<usize> {
        let payload: Vec<u32> = std::iter::once(root as u32).chain(args.iter().copied()).collect();
        let rows = self.agree(comm, id, mine, &payload)?;
        if let Some(pe) = rows.iter().position(|r| r[0] != rows[0][0]) {
            return Err(Error::Collective(format!(
                "{}: PE {pe} gives root {}, PE 0 root {}",
                id.name(),
                rows[pe][0] as i32,
                rows[0][0] as i32
            )));
        }
        let args: Vec<Vec<u32>> = rows.iter().map(|r| r[1..].to_vec()).collect();
        same_everywhere(id, &args, what)?;
        root_of(comm, root)
    }

    /// RPN_COMM_reduce: `count` elements of `dtype` from every PE of `com`, combined with `op`
    /// into `recv` on the PE of rank `root` (the others' `recv` is not touched).
    ///
    /// # Safety
    /// `send` holds `count` elements of `dtype`; on the root `recv` has room for as many.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn reduce(&mut self, send: usize, recv: usize, count: i32, dtype: &str, op: &str, root: i32, com: &str) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let checked = (|| {
            let t = MessageType::from_name(dtype)?;
            let op = Operator::from_name(op)?;
            t.check_operator(op)?;
            let bytes = t.message_size("count", count)?;
            if bytes > 0 && (send == 0 || (recv == 0 && comm.rank() as i64 == root as i64)) {
                return Err(Error::NullBuffer { what: "reduce", nelem: count as i64 });
            }
            Ok((t, op, bytes))
        })();
        let id = CollectiveId::Reduce;
        if !self.checks_each_call() {
            let checked = checked.and_then(|args| Ok((args, root_of(&comm, root)?)));
            let local = checked.as_ref().map(drop).map_err(Clone::clone);
            let entry = checked.as_ref().map_or(CallEntry::new(id, 0, None, None, None), |&((t, op, bytes), root)| {
                CallEntry::new(id, bytes, Some(t), Some(op), Some(root))
            });
            let itself = checked.as_ref().is_ok_and(|&((t, op, _), _)| self.reduces_itself(&comm, t, op));
            let result = if self.logs_calls(&comm) || itself {
                if !itself {
                    self.log_call(&comm, entry, &local)?;
                }
                let ((t, op, bytes), root) = checked?;
                // SAFETY: caller's contract: send holds `bytes` bytes.
                let mine = unsafe { read_caller_bytes(send, bytes) };
                let native = |tr: &mut dyn Transport| tr.reduce_to(&comm, &mine, t, op, root);
                if itself { self.own_reduction(&comm, entry, native)? } else { self.unchecked(&comm, id, native)? }
            } else {
                // SAFETY: caller's contract: send holds `bytes` bytes (read only when the arguments
                // are valid), borrowed until the exchange copied them.
                let mine = checked.as_ref().map_or(&[][..], |&((_, _, bytes), _)| unsafe { caller_bytes(send, bytes) });
                let all = self.exchange_rooted(&comm, entry, &local, mine, root, Toward::Root)?;
                let ((t, op, bytes), root) = checked?;
                if comm.rank() == root {
                    // SAFETY: caller's contract: on the root recv has room for `bytes` bytes; send,
                    // which it may be, is no longer borrowed (the exchange copied it).
                    combine_into(t, op, all.each(), unsafe { caller_bytes_mut(recv, bytes) });
                }
                return Ok(());
            };
            if let Some(result) = result {
                // SAFETY: caller's contract: on the root recv has room for `bytes` bytes.
                unsafe { write_caller_bytes(&result, recv) };
            }
            return Ok(());
        }
        let args = checked.as_ref().map_or([0; 3], |&(t, op, bytes)| [bytes as u32, t.code(), op.code()]);
        let local = checked.as_ref().map(drop).map_err(Clone::clone);
        let root = self.agree_on_root(&comm, id, root, &args, describe, &local)?;
        let (t, op, bytes) = checked?;
        // SAFETY: caller's contract: send holds `bytes` bytes.
        let mine = unsafe { read_caller_bytes(send, bytes) };
        if let Some(result) = self.transport.reduce_to(&comm, &mine, t, op, root)? {
            // SAFETY: caller's contract: on the root recv has room for `bytes` bytes.
            unsafe { write_caller_bytes(&result, recv) };
        }
        Ok(())
    }

    /// RPN_COMM_gather: `sendcount` elements from every PE of `com` into `recv` on the PE of
    /// rank `root`, in rank order.
    ///
    /// # Safety
    /// `send` holds `sendcount` elements of `sendtype`; on the root `recv` has room for (PEs of
    /// `com`) x `reccount` elements of `rectype`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gather(
        &mut self,
        send: usize,
        sendcount: i32,
        sendtype: &str,
        recv: usize,
        reccount: i32,
        rectype: &str,
        root: i32,
        com: &str,
    ) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let size = |count: i32, dtype: &str| -> Result<usize> { MessageType::from_name(dtype)?.message_size("count", count) };
        let checked = (|| {
            let sbytes = size(sendcount, sendtype)?;
            let rbytes = size(reccount, rectype)?;
            if sbytes != rbytes {
                return Err(Error::BadArgument(format!("sends {sbytes} bytes per PE but receives {rbytes}")));
            }
            if sbytes > 0 && (send == 0 || (recv == 0 && comm.rank() as i64 == root as i64)) {
                return Err(Error::NullBuffer { what: "gather", nelem: sendcount as i64 });
            }
            Ok(sbytes)
        })();
        let id = CollectiveId::Gather;
        if !self.checks_each_call() {
            let checked = checked.and_then(|bytes| Ok((bytes, root_of(&comm, root)?)));
            let local = checked.as_ref().map(drop).map_err(Clone::clone);
            let entry =
                CallEntry::new(id, checked.as_ref().map_or(0, |&(bytes, _)| bytes), None, None, checked.as_ref().ok().map(|&(_, r)| r));
            // SAFETY: caller's contract: send holds sbytes bytes (read only when the arguments are
            // valid), not written by this call (recv is another buffer on the root: MPI's rule).
            let mine = checked.as_ref().map_or(&[][..], |&(sbytes, _)| unsafe { caller_bytes(send, sbytes) });
            if self.logs_calls(&comm) {
                self.log_call(&comm, entry, &local)?;
                let (_, root) = checked?;
                if let Some(data) = self.unchecked(&comm, id, |tr| tr.gather_to(&comm, mine, root))? {
                    // SAFETY: caller's contract: on the root recv has room for all the PEs' bytes.
                    unsafe { write_caller_bytes(&data, recv) };
                }
            } else {
                let all = self.exchange_rooted(&comm, entry, &local, mine, root, Toward::Root)?;
                let (_, root) = checked?;
                if comm.rank() == root {
                    for (pe, block) in all.each().enumerate() {
                        // SAFETY: caller's contract: on the root recv has room for every PE's block.
                        unsafe { write_caller_bytes(block, recv + pe * mine.len()) };
                    }
                }
            }
            return Ok(());
        }
        // (the byte counts must agree; the types may differ: MPI_REAL sent as MPI_INTEGER)
        let args = [*checked.as_ref().unwrap_or(&0) as u32];
        let local = checked.as_ref().map(drop).map_err(Clone::clone);
        let root = self.agree_on_root(&comm, id, root, &args, |r| format!("{} bytes", r[0]), &local)?;
        let sbytes = checked?;
        // SAFETY: caller's contract: send holds sbytes bytes.
        let mine = unsafe { read_caller_bytes(send, sbytes) };
        if let Some(data) = self.transport.gather_to(&comm, &mine, root)? {
            // SAFETY: caller's contract: on the root recv has room for all the PEs' bytes.
            unsafe { write_caller_bytes(&data, recv) };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One PE: reduce and gather are copies.
    #[test]
    fn one_pe_rooted_collectives() {
        let mut rt = Runtime::start().unwrap();
        rt.set_grid(1, 1).unwrap();
        let send = [3i32, 4];
        let mut recv = [0i32; 2];
        // SAFETY: two integers each.
        unsafe {
            rt.reduce(send.as_ptr() as usize, recv.as_mut_ptr() as usize, 2, "mpi_integer", "mpi_sum", 0, "GRID").unwrap();
            assert_eq!(recv, [3, 4]);
            assert!(rt.reduce(send.as_ptr() as usize, recv.as_mut_ptr() as usize, 2, "MPI_INTEGER", "MPI_SUM", 1, "GRID").is_err());
            rt.gather(send.as_ptr() as usize, 1, "MPI_INTEGER", recv.as_mut_ptr() as usize, 1, "mpi_integer", 0, "WORLD").unwrap();
            assert_eq!(recv, [3, 4]);
        }
    }
}
