//! The PE grids (RPN_COMM_init, RPN_COMM_init_multi_level), their blocks (RPN_COMM_bloc) and the
//! communicators named after them ('GRID', 'MULTIGRID', 'EW', 'NS', 'GRIDPEERS', 'BLOC',
//! 'BLOCMASTER'): built by the transport's `split`, once per grid or block shape, collectively
//! over the job. As the original, the job (one domain) is cut into MultiGrids multigrids of
//! consecutive job ranks, each into Grids grids of consecutive ranks; everything named after a
//! grid stays within this PE's grid.
//!
//! Before the grid is made: RPN_COMM_init_multi_level's cut of the job (`gridinit_check`),
//! RPN_COMM_mydomain (`my_domain`) and RPN_COMM_set_petopo's placement of PEs on the grid.

use std::sync::Mutex;

use super::super::Runtime;
use super::super::names::CommName;
use crate::core::{Blocks, CollectiveId, Communicator, Grid};
use crate::error::{Error, Result};

/// The communicators of one block shape: this PE's block and, on the masters, the masters.
#[derive(Clone)]
struct BlockComms {
    blocks: Blocks,
    bloc: Communicator,
    masters: Option<Communicator>,
}

/// RPN_COMM_set_petopo's block of PEs (deltai x deltaj); the grid's PE 0's is taken by RPN_COMM_init.
static PETOPO: Mutex<(i32, i32)> = Mutex::new((1, 1));

/// RPN_COMM_set_petopo: PEs are placed on the grid by blocks of `sizx` x `sizy` (before RPN_COMM_init).
pub fn set_petopo(sizx: i32, sizy: i32) {
    *PETOPO.lock().unwrap_or_else(|p| p.into_inner()) = (sizx, sizy);
}

/// The entries of the table of block distributions (the original's).
const MAX_BLOC_ENTRIES: usize = 64;

/// How RPN_COMM_init_multi_level cuts the job: MultiGrids multigrids of Grids grids each
/// (1 x 1 for RPN_COMM_init).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::runtime) struct Layout {
    pub(in crate::runtime) multigrids: usize,
    pub(in crate::runtime) grids: usize,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { multigrids: 1, grids: 1 }
    }
}

impl Layout {
    /// PEs of one grid and of one multigrid, in a job of `npes`.
    fn sizes(&self, npes: usize) -> (usize, usize) {
        (npes / (self.multigrids * self.grids), npes / self.multigrids)
    }

    /// What RPN_COMM_init_multi_level returns on job rank `me`: its grid's number in its
    /// multigrid when there are several grids, else its multigrid's number (0 for one grid).
    fn color(&self, npes: usize, me: usize) -> usize {
        let (gsize, mgsize) = self.sizes(npes);
        if self.grids > 1 { me % mgsize / gsize } else { me / mgsize }
    }
}

/// Where this PE sits among the grids (RPN_COMM_init_multi_level's results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Rank in its grid (Pelocal).
    pub grid_rank: usize,
    /// PEs of its grid (Petotal).
    pub grid_size: usize,
    /// The function's value: grid number in the multigrid (Grids > 1), else multigrid number.
    pub color: usize,
}

/// Where this PE's grid sits in the job: the original's `my_colors` (the domain's number is 0,
/// the job being one domain) and the sizes that number the PEs across grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colors {
    /// This PE's multigrid, from 0.
    pub multigrid: usize,
    /// This PE's grid in its multigrid, from 0.
    pub grid: usize,
    /// Grids per multigrid.
    pub grids: usize,
    /// Multigrids in the job.
    pub multigrids: usize,
    /// PEs of a grid.
    pub grid_size: usize,
    /// PEs of a multigrid.
    pub multigrid_size: usize,
}

/// The grid and the communicators built from it.
pub(in crate::runtime) struct GridComms {
    pub(in crate::runtime) grid: Grid,
    layout: Layout,
    /// 'GRID': this PE's grid (the job when it is one grid).
    whole: Communicator,
    /// 'MULTIGRID': this PE's multigrid.
    multigrid: Communicator,
    row: Communicator,
    column: Communicator,
    peers: Communicator,
    /// The blocks in use ('BLOC', 'BLOCMASTER').
    current: BlockComms,
    /// Every block shape made so far (RPN_COMM_bloc with a shape made before reuses it).
    made: Vec<BlockComms>,
    /// The original's table of block distributions, in the order they entered it: what
    /// RPN_COMM_bloc_find numbers (RPN_COMM_bloc_create adds one each call, RPN_COMM_bloc one
    /// that is not there yet; the grid's own 1 x 1 is not in it until one of them asks for it).
    entries: Vec<Blocks>,
}

