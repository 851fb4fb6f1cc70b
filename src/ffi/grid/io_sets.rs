//! The C ABI of the I/O PE sets: RPN_COMM_create_io_set, free_io_set, is_io_pe, io_pe_gridid,
//! io_pe_size, io_pe_comm, io_pe_valid_set, is_valid_io_setno, io_pe_groups, the members' list
//! (io_pe_idlist, io_pe_coord), io_pe_callback's arguments, io_pe_bcast, make_io_pe_list and
//! check_ioset.

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::error::Error;
use crate::runtime::grid::io_sets;
use crate::runtime::with_runtime;

/// RPN_COMM_create_io_set, collective over the grid: `*setno` receives the number (1 to 16) of a
/// new set of `npes` I/O PEs placed by `method` (0), -1 when it cannot be made.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_create_io_set(npes: c_int, method: c_int, setno: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(setno, -1) };
    call("RPN_COMM_create_io_set", || {
        let n = with_runtime(|rt| rt.create_io_set(npes, method))?;
        // SAFETY: as above.
        unsafe { args::put(setno, n) };
        Ok(())
    })
}

/// RPN_COMM_free_io_set: forgets set `setno`; `*freed` receives `setno`, -1 for no such set.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_free_io_set(setno: c_int, freed: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(freed, -1) };
    call("RPN_COMM_free_io_set", || {
        let n = io_sets::free_io_set(setno)?;
        // SAFETY: as above.
        unsafe { args::put(freed, n) };
        Ok(())
    })
}

/// RPN_COMM_is_io_pe: `*ordinal` receives this PE's rank in set `setno`, -1 where it is no
/// member (or there is no such set: then also an error).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_is_io_pe(setno: c_int, ordinal: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(ordinal, -1) };
    call("RPN_COMM_is_io_pe", || {
        if let Some(r) = io_sets::is_io_pe(setno)? {
            // SAFETY: as above.
            unsafe { args::put(ordinal, r as c_int) };
        }
        Ok(())
    })
}

