//! rpncomm-windows: the RPN_COMM "windows" one-sided communication API for Fortran codes.
//!
//! Layers, from the caller inwards; each uses only the layers below it (`tests/layers.rs`
//! checks it), and a file's folder names its layer:
//! - `ffi`: the C ABI (thin, unsafe edge) that the Fortran module `rpn_comm_windows` calls;
//! - `launcher`, beside it: the `rpnrun` program that starts shared-memory jobs;
//! - `runtime`: the API calls over one transport, with the per-process tables;
//! - `transport`: how bytes move and PEs synchronise (`shm`: processes of one node; `mpi`);
//! - `core`: transport-independent, safe window logic (communicators, states, modes, bounds,
//!   slots, handles);
//! - `diagnostics`: the messages a PE writes (refused calls, waits that last too long);
//! - `error`: the one error type.
//!
//! The public surface is the C ABI (`ffi`, whose functions are exported unmangled and listed
//! in `include/rpncomm_windows.h`) and the launcher that the `rpnrun` binary runs. Everything
//! else is internal to the crate; `internals` lends parts of it to the crate's own integration
//! tests, loom models and fuzz targets, and is not API.
// Loom builds only model-check the protocols, which they reach through `internals`.
#![cfg_attr(loom, allow(missing_docs))]

pub(crate) mod core;
pub(crate) mod diagnostics;
pub(crate) mod error;
pub mod ffi;
#[doc(hidden)]
pub mod launcher;
pub(crate) mod runtime;
pub(crate) mod transport;

/// NOT API: the internals that this crate's integration tests (`tests/`), loom models and fuzz
/// targets (`fuzz/`) exercise directly. Nothing here is stable or meant for programs, which use
/// the C ABI (`ffi`). One hidden module rather than `cfg` switches, because the users are other
/// crates (integration tests and the fuzz crate build this library without `cfg(test)`).
#[doc(hidden)]
pub mod internals {
    /// The window logic (states, modes, bounds, handles).
    pub mod core {
        pub use crate::core::*;
    }
    /// The shared-memory transport: the job segment (for the stress tests) and, in loom builds,
    /// the protocols the loom models check.
    pub mod shm {
        /// The job segment.
        pub mod job {
            pub use crate::transport::shm::job::{JOB_VERSION, JobSegment};
        }
        #[cfg(loom)]
        pub use crate::transport::shm::{barrier, epochs, lock, slots, sync, wait};
    }
    /// The names the library accepts where a program passes a datatype, operator or communicator
    /// name, asked by the census of ECCC codes' calls (`tests/census.rs`): the parsers the calls
    /// themselves use, so that the census follows them.
    pub mod names {
        /// Whether `name` is a datatype name the collectives and RPN_COMM_datyp accept (the
        /// original's table; MPI_DATATYPE_NULL is one, of no size: a message of it is refused).
        pub fn accepts_datatype(name: &str) -> bool {
            crate::core::MessageType::from_name(name).is_ok()
        }
        /// Whether `name` is an operator name the reductions accept (RPN_COMM_oper also takes
        /// MPI_OP_NULL, which no reduction does).
        pub fn accepts_operator(name: &str) -> bool {
            crate::core::Operator::from_name(name).is_ok()
        }
        /// Whether a reduction (RPN_COMM_allreduce, _reduce) accepts operator `op` on datatype
        /// `datatype` (the logical and bitwise operators apply to some types only).
        pub fn accepts_reduction(datatype: &str, op: &str) -> bool {
            let (Ok(t), Ok(op)) = (crate::core::MessageType::from_name(datatype), crate::core::Operator::from_name(op)) else {
                return false;
            };
            t.check_operator(op).is_ok()
        }
        /// Whether `name` is a communicator name the calls and RPN_COMM_comm accept.
        pub fn accepts_communicator(name: &str) -> bool {
            crate::runtime::CommName::from_name(name).is_ok()
        }
    }
    /// The runtime's gate of a window (threads' operations against configuration calls), for
    /// the loom models.
    #[cfg(loom)]
    pub mod runtime {
        pub use crate::runtime::windows::gate;
    }
}