impl Runtime {
    /// Collective over the job (RPN_COMM_init_multi_level's check): how the job is cut into
    /// grids, from now on (the grid is made by `set_grid`). Returns this PE's place, its grid
    /// being the run of consecutive job ranks it falls in.
    pub(in crate::runtime) fn set_layout(&mut self, layout: Layout) -> Place {
        if self.grid.is_none() {
            self.layout = layout;
        }
        self.place()
    }

    /// This PE's rank and size in its grid, and RPN_COMM_init_multi_level's value.
    pub fn place(&self) -> Place {
        let layout = self.grid.as_ref().map_or(self.layout, |g| g.layout);
        let (npes, me) = (self.npes(), self.rank());
        let (gsize, _) = layout.sizes(npes);
        Place { grid_rank: me % gsize, grid_size: gsize, color: layout.color(npes, me) }
    }

    /// Where this PE's grid sits in the job (RPN_COMM_get_pe): its multigrid's
    /// number, its grid's number in the multigrid, and the PEs of a grid and of a multigrid.
    /// Refused before RPN_COMM_init.
    pub fn grid_placement(&self) -> Result<Colors> {
        let layout = self.grid_comms()?.layout;
        let (grid_size, multigrid_size) = layout.sizes(self.npes());
        let (multigrid, grid) = self.grid_colors();
        Ok(Colors { multigrid, grid, grids: layout.grids, multigrids: layout.multigrids, grid_size, multigrid_size })
    }

    /// Collective over the job (RPN_COMM_init): in every grid, the `pex` x `pey` of its rank 0
    /// (chosen by its Userinit) and its RPN_COMM_set_petopo's block become the grid's; another
    /// PE's own non-zero values must be the same. Returns the grid. Either every PE gets its
    /// grid or every PE fails.
    pub fn set_grid(&mut self, pex: i32, pey: i32) -> Result<(i32, i32)> {
        let job = self.transport.job().clone();
        let (sizx, sizy) = *PETOPO.lock().unwrap_or_else(|p| p.into_inner());
        let layout = self.grid.as_ref().map_or(self.layout, |g| g.layout);
        let rows = self.agree(&job, CollectiveId::Init, &Ok(()), &[pex as u32, pey as u32, sizx as u32, sizy as u32])?;
        let (npes, me) = (self.npes(), self.rank());
        let (gsize, mgsize) = layout.sizes(npes);
        // The same verdict on every PE: they all judge every grid's choice.
        let grids: Vec<Grid> = (0..npes)
            .step_by(gsize)
            .map(|first| {
                let r = &rows[first];
                let (px, py) = (r[0] as i32, r[1] as i32);
                Grid::placed(px.into(), py.into(), gsize, first, ((r[2] as i32).into(), (r[3] as i32).into()))
            })
            .collect::<Result<_>>()?;
        let grid = grids[me / gsize];
        let (px, py) = (grid.pex as i32, grid.pey as i32);
        let mine = match (pex, pey) {
            (0, _) | (_, 0) => Ok(()),
            given if given == (px, py) => Ok(()),
            _ => Err(Error::BadArgument(format!(
                "this PE was given Pex x Pey = {pex} x {pey}, its grid's PE 0 (PE {}) chose {px} x {py}",
                grid.first()
            ))),
        };
        self.agree(&job, CollectiveId::Init, &mine, &[])?;
        if self.grid.as_ref().is_some_and(|g| g.grid == grid) {
            return Ok((px, py));
        }
        let whole = self.split_named(Some(&grid.members()), CommName::Grid)?;
        let mg_first = me / mgsize * mgsize;
        let multigrid = self.split_named(Some(&(mg_first..mg_first + mgsize).collect::<Vec<_>>()), CommName::MultiGrid)?;
        let row = self.split_named(Some(&grid.row(me)), CommName::Row)?;
        let column = self.split_named(Some(&grid.column(me)), CommName::Column)?;
        // the PEs of this multigrid at this PE's grid rank, one per grid, in grid order
        let peers: Vec<usize> = (0..layout.grids).map(|k| mg_first + k * gsize + grid.rank_of(me)).collect();
        let peers = self.split_named(Some(&peers), CommName::GridPeers)?;
        let blocks = self.make_blocks(&grid, Blocks::whole(&grid))?;
        self.grid = Some(Box::new(GridComms {
            grid,
            layout,
            whole,
            multigrid,
            row,
            column,
            peers,
            current: blocks.clone(),
            made: vec![blocks],
            entries: Vec::new(),
        }));
        Ok((px, py))
    }

