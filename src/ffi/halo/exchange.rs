//! The C ABI of the halo exchange (RPN_COMM_xch_halo, RPN_COMM_xch_halon, lists of fields
//! exchanged together, blocking or split in a start and a finish).

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use crate::core::halo::HaloCall;
use crate::runtime::with_runtime;

/// The call of an exchange as the caller gave it.
#[allow(clippy::too_many_arguments)]
pub(super) fn halo_call(
    bounds: [c_int; 4],
    ni: c_int,
    nj: c_int,
    nk: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
    gni: c_int,
    npol_row: c_int,
    words: c_int,
) -> HaloCall {
    let [minx, maxx, miny, maxy] = bounds;
    HaloCall { minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx: periodx != 0, periody: periody != 0, gni, npol_row, words }
}

/// Collective over the grid (`npol_row` <= 0: a plain exchange, then below -pe_ny with periodic y
/// the pole flip, see runtime::halo::family; > 0 refused): exchanges the halos of
/// `g(minx:maxx, miny:maxy, nk)`, elements of
/// `n` 4-byte words, with the neighbours on the PE grid: east/west over rows 1..nj, then
/// north/south with the corners. `periodx`, `periody` non-zero: periodic in that direction.
/// The halo beyond a non-periodic outer edge is left as it was.
/// Neighbours only: one message to each (corners included), whose header the neighbour checks
/// against its own arguments; refused (nothing written) on the PEs that find a disagreement.
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
        let c = halo_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, n);
        // SAFETY: the caller's array is g(minx:maxx, miny:maxy, nk) of n-word elements (the
        // routine's contract); the runtime checks the bounds hold the halo before touching it.
        with_runtime(|rt| unsafe { rt.xch_halo_polar(g as usize, &c) })
    })
}

/// RPN_COMM_xch_halo_list_new: a new, empty list of fields to exchange together, all on the
/// grid and halo these arguments give (as RPN_COMM_xch_halo's); `*list` receives its handle.
/// Local (no communication).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_halo_list_new(
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    ni: c_int,
    nj: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
    gni: c_int,
    npol_row: c_int,
    list: *mut c_int,
) -> c_int {
    call("RPN_COMM_xch_halo_list_new", || {
        let grid = halo_call([minx, maxx, miny, maxy], ni, nj, 1, halox, haloy, periodx, periody, gni, npol_row, 1);
        let handle = with_runtime(|rt| rt.halo_list_new(grid))?;
        // SAFETY: the caller's integer, by reference (null is skipped).
        unsafe { args::put(list, handle) };
        Ok(())
    })
}

/// RPN_COMM_xch_halo_list_add: adds the array `g(minx:maxx, miny:maxy, nk)` of elements of `n`
/// 4-byte words to the list (local). The array must stay where it is while the list is
/// exchanged with it.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_xch_halo_list_add(list: c_int, g: *mut c_void, nk: c_int, n: c_int) -> c_int {
    call("RPN_COMM_xch_halo_list_add", || with_runtime(|rt| rt.halo_list_add(list, g as usize, nk, n)))
}

/// RPN_COMM_xch_halo_list: exchanges the halos of every field of the list, one message per
/// neighbour for all of them (collective over the grid, neighbours only).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_xch_halo_list(list: c_int) -> c_int {
    // SAFETY: the arrays added are the caller's, as it described them (the routine's contract).
    call("RPN_COMM_xch_halo_list", || with_runtime(|rt| unsafe { rt.xch_halo_list(list) }))
}

/// RPN_COMM_xch_halo_start: sends the list's faces to the neighbours and returns; the caller
/// may compute on the interior, but neither write the faces nor touch the halos, until
/// RPN_COMM_xch_halo_finish with the same list fills them.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_xch_halo_start(list: c_int) -> c_int {
    // SAFETY: the arrays added are the caller's until the finish (the routine's contract).
    call("RPN_COMM_xch_halo_start", || with_runtime(|rt| unsafe { rt.xch_halo_start(list) }))
}

/// RPN_COMM_xch_halo_finish: waits for the neighbours' faces of the list's exchange and fills
/// its halos.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_xch_halo_finish(list: c_int) -> c_int {
    call("RPN_COMM_xch_halo_finish", || with_runtime(|rt| rt.xch_halo_finish(list)))
}

/// RPN_COMM_xch_halo_list_free: forgets the list (an exchange of it in flight is finished first).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_xch_halo_list_free(list: c_int) -> c_int {
    call("RPN_COMM_xch_halo_list_free", || with_runtime(|rt| rt.halo_list_free(list)))
}
