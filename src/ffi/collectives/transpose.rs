//! The C ABI of RPN_COMM_transpose.

use std::ffi::{c_int, c_void};

use super::super::call;
use crate::error::Error;
use crate::runtime::collectives::transpose;
use crate::runtime::with_runtime;

/// RPN_COMM_transpose: the distributed transpose of za(size, min1:max1, n2, n3g) and
/// zb(size, n2, min3:max3, n1g) along x (`kind` ±1, 'EW') or y (±2, 'NS'), forward when
/// `kind` > 0 (runtime::collectives::transpose has the layout).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_transpose(
    za: *mut c_void,
    min1: c_int,
    max1: c_int,
    n1g: c_int,
    n2: c_int,
    min3: c_int,
    max3: c_int,
    n3g: c_int,
    zb: *mut c_void,
    kind: c_int,
    size: c_int,
) -> c_int {
    call("RPN_COMM_transpose", || {
        let count = |what: &'static str, v: c_int| usize::try_from(v).map_err(|_| Error::Negative { what, value: v as i64 });
        let shape = (|| {
            Ok(transpose::Shape {
                min1: min1 as i64,
                max1: max1 as i64,
                n1g: count("n1g", n1g)?,
                n2: count("n2", n2)?,
                min3: min3 as i64,
                max3: max3 as i64,
                n3g: count("n3g", n3g)?,
                size: count("size", size)?,
            })
        })();
        // SAFETY: the caller's arrays are za(size,min1:max1,n2,n3g) and zb(size,n2,min3:max3,n1g).
        with_runtime(|rt| unsafe { rt.transpose(za as usize, zb as usize, shape, kind) })
    })
}
