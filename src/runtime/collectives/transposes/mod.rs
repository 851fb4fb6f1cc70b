//! The transposes between the PEs of a grid's row or column:
//!
//! - `transpose`: RPN_COMM_transpose, RPN_COMM_Xpose1 and _Xpose2 (and _transpose_44);
//! - `transpose48`: RPN_COMM_transpose48, RPN_COMM_Xpose148 and _Xpose248 (real to real*8);
//! - `mpi_transpose`: the RPN_MPI layer's other transposes (x-z with its row, x-y) and their
//!   timings.

pub mod mpi_transpose;
pub mod transpose;
pub mod transpose48;
