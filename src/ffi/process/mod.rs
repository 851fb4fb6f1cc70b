//! The C ABI of the process: its end and its clock.
//!
//! - `end`: RPN_COMM_finalize and the quiet exit after a refused call;
//! - `flush`: the flush that runs when a PE is stopped;
//! - `clock`: RPN_COMM_wtime, the original's C clocks, save/restore_openmp_state.

mod clock;
mod end;
mod flush;

pub use self::clock::*;
pub use self::end::*;
pub use self::flush::*;
