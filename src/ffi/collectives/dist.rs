//! The C entry points of the distribution routines (runtime::collectives::dist): RPN_COMM_dist, _coll,
//! _shuf_ezdist, _shuf_ezcoll and RPN_MPI_transpose_setup / RPN_MPI_ez_transpose_xz. The
//! Fortran routines of fortran/collectives/distribution.F90 call them.

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use crate::core::CollectiveId;
use crate::error::{Error, Result};
use crate::runtime::collectives::dist::{Array4, DistArgs, Layout};
use crate::runtime::with_runtime;

fn count(what: &'static str, v: c_int) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::Negative { what, value: v.into() })
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn dist_args(
    g: [c_int; 4],
    nig: c_int,
    njg: c_int,
    nk: c_int,
    ghalo: [c_int; 2],
    size: c_int,
    l: [c_int; 4],
    halo: [c_int; 2],
    period: [c_int; 2],
) -> Result<DistArgs> {
    let (nk, size) = (count("nk", nk)?, count("size", size)?);
    if size == 0 {
        return Err(Error::BadArgument("size (4-byte words per element) must be at least 1".into()));
    }
    let arr = |b: [c_int; 4]| Array4 { size, lo1: b[0].into(), hi1: b[1].into(), lo2: b[2].into(), hi2: b[3].into(), nk };
    Ok(DistArgs {
        garr: arr(g),
        larr: arr(l),
        nig,
        njg,
        ghalox: count("ghalox", ghalo[0])? as i64,
        ghaloy: count("ghaloy", ghalo[1])? as i64,
        halox: count("halox", halo[0])? as i64,
        haloy: count("haloy", halo[1])? as i64,
        periodx: period[0] != 0,
        periody: period[1] != 0,
    })
}

/// RPN_COMM_dist: grid PE 0's garr(size, gmini:gmaxi, gminj:gmaxj, nk) (an nig x njg field)
/// cut into every PE's larr(size, mini:maxi, minj:maxj, nk) with halos `halox`, `haloy`
/// (collective over the grid; docs/gem.md has the rules).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_dist(
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
    call("RPN_COMM_dist", || {
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
        with_runtime(|rt| unsafe { rt.dist(garr as usize, larr as usize, &a) })
    })
}

/// RPN_COMM_coll: every PE's larr collected into grid PE 0's garr (the inverse of
/// rpncomm_dist, without periodicity).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_coll(
    garr: *mut c_void,
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
    larr: *const c_void,
    mini: c_int,
    maxi: c_int,
    minj: c_int,
    maxj: c_int,
    halox: c_int,
    haloy: c_int,
) -> c_int {
    call("RPN_COMM_coll", || {
        let a = dist_args(
            [gmini, gmaxi, gminj, gmaxj],
            nig,
            njg,
            nk,
            [ghalox, ghaloy],
            size,
            [mini, maxi, minj, maxj],
            [halox, haloy],
            [0, 0],
        )?;
        // SAFETY: the caller's arrays have the shapes in `a` (garr written on grid PE 0 only).
        with_runtime(|rt| unsafe { rt.coll(garr as usize, larr as usize, &a) })
    })
}

/// RPN_COMM_shuf_ezdist: levels `liste_i(1:dnk)` of each I/O PE's global(gni, gnj, dnk) into
/// every PE's local(mini:maxi, minj:maxj, lnk) (the shape of grid descriptor `grid_id`);
/// `liste_o(l)` (0 or 1, in and out) becomes 1 where level l came.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_shuf_ezdist(
    setno: c_int,
    grid_id: c_int,
    global: *const c_void,
    dnk: c_int,
    local: *mut c_void,
    lnk: c_int,
    liste_i: *const c_int,
    liste_o: *mut c_int,
) -> c_int {
    let layout = || Ok(Layout::Grid { grid_id, halo: false });
    shuf_dist_call(CollectiveId::ShufEzdist, setno, layout, global, dnk, local, lnk, liste_i, liste_o)
}

