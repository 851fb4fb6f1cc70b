//! The C ABI of the original's conversions between Fortran and C MPI handles, under its C names
//! (RPN_COMM_comm_c2f, RPN_COMM_comm_f2c, ..., RPN_COMM_c2f, RPN_COMM_f2c; the header leaves
//! them out: the original's C callers declare them themselves, on their own handle struct).
//! The handle argument is the Fortran handle type (`p`, `t1`, `t2`): `p` holds the C handle.
//! MPI build only: the shared-memory build refuses them with one line.

use std::ffi::{c_int, c_void};

use super::super::{args, call};
use crate::core::{Handle, HandleKind};
use crate::runtime::p2p::handle_conversions::{self as conv, MpiObject};
use crate::runtime::with_runtime;

/// The Fortran MPI handle of the C handle in `(*h).p` (-1 when refused).
fn c2f(routine: &'static str, kind: MpiObject, h: *const Handle) -> c_int {
    let mut f = -1;
    call(routine, || {
        // SAFETY: the caller's handle, passed by reference.
        let h = unsafe { args::handle(h, HandleKind::Communicator) }?;
        f = if conv::is_library_handle(&h) {
            match kind {
                MpiObject::Communicator => with_runtime(|rt| rt.library_comm_fortran(&h))?,
                _ => return Err(conv::no_mpi_object(kind)),
            }
        } else {
            conv::c2f(kind, h.p as i64)?
        };
        Ok(())
    });
    f
}

/// The C handle of the Fortran MPI handle `f` (NULL when refused); `(*h).t2` receives `f`.
fn f2c(routine: &'static str, kind: MpiObject, h: *mut Handle, f: c_int) -> *mut c_void {
    let mut c = std::ptr::null_mut();
    call(routine, || {
        let bits = conv::f2c(kind, f)?;
        if !h.is_null() {
            // SAFETY: the caller's handle, passed by reference; t2 only, as the original.
            unsafe { std::ptr::addr_of_mut!((*h).t2).write_unaligned(f) };
        }
        c = bits as usize as *mut c_void;
        Ok(())
    });
    c
}

/// The Fortran handle of the C communicator in `h`'s `p`, or of the library's communicator
/// handle `h` (RPN_COMM_i_comm's).
#[unsafe(export_name = "RPN_COMM_comm_c2f")]
pub extern "C" fn rpn_comm_comm_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_comm_c2f", MpiObject::Communicator, h)
}

/// The C communicator of the Fortran communicator `comm` (`h`'s `t2` receives `comm`).
#[unsafe(export_name = "RPN_COMM_comm_f2c")]
pub extern "C" fn rpn_comm_comm_f2c(h: *mut Handle, comm: c_int) -> *mut c_void {
    f2c("RPN_COMM_comm_f2c", MpiObject::Communicator, h, comm)
}

/// The Fortran handle of the C datatype in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_type_c2f")]
pub extern "C" fn rpn_comm_type_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_type_c2f", MpiObject::Datatype, h)
}

/// The C datatype of the Fortran datatype `dtype` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_type_f2c")]
pub extern "C" fn rpn_comm_type_f2c(h: *mut Handle, dtype: c_int) -> *mut c_void {
    f2c("RPN_COMM_type_f2c", MpiObject::Datatype, h, dtype)
}

/// The Fortran handle of the C group in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_group_c2f")]
pub extern "C" fn rpn_comm_group_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_group_c2f", MpiObject::Group, h)
}

/// The C group of the Fortran group `group` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_group_f2c")]
pub extern "C" fn rpn_comm_group_f2c(h: *mut Handle, group: c_int) -> *mut c_void {
    f2c("RPN_COMM_group_f2c", MpiObject::Group, h, group)
}

/// The Fortran handle of the C file in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_file_c2f")]
pub extern "C" fn rpn_comm_file_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_file_c2f", MpiObject::File, h)
}

/// The C file of the Fortran file `file` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_file_f2c")]
pub extern "C" fn rpn_comm_file_f2c(h: *mut Handle, file: c_int) -> *mut c_void {
    f2c("RPN_COMM_file_f2c", MpiObject::File, h, file)
}

/// The Fortran handle of the C info in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_info_c2f")]
pub extern "C" fn rpn_comm_info_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_info_c2f", MpiObject::Info, h)
}

/// The C info of the Fortran info `info` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_info_f2c")]
pub extern "C" fn rpn_comm_info_f2c(h: *mut Handle, info: c_int) -> *mut c_void {
    f2c("RPN_COMM_info_f2c", MpiObject::Info, h, info)
}

/// The Fortran handle of the C operator in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_op_c2f")]
pub extern "C" fn rpn_comm_op_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_op_c2f", MpiObject::Operator, h)
}

/// The C operator of the Fortran operator `op` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_op_f2c")]
pub extern "C" fn rpn_comm_op_f2c(h: *mut Handle, op: c_int) -> *mut c_void {
    f2c("RPN_COMM_op_f2c", MpiObject::Operator, h, op)
}

/// The Fortran handle of the C request in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_request_c2f")]
pub extern "C" fn rpn_comm_request_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_request_c2f", MpiObject::Request, h)
}

/// The C request of the Fortran request `request` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_request_f2c")]
pub extern "C" fn rpn_comm_request_f2c(h: *mut Handle, request: c_int) -> *mut c_void {
    f2c("RPN_COMM_request_f2c", MpiObject::Request, h, request)
}

/// The Fortran handle of the C window in `h`'s `p`.
#[unsafe(export_name = "RPN_COMM_window_c2f")]
pub extern "C" fn rpn_comm_window_c2f(h: *const Handle) -> c_int {
    c2f("RPN_COMM_window_c2f", MpiObject::Window, h)
}

/// The C window of the Fortran window `win` (`h`'s `t2` receives it).
#[unsafe(export_name = "RPN_COMM_window_f2c")]
pub extern "C" fn rpn_comm_window_f2c(h: *mut Handle, win: c_int) -> *mut c_void {
    f2c("RPN_COMM_window_f2c", MpiObject::Window, h, win)
}

/// The Fortran handle of the C handle in `h`'s `p` of the kind `what` (0 datatype, 1 file,
/// 2 group, 3 info, 4 operator, 5 request, 6 window, 7 communicator).
#[unsafe(export_name = "RPN_COMM_c2f")]
pub extern "C" fn rpn_comm_any_c2f(h: *const Handle, what: c_int) -> c_int {
    match MpiObject::from_code(what) {
        Ok(kind) => c2f("RPN_COMM_c2f", kind, h),
        Err(e) => {
            call("RPN_COMM_c2f", || Err(e));
            -1
        }
    }
}

/// The C handle of the Fortran handle `f` of the kind `what` (as RPN_COMM_c2f's).
#[unsafe(export_name = "RPN_COMM_f2c")]
pub extern "C" fn rpn_comm_any_f2c(f: c_int, what: c_int) -> *mut c_void {
    match MpiObject::from_code(what) {
        Ok(kind) => f2c("RPN_COMM_f2c", kind, std::ptr::null_mut(), f),
        Err(e) => {
            call("RPN_COMM_f2c", || Err(e));
            std::ptr::null_mut()
        }
    }
}
