//! The original's RPNCOMM_Numa_split: a Fortran MPI communicator cut by node (mode 0) or by
//! socket (any other mode), the result kept per (communicator, mode) as the original keeps it (16
//! at most), so that a second call gives the same communicator without a collective. The node
//! split is RPN_COMM_split_by_node's, the socket split RPN_COMM_split_by_socket's (the node's
//! PEs in NODE_CPU_CONFIG's sockets). MPI build only.

use crate::error::Result;

/// A split made: (communicator, mode) -> (new communicator, rank in it, its size).
type KeptSplit = ((i32, i32), (i32, i32, i32));

/// The splits made so far.
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI communicators exist in the MPI build only"))]
static KEPT: std::sync::Mutex<Vec<KeptSplit>> = std::sync::Mutex::new(Vec::new());
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI communicators exist in the MPI build only"))]
const KEPT_MAX: usize = 16;

/// The communicator of this PE's node (`mode` 0) or socket (another mode) within the Fortran
/// communicator `origcomm`, this PE's rank in it and its size.
pub fn numa_split(origcomm: i32, mode: i32) -> Result<(i32, i32, i32)> {
    #[cfg(feature = "mpi")]
    {
        let mode = i32::from(mode != 0);
        let mut kept = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&(_, r)) = kept.iter().find(|(k, _)| *k == (origcomm, mode)) {
            return Ok(r);
        }
        let r = match mode {
            0 => {
                let [node, _, noderank, _, isiz] = super::comm_helpers::split_by_node(origcomm)?;
                (node, noderank, isiz)
            }
            _ => {
                let [_, socket, _, _, socketrank, _, socketsize] = super::mpi_handles::split_by_socket(origcomm)?;
                (socket, socketrank, socketsize)
            }
        };
        if kept.len() < KEPT_MAX {
            kept.push(((origcomm, mode), r));
        }
        Ok(r)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (origcomm, mode);
        Err(crate::error::Error::Unsupported("RPNCOMM_Numa_split splits an MPI communicator: it needs the MPI build (make MPI=1)"))
    }
}
