//! RPN_COMM_send, recv, isend, irecv and waitall_nostat: MPI point-to-point messages on a named
//! communicator, with the original's datatype names; requests are Fortran MPI request handles,
//! which the caller may also hand to MPI itself. MPI build only: the shared-memory transport has
//! no point-to-point channel for them yet, and refuses them with one line.
//!
//! The process's lock is held only to find the communicator, not while a message waits.

use crate::error::Result;

#[cfg(feature = "mpi")]
use {super::super::with_runtime, super::mpi_handles::mpi_type_code, crate::error::Error, crate::transport::mpi::p2p as mpi};

#[cfg(not(feature = "mpi"))]
fn refused<T>() -> Result<T> {
    Err(crate::error::Error::Unsupported(
        "point-to-point messages (RPN_COMM_send, recv, isend, irecv, waitall_nostat) need the MPI build (make MPI=1): the shared-memory transport has none yet",
    ))
}

/// The Fortran communicator of `com` where this PE is a member (None else), and the datatype
/// code of `dtype`.
#[cfg(feature = "mpi")]
fn target(dtype: &str, com: &str) -> Result<Option<(i32, usize)>> {
    let code = mpi_type_code(dtype)?;
    Ok(with_runtime(|rt| rt.member_fortran_comm(com))?.map(|f| (f, code)))
}

/// As `target`, for a receive: a PE outside `com` has nothing to receive from (refused).
#[cfg(feature = "mpi")]
fn source(dtype: &str, com: &str) -> Result<(i32, usize)> {
    target(dtype, com)?.ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", com.trim())))
}

/// RPN_COMM_send: `count` elements of `dtype` at `buf` to rank `dest` of `com` (nothing on a PE
/// outside `com`, as the original).
///
/// # Safety
/// `buf` holds `count` elements of `dtype`.
pub unsafe fn send(buf: usize, count: i32, dtype: &str, dest: i32, tag: i32, com: &str) -> Result<()> {
    #[cfg(feature = "mpi")]
    {
        let Some((fcomm, code)) = target(dtype, com)? else { return Ok(()) };
        // SAFETY: the caller's contract.
        unsafe { mpi::send(buf, count, code, dest, tag, fcomm) }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, dest, tag, com);
        refused()
    }
}

/// RPN_COMM_recv: into `buf`, from rank `source` of `com`; returns the number of elements
/// received.
///
/// # Safety
/// `buf` has room for `count` elements of `dtype`.
pub unsafe fn recv(buf: usize, count: i32, dtype: &str, from: i32, tag: i32, com: &str) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        let (fcomm, code) = source(dtype, com)?;
        // SAFETY: the caller's contract.
        unsafe { mpi::recv(buf, count, code, from, tag, fcomm) }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, from, tag, com);
        refused()
    }
}

/// RPN_COMM_isend; returns the Fortran MPI request (None on a PE outside `com`: nothing sent).
///
/// # Safety
/// `buf` holds `count` elements of `dtype` until the request completes.
pub unsafe fn isend(buf: usize, count: i32, dtype: &str, dest: i32, tag: i32, com: &str) -> Result<Option<i32>> {
    #[cfg(feature = "mpi")]
    {
        let Some((fcomm, code)) = target(dtype, com)? else { return Ok(None) };
        // SAFETY: the caller's contract.
        unsafe { mpi::isend(buf, count, code, dest, tag, fcomm) }.map(Some)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, dest, tag, com);
        refused()
    }
}

/// RPN_COMM_irecv; returns the Fortran MPI request.
///
/// # Safety
/// `buf` has room for `count` elements of `dtype` until the request completes.
pub unsafe fn irecv(buf: usize, count: i32, dtype: &str, from: i32, tag: i32, com: &str) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        let (fcomm, code) = source(dtype, com)?;
        // SAFETY: the caller's contract.
        unsafe { mpi::irecv(buf, count, code, from, tag, fcomm) }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, from, tag, com);
        refused()
    }
}

/// RPN_COMM_waitall_nostat: waits for the Fortran MPI requests `reqs` (each becomes
/// MPI_REQUEST_NULL's handle).
pub fn waitall(reqs: &mut [i32]) -> Result<()> {
    #[cfg(feature = "mpi")]
    {
        with_runtime(|_| Ok(()))?;
        mpi::wait_all(reqs)
    }
    #[cfg(not(feature = "mpi"))]
    {
        if reqs.is_empty() { Ok(()) } else { refused() }
    }
}
