//! The MPI-facing routines GEM calls (runtime::gem): real MPI handles for the caller's own MPI
//! calls (communicators, datatypes and requests as Fortran integers) and point-to-point messages
//! on them. Each call holds `shim::serial()`; below MPI_THREAD_MULTIPLE with the serialising lock
//! (MPI_THREAD_SERIALIZED), a blocking call is made as its nonblocking form tested until done,
//! letting go of the lock in between, so that another thread of this PE is not kept out of MPI
//! (it may be the one that sends what this one waits for).

use std::ffi::{c_int, c_void};

use super::comm::Comm;
use super::shim::{self, RawComm};
use super::watchdog;
use crate::core::{ElementType, Operator};
use crate::error::{Error, Result};

unsafe extern "C" {
    fn rpnmpi_comm_c2f(comm: *const RawComm) -> c_int;
    fn rpnmpi_comm_null_f() -> c_int;
    fn rpnmpi_split_by_socket_f(forig: c_int, spaces: c_int, out: *mut c_int) -> c_int;
    fn rpnmpi_type_f(code: c_int, ftype: *mut c_int) -> c_int;
    fn rpnmpi_send(buf: *const c_void, count: c_int, code: c_int, dest: c_int, tag: c_int, fcomm: c_int) -> c_int;
    fn rpnmpi_recv(buf: *mut c_void, count: c_int, code: c_int, source: c_int, tag: c_int, fcomm: c_int, received: *mut c_int) -> c_int;
    fn rpnmpi_isend(buf: *const c_void, count: c_int, code: c_int, dest: c_int, tag: c_int, fcomm: c_int, freq: *mut c_int) -> c_int;
    fn rpnmpi_irecv(buf: *mut c_void, count: c_int, code: c_int, source: c_int, tag: c_int, fcomm: c_int, freq: *mut c_int) -> c_int;
    fn rpnmpi_waitall(n: c_int, freqs: *mut c_int) -> c_int;
    fn rpnmpi_testall(n: c_int, freqs: *mut c_int, done: *mut c_int) -> c_int;
    fn rpnmpi_test_count(freq: *mut c_int, code: c_int, done: *mut c_int, received: *mut c_int) -> c_int;
    fn rpnmpi_finalize_once() -> c_int;
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
    fn rpnmpi_gather(comm: *const RawComm, mine: *const c_void, all: *mut c_void, bytes: c_int, root: c_int) -> c_int;
    fn rpnmpi_alltoall(comm: *const RawComm, send: *const c_void, recv: *mut c_void, bytes: c_int) -> c_int;
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
pub fn reduce(comm: &Comm, mine: &[u8], dtype: ElementType, op: Operator, root: usize) -> Result<Option<Vec<u8>>> {
    let n = c_int::try_from(mine.len() / dtype.size()).map_err(|_| Error::BadArgument(format!("reduce of {} bytes", mine.len())))?;
    if matches!(op, Operator::Replace | Operator::NoOp) {
        let all = gather(comm, mine, root)?;
        return Ok(all.map(|all| {
            let mut result = all[..mine.len()].to_vec();
            for other in all.chunks_exact(mine.len().max(1)).skip(1) {
                op.apply_bytes(dtype, &mut result, other);
            }
            result
        }));
    }
    if mine.is_empty() {
        return Ok((comm.rank == root).then(Vec::new));
    }
    let mut result = vec![0u8; if comm.rank == root { mine.len() } else { 0 }];
    let rc = {
        let _mpi = shim::serial()?;
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

// Nothing to move returns before MPI is called: an empty Vec's pointer is 1, which is Open MPI's
// MPI_IN_PLACE (MPI_Allreduce of 0 elements then fails with MPI_ERR_BUFFER: GEM makes such calls).

/// MPI_Allreduce of `mine` (elements of `dtype`) with `op` over `comm`, as the original's
/// RPN_COMM_allreduce: None for REPLACE and NO_OP, which MPI_Allreduce does not take.
pub fn allreduce(comm: &Comm, mine: &[u8], dtype: ElementType, op: Operator) -> Result<Option<Vec<u8>>> {
    if matches!(op, Operator::Replace | Operator::NoOp) {
        return Ok(None);
    }
    let n = c_int::try_from(mine.len() / dtype.size()).map_err(|_| Error::BadArgument(format!("allreduce of {} bytes", mine.len())))?;
    if mine.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let mut result = vec![0u8; mine.len()];
    let rc = {
        let _mpi = shim::serial()?;
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

/// MPI_Gather of `mine` from every rank of `comm`, in rank order, on `root`.
pub fn gather(comm: &Comm, mine: &[u8], root: usize) -> Result<Option<Vec<u8>>> {
    let bytes = c_int::try_from(mine.len()).map_err(|_| Error::BadArgument(format!("gather of {} bytes per PE", mine.len())))?;
    if mine.is_empty() {
        return Ok((comm.rank == root).then(Vec::new));
    }
    let mut all = vec![0u8; if comm.rank == root { mine.len() * comm.size } else { 0 }];
    let rc = {
        let _mpi = shim::serial()?;
        let _watch = watchdog::watch("MPI_Gather");
        // SAFETY: live communicator; all has room for size x bytes on the root.
        unsafe { rpnmpi_gather(comm.raw(), mine.as_ptr() as *const c_void, all.as_mut_ptr() as *mut c_void, bytes, root as c_int) }
    };
    shim::check(rc, "MPI_Gather")?;
    Ok((comm.rank == root).then_some(all))
}

/// MPI_Alltoall of `block` bytes per rank of `comm` (`send` holds one block per rank, in rank
/// order): the blocks addressed to this rank, in rank order.
pub fn alltoall(comm: &Comm, send: &[u8], block: usize) -> Result<Vec<u8>> {
    let bytes = c_int::try_from(block).map_err(|_| Error::BadArgument(format!("alltoall of {block} bytes per PE")))?;
    assert_eq!(send.len(), block * comm.size, "one block per rank");
    if block == 0 {
        return Ok(Vec::new());
    }
    let mut recv = vec![0u8; block * comm.size];
    let rc = {
        let _mpi = shim::serial()?;
        let _watch = watchdog::watch("MPI_Alltoall");
        // SAFETY: live communicator; send holds and recv has room for size x block bytes.
        unsafe { rpnmpi_alltoall(comm.raw(), send.as_ptr() as *const c_void, recv.as_mut_ptr() as *mut c_void, bytes) }
    };
    shim::check(rc, "MPI_Alltoall")?;
    Ok(recv)
}

/// MPI_Alltoallv of byte blocks over `comm`: `send_counts[p]` bytes to rank p (one after the
/// other in `send`, rank order), `recv_counts[p]` from each, returned one after the other.
pub fn alltoallv(comm: &Comm, send: &[u8], send_counts: &[usize], recv_counts: &[usize]) -> Result<Vec<u8>> {
    let ints = |counts: &[usize]| -> Result<(Vec<c_int>, Vec<c_int>)> {
        let mut displs = Vec::with_capacity(counts.len());
        let mut at = 0usize;
        for &c in counts {
            displs.push(c_int::try_from(at).map_err(|_| Error::BadArgument(format!("alltoallv of {at} bytes and more")))?);
            at += c;
        }
        c_int::try_from(at).map_err(|_| Error::BadArgument(format!("alltoallv of {at} bytes")))?;
        Ok((counts.iter().map(|&c| c as c_int).collect(), displs))
    };
    if send_counts.len() != comm.size || recv_counts.len() != comm.size || send.len() != send_counts.iter().sum::<usize>() {
        return Err(Error::Internal(format!(
            "alltoallv of {} bytes with {} counts for {} ranks",
            send.len(),
            send_counts.len(),
            comm.size
        )));
    }
    let (sc, sd) = ints(send_counts)?;
    let (rc, rd) = ints(recv_counts)?;
    // An empty Vec<u8>'s pointer is 1, Open MPI's MPI_IN_PLACE: never pass one (MPI_ERR_ARG).
    let total: usize = recv_counts.iter().sum();
    let mut recv = vec![0u8; total.max(1)];
    let spare = [0u8; 1];
    let send = if send.is_empty() { &spare[..] } else { send };
    let rc_ = {
        let _mpi = shim::serial()?;
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

/// The Fortran handle of a communicator of the shim.
pub fn comm_handle(raw: *const RawComm) -> Result<i32> {
    let _mpi = shim::serial()?;
    // SAFETY: a live communicator of the shim.
    Ok(unsafe { rpnmpi_comm_c2f(raw) })
}

/// MPI_COMM_NULL's Fortran handle.
pub fn comm_null() -> Result<i32> {
    let _mpi = shim::serial()?;
    // SAFETY: no argument.
    Ok(unsafe { rpnmpi_comm_null_f() })
}

/// RPN_COMM_split_by_socket on the Fortran communicator `forig`, each node cut into `spaces`
/// parts: the node, socket and peer communicators (Fortran handles), node rank, socket rank,
/// peer rank and socket size.
pub fn split_by_socket(forig: i32, spaces: i32) -> Result<[i32; 7]> {
    let mut out = [0; 7];
    let rc = {
        let _mpi = shim::serial()?;
        // SAFETY: out has room for the 7 integers the shim writes.
        unsafe { rpnmpi_split_by_socket_f(forig, spaces, out.as_mut_ptr()) }
    };
    shim::check(rc, "RPN_COMM_split_by_socket's MPI_Comm_split")?;
    Ok(out)
}

/// The Fortran handle of the MPI datatype of `code` (the table of runtime::gem).
pub fn datatype(code: usize) -> Result<i32> {
    let mut f = 0;
    let rc = {
        let _mpi = shim::serial()?;
        // SAFETY: out-parameter.
        unsafe { rpnmpi_type_f(code as c_int, &mut f) }
    };
    shim::check(rc, "MPI_Type_c2f")?;
    Ok(f)
}

/// Runs a blocking operation as `start` (its nonblocking form, giving a Fortran request) then a
/// wait that lets go of the serialising lock between tests; without that lock, as `blocking`.
fn blocking(what: &str, blocking: impl FnOnce() -> c_int, start: impl FnOnce(&mut c_int) -> c_int) -> Result<()> {
    let guard = shim::serial()?;
    if guard.is_none() {
        return shim::check(blocking(), what);
    }
    let mut req = 0;
    shim::check(start(&mut req), what)?;
    drop(guard);
    wait_all(std::slice::from_mut(&mut req))
}

/// MPI_Send of `count` elements of datatype `code` at `buf`.
///
/// # Safety
/// `buf` holds `count` elements of that datatype.
pub unsafe fn send(buf: usize, count: i32, code: usize, dest: i32, tag: i32, fcomm: i32) -> Result<()> {
    let (b, c) = (buf as *const c_void, code as c_int);
    blocking(
        "MPI_Send",
        // SAFETY: the caller's contract.
        || unsafe { rpnmpi_send(b, count, c, dest, tag, fcomm) },
        // SAFETY: as above; the buffer stays valid until the wait below returns.
        |req| unsafe { rpnmpi_isend(b, count, c, dest, tag, fcomm, req) },
    )
}

/// MPI_Recv into `buf`; returns the number of elements received.
///
/// # Safety
/// `buf` has room for `count` elements of datatype `code`.
pub unsafe fn recv(buf: usize, count: i32, code: usize, source: i32, tag: i32, fcomm: i32) -> Result<i32> {
    let (b, c) = (buf as *mut c_void, code as c_int);
    let guard = shim::serial()?;
    if guard.is_none() {
        let mut received = 0;
        // SAFETY: the caller's contract; out-parameter.
        shim::check(unsafe { rpnmpi_recv(b, count, c, source, tag, fcomm, &mut received) }, "MPI_Recv")?;
        return Ok(received);
    }
    drop(guard);
    // SAFETY: the caller's contract; the buffer stays valid until the loop below sees it done.
    let mut req = unsafe { irecv(buf, count, code, source, tag, fcomm) }?;
    loop {
        let (mut done, mut received) = (0, 0);
        let rc = {
            let _mpi = shim::serial()?;
            // SAFETY: a request of irecv; out-parameters.
            unsafe { rpnmpi_test_count(&mut req, c, &mut done, &mut received) }
        };
        shim::check(rc, "MPI_Test")?;
        if done != 0 {
            return Ok(received);
        }
        std::thread::yield_now();
    }
}

/// MPI_Isend; returns the request's Fortran handle.
///
/// # Safety
/// `buf` holds `count` elements of datatype `code` and stays valid until the request completes.
pub unsafe fn isend(buf: usize, count: i32, code: usize, dest: i32, tag: i32, fcomm: i32) -> Result<i32> {
    let mut req = 0;
    let rc = {
        let _mpi = shim::serial()?;
        // SAFETY: the caller's contract; out-parameter.
        unsafe { rpnmpi_isend(buf as *const c_void, count, code as c_int, dest, tag, fcomm, &mut req) }
    };
    shim::check(rc, "MPI_Isend")?;
    Ok(req)
}

/// MPI_Irecv; returns the request's Fortran handle.
///
/// # Safety
/// `buf` has room for `count` elements of datatype `code` and stays valid until the request
/// completes.
pub unsafe fn irecv(buf: usize, count: i32, code: usize, source: i32, tag: i32, fcomm: i32) -> Result<i32> {
    let mut req = 0;
    let rc = {
        let _mpi = shim::serial()?;
        // SAFETY: the caller's contract; out-parameter.
        unsafe { rpnmpi_irecv(buf as *mut c_void, count, code as c_int, source, tag, fcomm, &mut req) }
    };
    shim::check(rc, "MPI_Irecv")?;
    Ok(req)
}

/// MPI_Waitall on Fortran request handles (each becomes MPI_REQUEST_NULL's handle).
pub fn wait_all(reqs: &mut [i32]) -> Result<()> {
    let n = c_int::try_from(reqs.len()).map_err(|_| Error::BadArgument(format!("{} requests", reqs.len())))?;
    loop {
        let guard = shim::serial()?;
        if guard.is_none() {
            // SAFETY: reqs holds n handles, written back.
            return shim::check(unsafe { rpnmpi_waitall(n, reqs.as_mut_ptr()) }, "MPI_Waitall");
        }
        let mut done = 0;
        // SAFETY: as above; out-parameter.
        shim::check(unsafe { rpnmpi_testall(n, reqs.as_mut_ptr(), &mut done) }, "MPI_Testall")?;
        drop(guard);
        if done != 0 {
            return Ok(());
        }
        std::thread::yield_now();
    }
}

/// MPI_Finalize unless MPI is finalized already.
pub fn finalize_once() -> Result<()> {
    // SAFETY: no argument.
    shim::check(unsafe { rpnmpi_finalize_once() }, "MPI_Finalize")
}
