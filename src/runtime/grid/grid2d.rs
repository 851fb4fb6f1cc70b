//! The descriptors of RPN_COMM_create_2dgrid and RPN_COMM_get_2dgrid: a global field cut over
//! the PE grid, kept on this PE (the distributions of `collectives::dist` read them).

use std::sync::Mutex;

use super::super::Runtime;
use crate::core::decomp;
use crate::error::{Error, Result};

/// RPN_COMM_MAGIC of the original's constants: RPN_COMM_create_2dgrid's ids are slot XOR it.
pub const RPN_COMM_MAGIC: i32 = 0x1357_9BDF;
/// Slots of RPN_COMM_create_2dgrid's table, as in the original (descriptors are never freed).
pub const MAX_2DGRIDS: usize = 64;

/// A descriptor made by RPN_COMM_create_2dgrid: [gni, gnj, mini, maxi, minj, maxj] and the
/// tiles' starts and counts along x and y (origin 1).
#[derive(Debug, Clone)]
pub struct Grid2d {
    pub dims: [i32; 6],
    pub start_i: Vec<i32>,
    pub count_i: Vec<i32>,
    pub start_j: Vec<i32>,
    pub count_j: Vec<i32>,
}

/// The descriptors of this PE (slot k is id k XOR RPN_COMM_MAGIC, k from 1).
static GRIDS_2D: Mutex<Vec<Grid2d>> = Mutex::new(Vec::new());

impl Runtime {
    /// RPN_COMM_create_2dgrid (local to this PE): a descriptor of a `gni` x `gnj` field cut over
    /// the PE grid (decomp::grid2d_axis), stored `mini:maxi` x `minj:maxj` on every PE; its id as
    /// the original makes them (slot number XOR RPN_COMM_MAGIC). Refused when a halo (1 - mini,
    /// 1 - minj) does not fit beside the largest tile, or the table's 64 slots are used.
    pub fn create_2dgrid(&self, dims: [i32; 6]) -> Result<i32> {
        let (grid, _) = self.grid_and_blocks()?;
        let [gni, gnj, mini, maxi, minj, maxj] = dims;
        let bad = |what: String| Error::BadArgument(what);
        let (start_i, count_i) =
            decomp::grid2d_axis(gni, grid.pex).ok_or_else(|| bad(format!("gni = {gni} cannot be cut over {} PEs", grid.pex)))?;
        let (start_j, count_j) =
            decomp::grid2d_axis(gnj, grid.pey).ok_or_else(|| bad(format!("gnj = {gnj} cannot be cut over {} PEs", grid.pey)))?;
        // as the original: the halo is 1 - min, and the storage must hold it on both sides of the largest tile
        if i64::from(1) - i64::from(mini) > i64::from(maxi) - i64::from(count_i[0]) {
            return Err(bad(format!(
                "mini:maxi = {mini}:{maxi} cannot hold a tile of {} points with a halo of {}",
                count_i[0],
                1 - i64::from(mini)
            )));
        }
        if i64::from(1) - i64::from(minj) > i64::from(maxj) - i64::from(count_j[0]) {
            return Err(bad(format!(
                "minj:maxj = {minj}:{maxj} cannot hold a tile of {} points with a halo of {}",
                count_j[0],
                1 - i64::from(minj)
            )));
        }
        let mut table = GRIDS_2D.lock().unwrap_or_else(|p| p.into_inner());
        if table.len() >= MAX_2DGRIDS {
            return Err(Error::Limit(format!("{MAX_2DGRIDS} 2D grids already made (the original's table size)")));
        }
        table.push(Grid2d { dims, start_i, count_i, start_j, count_j });
        Ok(table.len() as i32 ^ RPN_COMM_MAGIC)
    }

    /// RPN_COMM_get_2dgrid: the descriptor of `grid_id`, when its tiles fit in `dim_i` x `dim_j`.
    pub fn get_2dgrid(&self, grid_id: i32, dim_i: i32, dim_j: i32) -> Result<Grid2d> {
        let (grid, _) = self.grid_and_blocks()?;
        let table = GRIDS_2D.lock().unwrap_or_else(|p| p.into_inner());
        let slot = grid_id ^ RPN_COMM_MAGIC;
        let g = usize::try_from(slot)
            .ok()
            .filter(|&s| s >= 1)
            .and_then(|s| table.get(s - 1))
            .ok_or_else(|| Error::BadArgument(format!("{grid_id} is no id of RPN_COMM_create_2dgrid")))?;
        if i64::from(dim_i) < grid.pex as i64 || i64::from(dim_j) < grid.pey as i64 {
            return Err(Error::BadArgument(format!("dim_i = {dim_i}, dim_j = {dim_j}: the grid has {} x {} tiles", grid.pex, grid.pey)));
        }
        Ok(g.clone())
    }
}
