//! The original's helpers around handles, datatypes and communicators: RPN_COMM_split (a 1D
//! tile), grank and colors (membership and colors of a named communicator), datyp_indx (the place
//! of a datatype name in the original's table), i_valid_datyp and i_datyp_extent, defo (what
//! 'DEFO' designates), and the MPI-only ones (world_set/get, split_by_node, group, ngrank,
//! i_group, custom_comm, infotyp, status_size, i_user_datyp), refused with one line by the
//! shared-memory build, which has no MPI handle to give.

use super::super::Runtime;
use super::super::names::datatype_size;
use crate::core::datatype::normalize_name;
use crate::core::{Handle, MessageType};
use crate::error::{Error, Result};
use crate::runtime::CommName;

/// RPN_COMM_split's tile of `1..=nxg` for PE `mex` of `nx`, with a halo of `halox`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub minx: i32,
    pub maxx: i32,
    pub nxl: i32,
    pub nxlmax: i32,
    pub nx0: i32,
}

/// RPN_COMM_split: the tile of RPN_COMM_limit (its first tile is the longest), its dimensions
/// with the halo; `fill` makes the longest tile's dimension odd (as the original: maxx grows by
/// one when nxlmax is even).
pub fn split(mex: i32, nx: i32, nxg: i32, halox: i32, fill: bool) -> Result<Split> {
    let (nx0, nxn, counts, _) = Runtime::limit(mex, nx, 1, nxg)?;
    let nxlmax = counts[0];
    let maxx = nxlmax + halox + if fill { 1 - nxlmax % 2 } else { 0 };
    Ok(Split { minx: 1 - halox, maxx, nxl: nxn - nx0 + 1, nxlmax, nx0 })
}

/// RPN_COMM_datyp_indx: the place (from 1) of a datatype name in the original's table, which
/// also holds MPI_UB and MPI_LB (3 and 4); -1 for a name it does not hold.
pub fn datyp_indx(name: &str) -> i32 {
    match normalize_name(name).as_str() {
        "MPI_UB" => 3,
        "MPI_LB" => 4,
        _ => match MessageType::from_name(name) {
            Ok(m) if m.code() < 2 => m.code() as i32 + 1,
            Ok(m) => m.code() as i32 + 3,
            Err(_) => -1,
        },
    }
}

/// RPN_COMM_i_valid_datyp: whether a handle designates a datatype (MPI_DATATYPE_NULL's
/// handle from RPN_COMM_i_datyp is one, as in the original).
pub fn valid_datyp(h: &Handle) -> bool {
    datatype_size(h).is_ok()
}

/// RPN_COMM_i_datyp_extent: the extent in bytes of one element of the datatype of a handle.
pub fn datyp_extent(h: &Handle) -> Result<i32> {
    match datatype_size(h)? {
        0 => Err(Error::BadArgument("MPI_DATATYPE_NULL has no extent".into())),
        n => Ok(n as i32),
    }
}

/// RPN_COMM_defo: 'DEFO' designates the communicator `name` from now on (any name of
/// RPN_COMM_comm's: 'GRID', 'EW', 'WORLD', ...).
pub fn defo(name: &str) -> Result<()> {
    CommName::from_name(name)?.set_default_communicator();
    Ok(())
}

impl Runtime {
    /// RPN_COMM_grank: whether this PE is a member of the communicator `name`.
    pub fn grank(&self, name: &str) -> Result<bool> {
        Ok(self.named(name)?.is_some())
    }

    /// RPN_COMM_colors: 'WORLD' and 'ALLGRIDS' 0 (the job is one domain), 'MULTIGRID' this PE's
    /// multigrid number, 'GRID' its grid's number in the multigrid; -1 for another name.
    pub fn colors(&self, name: &str) -> i32 {
        let (multigrid, grid) = self.grid_colors();
        match normalize_name(name).as_str() {
            "WORLD" | "ALLGRIDS" => 0,
            "MULTIGRID" => multigrid as i32,
            "GRID" => grid as i32,
            _ => -1,
        }
    }

