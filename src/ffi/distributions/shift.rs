//! RPN_COMM_move's C entry point (runtime::p2p::shift has the logic).

use std::ffi::{c_char, c_int, c_void};

use super::super::{args, call};
use crate::runtime::p2p::shift::{Shift, move_shift};

/// RPN_COMM_move: `sendcount` elements of datatype `mtyp` to the grid neighbour in direction
/// `dest` ('N', 'S', 'E' or 'W'), `recvcount` received from the opposite neighbour; the grid
/// wraps around when `periodicity` is non-zero, else the edge PEs skip the missing side.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_move(
    sendbuf: *const c_void,
    sendcount: c_int,
    mtyp: *const c_char,
    mtyp_len: usize,
    dest: *const c_char,
    dest_len: usize,
    recvbuf: *mut c_void,
    recvcount: c_int,
    periodicity: c_int,
) -> c_int {
    call("RPN_COMM_move", || {
        // SAFETY: Fortran string arguments.
        let (t, d) = unsafe { (args::name(mtyp, mtyp_len)?, args::name(dest, dest_len)?) };
        let s = Shift { sendbuf: sendbuf as usize, sendcount, recvbuf: recvbuf as usize, recvcount, dtype: &t };
        // SAFETY: the caller's buffers are as large as the counts say (MPI-style contract).
        unsafe { move_shift(&s, &d, periodicity != 0) }
    })
}
