//! RPN_COMM_fast_dist's C entry point (runtime::collectives::dist has the logic).

use std::ffi::{c_int, c_void};

use super::super::call;
use super::super::collectives::dist::dist_args;
use crate::runtime::with_runtime;

/// RPN_COMM_fast_dist: grid PE 0's garr(size, gmini:gmaxi, gminj:gmaxj, nk) (an nig x njg field)
/// cut into every PE's larr(size, mini:maxi, minj:maxj, nk); a periodic axis takes its halo from
/// garr's (at least as wide as larr's), a non-periodic edge gets none.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_fast_dist(
    garr: *const c_void,
    gmini: c_int,
    gmaxi: c_int,
    gminj: c_int,
    gmaxj: c_int,
    nig: c_int,
    njg: c_int,
    nk: c_int,
    ghalox: c_int,
    ghaloy: c_int,
    size: c_int,
    larr: *mut c_void,
    mini: c_int,
    maxi: c_int,
    minj: c_int,
    maxj: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
) -> c_int {
    call("RPN_COMM_fast_dist", || {
        let a = dist_args(
            [gmini, gmaxi, gminj, gmaxj],
            nig,
            njg,
            nk,
            [ghalox, ghaloy],
            size,
            [mini, maxi, minj, maxj],
            [halox, haloy],
            [periodx, periody],
        )?;
        // SAFETY: the caller's arrays have the shapes in `a` (garr read on grid PE 0 only).
        with_runtime(|rt| unsafe { rt.fast_dist(garr as usize, larr as usize, &a) })
    })
}
