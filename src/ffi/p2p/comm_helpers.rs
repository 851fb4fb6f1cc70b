//! The C ABI of the original's helpers around handles, datatypes and communicators
//! (`runtime::p2p::comm_helpers`). Results go to out-parameters, written only when the call is
//! not refused (the Fortran layer sets the value a refused call leaves); MPI handles are Fortran
//! integers.

use std::ffi::{c_char, c_int};

use super::super::{args, call};
use crate::core::{Handle, HandleKind};
use crate::error::Error;
use crate::runtime::p2p::comm_helpers as helpers;
use crate::runtime::with_runtime;

/// RPN_COMM_split: `out` (5 integers) receives minx, maxx, nxl, nxlmax and nx0 of PE `mex`'s
/// tile of `1..=nxg` cut over `nx` PEs (`fill` nonzero: the longest tile's dimension made odd).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_split(mex: c_int, nx: c_int, nxg: c_int, halox: c_int, fill: c_int, out: *mut c_int) -> c_int {
    call("RPN_COMM_split", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "split's results", nelem: 5 });
        }
        let s = helpers::split(mex, nx, nxg, halox, fill != 0)?;
        for (i, v) in [s.minx, s.maxx, s.nxl, s.nxlmax, s.nx0].into_iter().enumerate() {
            // SAFETY: the caller's array holds 5 integers.
            unsafe { args::put(out.add(i), v) };
        }
        Ok(())
    })
}

/// RPN_COMM_grank: `*member` 1 when this PE is a member of the communicator `name`, else 0.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_grank(name: *const c_char, name_len: usize, member: *mut c_int) -> c_int {
    call("RPN_COMM_grank", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        let m = with_runtime(|rt| rt.grank(&name))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(member, c_int::from(m)) };
        Ok(())
    })
}

/// RPN_COMM_colors: `*color` the color of the communicator `name` ('WORLD', 'ALLGRIDS',
/// 'MULTIGRID', 'GRID'; -1 for another name).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_colors(name: *const c_char, name_len: usize, color: *mut c_int) -> c_int {
    call("RPN_COMM_colors", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        let c = with_runtime(|rt| Ok(rt.colors(&name)))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(color, c) };
        Ok(())
    })
}

/// RPN_COMM_datyp_indx: `*indx` the place (from 1) of a datatype name in the original's table,
/// -1 for a name it does not hold (an answer, not an error).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_datyp_indx(name: *const c_char, name_len: usize, indx: *mut c_int) -> c_int {
    call("RPN_COMM_datyp_indx", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(indx, helpers::datyp_indx(&name)) };
        Ok(())
    })
}

/// The datatype handle at `p` as given (its checks are the caller's question).
///
/// # Safety
/// `p` is null or points to a handle.
unsafe fn datatype_arg(p: *const Handle) -> Option<Handle> {
    // SAFETY: per the contract, null or a readable handle.
    unsafe { p.as_ref() }.copied()
}

/// RPN_COMM_i_valid_datyp: `*valid` 1 when `dtyp` designates a datatype, else 0.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_valid_datyp(dtyp: *const Handle, valid: *mut c_int) -> c_int {
    call("RPN_COMM_i_valid_datyp", || {
        // SAFETY: the caller's handle (or null).
        let h = unsafe { datatype_arg(dtyp) };
        let v = h.is_some_and(|h| match helpers::user_datatype_extent(&h) {
            Some(extent) => extent.is_ok(),
            None => helpers::valid_datyp(&h),
        });
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(valid, c_int::from(v)) };
        Ok(())
    })
}

/// RPN_COMM_i_datyp_extent: `*extent` the size in bytes of one element of `dtyp`'s datatype.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_datyp_extent(dtyp: *const Handle, extent: *mut c_int) -> c_int {
    call("RPN_COMM_i_datyp_extent", || {
        // SAFETY: the caller's handle, checked.
        let h = unsafe { args::handle(dtyp, HandleKind::Datatype) }?;
        let e = match helpers::user_datatype_extent(&h) {
            Some(e) => e?,
            None => helpers::datyp_extent(&h)?,
        };
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(extent, e) };
        Ok(())
    })
}

