//! The end of a PE's process.
//!
//! - `stop_flush`: a PE told to stop flushes its output first;
//! - `refusal`: the quiet exit of a PE after a refused call.

mod refusal;
pub mod stop_flush;

pub use self::refusal::stop_after_refusal;
