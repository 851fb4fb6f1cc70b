//! PE 1 aborts in the middle of an exposure epoch while the others wait in close:
//! the launcher must end the job, non-zero, and name PE 1. Run with at least 2 PEs.

mod common;

use rpncomm_windows::ffi::*;

fn main() {
    let (me, _, win) = common::start_with_window(16);
    rpncomm_win_open(&win, 1);
    if me == 1 {
        std::process::abort();
    }
    rpncomm_win_close(&win);
    // Not reached while PE 1 is dead: the launcher ends the job first.
    std::thread::sleep(std::time::Duration::from_secs(60));
}
