//! The C ABI of the halo exchanges.
//!
//! - `exchange`: RPN_COMM_xch_halo, _halon and lists of fields, blocking or split;
//! - `family`: RPN_COMM_xch_halo_8, RPN_COMM_xch_halox and RPN_COMM_propagate_pilot_circular;
//! - `adjoint`: RPN_COMM_adj_halo8, adj_halo4 and adj_halo;
//! - `variants`: RPN_COMM_xch_haloew, _halons, _halosl, RPN_COMM_haloflip and RPN_COMM_adj_halox;
//! - `valid_halo`: the original's table of valid halo widths (rpn_comm_get/set/inc_valid_halo).

mod adjoint;
mod exchange;
mod family;
mod valid_halo;
mod variants;

pub use self::adjoint::*;
pub use self::exchange::*;
pub use self::family::*;
pub use self::valid_halo::*;
pub use self::variants::*;
