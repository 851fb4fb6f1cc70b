//! The C ABI of RPN_COMM_alltoall, RPN_COMM_gatherv and RPN_COMM_scatterv (the original's
//! arguments; counts and displacements are Fortran default integers).

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::runtime::with_runtime;

/// RPN_COMM_alltoall: `sendcount` elements of `sendtype` to every PE of `com`, `recvcnt` of
/// `recvtype` from each, blocks in rank order.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    recbuf: *mut c_void,
    recvcnt: c_int,
    recvtype: *const c_char,
    recvtype_len: usize,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_alltoall", || {
        // SAFETY: Fortran string arguments.
        let (st, rt_, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(recvtype, recvtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers hold a block per PE of `com` (MPI-style contract).
        with_runtime(|rt| unsafe { rt.alltoall(sendbuf as usize, sendcount, &st, recbuf as usize, recvcnt, &rt_, &c) })
    })
}

/// RPN_COMM_gatherv: `sendcount` elements of `sendtype` from every PE of `com` into `recbuf`
/// on the root, PE p's `reccountv[p]` elements of `rectype` at `disp[p]` (the root's arrays).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_gatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    recbuf: *mut c_void,
    reccountv: *const c_int,
    disp: *const c_int,
    rectype: *const c_char,
    rectype_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_gatherv", || {
        // SAFETY: Fortran string arguments.
        let (st, rt_, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(rectype, rectype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers and (on the root) arrays are as the counts say.
        with_runtime(|rt| unsafe {
            rt.gatherv(sendbuf as usize, sendcount, &st, recbuf as usize, reccountv as usize, disp as usize, &rt_, root, &c)
        })
    })
}

/// RPN_COMM_scatterv: from `sendbuf` on the root, `sendcount[p]` elements of `sendtype` at
/// `disp[p]` to PE p of `com`, into its `recbuf` (`reccountv` elements of `rectype`).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_scatterv(
    sendbuf: *const c_void,
    sendcount: *const c_int,
    disp: *const c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    recbuf: *mut c_void,
    reccountv: c_int,
    rectype: *const c_char,
    rectype_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_scatterv", || {
        // SAFETY: Fortran string arguments.
        let (st, rt_, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(rectype, rectype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers and (on the root) arrays are as the counts say.
        with_runtime(|rt| unsafe {
            rt.scatterv(sendbuf as usize, sendcount as usize, disp as usize, &st, recbuf as usize, reccountv, &rt_, root, &c)
        })
    })
}
