//! Set-up shared by the example programs: start the runtime and create a window of
//! `n` integers in library memory on every PE.

use std::ptr::null_mut;

use rpncomm_windows::ffi::RpncommHandle as Handle;
use rpncomm_windows::ffi::*;

/// Returns (rank, number of PEs, window handle).
pub fn start_with_window(n: i32) -> (i32, i32, Handle) {
    let (mut me, mut npes) = (0, 0);
    rpncomm_init(&mut me, &mut npes);
    let (mut int, mut grid, mut win) = (Handle::NULL, Handle::NULL, Handle::NULL);
    rpncomm_datyp("MPI_INTEGER".as_ptr() as *const _, 11, &mut int);
    rpncomm_comm("GRID".as_ptr() as *const _, 4, &mut grid);
    rpncomm_win_create(&mut win, &int, n, &grid, null_mut());
    (me, npes, win)
}
