//! The C entry points of RPN_COMM_shuf_dist, _shuf_coll and _shuf_ezdist_h: the distributions of
//! levels from and to an I/O PE set of RPN_COMM_shuf_ezdist and _ezcoll, on the caller's tables
//! of tiles or with a global array that has the local halo (runtime::collectives::dist).

use std::ffi::{c_int, c_void};

use super::super::args;
use super::super::collectives::dist::{shuf_coll_call, shuf_dist_call};
use crate::core::CollectiveId;
use crate::error::{Error, Result};
use crate::runtime::collectives::dist::Layout;

/// The caller's tables of tiles: start_x, count_x (nx each), start_y, count_y (ny each).
///
/// # Safety
/// Each pointer holds its count of integers.
unsafe fn tables(sx: *const c_int, cx: *const c_int, nx: c_int, sy: *const c_int, cy: *const c_int, ny: c_int) -> Result<[Vec<i32>; 4]> {
    // SAFETY: the caller's contract.
    unsafe {
        Ok([
            args::ints(sx, nx, "start_x")?.to_vec(),
            args::ints(cx, nx, "count_x")?.to_vec(),
            args::ints(sy, ny, "start_y")?.to_vec(),
            args::ints(cy, ny, "count_y")?.to_vec(),
        ])
    }
}

/// RPN_COMM_shuf_dist: levels `liste_i(1:dnk)` of each I/O PE's global(gni, gnj, dnk) into
/// every PE's local(mini:maxi, minj:maxj, lnk), the tiles as the caller's tables say (start_x,
/// count_x of each column of PEs, start_y, count_y of each row; gni, gnj the field's or with a
/// halo as wide on each side); `liste_o(l)` becomes 1 where level l came. Periodic
/// distributions are refused, as the original refuses them.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_shuf_dist(
    setno: c_int,
    global: *const c_void,
    gni: c_int,
    gnj: c_int,
    dnk: c_int,
    local: *mut c_void,
    mini: c_int,
    maxi: c_int,
    minj: c_int,
    maxj: c_int,
    lnk: c_int,
    liste_i: *const c_int,
    liste_o: *mut c_int,
    start_x: *const c_int,
    count_x: *const c_int,
    nx: c_int,
    start_y: *const c_int,
    count_y: *const c_int,
    ny: c_int,
    periodx: c_int,
    periody: c_int,
) -> c_int {
    let layout = || {
        if periodx != 0 || periody != 0 {
            return Err(Error::BadArgument("a periodic distribution is not supported (periodx and periody must be .false.)".into()));
        }
        // SAFETY: the tables hold nx and ny integers (the caller's contract).
        let [start_x, count_x, start_y, count_y] = unsafe { tables(start_x, count_x, nx, start_y, count_y, ny) }?;
        Ok(Layout::Tables { gni, gnj, local: [mini, maxi, minj, maxj], start_x, count_x, start_y, count_y, centred: true })
    };
    shuf_dist_call(CollectiveId::ShufDist, setno, layout, global, dnk, local, lnk, liste_i, liste_o)
}

/// RPN_COMM_shuf_coll: every PE's local(mini:maxi, minj:maxj, nk) levels gathered on the I/O
/// PEs of set `setno` (level k on member (k-1) mod npe, in its global(:, :, (k-1)/npe + 1), the
/// field at the origin of global(gni, gnj, dnk)), the tiles as the caller's tables say; on the
/// members `liste_o(1:dnk)` receives the level of each plane of global, 0 for none.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_shuf_coll(
    setno: c_int,
    global: *mut c_void,
    gni: c_int,
    gnj: c_int,
    dnk: c_int,
    local: *const c_void,
    mini: c_int,
    maxi: c_int,
    minj: c_int,
    maxj: c_int,
    nk: c_int,
    liste_o: *mut c_int,
    start_x: *const c_int,
    count_x: *const c_int,
    nx: c_int,
    start_y: *const c_int,
    count_y: *const c_int,
    ny: c_int,
) -> c_int {
    let layout = || {
        // SAFETY: the tables hold nx and ny integers (the caller's contract).
        let [start_x, count_x, start_y, count_y] = unsafe { tables(start_x, count_x, nx, start_y, count_y, ny) }?;
        Ok(Layout::Tables { gni, gnj, local: [mini, maxi, minj, maxj], start_x, count_x, start_y, count_y, centred: false })
    };
    shuf_coll_call(CollectiveId::ShufColl, setno, layout, global, dnk, local, nk, liste_o)
}

/// RPN_COMM_shuf_ezdist_h: RPN_COMM_shuf_ezdist from a global array that has the local halo
/// (1 - mini, 1 - minj of grid descriptor `grid_id`) on each side: the tiles at the field's
/// edges receive their outer halo from it too.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn rpncomm_shuf_ezdist_h(
    setno: c_int,
    grid_id: c_int,
    global: *const c_void,
    dnk: c_int,
    local: *mut c_void,
    lnk: c_int,
    liste_i: *const c_int,
    liste_o: *mut c_int,
) -> c_int {
    let layout = || Ok(Layout::Grid { grid_id, halo: true });
    shuf_dist_call(CollectiveId::ShufEzdistH, setno, layout, global, dnk, local, lnk, liste_i, liste_o)
}
