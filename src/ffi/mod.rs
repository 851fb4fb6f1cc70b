//! The C ABI. Each function reads its raw arguments (`args`), calls the runtime, and turns
//! an error into `RPN_COMM_ERROR` (-1) plus one line on stderr naming the RPN_COMM routine,
//! the PE and the reason (`RPNCOMM_QUIET=1` silences it). No panic crosses this boundary.
//!
//! The Fortran module calls these functions through `bind(C)` interfaces; C programs use
//! them through `include/rpncomm_windows.h`.
//!
//! Safety of every entry point: pointer arguments are null or valid for what the routine's
//! documentation (and the RPN_COMM API) says they hold. They are called from C and Fortran,
//! where an `unsafe` qualifier would mean nothing, so they are plain `extern "C"` functions
//! and every dereference sits in an `unsafe` block with its justification.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

mod args;

use std::ffi::{c_char, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::core::{ElementType, Handle, HandleKind, Operator, PostRequest};
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::runtime::{self, Communicator, with_runtime};

pub use crate::core::Handle as RpncommHandle;

pub const RPN_COMM_OK: c_int = 0;
pub const RPN_COMM_ERROR: c_int = -1;

fn quiet() -> bool {
    static QUIET: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *QUIET.get_or_init(|| std::env::var("RPNCOMM_QUIET").is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// Prints the one-line message of a refused call.
pub fn report(routine: &str, err: &Error) {
    if !quiet() {
        diagnostics::write_line(routine, &err.to_string());
    }
}

/// Runs one API call: status 0 on success, -1 (with its message) on error or panic.
fn call(routine: &'static str, f: impl FnOnce() -> Result<()>) -> c_int {
    let _routine = diagnostics::enter(routine);
    let outcome = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(Error::Internal(what))
    });
    match outcome {
        Ok(()) => RPN_COMM_OK,
        Err(e) => {
            report(routine, &e);
            RPN_COMM_ERROR
        }
    }
}

fn window(p: *const Handle) -> Result<Handle> {
    // SAFETY: the caller passes its window variable by reference (or null, refused).
    unsafe { args::handle(p, HandleKind::Window) }
}

/// Starts the runtime (idempotent) and returns this PE's rank and the number of PEs.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_init(rank: *mut c_int, npes: *mut c_int) -> c_int {
    call("RPN_COMM_init", || {
        let (r, n) = with_runtime(|rt| Ok((rt.rank(), rt.npes())))?;
        // SAFETY: out-parameters from the caller (null is skipped).
        unsafe {
            args::put(rank, r as c_int);
            args::put(npes, n as c_int);
        }
        Ok(())
    })
}

