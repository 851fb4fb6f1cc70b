//! A busy job for the fault tests: every PE loops over fence epochs with puts and
//! accumulates to every PE, barriers, and passive epochs with long multi-element puts to
//! PE 0 (so its passive lock is held most of the time), gets, and posts (slot claims) to
//! every PE, with a full mailbox reset now and then so slots are claimed again.
//! The test driver kills a random PE with SIGKILL at a random time.
//!
//! Deterministic deaths, for the cases a random kill hits too rarely:
//! FAULT_DIE=<rank>:<point>[:<iteration>] makes PE <rank> die with SIGKILL at that iteration
//! (default 3) at <point>:
//! - `put`: in a fence epoch, after its puts, before close;
//! - `barrier`: instead of entering a barrier the others are in;
//! - `lock`: inside a passive put, while it holds PE 0's lock (its source buffer runs into
//!   an unreadable page: the fault is turned into SIGKILL by a handler);
//! - `slot`: after its posts took slots in every PE's mailbox, with the window open.
//!
//! FAULT_SURVIVORS_IGNORE_TERM=1: the other PEs ignore SIGTERM, so that they must notice the
//! death by themselves (a refused call: they print it and exit with status 5).
//! FAULT_ITERATIONS (default 1000000): the job ends by itself after that many iterations.

mod stress_util;

use std::ffi::c_void;

use stress_util::{Win, barrier, init, knob, operator};

const N: usize = 4096;

fn die() -> ! {
    // SAFETY: plain system calls on our own process.
    unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
    unreachable!("SIGKILL cannot be caught")
}

extern "C" fn on_fault(_: libc::c_int) {
    die();
}

/// A buffer of `n` integers whose last one lies on an unreadable page.
fn poisoned_buffer(n: usize) -> *const i32 {
    let page = 4096;
    let bytes = (n * 4).next_multiple_of(page) + page;
    // SAFETY: fresh anonymous mapping; the last page is then made inaccessible.
    unsafe {
        let p = libc::mmap(std::ptr::null_mut(), bytes, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
        assert_ne!(p, libc::MAP_FAILED);
        libc::mprotect((p as *mut u8).add(bytes - page) as *mut c_void, page, libc::PROT_NONE);
        (p as *mut u8).add(bytes - page - (n - 1) * 4) as *const i32
    }
}

/// A refused call: the job lost a PE (or worse). Report and leave.
fn check(rc: i32, what: &str, me: usize) {
    if rc != 0 {
        eprintln!("fault_busy: PE {me}: {what} refused; leaving");
        std::process::exit(5);
    }
}

fn main() {
    let (me, npes) = init();
    let iterations: usize = knob("FAULT_ITERATIONS", 1_000_000);
    let die_at = std::env::var("FAULT_DIE").ok().and_then(|v| {
        let mut parts = v.split(':');
        let rank = parts.next()?.parse::<usize>().ok()?;
        let point = parts.next()?.to_string();
        let iteration = parts.next().map_or(Some(3), |i| i.parse::<usize>().ok())?;
        Some((rank, point, iteration))
    });
    let my_death = die_at.as_ref().filter(|(r, _, _)| *r == me).map(|(_, p, _)| p.as_str());
    let death_iteration = die_at.as_ref().map_or(0, |d| d.2);
    if my_death.is_none() && std::env::var("FAULT_SURVIVORS_IGNORE_TERM").is_ok_and(|v| v == "1") {
        // SAFETY: sets the disposition of SIGTERM to ignored.
        unsafe { libc::signal(libc::SIGTERM, libc::SIG_IGN) };
    }
    if my_death == Some("lock") {
        // SAFETY: the handler only calls kill, which is async-signal-safe.
        unsafe {
            libc::signal(libc::SIGSEGV, on_fault as *const () as libc::sighandler_t);
            libc::signal(libc::SIGBUS, on_fault as *const () as libc::sighandler_t);
        }
    }
    let win = Win::new("MPI_INTEGER", N);
    check(win.create_secondary(npes as i32 + 1), "create_secondary", me);
    let sum = operator("MPI_SUM");
    let data = vec![me as i32; N];
    let mut back = vec![0i32; N];
    if me == 0 {
        println!("fault_busy: {npes} PEs running");
    }
    for it in 0..iterations {
        let dies_here = |point: &str| it == death_iteration && my_death == Some(point);
        // fence epoch: puts and accumulates everywhere
        check(win.open(true), "open", me);
        for t in 0..npes {
            check(win.put_r(&data[..64], t, 64 * me % (N - 64)), "put_r", me);
            check(win.getacc(&[1i32], None, t, N - 1, Some(&sum)), "getacc_r", me);
        }
        if dies_here("put") {
            die();
        }
        check(win.close(), "close", me);
        if dies_here("barrier") {
            die();
        }
        barrier();
        // passive epoch: long locked puts to PE 0, gets, posts
        check(win.open(false), "open", me);
        if dies_here("lock") {
            let src = poisoned_buffer(N);
            // Faults on the last element, inside the copy, holding PE 0's lock.
            rpncomm_windows::ffi::rpncomm_win_put_r(&win.0, src as *const c_void, 0, 0, N as i32);
        }
        for t in 0..npes {
            check(win.post([t as i32, 0, 1, 1, 1]), "post", me);
        }
        if dies_here("slot") {
            die();
        }
        for _ in 0..4 {
            check(win.put_r(&data, 0, 0), "put_r", me);
            check(win.get_r(&mut back, (me + 1) % npes, 0), "get_r", me);
        }
        check(win.close(), "close", me);
        if it % 50 == 49 {
            check(win.post([0, -1, -2, 0, 0]), "post reinit", me);
        }
    }
    let mut w = win;
    check(w.free(), "free", me);
    rpncomm_windows::ffi::rpncomm_finalize();
}
