//! C ABI of the sub-array (3-D box) operations. Shapes, starts and extents are arrays of 3
//! ints (dimension 1 first, Fortran order); starts are 0-based.

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use super::window;
use crate::core::subarray::BoxArgs;
use crate::core::{Handle, HandleKind};
use crate::error::Result;
use crate::runtime::{BoxOp, with_windows};

/// Reads 3 ints (a shape, a start or the box's extents).
///
/// # Safety
/// `p` is null (refused) or readable for 3 ints.
unsafe fn three(p: *const c_int, what: &'static str) -> Result<[i64; 3]> {
    // SAFETY: the caller's contract: 3 ints.
    let s = unsafe { args::ints(p, 3, what) }?;
    Ok([s[0] as i64, s[1] as i64, s[2] as i64])
}

/// # Safety
/// Each pointer is null (refused) or readable for 3 ints.
unsafe fn box_op(
    lshape: *const c_int,
    lstart: *const c_int,
    count: *const c_int,
    target: c_int,
    tshape: *const c_int,
    tstart: *const c_int,
) -> Result<BoxOp> {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        Ok(BoxOp {
            local: BoxArgs { shape: three(lshape, "lshape")?, start: three(lstart, "lstart")? },
            count: three(count, "count")?,
            target,
            remote: BoxArgs { shape: three(tshape, "tshape")?, start: three(tstart, "tstart")? },
        })
    }
}

/// Puts the box of `count` elements at `lstart` of the local array `larray` (shape `lshape`)
/// at `tstart` of PE `target`'s window seen as an array of shape `tshape`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_put_r_box(
    win: *const Handle,
    larray: *const c_void,
    lshape: *const c_int,
    lstart: *const c_int,
    count: *const c_int,
    target: c_int,
    tshape: *const c_int,
    tstart: *const c_int,
) -> c_int {
    call("RPN_COMM_i_win_put_r_box", || {
        // SAFETY: the geometry arguments are 3 ints each (API contract).
        let b = unsafe { box_op(lshape, lstart, count, target, tshape, tstart) }?;
        // SAFETY: `larray` holds the local shape's elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_put_r_box(&window(win)?, larray as usize, &b) })
    })
}

/// Gets the box at `tstart` of PE `target`'s window (seen with shape `tshape`) into the box
/// of `count` elements at `lstart` of `larray` (shape `lshape`).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_win_get_r_box(
    win: *const Handle,
    larray: *mut c_void,
    lshape: *const c_int,
    lstart: *const c_int,
    count: *const c_int,
    target: c_int,
    tshape: *const c_int,
    tstart: *const c_int,
) -> c_int {
    call("RPN_COMM_i_win_get_r_box", || {
        // SAFETY: the geometry arguments are 3 ints each (API contract).
        let b = unsafe { box_op(lshape, lstart, count, target, tshape, tstart) }?;
        // SAFETY: `larray` holds the local shape's elements of the window's type (API contract).
        with_windows(|t| unsafe { t.win_get_r_box(&window(win)?, larray as usize, &b) })
    })
}

/// Element-wise `target box = target box OP local box`; `garray` (when not NULL, shape
/// `lshape`) receives the target's values from before (`before` != 0) or after the update at
/// the box's place. A NULL `oper` uses the window's default operator.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_win_getacc_r_box(
    win: *const Handle,
    larray: *const c_void,
    garray: *mut c_void,
    before: c_int,
    lshape: *const c_int,
    lstart: *const c_int,
    count: *const c_int,
    target: c_int,
    tshape: *const c_int,
    tstart: *const c_int,
    oper: *const Handle,
) -> c_int {
    call("RPN_COMM_i_win_getacc_r_box", || {
        // SAFETY: operator handle passed by reference (null means the window's default).
        let op = if oper.is_null() { Handle::NULL } else { unsafe { args::handle(oper, HandleKind::Operator) }? };
        // SAFETY: the geometry arguments are 3 ints each (API contract).
        let b = unsafe { box_op(lshape, lstart, count, target, tshape, tstart) }?;
        // SAFETY: `larray` (and `garray` when not NULL) hold the local shape's elements of the
        // window's type (API contract).
        with_windows(|t| unsafe { t.win_getacc_r_box(&window(win)?, larray as usize, garray as usize, before != 0, &b, &op) })
    })
}
