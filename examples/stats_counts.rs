//! A program whose calls are known exactly, for the statistics (`RPNCOMM_STATS`): every PE
//! works on its right neighbour in two windows, and `tests/stats.rs` checks the report against
//! the counts below. Run: `RPNCOMM_STATS=1 rpnrun -n 3 target/release/examples/stats_counts`.
//!
//! Window 1: MPI_INTEGER, 64 per PE, internal, over GRID, still alive at finalize:
//! - 3 fence epochs, each with 2 put_r of 4 elements and 1 get_r of 3;
//! - 2 group epochs (to the right, from the left), each with 1 getacc_r of 2 elements;
//! - 4 passive epochs, each with 1 put_r of 1 element and 1 getacc_r of 1 with fetch; the last
//!   one also posts twice, one request each to the right (a record of 5 integers);
//! - closed: 5 put_l of 8 elements, 3 get_l of 64.
//!
//! Window 2: MPI_REAL8, 1024 + rank elements on the caller's array, over WORLD, freed before
//! finalize: 1 fence epoch with 1 put_r of 1024 elements (8 KiB), 1 passive epoch with 70
//! get_r of 1 element.

use std::ffi::c_void;
use std::ptr::null;

use rpncomm_windows::ffi::RpncommHandle as Handle;
use rpncomm_windows::ffi::*;

fn named(f: extern "C" fn(*const std::ffi::c_char, usize, *mut Handle) -> i32, name: &str) -> Handle {
    let mut h = Handle::NULL;
    assert_eq!(f(name.as_ptr() as *const _, name.len(), &mut h), RPN_COMM_OK, "{name}");
    h
}

fn ok(status: i32, what: &str) {
    assert_eq!(status, RPN_COMM_OK, "{what}");
}

fn main() {
    let (mut me, mut npes) = (0, 0);
    ok(rpncomm_init(&mut me, &mut npes), "init");
    let right = (me + 1) % npes;
    let left = (me + npes - 1) % npes;
    let int = named(rpncomm_datyp, "MPI_INTEGER");
    let real8 = named(rpncomm_datyp, "MPI_REAL8");
    let grid = named(rpncomm_comm, "GRID");
    let world = named(rpncomm_comm, "WORLD");
    let sum = named(rpncomm_oper, "MPI_SUM");

    let mut a = Handle::NULL;
    ok(rpncomm_win_create(&mut a, &int, 64, &grid, std::ptr::null_mut()), "create 1");
    let mut user = vec![0f64; 1024 + me as usize];
    let mut b = Handle::NULL;
    ok(rpncomm_win_create(&mut b, &real8, user.len() as i32, &world, user.as_mut_ptr() as *mut c_void), "create 2");
    ok(rpncomm_win_create_secondary(&a, npes), "secondary");

    let values = [1i32; 64];
    let mut got = [0i32; 64];
    let v = values.as_ptr() as *const c_void;
    let g = got.as_mut_ptr() as *mut c_void;
    for _ in 0..3 {
        ok(rpncomm_win_open(&a, 1), "open fence");
        ok(rpncomm_win_put_r(&a, v, right, 0, 4), "put_r");
        ok(rpncomm_win_put_r(&a, v, right, 8, 4), "put_r");
        ok(rpncomm_win_get_r(&a, g, right, 20, 3), "get_r");
        ok(rpncomm_win_close(&a), "close fence");
    }
    ok(rpncomm_win_group(&a, &right, 1, &left, 1), "group");
    for _ in 0..2 {
        ok(rpncomm_win_open(&a, 1), "open group");
        ok(rpncomm_win_getacc_r(&a, v, std::ptr::null_mut(), 0, right, 30, 2, &sum), "getacc_r");
        ok(rpncomm_win_close(&a), "close group");
    }
    let none = -1;
    ok(rpncomm_win_group(&a, &none, 1, &none, 1), "back to fence");
    for epoch in 0..4 {
        ok(rpncomm_win_open(&a, 0), "open passive");
        ok(rpncomm_win_put_r(&a, v, right, 40, 1), "put_r");
        ok(rpncomm_win_getacc_r(&a, v, g, 1, right, 41, 1, null()), "getacc_r with fetch");
        if epoch == 3 {
            for _ in 0..2 {
                let (oi, ni, oo, no) = (0, 2, 10, 2);
                ok(rpncomm_win_post(&a, &right, &oi, &ni, &oo, &no, 1), "post");
            }
        }
        ok(rpncomm_win_close(&a), "close passive");
        ok(rpncomm_barrier("GRID".as_ptr() as *const _, 4), "barrier");
    }
    for i in 0..5 {
        ok(rpncomm_win_put_l(&a, v, 8 * i, 8), "put_l");
    }
    for _ in 0..3 {
        ok(rpncomm_win_get_l(&a, g, 0, 64), "get_l");
    }

    let block = vec![2f64; 1024];
    ok(rpncomm_win_open(&b, 1), "open fence 2");
    ok(rpncomm_win_put_r(&b, block.as_ptr() as *const c_void, right, 0, 1024), "put_r 8 KiB");
    ok(rpncomm_win_close(&b), "close fence 2");
    ok(rpncomm_win_open(&b, 0), "open passive 2");
    let mut x = 0f64;
    for i in 0..70 {
        ok(rpncomm_win_get_r(&b, &mut x as *mut f64 as *mut c_void, right, i, 1), "get_r");
    }
    ok(rpncomm_win_close(&b), "close passive 2");
    ok(rpncomm_win_free(&mut b), "free 2");
    assert_eq!(x, 2.0, "the 8 KiB put arrived");

    ok(rpncomm_finalize(), "finalize");
    if me == 0 {
        println!("stats_counts: {npes} PEs done");
    }
}
