//! The C ABI of the windows.
//!
//! - `calls`: the window calls (RPN_COMM_i_win_*): creation, queries, epochs, operations;
//! - `boxes`: the sub-array (3-D box) operations;
//! - `mpi_comm_windows`: windows over a caller's MPI communicator (RPN_COMM_ezwin_*,
//!   RPN_COMM_win_allocate_shared, RPNCOMM_Shmget);
//! - `requests`: the request-based operations and their completion.

mod boxes;
mod calls;
mod mpi_comm_windows;
mod requests;

pub use self::boxes::*;
pub use self::calls::*;
pub use self::mpi_comm_windows::*;
pub use self::requests::*;

use super::args;
use crate::core::{Handle, HandleKind};
use crate::error::Result;

/// The window handle the caller passes by reference.
fn window(p: *const Handle) -> Result<Handle> {
    // SAFETY: the caller passes its window variable by reference (or null, refused).
    unsafe { args::handle(p, HandleKind::Window) }
}
