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
pub mod dist;
pub mod gem;
pub mod halo;
pub mod halo_family;
pub mod init_once;
mod requests;
pub mod stop_flush;
mod subarray;

use std::ffi::{c_char, c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::core::{ElementType, Handle, HandleKind, Operator, PostRequest};
use crate::diagnostics;
use crate::error::{Error, Result};
use crate::runtime::{self, CommName, with_runtime, with_windows};

pub use crate::core::Handle as RpncommHandle;

/// Status of a call that succeeded.
pub const RPN_COMM_OK: c_int = 0;
/// Status of a call that was refused or failed (a message on stderr says why).
pub const RPN_COMM_ERROR: c_int = -1;

/// Runs one API call: status 0 on success, -1 (with its message) on error or panic.
fn call(routine: &'static str, f: impl FnOnce() -> Result<()>) -> c_int {
    run_call(routine, runtime::time_routine(routine, true), f)
}

/// `call` for a later step of RPN_COMM_init (of any of its forms) made through an entry point of
/// its own: its time goes to RPN_COMM_init's in the statistics, without a call of its own.
fn call_init_step(routine: &'static str, f: impl FnOnce() -> Result<()>) -> c_int {
    run_call(routine, runtime::time_routine("RPN_COMM_init", false), f)
}

fn run_call(routine: &'static str, timer: Option<runtime::RoutineTimer>, f: impl FnOnce() -> Result<()>) -> c_int {
    let _routine = diagnostics::enter(routine);
    // ends after the error message, which is part of the call
    let _timer = timer;
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
            diagnostics::report(routine, &e);
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

/// Collective over the job: sets this PE's Pex x Pey PE grid and the communicators named after
/// it. In every grid (the whole job, or the grids `rpncomm_gridinit_check` cut it into) its PE 0's
/// `*pex`, `*pey` (what its Userinit chose) become every PE's, returned in `*pex`, `*pey`;
/// another PE's own values must be 0 or the same. Refused on every PE unless Pex*Pey equals the
/// number of PEs of every grid.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_grid(pex: *mut c_int, pey: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        if pex.is_null() || pey.is_null() {
            return Err(Error::BadArgument("null Pex or Pey".into()));
        }
        // SAFETY: non-null in-out parameters from the caller.
        let (x, y) = unsafe { (pex.read_unaligned(), pey.read_unaligned()) };
        let (x, y) = with_runtime(|rt| rt.set_grid(x, y))?;
        // SAFETY: as above.
        unsafe {
            args::put(pex, x);
            args::put(pey, y);
        }
        Ok(())
    })
}

/// Collective over the job: cuts the PE grid into `nblocx` x `nblocy` blocks ('BLOC',
/// 'BLOCMASTER'); each must divide its side of the grid.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bloc(nblocx: c_int, nblocy: c_int) -> c_int {
    call("RPN_COMM_bloc", || with_runtime(|rt| rt.set_blocks(nblocx, nblocy)))
}

/// Leaves the job after a final barrier; later calls are refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_finalize() -> c_int {
    call("RPN_COMM_finalize", runtime::finalize)
}

/// This PE's rank `me` in its grid and its coordinates `me_x`, `me_y` on the Pex x Pey grid.
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

/// Seconds since an arbitrary origin, from a monotonic clock.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_wtime() -> f64 {
    runtime::wtime()
}

/// A communicator handle from its name ('GRID', 'WORLD', 'EW', 'NS', 'BLOC', ...).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm(name: *const c_char, name_len: usize, com: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller, set first to a handle every routine refuses.
    unsafe { args::put(com, Handle::refused(HandleKind::Communicator)) };
    call("RPN_COMM_i_comm", || {
        // SAFETY: Fortran string argument.
        let c = CommName::from_name(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(com, c.handle()) };
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

/// The number of PEs in the communicator named `name`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm_size(name: *const c_char, name_len: usize, size: *mut c_int) -> c_int {
    call("RPN_COMM_size", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        // A PE outside the name's communicators ('BLOCMASTER' off the masters) gets no size,
        // as in the original.
        if let Some(n) = with_runtime(|rt| rt.comm_size(&name))? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(size, n as c_int) };
        }
        Ok(())
    })
}

/// Blocks until every PE of the communicator named `name` has called it.
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
        // SAFETY: the caller's `array` (or NULL) holds `siz` elements and lives as long as the
        // window (API contract).
        let h = with_runtime(|rt| unsafe { rt.win_create(&d, siz, &c, array as usize) })?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(win, h) };
        Ok(())
    })
}

