//! The C ABI of RPN_COMM_barrier_data and of the original's soft barrier, under the library's
//! names (rpncomm_*, which the Fortran externals call) and under the original's C names
//! (rpn_comm_softbarrier_init, _init_all, rpn_comm_softbarrier, and the forms with two underscores
//! that some Fortran compilers link with; the forms with one underscore are the Fortran externals
//! themselves, fortran/collectives/).

use std::ffi::c_int;

use super::super::{args, call};
use crate::runtime::with_runtime;

/// rpn_comm_softbarrier_init: registers the communicator `fcomm` for the soft barrier; `*out`
/// receives it, -1 on failure.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_softbarrier_init(fcomm: c_int, out: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(out, -1) };
    call("rpn_comm_softbarrier_init", || {
        let f = with_runtime(|rt| rt.softbarrier_init(fcomm))?;
        // SAFETY: as above.
        unsafe { args::put(out, f) };
        Ok(())
    })
}

/// rpn_comm_softbarrier_init_all: registers the job's communicator (RPN_COMM_world_get's in the
/// MPI build, 0 for the job in the shared-memory build); `*out` receives it, -1 on failure.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_softbarrier_init_all(out: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(out, -1) };
    call("rpn_comm_softbarrier_init_all", || {
        let world = if cfg!(feature = "mpi") { crate::runtime::p2p::comm_helpers::world_get()? } else { 0 };
        let f = with_runtime(|rt| rt.softbarrier_init(world))?;
        // SAFETY: as above.
        unsafe { args::put(out, f) };
        Ok(())
    })
}

/// rpn_comm_softbarrier: a barrier over the registered communicator `fcomm`; 0, or -1 for a
/// communicator not registered.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_softbarrier(fcomm: c_int) -> c_int {
    call("rpn_comm_softbarrier", || with_runtime(|rt| rt.softbarrier(fcomm)))
}

/// The original's C form: `int rpn_comm_softbarrier_init(int *ftn_comm)`.
#[unsafe(export_name = "rpn_comm_softbarrier_init")]
pub extern "C" fn rpn_comm_softbarrier_init_c(fcomm: *const c_int) -> c_int {
    init_of(fcomm)
}

/// As `rpn_comm_softbarrier_init_c`, for a caller that links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_softbarrier_init__(fcomm: *const c_int) -> c_int {
    init_of(fcomm)
}

fn init_of(fcomm: *const c_int) -> c_int {
    if fcomm.is_null() {
        return -1;
    }
    // SAFETY: non-null, the caller's integer.
    let f = unsafe { fcomm.read_unaligned() };
    let mut out = -1;
    rpncomm_softbarrier_init(f, &mut out);
    out
}

/// The original's C form: `int rpn_comm_softbarrier_init_all(void)`.
#[unsafe(export_name = "rpn_comm_softbarrier_init_all")]
pub extern "C" fn rpn_comm_softbarrier_init_all_c() -> c_int {
    let mut out = -1;
    rpncomm_softbarrier_init_all(&mut out);
    out
}

/// As `rpn_comm_softbarrier_init_all_c`, for a caller that links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_softbarrier_init_all__() -> c_int {
    rpn_comm_softbarrier_init_all_c()
}

/// The original's C form: `int rpn_comm_softbarrier(int *ftn_comm)`.
#[unsafe(export_name = "rpn_comm_softbarrier")]
pub extern "C" fn rpn_comm_softbarrier_c(fcomm: *const c_int) -> c_int {
    barrier_of(fcomm)
}

/// As `rpn_comm_softbarrier_c`, for a caller that links with two underscores.
#[unsafe(no_mangle)]
pub extern "C" fn rpn_comm_softbarrier__(fcomm: *const c_int) -> c_int {
    barrier_of(fcomm)
}

fn barrier_of(fcomm: *const c_int) -> c_int {
    if fcomm.is_null() {
        return -1;
    }
    // SAFETY: non-null, the caller's integer.
    let f = unsafe { fcomm.read_unaligned() };
    if rpncomm_softbarrier(f) == 0 { 0 } else { -1 }
}

/// RPN_COMM_barrier_data: `level` >= 0 sets RPN_COMM_barrier's detail level (0 none, 1 the
/// longest wait, 2 every PE's); below 0 `values` (room for `nvalues`) receives what the last
/// barrier measured, on the communicator's rank 0, once; `*count` the number of values, 0 after a
/// level was set, -1 when there is nothing to read.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_barrier_data(level: c_int, values: *mut f64, nvalues: c_int, count: *mut c_int) -> c_int {
    call("RPN_COMM_barrier_data", || {
        let (n, got) = crate::runtime::collectives::barrier_data::barrier_data(level, nvalues);
        if !got.is_empty() && values.is_null() {
            return Err(crate::error::Error::NullBuffer { what: "values", nelem: nvalues.into() });
        }
        for (i, v) in got.into_iter().enumerate() {
            // SAFETY: values holds nvalues >= the values given (the caller's contract).
            unsafe { args::put(values.add(i), v) };
        }
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(count, n) };
        Ok(())
    })
}
