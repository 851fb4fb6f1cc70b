//! Transport-independent window logic: datatypes, operators, handles and the per-window
//! state machine. Safe Rust only (the compiler holds it to that); unit-tested on its own.
#![forbid(unsafe_code)]

pub mod collective;
pub mod communicator;
pub mod datatype;
pub mod decomp;
pub mod grid;
pub mod halo;
pub mod halo_family;
pub mod handle;
pub mod io_sets;
pub mod operator;
pub mod requests;
pub mod subarray;
pub mod window_state;

pub use collective::CollectiveId;
pub use communicator::{CommId, Communicator};
pub use datatype::ElementType;
pub use grid::{Blocks, Grid};
pub use handle::{Handle, HandleKind, HandleTable};
pub use operator::Operator;
pub use window_state::{GroupSets, Mode, PostPlan, PostRequest, RemoteAccess, WindowState};
