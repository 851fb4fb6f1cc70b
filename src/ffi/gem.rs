//! The C ABI of the routines GEM calls beyond the windows (runtime::gem, runtime::p2p), called by
//! the Fortran externals of fortran/rpn_comm_gem.F90. Names and handles as the original: MPI
//! handles are Fortran integers; names of communicators, datatypes and operators are matched in
//! any case.

use std::ffi::{c_char, c_int, c_void};

use super::{args, call, call_init_step};
use crate::core::decomp;
use crate::error::Error;
use crate::runtime::{Place, gem, io_sets, p2p, transpose, with_runtime};

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

/// The Fortran MPI datatype of a name of the original's table ('MPI_INTEGER',
/// 'MPI_double_precision', ...) in `*ftype`. MPI build only.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_datyp_fortran(name: *const c_char, name_len: usize, ftype: *mut c_int) -> c_int {
    call("RPN_COMM_datyp", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        // As the original, an unknown name gives MPI_DATATYPE_NULL (here with a message).
        let f = p2p::fortran_datatype(&name);
        if let Ok(h) = f.clone().or_else(|_| p2p::fortran_datatype("MPI_DATATYPE_NULL")) {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(ftype, h) };
        }
        f.map(|_| ())
    })
}

/// This PE's rank in the communicator named `name` in `*rank` (unchanged on a PE outside it, as
/// in the original).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_rank(name: *const c_char, name_len: usize, rank: *mut c_int) -> c_int {
    call("RPN_COMM_rank", || {
        // SAFETY: Fortran string argument.
        let name = unsafe { args::name(name, name_len) }?;
        if let Some(r) = with_runtime(|rt| rt.comm_rank(&name))? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(rank, r as c_int) };
        }
        Ok(())
    })
}

/// RPN_COMM_carac's 14 integers, in its argument order (npex, npey, me, medomm, mex, mey,
/// sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme), into `out`.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_carac(out: *mut c_int) -> c_int {
    call("RPN_COMM_carac", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "carac", nelem: 14 });
        }
        let c = with_runtime(|rt| rt.carac())?;
        let v = [
            c.npex, c.npey, c.me, c.medomm, c.mex, c.mey, c.sizex, c.sizey, c.ismaster, c.mymaster, c.mybloc, c.myblocx, c.myblocy,
            c.blocme,
        ];
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 14 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
    })
}

/// RPN_COMM_bloctopo: `out` receives blocme, blocmex, blocmey (this PE's rank and coordinates
/// in its block) and the number of blocks along x and y.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_bloctopo(out: *mut c_int) -> c_int {
    call("RPN_COMM_bloctopo", || {
        if out.is_null() {
            return Err(Error::NullBuffer { what: "bloctopo", nelem: 5 });
        }
        let c = with_runtime(|rt| rt.carac())?;
        let longx = c.npex / c.sizex;
        let longy = c.npey / c.sizey;
        let v = [c.blocme, c.mex - c.myblocx * longx, c.mey - c.myblocy * longy, c.sizex, c.sizey];
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 5 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
    })
}

/// RPN_COMM_limit_2: the tiles of `gmin..=gmax` over `npe` PEs in mode `relax` (0 to 4, see
/// the README); `count` and `offset` have room for `npe` integers. -1 when the cut is
/// impossible in that mode (`*lmini = *lmaxi = -1`) or an argument is wrong.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_limit_2(
    my_id: c_int,
    npe: c_int,
    gmin: c_int,
    gmax: c_int,
    lmini: *mut c_int,
    lmaxi: *mut c_int,
    count: *mut c_int,
    offset: *mut c_int,
    relax: c_int,
) -> c_int {
    call("RPN_COMM_limit_2", || {
        let n = usize::try_from(npe).ok().filter(|&n| n > 0).ok_or(Error::BadArgument(format!("npe = {npe}")))?;
        let me =
            usize::try_from(my_id).ok().filter(|&m| m < n).ok_or(Error::BadRank { rank: my_id.into(), npes: n, comm: String::new() })?;
        if count.is_null() || offset.is_null() {
            return Err(Error::NullBuffer { what: "count or offset", nelem: npe.into() });
        }
        let t = decomp::limit(me, n, gmin, gmax, relax);
        // SAFETY: out-parameters; count and offset hold npe integers (the caller's contract).
        unsafe {
            args::put(lmini, t.lmin);
            args::put(lmaxi, t.lmax);
            for i in 0..n {
                args::put(count.add(i), t.count[i]);
                args::put(offset.add(i), t.offset[i]);
            }
        }
        if t.valid {
            Ok(())
        } else {
            Err(Error::BadArgument(format!(
                "{} points cannot be cut into {npe} tiles in mode relax = {relax}",
                i64::from(gmax) - i64::from(gmin) + 1
            )))
        }
    })
}

