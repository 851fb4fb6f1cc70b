//! A program bug: PE 0 never closes the window, the others wait in close forever.
//! `rpnrun --timeout` must end the job.

mod common;

use rpncomm_windows::ffi::*;

fn main() {
    let (me, _, win) = common::start_with_window(16);
    rpncomm_win_open(&win, 1);
    if me == 0 {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
    rpncomm_win_close(&win);
}
