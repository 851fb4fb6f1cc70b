//! The C ABI of the transposes: RPN_COMM_transpose, _transpose_44, _Xpose1, _Xpose2,
//! _transpose48, _Xpose148 and _Xpose248.

use std::ffi::{c_int, c_void};

use super::super::call;
use crate::error::{Error, Result};
use crate::runtime::collectives::transpose::{self, Line};
use crate::runtime::collectives::transpose48;
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

/// The shape of RPN_COMM_transpose's arrays (negative counts refused).
#[allow(clippy::too_many_arguments)]
fn shape(min1: c_int, max1: c_int, n1g: c_int, n2: c_int, min3: c_int, max3: c_int, n3g: c_int, size: c_int) -> Result<transpose::Shape> {
    let count = |what: &'static str, v: c_int| usize::try_from(v).map_err(|_| Error::Negative { what, value: v as i64 });
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
}

/// RPN_COMM_Xpose1 (`forward` non-zero) and _Xpose2: RPN_COMM_transpose's exchange over the
/// caller's MPI communicator `pecomm` of `npe` PEs, `n1partiel` columns and `n3partiel` levels
/// each (on one PE a copy that never looks at `pecomm`).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_xpose(
    n3partiel: c_int,
    npe: c_int,
    pecomm: c_int,
    n1partiel: c_int,
    za: *mut c_void,
    min1: c_int,
    max1: c_int,
    n1g: c_int,
    n2: c_int,
    min3: c_int,
    max3: c_int,
    n3g: c_int,
    zb: *mut c_void,
    size: c_int,
    forward: c_int,
) -> c_int {
    call(if forward != 0 { "RPN_COMM_Xpose1" } else { "RPN_COMM_Xpose2" }, || {
        let count = |what: &'static str, v: c_int| usize::try_from(v).map_err(|_| Error::Negative { what, value: v as i64 });
        let parts = transpose::Parts { npe: count("npe", npe)?, n1p: count("n1partiel", n1partiel)?, n3p: count("n3partiel", n3partiel)? };
        if parts.npe == 0 {
            return Err(Error::BadArgument("npe must be at least 1".into()));
        }
        let shape = shape(min1, max1, n1g, n2, min3, max3, n3g, size);
        // SAFETY: the caller's arrays are za(size,min1:max1,n2,n3g) and zb(size,n2,min3:max3,n1g).
        with_runtime(|rt| unsafe { rt.xpose_given(za as usize, zb as usize, shape, forward != 0, pecomm, parts) })
    })
}

/// RPN_COMM_transpose_44: RPN_COMM_transpose of 4-byte elements, `direction` ±1 along x, ±2
/// along y (RPN_COMM_FORWARD_X ...); any other direction does nothing, as the original's.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_transpose_44(
    za: *mut c_void,
    min1: c_int,
    max1: c_int,
    n1g: c_int,
    n2: c_int,
    min3: c_int,
    max3: c_int,
    n3g: c_int,
    zb: *mut c_void,
    direction: c_int,
) -> c_int {
    call("RPN_COMM_transpose_44", || {
        if !matches!(direction.abs(), 1 | 2) {
            return Ok(());
        }
        let shape = shape(min1, max1, n1g, n2, min3, max3, n3g, 1);
        // SAFETY: the caller's arrays are za(min1:max1,n2,n3g) and zb(n2,min3:max3,n1g) of 4-byte words.
        with_runtime(|rt| unsafe { rt.transpose(za as usize, zb as usize, shape, direction) })
    })
}

/// The shape of RPN_COMM_transpose48's arrays (negative counts refused).
#[allow(clippy::too_many_arguments)]
fn shape48(
    min1: c_int,
    max1: c_int,
    n1g: c_int,
    min2: c_int,
    max2: c_int,
    n2l: c_int,
    min3: c_int,
    max3: c_int,
    n3g: c_int,
) -> Result<transpose48::Shape48> {
    let count = |what: &'static str, v: c_int| usize::try_from(v).map_err(|_| Error::Negative { what, value: v as i64 });
    Ok(transpose48::Shape48 {
        min1: min1.into(),
        max1: max1.into(),
        n1g: count("n1g", n1g)?,
        min2: min2.into(),
        max2: max2.into(),
        n2l: count("n2l", n2l)?,
        min3: min3.into(),
        max3: max3.into(),
        n3g: count("n3g", n3g)?,
    })
}

/// RPN_COMM_transpose48 (`pecomm` None: along x for `kind` ±1 ('EW'), along y else ('NS'),
/// forward when `kind` > 0) and RPN_COMM_Xpose148 / _Xpose248 (`pecomm` the caller's MPI
/// communicator of `npe` PEs): real za(min1:max1, min2:max2, n3g) <-> real*8
/// zb(min2:max2, min3:max3, n1g), converted as a*x + b.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_transpose48(
    za: *mut c_void,
    min1: c_int,
    max1: c_int,
    n1g: c_int,
    min2: c_int,
    max2: c_int,
    n2l: c_int,
    min3: c_int,
    max3: c_int,
    n3g: c_int,
    zb: *mut c_void,
    kind: c_int,
    a: f64,
    b: f64,
    npe: c_int,
    pecomm: c_int,
) -> c_int {
    let routine = match (npe, kind > 0) {
        (0, _) => "RPN_COMM_transpose48",
        (_, true) => "RPN_COMM_Xpose148",
        (_, false) => "RPN_COMM_Xpose248",
    };
    call(routine, || {
        let shape = shape48(min1, max1, n1g, min2, max2, n2l, min3, max3, n3g);
        let (line, npe) = if npe == 0 {
            (Line::of_type(kind), None)
        } else {
            let n = usize::try_from(npe).map_err(|_| Error::Negative { what: "npe", value: npe.into() })?;
            (Line::Mpi(pecomm), Some(n))
        };
        // SAFETY: the caller's arrays are real za(min1:max1,min2:max2,n3g) and real*8 zb(min2:max2,min3:max3,n1g).
        with_runtime(|rt| unsafe { rt.transpose48(line, npe, za as usize, zb as usize, shape, kind > 0, a, b) })
    })
}
