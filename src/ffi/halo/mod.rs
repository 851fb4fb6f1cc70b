//! The C ABI of the halo exchanges.
//!
//! - `exchange`: RPN_COMM_xch_halo, _halon and lists of fields, blocking or split;
//! - `family`: RPN_COMM_xch_halo_8, RPN_COMM_xch_halox and RPN_COMM_propagate_pilot_circular.

mod exchange;
mod family;

pub use self::exchange::*;
pub use self::family::*;
