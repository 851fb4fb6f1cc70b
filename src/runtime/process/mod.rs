//! The end of a PE's process, and the original's clocks.
//!
//! - `stop_flush`: a PE told to stop flushes its output first;
//! - `refusal`: the quiet exit of a PE after a refused call;
//! - `clocks`: the original's selectable clock, its time-of-day and cycle clocks, the OpenMP
//!   thread count kept by save_openmp_state.

pub mod clocks;
mod refusal;
pub mod stop_flush;

pub use self::refusal::stop_after_refusal;
