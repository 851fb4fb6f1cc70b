//! Hang reports over MPI (`RPNCOMM_HANG_REPORT`, as over shared memory). The shared-memory
//! transport waits in its own loops and reports from there; over MPI a PE waits inside a blocking
//! MPI call (barrier, fence, post/start/complete/wait, window creation), which cannot be
//! interrupted. So a watchdog thread looks at the call in progress and reports, from outside, one
//! that has not returned after the interval, and again after each further interval. It never
//! calls MPI (below MPI_THREAD_MULTIPLE only one thread may): it writes a line on stderr, and
//! publishes the call in progress where PEs of other nodes read it (`far_entries`).
//!
//! Cost on the calling thread: one compare-and-swap and a few plain stores to record the call,
//! one store to clear it (no lock: a fence epoch is a fraction of a microsecond); no clock is
//! read there (the watchdog times a call from when it first sees it, so a report comes at most
//! one tick late). Only blocking collective-like calls are watched, not the one-element passive
//! operations. Collective calls are made by one thread of a PE at a time; a program that breaks
//! that rule gets the second call unwatched, never a torn record (`watch`).

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering, fence};
use std::time::{Duration, Instant};

use super::channels::far_entries;
use crate::diagnostics;

/// The watched call in progress, as a seqlock: `SEQUENCE` is odd while the one writer changes
/// the fields, and grows by 2 with every call, so that two calls of the same name are told apart.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);
static IN_CALL: AtomicBool = AtomicBool::new(false);
/// The routine and the MPI call, each a `&'static str` as (address, length).
static ROUTINE: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
static CALL: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
static START: Once = Once::new();

fn store(field: &[AtomicUsize; 2], text: &'static str) {
    field[0].store(text.as_ptr() as usize, Ordering::Relaxed);
    field[1].store(text.len(), Ordering::Relaxed);
}

/// Marks the blocking MPI call `call` (e.g. "MPI_Win_fence") as in progress until the guard is
/// dropped. A no-op when hang reports are off.
pub fn watch(call: &'static str) -> Option<WatchGuard> {
    let interval = diagnostics::hang_report_interval()?;
    START.call_once(|| start(interval));
    // One writer at a time, whatever the program does: the fields are claimed by making the
    // sequence odd with one compare-and-swap. A thread that finds them claimed (a program that
    // makes collective calls from two threads at once) leaves them alone, and that call goes
    // unwatched: a torn record would make the watchdog read a string that is not one.
    let sequence = SEQUENCE.load(Ordering::Relaxed);
    if sequence % 2 == 1 || SEQUENCE.compare_exchange(sequence, sequence + 1, Ordering::Relaxed, Ordering::Relaxed).is_err() {
        return Some(WatchGuard { sequence: None });
    }
    // the odd number is visible before any field changes
    fence(Ordering::Release);
    store(&ROUTINE, diagnostics::routine());
    store(&CALL, call);
    IN_CALL.store(true, Ordering::Relaxed);
    SEQUENCE.store(sequence + 2, Ordering::Release);
    Some(WatchGuard { sequence: Some(sequence + 2) })
}

/// Ends the watch of a call: the record is cleared if it is still this call's.
pub struct WatchGuard {
    sequence: Option<u64>,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        if self.sequence == Some(SEQUENCE.load(Ordering::Relaxed)) {
            IN_CALL.store(false, Ordering::Release);
        }
    }
}

/// The call in progress as (sequence, routine, call), None between calls or while the writer
/// changes it (the watchdog then looks again at its next tick).
fn in_call() -> Option<(u64, &'static str, &'static str)> {
    let before = SEQUENCE.load(Ordering::Acquire);
    let fields = [&ROUTINE[0], &ROUTINE[1], &CALL[0], &CALL[1]].map(|f| f.load(Ordering::Relaxed));
    let in_call = IN_CALL.load(Ordering::Relaxed);
    fence(Ordering::Acquire);
    if before % 2 == 1 || SEQUENCE.load(Ordering::Relaxed) != before || !in_call {
        return None;
    }
    // SAFETY: an even sequence number unchanged around the reads: the four fields were stored
    // together by the one writer `watch` admits at a time, from two `&'static str`, which live
    // for the program.
    let text = |address: usize, len: usize| unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(address as *const u8, len)) };
    Some((before, text(fields[0], fields[1]), text(fields[2], fields[3])))
}

/// The watchdog thread: wakes every tick (a quarter of the interval, 50 ms to 1 s) and reports a
/// call that has lasted an interval more than when it last reported it.
fn start(interval: Duration) {
    let tick = (interval / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
    let spawned = std::thread::Builder::new().name("rpncomm-watchdog".into()).spawn(move || {
        // (generation, first seen, reports made) of the call being timed
        let mut timed: Option<(u64, Instant, u32)> = None;
        loop {
            std::thread::sleep(tick);
            let Some((generation, routine, call)) = in_call() else {
                timed = None;
                far_entries::publish_in_call(0);
                continue;
            };
            // PEs of other nodes waiting for this one read it (`far_entries`)
            far_entries::publish_in_call(generation);
            let (since, reports) = match timed {
                Some((g, since, reports)) if g == generation => (since, reports),
                _ => (Instant::now(), 0),
            };
            let waited = since.elapsed();
            let reports = if waited >= interval * (reports + 1) {
                report(routine, call, waited);
                reports + 1
            } else {
                reports
            };
            timed = Some((generation, since, reports));
        }
    });
    if let Err(e) = spawned {
        diagnostics::write_line(diagnostics::routine(), &format!("no hang reports: cannot start the watchdog thread ({e})"));
    }
}

fn report(routine: &str, call: &str, waited: Duration) {
    // a per-step collective says which of its calls it is, so that the lines of the PEs waiting
    // in different calls together name them
    let which = crate::core::collectives::call_log::describe_last(routine).map_or(String::new(), |c| format!(" ({c})"));
    diagnostics::write_line(
        routine,
        &format!(
            "still waiting after {:.1} s for the other PEs in {call}{which} (one of them has not made the matching call, or is stuck)",
            waited.as_secs_f64()
        ),
    );
}
