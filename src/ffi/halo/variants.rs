//! The C ABI of the original's halo variants: RPN_COMM_xch_haloew (east/west only, over some
//! rows), RPN_COMM_xch_halons (north/south only, the x halos travelling with the rows),
//! RPN_COMM_haloflip, RPN_COMM_adj_halox, RPN_COMM_xch_halosl, RPN_COMM_propagate_boundary
//! (and _circular) and RPN_COMM_swapns.
//!
//! The two one-direction exchanges are RPN_COMM_xch_halo's exchange of a relabelled array: the
//! numbering of the same memory is shifted so that the rows (columns) to exchange are the part
//! and the other direction has no halo. No copy, no other channel: the neighbours of the other
//! direction get a header only.

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use super::exchange::halo_call;
use crate::core::halo::HaloCall;
use crate::core::halo_family::Pole;
use crate::error::Error;
use crate::runtime::with_runtime;

/// RPN_COMM_xch_haloew as the plain exchange sees it: rows jmin..jmax renumbered 1..jmax-jmin+1
/// (the same memory: the bounds move with them), no y halo.
#[allow(clippy::too_many_arguments)]
pub(super) fn haloew_call(
    bounds: [c_int; 4],
    ni: c_int,
    jmin: c_int,
    jmax: c_int,
    nk: c_int,
    halox: c_int,
    periodx: c_int,
    periody: c_int,
) -> Result<HaloCall, Error> {
    let [minx, maxx, miny, maxy] = bounds;
    if jmin < miny || jmax > maxy || jmax < jmin {
        return Err(Error::BadArgument(format!("jmin:jmax = {jmin}:{jmax} is not a range of rows of miny:maxy = {miny}:{maxy}")));
    }
    let shift = jmin - 1;
    Ok(halo_call([minx, maxx, miny - shift, maxy - shift], ni, jmax - jmin + 1, nk, halox, 0, periodx, periody, 0, 0, 1))
}

/// RPN_COMM_xch_halons as the plain exchange sees it: columns 1-halox..ni+halox renumbered
/// 1..ni+2*halox (the same memory), no x halo.
#[allow(clippy::too_many_arguments)]
pub(super) fn halons_call(
    bounds: [c_int; 4],
    ni: c_int,
    nj: c_int,
    nk: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
) -> Result<HaloCall, Error> {
    let [minx, maxx, miny, maxy] = bounds;
    if halox < 0 || minx > 1 - halox || maxx < ni + halox {
        return Err(Error::BadArgument(format!(
            "minx:maxx = {minx}:{maxx} cannot hold ni = {ni} with halox = {halox} (needs {}:{} at least)",
            1 - halox,
            ni + halox
        )));
    }
    Ok(halo_call([minx + halox, maxx + halox, miny, maxy], ni + 2 * halox, nj, nk, 0, haloy, periodx, periody, 0, 0, 1))
}

/// RPN_COMM_xch_haloew: the east/west halos (`halox` wide) of rows `jmin..jmax` of
/// `g(minx:maxx, miny:maxy, nk)` (4-byte elements) from the neighbours of this PE's row of the
/// grid, wrapping with `periodx`; nothing else is written (`haloy`, `periody` are not used).
/// Collective over the grid, neighbours only.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_haloew(
    g: *mut c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    ni: c_int,
    jmin: c_int,
    jmax: c_int,
    nk: c_int,
    halox: c_int,
    haloy: c_int,
    periodx: c_int,
    periody: c_int,
) -> c_int {
    let _ = haloy;
    call("RPN_COMM_xch_haloew", || {
        let c = haloew_call([minx, maxx, miny, maxy], ni, jmin, jmax, nk, halox, periodx, periody)?;
        // SAFETY: the caller's array is g(minx:maxx, miny:maxy, nk) of 4-byte elements; the
        // relabelled call describes the same memory, and the runtime checks its bounds.
        with_runtime(|rt| unsafe { rt.xch_halo(g as usize, &c) })
    })
}

/// RPN_COMM_xch_halons: the north/south halos (`haloy` rows) of `g(minx:maxx, miny:maxy, nk)`
/// (4-byte elements) over columns 1-halox..ni+halox (the x halos travel as they are: no corner
/// from a diagonal neighbour), wrapping with `periody`. Collective over the grid, neighbours only.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_halons(
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
) -> c_int {
    call("RPN_COMM_xch_halons", || {
        let c = halons_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, periodx, periody)?;
        // SAFETY: as rpncomm_xch_haloew.
        with_runtime(|rt| unsafe { rt.xch_halo(g as usize, &c) })
    })
}

