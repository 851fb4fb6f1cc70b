//! The PE grid of RPN_COMM_init and the blocks of RPN_COMM_bloc, and which PEs each named
//! communicator of the grid holds (job ranks, in communicator-rank order).
//!
//! A job may hold several grids (RPN_COMM_init_multi_level: Yin-Yang), each a run of consecutive
//! job ranks starting at `first`. Inside its grid a PE of grid rank `r` sits where the original's
//! RPN_COMM_petopo puts it: blocks of `di` x `dj` PEs (RPN_COMM_set_petopo) fill the grid x first,
//! then y, and the PEs of a block fill it x first, then y. The default (1 x 1) is
//! `me_x = mod(r, Pex)`, `me_y = r / Pex`.

use crate::error::{Error, Result};

/// A Pex x Pey grid of PEs: the whole job, or one of its grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// PEs along x (the length of a row).
    pub pex: usize,
    /// PEs along y (the length of a column).
    pub pey: usize,
    /// Job rank of the grid's rank 0.
    first: usize,
    /// RPN_COMM_set_petopo's block, clipped to the grid (1 x 1: x first, row after row).
    di: usize,
    dj: usize,
}

impl Grid {
    /// The grid Pex x Pey for a job of `npes` PEs (refused unless it holds exactly those PEs).
    pub fn new(pex: i64, pey: i64, npes: usize) -> Result<Self> {
        Self::placed(pex, pey, npes, 0, (1, 1))
    }

    /// The default layout of a Pex x Pey grid starting at job rank 0 (no check).
    pub const fn xy(pex: usize, pey: usize) -> Self {
        Grid { pex, pey, first: 0, di: 1, dj: 1 }
    }

    /// The grid Pex x Pey of `npes` PEs whose rank 0 is job rank `first`, its PEs placed by
    /// blocks of `petopo` = (sizx, sizy) PEs as RPN_COMM_set_petopo asks (each clipped to 1..side,
    /// as the original).
    pub fn placed(pex: i64, pey: i64, npes: usize, first: usize, petopo: (i64, i64)) -> Result<Self> {
        if pex <= 0 || pey <= 0 || pex.checked_mul(pey) != Some(npes as i64) {
            return Err(Error::BadArgument(format!("Pex x Pey = {pex} x {pey} does not match the {npes} PEs of the grid")));
        }
        let (pex, pey) = (pex as usize, pey as usize);
        let clip = |d: i64, side: usize| (d.max(1) as u64).min(side as u64) as usize;
        Ok(Grid { pex, pey, first, di: clip(petopo.0, pex), dj: clip(petopo.1, pey) })
    }

    /// Number of PEs of the grid.
    pub fn size(&self) -> usize {
        self.pex * self.pey
    }

    /// Job rank of the grid's rank 0.
    pub fn first(&self) -> usize {
        self.first
    }

    /// The job ranks of the grid, in grid-rank order.
    pub fn members(&self) -> Vec<usize> {
        (self.first..self.first + self.size()).collect()
    }

    /// Whether job rank `me` is in this grid.
    pub fn holds(&self, me: usize) -> bool {
        (self.first..self.first + self.size()).contains(&me)
    }

    /// Whether the PEs are placed x first, row after row (RPN_COMM_set_petopo's default or an
    /// equivalent block).
    pub fn is_row_major(&self) -> bool {
        self.dj == 1 || self.di == self.pex
    }

    /// (me_x, me_y) of job rank `me` (a PE of this grid).
    pub fn coords(&self, me: usize) -> (usize, usize) {
        let r = me - self.first;
        // the band of block rows holding r: every band but the last is dj rows high
        let j0 = r / (self.pex * self.dj) * self.dj;
        let h = self.dj.min(self.pey - j0);
        let in_band = r - j0 * self.pex;
        // the block of the band: every block but the last is di wide
        let i0 = in_band / (self.di * h) * self.di;
        let w = self.di.min(self.pex - i0);
        let in_block = in_band - i0 * h;
        (i0 + in_block % w, j0 + in_block / w)
    }

    /// Job rank of the PE at (x, y).
    pub fn at(&self, x: usize, y: usize) -> usize {
        let j0 = y / self.dj * self.dj;
        let h = self.dj.min(self.pey - j0);
        let i0 = x / self.di * self.di;
        let w = self.di.min(self.pex - i0);
        self.first + j0 * self.pex + i0 * h + (y - j0) * w + (x - i0)
    }

