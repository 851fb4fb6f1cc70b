//! Where this PE is: its rank in a named communicator (RPN_COMM_rank), its grid and block
//! coordinates (RPN_COMM_carac, from which the C ABI also answers RPN_COMM_bloctopo) and its tile
//! of a field cut over the grid (RPN_COMM_topo_2, RPN_COMM_topo_xy, RPN_COMM_limit), the rank of
//! the PE at given coordinates (RPN_COMM_get_pe) and the numbers of its grids (RPN_COMM_colors).

use super::super::{CommName, Runtime};
use crate::core::decomp::{self, Topo};
use crate::core::halo;
use crate::error::Result;

/// What RPN_COMM_carac returns (the original's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Carac {
    /// PEs along x.
    pub npex: i32,
    /// PEs along y.
    pub npey: i32,
    /// Rank in the job.
    pub me: i32,
    /// Rank in the grid ('DOMM': the job, one grid).
    pub medomm: i32,
    /// Coordinate along x.
    pub mex: i32,
    /// Coordinate along y.
    pub mey: i32,
    /// Blocks along x and y (RPN_COMM_bloc's nblocx, nblocy; 1 x 1 before it is called).
    pub sizex: i32,
    /// Blocks along y.
    pub sizey: i32,
    /// 1 on the master (first PE) of a block, else 0.
    pub ismaster: i32,
    /// Grid rank of this PE's block master.
    pub mymaster: i32,
    /// This PE's block, numbered x first.
    pub mybloc: i32,
    /// This PE's block's coordinate along x.
    pub myblocx: i32,
    /// This PE's block's coordinate along y.
    pub myblocy: i32,
    /// Rank in the block.
    pub blocme: i32,
}

/// The integers of `Runtime::module_places`.
pub const MODULE_PLACES: usize = 14;

impl Runtime {
    /// This PE's rank in the communicator `name` (None: this PE is no member).
    pub fn comm_rank(&self, name: &str) -> Result<Option<usize>> {
        Ok(self.named(name)?.map(|c| c.rank()))
    }

    /// The number of PEs in the communicator `name` designates (None: this PE is no member).
    pub fn comm_size(&self, name: &str) -> Result<Option<usize>> {
        Ok(self.named(name)?.map(|c| c.size()))
    }

    /// What the original's module variables hold of this PE's place (`MODULE_PLACES` integers):
    /// me, me_x, me_y, the grid's PEs along x and y, medomm, then this PE's rank and the number of
    /// PEs in 'MULTIGRID', 'ALLGRIDS', 'WORLD' and 'GRIDPEERS' (-1 and 0 where it is no member).
    pub fn module_places(&self) -> Result<[i32; MODULE_PLACES]> {
        let (me, mex, mey) = self.mype();
        let c = self.carac()?;
        let mut out = [me as i32, mex as i32, mey as i32, c.npex, c.npey, c.medomm, 0, 0, 0, 0, 0, 0, 0, 0];
        for (i, name) in ["MULTIGRID", "ALLGRIDS", "WORLD", "GRIDPEERS"].into_iter().enumerate() {
            out[6 + 2 * i] = self.comm_rank(name)?.map_or(-1, |r| r as i32);
            out[7 + 2 * i] = self.comm_size(name)?.map_or(0, |n| n as i32);
        }
        Ok(out)
    }