    /// Collective over the job (RPN_COMM_bloc): cuts the grid into `nblocx` x `nblocy` blocks,
    /// which 'BLOC' and 'BLOCMASTER' designate from now on.
    pub fn set_blocks(&mut self, nblocx: i32, nblocy: i32) -> Result<()> {
        self.use_blocks(nblocx, nblocy, false)
    }

    /// Collective over the job (RPN_COMM_bloc_create): as `set_blocks`, and the shape takes a
    /// new entry of the table of block distributions even when it has one (as the original's).
    pub fn create_blocks(&mut self, nblocx: i32, nblocy: i32) -> Result<()> {
        self.use_blocks(nblocx, nblocy, true)
    }

    /// RPN_COMM_bloc_find (local): the entry (from 1) of the table of block distributions that
    /// holds `nblocx` x `nblocy` blocks, None when none does; with `set`, those blocks are the
    /// ones 'BLOC' and 'BLOCMASTER' designate from now on.
    pub fn find_blocks(&mut self, nblocx: i32, nblocy: i32, set: bool) -> Result<Option<usize>> {
        let g = self.grid_comms()?;
        let Some(at) = g.entries.iter().position(|b| (b.nblocx as i64, b.nblocy as i64) == (nblocx.into(), nblocy.into())) else {
            return Ok(None);
        };
        if set {
            let blocks = g.entries[at];
            let comms = g.made.iter().find(|b| b.blocks == blocks).cloned();
            let comms = comms.ok_or_else(|| Error::Internal("a block distribution of the table was never made".into()))?;
            self.grid_comms_mut()?.current = comms;
        }
        Ok(Some(at + 1))
    }

    fn use_blocks(&mut self, nblocx: i32, nblocy: i32, new_entry: bool) -> Result<()> {
        let g = self.grid_comms()?;
        let grid = g.grid;
        let checked = Blocks::new(&grid, nblocx.into(), nblocy.into()).and_then(|b| {
            let entered = g.entries.contains(&b);
            if (new_entry || !entered) && g.entries.len() >= MAX_BLOC_ENTRIES {
                return Err(Error::Limit(format!("{MAX_BLOC_ENTRIES} block distributions already made (the original's table size)")));
            }
            Ok(b)
        });
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
        let g = self.grid_comms_mut()?;
        g.current = comms;
        if new_entry || !g.entries.contains(&blocks) {
            g.entries.push(blocks);
        }
        Ok(())
    }

    /// (me, me_x, me_y) of this PE in its grid ((npes, 1) until RPN_COMM_init sets it).
    pub fn mype(&self) -> (usize, usize, usize) {
        let me = self.rank();
        let grid = self.grid.as_ref().map_or(Grid::xy(self.npes(), 1), |g| g.grid);
        let (x, y) = grid.coords(me);
        (grid.rank_of(me), x, y)
    }

    /// (me_x, me_y) of every PE of this PE's grid, by grid rank: what the original's module keeps
    /// as pe_xtab and pe_ytab (and pe_id, their inverse).
    pub fn grid_map(&self) -> Vec<(usize, usize)> {
        let grid = self.grid.as_ref().map_or(Grid::xy(self.npes(), 1), |g| g.grid);
        (0..grid.size()).map(|r| grid.grid_coords(r)).collect()
    }

    /// The communicator of a grid name; None where this PE is in none of its parts ('BLOCMASTER'
    /// on a PE that is no block's master).
    pub(in crate::runtime) fn grid_communicator(&self, name: CommName) -> Result<Option<Communicator>> {
        let g = self.grid_comms()?;
        Ok(match name {
            CommName::Row => Some(g.row.clone()),
            CommName::Column => Some(g.column.clone()),
            CommName::GridPeers => Some(g.peers.clone()),
            CommName::Bloc => Some(g.current.bloc.clone()),
            CommName::BlocMaster => g.current.masters.clone(),
            CommName::Grid => Some(g.whole.clone()),
            CommName::MultiGrid => Some(g.multigrid.clone()),
            CommName::World | CommName::AllGrids => Some(self.transport.job().clone()),
        })
    }

