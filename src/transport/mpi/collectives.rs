//! The MPI collectives beside the agreement's allgather: MPI_Reduce, MPI_Allreduce, MPI_Bcast,
//! MPI_Gather, MPI_Gatherv, MPI_Scatterv, MPI_Alltoall and MPI_Alltoallv on a communicator of the shim, each under `shim::serial()`.
//! Those that only move bytes (gather, gatherv, scatterv, alltoall) are started nonblocking and waited on by tests
//! that yield the core (`wait`); the reductions stay blocking, watched by the watchdog (a PE
//! that never joins is named): a nonblocking reduction may group the operands otherwise, and
//! sums of reals must come out as the original's do, bit for bit.

use std::ffi::{c_int, c_void};

use super::comm::Comm;
use super::shim::{self, RawComm, RawReq};
use super::wait;
use super::watchdog;
use crate::core::{MessageType, Operator};
use crate::error::{Error, Result};

unsafe extern "C" {
    fn rpnmpi_reduce(
        comm: *const RawComm,
        mine: *const c_void,
        result: *mut c_void,
        n: c_int,
        dtype: c_int,
        op: c_int,
        root: c_int,
    ) -> c_int;
    fn rpnmpi_allreduce(comm: *const RawComm, mine: *const c_void, result: *mut c_void, n: c_int, dtype: c_int, op: c_int) -> c_int;
    fn rpnmpi_bcast(comm: *const RawComm, buffer: *mut c_void, bytes: c_int, root: c_int) -> c_int;
    fn rpnmpi_igather(
        comm: *const RawComm,
        mine: *const c_void,
        all: *mut c_void,
        bytes: c_int,
        root: c_int,
        req: *mut *mut RawReq,
    ) -> c_int;
    fn rpnmpi_igatherv(
        comm: *const RawComm,
        mine: *const c_void,
        bytes: c_int,
        all: *mut c_void,
        counts: *const c_int,
        displs: *const c_int,
        root: c_int,
        req: *mut *mut RawReq,
    ) -> c_int;
    fn rpnmpi_iscatterv(
        comm: *const RawComm,
        send: *const c_void,
        counts: *const c_int,
        displs: *const c_int,
        recv: *mut c_void,
        bytes: c_int,
        root: c_int,
        req: *mut *mut RawReq,
    ) -> c_int;
    fn rpnmpi_ialltoall(comm: *const RawComm, send: *const c_void, recv: *mut c_void, bytes: c_int, req: *mut *mut RawReq) -> c_int;
    fn rpnmpi_alltoallv(
        comm: *const RawComm,
        send: *const c_void,
        scounts: *const c_int,
        sdispls: *const c_int,
        recv: *mut c_void,
        rcounts: *const c_int,
        rdispls: *const c_int,
    ) -> c_int;
}

/// MPI_Reduce of `mine` (elements of `dtype`) with `op` over `comm`: the result on `root`. REPLACE
/// and NO_OP, which MPI_Reduce does not take, keep the value of the highest rank, resp. the root's,
/// as the allgather-based reduction does.
pub fn reduce(comm: &Comm, mine: &[u8], dtype: MessageType, op: Operator, root: usize) -> Result<Option<Vec<u8>>> {
    let n = c_int::try_from(mine.len() / dtype.size().max(1)).map_err(|_| Error::BadArgument(format!("reduce of {} bytes", mine.len())))?;
    if matches!(op, Operator::Replace | Operator::NoOp) {
        let all = gather(comm, mine, root)?;
        return Ok(all.map(|all| {
            let mut result = all[..mine.len()].to_vec();
            for other in all.chunks_exact(mine.len().max(1)).skip(1) {
                dtype.combine(op, &mut result, other);
            }
            result
        }));
    }
    if mine.is_empty() {
        return Ok((comm.rank == root).then(Vec::new));
    }
    let mut result = vec![0u8; if comm.rank == root { mine.len() } else { 0 }];
    let rc = {
        let _mpi = shim::serial();
        let _watch = watchdog::watch("MPI_Reduce");
        // SAFETY: live communicator; mine holds n elements, result room for n on the root (MPI
        // reads it nowhere else).
        unsafe {
            rpnmpi_reduce(
                comm.raw(),
                mine.as_ptr() as *const c_void,
                result.as_mut_ptr() as *mut c_void,
                n,
                dtype.code() as c_int,
                op.code() as c_int,
                root as c_int,
            )
        }
    };
    shim::check(rc, "MPI_Reduce")?;
    Ok((comm.rank == root).then_some(result))
}

