//! The C ABI of the MPI handles a program passes to MPI itself (MPI build only): RPN_COMM_comm,
//! RPN_COMM_datyp and RPN_COMM_split_by_socket. Handles are Fortran integers; names of
//! communicators and datatypes are matched in any case.

use std::ffi::{c_char, c_int};

use super::super::{args, call, call_init_step};
use crate::error::Error;
use crate::runtime::p2p::mpi_handles;
use crate::runtime::with_runtime;

/// The Fortran MPI handle of the communicator named `name` ('GRID', 'EW', 'NS', 'BLOC',
/// 'WORLD', ...) in `*fcomm`: MPI_COMM_NULL's where this PE is no member ('BLOCMASTER' off the
/// masters) or for 'RPN_COMM_NULL'. MPI build only (refused on shared memory).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm_fortran(name: *const c_char, name_len: usize, fcomm: *mut c_int) -> c_int {
    call("RPN_COMM_comm", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        // As the original, an unknown name (or one whose communicator does not exist yet) gives
        // MPI_COMM_NULL, here with the error's message.
        let f = with_runtime(|rt| rt.fortran_comm(&name));
        if let Ok(h) = f.clone().or_else(|_| with_runtime(|rt| rt.fortran_comm("RPN_COMM_NULL"))) {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(fcomm, h) };
        }
        f.map(|_| ())
    })
}

/// RPN_COMM_init's step (not a call of its own): the Fortran MPI handles of the grid's
/// communicators the original's module `rpn_comm` keeps,
/// into `fcomms` (room for `n` = 7 integers, in the order of `mpi_handles::MODULE_COMMS`); -1 each
/// on shared memory, which has no MPI handles (not refused: the module's variables only show it).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_module_comms(fcomms: *mut c_int, n: c_int) -> c_int {
    call_init_step("RPN_COMM_init", || {
        if usize::try_from(n).ok() != Some(mpi_handles::MODULE_COMMS.len()) || fcomms.is_null() {
            return Err(Error::BadArgument(format!("room for {n} communicators, the module keeps {}", mpi_handles::MODULE_COMMS.len())));
        }
        let comms = with_runtime(|rt| rt.module_comms())?.unwrap_or_else(|| vec![-1; mpi_handles::MODULE_COMMS.len()]);
        for (i, h) in comms.into_iter().enumerate() {
            // SAFETY: the caller's array holds n = MODULE_COMMS.len() integers.
            unsafe { args::put(fcomms.add(i), h) };
        }
        Ok(())
    })
}

/// The Fortran MPI datatype of a name of the original's table ('MPI_INTEGER',
/// 'MPI_double_precision', ...) in `*ftype`. MPI build only.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_datyp_fortran(name: *const c_char, name_len: usize, ftype: *mut c_int) -> c_int {
    call("RPN_COMM_datyp", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        // As the original, an unknown name gives MPI_DATATYPE_NULL (here with a message).
        let f = mpi_handles::fortran_datatype(&name);
        if let Ok(h) = f.clone().or_else(|_| mpi_handles::fortran_datatype("MPI_DATATYPE_NULL")) {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(ftype, h) };
        }
        f.map(|_| ())
    })
}

/// The Fortran MPI operator of a name of the original's table ('MPI_SUM', 'mpi_lor', ...) in
/// `*fop` (RPN_COMM_oper). MPI build only. An unknown name gives MPI_OP_NULL, with a message (the
/// original stops the program).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_oper_fortran(name: *const c_char, name_len: usize, fop: *mut c_int) -> c_int {
    call("RPN_COMM_oper", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        let f = mpi_handles::fortran_operator(&name);
        if let Ok(h) = f.clone().or_else(|_| mpi_handles::fortran_operator("MPI_OP_NULL")) {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(fop, h) };
        }
        f.map(|_| ())
    })
}

/// RPN_COMM_split_by_socket (MPI build only): `out` (7 integers) receives the node, socket and
/// peer communicators of the Fortran communicator `origcomm` (Fortran handles), the node rank,
/// socket rank, peer rank and socket size. Nothing is written when refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_split_by_socket(origcomm: c_int, out: *mut c_int) -> c_int {
    call("RPN_COMM_split_by_socket", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "split_by_socket's results", nelem: 7 });
        }
        let v = mpi_handles::split_by_socket(origcomm)?;
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 7 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
    })
}
