//! The windows: their calls, their table and the request-based operations.
//!
//! - `calls`: the window calls (RPN_COMM_i_win_*), collective ones and the operations;
//! - `boxes`: the sub-array (3-D box) operations;
//! - `mpi_comm_windows`: windows over a caller's MPI communicator (RPN_COMM_ezwin_create,
//!   RPN_COMM_win_allocate_shared);
//! - `requests`: the request-based operations and their completion;
//! - `request_lanes`: the per-lane request sets those operations queue in;
//! - `table`: the table of this PE's windows, which threads read without a common lock;
//! - `gate`: a window's gate, which operations pass and configuration calls shut.

mod boxes;
mod calls;
pub mod gate;
mod mpi_comm_windows;
mod request_lanes;
mod requests;
mod table;

pub use self::boxes::BoxOp;
pub(crate) use self::table::WindowTable;
