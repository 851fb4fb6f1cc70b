//! One model of a coupled job: `mpmd_atmosphere` and `mpmd_ocean` are two programs started as
//! one job (`rpnrun -n 2 mpmd_atmosphere : -n 2 mpmd_ocean`). Every PE puts its model's code and
//! its rank into its right neighbour's window in a fence epoch, then reads what its left
//! neighbour, possibly of the other program, left there, and prints it; PE 0 prints the job's
//! sum of model codes (an allreduce over both programs). Exits non-zero when the rank received
//! is not the left neighbour's.

use std::ffi::c_void;

use rpncomm_windows::ffi::*;

#[path = "../common/mod.rs"]
mod common;

const MODELS: [&str; 3] = ["", "atmosphere", "ocean"];

pub fn couple(code: i32) {
    let (me, npes, win) = common::start_with_window(2);
    let right = (me + 1) % npes;
    let left = (me + npes - 1) % npes;
    assert_eq!(rpncomm_win_open(&win, 1), RPN_COMM_OK);
    let mine = [code, me];
    assert_eq!(rpncomm_win_put_r(&win, mine.as_ptr() as *const c_void, right, 0, 2), RPN_COMM_OK);
    assert_eq!(rpncomm_win_close(&win), RPN_COMM_OK);
    let mut got = [0i32; 2];
    assert_eq!(rpncomm_win_get_l(&win, got.as_mut_ptr() as *mut c_void, 0, 2), RPN_COMM_OK);
    let from = MODELS.get(got[0] as usize).copied().unwrap_or("nothing");
    println!("mpmd: PE {me} of {npes} ({}) got from PE {}: {from}", MODELS[code as usize], got[1]);

    let mut total = 0;
    let (i, s, g) = ("MPI_INTEGER", "MPI_SUM", "GRID");
    let rc = rpncomm_allreduce(
        &code as *const i32 as *const c_void,
        &mut total as *mut i32 as *mut c_void,
        1,
        i.as_ptr() as *const _,
        i.len(),
        s.as_ptr() as *const _,
        s.len(),
        g.as_ptr() as *const _,
        g.len(),
    );
    assert_eq!(rc, RPN_COMM_OK);
    if me == 0 {
        println!("mpmd: sum of model codes {total}");
    }
    assert_eq!(rpncomm_finalize(), RPN_COMM_OK);
    if got[1] != left {
        eprintln!("mpmd: PE {me}: expected rank {left} from the left neighbour, got {}", got[1]);
        std::process::exit(1);
    }
}
