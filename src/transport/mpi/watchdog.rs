//! Hang reports over MPI (`RPNCOMM_HANG_REPORT`, as over shared memory). The shared-memory
//! transport waits in its own loops and reports from there; over MPI a PE waits inside a blocking
//! MPI call (barrier, fence, post/start/complete/wait, window creation), which cannot be
//! interrupted. So a watchdog thread looks at the call in progress and reports, from outside, one
//! that has not returned after the interval, and again after each further interval. It never
//! calls MPI (the library runs MPI_THREAD_SERIALIZED) and only writes a line on stderr.
//!
//! Cost on the calling thread: one uncontended lock to record the call and one to clear it; no
//! clock is read there (the watchdog times a call from when it first sees it, so a report comes
//! at most one tick late). Only blocking collective-like calls are watched, not the one-element
//! passive operations.

use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use crate::diagnostics;

/// The watched call in progress (there is at most one: calls are serialised by the runtime lock).
struct InCall {
    /// Increases with every call, so that two calls of the same name are told apart.
    generation: u64,
    routine: &'static str,
    call: &'static str,
}

static CURRENT: Mutex<(u64, Option<InCall>)> = Mutex::new((0, None));
static START: Once = Once::new();

/// Marks the blocking MPI call `call` (e.g. "MPI_Win_fence") as in progress until the guard is
/// dropped. A no-op when hang reports are off.
pub fn watch(call: &'static str) -> Option<WatchGuard> {
    let interval = diagnostics::hang_report_interval()?;
    START.call_once(|| start(interval));
    let mut current = lock();
    current.0 += 1;
    current.1 = Some(InCall { generation: current.0, routine: diagnostics::routine(), call });
    Some(WatchGuard)
}

pub struct WatchGuard;

impl Drop for WatchGuard {
    fn drop(&mut self) {
        lock().1 = None;
    }
}

fn lock() -> std::sync::MutexGuard<'static, (u64, Option<InCall>)> {
    CURRENT.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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
            let seen = lock().1.as_ref().map(|c| (c.generation, c.routine, c.call));
            let Some((generation, routine, call)) = seen else {
                timed = None;
                continue;
            };
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
    diagnostics::write_line(
        routine,
        &format!(
            "still waiting after {:.1} s for the other PEs in {call} (one of them has not made the matching call, or is stuck)",
            waited.as_secs_f64()
        ),
    );
}
