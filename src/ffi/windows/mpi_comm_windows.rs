//! The C ABI of the windows over a caller's MPI communicator: the original's easy windows
//! (RPN_COMM_ezwin_create, _id, _ptr, _size, _fetch_add, _get, _put) and shared-memory windows
//! (RPN_COMM_win_allocate_shared). Windows of this library (RPN_COMM_i_win_* take their
//! handles); MPI build only, as the communicator is an MPI one.

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use super::window;
use crate::core::{Handle, HandleKind, Operator};
use crate::runtime::p2p::handle_conversions;
use crate::runtime::{with_runtime, with_windows};

/// Collective over the Fortran MPI communicator `comm`: a window of `sz` integers on this PE,
/// open for passive access from then on; `*win` its handle (the null handle when refused).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_create(sz: c_int, comm: c_int, win: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(win, Handle::NULL) };
    call("RPN_COMM_ezwin_create", || {
        let h = with_runtime(|rt| rt.ezwin_create(sz, comm))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(win, h) };
        Ok(())
    })
}

/// `*id` = MPI_WIN_NULL's Fortran handle: the window is the library's and has no MPI window of
/// its own to hand out (refused with a line; -1 on shared memory, which has no MPI handles).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_id(win: *const Handle, id: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(id, -1) };
    call("RPN_COMM_ezwin_id", || {
        let null = handle_conversions::win_null_fortran()?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(id, null) };
        let h = window(win)?;
        if !with_runtime(|rt| Ok(rt.win_valid(&h)))? {
            return Err(crate::error::Error::InvalidHandle { what: "window" });
        }
        Err(crate::error::Error::BadArgument(
            "the window is the library's: it has no MPI window (MPI_WIN_NULL); use RPN_COMM_ezwin_get, _put, _fetch_add or RPN_COMM_i_win_*".into(),
        ))
    })
}

/// `*ptr` = this PE's part of the window (NULL when refused).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_ptr(win: *const Handle, ptr: *mut *mut c_void) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(ptr, std::ptr::null_mut()) };
    call("RPN_COMM_ezwin_ptr", || {
        let h = window(win)?;
        let p = with_runtime(|rt| rt.win_get_ptr(&h, 1))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(ptr, p as *mut c_void) };
        Ok(())
    })
}

/// `*siz` = this PE's number of integers in the window (-1 when refused).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_size(win: *const Handle, siz: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(siz, -1) };
    call("RPN_COMM_ezwin_size", || {
        let h = window(win)?;
        let n = with_runtime(|rt| rt.win_get_size(&h))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(siz, n as c_int) };
        Ok(())
    })
}

/// Adds `add` to element `offset` of PE `rank`'s part of the window, atomically; `*fetch`
/// receives the element's value from before.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_fetch_add(win: *const Handle, add: c_int, fetch: *mut c_int, rank: c_int, offset: c_int) -> c_int {
    call("RPN_COMM_ezwin_fetch_add", || {
        let h = window(win)?;
        let sum = Handle::encode(HandleKind::Operator, Operator::Sum.code());
        let operand = add;
        // SAFETY: `operand` is one integer on our stack; `fetch` is the caller's integer (a
        // null one is refused by the window's checks).
        with_windows(|w| unsafe { w.win_fetchop_r(&h, &operand as *const c_int as usize, fetch as usize, rank, offset, &sum) })
    })
}

/// Reads `nw` integers at `offset` of PE `rank`'s part of the window into `pz`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_get(win: *const Handle, pz: *mut c_void, nw: c_int, rank: c_int, offset: c_int) -> c_int {
    call("RPN_COMM_ezwin_get", || {
        let h = window(win)?;
        // SAFETY: the caller's `pz` has room for `nw` integers (API contract); passive mode:
        // complete on return.
        with_windows(|w| unsafe { w.win_get_r(&h, pz as usize, rank, offset, nw) })
    })
}

/// Writes `nw` integers of `pz` at `offset` of PE `rank`'s part of the window.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ezwin_put(win: *const Handle, pz: *const c_void, nw: c_int, rank: c_int, offset: c_int) -> c_int {
    call("RPN_COMM_ezwin_put", || {
        let h = window(win)?;
        // SAFETY: the caller's `pz` holds `nw` integers (API contract); passive mode: complete
        // on return.
        with_windows(|w| unsafe { w.win_put_r(&h, pz as usize, rank, offset, nw) })
    })
}

/// Collective over the Fortran MPI communicator `comm` (PEs of one node): `*baseptr` = the
/// address in this process of an area of `msize` integers (rank 0's `msize`) that every PE of
/// `comm` addresses; `*win` = MPI_WIN_NULL's Fortran handle (the memory is a window of the
/// library's, kept until RPN_COMM_finalize). Refused: NULL, -1.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_allocate_shared(comm: c_int, msize: i64, win: *mut c_int, baseptr: *mut *mut c_void) -> c_int {
    // SAFETY: out-parameters from the caller.
    unsafe {
        args::put(baseptr, std::ptr::null_mut());
        args::put(win, -1);
    }
    call("RPN_COMM_win_allocate_shared", || {
        let base = with_runtime(|rt| rt.win_allocate_shared(comm, msize))?;
        let null = handle_conversions::win_null_fortran()?;
        // SAFETY: out-parameters from the caller.
        unsafe {
            args::put(baseptr, base as *mut c_void);
            args::put(win, null);
        }
        Ok(())
    })
}

/// The original's RPNCOMM_Shmget (its C name; Fortran callers bind it as `rpn_comm_shmget`):
/// collective over the Fortran MPI communicator `comm`, whose PEs share a node: the address in
/// this process of `shm_size` bytes that every PE of `comm` addresses (rank 0's), NULL when
/// refused. The memory is a window of the library's, as RPN_COMM_win_allocate_shared's.
#[unsafe(export_name = "RPNCOMM_Shmget")]
pub extern "C" fn rpncomm_shmget_c(comm: c_int, shm_size: u32) -> *mut c_void {
    let mut base = std::ptr::null_mut();
    call("RPNCOMM_Shmget", || {
        let integers = (i64::from(shm_size) + 3) / 4;
        base = with_runtime(|rt| rt.win_allocate_shared(comm, integers))? as *mut c_void;
        Ok(())
    });
    base
}
