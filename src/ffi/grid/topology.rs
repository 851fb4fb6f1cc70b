//! The C ABI of the topology queries: a PE's place in the grid and in named communicators
//! (RPN_COMM_mype, RPN_COMM_rank, RPN_COMM_size, RPN_COMM_carac, RPN_COMM_bloctopo) and the cut
//! of a field over PEs (RPN_COMM_limit, RPN_COMM_limit_2, RPN_COMM_topo_2, RPN_COMM_topo_xy), the
//! rank of the PE at given coordinates (RPN_COMM_get_pe) and the numbers of its grids
//! (RPN_COMM_colors).

use std::ffi::{c_char, c_int};

use super::super::{args, call, call_init_step};
use crate::core::decomp;
use crate::error::Error;
use crate::runtime::grid::MODULE_PLACES;
use crate::runtime::{Runtime, with_runtime};

/// This PE's rank `me` in its grid and its coordinates `me_x`, `me_y` on the Pex x Pey grid.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mype(me: *mut c_int, me_x: *mut c_int, me_y: *mut c_int) -> c_int {
    call("RPN_COMM_mype", || {
        let (m, x, y) = with_runtime(|rt| Ok(rt.mype()))?;
        // SAFETY: out-parameters from the caller.
        unsafe {
            args::put(me, m as c_int);
            args::put(me_x, x as c_int);
            args::put(me_y, y as c_int);
        }
        Ok(())
    })
}

/// RPN_COMM_init's step that fills the module rpn_comm_globals (not a call of its own): `out`
/// (14 integers) receives this PE's place as `Runtime::module_places` gives it.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_module_places(out: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "module places", nelem: MODULE_PLACES as i64 });
        }
        for (i, v) in with_runtime(|rt| rt.module_places())?.into_iter().enumerate() {
            // SAFETY: the caller's array holds MODULE_PLACES integers.
            unsafe { args::put(out.add(i), v) };
        }
        Ok(())
    })
}

/// RPN_COMM_init's step that fills the module's grid map: `xtab` and `ytab` (room for `n`
/// integers each, `n` the grid's number of PEs) receive me_x and me_y of every PE of this PE's
/// grid, by grid rank.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_grid_map(xtab: *mut c_int, ytab: *mut c_int, n: c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        let map = with_runtime(|rt| Ok(rt.grid_map()))?;
        if usize::try_from(n).ok() != Some(map.len()) {
            return Err(Error::BadArgument(format!("room for {n} PEs, the grid has {}", map.len())));
        }
        if xtab.is_null() || ytab.is_null() {
            return Err(Error::NullBuffer { what: "grid map", nelem: map.len() as i64 });
        }
        for (r, (x, y)) in map.into_iter().enumerate() {
            // SAFETY: the caller's arrays hold n = map.len() integers each.
            unsafe {
                args::put(xtab.add(r), x as c_int);
                args::put(ytab.add(r), y as c_int);
            }
        }
        Ok(())
    })
}

/// This PE's rank in the communicator named `name` in `*rank` (unchanged on a PE outside it, as
/// in the original).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_rank(name: *const c_char, name_len: usize, rank: *mut c_int) -> c_int {
    call("RPN_COMM_rank", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        if let Some(r) = with_runtime(|rt| rt.comm_rank(&name))? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(rank, r as c_int) };
        }
        Ok(())
    })
}

/// The number of PEs in the communicator named `name`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm_size(name: *const c_char, name_len: usize, size: *mut c_int) -> c_int {
    call("RPN_COMM_size", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        // A PE outside the name's communicators ('BLOCMASTER' off the masters) gets no size,
        // as in the original.
        if let Some(n) = with_runtime(|rt| rt.comm_size(&name))? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(size, n as c_int) };
        }
        Ok(())
    })
}

/// RPN_COMM_carac's 14 integers, in its argument order (npex, npey, me, medomm, mex, mey,
/// sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme), into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_carac(out: *mut c_int) -> c_int {
    call("RPN_COMM_carac", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "carac", nelem: 14 });
        }
        let c = with_runtime(|rt| rt.carac())?;
        let v = [
            c.npex, c.npey, c.me, c.medomm, c.mex, c.mey, c.sizex, c.sizey, c.ismaster, c.mymaster, c.mybloc, c.myblocx, c.myblocy,
            c.blocme,
        ];
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 14 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
    })
}

/// RPN_COMM_bloctopo: `out` receives blocme, blocmex, blocmey (this PE's rank and coordinates
/// in its block) and the number of blocks along x and y.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bloctopo(out: *mut c_int) -> c_int {
    call("RPN_COMM_bloctopo", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "bloctopo", nelem: 5 });
        }
        let c = with_runtime(|rt| rt.carac())?;
        let longx = c.npex / c.sizex;
        let longy = c.npey / c.sizey;
        let v = [c.blocme, c.mex - c.myblocx * longx, c.mey - c.myblocy * longy, c.sizex, c.sizey];
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 5 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
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

