//! Point-to-point messages on the caller's Fortran MPI communicators (RPN_COMM_send, recv, isend,
//! irecv, waitall_nostat); requests are Fortran integers. Each call holds `shim::serial()`; below
//! MPI_THREAD_MULTIPLE with the serialising lock (MPI_THREAD_SERIALIZED), a blocking call is made
//! as its nonblocking form tested until done, letting go of the lock in between, so that another
//! thread of this PE is not kept out of MPI (it may be the one that sends what this one waits for).

use std::ffi::{c_int, c_void};

use super::shim;
use crate::error::{Error, Result};

unsafe extern "C" {
    fn rpnmpi_send(buf: *const c_void, count: c_int, code: c_int, dest: c_int, tag: c_int, fcomm: c_int) -> c_int;
    fn rpnmpi_recv(buf: *mut c_void, count: c_int, code: c_int, source: c_int, tag: c_int, fcomm: c_int, received: *mut c_int) -> c_int;
    fn rpnmpi_isend(buf: *const c_void, count: c_int, code: c_int, dest: c_int, tag: c_int, fcomm: c_int, freq: *mut c_int) -> c_int;
    fn rpnmpi_irecv(buf: *mut c_void, count: c_int, code: c_int, source: c_int, tag: c_int, fcomm: c_int, freq: *mut c_int) -> c_int;
    fn rpnmpi_waitall(n: c_int, freqs: *mut c_int) -> c_int;
    fn rpnmpi_testall(n: c_int, freqs: *mut c_int, done: *mut c_int) -> c_int;
    fn rpnmpi_test_count(freq: *mut c_int, code: c_int, done: *mut c_int, received: *mut c_int) -> c_int;
}

/// Runs a blocking operation as `start` (its nonblocking form, giving a Fortran request) then a
/// wait that lets go of the serialising lock between tests; without that lock, as `blocking`.
fn blocking(what: &str, blocking: impl FnOnce() -> c_int, start: impl FnOnce(&mut c_int) -> c_int) -> Result<()> {
    let guard = shim::serial();
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
    let guard = shim::serial();
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
            let _mpi = shim::serial();
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
        let _mpi = shim::serial();
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
        let _mpi = shim::serial();
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
        let guard = shim::serial();
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
