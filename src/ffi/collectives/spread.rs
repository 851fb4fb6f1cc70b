//! The C ABI of RPN_COMM_spread_context and RPN_COMM_spread (the Fortran functions of
//! fortran/rpn_comm_spread.F90 call them; the Fortran side allocates `dest`).

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::core::{Handle, HandleKind};
use crate::runtime::with_runtime;

/// RPN_COMM_spread_context: a context over communicator `com` (a Fortran string of `com_len`
/// bytes, RPN_COMM's names) with root `rootpe`: point i of the tables the root spreads goes to
/// the PE of rank `pe[i]` (negative: to none). `pe` is read on the root only (`npts` points).
/// Collective over `com`. `*contxt` receives the context, or the null handle when refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_spread_context(
    contxt: *mut Handle,
    com: *const c_char,
    com_len: usize,
    rootpe: c_int,
    pe: *const c_int,
    npts: c_int,
) -> c_int {
    // SAFETY: the caller passes its context variable by reference (or null: nothing written).
    unsafe { args::put(contxt, Handle::NULL) };
    call("RPN_COMM_spread_context", || {
        // SAFETY: a Fortran string argument.
        let c = unsafe { args::name(com, com_len) }?;
        // SAFETY: on the root `pe` holds npts integers (the routine's contract).
        let h = with_runtime(|rt| unsafe { rt.spread_context(&c, rootpe, pe, npts) })?;
        // SAFETY: as above.
        unsafe { args::put(contxt, h) };
        Ok(())
    })
}

/// The number of points this PE receives from the spreads of `contxt` (local): what
/// `dest(ndata, max(1, npoints))` is allocated for.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_spread_points(contxt: *const Handle, npoints: *mut c_int) -> c_int {
    call("RPN_COMM_spread", || {
        // SAFETY: the caller passes its context by reference.
        let h = unsafe { args::handle(contxt, HandleKind::Context) }?;
        let n = with_runtime(|rt| rt.spread_points(&h))?;
        // SAFETY: the caller's integer, by reference.
        unsafe { args::put(npoints, n as c_int) };
        Ok(())
    })
}

/// RPN_COMM_spread: the root's table `source(npts, ndata)` (real*4, read on the root only) is
/// spread as the context says; this PE's points land in `dest(dest_rows, dest_cols)`, which must
/// be `dest(ndata, max(1, its points))` as the Fortran side allocates it, point after point.
/// Nothing is written in the unused column of a PE that receives no point. `*npoints` receives the number
/// of points this PE received. Collective over the context's communicator.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_spread(
    contxt: *const Handle,
    source: *const c_void,
    npts: c_int,
    ndata: c_int,
    dest: *mut c_void,
    dest_rows: c_int,
    dest_cols: c_int,
    npoints: *mut c_int,
) -> c_int {
    call("RPN_COMM_spread", || {
        // SAFETY: the caller passes its context by reference.
        let h = unsafe { args::handle(contxt, HandleKind::Context) }?;
        // SAFETY: the routine's contract: the root's table holds npts x ndata reals; dest holds
        // dest_rows x dest_cols reals (the runtime checks its shape against the context before
        // writing).
        let n = with_runtime(|rt| unsafe { rt.spread(&h, source as usize, npts, ndata, dest as usize, [dest_rows, dest_cols]) })?;
        // SAFETY: the caller's integer, by reference.
        unsafe { args::put(npoints, n as c_int) };
        Ok(())
    })
}
