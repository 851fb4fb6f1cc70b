//! The windows of the MPI transport:
//! - `window`: a window over MPI-3 one-sided communication;
//! - `hybrid`: a window whose communicator spans nodes, direct between the PEs of a node;
//! - `logical`: logical accumulates (and 8-byte compare-and-swap) done by the transport, for an
//!   MPI that loses them.

pub mod hybrid;
pub mod logical;
pub mod window;
