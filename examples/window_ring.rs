//! Every PE works on its right neighbour's window through the C ABI, in fence, group and
//! passive mode, on an internal and on a user-array window, then all PEs take
//! fetch-and-add tickets on PE 0. Exits non-zero on any wrong value.
//! Run: `rpnrun -n 4 target/release/examples/window_ring`.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use rpncomm_windows::ffi::RpncommHandle as Handle;
use rpncomm_windows::ffi::*;

const N: usize = 64;
const TICKETS: usize = 50;

fn name_handle(f: extern "C" fn(*const std::ffi::c_char, usize, *mut Handle) -> i32, name: &str) -> Handle {
    let mut h = Handle::NULL;
    assert_eq!(f(name.as_ptr() as *const _, name.len(), &mut h), RPN_COMM_OK, "{name}");
    h
}

fn check(what: &str, ok: bool, errors: &mut i32) {
    if !ok {
        eprintln!("FAILED: {what}");
        *errors += 1;
    }
}

fn exercise(win: &Handle, local: *mut i32, me: i32, npes: i32, errors: &mut i32) {
    let right = (me + 1) % npes;
    let left = (me + npes - 1) % npes;
    let sum = name_handle(rpncomm_oper, "MPI_SUM");
    // (active, group?)
    for (round, (active, group)) in [(true, false), (true, true), (false, false)].into_iter().enumerate() {
        if group {
            assert_eq!(rpncomm_win_group(win, &right, 1, &left, 1), RPN_COMM_OK);
        } else {
            let none = -1;
            assert_eq!(rpncomm_win_group(win, &none, 1, &none, 1), RPN_COMM_OK);
        }
        let values: Vec<i32> = (0..N as i32).map(|i| 1000 * me + 10 * round as i32 + i).collect();
        assert_eq!(rpncomm_win_open(win, active as i32), RPN_COMM_OK);
        assert_eq!(rpncomm_win_put_r(win, values.as_ptr() as *const c_void, right, 0, N as i32), RPN_COMM_OK);
        let one = 1;
        assert_eq!(rpncomm_win_getacc_r(win, &one as *const i32 as *const c_void, null_mut(), 0, right, N as i32, 1, &sum), RPN_COMM_OK);
        assert_eq!(rpncomm_win_close(win), RPN_COMM_OK);
        let mut got = vec![0i32; N + 1];
        assert_eq!(rpncomm_win_get_l(win, got.as_mut_ptr() as *mut c_void, 0, N as i32 + 1), RPN_COMM_OK);
        let expect: Vec<i32> = (0..N as i32).map(|i| 1000 * left + 10 * round as i32 + i).collect();
        check(&format!("round {round}: data from the left neighbour"), got[..N] == expect[..], errors);
        check(&format!("round {round}: accumulate count"), got[N] == round as i32 + 1, errors);
        // SAFETY: `local` points at this PE's N+1 window elements (get_ptr or our array).
        check("local pointer sees the same data", unsafe { *local } == expect[0], errors);
    }
}

fn main() {
    let (mut me, mut npes) = (0, 0);
    assert_eq!(rpncomm_init(&mut me, &mut npes), RPN_COMM_OK);
    let int = name_handle(rpncomm_datyp, "MPI_INTEGER");
    let grid = name_handle(rpncomm_comm, "GRID");
    let mut errors = 0;

    // Internal window.
    let mut win = Handle::NULL;
    assert_eq!(rpncomm_win_create(&mut win, &int, N as i32 + 1, &grid, null_mut()), RPN_COMM_OK);
    let zero = vec![0i32; N + 1];
    assert_eq!(rpncomm_win_put_l(&win, zero.as_ptr() as *const c_void, 0, N as i32 + 1), RPN_COMM_OK);
    let mut base: *mut c_void = null_mut();
    assert_eq!(rpncomm_win_get_ptr(&win, 1, &mut base), RPN_COMM_OK);
    exercise(&win, base as *mut i32, me, npes, &mut errors);
    assert_eq!(rpncomm_win_free(&mut win), RPN_COMM_OK);
    check(
        "freed handle is invalid",
        {
            let mut v = 1;
            rpncomm_win_valid(&win, &mut v);
            v == 0
        },
        &mut errors,
    );

    // Window on the caller's array.
    let mut array = vec![0i32; N + 1];
    assert_eq!(rpncomm_win_create(&mut win, &int, N as i32 + 1, &grid, array.as_mut_ptr() as *mut c_void), RPN_COMM_OK);
    exercise(&win, array.as_mut_ptr(), me, npes, &mut errors);

    // Fetch-and-add tickets on PE 0 with the window's default operator (SUM):
    // every ticket exactly once.
    assert_eq!(rpncomm_win_open(&win, 0), RPN_COMM_OK);
    let mut mine = [0i32; TICKETS];
    for t in mine.iter_mut() {
        let one = 1;
        assert_eq!(
            rpncomm_win_getacc_r(&win, &one as *const i32 as *const c_void, t as *mut i32 as *mut c_void, 1, 0, 0, 1, null()),
            RPN_COMM_OK
        );
    }
    assert_eq!(rpncomm_win_close(&win), RPN_COMM_OK);
    let mut all = vec![0i32; TICKETS * npes as usize];
    let t = "MPI_INTEGER";
    assert_eq!(
        rpncomm_allgather(
            mine.as_ptr() as *const c_void,
            TICKETS as i32,
            t.as_ptr() as *const _,
            t.len(),
            all.as_mut_ptr() as *mut c_void,
            TICKETS as i32,
            t.as_ptr() as *const _,
            t.len(),
            "GRID".as_ptr() as *const _,
            4
        ),
        RPN_COMM_OK
    );
    all.sort_unstable();
    // PE 0's element started at the last round's value; tickets are consecutive from there.
    let first = all[0];
    check("tickets unique and consecutive", all.iter().enumerate().all(|(i, &v)| v == first + i as i32), &mut errors);
    assert_eq!(rpncomm_win_free(&mut win), RPN_COMM_OK);

    let mut total = 0;
    let (i, s, g) = ("MPI_INTEGER", "MPI_SUM", "GRID");
    rpncomm_allreduce(
        &errors as *const i32 as *const c_void,
        &mut total as *mut i32 as *mut c_void,
        1,
        i.as_ptr() as *const _,
        i.len(),
        s.as_ptr() as *const _,
        s.len(),
        g.as_ptr() as *const _,
        g.len(),
    );
    assert_eq!(rpncomm_finalize(), RPN_COMM_OK);
    if me == 0 {
        println!("window_ring: {npes} PEs, {total} errors");
    }
    std::process::exit(if total == 0 { 0 } else { 1 });
}
