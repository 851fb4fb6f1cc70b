//! RPN_COMM_send, recv, isend, irecv and waitall_nostat: MPI point-to-point messages on a named
//! communicator, with the original's datatype names; requests are Fortran MPI request handles,
//! which the caller may also hand to MPI itself. MPI build only: the shared-memory transport has
//! no point-to-point channel for them yet, and refuses them with one line.
//!
//! The process's lock is held only to find the communicator, not while a message waits.

use crate::error::Result;

#[cfg(feature = "mpi")]
use {super::gem::mpi_type_code, super::with_runtime, crate::error::Error, crate::transport::mpi::p2p as mpi};

#[cfg(not(feature = "mpi"))]
fn refused<T>() -> Result<T> {
    Err(crate::error::Error::Unsupported(
        "point-to-point messages (RPN_COMM_send, recv, isend, irecv, waitall_nostat) need the MPI build (make MPI=1): the shared-memory transport has none yet",
    ))
}

/// The Fortran communicator of `com` where this PE is a member (None else), and the datatype
/// code of `dtype`.
#[cfg(feature = "mpi")]
fn target(dtype: &str, com: &str) -> Result<Option<(i32, usize)>> {
    let code = mpi_type_code(dtype)?;
    Ok(with_runtime(|rt| rt.member_fortran_comm(com))?.map(|f| (f, code)))
}

/// As `target`, for a receive: a PE outside `com` has nothing to receive from (refused).
#[cfg(feature = "mpi")]
fn source(dtype: &str, com: &str) -> Result<(i32, usize)> {
    target(dtype, com)?.ok_or_else(|| Error::BadArgument(format!("this PE is not a member of communicator '{}'", com.trim())))
}

/// RPN_COMM_send: `count` elements of `dtype` at `buf` to rank `dest` of `com` (nothing on a PE
/// outside `com`, as the original).
///
/// # Safety
/// `buf` holds `count` elements of `dtype`.
pub unsafe fn send(buf: usize, count: i32, dtype: &str, dest: i32, tag: i32, com: &str) -> Result<()> {
    #[cfg(feature = "mpi")]
    {
        let Some((fcomm, code)) = target(dtype, com)? else { return Ok(()) };
        // SAFETY: the caller's contract.
        unsafe { mpi::send(buf, count, code, dest, tag, fcomm) }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, dest, tag, com);
        refused()
    }
}

/// RPN_COMM_recv: into `buf`, from rank `source` of `com`; returns the number of elements
/// received.
///
/// # Safety
/// `buf` has room for `count` elements of `dtype`.
pub unsafe fn recv(buf: usize, count: i32, dtype: &str, from: i32, tag: i32, com: &str) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        let (fcomm, code) = source(dtype, com)?;
        // SAFETY: the caller's contract.
        unsafe { mpi::recv(buf, count, code, from, tag, fcomm) }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, from, tag, com);
        refused()
    }
}

/// RPN_COMM_isend; returns the Fortran MPI request (None on a PE outside `com`: nothing sent).
///
/// # Safety
/// `buf` holds `count` elements of `dtype` until the request completes.
pub unsafe fn isend(buf: usize, count: i32, dtype: &str, dest: i32, tag: i32, com: &str) -> Result<Option<i32>> {
    #[cfg(feature = "mpi")]
    {
        let Some((fcomm, code)) = target(dtype, com)? else { return Ok(None) };
        // SAFETY: the caller's contract.
        unsafe { mpi::isend(buf, count, code, dest, tag, fcomm) }.map(Some)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, dest, tag, com);
        refused()
    }
}

/// RPN_COMM_irecv; returns the Fortran MPI request.
///
/// # Safety
/// `buf` has room for `count` elements of `dtype` until the request completes.
pub unsafe fn irecv(buf: usize, count: i32, dtype: &str, from: i32, tag: i32, com: &str) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        let (fcomm, code) = source(dtype, com)?;
        // SAFETY: the caller's contract.
        unsafe { mpi::irecv(buf, count, code, from, tag, fcomm) }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (buf, count, dtype, from, tag, com);
        refused()
    }
}

/// RPN_COMM_waitall_nostat: waits for the Fortran MPI requests `reqs` (each becomes
/// MPI_REQUEST_NULL's handle).
pub fn waitall(reqs: &mut [i32]) -> Result<()> {
    #[cfg(feature = "mpi")]
    {
        with_runtime(|_| Ok(()))?;
        mpi::wait_all(reqs)
    }
    #[cfg(not(feature = "mpi"))]
    {
        if reqs.is_empty() { Ok(()) } else { refused() }
    }
}

/// RPN_COMM_datyp: the Fortran MPI datatype of a name of the original's table.
pub fn fortran_datatype(dtype: &str) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        let code = mpi_type_code(dtype)?;
        with_runtime(|_| Ok(()))?;
        mpi::datatype(code)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = dtype;
        Err(crate::error::Error::Unsupported(
            "an MPI datatype handle (RPN_COMM_datyp) needs the MPI build (make MPI=1); RPN_COMM routines take the names themselves",
        ))
    }
}

/// The original's "sockets" of a node (RPN_COMM_split_by_socket): sockets per node times NUMA
/// spaces per socket, from NODE_CPU_CONFIG ("logical_cpus, sockets, numa_spaces, threads,
/// mapping", read as the original reads it); 2 x 1 when it is unset or unreadable, as the original.
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI communicators exist in the MPI build only"))]
pub fn node_parts(node_cpu_config: Option<&str>) -> i32 {
    let fields = node_cpu_config.and_then(|v| {
        v.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|f| !f.is_empty())
            .map(|f| f.parse::<i32>().ok())
            .collect::<Option<Vec<_>>>()
    });
    match fields.as_deref() {
        Some([_, sockets, numa, ..]) if *sockets > 0 && *numa > 0 => sockets * numa,
        _ => 2,
    }
}

/// RPN_COMM_split_by_socket (MPI build only, collective over the caller's Fortran communicator
/// `origcomm`): the node, socket and peer communicators, node rank, socket rank, peer rank and
/// socket size.
pub fn split_by_socket(origcomm: i32) -> Result<[i32; 7]> {
    #[cfg(feature = "mpi")]
    {
        // MPI is started with the runtime (RPN_COMM_init may not have been called yet)
        with_runtime(|_| Ok(()))?;
        mpi::split_by_socket(origcomm, node_parts(std::env::var("NODE_CPU_CONFIG").ok().as_deref()))
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = origcomm;
        Err(crate::error::Error::Unsupported("RPN_COMM_split_by_socket splits an MPI communicator: it needs the MPI build (make MPI=1)"))
    }
}

#[cfg(test)]
mod tests {
    use super::node_parts;

    /// The original's defaults (2 sockets, 1 NUMA space each) and NODE_CPU_CONFIG's fields 2 and 3.
    #[test]
    fn node_parts_as_the_original_reads_node_cpu_config() {
        assert_eq!(node_parts(None), 2);
        assert_eq!(node_parts(Some("64, 1, 4, 2, 0")), 4);
        assert_eq!(node_parts(Some("64 2 2 1 1")), 4);
        assert_eq!(node_parts(Some("64,1,1,1,0")), 1);
        assert_eq!(node_parts(Some("junk")), 2);
        assert_eq!(node_parts(Some("8, 0, 1")), 2);
    }
}
