//! The C ABI of the handles of the windows API: communicators (by name, or wrapping a Fortran MPI
//! communicator), datatypes and operators.

use std::ffi::{c_char, c_int};

use super::{args, call};
use crate::core::{Handle, HandleKind, Operator};
use crate::runtime::{self, CommName, with_runtime};

/// A communicator handle from its name ('GRID', 'WORLD', 'EW', 'NS', 'BLOC', ...).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm(name: *const c_char, name_len: usize, com: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller, set first to a handle every routine refuses.
    unsafe { args::put(com, Handle::refused(HandleKind::Communicator)) };
    call("RPN_COMM_i_comm", || {
        // SAFETY: Fortran string argument.
        let c = CommName::from_name(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(com, c.handle()) };
        Ok(())
    })
}

/// Wraps a Fortran MPI communicator handle (MPI transport only; refused on shared memory).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_comm_mpi(mcom: c_int, com: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller, set first to a handle every routine refuses.
    unsafe { args::put(com, Handle::refused(HandleKind::Communicator)) };
    call("RPN_COMM_i_comm", || {
        let h = with_runtime(|rt| rt.wrap_communicator(mcom))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(com, h) };
        Ok(())
    })
}

/// A datatype handle from its name ('MPI_INTEGER', 'MPI_REAL8', ...).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_datyp(name: *const c_char, name_len: usize, dtype: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(dtype, Handle::refused(HandleKind::Datatype)) };
    call("RPN_COMM_i_datyp", || {
        // SAFETY: Fortran string argument.
        let h = runtime::datatype_handle(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(dtype, h) };
        Ok(())
    })
}

/// An operator handle from its name ('MPI_SUM', ...).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_oper(name: *const c_char, name_len: usize, oper: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller.
    unsafe { args::put(oper, Handle::refused(HandleKind::Operator)) };
    call("RPN_COMM_i_oper", || {
        // SAFETY: Fortran string argument.
        let op = Operator::from_name(&unsafe { args::name(name, name_len) }?)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(oper, Handle::encode(HandleKind::Operator, op.code())) };
        Ok(())
    })
}

/// 1 if `oper` is a valid operator handle, else 0.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_valid_oper(oper: *const Handle) -> c_int {
    // SAFETY: the caller passes its operator variable by reference (or null).
    let h = unsafe { args::handle(oper, HandleKind::Operator) };
    h.and_then(|h| runtime::operator_of(&h)).is_ok() as c_int
}
