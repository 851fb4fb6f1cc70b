//! The halo exchanges.
//!
//! - `exchange`: the exchange itself (RPN_COMM_xch_halo, _halon and lists of fields, blocking or
//!   split in a start and a finish), over the transport's channels to the neighbours;
//! - `family`: the rest of the family on top of it (the pole flip, xch_halox, propagate_pilot).

mod exchange;
mod family;

pub(super) use self::exchange::HaloState;
