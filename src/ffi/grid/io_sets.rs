//! The C ABI of the I/O PE sets: RPN_COMM_create_io_set, free_io_set, is_io_pe, io_pe_gridid,
//! io_pe_size, io_pe_comm and io_pe_valid_set.

use std::ffi::c_int;

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
