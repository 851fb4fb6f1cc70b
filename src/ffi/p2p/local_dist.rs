//! The C ABI of the original's local distribution tables: RPN_COMM_alloc_dist_table,
//! add_dist_entry, dist_pattern, dist_offsets, get_dist_meta, get_dist_dims and do_dist. Each
//! result that the original returns as -1 on failure is an out-parameter set to -1 first.

use std::ffi::{c_char, c_int};

use super::super::{args, call};
use crate::error::Error;
use crate::runtime::p2p::local_dist;
use crate::runtime::with_runtime;

/// RPN_COMM_alloc_dist_table: `*made` receives `nentries` when the table of that many patterns is
/// made, -1 when it exists already or `nentries` is not positive.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_alloc_dist_table(nentries: c_int, made: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(made, -1) };
    call("RPN_COMM_alloc_dist_table", || {
        let n = local_dist::alloc_dist_table(nentries)?;
        // SAFETY: as above.
        unsafe { args::put(made, n) };
        Ok(())
    })
}

/// RPN_COMM_dist_pattern: `*valid` receives `pattern` when it is one of the table's, else -1
/// (never an error: it is the question the caller asks).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_dist_pattern(pattern: c_int, valid: *mut c_int) -> c_int {
    call("RPN_COMM_dist_pattern", || {
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(valid, if local_dist::dist_pattern(pattern) { pattern } else { -1 }) };
        Ok(())
    })
}

/// RPN_COMM_dist_offsets: `offsets` (room for `noffsets`) receives the place of each row's data
/// in pattern `pattern` (negative where this PE is a client, 0 where it takes no part); `*count`
/// their number, -1 on failure.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_dist_offsets(pattern: c_int, offsets: *mut c_int, noffsets: c_int, count: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(count, -1) };
    call("RPN_COMM_dist_offsets", || {
        let list = local_dist::dist_offsets(pattern, noffsets)?;
        if !list.is_empty() && offsets.is_null() {
            return Err(Error::NullBuffer { what: "offsets", nelem: noffsets.into() });
        }
        for (i, &o) in list.iter().enumerate() {
            // SAFETY: offsets holds noffsets >= list.len() integers (the caller's contract).
            unsafe { args::put(offsets.add(i), o) };
        }
        // SAFETY: as above.
        unsafe { args::put(count, list.len() as c_int) };
        Ok(())
    })
}

/// RPN_COMM_get_dist_meta: `metadata` (4 x `nmeta` integers) receives per exchange of this PE in
/// pattern `pattern` its offset, length, row (negative where this PE is a client) and other PE;
/// `*status` 0, or -1 on failure.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_get_dist_meta(pattern: c_int, metadata: *mut c_int, nmeta: c_int, status: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(status, -1) };
    call("RPN_COMM_get_dist_meta", || {
        let meta = local_dist::dist_meta(pattern, nmeta)?;
        if !meta.is_empty() && metadata.is_null() {
            return Err(Error::NullBuffer { what: "metadata", nelem: nmeta.into() });
        }
        for (i, m) in meta.iter().flatten().enumerate() {
            // SAFETY: metadata holds 4 * nmeta integers (the caller's contract), as many as written.
            unsafe { args::put(metadata.add(i), *m) };
        }
        // SAFETY: as above.
        unsafe { args::put(status, 0) };
        Ok(())
    })
}

/// RPN_COMM_get_dist_dims: `*ndata` and `*nmeta` receive the size of the data buffer and the
/// number of this PE's exchanges in pattern `pattern`, -1 both for no such pattern.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_get_dist_dims(pattern: c_int, ndata: *mut c_int, nmeta: *mut c_int) -> c_int {
    // SAFETY: out-parameters from the caller, set first to the failure values.
    unsafe {
        args::put(ndata, -1);
        args::put(nmeta, -1);
    }
    call("RPN_COMM_get_dist_dims", || {
        let (d, m) = local_dist::dist_dims(pattern)?;
        // SAFETY: as above.
        unsafe {
            args::put(ndata, d);
            args::put(nmeta, m);
        }
        Ok(())
    })
}

/// RPN_COMM_add_dist_entry: adds this PE's part of the pattern that `table` (`nrows` rows of
/// `max_clients` + 3 integers: offset, length, root, clients) describes over communicator `com`;
/// the first integer of each row receives its offset (see `rpncomm_dist_offsets`), `*ndata` and
/// `*nmeta` the data buffer's size and this PE's number of exchanges, `*pattern` the pattern's
/// number, -1 on failure.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_add_dist_entry(
    table: *mut c_int,
    max_clients: c_int,
    nrows: c_int,
    com: *const c_char,
    com_len: usize,
    ndata: *mut c_int,
    nmeta: *mut c_int,
    pattern: *mut c_int,
) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(pattern, -1) };
    call("RPN_COMM_add_dist_entry", || {
        let width = i64::from(max_clients) + 3;
        let n = i32::try_from(width * i64::from(nrows.max(0))).map_err(|_| Error::BadArgument(format!("{nrows} rows of {width}")))?;
        // SAFETY: a Fortran string argument; table holds (max_clients + 3) * nrows integers.
        let (c, rows) = unsafe { (args::name(com, com_len)?, args::ints(table, n, "table")?.to_vec()) };
        let (p, offsets, d, m) = with_runtime(|rt| rt.add_dist_entry(&rows, max_clients, nrows, &c))?;
        // SAFETY: table holds nrows rows of width integers; out-parameters from the caller.
        unsafe {
            for (j, &o) in offsets.iter().enumerate() {
                args::put(table.add(j * width as usize), o);
            }
            args::put(ndata, d);
            args::put(nmeta, m);
            args::put(pattern, p);
        }
        Ok(())
    })
}

/// RPN_COMM_do_dist: moves the data of pattern `pattern` in `values` (`nvalues` integers) from
/// each root to its clients (`from_root` != 0) or back.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_do_dist(pattern: c_int, from_root: c_int, values: *mut c_int, nvalues: c_int) -> c_int {
    call("RPN_COMM_do_dist", || {
        // SAFETY: values holds nvalues integers (the caller's contract).
        with_runtime(|rt| unsafe { rt.do_dist(pattern, from_root != 0, values as usize, nvalues) })
    })
}
