//! A program bug: PE 0 never closes the window, the others wait in close forever.
//! `rpnrun --timeout` must end the job.

use std::ptr::null_mut;

use rpncomm_windows::core::Handle;
use rpncomm_windows::ffi::*;

fn main() {
    let (mut me, mut npes) = (0, 0);
    rpncomm_init(&mut me, &mut npes);
    let (mut int, mut grid, mut win) = (Handle::NULL, Handle::NULL, Handle::NULL);
    rpncomm_datyp("MPI_INTEGER".as_ptr() as *const _, 11, &mut int);
    rpncomm_comm("GRID".as_ptr() as *const _, 4, &mut grid);
    rpncomm_win_create(&mut win, &int, 16, &grid, null_mut());
    rpncomm_win_open(&win, 1);
    if me == 0 {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
    rpncomm_win_close(&win);
}