/// RPN_COMM_haloflip: the pole flip alone on `g(minx:maxx, miny:maxy, nk)` (4-byte elements):
/// on the last row of PEs the halo rows nj+1..nj+haloy, on the first the rows 0..1-haloy, get
/// the rows next to the pole of the columns half of `|ggni|` away, mirrored (a single row of
/// PEs: the north halo only). Collective over each pole row; other rows do nothing.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_haloflip(
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
    ggni: c_int,
) -> c_int {
    call("RPN_COMM_haloflip", || {
        let c = halo_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, 0, 1, ggni.saturating_abs(), 0, 1);
        // SAFETY: the caller's array as described; the runtime checks the bounds first.
        with_runtime(|rt| unsafe { rt.haloflip(g as usize, &c) })
    })
}

/// RPN_COMM_haloflip_test's flips: the grid of every PE in one row (set where RPN_COMM_init
/// has not set one; `*npes`, `*mex` its PEs and this PE's column), then, unless `pole` is 0, the
/// flip of the north (`pole` 1) or south (2) halo of `g` as RPN_COMM_haloflip describes it, over
/// that row. Collective over the job.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_haloflip_row(
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
    gni: c_int,
    pole: c_int,
    npes: *mut c_int,
    mex: *mut c_int,
) -> c_int {
    call("RPN_COMM_haloflip_test", || {
        let pole = match pole {
            0 => None,
            1 => Some(Pole::North),
            2 => Some(Pole::South),
            _ => return Err(Error::BadArgument(format!("pole {pole}: 0 (none), 1 (north) or 2 (south)"))),
        };
        let (n, x) = with_runtime(|rt| rt.one_row_grid())?;
        // SAFETY: out-parameters from the caller (null is skipped).
        unsafe {
            args::put(npes, n);
            args::put(mex, x);
        }
        let Some(pole) = pole else { return Ok(()) };
        let c = halo_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, 0, 1, gni, 0, 1);
        // SAFETY: the caller's array as described; the runtime checks the bounds first.
        with_runtime(|rt| unsafe { rt.flip_pole(g as usize, &c, pole) })
    })
}

/// RPN_COMM_adj_halox: the adjoint of RPN_COMM_xch_halox. The adjoint exchange of
/// `g2(minx2:maxx2, miny2:maxy2, nk)` (real*4 sums, as RPN_COMM_adj_halo), then its part
/// 1..ni x 1..nj copied into `g(minx:maxx, miny:maxy, nk)`. `npol_row` > 0 is refused.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_adj_halox(
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
    g2: *mut c_void,
    minx2: c_int,
    maxx2: c_int,
    miny2: c_int,
    maxy2: c_int,
    gni: c_int,
    npol_row: c_int,
) -> c_int {
    call("RPN_COMM_adj_halox", || {
        let c2 = halo_call([minx2, maxx2, miny2, maxy2], ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1);
        // SAFETY: the caller's arrays as described; the runtime checks both arrays' bounds
        // before reading or writing them.
        with_runtime(|rt| unsafe { rt.adj_halox(g as usize, [minx, maxx, miny, maxy], g2 as usize, &c2) })
    })
}

/// RPN_COMM_xch_halosl: every PE of a row of the grid gets the part (columns 1..ni, rows
/// miny..maxy) of every PE of the row, the PE at x of the row's at columns x*nimax+1.. of
/// `g(minx:maxx, miny:maxy, nk)` (4-byte elements; RPN_COMM_limit's decomposition of `gni`);
/// then with `periodx` the `halox` columns beyond 1..gni wrap around. Collective over the row.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xch_halosl(
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
    nimax: c_int,
) -> c_int {
    call("RPN_COMM_xch_halosl", || {
        let c = halo_call([minx, maxx, miny, maxy], ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row, 1);
        // SAFETY: the caller's array as described; the runtime checks the columns it writes.
        with_runtime(|rt| unsafe { rt.xch_halosl(g as usize, &c, nimax) })
    })
}

