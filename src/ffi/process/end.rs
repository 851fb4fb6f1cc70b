//! The C ABI of the end of a PE: RPN_COMM_finalize, and the quiet exit after a refused call.

use std::ffi::c_int;

use super::super::call;
use crate::runtime;

/// Leaves the job after a final barrier; later calls are refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_finalize() -> c_int {
    call("RPN_COMM_finalize", runtime::finalize)
}

/// Ends this PE with `status` (1 if not positive) after a refused call whose one-line message
/// the library printed: C streams flushed, no ERROR STOP, no backtrace, no
/// MPI_Abort banner; the launcher ends the job on the non-zero exit. The Fortran routines
/// without a status argument (the halo family) end this way, on the PEs that found the fault.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_stop_refused(status: c_int) -> ! {
    runtime::process::stop_after_refusal(if status > 0 { status } else { 1 })
}
