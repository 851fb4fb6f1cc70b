//! The halo exchanges.
//!
//! - `exchange`: the exchange itself (RPN_COMM_xch_halo, _halon and lists of fields, blocking or
//!   split in a start and a finish), over the transport's channels to the neighbours;
//! - `family`: where the family's routines enter (RPN_COMM_xch_halo and _halon through
//!   `xch_halo_polar`, which adds the pole flip to the exchange), xch_halox and propagate_pilot;
//! - `adjoint`: the adjoint of the exchange (RPN_COMM_adj_halo8, adj_halo4, adj_halo), over the
//!   exchange's own round;
//! - `variants`: RPN_COMM_haloflip, RPN_COMM_adj_halox and RPN_COMM_xch_halosl.

mod adjoint;
mod exchange;
mod family;
mod variants;

pub(super) use self::exchange::HaloState;