/// RPN_COMM_topo_2: this PE's tile of `1..=nxg` along x (`alongx` != 0) or y of the PE grid,
/// with a halo of `halo`: array bounds `*minx..=*maxx` (odd length with `fill` != 0), the tile's
/// length `*nxl` and start `*nx0`, the largest tile `*nxlmax`. -1 when the cut is impossible.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_topo_2(
    nxg: c_int,
    minx: *mut c_int,
    maxx: *mut c_int,
    nxl: *mut c_int,
    nxlmax: *mut c_int,
    halo: c_int,
    nx0: *mut c_int,
    alongx: c_int,
    fill: c_int,
    relax: c_int,
) -> c_int {
    call("RPN_COMM_topo_2", || {
        let t = with_runtime(|rt| rt.topo_2(nxg, halo, alongx != 0, fill != 0, relax))?.ok_or_else(|| {
            Error::BadArgument(format!("{nxg} points cannot be cut along {} in mode relax = {relax}", if alongx != 0 { "x" } else { "y" }))
        })?;
        // SAFETY: out-parameters from the caller.
        unsafe {
            args::put(minx, t.min);
            args::put(maxx, t.max);
            args::put(nxl, t.nl);
            args::put(nxlmax, t.nlmax);
            args::put(nx0, t.n0);
        }
        Ok(())
    })
}

/// RPN_COMM_set_petopo: before RPN_COMM_init, blocks of `sizx` x `sizy` PEs (each clipped to 1
/// .. the grid's side) place the PEs on the grid, as the original: blocks x first then y, PEs of
/// a block x first then y (1 x 1, the default: row after row; 1 x 999999: column after column).
/// The grid's PE 0's values count.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_set_petopo(sizx: c_int, sizy: c_int) -> c_int {
    call("RPN_COMM_set_petopo", || {
        gem::set_petopo(sizx, sizy);
        Ok(())
    })
}

/// RPN_COMM_reduce: `count` elements of `dtype` from every PE of `com` combined with `op` into
/// `recvbuf` on the PE of rank `root` (the others' `recvbuf` is untouched).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    op: *const c_char,
    op_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_reduce", || {
        // SAFETY: Fortran string arguments.
        let (d, o, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(op, op_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers hold `count` elements of `dtype` (MPI-style contract).
        with_runtime(|rt| unsafe { rt.reduce(sendbuf as usize, recvbuf as usize, count, &d, &o, root, &c) })
    })
}

/// RPN_COMM_gather: `sendcount` elements from every PE of `com` into `recvbuf` on the PE of
/// rank `root`, in rank order.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_gather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: *const c_char,
    sendtype_len: usize,
    recvbuf: *mut c_void,
    reccount: c_int,
    rectype: *const c_char,
    rectype_len: usize,
    root: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_gather", || {
        // SAFETY: Fortran string arguments.
        let (st, rt_, c) = unsafe { (args::name(sendtype, sendtype_len)?, args::name(rectype, rectype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffers are as large as the counts say (MPI-style contract).
        with_runtime(|rt| unsafe { rt.gather(sendbuf as usize, sendcount, &st, recvbuf as usize, reccount, &rt_, root, &c) })
    })
}

/// RPN_COMM_send (MPI build only): `count` elements of `dtype` to rank `dest` of `com`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_send(
    buf: *const c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    dest: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
) -> c_int {
    call("RPN_COMM_send", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer holds `count` elements of `dtype`.
        unsafe { p2p::send(buf as usize, count, &d, dest, tag, &c) }
    })
}

