//! The PE grids and what is asked of them: the grid and its blocks, the topology queries of a
//! PE, the descriptors of fields cut over the grid and the I/O PE sets.
//!
//! - `init`: RPN_COMM_init (the grid, its blocks and the communicators named after them),
//!   RPN_COMM_init_multi_level's cut of the job into grids, RPN_COMM_mydomain, set_petopo;
//! - `topology`: a PE's rank and size in a named communicator, carac, topo_2, topo_xy and limit,
//!   the numbers of a PE (get_pe) and of its grids (colors);
//! - `grid2d`: the descriptors of RPN_COMM_create_2dgrid and RPN_COMM_get_2dgrid;
//! - `io_sets`: the I/O PE sets (RPN_COMM_create_io_set and its queries).

mod grid2d;
mod init;
pub mod io_sets;
mod topology;

pub use self::grid2d::Grid2d;
pub(super) use self::init::{GridComms, Layout};
pub use self::init::{Place, set_petopo};
pub use self::topology::MODULE_PLACES;
