//! The C ABI of the original's RPNCOMM_Numa_split (its C name; Fortran callers bind it as
//! `rpn_comm_numasplit`). MPI build only.

use std::ffi::c_int;

use super::super::{args, call};
use crate::runtime::p2p::numa_split;

/// The communicator of this PE's node (`mode` 0) or socket (another mode) within the Fortran
/// communicator `origcomm` in `*numacomm`, this PE's rank in it in `*numarank`; returns its size
/// (-1, and -1 in both, when refused).
#[unsafe(export_name = "RPNCOMM_Numa_split")]
pub extern "C" fn rpncomm_numa_split_c(origcomm: c_int, mode: c_int, numacomm: *mut c_int, numarank: *mut c_int) -> c_int {
    let mut size = -1;
    let mut got = (-1, -1);
    call("RPNCOMM_Numa_split", || {
        let (c, r, s) = numa_split::numa_split(origcomm, mode)?;
        got = (c, r);
        size = s;
        Ok(())
    });
    // SAFETY: out-parameters from the caller.
    unsafe {
        args::put(numacomm, got.0);
        args::put(numarank, got.1);
    }
    size
}
