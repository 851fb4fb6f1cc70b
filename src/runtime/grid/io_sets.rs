//! I/O PE sets (RPN_COMM_create_io_set, free_io_set, is_io_pe, io_pe_gridid, io_pe_comm,
//! io_pe_size, io_pe_valid_set): sets of PEs of the grid, placed by the original's method
//! (core::io_sets), numbered 1 to 16 as the original numbers them, each with a communicator of its
//! members ranked in set order (made by the transport's split, kept until RPN_COMM_finalize).

use std::sync::Mutex;

use super::super::Runtime;
use crate::core::io_sets;
use crate::core::{CollectiveId, Communicator, Grid};
use crate::error::{Error, Result};

/// The original's limit of sets existing at once.
const MAX_SETS: usize = 16;

/// One set: its PEs' grid coordinates in set order and, on its members, their communicator.
struct IoSet {
    coords: Vec<(usize, usize)>,
    /// The grid when it was made (grid ranks of the members).
    grid: Grid,
    comm: Option<Communicator>,
}

/// Set number n is `SETS[n - 1]`; a freed set leaves None, the original's "-1" entry, which a
/// later set takes again.
static SETS: Mutex<Vec<Option<IoSet>>> = Mutex::new(Vec::new());

fn with_set<T>(setno: i32, f: impl FnOnce(&IoSet) -> T) -> Result<T> {
    let sets = SETS.lock().unwrap_or_else(|p| p.into_inner());
    let set = usize::try_from(setno)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| sets.get(i))
        .and_then(Option::as_ref)
        .ok_or_else(|| Error::BadArgument(format!("{setno} is no I/O PE set (never created, or freed)")))?;
    Ok(f(set))
}

/// RPN_COMM_io_pe_valid_set: the grid coordinates of the `npes` PEs of a set on a `penx` x `peny`
/// grid (checked; no PE grid needed); with `diag`, the set's map is printed.
pub fn io_pe_valid_set(npes: i32, penx: i32, peny: i32, diag: bool, method: i32) -> Result<Vec<(usize, usize)>> {
    let list = io_sets::io_pe_list(npes.into(), penx.into(), peny.into(), method.into())?;
    if diag {
        print_map("", &list, penx as usize, peny as usize);
    }
    Ok(list)
}

fn print_map(title: &str, list: &[(usize, usize)], nx: usize, ny: usize) {
    let group = nx.min(ny).max(1);
    println!("===== I/O PE map{title} ({} groups) =====", list.len().div_ceil(group));
    for line in io_sets::map(list, nx, ny) {
        println!("{line}");
    }
}

impl Runtime {
    /// RPN_COMM_create_io_set, collective over the grid: a set of `npes` PEs by `method`; its
    /// number (1 to 16).
    pub fn create_io_set(&mut self, npes: i32, method: i32) -> Result<i32> {
        let (grid, _) = self.grid_and_blocks()?;
        let checked = io_sets::io_pe_list(npes.into(), grid.pex as i64, grid.pey as i64, method.into()).and_then(|list| {
            let sets = SETS.lock().unwrap_or_else(|p| p.into_inner());
            // the original takes the last freed number, else the next one
            match sets.iter().rposition(Option::is_none) {
                Some(i) => Ok((list, i)),
                None if sets.len() < MAX_SETS => Ok((list, sets.len())),
                None => Err(Error::Limit(format!("{MAX_SETS} I/O PE sets exist: free one first (RPN_COMM_free_io_set)"))),
            }
        });
        // Collective over the grid: the same routine and set everywhere, or every PE fails.
        let job = self.transport.job().clone();
        let rows = self.agree(
            &job,
            CollectiveId::CreateIoSet,
            &checked.as_ref().map(|_| ()).map_err(Clone::clone),
            &[npes as u32, method as u32],
        )?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!("PE {pe} asks for a set of {} PEs, PE 0 for {}", rows[pe][0] as i32, rows[0][0] as i32)));
        }
        let (list, slot) = checked?;
        // Job ranks of the members in set order: their ranks in the set's communicator.
        let members: Vec<usize> = list.iter().map(|&(x, y)| grid.at(x, y)).collect();
        let me = self.rank();
        let part = members.contains(&me).then_some(&members[..]);
        let comm = self.transport.split(part, "I/O PE set")?;
        if me == 0 {
            print_map(&format!(" of set {}", slot + 1), &list, grid.pex, grid.pey);
        }
        let mut sets = SETS.lock().unwrap_or_else(|p| p.into_inner());
        if slot == sets.len() {
            sets.push(None);
        }
        sets[slot] = Some(IoSet { coords: list, grid, comm });
        Ok(slot as i32 + 1)
    }

    /// The Fortran MPI communicator of set `setno` on its members, MPI_COMM_NULL's elsewhere.
    pub fn io_pe_comm(&self, setno: i32) -> Result<i32> {
        let comm = with_set(setno, |s| s.comm.clone())?;
        self.transport.fortran_comm(comm.as_ref())
    }
}

/// RPN_COMM_free_io_set: forgets set `setno` (its number may be given again).
pub fn free_io_set(setno: i32) -> Result<i32> {
    with_set(setno, |_| ())?;
    let mut sets = SETS.lock().unwrap_or_else(|p| p.into_inner());
    sets[setno as usize - 1] = None;
    Ok(setno)
}

