//! Where the PEs sit and how the data is cut among them:
//! - `grid`: the PE grids of RPN_COMM_init, their blocks and the members of each named
//!   communicator of a grid;
//! - `decomp`: the cut of a global index range into tiles along one axis of the PE grid;
//! - `io_sets`: where the PEs of an I/O PE set sit on the grid.

pub mod decomp;
pub mod grid;
pub mod io_sets;
