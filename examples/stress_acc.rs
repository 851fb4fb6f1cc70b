//! Hammer a handful of hot elements with accumulates from every PE, in passive and fence
//! mode, with plain SUM and with fetch-and-add, and check that no update was lost or torn:
//! - plain SUM: each hot element ends at exactly the number of adds it received;
//! - fetch-and-add: the values fetched for one element are exactly 0, 1, ..., count-1
//!   (every ticket once: two adds that saw the same value would be a lost update);
//! - INTEGER8 adds of 2^32 + 1: every fetched value has equal high and low halves (a torn
//!   8-byte update would break the pair);
//! - REAL8 SUM of 1.0 (compare-and-swap loop in the library): exact final count;
//! - passive 4-element fetch-and-add: atomic as a whole, so the 4 fetched values are equal.
//!
//! Sizes: STRESS_ACC_OPS accumulates in total per phase (all PEs together, default 10^5),
//! STRESS_HOT hot elements (default 4, on PE 0).
//! Run: `rpnrun -n 8 target/release/examples/stress_acc`.

mod stress_util;

use stress_util::{Win, allgather_i64, allreduce_sum, barrier, finish, init, knob, must, operator};

const DELTA64: i64 = (1 << 32) + 1;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Int32,
    Int64Torn,
    Real64,
}

struct Phase {
    name: &'static str,
    kind: Kind,
    passive: bool,
    fetch: bool,
    /// elements per call (>1: the call must be atomic as a whole)
    width: usize,
}

fn run_phase(p: &Phase, me: usize, npes: usize, ops: usize, hot: usize) -> i64 {
    let per_pe = ops / npes;
    let dtype = match p.kind {
        Kind::Int32 => "MPI_INTEGER",
        Kind::Int64Torn => "MPI_INTEGER8",
        Kind::Real64 => "MPI_REAL8",
    };
    let win = Win::new(dtype, hot + p.width);
    let sum = operator("MPI_SUM");
    let mut errors = 0i64;
    let mut counts = vec![0i64; hot];
    // (element << 40 | fetched value) for every fetching call
    let mut tickets: Vec<i64> = Vec::with_capacity(if p.fetch { per_pe } else { 0 });
    let start = std::time::Instant::now();
    must(win.open(!p.passive), "open");
    for i in 0..per_pe {
        // A wide call covers elements 0..width of every call: they must stay equal.
        let e = if p.width > 1 { 0 } else { (me * 7 + i) % hot };
        counts[e] += 1;
        let rc = match p.kind {
            Kind::Int32 => {
                let src = vec![1i32; p.width];
                let mut got = vec![0i32; p.width];
                let rc = win.getacc(&src, p.fetch.then_some((&mut got[..], true)), 0, e, Some(&sum));
                if p.fetch {
                    if got.iter().any(|&g| g != got[0]) {
                        if errors < 5 {
                            eprintln!("PE {me}: {}: {}-element fetch not atomic: {got:?}", p.name, p.width);
                        }
                        errors += 1;
                    }
                    tickets.push(((e as i64) << 40) | got[0] as i64);
                }
                rc
            }
            Kind::Int64Torn => {
                let src = [DELTA64];
                let mut got = [0i64];
                let rc = win.getacc(&src, p.fetch.then_some((&mut got[..], true)), 0, e, Some(&sum));
                if p.fetch {
                    let (hi, lo) = (got[0] >> 32, got[0] & 0xffff_ffff);
                    if hi != lo {
                        if errors < 5 {
                            eprintln!("PE {me}: {}: torn 8-byte value {:#x}", p.name, got[0]);
                        }
                        errors += 1;
                    }
                    tickets.push(((e as i64) << 40) | lo);
                }
                rc
            }
            Kind::Real64 => win.getacc(&[1.0f64], None, 0, e, Some(&sum)),
        };
        if rc != 0 {
            errors += 1;
        }
        // Give the core away now and then, so that all PEs interleave, not just two.
        if i % 256 == 255 {
            std::thread::yield_now();
        }
    }
    must(win.close(), "close");
    let elapsed = start.elapsed().as_secs_f64();

    // Expected count per hot element, over all PEs.
    let expected: Vec<i64> = counts.iter().map(|&c| allreduce_sum(c)).collect();
    if me == 0 {
        for (e, &want) in expected.iter().enumerate().take(if p.width > 1 { 1 } else { hot }) {
            let ok = match p.kind {
                Kind::Int32 => {
                    let mut v = vec![0i32; p.width];
                    must(win.get_l(&mut v, e), "get_l");
                    v.iter().all(|&x| x as i64 == want)
                }
                Kind::Int64Torn => {
                    let mut v = [0i64];
                    must(win.get_l(&mut v, e), "get_l");
                    v[0] == want * DELTA64
                }
                Kind::Real64 => {
                    let mut v = [0f64];
                    must(win.get_l(&mut v, e), "get_l");
                    v[0] == want as f64
                }
            };
            if !ok {
                eprintln!("{}: hot element {e}: lost updates (expected {want})", p.name);
                errors += 1;
            }
        }
    }
    if p.fetch {
        let all = allgather_i64(&tickets, npes);
        if me == 0 {
            let mut by_element = vec![Vec::new(); hot];
            for t in all {
                by_element[(t >> 40) as usize].push(t & ((1 << 40) - 1));
            }
            for (e, mut seen) in by_element.into_iter().enumerate() {
                seen.sort_unstable();
                if seen.iter().enumerate().any(|(i, &v)| v != i as i64) || seen.len() as i64 != expected[e] {
                    eprintln!("{}: hot element {e}: tickets are not exactly 0..{}", p.name, expected[e]);
                    errors += 1;
                }
            }
        }
    }
    let mut w = win;
    must(w.free(), "free");
    if me == 0 {
        println!("stress_acc: {:<40} {} accumulates, {elapsed:.2} s on PE 0", p.name, per_pe * npes);
    }
    barrier();
    errors
}

fn main() {
    let (me, npes) = init();
    let ops: usize = knob("STRESS_ACC_OPS", 100_000);
    let hot: usize = knob::<usize>("STRESS_HOT", 4).max(1);
    let phases = [
        Phase { name: "passive SUM (INTEGER)", kind: Kind::Int32, passive: true, fetch: false, width: 1 },
        Phase { name: "passive fetch-and-add (INTEGER)", kind: Kind::Int32, passive: true, fetch: true, width: 1 },
        Phase { name: "fence SUM (INTEGER)", kind: Kind::Int32, passive: false, fetch: false, width: 1 },
        Phase { name: "fence fetch-and-add (INTEGER)", kind: Kind::Int32, passive: false, fetch: true, width: 1 },
        Phase { name: "passive fetch-and-add (INTEGER8, torn?)", kind: Kind::Int64Torn, passive: true, fetch: true, width: 1 },
        Phase { name: "fence fetch-and-add (INTEGER8, torn?)", kind: Kind::Int64Torn, passive: false, fetch: true, width: 1 },
        Phase { name: "passive SUM (REAL8)", kind: Kind::Real64, passive: true, fetch: false, width: 1 },
        Phase { name: "fence SUM (REAL8)", kind: Kind::Real64, passive: false, fetch: false, width: 1 },
        Phase { name: "passive 4-element fetch-and-add", kind: Kind::Int32, passive: true, fetch: true, width: 4 },
    ];
    let mut errors = 0;
    let mut total = 0;
    for p in &phases {
        errors += run_phase(p, me, npes, ops, hot);
        total += ops / npes * npes;
    }
    finish("stress_acc", me, errors, &format!("{npes} PEs, {total} accumulates on {hot} hot elements"))
}
