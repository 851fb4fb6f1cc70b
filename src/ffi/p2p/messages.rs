//! The C ABI of the point-to-point messages: RPN_COMM_send, recv, isend, irecv and waitall_nostat
//! (MPI build only; requests are Fortran MPI request handles) and RPN_COMM_sendrecv (both
//! transports).

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::error::Error;
use crate::runtime::p2p::messages as p2p;
use crate::runtime::p2p::sendrecv;

/// RPN_COMM_send (MPI build only): `count` elements of `dtype` to rank `dest` of `com`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_send(
    buf: *const c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    dest: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_send", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer holds `count` elements of `dtype`.
        unsafe { p2p::send(buf as usize, count, &d, dest, tag, &c) }
    })
}

/// RPN_COMM_recv (MPI build only): into `buf` from rank `source` of `com`; `*status` receives
/// the number of elements received.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_recv(
    buf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    source: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
    status: *mut c_int,
) -> c_int {
    call("RPN_COMM_recv", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer has room for `count` elements of `dtype`.
        let n = unsafe { p2p::recv(buf as usize, count, &d, source, tag, &c) }?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(status, n) };
        Ok(())
    })
}

/// RPN_COMM_sendrecv: `sendcount` elements of `sendtype` to rank `dest` of `com` and at most
/// `recvcount` of `recvtype` from rank `source` into `recvbuf`; `*status` receives the number of
/// elements received (the original's `status`). On both transports.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_sendrecv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    dest: c_int,
    sendtag: c_int,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: *const c_char,
    recvtype_len: usize,
    source: c_int,
    recvtag: c_int,
    com: *const c_char,
    com_len: usize,
    status: *mut c_int,
) -> c_int {
    call("RPN_COMM_sendrecv", || {
        // SAFETY: Fortran string arguments.
        let (st, rt, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(recvtype, recvtype_len)?, args::name(com, com_len)?) };
        let out = sendrecv::Side { buf: sendbuf as usize, count: sendcount, dtype: &st, peer: dest, tag: sendtag };
        let into = sendrecv::Side { buf: recvbuf as usize, count: recvcount, dtype: &rt, peer: source, tag: recvtag };
        // SAFETY: the caller's buffers are as large as the counts say (MPI-style contract).
        let n = unsafe { sendrecv::sendrecv(out, into, &c) }?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(status, n) };
        Ok(())
    })
}

/// RPN_COMM_isend (MPI build only): `*request` receives the Fortran MPI request (unchanged on
/// a PE outside `com`: nothing is sent).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_isend(
    buf: *const c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    dest: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
    request: *mut c_int,
) -> c_int {
    call("RPN_COMM_isend", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer holds `count` elements until the request completes.
        if let Some(r) = unsafe { p2p::isend(buf as usize, count, &d, dest, tag, &c) }? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(request, r) };
        }
        Ok(())
    })
}

/// RPN_COMM_irecv (MPI build only): `*request` receives the Fortran MPI request.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_irecv(
    buf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    source: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
    request: *mut c_int,
) -> c_int {
    call("RPN_COMM_irecv", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer has room for `count` elements until the request completes.
        let r = unsafe { p2p::irecv(buf as usize, count, &d, source, tag, &c) }?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(request, r) };
        Ok(())
    })
}

/// RPN_COMM_waitall_nostat (MPI build only; `nreq` = 0 everywhere): waits for the `nreq`
/// Fortran MPI requests in `requests` (each becomes MPI_REQUEST_NULL's handle).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_waitall_nostat(nreq: c_int, requests: *mut c_int) -> c_int {
    call("RPN_COMM_waitall_nostat", || {
        let n = usize::try_from(nreq).map_err(|_| Error::Negative { what: "nreq", value: nreq.into() })?;
        if n > 0 && requests.is_null() {
            return Err(Error::NullBuffer { what: "requests", nelem: nreq.into() });
        }
        let reqs: &mut [c_int] = if n == 0 {
            &mut []
        } else {
            // SAFETY: the caller's array holds nreq requests.
            unsafe { std::slice::from_raw_parts_mut(requests, n) }
        };
        p2p::waitall(reqs)
    })
}
