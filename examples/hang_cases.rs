//! More program bugs that leave PEs waiting (the hang tests of tests/stress.rs), beyond the
//! three of `hang`: PE 0 never reaches the collective call the others are in.
//!
//!   passive-close   the others close a passive epoch, PE 0 never does
//!   group-close     ring of groups (pes_to = right, pes_from = left): PE 1 waits for PE 0
//!   free            the others free the window, PE 0 never does
//!   create          the others create a second window, PE 0 never does
//!   secondary       the others create the mailbox, PE 0 never does
//!   allreduce       the others are in RPN_COMM_allreduce, PE 0 never is

mod stress_util;

use std::ffi::c_void;

use stress_util::{Win, init};

fn stall() -> ! {
    std::thread::sleep(std::time::Duration::from_secs(3600));
    std::process::exit(9)
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_default();
    let (me, npes) = init();
    let mut win = Win::new("MPI_INTEGER", 16);
    let idle = me == 0;
    match case.as_str() {
        "passive-close" => {
            win.open(false);
            if idle {
                stall();
            }
            win.close();
        }
        "group-close" => {
            let (right, left) = ((me + 1) % npes, (me + npes - 1) % npes);
            win.group(&[right as i32], &[left as i32]);
            win.open(true);
            if idle {
                stall();
            }
            win.close();
        }
        "free" => {
            if idle {
                stall();
            }
            win.free();
        }
        "create" => {
            if idle {
                stall();
            }
            let _second = Win::create("MPI_INTEGER", 8, std::ptr::null_mut());
        }
        "secondary" => {
            if idle {
                stall();
            }
            win.create_secondary(4);
        }
        "allreduce" => {
            if idle {
                stall();
            }
            let (mut v, mut out) = (1i32, 0i32);
            let (t, s, g) = ("MPI_INTEGER", "MPI_SUM", "GRID");
            rpncomm_windows::ffi::rpncomm_allreduce(
                &mut v as *mut i32 as *const c_void,
                &mut out as *mut i32 as *mut c_void,
                1,
                t.as_ptr() as *const _,
                t.len(),
                s.as_ptr() as *const _,
                s.len(),
                g.as_ptr() as *const _,
                g.len(),
            );
        }
        other => panic!("unknown case {other}"),
    }
}
