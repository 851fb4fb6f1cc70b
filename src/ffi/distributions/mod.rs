//! The C ABI of the original's older distribution routines that the Fortran layer's
//! fortran/distributions/ calls (the others there are written on public routines):
//!
//! - `fast_dist`: RPN_COMM_fast_dist, RPN_COMM_dist's cut with periodic halos read from the
//!   global array's own;
//! - `shift`: RPN_COMM_move, a buffer shifted to the grid neighbour in one direction;
//! - `check`: RPN_COMM_io_dist_coll_check, whether a field can be cut for the I/O distributions.

mod check;
mod fast_dist;
mod shift;

pub use self::check::*;
pub use self::fast_dist::*;
pub use self::shift::*;
