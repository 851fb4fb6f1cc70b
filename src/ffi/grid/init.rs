//! The C ABI of the PE grid's set-up: RPN_COMM_init's steps (once per program: a second call is
//! refused and keeps the grid), RPN_COMM_bloc, RPN_COMM_init_multi_level's cut of the job into
//! grids, RPN_COMM_mydomain and RPN_COMM_set_petopo.

use std::ffi::c_int;

use super::super::{args, call, call_init_step};
use crate::error::Error;
use crate::runtime::{self, Place, with_runtime};

/// Called by RPN_COMM_init before it runs Userinit: `RPN_COMM_OK` when the PE grid is not set
/// yet; otherwise (a second RPN_COMM_init) reports the refusal, puts the grid kept in `*pex`,
/// `*pey` and returns `RPN_COMM_ERROR`. Local to the PE (no collective), so a PE that calls
/// RPN_COMM_init twice makes no other PE wait.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_init_first(pex: *mut c_int, pey: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        let refused = with_runtime(|rt| Ok(rt.refuse_second_init()))?;
        if let Err(Error::AlreadyInitialized { pex: x, pey: y }) = &refused {
            // SAFETY: out-parameters from the caller (null is skipped).
            unsafe {
                args::put(pex, *x as c_int);
                args::put(pey, *y as c_int);
            }
        }
        refused
    })
}

/// Starts the runtime (idempotent) and returns this PE's rank and the number of PEs.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_init(rank: *mut c_int, npes: *mut c_int) -> c_int {
    call("RPN_COMM_init", || {
        let (r, n) = with_runtime(|rt| Ok((rt.rank(), rt.npes())))?;
        // SAFETY: out-parameters from the caller (null is skipped).
        unsafe {
            args::put(rank, r as c_int);
            args::put(npes, n as c_int);
        }
        Ok(())
    })
}

/// Collective over the job: sets this PE's Pex x Pey PE grid and the communicators named after
/// it. In every grid (the whole job, or the grids `rpncomm_gridinit_check` cut it into) its PE 0's
/// `*pex`, `*pey` (what its Userinit chose) become every PE's, returned in `*pex`, `*pey`;
/// another PE's own values must be 0 or the same. Refused on every PE unless Pex*Pey equals the
/// number of PEs of every grid.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_grid(pex: *mut c_int, pey: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        if pex.is_null() || pey.is_null() {
            return Err(Error::BadArgument("null Pex or Pey".into()));
        }
        // SAFETY: non-null in-out parameters from the caller.
        let (x, y) = unsafe { (pex.read_unaligned(), pey.read_unaligned()) };
        let (x, y) = with_runtime(|rt| rt.set_grid(x, y))?;
        // SAFETY: as above.
        unsafe {
            args::put(pex, x);
            args::put(pey, y);
        }
        Ok(())
    })
}

/// Collective over the job: cuts the PE grid into `nblocx` x `nblocy` blocks ('BLOC',
/// 'BLOCMASTER'); each must divide its side of the grid.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bloc(nblocx: c_int, nblocy: c_int) -> c_int {
    call("RPN_COMM_bloc", || with_runtime(|rt| rt.set_blocks(nblocx, nblocy)))
}

/// Collective over the job (RPN_COMM_bloc_create): as `rpncomm_bloc`, the shape taking a new
/// entry of the table of block distributions that RPN_COMM_bloc_find numbers.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bloc_create(nblocx: c_int, nblocy: c_int) -> c_int {
    call("RPN_COMM_bloc_create", || with_runtime(|rt| rt.create_blocks(nblocx, nblocy)))
}

/// RPN_COMM_bloc_find (not collective): `*entry` receives the entry (from 1) of the table of
/// block distributions holding `nblocx` x `nblocy` blocks, -1 when none does (not refused);
/// with `set` non-zero, those blocks become the ones 'BLOC' and 'BLOCMASTER' designate.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bloc_find(nblocx: c_int, nblocy: c_int, set: c_int, entry: *mut c_int) -> c_int {
    call("RPN_COMM_bloc_find", || {
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(entry, -1) };
        if let Some(at) = with_runtime(|rt| rt.find_blocks(nblocx, nblocy, set != 0))? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(entry, at as c_int) };
        }
        Ok(())
    })
}

/// RPN_COMM_init_multi_level / RPN_COMM_gridinit (collective over the job, before the grid is
/// made): the job is cut into `multigrids` multigrids of `grids` grids each (GEM's Yin-Yang:
/// 1 and 2), consecutive job ranks each; refused on every PE where the counts do not cut the job
/// into equal grids or PEs give different ones. `place` (3 integers) receives this PE's rank in
/// its grid, the grid's number of PEs and the value RPN_COMM_init_multi_level returns (the grid's
/// number in its multigrid when `grids` > 1, else the multigrid's).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_gridinit_check(multigrids: c_int, grids: c_int, place: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init_multi_level", || {
        let p = with_runtime(|rt| rt.gridinit_check(multigrids, grids))?;
        // SAFETY: the caller's array holds 3 integers (null is skipped).
        unsafe { put_place(place, &p) };
        Ok(())
    })
}

/// This PE's place among the grids, as `rpncomm_gridinit_check` gives it (the grid kept by a
/// second RPN_COMM_init_multi_level).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_grid_place(place: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init_multi_level", || {
        let p = with_runtime(|rt| Ok(rt.place()))?;
        // SAFETY: the caller's array holds 3 integers (null is skipped).
        unsafe { put_place(place, &p) };
        Ok(())
    })
}

/// # Safety
/// `out` is null or holds 3 integers.
unsafe fn put_place(out: *mut c_int, p: &Place) {
    if out.is_null() {
        return;
    }
    for (i, v) in [p.grid_rank, p.grid_size, p.color].into_iter().enumerate() {
        // SAFETY: the caller's array holds 3 integers.
        unsafe { args::put(out.add(i), v as c_int) };
    }
}

/// RPN_COMM_mydomain / RPN_COMM_get_my_domain (collective over the job, before RPN_COMM_init):
/// `*domain` receives this PE's domain, numbered from `offset`, among `ndomains` (1: several
/// domains in one job are not supported), once every PE's `err` (its call_back's) is not negative.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mydomain(ndomains: c_int, offset: c_int, err: c_int, domain: *mut c_int) -> c_int {
    call("RPN_COMM_mydomain", || {
        let d = with_runtime(|rt| rt.my_domain(ndomains, offset, err))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(domain, d) };
        Ok(())
    })
}

/// RPN_COMM_set_petopo: before RPN_COMM_init, blocks of `sizx` x `sizy` PEs (each clipped to 1
/// .. the grid's side) place the PEs on the grid, as the original: blocks x first then y, PEs of
/// a block x first then y (1 x 1, the default: row after row; 1 x 999999: column after column).
/// The grid's PE 0's values count.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_petopo(sizx: c_int, sizy: c_int) -> c_int {
    call("RPN_COMM_set_petopo", || {
        runtime::grid::set_petopo(sizx, sizy);
        Ok(())
    })
}
