//! Transport-independent window logic: datatypes, operators, handles and the per-window
//! state machine. Safe Rust only; unit-tested on its own.

pub mod datatype;
pub mod handle;
pub mod operator;
pub mod window_state;

pub use datatype::ElementType;
pub use handle::{Handle, HandleKind, HandleTable};
pub use operator::Operator;
pub use window_state::{GroupSets, Mode, PostPlan, PostRequest, RemoteAccess, WindowState};
