//! Programs for the isolation tests: `isolation_probe <case>`.
//! - `hold`: start the job, create a window with a mailbox, and wait (PE 0 reads its standard
//!   input until end of file, the others wait in a barrier) so the test can look at the
//!   job's files and try to get in from outside.
//! - `attach`: only start the runtime (with whatever RPNCOMM_* environment the test forged);
//!   exit 0 if that succeeded, 4 if it was refused.
//! - `corrupt`: PEs write nonsense where a peer or a buggy program could: PE 0 over the job
//!   segment's header, PE 1 into its mailbox counter (i32::MAX, -5, 0, full). Posts to PE 1
//!   must then be refused cleanly, without writing into PE 2's mailbox (checked) or anywhere
//!   else, and everything must work again once the counter is sane.

mod stress_util;

use std::io::{Read, Seek, SeekFrom, Write};

use stress_util::{Win, allreduce_sum, barrier, finish, init, must};

fn main() {
    let case = std::env::args().nth(1).unwrap_or_default();
    if case == "attach" {
        let (mut me, mut npes) = (0, 0);
        let rc = rpncomm_windows::ffi::rpncomm_init(&mut me, &mut npes);
        println!("attach: rc {rc}, rank {me} of {npes}");
        std::process::exit(if rc == 0 { 0 } else { 4 });
    }
    let (me, npes) = init();
    let win = Win::new("MPI_INTEGER", 64);
    must(win.create_secondary(npes as i32 + 1), "create_secondary");
    let mut errors = 0i64;
    match case.as_str() {
        "hold" => {
            if me == 0 {
                println!("hold: {npes} PEs ready");
                std::io::stdout().flush().unwrap();
                let _ = std::io::stdin().read_to_end(&mut Vec::new());
            }
            barrier();
        }
        "corrupt" => {
            assert!(npes >= 3, "corrupt needs 3 PEs");
            if me == 0 {
                // Nonsense over the whole header of the job segment (magic, version, npes,
                // sizes, launcher pid, total): nothing in it may be trusted after attach.
                let seg = std::env::var("RPNCOMM_SEGMENT").expect("run under rpnrun");
                let mut f = std::fs::OpenOptions::new().write(true).open(format!("/dev/shm/{seg}")).unwrap();
                f.seek(SeekFrom::Start(0)).unwrap();
                f.write_all(&[0xffu8; 40]).unwrap();
            }
            barrier();
            let capacity = npes + 1;
            for bad in [i32::MAX, -5, 0, capacity as i32, i32::MIN] {
                // Everyone forgets its slots and PE 1's counter is reset ... then corrupted.
                must(win.post([0, -1, -2, 0, 0]), "reinit -2 (forget slots)");
                if me == 1 {
                    let mut p = std::ptr::null_mut();
                    must(rpncomm_windows::ffi::rpncomm_win_get_ptr(&win.0, 2, &mut p), "get_ptr(2)");
                    // SAFETY: p points at this PE's mailbox; its first integer is the counter.
                    unsafe { (p as *mut i32).write_volatile(bad) };
                }
                barrier();
                must(win.open(false), "open");
                let rc = if me != 1 { win.post([1, 0, 1, 0, 1]) } else { -1 };
                must(win.close(), "close");
                if me != 1 && rc == 0 {
                    eprintln!("isolation_probe: PE {me}: a post into a mailbox whose counter is {bad} was accepted");
                    errors += 1;
                }
                // PE 2's records follow PE 1's: nothing may have landed there.
                if me == 2 {
                    let records = win.mailbox();
                    if records[0] != 1 || records[1..].iter().any(|&v| v != 0) {
                        eprintln!("isolation_probe: PE 2's mailbox was written: {records:?}");
                        errors += 1;
                    }
                }
                barrier();
            }
            // Sane again: reset, post, and the records arrive.
            must(win.post([0, -1, -2, 0, 0]), "reinit -2");
            barrier();
            must(win.open(false), "open");
            if me != 1 {
                must(win.post([1, 0, 1, 0, 1]), "post after repair");
            }
            must(win.close(), "close");
            if me == 1 {
                let records = win.mailbox();
                if records[0] as usize != npes {
                    eprintln!("isolation_probe: PE 1: counter {} after repair, {} expected", records[0], npes);
                    errors += 1;
                }
            }
            // Collectives and windows still work with a nonsense job header.
            let mut w2 = Win::new("MPI_INTEGER8", 8);
            must(w2.open(true), "open");
            must(w2.put_r(&[me as i64; 8], (me + 1) % npes, 0), "put_r");
            must(w2.close(), "close");
            let mut got = [0i64; 8];
            must(w2.get_l(&mut got, 0), "get_l");
            if got != [((me + npes - 1) % npes) as i64; 8] {
                errors += 1;
            }
            must(w2.free(), "free");
            if allreduce_sum(1) != npes as i64 {
                errors += 1;
            }
        }
        _ => {
            eprintln!("usage: isolation_probe hold|attach|corrupt");
            std::process::exit(2);
        }
    }
    let mut w = win;
    must(w.free(), "free");
    finish("isolation_probe", me, errors, &format!("{case}: {npes} PEs"))
}