/// RPN_COMM_i_user_datyp (MPI build only): `*dtyp` a datatype handle of the caller's MPI
/// datatype `ftype`; the refused handle when refused.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_user_datyp(ftype: c_int, dtyp: *mut Handle) -> c_int {
    // SAFETY: out-parameter from the caller, set first to a handle every routine refuses.
    unsafe { args::put(dtyp, Handle::refused(HandleKind::Datatype)) };
    call("RPN_COMM_i_user_datyp", || {
        let h = helpers::user_datyp(ftype)?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(dtyp, h) };
        Ok(())
    })
}

/// RPN_COMM_defo: 'DEFO' designates the communicator `name` from now on.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_defo(name: *const c_char, name_len: usize) -> c_int {
    call("RPN_COMM_defo", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        helpers::defo(&name)
    })
}

/// An MPI-handle result: `*out` the value of `f`.
fn put_int(routine: &'static str, out: *mut c_int, f: impl FnOnce() -> crate::error::Result<i32>) -> c_int {
    call(routine, || {
        let v = f()?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(out, v) };
        Ok(())
    })
}

/// RPN_COMM_custom_comm (MPI build only): `*out` the communicator of `mode` (see
/// `runtime::p2p::comm_helpers::custom_comm`).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_custom_comm(mpicom: c_int, name: *const c_char, name_len: usize, mode: c_int, out: *mut c_int) -> c_int {
    put_int("RPN_COMM_custom_comm", out, || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        helpers::custom_comm(mpicom, &name, mode)
    })
}

/// RPN_COMM_world_set (MPI build only, before the library starts): the job is made of the
/// Fortran communicator `fcomm`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_world_set(fcomm: c_int) -> c_int {
    call("RPN_COMM_world_set", || helpers::world_set(fcomm))
}

/// RPN_COMM_world_get (MPI build only): `*out` the communicator of RPN_COMM_world_set, else
/// MPI_COMM_WORLD.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_world_get(out: *mut c_int) -> c_int {
    put_int("RPN_COMM_world_get", out, helpers::world_get)
}

/// The original's C name of RPN_COMM_world_get (its bind(C) name), for C callers.
///
/// # Safety
/// `world_comm` points to an int.
#[unsafe(export_name = "RPN_COMM_World_Get")]
pub unsafe extern "C" fn rpncomm_world_get_c(world_comm: *mut c_int) {
    let _ = rpncomm_world_get(world_comm);
}

/// RPN_COMM_split_by_node (MPI build only): `out` (5 integers) receives the node and peer
/// communicators of `origcomm`, the node rank, peer rank and node size.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_split_by_node(origcomm: c_int, out: *mut c_int) -> c_int {
    call("RPN_COMM_split_by_node", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "split_by_node's results", nelem: 5 });
        }
        let v = helpers::split_by_node(origcomm)?;
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 5 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
    })
}

/// RPN_COMM_group (MPI build only): `*out` the MPI group of the communicator `name`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_group_fortran(name: *const c_char, name_len: usize, out: *mut c_int) -> c_int {
    put_int("RPN_COMM_group", out, || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        helpers::group(&name)
    })
}

/// RPN_COMM_i_group with a communicator handle (MPI build only): `*out` the MPI group of the
/// communicator handle `rcom`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_group_of_comm(rcom: *const Handle, out: *mut c_int) -> c_int {
    put_int("RPN_COMM_i_group", out, || {
        // SAFETY: the caller's handle, checked.
        let h = unsafe { args::handle(rcom, HandleKind::Communicator) }?;
        helpers::group_of_handle(&h)
    })
}

/// MPI_GROUP_NULL's Fortran handle (-1 on shared memory), what a refused group call leaves.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_group_null() -> c_int {
    helpers::group_null()
}

/// RPN_COMM_ngrank (MPI build only): `*member` 1 when this PE is in the MPI group `group`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_ngrank(group: c_int, member: *mut c_int) -> c_int {
    put_int("RPN_COMM_ngrank", member, || helpers::ngrank(group).map(c_int::from))
}

/// RPN_COMM_infotyp (MPI build only): `*out` MPI_INFO_NULL's handle for 'MPI_INFO_NULL'.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_infotyp(name: *const c_char, name_len: usize, out: *mut c_int) -> c_int {
    put_int("RPN_COMM_infotyp", out, || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        helpers::infotyp(&name)
    })
}

/// RPN_COMM_status_size (MPI build only): `*out` MPI_STATUS_SIZE.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_status_size(out: *mut c_int) -> c_int {
    put_int("RPN_COMM_status_size", out, helpers::status_size)
}
