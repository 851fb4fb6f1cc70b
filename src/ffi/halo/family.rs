//! The C ABI of the rest of the halo family: RPN_COMM_xch_halo_8, RPN_COMM_xch_halox,
//! and RPN_COMM_propagate_pilot_circular.

use std::ffi::{c_int, c_void};

use super::super::call;
use super::exchange::halo_call;
use crate::error::Error;
use crate::runtime::with_runtime;

/// RPN_COMM_xch_halo_8: RPN_COMM_xch_halo for elements of 8 bytes (integer*8, real*8).
/// `npol_row` must be 0, as in the original (which prints an error and returns without
/// exchanging); here the call is refused.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_halo_8(
    g: *mut c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    ni: c_int,
    nj: c_int,
    nk: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
    gni: c_int,
    npol_row: c_int,
) -> c_int {
    call("RPN_COMM_xch_halo_8", || {
        let c = halo_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 2);
        let local = match npol_row {
            0 => Ok(()),
            _ => Err(Error::BadArgument(format!("npol_row = {npol_row}: RPN_COMM_xch_halo_8 takes npol_row = 0 only (as the original)"))),
        };
        // Refused on this PE alone when npol_row is not 0: every PE of a model passes the same.
        local?;
        // SAFETY: the caller's array is g(minx:maxx, miny:maxy, nk) of 8-byte elements; the
        // runtime checks the bounds hold the halo before touching it.
        with_runtime(|rt| unsafe { rt.xch_halo_polar(g as usize, &c) })
    })
}

/// RPN_COMM_xch_halox (and, with `n` words per element, RPN_COMM_xch_haloxn): copies the part
/// 1..ni x 1..nj of `g(minx:maxx, miny:maxy, nk)` into `g2(minx2:maxx2, miny2:maxy2, nk)`, then
/// exchanges g2's halos as RPN_COMM_xch_halo (npol_row included). `g` is only read.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_halox(
    g: *const c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    ni: c_int,
    nj: c_int,
    nk: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
    g2: *mut c_void,
    minx2: c_int,
    maxx2: c_int,
    miny2: c_int,
    maxy2: c_int,
    gni: c_int,
    npol_row: c_int,
    n: c_int,
) -> c_int {
    call("RPN_COMM_xch_halox", || {
        let c2 = halo_call([minx2, maxx2, miny2, maxy2], ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, n);
        // SAFETY: the caller's arrays are as described (the routine's contract); the runtime
        // checks both arrays' bounds before reading or writing them.
        with_runtime(|rt| unsafe { rt.xch_halox(g as usize, [minx, maxx, miny, maxy], g2 as usize, &c2) })
    })
}

/// RPN_COMM_propagate_pilot_circular: on the PEs at the edge of the grid (a limited-area
/// domain, not periodic), the halo points next to the pilot zones (`pilx` columns along the
/// west and east edges, `pily` rows along the south and north edges) get the neighbours'
/// values; every other point of `f(minx:maxx, miny:maxy, nk)` (4-byte elements) is left as it
/// was. Collective over the grid.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_propagate_pilot_circular(
    f: *mut c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    lni: c_int,
    lnj: c_int,
    nk: c_int,
    pilx: c_int,
    pily: c_int,
    hx: c_int,
    hy: c_int,
) -> c_int {
    call("RPN_COMM_propagate_pilot_circular", || {
        let c = halo_call([minx, maxx, miny, maxy], lni, lnj, nk, hx, hy, 0, 0, 0, 0, 1);
        // SAFETY: the caller's array is f(minx:maxx, miny:maxy, nk) of 4-byte elements; the
        // runtime checks the bounds hold the halo before touching it.
        with_runtime(|rt| unsafe { rt.propagate_pilot(f as usize, &c, pilx, pily) })
    })
}