    /// A communicator RPN_COMM_custom_comm named (its Fortran MPI handle).
    pub fn custom_comm(&self, name: &str) -> Option<i32> {
        let key = normalize_name(name);
        self.custom.iter().find(|(n, _)| *n == key).map(|&(_, h)| h)
    }
}

#[cfg(feature = "mpi")]
pub use self::mpi_side::*;
#[cfg(not(feature = "mpi"))]
pub use self::shm_side::*;

/// The MPI-only helpers, on MPI.
#[cfg(feature = "mpi")]
mod mpi_side {
    use std::sync::Mutex;

    use crate::core::datatype::normalize_name;
    use crate::core::{Handle, HandleKind};
    use crate::error::{Error, Result};
    use crate::runtime::{CommName, is_started, with_runtime};
    use crate::transport::mpi::handles as mpi;

    /// RPN_COMM_custom_comm's modes (RPN_COMM_GET, RPN_COMM_SET, RPN_COMM_DEL of RPN_COMM.inc).
    const CUSTOM_GET: i32 = 12345;
    const CUSTOM_SET: i32 = 12346;
    const CUSTOM_DEL: i32 = 12347;

    /// The datatype handles of RPN_COMM_i_user_datyp: code USER_BASE + the place of the caller's
    /// Fortran MPI datatype in USER_TYPES (kept as MPI gave it: its extent is asked of MPI).
    const USER_BASE: u32 = 0x4000_0000;
    /// The caller's MPI datatypes that RPN_COMM_i_user_datyp gave handles to. A table, not the
    /// handle itself: an MPI's Fortran handles take all 32 bits (MPICH's have the high bit set).
    static USER_TYPES: Mutex<Vec<i32>> = Mutex::new(Vec::new());

    /// RPN_COMM_world_set: the job is made of `fcomm` when the library starts; refused once it
    /// has started (the job cannot change under the grid).
    pub fn world_set(fcomm: i32) -> Result<()> {
        if is_started() {
            return Err(Error::CallOrder("RPN_COMM_world_set must come before RPN_COMM_init (the library has started)".into()));
        }
        mpi::world_set(fcomm);
        Ok(())
    }

    /// RPN_COMM_world_get: what RPN_COMM_world_set gave, else MPI_COMM_WORLD.
    pub fn world_get() -> Result<i32> {
        Ok(mpi::world_get())
    }

    /// The splits RPN_COMM_split_by_node made: (communicator split, node, peers), kept as the
    /// original keeps them (16 at most), so that a second call gives the same communicators.
    static NODE_SPLITS: Mutex<Vec<(i32, i32, i32)>> = Mutex::new(Vec::new());
    const NODE_SPLITS_KEPT: usize = 16;

    /// RPN_COMM_split_by_node (collective over `origcomm` the first time): node and peer
    /// communicators, node rank, peer rank, node size.
    pub fn split_by_node(origcomm: i32) -> Result<[i32; 5]> {
        with_runtime(|_| Ok(()))?;
        let mut kept = NODE_SPLITS.lock().unwrap_or_else(|p| p.into_inner());
        let (node, peer) = match kept.iter().find(|&&(o, _, _)| o == origcomm) {
            Some(&(_, node, peer)) => (node, peer),
            None => {
                let (node, peer) = mpi::split_by_node(origcomm)?;
                if kept.len() < NODE_SPLITS_KEPT {
                    kept.push((origcomm, node, peer));
                }
                (node, peer)
            }
        };
        let (noderank, isiz) = mpi::rank_size(node)?;
        let (peerrank, _) = mpi::rank_size(peer)?;
        Ok([node, peer, noderank, peerrank, isiz])
    }

    /// RPN_COMM_group: the MPI group of the communicator `name` (MPI_GROUP_NULL's where this PE
    /// is no member of it).
    pub fn group(name: &str) -> Result<i32> {
        let fcomm = with_runtime(|rt| rt.fortran_comm(name))?;
        mpi::comm_group(fcomm)
    }

