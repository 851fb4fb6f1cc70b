//! The C ABI of the rooted collectives: RPN_COMM_reduce and RPN_COMM_gather.

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::runtime::with_runtime;

/// RPN_COMM_reduce: `count` elements of `dtype` from every PE of `com` combined with `op` into
/// `recvbuf` on the PE of rank `root` (the others' `recvbuf` is untouched).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    op: *const c_char,
    op_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_reduce", || {
        // SAFETY: Fortran string arguments.
        let (d, o, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(op, op_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers hold `count` elements of `dtype` (MPI-style contract).
        with_runtime(|rt| unsafe { rt.reduce(sendbuf as usize, recvbuf as usize, count, &d, &o, root, &c) })
    })
}

/// RPN_COMM_gather: `sendcount` elements from every PE of `com` into `recvbuf` on the PE of
/// rank `root`, in rank order.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_gather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    recvbuf: *mut c_void,
    reccount: c_int,
    rectype: *const c_char,
    rectype_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_gather", || {
        // SAFETY: Fortran string arguments.
        let (st, rt_, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(rectype, rectype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers are as large as the counts say (MPI-style contract).
        with_runtime(|rt| unsafe { rt.gather(sendbuf as usize, sendcount, &st, recvbuf as usize, reccount, &rt_, root, &c) })
    })
}
