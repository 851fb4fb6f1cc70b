//! The C ABI of the collectives whose results reach every PE: RPN_COMM_barrier,
//! RPN_COMM_allreduce, RPN_COMM_bcast and RPN_COMM_allgather.

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::runtime::with_runtime;

/// Blocks until every PE of the communicator named `name` has called it.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_barrier(name: *const c_char, name_len: usize) -> c_int {
    call("RPN_COMM_barrier", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        with_runtime(|rt| rt.barrier_timed(&name))
    })
}

/// Reduces `count` elements of type `dtype` with operator `op` over the communicator `com`; every PE
/// receives the result in `recvbuf`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_allreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    op: *const c_char,
    op_len: usize,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_allreduce", || {
        // SAFETY: Fortran string arguments.
        let (d, o, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(op, op_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers hold `count` elements of `dtype` (MPI-style contract).
        with_runtime(|rt| unsafe { rt.allreduce(sendbuf as usize, recvbuf as usize, count, &d, &o, &c) })
    })
}

/// Copies `count` elements of type `dtype` of the PE of rank `root` in `com` into `buffer` on
/// every PE of `com`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bcast(
    buffer: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_bcast", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer holds `count` elements of `dtype` (MPI-style contract).
        with_runtime(|rt| unsafe { rt.bcast(buffer as usize, count, &d, root, &c) })
    })
}

/// RPN_COMM_bcst_world: the integers from `start` to `end` (both included: the original measures
/// its two arguments' addresses) from PE 0 of the grid to its other PEs; `mode` must be 0.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bcst_world(start: *mut c_void, end: *const c_void, mode: c_int) -> c_int {
    call("RPN_COMM_bcst_world", || {
        let count = crate::core::options::bcst_world_count(start as usize, end as usize, mode)?;
        // SAFETY: the caller's integers run from start to end (the original's contract).
        with_runtime(|rt| unsafe { rt.bcast(start as usize, count, "MPI_INTEGER", 0, "GRID") })
    })
}

/// RPN_COMM_bcastc: `rpncomm_bcast` of a character buffer of `buffer_len` bytes (its Fortran
/// length), which `count` elements of `dtype` must fit in.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_bcastc(
    buffer: *mut c_char,
    buffer_len: usize,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_bcastc", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer holds `buffer_len` bytes; the count is checked against it.
        with_runtime(|rt| unsafe { rt.bcastc(buffer as usize, buffer_len, count, &d, root, &c) })
    })
}

/// Gathers `sendcount` elements from every PE of `com` into `recvbuf`, in rank order.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: *const c_char,
    recvtype_len: usize,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_allgather", || {
        // SAFETY: Fortran string arguments.
        let (st, rt_, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(recvtype, recvtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers match the counts and types (MPI-style contract).
        with_runtime(|rt| unsafe { rt.allgather(sendbuf as usize, sendcount, &st, recvbuf as usize, recvcount, &rt_, &c) })
    })
}
