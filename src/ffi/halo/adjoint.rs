//! The C ABI of the adjoint of the halo exchange: RPN_COMM_adj_halo8, RPN_COMM_adj_halo4 and
//! RPN_COMM_adj_halo.

use std::ffi::{c_int, c_void};

use super::super::call;
use super::exchange::halo_call;
use crate::runtime::with_runtime;

/// RPN_COMM_adj_halo8 (`which` 8, real*8), RPN_COMM_adj_halo4 (`which` 4, real*4) and
/// RPN_COMM_adj_halo (`which` 0, real*4 as the original sums them): the adjoint of RPN_COMM_xch_halo on `g(minx:maxx, miny:maxy, nk)`. Every halo point's
/// value is added into the part of the PE that owns the point (periodic directions wrap, corners
/// included), with the original's order of the sums; the halos keep their values, but for the
/// points the original's passes also add into (the x halos of the rows next to the north and
/// south edges of the part, the y halos of the columns next to its east and west edges).
/// Collective over the grid, neighbours only; `gni` is not used; `npol_row` > 0 (the original's
/// semi-Lagrangian polar path) is refused. Refused, nothing written, on the PEs whose arguments
/// or whose neighbours' disagree.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_adj_halo(
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
    which: c_int,
) -> c_int {
    let (name, n) = match which {
        8 => ("RPN_COMM_adj_halo8", 2),
        4 => ("RPN_COMM_adj_halo4", 1),
        _ => ("RPN_COMM_adj_halo", 1),
    };
    call(name, || {
        let c = halo_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, n);
        // SAFETY: the caller's array is g(minx:maxx, miny:maxy, nk) of reals of the kind (the routine's
        // contract); the runtime checks the bounds hold the halo before touching it.
        with_runtime(|rt| unsafe { rt.adj_halo(g as usize, &c) })
    })
}
