//! The geometry of the halo exchanges, where every refusal of one happens:
//! - `halo`: RPN_COMM_xch_halo's arguments, their checks, the neighbours and the boxes a PE
//!   sends and fills, and RPN_COMM_limit's decomposition;
//! - `halo_family`: the rest of the family built on it (the pole flip, the pilot zone's points,
//!   the checks of RPN_COMM_xch_halox);
//! - `adj_halo`: the adjoint of the exchange (RPN_COMM_adj_halo8, adj_halo4, adj_halo): what it
//!   sends and how the receiver sums it;
//! - `compress`: RPN_COMM_compress and _expand, an array with halos squeezed to its points in
//!   place and back.
//! - `valid_halo`: the original's table of valid halo widths per array (no communication).

pub mod adj_halo;
pub mod compress;
pub mod halo;
pub mod halo_family;
pub mod valid_halo;
