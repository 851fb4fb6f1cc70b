//! The routines GEM calls beyond the windows: the MPI handles of the named communicators and
//! datatypes (RPN_COMM_comm, RPN_COMM_datyp), ranks, the grid and block topology queries
//! (RPN_COMM_carac, bloctopo, topo_2, set_petopo) and the rooted collectives RPN_COMM_reduce and
//! RPN_COMM_gather. Handles exist only in the MPI build; the rest works on every transport.

use std::sync::Mutex;

use super::Runtime;
use super::caller_buffers::{read_caller_bytes, write_caller_bytes};
use super::grid::{Layout, Place};
use crate::core::datatype::normalize_name;
use crate::core::decomp::{self, Topo};
use crate::core::{CollectiveId, Communicator, ElementType, Operator};
use crate::error::{Error, Result};

/// The datatype names of the original's table (RPN_COMM_datyp), in the order of the MPI
/// shim's codes (mpi/shim.c, `fortran_datatype`). MPI_UB and MPI_LB, gone from MPI-3, are not here.
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI handles exist in the MPI build only"))]
pub const MPI_TYPE_NAMES: [&str; 23] = [
    "MPI_BYTE",
    "MPI_PACKED",
    "MPI_CHARACTER",
    "MPI_LOGICAL",
    "MPI_INTEGER",
    "MPI_INTEGER1",
    "MPI_INTEGER2",
    "MPI_INTEGER4",
    "MPI_INTEGER8",
    "MPI_DATATYPE_NULL",
    "MPI_REAL",
    "MPI_REAL4",
    "MPI_REAL8",
    "MPI_REAL16",
    "MPI_DOUBLE_PRECISION",
    "MPI_COMPLEX",
    "MPI_COMPLEX8",
    "MPI_COMPLEX16",
    "MPI_COMPLEX32",
    "MPI_DOUBLE_COMPLEX",
    "MPI_2REAL",
    "MPI_2DOUBLE_PRECISION",
    "MPI_2INTEGER",
];

/// The shim's code of a datatype name (any case, blanks around it ignored).
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI handles exist in the MPI build only"))]
pub fn mpi_type_code(name: &str) -> Result<usize> {
    let n = normalize_name(name);
    MPI_TYPE_NAMES.iter().position(|&t| t == n).ok_or(Error::UnknownName { kind: "datatype", name: n })
}

/// The communicator name the original maps to MPI_COMM_NULL.
const NULL_NAME: &str = "RPN_COMM_NULL";

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

/// RPN_COMM_set_petopo: PEs are placed on the grid by blocks of `sizx` x `sizy` (before RPN_COMM_init).
pub fn set_petopo(sizx: i32, sizy: i32) {
    super::grid::store_petopo(sizx, sizy);
}

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

impl Runtime {
    /// This PE's rank in the communicator `name` (None: this PE is no member).
    pub fn comm_rank(&self, name: &str) -> Result<Option<usize>> {
        Ok(self.named(name)?.map(|c| c.rank()))
    }

    /// The Fortran MPI handle of the communicator `name` (MPI_COMM_NULL's where this PE is no
    /// member, and for 'RPN_COMM_NULL').
    pub fn fortran_comm(&self, name: &str) -> Result<i32> {
        if normalize_name(name) == NULL_NAME {
            return self.transport.fortran_comm(None);
        }
        let comm = self.named(name)?;
        self.transport.fortran_comm(comm.as_ref())
    }

    /// The Fortran MPI handle of the communicator `name` where this PE is a member (None else).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "point-to-point exists in the MPI build only"))]
    pub fn member_fortran_comm(&self, name: &str) -> Result<Option<i32>> {
        match self.named(name)? {
            Some(c) => self.transport.fortran_comm(Some(&c)).map(Some),
            None => Ok(None),
        }
    }

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