/// MPI_Allreduce of `mine` (elements of `dtype`) with `op` over `comm`, as the original's
/// RPN_COMM_allreduce: None for REPLACE and NO_OP, which MPI_Allreduce does not take.
pub fn allreduce(comm: &Comm, mine: &[u8], dtype: MessageType, op: Operator) -> Result<Option<Vec<u8>>> {
    if matches!(op, Operator::Replace | Operator::NoOp) {
        return Ok(None);
    }
    let n =
        c_int::try_from(mine.len() / dtype.size().max(1)).map_err(|_| Error::BadArgument(format!("allreduce of {} bytes", mine.len())))?;
    if mine.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let mut result = vec![0u8; mine.len()];
    let rc = {
        let _mpi = shim::serial();
        let _watch = watchdog::watch("MPI_Allreduce");
        // SAFETY: live communicator; mine holds n elements and result has room for n.
        unsafe {
            rpnmpi_allreduce(
                comm.raw(),
                mine.as_ptr() as *const c_void,
                result.as_mut_ptr() as *mut c_void,
                n,
                dtype.code() as c_int,
                op.code() as c_int,
            )
        }
    };
    shim::check(rc, "MPI_Allreduce")?;
    Ok(Some(result))
}

/// MPI_Bcast of `buffer` (as long on every rank) from `root` over `comm`, as the original's
/// RPN_COMM_bcast: blocking, watched by the watchdog, as the reductions (a broadcast of a few
/// bytes is latency, which a blocking call answers first).
pub fn bcast(comm: &Comm, buffer: &mut [u8], root: usize) -> Result<()> {
    let bytes = c_int::try_from(buffer.len()).map_err(|_| Error::BadArgument(format!("bcast of {} bytes", buffer.len())))?;
    if buffer.is_empty() {
        return Ok(());
    }
    let rc = {
        let _mpi = shim::serial();
        let _watch = watchdog::watch("MPI_Bcast");
        // SAFETY: live communicator; buffer holds `bytes` bytes (read on the root, written elsewhere).
        unsafe { rpnmpi_bcast(comm.raw(), buffer.as_mut_ptr() as *mut c_void, bytes, root as c_int) }
    };
    shim::check(rc, "MPI_Bcast")
}

/// MPI_Gather of `mine` from every rank of `comm`, in rank order, on `root`.
pub fn gather(comm: &Comm, mine: &[u8], root: usize) -> Result<Option<Vec<u8>>> {
    let bytes = c_int::try_from(mine.len()).map_err(|_| Error::BadArgument(format!("gather of {} bytes per PE", mine.len())))?;
    if mine.is_empty() {
        return Ok((comm.rank == root).then(Vec::new));
    }
    let mut all = vec![0u8; if comm.rank == root { mine.len() * comm.size } else { 0 }];
    // SAFETY: live communicator; all has room for size x bytes on the root; neither buffer is
    // touched until the request completed (`complete`).
    wait::complete("MPI_Gather", comm.size, |req| unsafe {
        rpnmpi_igather(comm.raw(), mine.as_ptr() as *const c_void, all.as_mut_ptr() as *mut c_void, bytes, root as c_int, req)
    })?;
    Ok((comm.rank == root).then_some(all))
}

/// Counts of bytes as MPI's ints, and their displacements one after the other.
fn counts_and_displs(counts: &[usize], what: &str) -> Result<(Vec<c_int>, Vec<c_int>)> {
    let mut displs = Vec::with_capacity(counts.len());
    let mut at = 0usize;
    for &c in counts {
        displs.push(c_int::try_from(at).map_err(|_| Error::BadArgument(format!("{what} of {at} bytes and more")))?);
        at += c;
    }
    c_int::try_from(at).map_err(|_| Error::BadArgument(format!("{what} of {at} bytes")))?;
    Ok((counts.iter().map(|&c| c as c_int).collect(), displs))
}

/// MPI_Gatherv of `mine` from every rank of `comm` on `root`, rank p's `counts[p]` bytes (read on
/// the root only) one after the other. A rank that sends more than its count does not fail the
/// call: its block, which MPI truncates, is left as it was, all bits set, for the caller to name
/// (MPICH says nothing there, Open MPI fails the call).
pub fn gatherv(comm: &Comm, mine: &[u8], counts: &[usize], root: usize) -> Result<Option<Vec<u8>>> {
    let bytes = c_int::try_from(mine.len()).map_err(|_| Error::BadArgument(format!("gatherv of {} bytes", mine.len())))?;
    let on_root = comm.rank == root;
    if on_root && counts.len() != comm.size {
        return Err(Error::Internal(format!("gatherv with {} counts for {} ranks", counts.len(), comm.size)));
    }
    let (c, d) = if on_root { counts_and_displs(counts, "gatherv")? } else { (Vec::new(), Vec::new()) };
    // (never an empty Vec's pointer: Open MPI reads 1 as MPI_IN_PLACE)
    let total: usize = if on_root { counts.iter().sum() } else { 0 };
    let mut all = vec![u8::MAX; total.max(1)];
    let spare = [0u8; 1];
    let mine = if mine.is_empty() { &spare[..] } else { mine };
    // SAFETY: live communicator; on the root counts and displacements of size ranks lie inside
    // `all` (their sum is its length); neither buffer is touched until the request completed
    // (or was ended by a truncated block: rpnmpi_test).
    wait::complete("MPI_Gatherv", comm.size, |req| unsafe {
        rpnmpi_igatherv(
            comm.raw(),
            mine.as_ptr() as *const c_void,
            bytes,
            all.as_mut_ptr() as *mut c_void,
            c.as_ptr(),
            d.as_ptr(),
            root as c_int,
            req,
        )
    })?;
    all.truncate(total);
    Ok(on_root.then_some(all))
}

