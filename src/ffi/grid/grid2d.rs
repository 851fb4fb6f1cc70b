//! The C ABI of the 2D grid descriptors: RPN_COMM_create_2dgrid and RPN_COMM_get_2dgrid.

use std::ffi::c_int;

use super::super::{args, call};
use crate::error::Error;
use crate::runtime::with_runtime;

/// RPN_COMM_create_2dgrid: `*grid_id` receives the id of a descriptor of a `gni` x `gnj` field
/// stored `mini:maxi` x `minj:maxj` on every PE of the grid (-1 and a message when refused).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_create_2dgrid(
    gni: c_int,
    gnj: c_int,
    mini: c_int,
    maxi: c_int,
    minj: c_int,
    maxj: c_int,
    grid_id: *mut c_int,
) -> c_int {
    call("RPN_COMM_create_2dgrid", || {
        if grid_id.is_null() {
            return Err(Error::NullBuffer { what: "grid_id", nelem: 1 });
        }
        let id = with_runtime(|rt| rt.create_2dgrid([gni, gnj, mini, maxi, minj, maxj]));
        // SAFETY: out-parameter from the caller (checked not null above).
        unsafe { args::put(grid_id, *id.as_ref().unwrap_or(&-1)) };
        id.map(|_| ())
    })
}

/// RPN_COMM_get_2dgrid: `dims` (6 integers) receives gni, gnj, mini, maxi, minj, maxj of the
/// descriptor `grid_id`; `starti`, `counti` (`dim_i` integers) and `startj`, `countj` (`dim_j`)
/// its tiles along x and y (the first npex and npey). Nothing is written when refused.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_get_2dgrid(
    grid_id: c_int,
    dim_i: c_int,
    dim_j: c_int,
    dims: *mut c_int,
    starti: *mut c_int,
    counti: *mut c_int,
    startj: *mut c_int,
    countj: *mut c_int,
) -> c_int {
    call("RPN_COMM_get_2dgrid", || {
        if [dims, starti, counti, startj, countj].iter().any(|p| p.is_null()) {
            return Err(Error::NullBuffer { what: "get_2dgrid's arrays", nelem: 6 });
        }
        let g = with_runtime(|rt| rt.get_2dgrid(grid_id, dim_i, dim_j))?;
        let fill = |p: *mut c_int, v: &[i32]| {
            for (i, x) in v.iter().enumerate() {
                // SAFETY: the caller's array holds dim_i (dim_j) integers, at least v.len() (checked by get_2dgrid).
                unsafe { args::put(p.add(i), *x) };
            }
        };
        fill(dims, &g.dims);
        fill(starti, &g.start_i);
        fill(counti, &g.count_i);
        fill(startj, &g.start_j);
        fill(countj, &g.count_j);
        Ok(())
    })
}
