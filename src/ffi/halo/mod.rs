//! The C ABI of the halo exchanges.
//!
//! - `exchange`: RPN_COMM_xch_halo, _halon and lists of fields, blocking or split;
//! - `family`: RPN_COMM_xch_halo_8, RPN_COMM_xch_halox and RPN_COMM_propagate_pilot_circular;
//! - `adjoint`: RPN_COMM_adj_halo8, adj_halo4 and adj_halo.

mod adjoint;
mod exchange;
mod family;

pub use self::adjoint::*;
pub use self::exchange::*;
pub use self::family::*;
