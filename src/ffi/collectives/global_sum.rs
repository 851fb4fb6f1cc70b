//! The C ABI of RPN_COMM_globalsum (runtime::collectives::global_sum) and of the in-place
//! squeeze of an array's halos that goes with such sums, RPN_COMM_compress / _expand and their
//! 8-byte twins (core::halos::compress).

use std::ffi::{c_int, c_void};

use super::super::call;
use crate::core::halos::compress::{Squeeze, squeeze};
use crate::error::{Error, Result};
use crate::runtime::collectives::global_sum::SumShape;
use crate::runtime::with_runtime;

fn count(what: &'static str, v: c_int) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::Negative { what, value: v.into() })
}

/// RPN_COMM_globalsum: sum(k), k = 1..nptsz, the sum over the grid of every PE's
/// array(1:nil, 1:njl, k) of reals (array(minx:maxx, miny:maxy, nptsz)), the same on every PE.
/// `njlmax` and `gnj` are the original's sizes of its buffers, not needed here.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_globalsum(
    array: *const c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    nptsz: c_int,
    nil: c_int,
    njl: c_int,
    sum: *mut c_void,
) -> c_int {
    call("RPN_COMM_globalsum", || {
        let shape = (|| {
            Ok(SumShape {
                minx: minx.into(),
                maxx: maxx.into(),
                miny: miny.into(),
                maxy: maxy.into(),
                nptsz: count("nptsz", nptsz)?,
                nil: count("nil", nil)?,
                njl: count("njl", njl)?,
            })
        })();
        // SAFETY: array(minx:maxx, miny:maxy, nptsz) and sum(nptsz) of reals (the caller's promise).
        with_runtime(|rt| unsafe { rt.global_sum(array as usize, shape, sum as usize) })
    })
}

/// RPN_COMM_compress / _compress8 (`expand` 0) and _expand / _expand8: array(minx:maxx,
/// miny:maxy, nk) of `words` (1 or 2) 4-byte words per element squeezed in place to its points
/// (nil, njl, nk), or spread back.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_compress(
    array: *mut c_void,
    minx: c_int,
    maxx: c_int,
    miny: c_int,
    maxy: c_int,
    nil: c_int,
    njl: c_int,
    nk: c_int,
    words: c_int,
    expand: c_int,
) -> c_int {
    let routine = match (expand != 0, words == 2) {
        (false, false) => "RPN_COMM_compress",
        (false, true) => "RPN_COMM_compress8",
        (true, false) => "RPN_COMM_expand",
        (true, true) => "RPN_COMM_expand8",
    };
    call(routine, || {
        let s = Squeeze {
            minx: minx.into(),
            maxx: maxx.into(),
            miny: miny.into(),
            maxy: maxy.into(),
            nil: count("nil", nil)?,
            njl: count("njl", njl)?,
            nk: count("nk", nk)?,
            words: count("words", words)?,
        };
        s.check()?;
        if s.is_empty() {
            return Ok(());
        }
        if array.is_null() || !(array as usize).is_multiple_of(4) {
            return Err(Error::BadArgument("array must be an array of 4-byte words".into()));
        }
        // SAFETY: the caller's array(minx:maxx, miny:maxy, nk) of `words` words per element, not
        // used by anything else during the call.
        let a = unsafe { std::slice::from_raw_parts_mut(array as *mut u32, s.len()) };
        squeeze(a, &s, expand != 0)
    })
}
