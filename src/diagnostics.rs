//! Messages a PE writes on stderr: the one-line error of a refused call and the report of a
//! wait that lasts too long (a hang: typically a PE that skipped a collective call). Both
//! name the RPN_COMM routine being executed, which the C ABI records on entry, and the PE,
//! whose rank the runtime records here when it starts. The bottom layer with `error`: it
//! imports nothing else of the crate, so every layer above can report.

use std::cell::{Cell, RefCell};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::error::Error;

/// Environment variable: seconds a PE waits before it reports whom it waits for (0 = never).
pub const ENV_HANG_REPORT: &str = "RPNCOMM_HANG_REPORT";
const DEFAULT_HANG_REPORT: Duration = Duration::from_secs(30);

thread_local! {
    static ROUTINE: Cell<&'static str> = const { Cell::new("RPN_COMM") };
    static SUBJECT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Records the routine the calling thread executes until the guard is dropped.
pub struct RoutineGuard {
    previous: &'static str,
}

pub fn enter(routine: &'static str) -> RoutineGuard {
    RoutineGuard { previous: ROUTINE.with(|r| r.replace(routine)) }
}

impl Drop for RoutineGuard {
    fn drop(&mut self) {
        ROUTINE.with(|r| r.set(self.previous));
    }
}

/// The routine the calling thread executes (for messages).
pub fn routine() -> &'static str {
    ROUTINE.with(Cell::get)
}

/// Records what the calling thread works on ("window 2") until the guard is dropped, for
/// the reports of waits deep inside (a job barrier of a collective window call).
pub struct SubjectGuard {
    previous: Option<String>,
}

pub fn about(subject: &str) -> SubjectGuard {
    SubjectGuard { previous: SUBJECT.with(|s| s.replace(Some(subject.to_string()))) }
}

impl Drop for SubjectGuard {
    fn drop(&mut self) {
        SUBJECT.with(|s| *s.borrow_mut() = self.previous.take());
    }
}

/// " on window 2" when the calling thread recorded a subject, else "".
#[cfg_attr(feature = "mpi", allow(dead_code, reason = "the shared-memory waits report with it"))]
pub fn on_subject() -> String {
    SUBJECT.with(|s| s.borrow().as_ref().map_or(String::new(), |w| format!(" on {w}")))
}

/// This PE's rank in the job, once the runtime started; -1 before.
static RANK: AtomicI64 = AtomicI64::new(-1);

/// Records this PE's rank in the job, which every later message names.
pub fn set_rank(rank: usize) {
    RANK.store(rank as i64, Ordering::Relaxed);
}

/// This PE's rank once the runtime started (for messages), else -1.
pub fn current_rank() -> i64 {
    RANK.load(Ordering::Relaxed)
}

/// Environment variable: a non-empty value other than "0" silences the messages of refused calls.
pub const ENV_QUIET: &str = "RPNCOMM_QUIET";

fn quiet() -> bool {
    static QUIET: OnceLock<bool> = OnceLock::new();
    *QUIET.get_or_init(|| std::env::var(ENV_QUIET).is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// Writes the one-line message of a call `routine` refused with `err` (unless quiet): the one
/// error-reporting function of the library.
pub fn report(routine: &str, err: &Error) {
    if !quiet() {
        write_line(routine, &err.to_string());
    }
}

/// Writes "ROUTINE: PE n: text" as one line (one write, so lines of different PEs do not
/// interleave).
pub fn write_line(routine: &str, text: &str) {
    let line = match current_rank() {
        r if r >= 0 => format!("{routine}: PE {r}: {text}\n"),
        _ => format!("{routine}: {text}\n"),
    };
    let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
}

fn parse_interval(text: Option<&str>) -> Option<Duration> {
    match text.map(str::trim) {
        None | Some("") => Some(DEFAULT_HANG_REPORT),
        Some(t) => match t.parse::<f64>() {
            Ok(s) if s > 0.0 && s.is_finite() => Some(Duration::from_secs_f64(s)),
            Ok(_) => None,
            Err(_) => Some(DEFAULT_HANG_REPORT),
        },
    }
}

/// How long a wait lasts before it is reported, and again between reports (None: never).
pub fn hang_report_interval() -> Option<Duration> {
    static INTERVAL: OnceLock<Option<Duration>> = OnceLock::new();
    *INTERVAL.get_or_init(|| parse_interval(std::env::var(ENV_HANG_REPORT).ok().as_deref()))
}

/// Reports a wait of `waited` so far for `what` ("PE 3 to close epoch 7 of window 2").
pub fn report_hang(waited: Duration, what: &str) {
    write_line(routine(), &format!("still waiting after {:.1} s for {what}", waited.as_secs_f64()));
}

/// "PE 3" or "PEs 1, 4, 7" (at most 16 listed).
#[cfg_attr(feature = "mpi", allow(dead_code, reason = "the shared-memory waits report with it"))]
pub fn list_pes(pes: &[usize]) -> String {
    const SHOWN: usize = 16;
    let mut text = pes.iter().take(SHOWN).map(usize::to_string).collect::<Vec<_>>().join(", ");
    if pes.len() > SHOWN {
        text.push_str(&format!(" and {} more", pes.len() - SHOWN));
    }
    if pes.len() == 1 { format!("PE {text}") } else { format!("PEs {text}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_parsing() {
        assert_eq!(parse_interval(None), Some(DEFAULT_HANG_REPORT));
        assert_eq!(parse_interval(Some("2.5")), Some(Duration::from_millis(2500)));
        assert_eq!(parse_interval(Some("0")), None);
        assert_eq!(parse_interval(Some("junk")), Some(DEFAULT_HANG_REPORT));
    }

    #[test]
    fn routine_is_restored_on_exit() {
        assert_eq!(routine(), "RPN_COMM");
        {
            let _outer = enter("RPN_COMM_i_win_close");
            {
                let _inner = enter("RPN_COMM_barrier");
                assert_eq!(routine(), "RPN_COMM_barrier");
            }
            assert_eq!(routine(), "RPN_COMM_i_win_close");
        }
        assert_eq!(routine(), "RPN_COMM");
    }

    #[test]
    fn subject_is_restored_on_exit() {
        assert_eq!(on_subject(), "");
        {
            let _w = about("window 2");
            assert_eq!(on_subject(), " on window 2");
        }
        assert_eq!(on_subject(), "");
    }

    #[test]
    fn pe_lists() {
        assert_eq!(list_pes(&[3]), "PE 3");
        assert_eq!(list_pes(&[1, 4]), "PEs 1, 4");
        assert!(list_pes(&(0..20).collect::<Vec<_>>()).ends_with("and 4 more"));
    }
}
