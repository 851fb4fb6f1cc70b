//! The C ABI of the window calls (RPN_COMM_i_win_*): creation, queries, the epochs and the
//! operations.

use std::ffi::{c_int, c_void};

use super::super::{RPN_COMM_ERROR, RPN_COMM_OK, args, call};
use super::window;
use crate::core::{Handle, HandleKind, PostRequest};
use crate::runtime::{with_runtime, with_windows};

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

/// Element-wise `target = target OP larray`, without the values back (the original's
/// RPN_COMM_i_win_acc_r); a NULL `oper` handle (all zero) uses the window's default operator.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_acc_r(
    win: *const Handle,
    larray: *const c_void,
    target: c_int,
    offset: c_int,
    nelem: c_int,
    oper: *const Handle,
) -> c_int {
    call("RPN_COMM_i_win_acc_r", || {
        // SAFETY: operator handle passed by reference (null means the window's default).
        let op = if oper.is_null() { Handle::NULL } else { unsafe { args::handle(oper, HandleKind::Operator) }? };
        // SAFETY: the caller's `larray` holds `nelem` elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_acc_r(&window(win)?, larray as usize, target, offset, nelem, &op) })
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
