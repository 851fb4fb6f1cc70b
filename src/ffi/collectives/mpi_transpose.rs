//! The C ABI of the RPN_MPI layer's transposes besides RPN_MPI_ez_transpose_xz (`dist`):
//! RPN_MPI_transpose_xz(_s), RPN_MPI_ez_transpose_xy, RPN_MPI_transpose_xy(_s) and
//! RPN_MPI_print_transpose_times. Communicators are Fortran MPI handles (MPI build).

use std::ffi::{c_int, c_void};
use std::io::Write;

use super::super::call;
use crate::runtime::collectives::mpi_transpose;
use crate::runtime::with_runtime;

/// RPN_MPI_transpose_xz(_s) (`routine`): z(lnix, lnjy, gnk) <-> zt(lnix, lnjy, lnkx, npex) of
/// 4-byte words over `row_comm`, forward when `forward` is non-zero.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_mpi_transpose_xz(
    z: *mut c_void,
    zt: *mut c_void,
    forward: c_int,
    lnix: c_int,
    lnjy: c_int,
    gnk: c_int,
    lnkx: c_int,
    row_comm: c_int,
    staggered: c_int,
) -> c_int {
    let routine = if staggered != 0 { "RPN_MPI_transpose_xz_s" } else { "RPN_MPI_transpose_xz" };
    call(routine, || {
        // SAFETY: z and zt have the shapes the counts say (the caller's promise).
        with_runtime(|rt| unsafe { rt.mpi_transpose_xz(z as usize, zt as usize, forward != 0, lnix, lnjy, gnk, lnkx, row_comm) })
    })
}

/// RPN_MPI_transpose_xy(_s) (`routine`; `col_comm` a Fortran MPI handle) and
/// RPN_MPI_ez_transpose_xy (`ez` non-zero: the column of RPN_MPI_transpose_setup):
/// z(lniy, lnjy, lnkx, npey) <-> zt(lniy, lnjy, lnkx, npey), block p to the column's PE p.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_mpi_transpose_xy(
    z: *mut c_void,
    zt: *mut c_void,
    forward: c_int,
    lniy: c_int,
    lnjy: c_int,
    lnkx: c_int,
    col_comm: c_int,
    ez: c_int,
    staggered: c_int,
) -> c_int {
    let routine = match (ez != 0, staggered != 0) {
        (true, _) => "RPN_MPI_ez_transpose_xy",
        (false, true) => "RPN_MPI_transpose_xy_s",
        (false, false) => "RPN_MPI_transpose_xy",
    };
    call(routine, || {
        let (z, zt, fw) = (z as usize, zt as usize, forward != 0);
        // SAFETY: z and zt hold lniy*lnjy*lnkx*npey words each (the caller's promise).
        with_runtime(|rt| unsafe {
            if ez != 0 {
                rt.mpi_ez_transpose_xy(z, zt, fw, lniy, lnjy, lnkx)
            } else {
                rt.mpi_transpose_xy(z, zt, fw, lniy, lnjy, lnkx, col_comm)
            }
        })
    })
}

/// RPN_MPI_print_transpose_times: the times of the last 8 transposes of each kind (forward and
/// inverse, x-z and x-y), in seconds, on standard error.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mpi_print_transpose_times() -> c_int {
    call("RPN_MPI_print_transpose_times", || {
        let mut err = std::io::stderr().lock();
        // a closed standard error loses the report, as a Fortran write to it would
        let _ = err.write_all(mpi_transpose::transpose_times_report().as_bytes());
        Ok(())
    })
}
