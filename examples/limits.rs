//! Resource limits, one case per run: `limits <case> [count]`.
//! - `too-large`: a window larger than the free space of /dev/shm must fail at create, on
//!   every PE, with an error (never SIGBUS later); the PE stays usable afterwards.
//! - `largest`: the largest window that fits in /dev/shm (90 % of its free space, all PEs
//!   together) is created, every element written remotely and read back; a window of
//!   2^31-1 REAL8 per PE is refused.
//! - `many <count>`: `count` windows alive at once (default 1000), each used in one epoch.
//! - `cycles <count>`: `count` create/free cycles (default 10000), every 10th with a
//!   secondary window; no file descriptor, mapping or /dev/shm file may leak.
//! - `zero`: 0-size windows (on all PEs, on some PEs): creation, epochs, 0-element calls
//!   accepted, calls of 1 element or more refused.

mod stress_util;

use std::ptr::null_mut;

use stress_util::{Win, allreduce_sum, finish, init, must};

fn free_shm_bytes() -> u64 {
    // SAFETY: statvfs fills the struct we pass; the path is a NUL-terminated literal.
    unsafe {
        let mut s: libc::statvfs = std::mem::zeroed();
        assert_eq!(libc::statvfs(c"/dev/shm".as_ptr(), &mut s), 0);
        s.f_bavail as u64 * s.f_frsize as u64
    }
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

fn mappings() -> usize {
    std::fs::read_to_string("/proc/self/maps").map_or(0, |m| m.lines().count())
}

/// Files of this job in /dev/shm (the job segment's name is the stem of every region's).
fn job_files() -> usize {
    let Ok(stem) = std::env::var("RPNCOMM_SEGMENT") else { return 0 };
    std::fs::read_dir("/dev/shm").map_or(0, |d| d.flatten().filter(|e| e.file_name().to_string_lossy().starts_with(&stem)).count())
}

struct Report {
    me: usize,
    errors: i64,
}

impl Report {
    fn check(&mut self, ok: bool, what: &str) {
        if !ok {
            eprintln!("limits: PE {}: FAILED: {what}", self.me);
            self.errors += 1;
        }
    }
}

/// One epoch on `win` (n elements per PE): put into the right neighbour, check what arrived.
fn use_window(win: &Win, me: usize, npes: usize, n: usize, tag: i32, r: &mut Report) {
    let right = (me + 1) % npes;
    let left = (me + npes - 1) % npes;
    must(win.open(true), "open");
    let data: Vec<i32> = (0..n as i32).map(|i| tag + 1000 * me as i32 + i).collect();
    must(win.put_r(&data, right, 0), "put_r");
    must(win.close(), "close");
    let mut got = vec![0i32; n];
    must(win.get_l(&mut got, 0), "get_l");
    r.check(got.iter().enumerate().all(|(i, &v)| v == tag + 1000 * left as i32 + i as i32), "data of the left neighbour");
}

fn main() {
    let (me, npes) = init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let case = args.first().map_or("", String::as_str);
    let count: usize = args.get(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut r = Report { me, errors: 0 };
    let summary = match case {
        "too-large" => {
            // 2x the free space, split over the PEs, in REAL8 elements.
            let free = free_shm_bytes();
            let per_pe = (2 * free / npes as u64 / 8).min(i32::MAX as u64) as usize;
            let (mut w, rc) = Win::create("MPI_REAL8", per_pe, null_mut());
            r.check(rc != 0, "a window larger than /dev/shm was created");
            if rc == 0 {
                w.free();
            }
            // The PE is still usable.
            let mut small = Win::new("MPI_INTEGER", 16);
            use_window(&small, me, npes, 16, 7, &mut r);
            must(small.free(), "free");
            format!(
                "{npes} PEs, {} MiB requested with {} MiB free: refused on every PE",
                (8 * per_pe as u64 * npes as u64) >> 20,
                free >> 20
            )
        }
        "largest" => {
            let free = free_shm_bytes();
            let per_pe = ((free * 9 / 10) / npes as u64 / 4).min(i32::MAX as u64) as usize;
            let mut w = Win::new("MPI_INTEGER", per_pe);
            use_window(&w, me, npes, per_pe, 3, &mut r);
            must(w.free(), "free");
            let (mut huge, rc) = Win::create("MPI_REAL8", i32::MAX as usize, null_mut());
            r.check(rc != 0, "a window of 2^31-1 REAL8 per PE was created");
            if rc == 0 {
                huge.free();
            }
            format!(
                "{npes} PEs, largest window {} MiB in total ({} MiB free), every element written",
                (4 * per_pe as u64 * npes as u64) >> 20,
                free >> 20
            )
        }
        "many" => {
            let count = if count == 0 { 1000 } else { count };
            let wins: Vec<Win> = (0..count).map(|_| Win::new("MPI_INTEGER", 16)).collect();
            for (i, w) in wins.iter().enumerate() {
                use_window(w, me, npes, 16, i as i32, &mut r);
            }
            // The first and the last still hold their data after all the others were used.
            let mut got = [0i32; 16];
            must(wins[0].get_l(&mut got, 0), "get_l");
            r.check(got[0] == 1000 * ((me + npes - 1) % npes) as i32, "window 1 kept its data");
            for mut w in wins {
                must(w.free(), "free");
            }
            format!("{npes} PEs, {count} windows alive at once")
        }
        "cycles" => {
            let count = if count == 0 { 10_000 } else { count };
            // A first cycle so lazily allocated state (handle table, buffers) exists before counting.
            let mut w = Win::new("MPI_INTEGER", 8);
            must(w.create_secondary(npes as i32), "create_secondary");
            must(w.free(), "free");
            let (fds, maps, files) = (open_fds(), mappings(), job_files());
            for i in 0..count {
                let mut w = Win::new("MPI_INTEGER", 8 + i % 64);
                if i % 10 == 0 {
                    must(w.create_secondary(npes as i32), "create_secondary");
                }
                if i % 100 == 0 {
                    use_window(&w, me, npes, 8, i as i32, &mut r);
                }
                must(w.free(), "free");
            }
            let after = (open_fds(), mappings(), job_files());
            r.check(after == (fds, maps, files), &format!("leak: (fds, maps, /dev/shm files) {:?} -> {after:?}", (fds, maps, files)));
            format!("{npes} PEs, {count} create/free cycles, fds {fds}, maps {maps}, files {files} unchanged")
        }
        "zero" => {
            // 0 elements everywhere
            let mut w = Win::new("MPI_INTEGER", 0);
            let mut size = -2;
            rpncomm_windows::ffi::rpncomm_win_get_size(&w.0, &mut size);
            r.check(size == 0, "get_size of a 0-size window");
            must(w.open(true), "open");
            r.check(w.put_r::<i32>(&[], (me + 1) % npes, 0) == 0, "0-element put_r");
            r.check(w.put_r(&[1i32], (me + 1) % npes, 0) != 0, "1-element put_r into 0 elements refused");
            r.check(w.getacc(&[1i32], None, 0, 0, None) != 0, "1-element getacc_r into 0 elements refused");
            must(w.close(), "close");
            must(w.open(false), "open passive");
            r.check(w.get_r::<i32>(&mut [], 0, 0) == 0, "0-element get_r");
            must(w.close(), "close");
            must(w.free(), "free");
            // 0 elements on PE 0 only
            let n = if me == 0 { 0 } else { 8 };
            let mut w = Win::new("MPI_INTEGER8", n);
            must(w.open(true), "open");
            r.check(w.put_r(&[5i64], 0, 0) != 0, "put_r into PE 0's 0 elements refused");
            if npes > 1 {
                let t = 1 + me % (npes - 1);
                r.check(w.put_r(&[5i64, 6], t, 6) == 0, "put_r into a PE with elements");
            }
            must(w.close(), "close");
            if me != 0 {
                let mut got = [0i64; 2];
                must(w.get_l(&mut got, 6), "get_l");
                let senders = (0..npes).filter(|&p| 1 + p % (npes - 1) == me).count();
                r.check(senders == 0 || got == [5, 6], "data in a PE next to a 0-size one");
            }
            must(w.free(), "free");
            format!("{npes} PEs, 0-size windows")
        }
        _ => {
            eprintln!("usage: limits too-large|largest|many [n]|cycles [n]|zero");
            std::process::exit(2);
        }
    };
    let _ = allreduce_sum(0);
    finish("limits", me, r.errors, &summary)
}
