//! The original's selectable clock (Rpn_comm_wtime and rpn_comm_wtime_set), its time-of-day
//! and cycle-counter clocks (rpn_comm_timeofday, rpn_comm_tsc), and the OpenMP thread count that
//! save_openmp_state keeps for restore_openmp_state.
//!
//! The selected clock is a C function the caller hands over (MPI_Wtime, rpn_comm_timeofday,
//! ...); only its address is kept here (calling it is the C ABI's business). Until one is set,
//! and after rpn_comm_wtime_set is given itself, the clock is the original's dummy one: 1 ns
//! more at every reading.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Which clock Rpn_comm_wtime reads, and its reading when it was selected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectedClock {
    /// The address of the caller's clock function; None for the dummy clock.
    pub function: Option<usize>,
    /// The clock's reading at its selection (Rpn_comm_wtime counts from there).
    pub origin: f64,
}

struct ClockState {
    selected: SelectedClock,
    /// Readings of the dummy clock so far.
    dummy_ticks: u64,
}

static CLOCK: Mutex<ClockState> = Mutex::new(ClockState { selected: SelectedClock { function: None, origin: 0.0 }, dummy_ticks: 0 });

fn clock() -> std::sync::MutexGuard<'static, ClockState> {
    CLOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The dummy clock's next reading: 1 ns more than the last.
pub fn dummy_reading() -> f64 {
    let mut c = clock();
    c.dummy_ticks += 1;
    c.dummy_ticks as f64 * 1.0e-9
}

/// The clock Rpn_comm_wtime reads now.
pub fn selected() -> SelectedClock {
    clock().selected
}

/// Selects the clock `function` (None: the dummy one) whose reading now is `origin`.
pub fn select(function: Option<usize>, origin: f64) {
    clock().selected = SelectedClock { function, origin };
}

/// Seconds since the epoch, to the microsecond (gettimeofday's resolution, as the original).
pub fn time_of_day() -> f64 {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    d.as_secs() as f64 + f64::from(d.subsec_micros()) * 1.0e-6
}

/// Seconds since the first reading of this clock: the original counts processor cycles from its
/// first call and converts them with the clock rate /proc/cpuinfo gave; a monotonic clock of the
/// system measures the same interval without depending on that rate.
pub fn cycle_seconds() -> f64 {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// The OpenMP thread count save_openmp_state kept (1 before any save, as the original).
static SAVED_THREADS: AtomicI32 = AtomicI32::new(1);

/// Keeps `threads` for restore_openmp_state.
pub fn save_threads(threads: i32) {
    SAVED_THREADS.store(threads, Ordering::Relaxed);
}

/// The thread count save_openmp_state kept.
pub fn saved_threads() -> i32 {
    SAVED_THREADS.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dummy_clock_advances_a_nanosecond_per_reading() {
        let a = dummy_reading();
        let b = dummy_reading();
        // other tests may read it in between: at least 1 ns more
        assert!(b - a >= 0.999e-9, "{a} {b}");
    }

    #[test]
    fn time_of_day_is_near_the_system_time() {
        let t = time_of_day();
        assert!(t > 1.6e9, "{t}");
    }

    #[test]
    fn cycle_clock_counts_from_its_first_reading() {
        let a = cycle_seconds();
        let b = cycle_seconds();
        assert!(a >= 0.0 && b >= a && a < 60.0);
    }
}