/// Collective: (re)creates the secondary window of `win` with `slots` request slots per PE.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_create_secondary(win: *const Handle, slots: c_int) -> c_int {
    call("RPN_COMM_i_win_create_secondary", || {
        let h = window(win).unwrap_or_default();
        with_runtime(|rt| rt.win_create_secondary(&h, slots))
    })
}

/// Collective: frees the window (refused while it is exposed) and sets `*win` to the null handle.
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

/// Sets `*is_open` to 1 when the window is exposed (open), else 0.
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

/// Sets `*ptr` to this PE's primary (`np` = 1) or secondary (`np` = 2) window memory.
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

/// Sets `*siz` to this PE's number of elements in the window.
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

/// Sets `*siz` to this PE's number of integers in the secondary window.
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

/// Opens (exposes) the window: active mode (fence or group) when `active` != 0, else passive.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_open(win: *const Handle, active: c_int) -> c_int {
    call("RPN_COMM_i_win_open", || with_windows(|t| t.win_open(&window(win)?, active != 0)))
}

/// Closes the window; the operations of the epoch are complete when it returns.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_close(win: *const Handle) -> c_int {
    call("RPN_COMM_i_win_close", || with_windows(|t| t.win_close(&window(win)?)))
}

/// Gets `nelem` elements at `offset` of PE `target`'s window into `larray`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_r(win: *const Handle, larray: *mut c_void, target: c_int, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_get_r", || {
        // SAFETY: the caller's `larray` has room for `nelem` elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_get_r(&window(win)?, larray as usize, target, offset, nelem) })
    })
}

/// Copies `nelem` elements at `offset` of this PE's window into `larray`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_l(win: *const Handle, larray: *mut c_void, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_get_l", || {
        // SAFETY: the caller's `larray` has room for `nelem` elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_get_l(&window(win)?, larray as usize, offset, nelem) })
    })
}

/// Puts `nelem` elements of `larray` at `offset` of PE `target`'s window.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_put_r(win: *const Handle, larray: *const c_void, target: c_int, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_put_r", || {
        // SAFETY: the caller's `larray` holds `nelem` elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_put_r(&window(win)?, larray as usize, target, offset, nelem) })
    })
}

/// Copies `nelem` elements of `larray` into this PE's window at `offset`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_put_l(win: *const Handle, larray: *const c_void, offset: c_int, nelem: c_int) -> c_int {
    call("RPN_COMM_i_win_put_l", || {
        // SAFETY: the caller's `larray` holds `nelem` elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_put_l(&window(win)?, larray as usize, offset, nelem) })
    })
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
        // SAFETY: the caller's `larray` (and `garray` when not NULL) hold `nelem` elements of the
        // window's type (API contract).
        with_windows(|t| unsafe {
            t.win_getacc_r(&window(win)?, larray as usize, garray as usize, before != 0, target, offset, nelem, &op)
        })
    })
}

/// Compare-and-swap on element `offset` of PE `target`'s window (4- or 8-byte integers): the
/// element becomes `*newval` if it equals `*compare`; `*oldval` receives its value from before,
/// as one atomic step. Each buffer holds one element of the window's type.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_cas_r(
    win: *const Handle,
    compare: *const c_void,
    newval: *const c_void,
    oldval: *mut c_void,
    target: c_int,
    offset: c_int,
) -> c_int {
    call("RPN_COMM_i_win_cas_r", || {
        // SAFETY: each buffer holds one element of the window's type (API contract).
        with_windows(|t| unsafe { t.win_cas_r(&window(win)?, compare as usize, newval as usize, oldval as usize, target, offset) })
    })
}

/// Fetch-and-op on element `offset` of PE `target`'s window: the element becomes
/// `element OP *operand`; `*oldval` receives its value from before, as one atomic step. A NULL
/// `oper` handle (all zero) uses the window's default operator.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_fetchop_r(
    win: *const Handle,
    operand: *const c_void,
    oldval: *mut c_void,
    target: c_int,
    offset: c_int,
    oper: *const Handle,
) -> c_int {
    call("RPN_COMM_i_win_fetchop_r", || {
        // SAFETY: operator handle passed by reference (null means the window's default).
        let op = if oper.is_null() { Handle::NULL } else { unsafe { args::handle(oper, HandleKind::Operator) }? };
        // SAFETY: operand and oldval hold one element of the window's type (API contract).
        with_windows(|t| unsafe { t.win_fetchop_r(&window(win)?, operand as usize, oldval as usize, target, offset, &op) })
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

/// Sets the window's default operator (the one of accumulates given a NULL operator).
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
        let requests: Vec<PostRequest> =
            (0..pe.len()).map(|i| PostRequest { pe: pe[i], offseti: oi[i], nelemi: ni[i], offseto: oo[i], nelemo: no[i] }).collect();
        with_windows(|t| t.win_post(&window(win)?, &requests))
    })
}
