//! Randomized differential test. Every PE derives the same long random program from a
//! shared seed: epochs in fence, group and passive mode, and in each epoch, for every PE,
//! a list of put_r / get_r / getacc_r (with and without fetch, every operator) / post
//! calls, some of them of length 0 or out of bounds (to be refused). Between epochs,
//! put_l writes and mailbox reinitialisations. Every PE runs the whole program through a
//! sequential model, executes its own part on the real library, and checks:
//! - every get and every fetched value against the model;
//! - after every close, its whole window against the model;
//! - after every passive epoch, its mailbox (records of the clients that posted to it).
//!
//! The program is race-free by construction: in each epoch every element of every window
//! has a class (read only, put by one PE, accumulated by several PEs with one commutative
//! operator, or accumulated and fetched by one PE with any operator), so the model's
//! outcome is the only correct one whatever the interleaving.
//!
//! Knobs: STRESS_SEED (default 1), STRESS_EPOCHS (default 200), STRESS_OPS (most calls
//! per PE per epoch, default 12). A failure prints the seed and the epoch: rerun with the
//! same seed, PE count and sizes to reproduce.

mod stress_util;

use stress_util::{Rng, Win, barrier, finish, init, knob, must, operator};

const OPERATORS: [&str; 12] = [
    "MPI_SUM",
    "MPI_PROD",
    "MPI_MIN",
    "MPI_MAX",
    "MPI_BAND",
    "MPI_BOR",
    "MPI_BXOR",
    "MPI_LAND",
    "MPI_LOR",
    "MPI_LXOR",
    "MPI_REPLACE",
    "MPI_NO_OP",
];
/// Operators that several PEs may apply to one element in one epoch, in any order.
const COMMUTATIVE: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// The model of `target OP operand` (MPI semantics on 4-byte integers, wrapping).
fn apply(op: usize, a: i32, b: i32) -> i32 {
    let t = |v: i32| v != 0;
    match OPERATORS[op] {
        "MPI_SUM" => a.wrapping_add(b),
        "MPI_PROD" => a.wrapping_mul(b),
        "MPI_MIN" => a.min(b),
        "MPI_MAX" => a.max(b),
        "MPI_BAND" => a & b,
        "MPI_BOR" => a | b,
        "MPI_BXOR" => a ^ b,
        "MPI_LAND" => (t(a) && t(b)) as i32,
        "MPI_LOR" => (t(a) || t(b)) as i32,
        "MPI_LXOR" => (t(a) != t(b)) as i32,
        "MPI_REPLACE" => b,
        _ => a,
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Class {
    Read,
    Put(usize),
    Acc(usize),
    Exclusive(usize),
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    Fence,
    Group,
    Passive,
}

#[derive(Debug)]
enum Op {
    Put {
        t: usize,
        off: usize,
        vals: Vec<i32>,
    },
    Get {
        t: usize,
        off: usize,
        n: usize,
    },
    Acc {
        t: usize,
        off: usize,
        vals: Vec<i32>,
        op: usize,
        fetch: Option<bool>,
    },
    Post {
        t: usize,
        rec: [i32; 4],
    },
    /// Refused by the library (out of the target's bounds): must move no data.
    BadPut {
        t: usize,
        off: usize,
        n: usize,
    },
}

fn value(rng: &mut Rng, op: usize) -> i32 {
    match OPERATORS[op] {
        "MPI_PROD" => rng.below(5) as i32 - 2,
        "MPI_LAND" | "MPI_LOR" | "MPI_LXOR" => rng.below(3) as i32,
        _ => rng.next_u64() as i32,
    }
}

/// A run of elements of `t` starting at a random place whose class satisfies `want`.
fn run_of(rng: &mut Rng, classes: &[Class], want: impl Fn(Class) -> bool, longest: usize) -> Option<(usize, usize)> {
    let starts: Vec<usize> = (0..classes.len()).filter(|&i| want(classes[i])).collect();
    if starts.is_empty() {
        return None;
    }
    let off = starts[rng.below(starts.len())];
    let first = classes[off];
    let mut n = 1;
    let limit = 1 + rng.below(longest);
    while n < limit && off + n < classes.len() && classes[off + n] == first {
        n += 1;
    }
    Some((off, n))
}

struct Epoch {
    mode: Mode,
    /// group mode: pes_to of every PE
    to: Vec<Vec<usize>>,
    ops: Vec<Vec<Op>>,
}

fn generate(rng: &mut Rng, sizes: &[usize], max_ops: usize) -> Epoch {
    let npes = sizes.len();
    let mode = match rng.below(10) {
        0..=2 => Mode::Fence,
        3..=5 => Mode::Group,
        _ => Mode::Passive,
    };
    let to: Vec<Vec<usize>> = (0..npes)
        .map(|p| {
            // (p + 1) is always in, so every PE has someone in its pes_from.
            let mut v: Vec<usize> = (0..npes).filter(|&q| q == (p + 1) % npes || rng.chance(30)).collect();
            v.sort_unstable();
            v
        })
        .collect();
    let may_access = |p: usize, t: usize| mode != Mode::Group || to[p].contains(&t);
    let classes: Vec<Vec<Class>> = (0..npes)
        .map(|t| {
            let accessors: Vec<usize> = (0..npes).filter(|&p| may_access(p, t)).collect();
            (0..sizes[t])
                .map(|_| match rng.below(100) {
                    0..=24 => Class::Read,
                    25..=54 => Class::Put(accessors[rng.below(accessors.len())]),
                    55..=84 => Class::Acc(COMMUTATIVE[rng.below(COMMUTATIVE.len())]),
                    _ => Class::Exclusive(accessors[rng.below(accessors.len())]),
                })
                .collect()
        })
        .collect();
    let ops = (0..npes)
        .map(|p| {
            let targets: Vec<usize> = (0..npes).filter(|&t| may_access(p, t)).collect();
            let mut ops = Vec::new();
            for _ in 0..rng.below(max_ops + 1) {
                let t = targets[rng.below(targets.len())];
                let c = &classes[t];
                let op = match rng.below(100) {
                    0..=29 => run_of(rng, c, |k| k == Class::Put(p), 6).map(|(off, n)| Op::Put {
                        t,
                        off,
                        vals: (0..n).map(|_| rng.next_u64() as i32).collect(),
                    }),
                    30..=49 => run_of(rng, c, |k| k == Class::Read, 6).map(|(off, n)| Op::Get { t, off, n }),
                    50..=79 => run_of(rng, c, |k| matches!(k, Class::Acc(_)) || k == Class::Exclusive(p), 6).map(|(off, n)| match c[off] {
                        Class::Acc(op) => Op::Acc { t, off, vals: (0..n).map(|_| value(rng, op)).collect(), op, fetch: None },
                        _ => {
                            let op = rng.below(OPERATORS.len());
                            let fetch = [None, Some(true), Some(false)][rng.below(3)];
                            Op::Acc { t, off, vals: (0..n).map(|_| value(rng, op)).collect(), op, fetch }
                        }
                    }),
                    80..=91 if mode == Mode::Passive => {
                        let own = sizes[p];
                        let (oi, ni) = {
                            let o = rng.below(own + 1);
                            (o, rng.below(own - o + 1))
                        };
                        let (oo, no) = {
                            let o = rng.below(own + 1);
                            (o, rng.below(own - o + 1))
                        };
                        Some(Op::Post { t, rec: [oi as i32, ni as i32, oo as i32, no as i32] })
                    }
                    92..=95 => Some(Op::Put { t, off: rng.below(sizes[t] + 1), vals: Vec::new() }),
                    96..=99 => Some(Op::BadPut { t, off: rng.below(sizes[t] + 1), n: sizes[t] + 1 }),
                    _ => None,
                };
                ops.extend(op);
            }
            ops
        })
        .collect();
    Epoch { mode, to, ops }
}

/// Per target PE: (client, its latest record, None once cleared) in the model's mailbox.
type Mailbox = Vec<(usize, Option<[i32; 5]>)>;

/// What PE `me` must observe while running its calls: the values of its gets and fetches.
type Expected = Vec<Option<Vec<i32>>>;

/// Applies every PE's calls to the model; returns what `me` must observe.
fn run_model(model: &mut [Vec<i32>], mail: &mut [Mailbox], e: &Epoch, me: usize) -> Expected {
    let mut expected = Vec::new();
    for (p, ops) in e.ops.iter().enumerate() {
        for op in ops {
            let seen = match op {
                Op::Put { t, off, vals } => {
                    model[*t][*off..*off + vals.len()].copy_from_slice(vals);
                    None
                }
                Op::Get { t, off, n } => Some(model[*t][*off..*off + *n].to_vec()),
                Op::Acc { t, off, vals, op, fetch } => {
                    let mut got = Vec::new();
                    for (i, &v) in vals.iter().enumerate() {
                        let old = model[*t][*off + i];
                        let new = apply(*op, old, v);
                        model[*t][*off + i] = new;
                        got.push(if *fetch == Some(true) { old } else { new });
                    }
                    fetch.map(|_| got)
                }
                Op::Post { t, rec } => {
                    let record = [p as i32, rec[0], rec[1], rec[2], rec[3]];
                    match mail[*t].iter_mut().find(|(c, _)| *c == p) {
                        Some(entry) => entry.1 = Some(record),
                        None => mail[*t].push((p, Some(record))),
                    }
                    None
                }
                Op::BadPut { .. } => None,
            };
            if p == me {
                expected.push(seen);
            }
        }
    }
    expected
}

fn main() {
    let (me, npes) = init();
    let seed: u64 = knob("STRESS_SEED", 1);
    let epochs: usize = knob("STRESS_EPOCHS", 200);
    let max_ops: usize = knob("STRESS_OPS", 12);
    let mut rng = Rng::new(seed ^ (npes as u64) << 48);
    let sizes: Vec<usize> = (0..npes).map(|_| if rng.chance(10) { 0 } else { 4 + rng.below(60) }).collect();
    let win = Win::new("MPI_INTEGER", sizes[me]);
    must(win.create_secondary(npes as i32 + 1), "create_secondary");
    let ops: Vec<_> = OPERATORS.iter().map(|n| operator(n)).collect();

    let mut model: Vec<Vec<i32>> = sizes.iter().map(|&n| vec![0; n]).collect();
    let mut mail: Vec<Mailbox> = vec![Vec::new(); npes];
    // The window's initial contents are not specified: set them.
    let init_vals: Vec<Vec<i32>> = sizes.iter().map(|&n| (0..n).map(|_| rng.next_u64() as i32).collect()).collect();
    must(win.put_l(&init_vals[me], 0), "put_l");
    model.clone_from(&init_vals);

    let mut errors = 0i64;
    let mut fail = |what: String, epoch: usize| {
        if errors < 10 {
            eprintln!("stress_random: seed {seed}, {npes} PEs, epoch {epoch}, PE {me}: {what}");
        }
        errors += 1;
    };
    let (mut calls, mut mode_count) = (0usize, [0usize; 3]);
    for epoch in 0..epochs {
        let e = generate(&mut rng, &sizes, max_ops);
        mode_count[e.mode as usize] += 1;
        let expected = run_model(&mut model, &mut mail, &e, me);
        match e.mode {
            Mode::Group => {
                let to: Vec<i32> = e.to[me].iter().map(|&t| t as i32).collect();
                let from: Vec<i32> = (0..npes).filter(|&p| e.to[p].contains(&me)).map(|p| p as i32).collect();
                must(win.group(&to, &from), "group");
            }
            _ => must(win.fence_mode(), "group(-1,-1)"),
        }
        must(win.open(e.mode != Mode::Passive), "open");
        for (op, want) in e.ops[me].iter().zip(&expected) {
            calls += 1;
            let (rc, seen) = match op {
                Op::Put { t, off, vals } => (win.put_r(vals, *t, *off), None),
                Op::Get { t, off, n } => {
                    let mut v = vec![0; *n];
                    (win.get_r(&mut v, *t, *off), Some(v))
                }
                Op::Acc { t, off, vals, op, fetch } => {
                    let mut g = vec![0; vals.len()];
                    let f = fetch.map(|before| (&mut g[..], before));
                    let rc = win.getacc(vals, f, *t, *off, Some(&ops[*op]));
                    (rc, fetch.map(|_| g))
                }
                Op::Post { t, rec } => (win.post([*t as i32, rec[0], rec[1], rec[2], rec[3]]), None),
                Op::BadPut { t, off, n } => {
                    let junk = vec![0x5a5a_5a5a; *n];
                    let rc = win.put_r(&junk, *t, *off);
                    (if rc == 0 { -99 } else { 0 }, None)
                }
            };
            if rc != 0 {
                fail(format!("{op:?} returned {rc}"), epoch);
            } else if seen != *want {
                fail(format!("{op:?}: observed {seen:?}, model {want:?}"), epoch);
            }
        }
        must(win.close(), "close");

        let mut mine = vec![0; sizes[me]];
        must(win.get_l(&mut mine, 0), "get_l");
        if mine != model[me] {
            let first = (0..mine.len()).find(|&i| mine[i] != model[me][i]).unwrap_or(0);
            fail(
                format!("{:?} epoch: window differs from the model at element {first}: {} != {}", e.mode, mine[first], model[me][first]),
                epoch,
            );
        }
        if e.mode == Mode::Passive {
            let records = win.mailbox();
            let counter = records[0] as usize;
            let mut found: Vec<[i32; 5]> =
                records.chunks_exact(5).skip(1).take(counter.saturating_sub(1)).map(|r| r.try_into().unwrap()).collect();
            let mut want: Vec<[i32; 5]> = mail[me].iter().map(|(_, r)| r.unwrap_or([0; 5])).collect();
            found.sort_unstable();
            want.sort_unstable();
            let rest_clear = records.iter().skip(5 * counter).all(|&v| v == 0);
            if counter != mail[me].len() + 1 || found != want || !rest_clear {
                fail(format!("mailbox {records:?}, model {:?}", mail[me]), epoch);
            }
        }

        // Between epochs: local writes and mailbox reinitialisations (every PE knows all of them).
        for p in 0..npes {
            if rng.chance(20) && sizes[p] > 0 {
                let off = rng.below(sizes[p]);
                let vals: Vec<i32> = (0..1 + rng.below(sizes[p] - off)).map(|_| rng.next_u64() as i32).collect();
                model[p][off..off + vals.len()].copy_from_slice(&vals);
                if p == me {
                    must(win.put_l(&vals, off), "put_l");
                }
            }
        }
        if rng.chance(5) {
            mail.iter_mut().for_each(Vec::clear);
            must(win.post([0, -1, -2, 0, 0]), "post reinit -2");
        } else {
            for (p, m) in mail.iter_mut().enumerate() {
                if rng.chance(10) {
                    m.iter_mut().for_each(|entry| entry.1 = None);
                    if p == me {
                        must(win.post([0, -1, -1, 0, 0]), "post reinit -1");
                    }
                }
            }
        }
        // A reinitialisation must not race with the previous epoch's posts of others
        // (they completed before close returned) nor with the next epoch's (after open).
    }
    barrier();
    let mut w = win;
    must(w.free(), "free");
    let calls = stress_util::allreduce_sum(calls as i64);
    finish(
        "stress_random",
        me,
        errors,
        &format!(
            "seed {seed}, {npes} PEs, {epochs} epochs (fence {}, group {}, passive {}), {calls} calls",
            mode_count[0], mode_count[1], mode_count[2]
        ),
    )
}
