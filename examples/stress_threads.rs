//! Threads of every PE calling the operations at the same time (docs/windows.md, "Threads"), checked:
//! - hot element: every thread of every PE fetch-and-adds 1 to element 0 of PE 0 (passive);
//!   the fetched values over all threads and PEs are exactly 0, 1, ..., total-1 (a ticket seen
//!   twice or missing is a lost update) and the element ends at the total;
//! - disjoint ranges: each thread puts a block of its own into every PE's window (passive,
//!   several elements: under the target's lock) and gets it back unchanged, while the others
//!   do the same beside it;
//! - posts: the threads of a PE post to disjoint sets of targets in one epoch; every PE then
//!   finds exactly one request from each PE in its mailbox.
//!
//! Sizes: STRESS_THREADS threads per PE (default 3), STRESS_THREAD_OPS operations per thread
//! and phase (default 20000). Run: `rpnrun -n 3 target/release/examples/stress_threads`.

mod stress_util;

use stress_util::{Win, allgather_i64, allreduce_sum, barrier, finish, init, knob, must, operator};

const BLOCK: usize = 6;

fn hot_element(me: usize, npes: usize, threads: usize, ops: usize) -> i64 {
    let win = Win::new("MPI_INTEGER", 1);
    let sum = operator("MPI_SUM");
    must(win.open(false), "open");
    let mut errors = 0;
    let tickets: Vec<i64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::with_capacity(ops);
                    for _ in 0..ops {
                        let mut got = [0i32];
                        must(win.getacc(&[1i32], Some((&mut got[..], true)), 0, 0, Some(&sum)), "getacc");
                        mine.push(got[0] as i64);
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    must(win.close(), "close");
    let mut all = allgather_i64(&tickets, npes);
    all.sort_unstable();
    let total = (npes * threads * ops) as i64;
    if let Some(i) = all.iter().enumerate().position(|(i, &t)| t != i as i64) {
        eprintln!("PE {me}: hot element: ticket {i} is {} (lost or repeated update)", all[i]);
        errors += 1;
    }
    if me == 0 {
        let mut v = [0i32];
        must(win.get_l(&mut v, 0), "get_l");
        if v[0] as i64 != total {
            eprintln!("PE 0: hot element ends at {}, expected {total}", v[0]);
            errors += 1;
        }
    }
    errors
}

fn disjoint_ranges(me: usize, npes: usize, threads: usize, ops: usize) -> i64 {
    let win = Win::new("MPI_INTEGER8", npes * threads * BLOCK);
    must(win.open(false), "open");
    let errors: i64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let win = &win;
                s.spawn(move || {
                    let at = (me * threads + t) * BLOCK;
                    let mut errors = 0;
                    for i in 0..ops {
                        let target = i % npes;
                        let mine: Vec<i64> = (0..BLOCK).map(|k| ((me * 1000 + t) as i64) << 32 | (i * BLOCK + k) as i64).collect();
                        must(win.put_r(&mine, target, at), "put_r");
                        let mut back = vec![0i64; BLOCK];
                        must(win.get_r(&mut back, target, at), "get_r");
                        if back != mine {
                            if errors < 5 {
                                eprintln!("PE {me} thread {t}: block on PE {target} reads {back:?}, wrote {mine:?}");
                            }
                            errors += 1;
                        }
                    }
                    errors
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    must(win.close(), "close");
    errors
}

fn posts(me: usize, npes: usize, threads: usize) -> i64 {
    let win = Win::new("MPI_INTEGER", 4);
    must(win.create_secondary(npes as i32 + 1), "create_secondary");
    must(win.open(false), "open");
    std::thread::scope(|s| {
        for t in 0..threads {
            let win = &win;
            s.spawn(move || {
                for target in (0..npes).filter(|p| p % threads == t) {
                    must(win.post([target as i32, 1, 2, 0, 3]), "post");
                }
            });
        }
    });
    must(win.close(), "close");
    let mailbox = win.mailbox();
    let mut senders: Vec<i32> = mailbox.chunks_exact(5).skip(1).take(npes).map(|r| r[0]).collect();
    senders.sort_unstable();
    let expected: Vec<i32> = (0..npes as i32).collect();
    let ok = mailbox[0] as usize == npes + 1
        && senders == expected
        && mailbox.chunks_exact(5).skip(1).take(npes).all(|r| r[1..] == [1, 2, 0, 3]);
    if !ok {
        eprintln!("PE {me}: mailbox {mailbox:?}: expected one request [rank, 1, 2, 0, 3] from each of the {npes} PEs");
        return 1;
    }
    0
}

fn main() {
    let (me, npes) = init();
    let threads: usize = knob("STRESS_THREADS", 3);
    let ops: usize = knob("STRESS_THREAD_OPS", 20_000);
    let mut errors = hot_element(me, npes, threads, ops);
    barrier();
    errors += disjoint_ranges(me, npes, threads, ops / 4);
    barrier();
    errors += posts(me, npes, threads);
    let total = allreduce_sum((npes * threads * ops) as i64);
    finish(
        "stress_threads",
        me,
        errors,
        &format!("{npes} PEs x {threads} threads: {} tickets, disjoint put/get, posts", total / npes as i64),
    )
}