    /// RPN_COMM_i_group's group of a communicator handle (of RPN_COMM_i_comm).
    pub fn group_of_handle(h: &Handle) -> Result<i32> {
        let fcomm = with_runtime(|rt| {
            let c = rt.communicator(h)?;
            rt.transport.fortran_comm(Some(&c))
        })?;
        mpi::comm_group(fcomm)
    }

    /// MPI_GROUP_NULL's handle.
    pub fn group_null() -> i32 {
        mpi::group_null()
    }

    /// RPN_COMM_ngrank: whether this PE is a member of the MPI group `group`.
    pub fn ngrank(group: i32) -> Result<bool> {
        with_runtime(|_| Ok(()))?;
        if group == mpi::group_null() {
            return Err(Error::BadArgument("MPI_GROUP_NULL has no members".into()));
        }
        mpi::group_member(group)
    }

    /// RPN_COMM_infotyp: MPI_INFO_NULL's handle for 'MPI_INFO_NULL', the only name it knows.
    pub fn infotyp(name: &str) -> Result<i32> {
        match normalize_name(name).as_str() {
            "MPI_INFO_NULL" => Ok(mpi::info_null()),
            n => Err(Error::UnknownName { kind: "info", name: n.to_string() }),
        }
    }

    /// RPN_COMM_status_size: MPI_STATUS_SIZE of the MPI's Fortran bindings.
    pub fn status_size() -> Result<i32> {
        Ok(mpi::status_size())
    }

    /// RPN_COMM_custom_comm: `mode` RPN_COMM_GET gives the communicator of `name` (one of
    /// RPN_COMM_comm's, or one named before; MPI_COMM_NULL's for no such name), RPN_COMM_SET
    /// names `mpicom` (and gives it back), RPN_COMM_DEL forgets a name given by RPN_COMM_SET (and
    /// gives MPI_COMM_NULL's); the library's own names cannot be given or forgotten.
    pub fn custom_comm(mpicom: i32, name: &str, mode: i32) -> Result<i32> {
        with_runtime(|rt| {
            let null = rt.transport.fortran_comm(None)?;
            let key = normalize_name(name);
            let ours = CommName::from_name(&key).is_ok() || key == "RPN_COMM_NULL";
            match mode {
                CUSTOM_GET if ours => rt.fortran_comm(&key),
                CUSTOM_GET => Ok(rt.custom_comm(&key).unwrap_or(null)),
                CUSTOM_SET | CUSTOM_DEL if ours => Err(Error::BadArgument(format!(
                    "'{key}' is a communicator name of the library, which RPN_COMM_custom_comm cannot change"
                ))),
                CUSTOM_SET if key.is_empty() => Err(Error::BadArgument("an empty communicator name".into())),
                CUSTOM_SET => {
                    rt.custom.retain(|(n, _)| *n != key);
                    rt.custom.push((key, mpicom));
                    Ok(mpicom)
                }
                CUSTOM_DEL => {
                    rt.custom.retain(|(n, _)| *n != key);
                    Ok(null)
                }
                _ => Err(Error::BadArgument(format!("mode {mode} is none of RPN_COMM_GET, RPN_COMM_SET, RPN_COMM_DEL"))),
            }
        })
    }

    /// RPN_COMM_i_user_datyp: a datatype handle of the caller's MPI datatype `ftype` (one whose
    /// extent MPI computes); RPN_COMM_i_valid_datyp and i_datyp_extent take it, the routines that
    /// move data by datatype name do not.
    pub fn user_datyp(ftype: i32) -> Result<Handle> {
        with_runtime(|_| Ok(()))?;
        mpi::type_extent(ftype)?;
        let mut types = USER_TYPES.lock().unwrap_or_else(|p| p.into_inner());
        let at = types.iter().position(|&t| t == ftype).unwrap_or_else(|| {
            types.push(ftype);
            types.len() - 1
        });
        let code = u32::try_from(at).ok().filter(|&c| c < USER_BASE).ok_or(Error::Limit("too many user datatypes".into()))?;
        Ok(Handle::encode(HandleKind::Datatype, USER_BASE + code))
    }