    /// (x, y) of the PE of rank `r` in the grid's own communicator ('GRID': job ranks from
    /// `first`, in order).
    pub fn grid_coords(&self, r: usize) -> (usize, usize) {
        self.coords(self.first + r)
    }

    /// The rank in 'GRID' of the PE at (x, y) (x + y * pex only with the default placement).
    pub fn grid_rank(&self, x: usize, y: usize) -> usize {
        self.at(x, y) - self.first
    }

    /// Grid rank of job rank `me` (a PE of this grid).
    pub fn rank_of(&self, me: usize) -> usize {
        me - self.first
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
        if self.nblocx == 1 && self.nblocy == 1 {
            // the original's default 'BLOC' is the grid itself, in grid-rank order
            return grid.members();
        }
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

    /// The placement by nested loops over blocks, then PEs of a block (what RPN_COMM_petopo
    /// does), against the closed form of `coords` and `at`.
    fn by_loops(pex: usize, pey: usize, di: usize, dj: usize) -> Vec<(usize, usize)> {
        let mut placed = Vec::new();
        for j0 in (0..pey).step_by(dj) {
            for i0 in (0..pex).step_by(di) {
                for j in j0..(j0 + dj).min(pey) {
                    for i in i0..(i0 + di).min(pex) {
                        placed.push((i, j));
                    }
                }
            }
        }
        placed
    }

    #[test]
    fn petopo_blocks_place_pes_as_nested_loops_do() {
        for (pex, pey) in [(1, 1), (2, 1), (1, 3), (2, 2), (3, 2), (4, 4), (5, 3), (8, 8), (6, 4)] {
            for (di, dj) in [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (1, 999_999), (4, 4), (5, 3), (0, -4)] {
                let g = Grid::placed(pex as i64, pey as i64, pex * pey, 10, (di, dj)).unwrap();
                let want = by_loops(pex, pey, g.di, g.dj);
                for (r, &(x, y)) in want.iter().enumerate() {
                    assert_eq!(g.coords(10 + r), (x, y), "{pex} x {pey} by {di} x {dj}: rank {r}");
                    assert_eq!(g.at(x, y), 10 + r);
                }
                // rows and columns stay in rank order whatever the blocks (a split keeps it)
                for me in 10..10 + pex * pey {
                    assert!(g.row(me).windows(2).all(|w| w[0] < w[1]));
                    assert!(g.column(me).windows(2).all(|w| w[0] < w[1]));
                }
            }
        }
    }

    #[test]
    fn petopo_examples_of_the_original() {
        // 8 x 8, sizx = 2, sizy = 4: bottom row 00 01 08 09 16 17 24 25, row 4 32 33 40 41 48 ...
        let g = Grid::placed(8, 8, 64, 0, (2, 4)).unwrap();
        assert_eq!(g.row(0), [0, 1, 8, 9, 16, 17, 24, 25]);
        assert_eq!(g.row(32), [32, 33, 40, 41, 48, 49, 56, 57]);
        assert_eq!(g.coords(38), (0, 7));
        // 4 x 4, sizx = 1, sizy = 4 (GEM's Ptopo_alongY: set_petopo(1, 999999)): columns of 4
        let g = Grid::placed(4, 4, 16, 0, (1, 999_999)).unwrap();
        assert_eq!(g.column(5), [4, 5, 6, 7]);
        assert_eq!(g.row(0), [0, 4, 8, 12]);
        assert!(!g.is_row_major());
        assert!(Grid::placed(4, 1, 4, 0, (1, 999_999)).unwrap().is_row_major(), "one row: x first anyway");
    }

    #[test]
    fn a_second_grid_starts_after_the_first() {
        let yang = Grid::placed(2, 2, 4, 4, (1, 1)).unwrap();
        assert_eq!(yang.members(), [4, 5, 6, 7]);
        assert_eq!((yang.coords(6), yang.rank_of(6)), ((0, 1), 2));
        assert_eq!(yang.row(7), [6, 7]);
        assert_eq!(yang.column(5), [5, 7]);
        assert!(yang.holds(4) && !yang.holds(3) && !yang.holds(8));
        assert_eq!(Blocks::whole(&yang).block(&yang, 5), [4, 5, 6, 7]);
        assert_eq!(Blocks::whole(&yang).masters(&yang), [4]);
        assert_eq!(Blocks::new(&yang, 2, 1).unwrap().block(&yang, 7), [5, 7]);
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