    /// RPN_COMM_carac: the grid and block coordinates of this PE, ranks in its grid ('DOMM').
    pub fn carac(&self) -> Result<Carac> {
        let (grid, blocks) = self.grid_and_blocks()?;
        let me = grid.rank_of(self.rank());
        let (mex, mey) = grid.coords(self.rank());
        let (longx, longy) = blocks.shape();
        let (bx, by) = (mex / longx, mey / longy);
        let (inx, iny) = (mex - bx * longx, mey - by * longy);
        // As the original: before RPN_COMM_bloc the block is the grid, its master grid rank 0 and
        // blocme the grid rank; after it, the corner by the x-first arithmetic of grid ranks
        // (the corner PE itself where RPN_COMM_set_petopo kept the default placement).
        let whole = blocks.nblocx == 1 && blocks.nblocy == 1;
        let corner = if whole { 0 } else { me as i64 - inx as i64 - (grid.pex * iny) as i64 };
        let i = |v: usize| v as i32;
        Ok(Carac {
            npex: i(grid.pex),
            npey: i(grid.pey),
            me: i(me),
            medomm: i(me),
            mex: i(mex),
            mey: i(mey),
            sizex: i(blocks.nblocx),
            sizey: i(blocks.nblocy),
            ismaster: i(if whole { me == 0 } else { inx == 0 && iny == 0 } as usize),
            mymaster: corner as i32,
            mybloc: i(bx + blocks.nblocx * by),
            myblocx: i(bx),
            myblocy: i(by),
            blocme: i(if whole { me } else { inx + longx * iny }),
        })
    }

    /// RPN_COMM_topo_2: this PE's tile of `1..=nglobal` along x (`alongx`) or y.
    /// None: the cut is impossible in mode `relax`.
    pub fn topo_2(&self, nglobal: i32, halo: i32, alongx: bool, fill: bool, relax: i32) -> Result<Option<Topo>> {
        let (grid, _) = self.grid_and_blocks()?;
        let (mex, mey) = grid.coords(self.rank());
        let (me, npe) = if alongx { (mex, grid.pex) } else { (mey, grid.pey) };
        Ok(decomp::topo(me, npe, nglobal, halo, fill, relax))
    }

    /// RPN_COMM_topo_xy: this PE's tile of an `nig` x `njg` field, as
    /// `[mini, maxi, minj, maxj, nil, njl]`, and whether it holds points along both axes.
    pub fn topo_xy(&self, nig: i32, njg: i32, haloi: i32, haloj: i32) -> Result<([i32; 6], bool)> {
        let (grid, _) = self.grid_and_blocks()?;
        let (mex, mey) = grid.coords(self.rank());
        let (mini, maxi, nil) = decomp::topo_xy_axis(nig, grid.pex, mex, haloi);
        let (minj, maxj, njl) = decomp::topo_xy_axis(njg, grid.pey, mey, haloj);
        Ok(([mini, maxi, minj, maxj, nil, njl], nil > 0 && njl > 0))
    }

    /// RPN_COMM_get_pe: the rank of the PE at (`x`, `y`) of grid `grd` of multigrid `sgrd` (-1:
    /// this PE's) in the communicator `name` ('GRID', 'MULTIGRID' or 'ALLGRIDS'; their aliases
    /// too). None where the coordinates or numbers are outside the job.
    pub fn get_pe(&self, x: i32, y: i32, grd: i32, sgrd: i32, name: &str) -> Result<Option<i32>> {
        let (grid, _) = self.grid_and_blocks()?;
        let c = self.grid_placement()?;
        let within = |v: i32, n: usize| usize::try_from(v).ok().filter(|&v| v < n);
        let own = |v: i32, mine: usize, n: usize| if v == -1 { Some(mine) } else { within(v, n) };
        let (Some(x), Some(y), Some(g), Some(s)) =
            (within(x, grid.pex), within(y, grid.pey), own(grd, c.grid, c.grids), own(sgrd, c.multigrid, c.multigrids))
        else {
            return Ok(None);
        };
        let in_grid = grid.grid_rank(x, y);
        let rank = match CommName::from_name(name)? {
            CommName::Grid => in_grid,
            CommName::MultiGrid => in_grid + g * c.grid_size,
            CommName::AllGrids | CommName::World => in_grid + g * c.grid_size + s * c.multigrid_size,
            other => {
                return Err(crate::error::Error::BadArgument(format!(
                    "RPN_COMM_get_pe gives ranks in 'GRID', 'MULTIGRID' or 'ALLGRIDS', not in '{}'",
                    other.name()
                )));
            }
        };
        Ok(Some(rank as i32))
    }

