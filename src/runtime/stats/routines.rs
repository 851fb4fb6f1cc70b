//! The time spent inside each RPN_COMM routine on this PE (`RPNCOMM_STATS`), for programs that
//! make no window (GEM calls halo exchanges, collectives, distributions): where their
//! communication time goes, and its share of the run.
//!
//! The C ABI times every call the program makes (`time_routine`, from `ffi::call`): a routine
//! called while another runs on the same thread is part of that one, not counted twice.
//! Statistics off, a call pays one relaxed load of `STATE`. On, an outermost call reads the clock
//! twice and adds to its routine's slot with two relaxed atomic additions: threads may call at
//! once, and a slot is found through a cache of the thread's own (no lock after a thread's first
//! call of a routine). The slots live as long as the process (one per routine name, about a
//! hundred at most) and are read at RPN_COMM_finalize.

use std::cell::{Cell, RefCell};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::counters::clock;

/// One routine's numbers on this PE.
struct Slot {
    name: &'static str,
    calls: AtomicU64,
    ticks: AtomicU64,
}

static SLOTS: Mutex<Vec<&'static Slot>> = Mutex::new(Vec::new());

const UNKNOWN: u8 = 0;
const OFF: u8 = 1;
const ON: u8 = 2;
static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);

/// The clock when the first timed call began (0: none yet): where the PE's wall time starts.
static FIRST: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// RPN_COMM routines running on this thread (a call made inside another is not timed).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// The slots this thread used, so that its later calls find theirs without the lock.
    static MINE: RefCell<Vec<&'static Slot>> = const { RefCell::new(Vec::new()) };
}

#[inline]
fn enabled() -> bool {
    match STATE.load(Relaxed) {
        OFF => false,
        ON => true,
        _ => {
            let on = super::setting().as_ref().is_ok_and(Option::is_some);
            STATE.store(if on { ON } else { OFF }, Relaxed);
            on
        }
    }
}

/// Times one call of `routine` until dropped; `counted` false adds its time to the routine
/// without a call (a later step of one call made through several entry points, RPN_COMM_init's).
/// None when statistics are off.
#[inline]
pub fn time_routine(routine: &'static str, counted: bool) -> Option<RoutineTimer> {
    if !enabled() {
        return None;
    }
    let outermost = DEPTH.with(|d| {
        let n = d.get();
        d.set(n + 1);
        n == 0
    });
    let start = outermost.then(|| {
        let t = clock::ticks();
        if FIRST.load(Relaxed) == 0 {
            let _ = FIRST.compare_exchange(0, t.max(1), Relaxed, Relaxed);
        }
        t
    });
    Some(RoutineTimer { routine, counted, start })
}

/// A call being timed (see `time_routine`).
pub struct RoutineTimer {
    routine: &'static str,
    counted: bool,
    /// The clock at entry, for an outermost call.
    start: Option<u64>,
}

impl Drop for RoutineTimer {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
        if let Some(start) = self.start {
            let ticks = clock::ticks().saturating_sub(start);
            let slot = slot(self.routine);
            slot.calls.fetch_add(self.counted as u64, Relaxed);
            slot.ticks.fetch_add(ticks, Relaxed);
        }
    }
}

/// The slot of `routine`: the thread's cache (by address: each name is one string literal),
/// else the shared list (by name), where a new routine gets one.
fn slot(routine: &'static str) -> &'static Slot {
    // (`ptr::eq` of two `&str` compares their addresses and lengths; `try_with`: a call made while
    // the thread's own storage is being destroyed, at its exit, goes to the shared list)
    if let Ok(Some(s)) = MINE.try_with(|m| m.borrow().iter().find(|s| std::ptr::eq(s.name, routine)).copied()) {
        return s;
    }
    let s = {
        let mut all = SLOTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match all.iter().find(|s| s.name == routine) {
            Some(s) => *s,
            None => {
                let s: &'static Slot = Box::leak(Box::new(Slot { name: routine, calls: AtomicU64::new(0), ticks: AtomicU64::new(0) }));
                all.push(s);
                s
            }
        }
    };
    // A name from another literal than the slot's (the same text) is looked up by name each time.
    if std::ptr::eq(s.name, routine) {
        let _ = MINE.try_with(|m| m.borrow_mut().push(s));
    }
    s
}

/// One routine's totals on this PE.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RoutineTotals {
    pub name: &'static str,
    pub calls: u64,
    pub ticks: u64,
}

/// Every routine called so far on this PE, in the order of their first calls, and the clock
/// when the first began (None: no call timed).
pub(super) fn totals() -> (Vec<RoutineTotals>, Option<u64>) {
    let all = SLOTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let list = all.iter().map(|s| RoutineTotals { name: s.name, calls: s.calls.load(Relaxed), ticks: s.ticks.load(Relaxed) }).collect();
    let first = FIRST.load(Relaxed);
    (list, (first != 0).then_some(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The only test of this binary that turns the timing on (the state is the process's).
    #[test]
    fn outermost_calls_are_timed_once_per_thread() {
        enabled(); // read the environment first: no other thread stores STATE after this
        STATE.store(ON, Relaxed);
        const A: &str = "RPN_COMM_test_outer";
        const B: &str = "RPN_COMM_test_inner";
        let run = || {
            for _ in 0..3 {
                let _outer = time_routine(A, true);
                let _inner = time_routine(B, true);
                std::hint::black_box(0);
            }
            let _step = time_routine(A, false);
        };
        std::thread::scope(|s| {
            s.spawn(run);
            s.spawn(run);
        });
        run();
        let (list, first) = totals();
        let a = list.iter().find(|r| r.name == A).expect("the outer routine");
        assert_eq!(a.calls, 9, "3 calls on each of 3 threads; the step adds time only");
        assert!(!list.iter().any(|r| r.name == B), "a call made inside another is part of it");
        assert!(first.is_some());
        STATE.store(OFF, Relaxed);
        drop(time_routine(A, true));
        assert_eq!(totals().0.iter().find(|r| r.name == A).map(|r| r.calls), Some(9), "off: nothing counted");
    }
}