/// Sets the Pex x Pey process grid; refused unless Pex*Pey equals the number of PEs.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_grid(pex: c_int, pey: c_int) -> c_int {
    call("RPN_COMM_init", || with_runtime(|rt| rt.set_grid(pex, pey)))
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_finalize() -> c_int {
    call("RPN_COMM_finalize", runtime::finalize)
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mype(me: *mut c_int, me_x: *mut c_int, me_y: *mut c_int) -> c_int {
    call("RPN_COMM_mype", || {
        let (m, x, y) = with_runtime(|rt| Ok(rt.mype()))?;
        // SAFETY: out-parameters from the caller.
        unsafe {
            args::put(me, m as c_int);
            args::put(me_x, x as c_int);
            args::put(me_y, y as c_int);
        }
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_wtime() -> f64 {
    runtime::wtime()
}

/// A communicator handle from its name ('GRID', 'WORLD', 'ALLGRIDS').
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm(name: *const c_char, name_len: usize, com: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller, set first to a handle every routine refuses.
    unsafe { args::put(com, Handle::refused(HandleKind::Communicator)) };
    call("RPN_COMM_i_comm", || {
        // SAFETY: Fortran string argument.
        let c = Communicator::from_name(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(com, Handle::encode(HandleKind::Communicator, c as u32)) };
        Ok(())
    })
}

/// Wraps a Fortran MPI communicator handle (MPI transport only; refused on shared memory).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm_mpi(mcom: c_int, com: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller, set first to a handle every routine refuses.
    unsafe { args::put(com, Handle::refused(HandleKind::Communicator)) };
    call("RPN_COMM_i_comm", || {
        let h = with_runtime(|rt| rt.wrap_communicator(mcom))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(com, h) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm_size(name: *const c_char, name_len: usize, size: *mut c_int) -> c_int {
    call("RPN_COMM_size", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        let n = with_runtime(|rt| rt.comm_size(&name))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(size, n as c_int) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_barrier(name: *const c_char, name_len: usize) -> c_int {
    call("RPN_COMM_barrier", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        with_runtime(|rt| rt.barrier(&name))
    })
}

/// A datatype handle from its name ('MPI_INTEGER', 'MPI_REAL8', ...).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_datyp(name: *const c_char, name_len: usize, dtype: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(dtype, Handle::refused(HandleKind::Datatype)) };
    call("RPN_COMM_i_datyp", || {
        // SAFETY: Fortran string argument.
        let t = ElementType::from_name(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(dtype, Handle::encode(HandleKind::Datatype, t.code())) };
        Ok(())
    })
}

/// An operator handle from its name ('MPI_SUM', ...).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_oper(name: *const c_char, name_len: usize, oper: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(oper, Handle::refused(HandleKind::Operator)) };
    call("RPN_COMM_i_oper", || {
        // SAFETY: Fortran string argument.
        let op = Operator::from_name(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(oper, Handle::encode(HandleKind::Operator, op.code())) };
        Ok(())
    })
}

/// 1 if `oper` is a valid operator handle, else 0.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_valid_oper(oper: *const Handle) -> c_int {
    // SAFETY: the caller passes its operator variable by reference (or null).
    let h = unsafe { args::handle(oper, HandleKind::Operator) };
    h.and_then(|h| runtime::operator_of(&h)).is_ok() as c_int
}

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

/// Collective: creates a window of `siz` elements on this PE, in `array` or (NULL) in memory
/// the library allocates.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_create(win: *mut Handle, dtype: *const Handle, siz: c_int, com: *const Handle, array: *mut c_void) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(win, Handle::NULL) };
    call("RPN_COMM_i_win_create", || {
        // SAFETY: handles passed by reference by the caller. An unreadable handle still takes
        // part in the collective agreement (as an invalid one), so no PE hangs.
        let d = unsafe { args::handle(dtype, HandleKind::Datatype) }.unwrap_or_default();
        // SAFETY: as above.
        let c = unsafe { args::handle(com, HandleKind::Communicator) }.unwrap_or_default();
        let h = with_runtime(|rt| rt.win_create(&d, siz, &c, array as usize))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(win, h) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_create_secondary(win: *const Handle, slots: c_int) -> c_int {
    call("RPN_COMM_i_win_create_secondary", || {
        let h = window(win).unwrap_or_default();
        with_runtime(|rt| rt.win_create_secondary(&h, slots))
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_free(win: *mut Handle) -> c_int {
    call("RPN_COMM_i_win_free", || {
        let h = window(win).unwrap_or_default();
        with_runtime(|rt| rt.win_free(&h))?;
        // SAFETY: the caller's window variable, which we just read.
        unsafe { args::put(win, Handle::NULL) };
        Ok(())
    })
}

/// Sets `*is_valid` to 1 for a live window, else 0 (and returns -1 without a message).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_valid(win: *const Handle, is_valid: *mut c_int) -> c_int {
    let valid = window(win).and_then(|h| with_runtime(|rt| Ok(rt.win_valid(&h)))).unwrap_or(false);
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(is_valid, valid as c_int) };
    if valid { RPN_COMM_OK } else { RPN_COMM_ERROR }
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_check(win: *const Handle, is_open: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(is_open, 0) };
    call("RPN_COMM_i_win_check", || {
        let open = with_runtime(|rt| rt.win_check(&window(win)?))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(is_open, open as c_int) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_ptr(win: *const Handle, np: c_int, ptr: *mut *mut c_void) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(ptr, std::ptr::null_mut()) };
    call("RPN_COMM_i_win_get_ptr", || {
        let p = with_runtime(|rt| rt.win_get_ptr(&window(win)?, np))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(ptr, p as *mut c_void) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_size(win: *const Handle, siz: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(siz, -1) };
    call("RPN_COMM_i_win_get_size", || {
        let n = with_runtime(|rt| rt.win_get_size(&window(win)?))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(siz, n as c_int) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_size2(win: *const Handle, siz: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(siz, -1) };
    call("RPN_COMM_i_win_get_size2", || {
        let n = with_runtime(|rt| rt.win_get_size2(&window(win)?))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(siz, n as c_int) };
        Ok(())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_open(win: *const Handle, active: c_int) -> c_int {
    call("RPN_COMM_i_win_open", || with_runtime(|rt| rt.win_open(&window(win)?, active != 0)))
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_close(win: *const Handle) -> c_int {
    call("RPN_COMM_i_win_close", || with_runtime(|rt| rt.win_close(&window(win)?)))
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_r(win: *const Handle, larray: *mut c_void, target: c_int, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_get_r", || with_runtime(|rt| rt.win_get_r(&window(win)?, larray as usize, target, offset, nelem)))
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_l(win: *const Handle, larray: *mut c_void, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_get_l", || with_runtime(|rt| rt.win_get_l(&window(win)?, larray as usize, offset, nelem)))
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_put_r(win: *const Handle, larray: *const c_void, target: c_int, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_put_r", || with_runtime(|rt| rt.win_put_r(&window(win)?, larray as usize, target, offset, nelem)))
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_put_l(win: *const Handle, larray: *const c_void, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_put_l", || with_runtime(|rt| rt.win_put_l(&window(win)?, larray as usize, offset, nelem)))
}

/// Element-wise `target = target OP larray`; `garray` (when not NULL) receives the target's
/// values from before (`before` != 0) or after the update. A NULL `oper` handle (all zero)
/// uses the window's default operator.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_win_getacc_r(
    win: *const Handle,
    larray: *const c_void,
    garray: *mut c_void,
    before: c_int,
    target: c_int,
    offset: c_int,
    nelem: c_int,
    oper: *const Handle,
) -> c_int {
    call("RPN_COMM_i_win_getacc_r", || {
        // SAFETY: operator handle passed by reference (null means the window's default).
        let op = if oper.is_null() { Handle::NULL } else { unsafe { args::handle(oper, HandleKind::Operator) }? };
        with_runtime(|rt| rt.win_getacc_r(&window(win)?, larray as usize, garray as usize, before != 0, target, offset, nelem, &op))
    })
}

/// Sets the PEs this PE targets (`pes_to`) and accepts operations from (`pes_from`) in
/// active mode; `[-1]`, `[-1]` returns to fence mode.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_group(win: *const Handle, pes_to: *const c_int, n_to: c_int, pes_from: *const c_int, n_from: c_int) -> c_int {
    call("RPN_COMM_i_win_group", || {
        // SAFETY: the caller's arrays hold n_to and n_from integers.
        let (to, from) = unsafe { (args::ints(pes_to, n_to, "pes_to")?, args::ints(pes_from, n_from, "pes_from")?) };
        with_runtime(|rt| rt.win_group(&window(win)?, to, from))
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_oper(win: *const Handle, oper: *const Handle) -> c_int {
    call("RPN_COMM_i_win_oper", || {
        // SAFETY: operator handle passed by reference.
        let op = unsafe { args::handle(oper, HandleKind::Operator) }?;
        with_runtime(|rt| rt.win_oper(&window(win)?, &op))
    })
}

/// Posts `nreq` requests (target PE, request offset/length, reply offset/length) into the
/// targets' secondary windows; `offseti[0] = -1` with `nelemi[0] = -1 / -2` reinitialises.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_win_post(
    win: *const Handle,
    pe: *const c_int,
    offseti: *const c_int,
    nelemi: *const c_int,
    offseto: *const c_int,
    nelemo: *const c_int,
    nreq: c_int,
) -> c_int {
    call("RPN_COMM_i_win_post", || {
        // SAFETY: the caller's five arrays hold nreq integers each.
        let (pe, oi, ni, oo, no) = unsafe {
            (
                args::ints(pe, nreq, "pe")?,
                args::ints(offseti, nreq, "offseti")?,
                args::ints(nelemi, nreq, "nelemi")?,
                args::ints(offseto, nreq, "offseto")?,
                args::ints(nelemo, nreq, "nelemo")?,
            )
        };
        let requests: Vec<PostRequest> = (0..pe.len())
            .map(|i| PostRequest { pe: pe[i], offseti: oi[i], nelemi: ni[i], offseto: oo[i], nelemo: no[i] })
            .collect();
        with_runtime(|rt| rt.win_post(&window(win)?, &requests))
    })
}