/// RPN_COMM_is_io_pe: this PE's rank in set `setno`, None where it is no member.
pub fn is_io_pe(setno: i32) -> Result<Option<usize>> {
    with_set(setno, |s| s.comm.as_ref().map(Communicator::rank))
}

/// RPN_COMM_io_pe_gridid: the grid rank of member `n` (0-based) of set `setno`.
pub fn io_pe_gridid(setno: i32, n: i32) -> Result<usize> {
    with_set(setno, |s| {
        let i = usize::try_from(n).ok().filter(|&i| i < s.coords.len());
        i.map(|i| s.grid.rank_of(s.grid.at(s.coords[i].0, s.coords[i].1))).ok_or(Error::BadRank {
            rank: n.into(),
            npes: s.coords.len(),
            comm: " (the I/O PE set)".into(),
        })
    })?
}

/// The grid coordinates of set `setno`'s members, in set order (the distribution routines).
pub(in crate::runtime) fn members(setno: i32) -> Result<Vec<(usize, usize)>> {
    with_set(setno, |s| s.coords.clone())
}

/// RPN_COMM_io_pe_size: the number of PEs of set `setno`.
pub fn io_pe_size(setno: i32) -> Result<usize> {
    with_set(setno, |s| s.coords.len())
}

/// RPN_COMM_is_valid_io_setno: whether set `setno` exists (a question, never an error).
pub fn is_valid_io_setno(setno: i32) -> bool {
    with_set(setno, |_| ()).is_ok()
}

/// RPN_COMM_io_pe_groups: the number of groups of set `setno`, groups of min(pe_nx, pe_ny, size)
/// PEs (the last one may be shorter).
pub fn io_pe_groups(setno: i32) -> Result<usize> {
    with_set(setno, |s| {
        let group = s.grid.pex.min(s.grid.pey).min(s.coords.len()).max(1);
        s.coords.len().div_ceil(group)
    })
}

/// One member of a set: its grid coordinates and its rank in the grid.
pub struct Member {
    /// Column of the grid, from 0.
    pub x: usize,
    /// Row of the grid, from 0.
    pub y: usize,
    /// Rank in the grid communicator.
    pub grid_rank: usize,
}

/// The members of set `setno` in set order (RPN_COMM_io_pe_idlist, io_pe_coord, io_pe_callback).
pub fn members_of(setno: i32) -> Result<Vec<Member>> {
    with_set(setno, |s| s.coords.iter().map(|&(x, y)| Member { x, y, grid_rank: s.grid.rank_of(s.grid.at(x, y)) }).collect())
}

/// RPN_COMM_make_io_pe_list: method 0's places of `npes` PEs on a `pe_nx` x `pe_ny` grid,
/// unchecked (RPN_COMM_check_ioset checks them).
pub fn make_io_pe_list(npes: i32, pe_nx: i32, pe_ny: i32, method: i32) -> Result<Vec<(usize, usize)>> {
    if method != 0 {
        return Err(Error::BadArgument(format!("method {method}: 0 is the only method")));
    }
    if pe_nx <= 0 || pe_ny <= 0 || npes < 0 {
        return Err(Error::BadArgument(format!("{npes} I/O PEs on a {pe_nx} x {pe_ny} PE grid")));
    }
    Ok(io_sets::positions(npes as usize, pe_nx as usize, pe_ny as usize))
}

/// RPN_COMM_check_ioset: whether the PEs `list` on a `pe_nx` x `pe_ny` grid make a set (none
/// twice, none outside, no two on a row or column in a group); with `diag` on grid PE 0 (`pe_me`),
/// the map of set `newset` is printed.
pub fn check_ioset(newset: i32, list: &[(usize, usize)], pe_nx: i32, pe_ny: i32, pe_me: i32, diag: bool) -> Result<()> {
    if pe_nx <= 0 || pe_ny <= 0 {
        return Err(Error::BadArgument(format!("a {pe_nx} x {pe_ny} PE grid")));
    }
    let (nx, ny) = (pe_nx as usize, pe_ny as usize);
    io_sets::check(list, nx, ny)?;
    if pe_me == 0 && diag {
        print_map(&format!(" of set {newset}"), list, nx, ny);
    }
    Ok(())
}

impl Runtime {
    /// This PE's rank in set `setno` and the Fortran MPI communicator of the set (-1 where the
    /// build has no MPI handle: shared memory), None for a PE that is no member
    /// (RPN_COMM_io_pe_callback).
    pub fn io_pe_membership(&self, setno: i32) -> Result<Option<(usize, i32)>> {
        let Some(comm) = with_set(setno, |s| s.comm.clone())? else { return Ok(None) };
        let fcomm = if cfg!(feature = "mpi") { self.transport.fortran_comm(Some(&comm))? } else { -1 };
        Ok(Some((comm.rank(), fcomm)))
    }

    /// RPN_COMM_io_pe_bcast: broadcasts `count` elements of `dtype` from member `root` to the
    /// members of set `setno`; false on a PE that is no member (which takes no part).
    ///
    /// # Safety
    /// `buffer` holds `count` elements of `dtype`.
    pub unsafe fn io_pe_bcast(&mut self, buffer: usize, count: i32, dtype: &str, root: i32, setno: i32) -> Result<bool> {
        let Some(comm) = with_set(setno, |s| s.comm.clone())? else { return Ok(false) };
        // SAFETY: the caller's contract, passed on.
        unsafe { self.broadcast_over(&comm, CollectiveId::IoPeBcast, buffer, None, count, dtype, root) }?;
        Ok(true)
    }
}
