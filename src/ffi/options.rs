//! The C ABI of the options (RPN_COMM_option, RPN_COMM_option_L, RPN_COMM_optn, RPN_COMM_unit),
//! of the size of an MPI status (RPN_COMM_status_size) and of the case conversions
//! (RPN_COMM_up2low, RPN_COMM_low2up).

use std::ffi::{c_char, c_int};

use super::{args, call};
use crate::core::options::convert_case;
use crate::error::Error;
use crate::runtime::options;

/// RPN_COMM_option: the integer option named `name` ('stdout') takes `value`; refused for an
/// unknown name.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_option(name: *const c_char, name_len: usize, value: c_int) -> c_int {
    call("RPN_COMM_option", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        options::set_int(&name, value)
    })
}

/// RPN_COMM_option_L: the logical option named `name` ('halo_ew_ext', 'async_exch') takes
/// `value` (non-zero: true); refused for an unknown name.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_option_l(name: *const c_char, name_len: usize, value: c_int) -> c_int {
    call("RPN_COMM_option_L", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        options::set_logical(&name, value != 0)
    })
}

/// RPN_COMM_optn: the option `op_type` ('FILL') takes the integer `ival`, the real `rval` and
/// the word `cval`; refused for an unknown name.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_optn(
    op_type: *const c_char,
    op_type_len: usize,
    ival: c_int,
    rval: f32,
    cval: *const c_char,
    cval_len: usize,
) -> c_int {
    call("RPN_COMM_optn", || {
        // SAFETY: Fortran string arguments.
        let (op_type, cval) = unsafe { (args::name(op_type, op_type_len)?, args::name(cval, cval_len)?) };
        options::set_optn(&op_type, ival, rval, &cval)
    })
}

/// RPN_COMM_unit: the Fortran unit of the library's messages.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_unit(unit: c_int) -> c_int {
    call("RPN_COMM_unit", || {
        options::set_unit(unit);
        Ok(())
    })
}

/// RPN_COMM_up2low (`upper` 0) and RPN_COMM_low2up (`upper` non-zero): the `dst_len`
/// characters of `dst` receive those of `src` in that case, then blanks.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_convert_case(src: *const c_char, src_len: usize, dst: *mut c_char, dst_len: usize, upper: c_int) -> c_int {
    call(if upper != 0 { "RPN_COMM_low2up" } else { "RPN_COMM_up2low" }, || {
        if (src.is_null() && src_len > 0) || (dst.is_null() && dst_len > 0) {
            return Err(Error::BadArgument("null string".into()));
        }
        // (the source is copied first: a caller may pass the same string twice)
        let from = if src_len == 0 {
            Vec::new()
        } else {
            // SAFETY: a Fortran string of src_len bytes, non-null (checked).
            unsafe { std::slice::from_raw_parts(src as *const u8, src_len) }.to_vec()
        };
        if dst_len > 0 {
            // SAFETY: a Fortran string of dst_len bytes, non-null (checked), written by this
            // call only.
            let to = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, dst_len) };
            convert_case(&from, to, upper != 0);
        }
        Ok(())
    })
}
