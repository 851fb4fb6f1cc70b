//! Arbitrary call sequences on the window core (`core::WindowState`, `core::HandleTable`)
//! for jobs of 1 to 16 PEs seen from any rank, which the one-process C ABI target cannot
//! reach. Each call's outcome is checked against a plain model of the contract: which
//! calls must be accepted, what a checked access or a post plan holds, how epochs count.
//! The driver calls the state machine as the runtime does (`closed` after an accepted
//! `check_close`, `open_failed` right after `open`, `set_secondary` after an accepted
//! `check_secondary`).

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use rpncomm_windows::internals::core::{ElementType, Handle, HandleKind, HandleTable, Mode, Operator, PostPlan, PostRequest, WindowState};

use crate::ffi_driver::Int;

#[derive(Arbitrary, Debug)]
pub struct Input {
    npes: u8,
    rank: u8,
    sizes: Vec<u16>,
    dtype: u8,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
pub enum Op {
    Open { active: bool, transport_fails: bool },
    Close,
    Remote { target: Int, offset: Int, nelem: Int, null: bool },
    Local { offset: Int, nelem: Int, null: bool },
    Group { to: Vec<Int>, from: Vec<Int> },
    DefaultOperator(u8),
    Secondary { slots: Int, other_records: Vec<u16> },
    Post(Vec<[Int; 5]>),
    Insert(u32),
    Remove(TableHandle),
    Get(TableHandle),
}

/// A handle given to the table: one it issued (live or removed) or a forgery.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum TableHandle {
    Issued(u8),
    Signed { t1: i32, t2: i32 },
    Raw { p: u64, t1: i32, t2: i32 },
}

struct Model {
    npes: usize,
    rank: usize,
    sizes: Vec<usize>,
    dtype: ElementType,
    open: Option<Mode>,
    epoch: u32,
    /// (pes_to membership, pes_from list)
    group: Option<(Vec<bool>, Vec<usize>)>,
    default_op: Operator,
    secondary: Option<Vec<usize>>,
    /// Handles issued by the table, with their value while live.
    issued: Vec<(Handle, Option<u32>)>,
}

fn fits(offset: i64, nelem: i64, size: usize) -> bool {
    offset >= 0 && nelem >= 0 && offset + nelem <= size as i64
}

impl Model {
    fn rank_ok(&self, r: i64) -> bool {
        (0..self.npes as i64).contains(&r)
    }

    /// A valid group list: ranks of the job, each at most once.
    fn list_ok(&self, l: &[i32]) -> bool {
        l.iter().all(|&p| self.rank_ok(p as i64)) && l.iter().enumerate().all(|(i, p)| !l[..i].contains(p))
    }
}

