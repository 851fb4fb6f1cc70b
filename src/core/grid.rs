//! The PE grid of RPN_COMM_init and the blocks of RPN_COMM_bloc, and which PEs each named
//! communicator of the grid holds (job ranks, in communicator-rank order). PE `me` sits at
//! `me_x = mod(me, Pex)`, `me_y = me / Pex`, the original's default layout.

use crate::error::{Error, Result};

/// A Pex x Pey grid holding every PE of the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// PEs along x (the length of a row).
    pub pex: usize,
    /// PEs along y (the length of a column).
    pub pey: usize,
}

impl Grid {
    /// The grid Pex x Pey for a job of `npes` PEs (refused unless it holds exactly those PEs).
    pub fn new(pex: i64, pey: i64, npes: usize) -> Result<Self> {
        if pex <= 0 || pey <= 0 || pex.checked_mul(pey) != Some(npes as i64) {
            return Err(Error::BadArgument(format!("Pex x Pey = {pex} x {pey} does not match the {npes} PEs of the job")));
        }
        Ok(Grid { pex: pex as usize, pey: pey as usize })
    }

    /// (me_x, me_y) of job rank `me`.
    pub fn coords(&self, me: usize) -> (usize, usize) {
        (me % self.pex, me / self.pex)
    }

    fn at(&self, x: usize, y: usize) -> usize {
        y * self.pex + x
    }

    /// 'EW' (row): the PEs with `me`'s me_y, ranked by me_x.
    pub fn row(&self, me: usize) -> Vec<usize> {
        let (_, y) = self.coords(me);
        (0..self.pex).map(|x| self.at(x, y)).collect()
    }

    /// 'NS' (column): the PEs with `me`'s me_x, ranked by me_y.
    pub fn column(&self, me: usize) -> Vec<usize> {
        let (x, _) = self.coords(me);
        (0..self.pey).map(|y| self.at(x, y)).collect()
    }
}

/// The grid cut into nblocx x nblocy blocks of equal shape (RPN_COMM_bloc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocks {
    /// Blocks along x.
    pub nblocx: usize,
    /// Blocks along y.
    pub nblocy: usize,
    /// PEs of a block along x and y.
    longx: usize,
    longy: usize,
}

impl Blocks {
    /// One block: the whole grid (what 'BLOC' is until RPN_COMM_bloc is called).
    pub fn whole(grid: &Grid) -> Self {
        Blocks { nblocx: 1, nblocy: 1, longx: grid.pex, longy: grid.pey }
    }

    /// nblocx x nblocy blocks; each count must divide the grid's side.
    pub fn new(grid: &Grid, nblocx: i64, nblocy: i64) -> Result<Self> {
        let fits = |n: i64, side: usize| n > 0 && side.is_multiple_of(n as usize);
        if !fits(nblocx, grid.pex) || !fits(nblocy, grid.pey) {
            return Err(Error::BadArgument(format!(
                "{nblocx} x {nblocy} blocks do not divide the {} x {} PE grid (each must divide its side)",
                grid.pex, grid.pey
            )));
        }
        let (nblocx, nblocy) = (nblocx as usize, nblocy as usize);
        Ok(Blocks { nblocx, nblocy, longx: grid.pex / nblocx, longy: grid.pey / nblocy })
    }

    /// PEs of a block along x and y.
    pub fn shape(&self) -> (usize, usize) {
        (self.longx, self.longy)
    }

    /// 'BLOC': the PEs of `me`'s block, ranked x first inside the block.
    pub fn block(&self, grid: &Grid, me: usize) -> Vec<usize> {
        let (x, y) = grid.coords(me);
        let (x0, y0) = (x / self.longx * self.longx, y / self.longy * self.longy);
        (0..self.longy).flat_map(|ly| (0..self.longx).map(move |lx| grid.at(x0 + lx, y0 + ly))).collect()
    }

    /// 'BLOCMASTER': the first PE (lower left corner) of every block, blocks ranked x first.
    pub fn masters(&self, grid: &Grid) -> Vec<usize> {
        (0..self.nblocy).flat_map(|j| (0..self.nblocx).map(move |i| grid.at(i * self.longx, j * self.longy))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_rows_and_columns_of_a_4_by_2_grid() {
        let g = Grid::new(4, 2, 8).unwrap();
        assert_eq!(g.coords(6), (2, 1));
        assert_eq!(g.row(6), [4, 5, 6, 7]);
        assert_eq!(g.row(1), [0, 1, 2, 3]);
        assert_eq!(g.column(6), [2, 6]);
        assert_eq!(g.column(3), [3, 7]);
        // Every PE is in exactly one row and one column, at its coordinate's rank.
        for me in 0..8 {
            let (x, y) = g.coords(me);
            assert_eq!(g.row(me).iter().position(|&p| p == me), Some(x));
            assert_eq!(g.column(me).iter().position(|&p| p == me), Some(y));
        }
    }

    #[test]
    fn a_grid_must_hold_the_job() {
        assert!(Grid::new(3, 2, 6).is_ok());
        for (x, y) in [(0, 6), (6, 0), (2, 2), (-2, -3), (i64::MAX, 2)] {
            let err = Grid::new(x, y, 6).unwrap_err();
            assert!(err.to_string().contains("does not match the 6 PEs"), "{err}");
        }
    }

    #[test]
    fn blocks_of_a_4_by_2_grid() {
        let g = Grid::new(4, 2, 8).unwrap();
        let whole = Blocks::whole(&g);
        assert_eq!(whole.block(&g, 5), (0..8).collect::<Vec<_>>());
        assert_eq!(whole.masters(&g), [0]);
        // 2 x 1 blocks: the left half and the right half, each 2 x 2.
        let b = Blocks::new(&g, 2, 1).unwrap();
        assert_eq!(b.block(&g, 6), [2, 3, 6, 7]);
        assert_eq!(b.block(&g, 4), [0, 1, 4, 5]);
        assert_eq!(b.masters(&g), [0, 2]);
        // 2 x 2 blocks of 2 x 1 PEs.
        let b = Blocks::new(&g, 2, 2).unwrap();
        assert_eq!(b.block(&g, 7), [6, 7]);
        assert_eq!(b.masters(&g), [0, 2, 4, 6]);
        assert!(Blocks::new(&g, 3, 1).is_err());
        assert!(Blocks::new(&g, 1, 0).is_err());
        assert!(Blocks::new(&g, 1, 4).is_err());
    }
}