/// RPN_COMM_propagate_boundary (`circular` 0) and RPN_COMM_propagate_boundary_circular (1, the
/// same points): on the PEs at the edge of a limited-area grid, the outer corner boxes of the
/// halo of `f(minx:maxx, miny:maxy, nk)` (4-byte elements, halos `hx`, `hy`) along the edge get
/// the halo boxes beyond the edge of the neighbours along it. Collective over the grid.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_propagate_boundary(
    f: *mut c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    lni: c_int,
    lnj: c_int,
    nk: c_int,
    hx: c_int,
    hy: c_int,
    circular: c_int,
) -> c_int {
    let name = if circular != 0 { "RPN_COMM_propagate_boundary_circular" } else { "RPN_COMM_propagate_boundary" };
    call(name, || {
        let c = halo_call([minx, maxx, miny, maxy], lni, lnj, nk, hx, hy, 0, 0, 0, 0, 1);
        // SAFETY: the caller's array as described; the runtime checks the bounds first.
        with_runtime(|rt| unsafe { rt.propagate_boundary(f as usize, &c) })
    })
}

/// Tag of the words a PE sends north in RPN_COMM_swapns (south: the next).
const SWAPNS_TAG: i32 = 0x5357;

/// RPN_COMM_swapns: `nwen` words `wden` to the PE north of this one in its column of the grid,
/// `nwes` words `wdes` to the one south; into `wdin` (room for `nwin`) the north PE's words,
/// `*nwrn` of them, into `wdis` (room for `nwis`) the south PE's, `*nwrs` (0 where there is no
/// neighbour: beyond a non-periodic edge). On a single row of PEs, as the original, a PE is its
/// own neighbour whatever `periody`: `wdin` gets `wdes`, `wdis` gets `wden` (as many words as
/// fit). Collective over each column of the grid, neighbours only; refused (the original
/// aborts) when a neighbour sends more words than the room for them.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_swapns(
    nwen: c_int,
    wden: *const c_int,
    nwes: c_int,
    wdes: *const c_int,
    nwin: c_int,
    nwrn: *mut c_int,
    wdin: *mut c_int,
    nwis: c_int,
    nwrs: *mut c_int,
    wdis: *mut c_int,
    periody: c_int,
) -> c_int {
    use crate::runtime::p2p::sendrecv::{Side, sendrecv};
    call("RPN_COMM_swapns", || {
        for (name, v) in [("nwen", nwen), ("nwes", nwes), ("nwin", nwin), ("nwis", nwis)] {
            if v < 0 {
                return Err(Error::BadArgument(format!("{name} = {v}: must not be negative")));
            }
        }
        let (y, pey) = with_runtime(|rt| rt.grid_row_of_column())?;
        let (mut got_n, mut got_s) = (0, 0);
        if pey == 1 {
            got_n = nwes.min(nwin);
            got_s = nwen.min(nwis);
            if got_n > 0 {
                // SAFETY: wdes holds nwes words, wdin has room for nwin (the routine's contract).
                unsafe { std::ptr::copy(wdes, wdin, got_n as usize) };
            }
            if got_s > 0 {
                // SAFETY: as above, wden and wdis.
                unsafe { std::ptr::copy(wden, wdis, got_s as usize) };
            }
        } else {
            for (a, _) in crate::core::halo_family::column_pairs(pey, periody != 0) {
                let b = (a + 1) % pey;
                let (peer, out, into, got) = match (a == y, b == y) {
                    // the south PE of the pair: its north words go, its north neighbour's come
                    (true, _) => (b, (wden as usize, nwen, SWAPNS_TAG), (wdin as usize, nwin, SWAPNS_TAG + 1), &mut got_n),
                    (_, true) => (a, (wdes as usize, nwes, SWAPNS_TAG + 1), (wdis as usize, nwis, SWAPNS_TAG), &mut got_s),
                    _ => continue,
                };
                let side = |(buf, count, tag): (usize, i32, i32)| Side { buf, count, dtype: "MPI_INTEGER", peer: peer as i32, tag };
                // SAFETY: the caller's buffers hold (have room for) the counts given.
                *got = unsafe { sendrecv(side(out), side(into), "NS") }?;
            }
        }
        for (p, v) in [(nwrn, got_n), (nwrs, got_s)] {
            if !p.is_null() {
                // SAFETY: the caller's integer.
                unsafe { *p = v };
            }
        }
        Ok(())
    })
}
