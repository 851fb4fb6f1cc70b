//! Shared by the stress, fault and limit programs: thin wrappers over the C ABI (as a C or
//! Fortran caller would call it), a seeded PRNG written by hand, and the size knobs.
//! Each program uses a part of it.
#![allow(dead_code)]

use std::ffi::{c_char, c_void};
use std::ptr::{null, null_mut};

use rpncomm_windows::ffi::RpncommHandle as Handle;
use rpncomm_windows::ffi::*;

/// splitmix64: small, fast, good enough to derive test programs from a seed.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }
}

/// `name=value` from the environment, parsed, or `default`.
pub fn knob<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

fn handle(f: extern "C" fn(*const c_char, usize, *mut Handle) -> i32, name: &str) -> Handle {
    let mut h = Handle::NULL;
    let rc = f(name.as_ptr() as *const c_char, name.len(), &mut h);
    assert_eq!(rc, RPN_COMM_OK, "handle for {name}");
    h
}

pub fn datatype(name: &str) -> Handle {
    handle(rpncomm_datyp, name)
}

pub fn operator(name: &str) -> Handle {
    handle(rpncomm_oper, name)
}

/// Starts the runtime: (rank, number of PEs).
pub fn init() -> (usize, usize) {
    let (mut me, mut npes) = (0, 0);
    assert_eq!(rpncomm_init(&mut me, &mut npes), RPN_COMM_OK, "rpncomm_init");
    (me as usize, npes as usize)
}

/// Ends the PE: reports the outcome on PE 0 and exits non-zero if any PE counted errors.
pub fn finish(program: &str, me: usize, errors: i64, summary: &str) -> ! {
    let total = allreduce_sum(errors);
    rpncomm_finalize();
    if me == 0 {
        println!("{program}: {summary}; {total} errors");
    }
    std::process::exit(if total == 0 { 0 } else { 1 })
}

/// Exits this PE with a message when a call that must succeed did not.
pub fn must(rc: i32, what: &str) {
    if rc != RPN_COMM_OK {
        eprintln!("FAILED: {what} returned {rc}");
        std::process::exit(3);
    }
}

pub fn barrier() {
    must(rpncomm_barrier("GRID".as_ptr() as *const c_char, 4), "barrier");
}

pub fn allreduce_sum(v: i64) -> i64 {
    let mut out = 0i64;
    let (t, s, g) = ("MPI_INTEGER8", "MPI_SUM", "GRID");
    must(
        rpncomm_allreduce(
            &v as *const i64 as *const c_void,
            &mut out as *mut i64 as *mut c_void,
            1,
            t.as_ptr() as *const c_char,
            t.len(),
            s.as_ptr() as *const c_char,
            s.len(),
            g.as_ptr() as *const c_char,
            g.len(),
        ),
        "allreduce",
    );
    out
}

/// Every PE's `mine` (same length everywhere), concatenated in rank order.
pub fn allgather_i64(mine: &[i64], npes: usize) -> Vec<i64> {
    let mut all = vec![0i64; mine.len() * npes];
    let (t, g) = ("MPI_INTEGER8", "GRID");
    must(
        rpncomm_allgather(
            mine.as_ptr() as *const c_void,
            mine.len() as i32,
            t.as_ptr() as *const c_char,
            t.len(),
            all.as_mut_ptr() as *mut c_void,
            mine.len() as i32,
            t.as_ptr() as *const c_char,
            t.len(),
            g.as_ptr() as *const c_char,
            g.len(),
        ),
        "allgather",
    );
    all
}

/// A window and the calls on it, each returning the status.
pub struct Win(pub Handle);

impl Win {
    /// Collective; `array` null for library memory.
    pub fn create(dtype: &str, n: usize, array: *mut c_void) -> (Win, i32) {
        let mut w = Handle::NULL;
        let grid = handle(rpncomm_comm, "GRID");
        let rc = rpncomm_win_create(&mut w, &datatype(dtype), n as i32, &grid, array);
        (Win(w), rc)
    }

