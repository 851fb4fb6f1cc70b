//! Program bugs that leave PEs waiting forever; `rpnrun --timeout` must end the job, and the
//! waiting PEs must say whom they wait for, in which routine, on which window.
//!
//!   hang close     PE 0 never closes the window (fence): the others wait in close
//!   hang barrier   PE 0 skips a barrier: the others wait in RPN_COMM_barrier
//!   hang open      PE 0 never opens the window: PE 1 waits in its put into PE 0
//!   hang halo      PE 0 skips a halo exchange: its neighbours wait in RPN_COMM_xch_halo (the
//!                  second exchange of the same array, for PE 0's message)

mod common;

use rpncomm_windows::ffi::halo::rpncomm_xch_halo;
use rpncomm_windows::ffi::*;

fn stall() {
    std::thread::sleep(std::time::Duration::from_secs(3600));
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_else(|| "close".into());
    let (me, npes, win) = common::start_with_window(16);
    match case.as_str() {
        "close" => {
            rpncomm_win_open(&win, 1);
            if me == 0 {
                stall();
            }
            rpncomm_win_close(&win);
        }
        "barrier" => {
            if me == 0 {
                stall();
            }
            rpncomm_barrier("GRID".as_ptr() as *const _, 4);
        }
        "open" => {
            if me == 0 {
                stall();
            }
            rpncomm_win_open(&win, 1);
            let value = 7i32;
            if me == 1 {
                rpncomm_win_put_r(&win, &value as *const i32 as *const _, 0, 0, 1);
            }
            rpncomm_win_close(&win);
        }
        "halo" => {
            // 4 x 3 points per PE, halo 1, one level, periodic in x, on an npes x 1 grid
            let (mut pex, mut pey) = (npes, 1);
            rpncomm_set_grid(&mut pex, &mut pey);
            let mut g = vec![me; 6 * 5];
            let exchange = |g: &mut Vec<i32>| rpncomm_xch_halo(g.as_mut_ptr() as *mut _, 0, 5, 0, 4, 4, 3, 1, 1, 1, 1, 0, 0, 0, 1);
            exchange(&mut g);
            if me == 0 {
                stall();
            }
            exchange(&mut g);
        }
        other => panic!("unknown case {other}"),
    }
}
