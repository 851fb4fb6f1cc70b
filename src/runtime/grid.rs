//! The PE grid (RPN_COMM_init), its blocks (RPN_COMM_bloc) and the communicators named after
//! them ('EW', 'NS', 'GRIDPEERS', 'BLOC', 'BLOCMASTER'): built from the grid by the transport's
//! `split`, once per grid or block shape, collectively over the job.

use super::Runtime;
use super::names::CommName;
use crate::core::{Blocks, CollectiveId, Communicator, Grid};
use crate::error::{Error, Result};

/// The communicators of one block shape: this PE's block and, on the masters, the masters.
#[derive(Clone)]
struct BlockComms {
    blocks: Blocks,
    bloc: Communicator,
    masters: Option<Communicator>,
}

/// The grid and the communicators built from it.
pub(super) struct GridComms {
    pub(super) grid: Grid,
    row: Communicator,
    column: Communicator,
    peers: Communicator,
    /// The blocks in use ('BLOC', 'BLOCMASTER').
    current: BlockComms,
    /// Every block shape made so far (RPN_COMM_bloc with a shape made before reuses it).
    made: Vec<BlockComms>,
}

impl Runtime {
    /// Collective over the job (RPN_COMM_init): PE 0's `pex` x `pey` (chosen by its Userinit)
    /// becomes everybody's grid; another PE's own non-zero values must be the same. Returns
    /// the grid. Either every PE gets the grid or every PE fails.
    pub fn set_grid(&mut self, pex: i32, pey: i32) -> Result<(i32, i32)> {
        let job = self.transport.job().clone();
        let (sizx, sizy) = super::gem::petopo();
        let rows = self.agree(&job, CollectiveId::Init, &Ok(()), &[pex as u32, pey as u32, sizx as u32, sizy as u32])?;
        let (px, py) = (rows[0][0] as i32, rows[0][1] as i32);
        // The same verdict on every PE: they all judge PE 0's grid.
        let grid = Grid::new(px.into(), py.into(), self.npes())?;
        // PE 0's RPN_COMM_set_petopo places the PEs, as in the original.
        let fill = (rows[0][2] as i32, rows[0][3] as i32);
        if !super::gem::petopo_is_default(grid.pex, grid.pey, fill) {
            return Err(Error::Limit(
                "RPN_COMM_set_petopo: PEs placed on the grid other than x first (blocks taller than one PE and narrower than the grid) are not supported yet"
                    .into(),
            ));
        }
        let mine = match (pex, pey) {
            (0, _) | (_, 0) => Ok(()),
            given if given == (px, py) => Ok(()),
            _ => Err(Error::BadArgument(format!("this PE was given Pex x Pey = {pex} x {pey}, PE 0 chose {px} x {py}"))),
        };
        self.agree(&job, CollectiveId::Init, &mine, &[])?;
        if self.grid.as_ref().is_some_and(|g| g.grid == grid) {
            return Ok((px, py));
        }
        let me = self.rank();
        let row = self.split_named(Some(&grid.row(me)), CommName::Row)?;
        let column = self.split_named(Some(&grid.column(me)), CommName::Column)?;
        let peers = self.split_named(Some(&[me]), CommName::GridPeers)?;
        let whole = self.make_blocks(&grid, Blocks::whole(&grid))?;
        self.grid = Some(Box::new(GridComms { grid, row, column, peers, current: whole.clone(), made: vec![whole] }));
        Ok((px, py))
    }

