//! RPN_COMM_io_dist_coll_check's C entry point (runtime::collectives::dist has the rule).

use std::ffi::c_int;

use super::super::call;
use crate::runtime::collectives::dist::io_dist_coll_check;
use crate::runtime::with_runtime;

/// RPN_COMM_io_dist_coll_check: 1 when a gni x gnj field with halos halo_x, halo_y can be cut
/// over the PE grid for the I/O distributions, else 0 after the original's "CFG: ERROR" lines.
/// Before RPN_COMM_init: -1 and the library's line.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_dist_coll_check(gni: c_int, gnj: c_int, halo_x: c_int, halo_y: c_int) -> c_int {
    let mut fits = false;
    let status = call("RPN_COMM_io_dist_coll_check", || {
        let (pex, pey) = with_runtime(|rt| rt.grid_shape())?;
        let lines = io_dist_coll_check(gni, gnj, halo_x, halo_y, pex, pey);
        for l in &lines {
            println!("{l}");
        }
        fits = lines.is_empty();
        Ok(())
    });
    if status != 0 { status } else { c_int::from(fits) }
}