    /// RPN_COMM_colors: this PE's multigrid number and its grid's number in its multigrid (0 and
    /// 0 before RPN_COMM_init, and for a job of one grid).
    pub(in crate::runtime) fn grid_colors(&self) -> (usize, usize) {
        let layout = self.grid.as_ref().map_or(self.layout, |g| g.layout);
        let (gsize, mgsize) = layout.sizes(self.npes());
        let me = self.rank();
        (me / mgsize.max(1), me % mgsize.max(1) / gsize.max(1))
    }

    /// RPN_COMM_init a second time: refused (the grid and its communicators stay, Userinit is
    /// not called again). Ok(()) before the first; the error carries the grid kept.
    /// The grid of the original's self-tests that take every PE as one row of PEs (they set
    /// their module's grid so over MPI_COMM_WORLD, without RPN_COMM_init): set so, collectively,
    /// where no grid is set yet; a grid of several rows is refused. Returns the PEs of the row and
    /// this PE's place in it.
    pub fn one_row_grid(&mut self) -> Result<(i32, i32)> {
        if self.grid.is_none() {
            self.set_grid(self.npes() as i32, 1)?;
        }
        let grid = self.grid_comms()?.grid;
        if grid.pey != 1 {
            return Err(Error::BadArgument(format!(
                "the self-test takes every PE as one row of PEs, and RPN_COMM_init set a grid of {} rows: call it before RPN_COMM_init",
                grid.pey
            )));
        }
        let (x, _) = grid.coords(self.rank());
        Ok((grid.pex as i32, x as i32))
    }

    pub fn refuse_second_init(&self) -> Result<()> {
        match &self.grid {
            None => Ok(()),
            Some(g) => Err(Error::AlreadyInitialized { pex: g.grid.pex, pey: g.grid.pey }),
        }
    }

    /// The grid and the blocks in use (RPN_COMM_carac, RPN_COMM_topo_2).
    pub(in crate::runtime) fn grid_and_blocks(&self) -> Result<(Grid, Blocks)> {
        let g = self.grid_comms()?;
        Ok((g.grid, g.current.blocks))
    }

    pub(in crate::runtime) fn grid_comms(&self) -> Result<&GridComms> {
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

    /// RPN_COMM_init_multi_level's check (collective over the job, before the grid is made): the
    /// PEs agree on `multigrids` and `grids`, which must cut the job into equal grids; the job
    /// is cut so from now on (RPN_COMM_init then makes this PE's grid). Returns this PE's place.
    pub fn gridinit_check(&mut self, multigrids: i32, grids: i32) -> Result<Place> {
        let job = self.transport.job().clone();
        let npes = job.size() as i64;
        let (m, g) = (i64::from(multigrids), i64::from(grids));
        let mine = if m < 1 || g < 1 || npes % (m * g) != 0 {
            Err(Error::BadArgument(format!(
                "MultiGrids = {multigrids} and Grids = {grids} do not cut a job of {npes} PEs into equal grids"
            )))
        } else {
            Ok(())
        };
        // the payload makes PEs that pass different counts a refusal on every PE
        self.agree(&job, CollectiveId::Gridinit, &mine, &[multigrids as u32, grids as u32])?;
        Ok(self.set_layout(Layout { multigrids: m as usize, grids: g as usize }))
    }

    /// RPN_COMM_mydomain (collective over the job, before RPN_COMM_init): this PE's domain among
    /// `ndomains` cutting the job into equal consecutive parts, numbered from `offset`, once every
    /// PE's `err` (what the caller's call_back returned) is not negative. One domain only: a job
    /// of several domains is refused (RPN_COMM_init makes one grid of the whole job).
    pub fn my_domain(&mut self, ndomains: i32, offset: i32, err: i32) -> Result<i32> {
        let job = self.transport.job().clone();
        let mine = self
            .refuse_second_init()
            .and_then(|()| if err < 0 { Err(Error::BadArgument(format!("the call_back returned an error ({err})"))) } else { Ok(()) });
        self.agree(&job, CollectiveId::MyDomain, &mine, &[])?;
        match ndomains {
            1 => Ok(offset),
            n if n > 1 && n as usize <= job.size() => Err(Error::Limit(
                "several domains in one job (ndomains > 1) are not supported: RPN_COMM_init makes one grid of the whole job".into(),
            )),
            n => Err(Error::BadArgument(format!("{n} domains for {} PEs", job.size()))),
        }
    }
}
