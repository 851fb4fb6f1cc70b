//! C ABI of the request-based operations: `rpncomm_win_rput_r`, `_rget_r`,
//! `_rgetacc_r` start an operation and return its request; `rpncomm_win_wait` / `_test`
//! complete one request (and set it to the null handle), `rpncomm_win_flush` / `_flush_all`
//! complete every operation of this PE on a window (to one target, or to all) in a passive epoch.

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use super::window;
use crate::core::{Handle, HandleKind};
use crate::error::{Error, Result};
use crate::runtime::with_windows;

/// Stores the request of a started operation (the null handle when it was refused).
///
/// # Safety
/// `req` is null (skipped) or writable for one handle.
unsafe fn started(req: *mut Handle, made: Result<Handle>) -> Result<()> {
    // SAFETY: the caller's contract.
    unsafe { args::put(req, *made.as_ref().unwrap_or(&Handle::NULL)) };
    made.map(|_| ())
}

/// Starts a put of `nelem` elements from `larray` at `offset` of PE `target`'s window; `*req`
/// receives its request. `larray` must stay unchanged until the request completes.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_rput_r(
    win: *const Handle,
    larray: *const c_void,
    target: c_int,
    offset: c_int,
    nelem: c_int,
    req: *mut Handle,
) -> c_int {
    call("RPN_COMM_i_win_rput_r", || {
        // SAFETY: the caller's `larray` holds `nelem` elements of the window's type until the
        // request completes (API contract).
        let made = with_windows(|t| unsafe { t.win_rput_r(&window(win)?, larray as usize, target, offset, nelem) });
        // SAFETY: out-parameter from the caller.
        unsafe { started(req, made) }
    })
}

/// Starts a get of `nelem` elements at `offset` of PE `target`'s window into `larray`; `*req`
/// receives its request. `larray` holds the values once the request completes.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_rget_r(
    win: *const Handle,
    larray: *mut c_void,
    target: c_int,
    offset: c_int,
    nelem: c_int,
    req: *mut Handle,
) -> c_int {
    call("RPN_COMM_i_win_rget_r", || {
        // SAFETY: the caller's `larray` has room for `nelem` elements until the request completes.
        let made = with_windows(|t| unsafe { t.win_rget_r(&window(win)?, larray as usize, target, offset, nelem) });
        // SAFETY: out-parameter from the caller.
        unsafe { started(req, made) }
    })
}

/// Starts `rpncomm_win_getacc_r`'s accumulate; `*req` receives its request.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_win_rgetacc_r(
    win: *const Handle,
    larray: *const c_void,
    garray: *mut c_void,
    before: c_int,
    target: c_int,
    offset: c_int,
    nelem: c_int,
    oper: *const Handle,
    req: *mut Handle,
) -> c_int {
    call("RPN_COMM_i_win_rgetacc_r", || {
        // SAFETY: operator handle passed by reference (null means the window's default).
        let op = if oper.is_null() { Handle::NULL } else { unsafe { args::handle(oper, HandleKind::Operator) }? };
        // SAFETY: `larray` (and `garray` when not NULL) hold `nelem` elements of the window's
        // type until the request completes (API contract).
        let made = with_windows(|t| unsafe {
            t.win_rgetacc_r(&window(win)?, larray as usize, garray as usize, before != 0, target, offset, nelem, &op)
        });
        // SAFETY: out-parameter from the caller.
        unsafe { started(req, made) }
    })
}

/// Reads the caller's request (refused: a null pointer).
///
/// # Safety
/// `req` is null or readable for one handle.
unsafe fn request(req: *const Handle) -> Result<Handle> {
    // SAFETY: the caller's contract.
    unsafe { args::handle(req, HandleKind::Request) }
}

/// Whether a completion's outcome used the request up (it is then set to the null handle): it
/// did unless the handle designated no live request or the call was refused before the request
/// was looked at (after RPN_COMM_finalize).
fn used_up(outcome: &Result<bool>) -> bool {
    match outcome {
        Ok(done) => *done,
        Err(Error::BadRequest(_) | Error::CallOrder(_)) => false,
        Err(_) => true,
    }
}

/// Completes the operation of `*req` (its data moved) and releases the request, which becomes
/// the null handle. Refused: a null, stale (already completed) or never-made request.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_wait(req: *mut Handle) -> c_int {
    call("RPN_COMM_i_win_wait", || {
        // SAFETY: in-out parameter from the caller.
        let h = unsafe { request(req) }?;
        let outcome = with_windows(|t| t.req_wait(&h).map(|()| true));
        if used_up(&outcome) {
            // SAFETY: as above.
            unsafe { args::put(req, Handle::NULL) };
        }
        outcome.map(|_| ())
    })
}

/// `*flag` = 1 when the operation of `*req` is complete (the request is then released and
/// becomes the null handle), else 0; never waits for another PE.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_test(req: *mut Handle, flag: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(flag, 0) };
    call("RPN_COMM_i_win_test_req", || {
        // SAFETY: in-out parameter from the caller.
        let h = unsafe { request(req) }?;
        let outcome = with_windows(|t| t.req_test(&h));
        if used_up(&outcome) {
            // SAFETY: in-out and out-parameters from the caller.
            unsafe {
                args::put(req, Handle::NULL);
                args::put(flag, 1);
            }
        }
        outcome.map(|_| ())
    })
}

/// Completes every request-based operation of this PE (all threads) on the window to PE
/// `target`; the window must be open in passive mode.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_flush(win: *const Handle, target: c_int) -> c_int {
    call("RPN_COMM_i_win_flush", || with_windows(|t| t.win_flush(&window(win)?, Some(target))))
}

/// Completes every request-based operation of this PE (all threads) on the window; the
/// window must be open in passive mode.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_flush_all(win: *const Handle) -> c_int {
    call("RPN_COMM_i_win_flush_all", || with_windows(|t| t.win_flush(&window(win)?, None)))
}