/// RPN_COMM_recv (MPI build only): into `buf` from rank `source` of `com`; `*status` receives
/// the number of elements received.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_recv(
    buf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    source: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
    status: *mut c_int,
) -> c_int {
    call("RPN_COMM_recv", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer has room for `count` elements of `dtype`.
        let n = unsafe { p2p::recv(buf as usize, count, &d, source, tag, &c) }?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(status, n) };
        Ok(())
    })
}

/// RPN_COMM_isend (MPI build only): `*request` receives the Fortran MPI request (unchanged on
/// a PE outside `com`: nothing is sent).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_isend(
    buf: *const c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    dest: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
    request: *mut c_int,
) -> c_int {
    call("RPN_COMM_isend", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer holds `count` elements until the request completes.
        if let Some(r) = unsafe { p2p::isend(buf as usize, count, &d, dest, tag, &c) }? {
            // SAFETY: out-parameter from the caller.
            unsafe { args::put(request, r) };
        }
        Ok(())
    })
}

/// RPN_COMM_irecv (MPI build only): `*request` receives the Fortran MPI request.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_irecv(
    buf: *mut c_void,
    count: c_int,
    dtype: *const c_char,
    dtype_len: usize,
    source: c_int,
    tag: c_int,
    com: *const c_char,
    com_len: usize,
    request: *mut c_int,
) -> c_int {
    call("RPN_COMM_irecv", || {
        // SAFETY: Fortran string arguments.
        let (d, c) = unsafe { (args::name(dtype, dtype_len)?, args::name(com, com_len)?) };
        // SAFETY: the caller's buffer has room for `count` elements until the request completes.
        let r = unsafe { p2p::irecv(buf as usize, count, &d, source, tag, &c) }?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(request, r) };
        Ok(())
    })
}

/// RPN_COMM_waitall_nostat (MPI build only; `nreq` = 0 everywhere): waits for the `nreq`
/// Fortran MPI requests in `requests` (each becomes MPI_REQUEST_NULL's handle).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_waitall_nostat(nreq: c_int, requests: *mut c_int) -> c_int {
    call("RPN_COMM_waitall_nostat", || {
        let n = usize::try_from(nreq).map_err(|_| Error::Negative { what: "nreq", value: nreq.into() })?;
        if n > 0 && requests.is_null() {
            return Err(Error::NullBuffer { what: "requests", nelem: nreq.into() });
        }
        let reqs: &mut [c_int] = if n == 0 {
            &mut []
        } else {
            // SAFETY: the caller's array holds nreq requests.
            unsafe { std::slice::from_raw_parts_mut(requests, n) }
        };
        p2p::waitall(reqs)
    })
}

/// RPN_COMM_create_io_set, collective over the grid: `*setno` receives the number (1 to 16) of a
/// new set of `npes` I/O PEs placed by `method` (0), -1 when it cannot be made.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_create_io_set(npes: c_int, method: c_int, setno: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(setno, -1) };
    call("RPN_COMM_create_io_set", || {
        let n = with_runtime(|rt| rt.create_io_set(npes, method))?;
        // SAFETY: as above.
        unsafe { args::put(setno, n) };
        Ok(())
    })
}

/// RPN_COMM_free_io_set: forgets set `setno`; `*freed` receives `setno`, -1 for no such set.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_free_io_set(setno: c_int, freed: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(freed, -1) };
    call("RPN_COMM_free_io_set", || {
        let n = io_sets::free_io_set(setno)?;
        // SAFETY: as above.
        unsafe { args::put(freed, n) };
        Ok(())
    })
}

/// RPN_COMM_is_io_pe: `*ordinal` receives this PE's rank in set `setno`, -1 where it is no
/// member (or there is no such set: then also an error).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_is_io_pe(setno: c_int, ordinal: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(ordinal, -1) };
    call("RPN_COMM_is_io_pe", || {
        if let Some(r) = io_sets::is_io_pe(setno)? {
            // SAFETY: as above.
            unsafe { args::put(ordinal, r as c_int) };
        }
        Ok(())
    })
}

