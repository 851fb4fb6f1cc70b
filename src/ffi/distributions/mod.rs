//! The C ABI of the original's older distribution routines that the Fortran layer's
//! fortran/distributions/ calls (the edge gathers there are written on RPN_COMM_allgather):
//!
//! - `fast_dist`: RPN_COMM_fast_dist, RPN_COMM_dist's cut with periodic halos read from the
//!   global array's own;
//! - `shift`: RPN_COMM_move, a buffer shifted to the grid neighbour in one direction;
//! - `check`: RPN_COMM_io_dist_coll_check, whether a field can be cut for the I/O distributions;
//! - `shuf`: RPN_COMM_shuf_dist, _shuf_coll (on the caller's tables of tiles) and _shuf_ezdist_h
//!   (a global array with the local halo), the kin of RPN_COMM_shuf_ezdist and _ezcoll;
//! - `redist`: RPN_COMM_grid_redist and _grid_redist_n, a window of levels reassembled on output PEs.

mod check;
mod fast_dist;
mod redist;
mod shift;
mod shuf;

pub use self::check::*;
pub use self::fast_dist::*;
pub use self::redist::*;
pub use self::shift::*;
pub use self::shuf::*;
