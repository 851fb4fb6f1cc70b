//! rpncomm-windows: the RPN_COMM "windows" one-sided communication API for Fortran codes.
//!
//! Layers, from the caller inwards:
//! - `ffi`: the C ABI (thin, unsafe edge) that the Fortran module `rpn_comm_windows` calls;
//! - `runtime`: the API calls over one transport, with the per-process tables;
//! - `core`: transport-independent, safe window logic (states, modes, bounds, slots, handles);
//! - `transport`: how bytes move and PEs synchronise (`shm`: processes of one node);
//! - `diagnostics`: the messages a PE writes (refused calls, waits that last too long).

pub mod core;
pub mod diagnostics;
pub mod error;
pub mod ffi;
pub mod launcher;
pub mod runtime;
pub mod transport;

pub use error::{Error, Result};