/// RPN_COMM_io_pe_gridid: `*ordinal` receives the grid rank of member `n` (from 0) of set
/// `setno`, -1 when there is no such member.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_gridid(setno: c_int, n: c_int, ordinal: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(ordinal, -1) };
    call("RPN_COMM_io_pe_gridid", || {
        let r = io_sets::io_pe_gridid(setno, n)?;
        // SAFETY: as above.
        unsafe { args::put(ordinal, r as c_int) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_size: `*population` receives the number of PEs of set `setno`, -1 for no
/// such set.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_size(setno: c_int, population: *mut c_int) -> c_int {
    // SAFETY: out-parameter from the caller, set first to the failure value.
    unsafe { args::put(population, -1) };
    call("RPN_COMM_io_pe_size", || {
        let n = io_sets::io_pe_size(setno)?;
        // SAFETY: as above.
        unsafe { args::put(population, n as c_int) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_comm (MPI build only): `*fcomm` receives the Fortran MPI communicator of set
/// `setno` on its members, MPI_COMM_NULL's elsewhere.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_comm(setno: c_int, fcomm: *mut c_int) -> c_int {
    call("RPN_COMM_io_pe_comm", || {
        let f = with_runtime(|rt| rt.io_pe_comm(setno))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(fcomm, f) };
        Ok(())
    })
}

/// RPN_COMM_io_pe_valid_set: `x` and `y` (room for `npes` integers each) receive the grid
/// coordinates of a set of `npes` PEs placed by `method` on a `penx` x `peny` grid, -1 everywhere
/// when no such set is possible (then also an error); `diag` != 0 prints the set's map.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_io_pe_valid_set(
    x: *mut c_int,
    y: *mut c_int,
    npes: c_int,
    penx: c_int,
    peny: c_int,
    diag: c_int,
    method: c_int,
) -> c_int {
    call("RPN_COMM_io_pe_valid_set", || {
        let n = usize::try_from(npes).unwrap_or(0);
        if n > 0 && (x.is_null() || y.is_null()) {
            return Err(Error::NullBuffer { what: "x or y", nelem: npes.into() });
        }
        let list = io_sets::io_pe_valid_set(npes, penx, peny, diag != 0, method);
        for i in 0..n {
            let (px, py) = list.as_ref().map_or((-1, -1), |l| (l[i].0 as c_int, l[i].1 as c_int));
            // SAFETY: x and y hold npes integers (the caller's contract).
            unsafe {
                args::put(x.add(i), px);
                args::put(y.add(i), py);
            }
        }
        list.map(|_| ())
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
        let v = p2p::split_by_socket(origcomm)?;
        for (i, x) in v.into_iter().enumerate() {
            // SAFETY: the caller's array holds 7 integers.
            unsafe { args::put(out.add(i), x) };
        }
        Ok(())
    })
}

/// RPN_COMM_create_2dgrid: `*grid_id` receives the id of a descriptor of a `gni` x `gnj` field
/// stored `mini:maxi` x `minj:maxj` on every PE of the grid (-1 and a message when refused).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_create_2dgrid(
    gni: c_int,
    gnj: c_int,
    mini: c_int,
    maxi: c_int,
    minj: c_int,
    maxj: c_int,
    grid_id: *mut c_int,
) -> c_int {
    call("RPN_COMM_create_2dgrid", || {
        if grid_id.is_null() {
            return Err(Error::NullBuffer { what: "grid_id", nelem: 1 });
        }
        let id = with_runtime(|rt| rt.create_2dgrid([gni, gnj, mini, maxi, minj, maxj]));
        // SAFETY: out-parameter from the caller (checked not null above).
        unsafe { args::put(grid_id, *id.as_ref().unwrap_or(&-1)) };
        id.map(|_| ())
    })
}

/// RPN_COMM_get_2dgrid: `dims` (6 integers) receives gni, gnj, mini, maxi, minj, maxj of the
/// descriptor `grid_id`; `starti`, `counti` (`dim_i` integers) and `startj`, `countj` (`dim_j`)
/// its tiles along x and y (the first npex and npey). Nothing is written when refused.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_get_2dgrid(
    grid_id: c_int,
    dim_i: c_int,
    dim_j: c_int,
    dims: *mut c_int,
    starti: *mut c_int,
    counti: *mut c_int,
    startj: *mut c_int,
    countj: *mut c_int,
) -> c_int {
    call("RPN_COMM_get_2dgrid", || {
        if [dims, starti, counti, startj, countj].iter().any(|p| p.is_null()) {
            return Err(Error::NullBuffer { what: "get_2dgrid's arrays", nelem: 6 });
        }
        let g = with_runtime(|rt| rt.get_2dgrid(grid_id, dim_i, dim_j))?;
        let fill = |p: *mut c_int, v: &[i32]| {
            for (i, x) in v.iter().enumerate() {
                // SAFETY: the caller's array holds dim_i (dim_j) integers, at least v.len() (checked by get_2dgrid).
                unsafe { args::put(p.add(i), *x) };
            }
        };
        fill(dims, &g.dims);
        fill(starti, &g.start_i);
        fill(counti, &g.count_i);
        fill(startj, &g.start_j);
        fill(countj, &g.count_j);
        Ok(())
    })
}

/// RPN_COMM_init_multi_level / RPN_COMM_gridinit (collective over the job, before the grid is
/// made): the job is cut into `multigrids` multigrids of `grids` grids each (GEM's Yin-Yang:
/// 1 and 2), consecutive job ranks each; refused on every PE where the counts do not cut the job
/// into equal grids or PEs give different ones. `place` (3 integers) receives this PE's rank in
/// its grid, the grid's number of PEs and the value RPN_COMM_init_multi_level returns (the grid's
/// number in its multigrid when `grids` > 1, else the multigrid's).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_gridinit_check(multigrids: c_int, grids: c_int, place: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init_multi_level", || {
        let p = with_runtime(|rt| rt.gridinit_check(multigrids, grids))?;
        // SAFETY: the caller's array holds 3 integers (null is skipped).
        unsafe { put_place(place, &p) };
        Ok(())
    })
}