    /// The caller's MPI datatype of a handle of RPN_COMM_i_user_datyp (None: another handle).
    pub fn user_datatype_extent(h: &Handle) -> Option<Result<i32>> {
        let at = h.decode(HandleKind::Datatype).ok()?.checked_sub(USER_BASE)?;
        let ftype = *USER_TYPES.lock().unwrap_or_else(|p| p.into_inner()).get(at as usize)?;
        Some(mpi::type_extent(ftype).map(|e| e as i32))
    }
}

/// The MPI-only helpers refused, on shared memory.
#[cfg(not(feature = "mpi"))]
mod shm_side {
    use crate::core::Handle;
    use crate::error::{Error, Result};

    fn refused<T>(what: &'static str) -> Result<T> {
        Err(Error::Unsupported(what))
    }

    pub fn world_set(_fcomm: i32) -> Result<()> {
        refused("RPN_COMM_world_set takes an MPI communicator: it needs the MPI build (make MPI=1)")
    }
    pub fn world_get() -> Result<i32> {
        refused("RPN_COMM_world_get gives an MPI communicator: it needs the MPI build (make MPI=1)")
    }
    pub fn split_by_node(_origcomm: i32) -> Result<[i32; 5]> {
        refused("RPN_COMM_split_by_node splits an MPI communicator: it needs the MPI build (make MPI=1)")
    }
    pub fn group(_name: &str) -> Result<i32> {
        refused("RPN_COMM_group gives an MPI group: it needs the MPI build (make MPI=1)")
    }
    pub fn group_of_handle(_h: &Handle) -> Result<i32> {
        refused("RPN_COMM_i_group holds an MPI group: it needs the MPI build (make MPI=1)")
    }
    pub fn group_null() -> i32 {
        -1
    }
    pub fn ngrank(_group: i32) -> Result<bool> {
        refused("RPN_COMM_ngrank takes an MPI group: it needs the MPI build (make MPI=1)")
    }
    pub fn infotyp(_name: &str) -> Result<i32> {
        refused("RPN_COMM_infotyp gives an MPI info handle: it needs the MPI build (make MPI=1)")
    }
    pub fn status_size() -> Result<i32> {
        refused("RPN_COMM_status_size is MPI's MPI_STATUS_SIZE: it needs the MPI build (make MPI=1)")
    }
    pub fn custom_comm(_mpicom: i32, _name: &str, _mode: i32) -> Result<i32> {
        refused("RPN_COMM_custom_comm names MPI communicators: it needs the MPI build (make MPI=1)")
    }
    pub fn user_datyp(_ftype: i32) -> Result<Handle> {
        refused("RPN_COMM_i_user_datyp takes an MPI datatype: it needs the MPI build (make MPI=1)")
    }
    pub fn user_datatype_extent(_h: &Handle) -> Option<Result<i32>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 10 points on 3 PEs: tiles of 4, 4, 2 (the first the longest), as RPN_COMM_limit cuts.
    #[test]
    fn split_as_limit_cuts() {
        assert_eq!(split(0, 3, 10, 2, false).unwrap(), Split { minx: -1, maxx: 6, nxl: 4, nxlmax: 4, nx0: 1 });
        assert_eq!(split(2, 3, 10, 0, false).unwrap(), Split { minx: 1, maxx: 4, nxl: 2, nxlmax: 4, nx0: 9 });
        assert_eq!(split(1, 3, 10, 1, true).unwrap().maxx, 6, "nxlmax 4 is even: one more");
        assert!(split(3, 3, 10, 0, false).is_err());
    }

    #[test]
    fn datyp_indx_is_the_originals_place() {
        assert_eq!(datyp_indx("MPI_BYTE"), 1);
        assert_eq!(datyp_indx("mpi_packed"), 2);
        assert_eq!(datyp_indx("MPI_UB"), 3);
        assert_eq!(datyp_indx("MPI_CHARACTER"), 5);
        assert_eq!(datyp_indx("MPI_INTEGER"), 7);
        assert_eq!(datyp_indx("MPI_DATATYPE_NULL"), 12);
        assert_eq!(datyp_indx("MPI_2INTEGER"), 25);
        assert_eq!(datyp_indx("MPI_DOUBLE"), -1);
    }
}