    /// Collective over the job (RPN_COMM_bloc): cuts the grid into `nblocx` x `nblocy` blocks,
    /// which 'BLOC' and 'BLOCMASTER' designate from now on.
    pub fn set_blocks(&mut self, nblocx: i32, nblocy: i32) -> Result<()> {
        let grid = self.grid_comms()?.grid;
        let checked = Blocks::new(&grid, nblocx.into(), nblocy.into());
        // Every PE must ask for the same blocks: a split over different ones would never match.
        let job = self.transport.job().clone();
        let rows =
            self.agree(&job, CollectiveId::Bloc, &checked.as_ref().map(|_| ()).map_err(Clone::clone), &[nblocx as u32, nblocy as u32])?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!(
                "PE {pe} asks for {} x {} blocks, PE 0 for {} x {}",
                rows[pe][0] as i32, rows[pe][1] as i32, rows[0][0] as i32, rows[0][1] as i32
            )));
        }
        let blocks = checked?;
        let made = self.grid_comms()?.made.iter().find(|b| b.blocks == blocks).cloned();
        let comms = match made {
            Some(comms) => comms,
            None => {
                let comms = self.make_blocks(&grid, blocks)?;
                self.grid_comms_mut()?.made.push(comms.clone());
                comms
            }
        };
        self.grid_comms_mut()?.current = comms;
        Ok(())
    }

    /// (me, me_x, me_y) on the grid ((npes, 1) until RPN_COMM_init sets it).
    pub fn mype(&self) -> (usize, usize, usize) {
        let me = self.rank();
        let grid = self.grid.as_ref().map_or(Grid { pex: self.npes(), pey: 1 }, |g| g.grid);
        let (x, y) = grid.coords(me);
        (me, x, y)
    }

    /// The communicator of a grid name; None where this PE is in none of its parts ('BLOCMASTER'
    /// on a PE that is no block's master).
    pub(super) fn grid_communicator(&self, name: CommName) -> Result<Option<Communicator>> {
        let g = self.grid_comms()?;
        Ok(match name {
            CommName::Row => Some(g.row.clone()),
            CommName::Column => Some(g.column.clone()),
            CommName::GridPeers => Some(g.peers.clone()),
            CommName::Bloc => Some(g.current.bloc.clone()),
            CommName::BlocMaster => g.current.masters.clone(),
            CommName::World | CommName::Grid | CommName::AllGrids => Some(self.transport.job().clone()),
        })
    }

    /// RPN_COMM_init a second time: refused (the grid and its communicators stay, Userinit is
    /// not called again). Ok(()) before the first; the error carries the grid kept.
    pub fn refuse_second_init(&self) -> Result<()> {
        match &self.grid {
            None => Ok(()),
            Some(g) => Err(Error::AlreadyInitialized { pex: g.grid.pex, pey: g.grid.pey }),
        }
    }

    /// The grid and the blocks in use (RPN_COMM_carac, RPN_COMM_topo_2).
    pub(super) fn grid_and_blocks(&self) -> Result<(Grid, Blocks)> {
        let g = self.grid_comms()?;
        Ok((g.grid, g.current.blocks))
    }

    pub(super) fn grid_comms(&self) -> Result<&GridComms> {
        self.grid.as_deref().ok_or_else(|| Error::CallOrder("the PE grid is not set: RPN_COMM_init sets it".into()))
    }

    fn grid_comms_mut(&mut self) -> Result<&mut GridComms> {
        self.grid.as_deref_mut().ok_or_else(|| Error::CallOrder("the PE grid is not set: RPN_COMM_init sets it".into()))
    }

    fn make_blocks(&mut self, grid: &Grid, blocks: Blocks) -> Result<BlockComms> {
        let me = self.rank();
        let bloc = self.split_named(Some(&blocks.block(grid, me)), CommName::Bloc)?;
        let masters = blocks.masters(grid);
        let masters = self.transport.split(masters.contains(&me).then_some(&masters[..]), CommName::BlocMaster.name())?;
        Ok(BlockComms { blocks, bloc, masters })
    }

    /// The communicator of this PE's `part` (it is a member), named `name`.
    fn split_named(&mut self, part: Option<&[usize]>, name: CommName) -> Result<Communicator> {
        self.transport.split(part, name.name())?.ok_or_else(|| Error::Internal(format!("no '{}' communicator for this PE", name.name())))
    }
}
