//! The C ABI of the PE grids.
//!
//! - `init`: RPN_COMM_init's steps, RPN_COMM_bloc, the cut of the job into grids
//!   (RPN_COMM_init_multi_level), RPN_COMM_mydomain and RPN_COMM_set_petopo;
//! - `topology`: mype, rank, size, carac, bloctopo, limit, limit_2 and topo_2;
//! - `grid2d`: RPN_COMM_create_2dgrid and RPN_COMM_get_2dgrid;
//! - `io_sets`: the I/O PE sets.

mod grid2d;
mod init;
mod io_sets;
mod topology;

pub use self::grid2d::*;
pub use self::init::*;
pub use self::io_sets::*;
pub use self::topology::*;