/// MPI_Scatterv from `root` of `comm`: rank p gets `counts[p]` bytes of `send` (one after the
/// other; both read on the root only), `recv_len` bytes here.
/// A block longer than `recv_len` does not fail the call here: MPI truncates it and `recv` is
/// left as it was, all bits set, for the caller to say so (as `gatherv`).
pub fn scatterv(comm: &Comm, send: &[u8], counts: &[usize], recv_len: usize, root: usize) -> Result<Vec<u8>> {
    let bytes = c_int::try_from(recv_len).map_err(|_| Error::BadArgument(format!("scatterv of {recv_len} bytes")))?;
    let on_root = comm.rank == root;
    if on_root && (counts.len() != comm.size || send.len() != counts.iter().sum::<usize>()) {
        return Err(Error::Internal(format!("scatterv of {} bytes with {} counts for {} ranks", send.len(), counts.len(), comm.size)));
    }
    let (c, d) = if on_root { counts_and_displs(counts, "scatterv")? } else { (Vec::new(), Vec::new()) };
    let mut recv = vec![u8::MAX; recv_len.max(1)];
    let spare = [0u8; 1];
    let send = if send.is_empty() { &spare[..] } else { send };
    // SAFETY: live communicator; on the root counts and displacements of size ranks lie inside
    // `send` (their sum is its length); recv has room for `bytes`; neither buffer is touched
    // until the request completed.
    wait::complete("MPI_Scatterv", comm.size, |req| unsafe {
        rpnmpi_iscatterv(
            comm.raw(),
            send.as_ptr() as *const c_void,
            c.as_ptr(),
            d.as_ptr(),
            recv.as_mut_ptr() as *mut c_void,
            bytes,
            root as c_int,
            req,
        )
    })?;
    recv.truncate(recv_len);
    Ok(recv)
}

/// MPI_Alltoall of `block` bytes per rank of `comm` (`send` holds one block per rank, in rank
/// order): the blocks addressed to this rank into `recv`, in rank order.
pub fn alltoall(comm: &Comm, send: &[u8], block: usize, recv: &mut [u8]) -> Result<()> {
    let bytes = c_int::try_from(block).map_err(|_| Error::BadArgument(format!("alltoall of {block} bytes per PE")))?;
    crate::transport::check_alltoall(send, block, comm.size, recv)?;
    if block == 0 {
        return Ok(());
    }
    // SAFETY: live communicator; send holds and recv has room for size x block bytes, neither
    // touched until the request completed (`complete`).
    wait::complete("MPI_Alltoall", comm.size, |req| unsafe {
        rpnmpi_ialltoall(comm.raw(), send.as_ptr() as *const c_void, recv.as_mut_ptr() as *mut c_void, bytes, req)
    })
}

/// MPI_Alltoallv of byte blocks over `comm`: `send_counts[p]` bytes to rank p (one after the
/// other in `send`, rank order), `recv_counts[p]` from each, returned one after the other.
pub fn alltoallv(comm: &Comm, send: &[u8], send_counts: &[usize], recv_counts: &[usize]) -> Result<Vec<u8>> {
    if send_counts.len() != comm.size || recv_counts.len() != comm.size || send.len() != send_counts.iter().sum::<usize>() {
        return Err(Error::Internal(format!(
            "alltoallv of {} bytes with {} counts for {} ranks",
            send.len(),
            send_counts.len(),
            comm.size
        )));
    }
    let (sc, sd) = counts_and_displs(send_counts, "alltoallv")?;
    let (rc, rd) = counts_and_displs(recv_counts, "alltoallv")?;
    // An empty Vec<u8>'s pointer is 1, Open MPI's MPI_IN_PLACE: never pass one (MPI_ERR_ARG).
    let total: usize = recv_counts.iter().sum();
    let mut recv = vec![0u8; total.max(1)];
    let spare = [0u8; 1];
    let send = if send.is_empty() { &spare[..] } else { send };
    let rc_ = {
        let _mpi = shim::serial();
        let _watch = watchdog::watch("MPI_Alltoallv");
        // SAFETY: live communicator; counts and displacements of size ranks each, inside send
        // and recv (their sums are the buffers' lengths, checked above).
        unsafe {
            rpnmpi_alltoallv(
                comm.raw(),
                send.as_ptr() as *const c_void,
                sc.as_ptr(),
                sd.as_ptr(),
                recv.as_mut_ptr() as *mut c_void,
                rc.as_ptr(),
                rd.as_ptr(),
            )
        }
    };
    shim::check(rc_, "MPI_Alltoallv")?;
    recv.truncate(total);
    Ok(recv)
}
