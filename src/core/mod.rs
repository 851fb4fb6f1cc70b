//! Transport-independent window logic: datatypes, operators, handles and the per-window
//! state machine. Safe Rust only (the compiler holds it to that); unit-tested on its own.
//!
//! A folder per concern:
//! - `windows`: a window's state machine and checks, its sub-array (box) transfers and the
//!   requests of the request-based operations;
//! - `topology`: the PE grids and their blocks, the cut of an index range into tiles, I/O PE sets;
//! - `halos`: the geometry and checks of the halo exchange, of the rest of its family and of its
//!   adjoint;
//! - `messages`: the datatypes of the collectives' and point-to-point messages, the root's blocks
//!   of a gather or scatter of varying counts, the envelope of a message through the channels;
//! - `collectives`: the plans of the collectives that move data as a plan says (the spread);
//!
//! and the names every layer speaks beside them:
//! - `collective`: which collective routine a PE is in (the code that travels between PEs);
//! - `communicator`: the PEs a call or a window spans;
//! - `datatype`: element datatypes of windows and their names;
//! - `operator`: accumulate and reduction operators and their arithmetic;
//! - `options`: the options of RPN_COMM_option and its kin, the case conversions;
//! - `handle`: the handles a Fortran caller holds, and their validation.
//!
//! The modules of the folders are also reachable here (`core::halo`, `core::requests`, ...),
//! the paths the rest of the crate uses.
#![forbid(unsafe_code)]

pub mod collective;
pub mod collectives;
pub mod communicator;
pub mod datatype;
pub mod halos;
pub mod handle;
pub mod messages;
pub mod operator;
pub mod options;
pub mod topology;
pub mod windows;

pub use self::collectives::spread;
pub use self::halos::{adj_halo, halo, halo_family, valid_halo};
pub use self::messages::{blocks, envelope, message_type};
pub use self::topology::{decomp, grid, io_sets};
pub use self::windows::{requests, subarray, window_state};

pub use collective::CollectiveId;
pub use communicator::{CommId, CommMap, Communicator};
pub use datatype::ElementType;
pub use grid::{Blocks, Grid};
pub use handle::{Handle, HandleKind, HandleTable};
pub use message_type::MessageType;
pub use operator::Operator;
pub use window_state::{GroupSets, Mode, PostPlan, PostRequest, RemoteAccess, WindowState};
