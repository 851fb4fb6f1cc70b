//! The MPI handles a program passes to MPI itself: the Fortran communicator of a name
//! (RPN_COMM_comm), the Fortran datatype of a name of the original's table (RPN_COMM_datyp) and
//! the node, socket and peer communicators of RPN_COMM_split_by_socket. Handles exist only in
//! the MPI build; the shared-memory build refuses them with one line.

use super::super::Runtime;
use crate::core::datatype::normalize_name;
use crate::core::{MessageType, Operator, operator};
use crate::error::{Error, Result};
#[cfg(feature = "mpi")]
use {super::super::with_runtime, crate::transport::mpi::handles as mpi};

/// The shim's code of a datatype name (any case, blanks around it ignored): its place in the
/// original's table (`core::MessageType`).
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI handles exist in the MPI build only"))]
pub fn mpi_type_code(name: &str) -> Result<usize> {
    Ok(MessageType::from_name(name)?.code() as usize)
}

/// The shim's code of an operator name of the original's table (RPN_COMM_oper): the operator's
/// code, 0 for MPI_OP_NULL.
pub fn mpi_operator_code(name: &str) -> Result<u32> {
    if normalize_name(name) == operator::NULL_NAME {
        return Ok(0);
    }
    Ok(Operator::from_name(name)?.code())
}

/// The communicator name the original maps to MPI_COMM_NULL.
const NULL_NAME: &str = "RPN_COMM_NULL";

/// The communicators whose Fortran handles the original's module `rpn_comm` keeps (pe_indomm,
/// pe_myrow, pe_mycol, pe_multi_grid, pe_a_domain, pe_all_domains, pe_grid_peers), in the order
/// `module_comms` gives them.
pub const MODULE_COMMS: [&str; 7] = ["GRID", "EW", "NS", "MULTIGRID", "ALLGRIDS", "WORLD", "GRIDPEERS"];

impl Runtime {
    /// The integers of a Fortran MPI status (RPN_COMM_status_size; MPI build only).
    pub fn fortran_status_size(&self) -> Result<i32> {
        self.transport.fortran_status_size()
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

    /// The Fortran MPI handles of MODULE_COMMS; None where the transport has no MPI handles
    /// (shared memory), which the module's variables then show as -1.
    pub fn module_comms(&self) -> Result<Option<Vec<i32>>> {
        if matches!(self.transport.fortran_comm(None), Err(Error::Unsupported(_))) {
            return Ok(None);
        }
        MODULE_COMMS.iter().map(|name| self.fortran_comm(name)).collect::<Result<Vec<_>>>().map(Some)
    }

    /// The Fortran MPI handle of the communicator `name` where this PE is a member (None else).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "point-to-point exists in the MPI build only"))]
    pub fn member_fortran_comm(&self, name: &str) -> Result<Option<i32>> {
        match self.named(name)? {
            Some(c) => self.transport.fortran_comm(Some(&c)).map(Some),
            None => Ok(None),
        }
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

/// RPN_COMM_oper: the Fortran MPI operator of a name of the original's table (MPI_OP_NULL's for
/// 'MPI_OP_NULL'). The original stops the program on an unknown name; here the call is refused
/// with its line and the caller gets MPI_OP_NULL (`ffi`), which MPI itself refuses.
pub fn fortran_operator(op: &str) -> Result<i32> {
    let code = mpi_operator_code(op)?;
    #[cfg(feature = "mpi")]
    {
        with_runtime(|_| Ok(()))?;
        mpi::operator(code)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = code;
        Err(crate::error::Error::Unsupported(
            "an MPI operator handle (RPN_COMM_oper) needs the MPI build (make MPI=1); RPN_COMM routines take the names themselves",
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
    use super::*;

    #[test]
    fn datatype_names_any_case() {
        assert_eq!(mpi_type_code("MPI_double_precision").unwrap(), 14);
        assert_eq!(mpi_type_code(" mpi_integer  ").unwrap(), 4);
        assert_eq!(mpi_type_code("MPI_2INTEGER").unwrap(), 22);
        assert!(mpi_type_code("MPI_DOUBLE").is_err(), "not in the original's table");
    }

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