    /// The agreement of a rooted collective (`id`) over `comm`: every PE tells its routine, its
    /// `root` and whether its own arguments were accepted (`mine`); unless all were, all are in
    /// the same routine and name the same root, a rank of `comm`, every PE fails (none hangs in a
    /// collective another PE left). Returns the root.
    fn agree_on_root(&mut self, comm: &Communicator, id: CollectiveId, root: i32, mine: &Result<()>) -> Result<usize> {
        let rows = self.agree(comm, id, mine, &[root as u32])?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!(
                "{}: PE {pe} gives root {}, PE 0 root {}",
                id.name(),
                rows[pe][0] as i32,
                rows[0][0] as i32
            )));
        }
        usize::try_from(root).ok().filter(|&r| r < comm.size()).ok_or_else(|| Error::BadRank {
            rank: root as i64,
            npes: comm.size(),
            comm: comm.name().map_or(String::new(), |n| format!(" '{n}'")),
        })
    }

    /// RPN_COMM_reduce: `count` elements of `dtype` from every PE of `com`, combined with `op`
    /// into `recv` on the PE of rank `root` (the others' `recv` is not touched).
    ///
    /// # Safety
    /// `send` holds `count` elements of `dtype`; on the root `recv` has room for as many.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn reduce(&mut self, send: usize, recv: usize, count: i32, dtype: &str, op: &str, root: i32, com: &str) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let checked = (|| {
            let t = ElementType::from_name(dtype)?;
            let op = Operator::from_name(op)?;
            op.check_type(t)?;
            let n = usize::try_from(count).map_err(|_| Error::Negative { what: "count", value: count as i64 })?;
            let bytes = n * t.size();
            if bytes > 0 && (send == 0 || (recv == 0 && comm.rank() as i64 == root as i64)) {
                return Err(Error::NullBuffer { what: "reduce", nelem: count as i64 });
            }
            Ok((t, op, bytes))
        })();
        let root = self.agree_on_root(&comm, CollectiveId::Reduce, root, &checked.as_ref().map(|_| ()).map_err(Clone::clone))?;
        let (t, op, bytes) = checked?;
        // SAFETY: caller's contract: send holds `bytes` bytes.
        let mine = unsafe { read_caller_bytes(send, bytes) };
        if let Some(result) = self.transport.reduce_to(&comm, &mine, t, op, root)? {
            // SAFETY: caller's contract: on the root recv has room for `bytes` bytes.
            unsafe { write_caller_bytes(&result, recv) };
        }
        Ok(())
    }

    /// RPN_COMM_gather: `sendcount` elements from every PE of `com` into `recv` on the PE of
    /// rank `root`, in rank order.
    ///
    /// # Safety
    /// `send` holds `sendcount` elements of `sendtype`; on the root `recv` has room for (PEs of
    /// `com`) x `reccount` elements of `rectype`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gather(
        &mut self,
        send: usize,
        sendcount: i32,
        sendtype: &str,
        recv: usize,
        reccount: i32,
        rectype: &str,
        root: i32,
        com: &str,
    ) -> Result<()> {
        let Some(comm) = self.named(com)? else { return Ok(()) };
        let size = |count: i32, dtype: &str| -> Result<usize> {
            let t = ElementType::from_name(dtype)?;
            let n = usize::try_from(count).map_err(|_| Error::Negative { what: "count", value: count as i64 })?;
            Ok(n * t.size())
        };
        let checked = (|| {
            let sbytes = size(sendcount, sendtype)?;
            let rbytes = size(reccount, rectype)?;
            if sbytes != rbytes {
                return Err(Error::BadArgument(format!("sends {sbytes} bytes per PE but receives {rbytes}")));
            }
            if sbytes > 0 && (send == 0 || (recv == 0 && comm.rank() as i64 == root as i64)) {
                return Err(Error::NullBuffer { what: "gather", nelem: sendcount as i64 });
            }
            Ok(sbytes)
        })();
        let root = self.agree_on_root(&comm, CollectiveId::Gather, root, &checked.as_ref().map(|_| ()).map_err(Clone::clone))?;
        let sbytes = checked?;
        // SAFETY: caller's contract: send holds sbytes bytes.
        let mine = unsafe { read_caller_bytes(send, sbytes) };
        if let Some(data) = self.transport.gather_to(&comm, &mine, root)? {
            // SAFETY: caller's contract: on the root recv has room for all the PEs' bytes.
            unsafe { write_caller_bytes(&data, recv) };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datatype_names_any_case() {
        assert_eq!(mpi_type_code("MPI_double_precision").unwrap(), 14);
        assert_eq!(mpi_type_code(" mpi_integer  ").unwrap(), 4);
        assert_eq!(mpi_type_code("MPI_2INTEGER").unwrap(), 22);
        assert!(mpi_type_code("MPI_DOUBLE").is_err(), "not in the original's table");
    }

    /// One PE: carac and topo_2 after RPN_COMM_init; reduce and gather are copies.
    #[test]
    fn one_pe_queries_and_rooted_collectives() {
        let mut rt = Runtime::start().unwrap();
        assert!(rt.carac().is_err(), "before RPN_COMM_init");
        rt.set_grid(1, 1).unwrap();
        let c = rt.carac().unwrap();
        assert_eq!((c.npex, c.npey, c.sizex, c.ismaster, c.mymaster, c.blocme), (1, 1, 1, 1, 0, 0));
        assert_eq!(rt.topo_2(10, 1, true, false, 0).unwrap().unwrap().max, 11);
        assert_eq!(rt.comm_rank("grid").unwrap(), Some(0));
        let send = [3i32, 4];
        let mut recv = [0i32; 2];
        // SAFETY: two integers each.
        unsafe {
            rt.reduce(send.as_ptr() as usize, recv.as_mut_ptr() as usize, 2, "mpi_integer", "mpi_sum", 0, "GRID").unwrap();
            assert_eq!(recv, [3, 4]);
            assert!(rt.reduce(send.as_ptr() as usize, recv.as_mut_ptr() as usize, 2, "MPI_INTEGER", "MPI_SUM", 1, "GRID").is_err());
            rt.gather(send.as_ptr() as usize, 1, "MPI_INTEGER", recv.as_mut_ptr() as usize, 1, "mpi_integer", 0, "WORLD").unwrap();
            assert_eq!(recv, [3, 4]);
        }
    }
}