/// RPN_COMM_limit_2: the tiles of `gmin..=gmax` over `npe` PEs in mode `relax` (0 to 4, see
/// the README); `count` and `offset` have room for `npe` integers. -1 when the cut is
/// impossible in that mode (`*lmini = *lmaxi = -1`) or an argument is wrong.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_limit_2(
    my_id: c_int,
    npe: c_int,
    gmin: c_int,
    gmax: c_int,
    lmini: *mut c_int,
    lmaxi: *mut c_int,
    count: *mut c_int,
    offset: *mut c_int,
    relax: c_int,
) -> c_int {
    call("RPN_COMM_limit_2", || {
        let n = usize::try_from(npe).ok().filter(|&n| n > 0).ok_or(Error::BadArgument(format!("npe = {npe}")))?;
        let me =
            usize::try_from(my_id).ok().filter(|&m| m < n).ok_or(Error::BadRank { rank: my_id.into(), npes: n, comm: String::new() })?;
        if count.is_null() || offset.is_null() {
            return Err(Error::NullBuffer { what: "count or offset", nelem: npe.into() });
        }
        let t = decomp::limit(me, n, gmin, gmax, relax);
        // SAFETY: out-parameters; count and offset hold npe integers (the caller's contract).
        unsafe {
            args::put(lmini, t.lmin);
            args::put(lmaxi, t.lmax);
            for i in 0..n {
                args::put(count.add(i), t.count[i]);
                args::put(offset.add(i), t.offset[i]);
            }
        }
        if t.valid {
            Ok(())
        } else {
            Err(Error::BadArgument(format!(
                "{} points cannot be cut into {npe} tiles in mode relax = {relax}",
                i64::from(gmax) - i64::from(gmin) + 1
            )))
        }
    })
}

/// RPN_COMM_topo_2: this PE's tile of `1..=nxg` along x (`alongx` != 0) or y of the PE grid,
/// with a halo of `halo`: array bounds `*minx..=*maxx` (odd length with `fill` != 0), the tile's
/// length `*nxl` and start `*nx0`, the largest tile `*nxlmax`. -1 when the cut is impossible.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_topo_2(
    nxg: c_int,
    minx: *mut c_int,
    maxx: *mut c_int,
    nxl: *mut c_int,
    nxlmax: *mut c_int,
    halo: c_int,
    nx0: *mut c_int,
    alongx: c_int,
    fill: c_int,
    relax: c_int,
) -> c_int {
    call("RPN_COMM_topo_2", || {
        let t = with_runtime(|rt| rt.topo_2(nxg, halo, alongx != 0, fill != 0, relax))?.ok_or_else(|| {
            Error::BadArgument(format!("{nxg} points cannot be cut along {} in mode relax = {relax}", if alongx != 0 { "x" } else { "y" }))
        })?;
        // SAFETY: out-parameters from the caller.
        unsafe {
            args::put(minx, t.min);
            args::put(maxx, t.max);
            args::put(nxl, t.nl);
            args::put(nxlmax, t.nlmax);
            args::put(nx0, t.n0);
        }
        Ok(())
    })
}

/// RPN_COMM_topo_xy: this PE's tile of an `nig` x `njg` field with halos `haloi`, `haloj`;
/// `out` receives mini, maxi, minj, maxj, nil, njl and `*has_points` 1 where the tile holds
/// points along both axes, else 0 (RPN_COMM_topo_xy then fails, without a message, as the
/// original).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_topo_xy(nig: c_int, njg: c_int, haloi: c_int, haloj: c_int, out: *mut c_int, has_points: *mut c_int) -> c_int {
    call("RPN_COMM_topo_xy", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "topo_xy", nelem: 6 });
        }
        let (v, ok) = with_runtime(|rt| rt.topo_xy(nig, njg, haloi, haloj))?;
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 6 integers.
            unsafe { args::put(out.add(i), x) };
        }
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(has_points, c_int::from(ok)) };
        Ok(())
    })
}

/// RPN_COMM_get_pe: into `*pe`, the rank in the communicator `name` of the PE at (`x`, `y`) of
/// grid `grd` of multigrid `sgrd` (-1: this PE's), or -1 where they are outside the job (not
/// refused, as the original).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_get_pe(
    x: c_int,
    y: c_int,
    grd: c_int,
    sgrd: c_int,
    name: *const c_char,
    name_len: usize,
    pe: *mut c_int,
) -> c_int {
    call("RPN_COMM_get_pe", || {
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(pe, -1) };
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        if let Some(r) = with_runtime(|rt| rt.get_pe(x, y, grd, sgrd, &name))? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(pe, r) };
        }
        Ok(())
    })
}

/// RPN_COMM_qadl: `bounds` receives (i0, in, j0, jn), the block of an `ni` x `nj` array of grid
/// PE `ipe` in equal blocks over the grid (the original's arithmetic).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_qadl(ipe: c_int, ni: c_int, nj: c_int, bounds: *mut c_int) -> c_int {
    call("RPN_COMM_qadl", || {
        if bounds.is_null() {
            return Err(Error::NullBuffer { what: "bounds", nelem: 4 });
        }
        let (i0, in_, j0, jn) = with_runtime(|rt| rt.grid_qadl(ipe, ni, nj))?;
        for (k, v) in [i0, in_, j0, jn].into_iter().enumerate() {
            // SAFETY: bounds holds 4 integers (the caller's contract).
            unsafe { args::put(bounds.add(k), v) };
        }
        Ok(())
    })
}

/// RPN_COMM_petopo, collective over the job: the grid becomes `pex` x `pey` (the PEs placed by
/// RPN_COMM_set_petopo's blocks), its communicators made again; refused unless pex * pey is the
/// number of PEs of the grid.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_petopo(pex: c_int, pey: c_int) -> c_int {
    call("RPN_COMM_petopo", || {
        if pex <= 0 || pey <= 0 {
            return Err(Error::BadArgument(format!("a {pex} x {pey} grid")));
        }
        with_runtime(|rt| rt.petopo(pex, pey))
    })
}