    /// RPN_COMM_limit: see `core::halo::limit`.
    pub fn limit(my_id: i32, npe: i32, gmin: i32, gmax: i32) -> Result<(i32, i32, Vec<i32>, Vec<i32>)> {
        halo::limit(my_id, npe, gmin, gmax)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One PE: carac and topo_2 after RPN_COMM_init.
    #[test]
    fn one_pe_queries() {
        let mut rt = Runtime::start().unwrap();
        assert!(rt.carac().is_err(), "before RPN_COMM_init");
        rt.set_grid(1, 1).unwrap();
        let c = rt.carac().unwrap();
        assert_eq!((c.npex, c.npey, c.sizex, c.ismaster, c.mymaster, c.blocme), (1, 1, 1, 1, 0, 0));
        assert_eq!(rt.topo_2(10, 1, true, false, 0).unwrap().unwrap().max, 11);
        assert_eq!(rt.comm_rank("grid").unwrap(), Some(0));
        assert_eq!(rt.topo_xy(10, 3, 1, 0).unwrap(), ([0, 12, 1, 3, 10, 3], true));
        assert_eq!(rt.get_pe(0, 0, -1, -1, "ALLGRIDS").unwrap(), Some(0));
        assert_eq!(rt.get_pe(1, 0, -1, -1, "GRID").unwrap(), None);
        assert!(rt.get_pe(0, 0, -1, -1, "EW").is_err());
        assert_eq!((rt.colors("WORLD"), rt.colors("grid"), rt.colors("EW")), (0, 0, -1));
    }
}

/// RPN_COMM_qadl: the block of an `ni` x `nj` array that grid PE `ipe` holds when it is cut in
/// equal blocks of ceiling(ni / pe_nx) x ceiling(nj / pe_ny) (the last ones shorter), as the
/// original: (i0, in, j0, jn), from 1 (in < i0 for a PE past the array's end).
pub fn qadl(ipe: i32, ni: i32, nj: i32, pe_nx: i32, pe_ny: i32) -> (i32, i32, i32, i32) {
    let (ilim, jlim) = ((ni + pe_nx - 1) / pe_nx, (nj + pe_ny - 1) / pe_ny);
    let j0 = jlim * (ipe / pe_nx) + 1;
    let i0 = ilim * (ipe % pe_nx) + 1;
    (i0, (i0 + ilim - 1).min(ni), j0, (j0 + jlim - 1).min(nj))
}

impl Runtime {
    /// RPN_COMM_petopo, after RPN_COMM_init: the grid made again as `pex` x `pey` (RPN_COMM_init's
    /// step with those figures on every PE).
    pub fn petopo(&mut self, pex: i32, pey: i32) -> Result<()> {
        self.grid_and_blocks()?;
        self.set_grid(pex, pey).map(drop)
    }

    /// RPN_COMM_qadl on this PE's grid (see `qadl`).
    pub fn grid_qadl(&self, ipe: i32, ni: i32, nj: i32) -> Result<(i32, i32, i32, i32)> {
        let (grid, _) = self.grid_and_blocks()?;
        Ok(qadl(ipe, ni, nj, grid.pex as i32, grid.pey as i32))
    }
}

#[cfg(test)]
mod qadl_tests {
    #[test]
    fn blocks_of_the_grid() {
        // 10 x 7 on 3 x 2 PEs: blocks of 4 x 4
        assert_eq!(super::qadl(0, 10, 7, 3, 2), (1, 4, 1, 4));
        assert_eq!(super::qadl(2, 10, 7, 3, 2), (9, 10, 1, 4));
        assert_eq!(super::qadl(4, 10, 7, 3, 2), (5, 8, 5, 7));
    }
}