    pub fn new(dtype: &str, n: usize) -> Win {
        let (w, rc) = Win::create(dtype, n, null_mut());
        must(rc, "win_create");
        w
    }

    pub fn free(&mut self) -> i32 {
        rpncomm_win_free(&mut self.0)
    }

    pub fn open(&self, active: bool) -> i32 {
        rpncomm_win_open(&self.0, active as i32)
    }

    pub fn close(&self) -> i32 {
        rpncomm_win_close(&self.0)
    }

    pub fn group(&self, to: &[i32], from: &[i32]) -> i32 {
        rpncomm_win_group(&self.0, to.as_ptr(), to.len() as i32, from.as_ptr(), from.len() as i32)
    }

    pub fn fence_mode(&self) -> i32 {
        self.group(&[-1], &[-1])
    }

    pub fn put_r<T>(&self, src: &[T], target: usize, offset: usize) -> i32 {
        rpncomm_win_put_r(&self.0, src.as_ptr() as *const c_void, target as i32, offset as i32, src.len() as i32)
    }

    pub fn get_r<T>(&self, dst: &mut [T], target: usize, offset: usize) -> i32 {
        rpncomm_win_get_r(&self.0, dst.as_mut_ptr() as *mut c_void, target as i32, offset as i32, dst.len() as i32)
    }

    /// `fetch`: (buffer, before). `op` None: the window's default operator.
    pub fn getacc<T>(&self, src: &[T], fetch: Option<(&mut [T], bool)>, target: usize, offset: usize, op: Option<&Handle>) -> i32 {
        let (g, before) = match fetch {
            Some((g, b)) => {
                assert_eq!(g.len(), src.len());
                (g.as_mut_ptr() as *mut c_void, b as i32)
            }
            None => (null_mut(), 0),
        };
        rpncomm_win_getacc_r(
            &self.0,
            src.as_ptr() as *const c_void,
            g,
            before,
            target as i32,
            offset as i32,
            src.len() as i32,
            op.map_or(null(), |h| h as *const Handle),
        )
    }

    pub fn get_l<T>(&self, dst: &mut [T], offset: usize) -> i32 {
        rpncomm_win_get_l(&self.0, dst.as_mut_ptr() as *mut c_void, offset as i32, dst.len() as i32)
    }

    pub fn put_l<T>(&self, src: &[T], offset: usize) -> i32 {
        rpncomm_win_put_l(&self.0, src.as_ptr() as *const c_void, offset as i32, src.len() as i32)
    }

    pub fn create_secondary(&self, slots: i32) -> i32 {
        rpncomm_win_create_secondary(&self.0, slots)
    }

    /// One request (pe, offseti, nelemi, offseto, nelemo).
    pub fn post(&self, req: [i32; 5]) -> i32 {
        let [pe, oi, ni, oo, no] = req;
        rpncomm_win_post(&self.0, &pe, &oi, &ni, &oo, &no, 1)
    }

    /// This PE's mailbox records (5 integers each, record 1 = the counter), copied out.
    pub fn mailbox(&self) -> Vec<i32> {
        let mut p: *mut c_void = null_mut();
        let mut words = 0;
        must(rpncomm_win_get_ptr(&self.0, 2, &mut p), "get_ptr(2)");
        must(rpncomm_win_get_size2(&self.0, &mut words), "get_size2");
        // SAFETY: get_ptr(2) points at this PE's `words` mailbox integers, which nobody
        // writes while the window is not exposed.
        unsafe { std::slice::from_raw_parts(p as *const i32, words as usize) }.to_vec()
    }

    /// Pointer to this PE's elements (get_ptr 1).
    pub fn local_ptr(&self) -> *mut c_void {
        let mut p: *mut c_void = null_mut();
        must(rpncomm_win_get_ptr(&self.0, 1, &mut p), "get_ptr(1)");
        p
    }
}