/// The distributions of levels from an I/O PE set (RPN_COMM_shuf_ezdist and its kin): the
/// arguments read, the layout made, the call timed and its error reported under `id`'s name.
#[allow(clippy::too_many_arguments)]
pub(crate) fn shuf_dist_call(
    id: CollectiveId,
    setno: c_int,
    layout: impl FnOnce() -> Result<Layout>,
    global: *const c_void,
    dnk: c_int,
    local: *mut c_void,
    lnk: c_int,
    liste_i: *const c_int,
    liste_o: *mut c_int,
) -> c_int {
    call(id.name(), || {
        let dnk_ = count("dnk", dnk)?;
        let lnk_ = count("lnk", lnk)?;
        // SAFETY: liste_i holds dnk integers (read on the set's members only, by the original's
        // contract; the caller passes dnk everywhere).
        let li = unsafe { args::ints(liste_i, dnk, "liste_i") }?;
        // SAFETY: liste_o holds lnk integers, readable and writable.
        let lo = unsafe { args::ints(liste_o, lnk, "liste_o") }?;
        let mut flags: Vec<bool> = lo.iter().map(|&v| v != 0).collect();
        debug_assert_eq!(flags.len(), lnk_);
        let layout = layout()?;
        // SAFETY: the caller's arrays have the shapes the layout and counts say.
        let outcome =
            with_runtime(|rt| unsafe { rt.shuf_ezdist(id, setno, &layout, global as usize, dnk_, local as usize, li, &mut flags) });
        for (i, f) in flags.iter().enumerate() {
            // SAFETY: i < lnk, inside liste_o.
            unsafe { args::put(liste_o.add(i), c_int::from(*f)) };
        }
        outcome
    })
}

/// RPN_COMM_shuf_ezcoll: every PE's local levels 1..lnk gathered on the I/O PEs of set `setno`
/// (level k on member (k-1) mod npe, in its global(:, :, (k-1)/npe + 1)); on the members
/// `liste_o(1:dnk)` receives the level of each plane of global, 0 for none.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_shuf_ezcoll(
    setno: c_int,
    grid_id: c_int,
    global: *mut c_void,
    dnk: c_int,
    local: *const c_void,
    lnk: c_int,
    liste_o: *mut c_int,
) -> c_int {
    let layout = || Ok(Layout::Grid { grid_id, halo: false });
    shuf_coll_call(CollectiveId::ShufEzcoll, setno, layout, global, dnk, local, lnk, liste_o)
}

/// The collections of levels on an I/O PE set (RPN_COMM_shuf_ezcoll and its kin), as
/// `shuf_dist_call`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn shuf_coll_call(
    id: CollectiveId,
    setno: c_int,
    layout: impl FnOnce() -> Result<Layout>,
    global: *mut c_void,
    dnk: c_int,
    local: *const c_void,
    lnk: c_int,
    liste_o: *mut c_int,
) -> c_int {
    call(id.name(), || {
        let dnk_ = count("dnk", dnk)?;
        let lnk_ = count("lnk", lnk)?;
        // SAFETY: liste_o holds dnk integers, readable and writable.
        let lo = unsafe { args::ints(liste_o, dnk, "liste_o") }?;
        let mut levels = lo.to_vec();
        debug_assert_eq!(levels.len(), dnk_);
        let layout = layout()?;
        // SAFETY: the caller's arrays have the shapes the layout and counts say.
        let outcome = with_runtime(|rt| unsafe { rt.shuf_ezcoll(id, setno, &layout, global as usize, local as usize, lnk_, &mut levels) });
        for (i, v) in levels.iter().enumerate() {
            // SAFETY: i < dnk, inside liste_o.
            unsafe { args::put(liste_o.add(i), *v) };
        }
        outcome
    })
}

/// RPN_MPI_transpose_setup: `gnk` levels cut `lnkx` per PE over the row communicator
/// `row_comm` (a Fortran MPI handle; `col_comm` is kept as the original keeps it). MPI build.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mpi_transpose_setup(gnk: c_int, lnkx: c_int, row_comm: c_int, col_comm: c_int) -> c_int {
    call("RPN_MPI_transpose_setup", || with_runtime(|rt| rt.mpi_transpose_setup(gnk, lnkx, row_comm, col_comm)))
}

/// RPN_MPI_ez_transpose_xz: forward (non-zero `forward`) z(lnix, lnjy, gnk) of 4-byte words to
/// zt(lnix, lnjy, lnkx, npex) over the row of RPN_MPI_transpose_setup, backward the inverse.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mpi_ez_transpose_xz(
    z: *mut c_void,
    zt: *mut c_void,
    forward: c_int,
    lnix: c_int,
    lnjy: c_int,
    lnkx: c_int,
) -> c_int {
    call("RPN_MPI_ez_transpose_xz", || {
        // SAFETY: z and zt have the shapes the setup and counts say (the caller's promise).
        with_runtime(|rt| unsafe { rt.mpi_ez_transpose_xz_timed(z as usize, zt as usize, forward != 0, lnix, lnjy, lnkx) })
    })
}