/// RPN_COMM_io_pe_gridid: `*ordinal` receives the grid rank of member `n` (from 0) of set
/// `setno`, -1 when there is no such member.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_gridid(setno: c_int, n: c_int, ordinal: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(ordinal, -1) };
    call("RPN_COMM_io_pe_gridid", || {
        let r = io_sets::io_pe_gridid(setno, n)?;
        // SAFETY: as above.
        unsafe { args::put(ordinal, r as c_int) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_size: `*population` receives the number of PEs of set `setno`, -1 for no
/// such set.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_size(setno: c_int, population: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(population, -1) };
    call("RPN_COMM_io_pe_size", || {
        let n = io_sets::io_pe_size(setno)?;
        // SAFETY: as above.
        unsafe { args::put(population, n as c_int) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_comm (MPI build only): `*fcomm` receives the Fortran MPI communicator of set
/// `setno` on its members, MPI_COMM_NULL's elsewhere.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_comm(setno: c_int, fcomm: *mut c_int) -> c_int {
    call("RPN_COMM_io_pe_comm", || {
        let f = with_runtime(|rt| rt.io_pe_comm(setno))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(fcomm, f) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_valid_set: `x` and `y` (room for `npes` integers each) receive the grid
/// coordinates of a set of `npes` PEs placed by `method` on a `penx` x `peny` grid, -1 everywhere
/// when no such set is possible (then also an error); `diag` != 0 prints the set's map.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_valid_set(
    x: *mut c_int,
    y: *mut c_int,
    npes: c_int,
    penx: c_int,
    peny: c_int,
    diag: c_int,
    method: c_int,
) -> c_int {
    call("RPN_COMM_io_pe_valid_set", || {
        let n = usize::try_from(npes).unwrap_or(0);
        if n > 0 && (x.is_null() || y.is_null()) {
            return Err(Error::NullBuffer { what: "x or y", nelem: npes.into() });
        }
        let list = io_sets::io_pe_valid_set(npes, penx, peny, diag != 0, method);
        for i in 0..n {
            let (px, py) = list.as_ref().map_or((-1, -1), |l| (l[i].0 as c_int, l[i].1 as c_int));
            // SAFETY: x and y hold npes integers (the caller's contract).
            unsafe {
                args::put(x.add(i), px);
                args::put(y.add(i), py);
            }
        }
        list.map(|_| ())
    })
}

/// RPN_COMM_is_valid_io_setno: `*valid` receives 1 when set `setno` exists, else 0 (never an
/// error: it is the question the caller asks).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_is_valid_io_setno(setno: c_int, valid: *mut c_int) -> c_int {
    call("RPN_COMM_is_valid_io_setno", || {
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(valid, c_int::from(io_sets::is_valid_io_setno(setno))) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_groups: `*ngroups` receives the number of groups of set `setno`, -1 for no
/// such set.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_groups(setno: c_int, ngroups: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(ngroups, -1) };
    call("RPN_COMM_io_pe_groups", || {
        let n = io_sets::io_pe_groups(setno)?;
        // SAFETY: as above.
        unsafe { args::put(ngroups, n as c_int) };
        Ok(())
    })
}

/// The members of set `setno` in set order, for `routine` (RPN_COMM_io_pe_idlist, io_pe_coord,
/// io_pe_callback): `*npe` receives their number (-1 and no error for no such set, as the original
/// answers with a null list), and the first `capacity` of them their grid coordinates in `x`, `y`
/// and their grid ranks in `ids` (each may be null).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_members(
    routine: *const c_char,
    routine_len: usize,
    setno: c_int,
    capacity: c_int,
    x: *mut c_int,
    y: *mut c_int,
    ids: *mut c_int,
    npe: *mut c_int,
) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(npe, -1) };
    // SAFETY: a Fortran string argument (the routine's own name, a literal).
    let name = unsafe { args::name(routine, routine_len) }.map(|n| n.into_owned()).unwrap_or_default();
    let routine: &'static str = match name.to_ascii_lowercase().as_str() {
        "rpn_comm_io_pe_idlist" => "RPN_COMM_io_pe_idlist",
        "rpn_comm_io_pe_coord" => "RPN_COMM_io_pe_coord",
        _ => "RPN_COMM_io_pe_callback",
    };
    call(routine, || {
        let Ok(list) = io_sets::members_of(setno) else { return Ok(()) };
        let room = usize::try_from(capacity).unwrap_or(0).min(list.len());
        for (i, m) in list.iter().take(room).enumerate() {
            // SAFETY: x, y and ids are null or hold `capacity` integers (the caller's contract).
            unsafe {
                if !x.is_null() {
                    args::put(x.add(i), m.x as c_int);
                }
                if !y.is_null() {
                    args::put(y.add(i), m.y as c_int);
                }
                if !ids.is_null() {
                    args::put(ids.add(i), m.grid_rank as c_int);
                }
            }
        }
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(npe, list.len() as c_int) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_callback's arguments: `*status` receives -1 for no such set (quietly, as the
/// original), 0 on a PE that is no member, 1 on a member, which also gets its rank in the set in
/// `*me` and the set's Fortran MPI communicator in `*fcomm` (-1 in the shared-memory build, which
/// has no MPI handle).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_membership(setno: c_int, me: *mut c_int, fcomm: *mut c_int, status: *mut c_int) -> c_int {
    // SAFETY: out-parameters from the caller, set first to the failure values.
    unsafe {
        args::put(status, -1);
        args::put(me, -1);
        args::put(fcomm, -1);
    }
    call("RPN_COMM_io_pe_callback", || {
        if !io_sets::is_valid_io_setno(setno) {
            return Ok(());
        }
        let member = with_runtime(|rt| rt.io_pe_membership(setno))?;
        // SAFETY: as above.
        unsafe {
            args::put(status, c_int::from(member.is_some()));
            if let Some((rank, f)) = member {
                args::put(me, rank as c_int);
                args::put(fcomm, f);
            }
        }
        Ok(())
    })
}

/// RPN_COMM_io_pe_bcast: broadcasts `count` elements of `dtype` from member `root` (its rank in
/// the set) to the members of set `setno`; `*member` receives 0 on a PE that is no member, which
/// takes no part (the original's ierr is then RPN_COMM_ERROR, without a message).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_bcast(
    buffer: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    root: c_int,
    setno: c_int,
    member: *mut c_int,
) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(member, 0) };
    call("RPN_COMM_io_pe_bcast", || {
        // SAFETY: a Fortran string argument.
        let d = unsafe { args::name(dtype, dtype_len)? };
        // SAFETY: the caller's buffer holds `count` elements of `dtype` (MPI-style contract).
        let took_part = with_runtime(|rt| unsafe { rt.io_pe_bcast(buffer as usize, count, &d, root, setno) })?;
        // SAFETY: as above.
        unsafe { args::put(member, c_int::from(took_part)) };
        Ok(())
    })
}

/// RPN_COMM_make_io_pe_list: `x` and `y` (room for `npes` integers each) receive method 0's grid
/// coordinates of `npes` PEs on a `pe_nx` x `pe_ny` grid, unchecked; -1 everywhere for a method
/// other than 0 or an impossible grid (then also an error).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_make_io_pe_list(x: *mut c_int, y: *mut c_int, npes: c_int, pe_nx: c_int, pe_ny: c_int, method: c_int) -> c_int {
    call("RPN_COMM_make_io_pe_list", || {
        let n = usize::try_from(npes).unwrap_or(0);
        if n > 0 && (x.is_null() || y.is_null()) {
            return Err(Error::NullBuffer { what: "x or y", nelem: npes.into() });
        }
        let list = io_sets::make_io_pe_list(npes, pe_nx, pe_ny, method);
        for i in 0..n {
            let (px, py) = list.as_ref().map_or((-1, -1), |l| (l[i].0 as c_int, l[i].1 as c_int));
            // SAFETY: x and y hold npes integers (the caller's contract).
            unsafe {
                args::put(x.add(i), px);
                args::put(y.add(i), py);
            }
        }
        list.map(|_| ())
    })
}

/// RPN_COMM_check_ioset: 0 when the `npes` PEs at (`x`, `y`) make a set on a `pe_nx` x `pe_ny`
/// grid, else an error; with `diag` != 0, grid PE 0 (`pe_me`) prints the map of set `newset`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_check_ioset(
    newset: c_int,
    x: *const c_int,
    y: *const c_int,
    npes: c_int,
    pe_nx: c_int,
    pe_ny: c_int,
    pe_me: c_int,
    diag: c_int,
) -> c_int {
    call("RPN_COMM_check_ioset", || {
        // SAFETY: x and y hold npes integers (the caller's contract).
        let (xs, ys) = unsafe { (args::ints(x, npes, "x")?, args::ints(y, npes, "y")?) };
        let mut list = Vec::with_capacity(xs.len());
        for (&px, &py) in xs.iter().zip(ys) {
            match (usize::try_from(px), usize::try_from(py)) {
                (Ok(px), Ok(py)) => list.push((px, py)),
                _ => return Err(Error::BadArgument(format!("the PE at ({px}, {py}) is outside the {pe_nx} x {pe_ny} grid"))),
            }
        }
        io_sets::check_ioset(newset, &list, pe_nx, pe_ny, pe_me, diag != 0)
    })
}
