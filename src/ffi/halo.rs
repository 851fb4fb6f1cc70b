//! The C ABI of the halo exchange (RPN_COMM_xch_halo, RPN_COMM_xch_halon) and of RPN_COMM_limit.

use std::ffi::{c_int, c_void};

use super::{args, call};
use crate::core::halo::HaloCall;
use crate::runtime::{Runtime, with_runtime};

/// Collective over the grid (`npol_row` <= 0: a plain exchange, then below -pe_ny with periodic y
/// the pole flip, see runtime::original_halos; > 0 refused): exchanges the halos of
/// `g(minx:maxx, miny:maxy, nk)`, elements of
/// `n` 4-byte words, with the neighbours on the PE grid: east/west over rows 1..nj, then
/// north/south with the corners. `periodx`, `periody` non-zero: periodic in that direction.
/// The halo beyond a non-periodic outer edge is left as it was. `npol_row` must be 0.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_halo(
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
    n: c_int,
) -> c_int {
    let routine = if n == 1 { "RPN_COMM_xch_halo" } else { "RPN_COMM_xch_halon" };
    call(routine, || {
        let c = HaloCall {
            minx,
            maxx,
            miny,
            maxy,
            ni,
            nj,
            nk,
            halox,
            haloy,
            periodx: periodx != 0,
            periody: periody != 0,
            gni,
            npol_row,
            words: n,
        };
        // SAFETY: the caller's array is g(minx:maxx, miny:maxy, nk) of n-word elements (the
        // routine's contract); the runtime checks the bounds hold the halo before touching it.
        with_runtime(|rt| unsafe { rt.xch_halo_polar(g as usize, &c) })
    })
}

/// RPN_COMM_limit: cuts `gmin..gmax` over `npe` PEs as the original (strict mode): tiles of
/// ceiling(points / npe), the last one what is left (refused when that is empty). Returns PE
/// `my_id`'s `*lmini..*lmaxi` and every PE's `count` and `offset` (from gmin; `npe` each).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_limit(
    my_id: c_int,
    npe: c_int,
    gmin: c_int,
    gmax: c_int,
    lmini: *mut c_int,
    lmaxi: *mut c_int,
    count: *mut c_int,
    offset: *mut c_int,
) -> c_int {
    call("RPN_COMM_limit", || {
        let (lo, hi, counts, offsets) = Runtime::limit(my_id, npe, gmin, gmax)?;
        // SAFETY: out-parameters from the caller: two scalars and two arrays of npe ints (null
        // is skipped).
        unsafe {
            args::put(lmini, lo);
            args::put(lmaxi, hi);
            for (p, (c, o)) in counts.iter().zip(&offsets).enumerate() {
                if !count.is_null() {
                    args::put(count.add(p), *c);
                }
                if !offset.is_null() {
                    args::put(offset.add(p), *o);
                }
            }
        }
        Ok(())
    })
}