/// This PE's place among the grids, as `rpncomm_gridinit_check` gives it (the grid kept by a
/// second RPN_COMM_init_multi_level).
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_grid_place(place: *mut c_int) -> c_int {
    call_init_step("RPN_COMM_init_multi_level", || {
        let p = with_runtime(|rt| Ok(rt.place()))?;
        // SAFETY: the caller's array holds 3 integers (null is skipped).
        unsafe { put_place(place, &p) };
        Ok(())
    })
}

/// # Safety
/// `out` is null or holds 3 integers.
unsafe fn put_place(out: *mut c_int, p: &Place) {
    if out.is_null() {
        return;
    }
    for (i, v) in [p.grid_rank, p.grid_size, p.color].into_iter().enumerate() {
        // SAFETY: the caller's array holds 3 integers.
        unsafe { args::put(out.add(i), v as c_int) };
    }
}

/// RPN_COMM_mydomain / RPN_COMM_get_my_domain (collective over the job, before RPN_COMM_init):
/// `*domain` receives this PE's domain, numbered from `offset`, among `ndomains` (1: several
/// domains in one job are not supported), once every PE's `err` (its call_back's) is not negative.
#[unsafe(no_mangle)]
pub extern "C" fn rpncomm_mydomain(ndomains: c_int, offset: c_int, err: c_int, domain: *mut c_int) -> c_int {
    call("RPN_COMM_mydomain", || {
        let d = with_runtime(|rt| rt.my_domain(ndomains, offset, err))?;
        // SAFETY: out-parameter from the caller.
        unsafe { args::put(domain, d) };
        Ok(())
    })
}

/// RPN_COMM_transpose: the distributed transpose of za(size, min1:max1, n2, n3g) and
/// zb(size, n2, min3:max3, n1g) along x (`kind` ±1, 'EW') or y (±2, 'NS'), forward when
/// `kind` > 0 (runtime::transpose has the layout).
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
