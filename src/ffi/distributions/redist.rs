//! RPN_COMM_grid_redist's and RPN_COMM_grid_redist_n's C entry point
//! (runtime::collectives::redist has the logic).

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use crate::core::CollectiveId;
use crate::error::Error;
use crate::runtime::collectives::redist::RedistArgs;
use crate::runtime::with_runtime;

/// RPN_COMM_grid_redist (`points` 0: `ltok` words per point are already in the x dimensions,
/// gni must be a multiple of it) or RPN_COMM_grid_redist_n (`points` non-zero: zin(ltok,
/// mini:maxi, minj:maxj, nk), zout(ltok, ix0:ixn, jy0:jyn, nz), x in points): every PE's part
/// zin(i0:in, j0:jn, :) of the window ix0:ixn x jy0:jyn of nk levels reassembled on the output
/// PEs (columns outpe_x, rows outpe_y); `zlist(1:nz)` -1 but on those PEs, where it is the level
/// of each plane of zout. 0 on success (the Fortran function returns 1), -1 after the library's
/// line.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_grid_redist(
    zin: *const c_void,
    mini: c_int,
    maxi: c_int,
    i0: c_int,
    in_: c_int,
    minj: c_int,
    maxj: c_int,
    j0: c_int,
    jn: c_int,
    nk: c_int,
    zout: *mut c_void,
    ix0: c_int,
    ixn: c_int,
    jy0: c_int,
    jyn: c_int,
    nz: c_int,
    zlist: *mut c_int,
    gni: c_int,
    gnj: c_int,
    outpe_x: *const c_int,
    noutpe_x: c_int,
    outpe_y: *const c_int,
    noutpe_y: c_int,
    ltok: c_int,
    points: c_int,
) -> c_int {
    let id = if points != 0 { CollectiveId::GridRedistN } else { CollectiveId::GridRedist };
    call(id.name(), || {
        if points == 0 && (ltok < 1 || gni % ltok != 0) {
            return Err(Error::BadArgument(format!("gni = {gni} is not a multiple of ltok = {ltok}")));
        }
        // SAFETY: the lists hold noutpe_x and noutpe_y integers (the caller's contract).
        let (ox, oy) = unsafe { (args::ints(outpe_x, noutpe_x, "outpe_x")?.to_vec(), args::ints(outpe_y, noutpe_y, "outpe_y")?.to_vec()) };
        // SAFETY: zlist holds nz integers, writable.
        let list = unsafe { args::ints(zlist, nz, "zlist") }?;
        let mut levels = list.to_vec();
        let a = RedistArgs {
            zin: [mini, maxi, minj, maxj],
            useful: [i0, in_, j0, jn],
            nk,
            window: [ix0, ixn, jy0, jyn],
            nz,
            gni,
            gnj,
            outpe_x: ox,
            outpe_y: oy,
            ltok: if points != 0 { ltok } else { 1 },
        };
        // SAFETY: the caller's arrays have the shapes in `a`.
        let outcome = with_runtime(|rt| unsafe { rt.grid_redist(id, &a, zin as usize, zout as usize, &mut levels) });
        for (i, v) in levels.iter().enumerate() {
            // SAFETY: i < nz, inside zlist.
            unsafe { args::put(zlist.add(i), *v) };
        }
        outcome
    })
}