pub fn run(input: &Input) {
    let npes = 1 + input.npes as usize % 16;
    let rank = input.rank as usize % npes;
    let sizes: Vec<usize> = (0..npes).map(|p| input.sizes.get(p).map_or(3, |&s| s as usize)).collect();
    let dtype = ElementType::ALL[input.dtype as usize % 4];
    let mut w = WindowState::new(rank, dtype, sizes.clone());
    let mut table: HandleTable<u32> = HandleTable::new(HandleKind::Window);
    let mut m = Model {
        npes,
        rank,
        sizes,
        dtype,
        open: None,
        epoch: 0,
        group: None,
        default_op: Operator::Sum,
        secondary: None,
        issued: Vec::new(),
    };

    for op in &input.ops {
        match op {
            Op::Open { active, transport_fails } => {
                let mode = match (active, &m.group) {
                    (false, _) => Mode::Passive,
                    (true, None) => Mode::Fence,
                    (true, Some(_)) => Mode::Group,
                };
                let got = w.open(*active);
                assert_eq!(got.is_ok(), m.open.is_none(), "open: {got:?}");
                if let Ok(got) = got {
                    assert_eq!(got, (m.epoch.wrapping_add(1), mode));
                    if *transport_fails {
                        w.open_failed();
                    } else {
                        m.epoch = m.epoch.wrapping_add(1);
                        m.open = Some(mode);
                    }
                }
            }
            Op::Close => {
                let got = w.check_close();
                match m.open {
                    Some(mode) => {
                        assert_eq!(got, Ok((m.epoch, mode)));
                        w.closed();
                        m.open = None;
                    }
                    None => assert!(got.is_err()),
                }
            }
            Op::Remote { target, offset, nelem, null } => {
                let (t, o, n) = (target.get() as i64, offset.get() as i64, nelem.get() as i64);
                let got = w.check_remote("put_r", t, o, n, *null);
                let ok = m.open.is_some_and(|mode| {
                    m.rank_ok(t)
                        && fits(o, n, m.sizes[t as usize])
                        && (!null || n == 0)
                        && (mode != Mode::Group || m.group.as_ref().is_some_and(|g| g.0[t as usize]))
                });
                assert_eq!(got.is_ok(), ok, "check_remote({t}, {o}, {n}, null {null}): {got:?}");
                if let Ok(acc) = got {
                    assert_eq!((acc.target as i64, acc.offset as i64, acc.nelem as i64), (t, o, n));
                    assert_eq!((acc.mode, acc.epoch), (m.open.unwrap(), m.epoch));
                }
            }
            Op::Local { offset, nelem, null } => {
                let (o, n) = (offset.get() as i64, nelem.get() as i64);
                let got = w.check_local("put_l", o, n, *null);
                let ok = m.open.is_none() && fits(o, n, m.sizes[m.rank]) && (!null || n == 0);
                assert_eq!(got.is_ok(), ok, "check_local({o}, {n}, null {null}): {got:?}");
                if let Ok(got) = got {
                    assert_eq!((got.0 as i64, got.1 as i64), (o, n));
                }
            }
            Op::Group { to, from } => {
                let to: Vec<i32> = to.iter().map(|v| v.get()).collect();
                let from: Vec<i32> = from.iter().map(|v| v.get()).collect();
                let got = w.set_group(&to, &from);
                let reset = to == [-1] && from == [-1];
                let ok = m.open.is_none() && (reset || (m.list_ok(&to) && m.list_ok(&from)));
                assert_eq!(got.is_ok(), ok, "set_group({to:?}, {from:?}): {got:?}");
                if ok {
                    m.group = (!reset).then(|| {
                        let mut member = vec![false; m.npes];
                        to.iter().for_each(|&p| member[p as usize] = true);
                        (member, from.iter().map(|&p| p as usize).collect())
                    });
                }
                let g = w.group();
                assert_eq!(g.map(|g| g.from.clone()), m.group.as_ref().map(|g| g.1.clone()));
                if let (Some(g), Some(mg)) = (g, &m.group) {
                    assert!((0..m.npes).all(|p| g.targets(p) == mg.0[p]));
                }
            }
            Op::DefaultOperator(o) => {
                let op = Operator::ALL[*o as usize % 12];
                let got = w.set_default_operator(op);
                assert_eq!(got.is_ok(), op.check_type(m.dtype).is_ok());
                if got.is_ok() {
                    m.default_op = op;
                }
                assert_eq!(w.default_operator(), m.default_op);
            }
            Op::Secondary { slots, other_records } => {
                let s = slots.get();
                let got = w.check_secondary(s);
                let ok = m.open.is_none() && s != 0 && s != i32::MIN && (s < 0 || m.secondary.is_none());
                assert_eq!(got.is_ok(), ok, "check_secondary({s}): {got:?}");
                if let Ok((records, replace)) = got {
                    assert_eq!((records, replace), (s.unsigned_abs() as usize, m.secondary.is_some()));
                    // the other PEs' counts come from the agreement step
                    let all: Vec<usize> = (0..m.npes)
                        .map(|p| if p == m.rank { records } else { other_records.get(p).map_or(records, |&r| r as usize) })
                        .collect();
                    w.drop_secondary();
                    w.set_secondary(all.clone());
                    m.secondary = Some(all);
                }
                assert_eq!(w.secondary_records(), m.secondary.as_deref());
            }
            Op::Post(requests) => {
                let reqs: Vec<PostRequest> = requests
                    .iter()
                    .map(|r| PostRequest {
                        pe: r[0].get(),
                        offseti: r[1].get(),
                        nelemi: r[2].get(),
                        offseto: r[3].get(),
                        nelemo: r[4].get(),
                    })
                    .collect();
                let got = w.plan_post(&reqs);
                let expected = plan(&m, &reqs);
                assert_eq!(got.as_ref().ok(), expected.as_ref(), "plan_post({reqs:?}): {got:?}");
            }
            Op::Insert(v) => {
                let h = table.insert(*v);
                assert!(!m.issued.iter().any(|(old, _)| *old == h), "handle {h:?} issued twice");
                m.issued.push((h, Some(*v)));
            }
            Op::Remove(th) | Op::Get(th) => {
                let h = match *th {
                    TableHandle::Issued(i) if !m.issued.is_empty() => m.issued[i as usize % m.issued.len()].0,
                    TableHandle::Issued(_) => Handle::NULL,
                    TableHandle::Signed { t1, t2 } => Handle { p: Handle::encode(HandleKind::Window, 0).p, t1, t2 },
                    TableHandle::Raw { p, t1, t2 } => Handle { p: p as usize, t1, t2 },
                };
                let live = m.issued.iter().position(|(old, v)| *old == h && v.is_some());
                if let Op::Get(_) = op {
                    assert_eq!(table.get(&h).ok().copied(), live.and_then(|i| m.issued[i].1), "get {h:?}");
                } else {
                    assert_eq!(table.remove(&h).ok(), live.and_then(|i| m.issued[i].1), "remove {h:?}");
                    if let Some(i) = live {
                        m.issued[i].1 = None;
                    }
                }
            }
        }
        assert_eq!(w.is_open(), m.open.is_some());
        assert_eq!(w.mode(), m.open);
        assert_eq!(w.epoch(), m.epoch);
    }
}

/// What `plan_post` must answer (None: an error).
fn plan(m: &Model, reqs: &[PostRequest]) -> Option<PostPlan> {
    m.secondary.as_ref()?;
    if let Some(first) = reqs.first().filter(|r| r.offseti == -1) {
        if m.open.is_some_and(|mode| mode != Mode::Passive) {
            return None;
        }
        return match first.nelemi {
            -1 => Some(PostPlan::Reinitialize { full: false }),
            -2 => Some(PostPlan::Reinitialize { full: true }),
            _ => None,
        };
    }
    if m.open != Some(Mode::Passive) {
        return None;
    }
    let own = m.sizes[m.rank];
    let mut planned = Vec::new();
    for r in reqs {
        if !m.rank_ok(r.pe as i64) || !fits(r.offseti as i64, r.nelemi as i64, own) || !fits(r.offseto as i64, r.nelemo as i64, own) {
            return None;
        }
        let t = r.pe as usize;
        planned.push((t, [m.rank as i32, r.offseti, r.nelemi, r.offseto, r.nelemo]));
    }
    // With more than 2 PEs the records go target by target, from the PE after this one round to
    // this one, each target's records in the order given.
    if m.npes > 2 {
        planned = (1..=m.npes)
            .flat_map(|step| {
                let t = (m.rank + step) % m.npes;
                planned.iter().filter(move |(p, _)| *p == t).cloned()
            })
            .collect();
    }
    Some(PostPlan::Requests(planned))
}
