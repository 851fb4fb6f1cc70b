//! The distribution routines GEM calls beside RPN_COMM_transpose, with the original's layouts and
//! results (docs/gem.md has the rules):
//! - RPN_COMM_dist / RPN_COMM_coll: a global field on grid PE 0 cut into every PE's tile (with
//!   halos, periodic or not) and back; RPN_COMM_fast_dist: the same cut, periodic halos taken
//!   from the global array's own halo;
//! - RPN_COMM_shuf_ezdist / RPN_COMM_shuf_ezcoll: whole levels held by the members of an I/O PE
//!   set, spread to / gathered from every PE of a 2D grid descriptor;
//! - RPN_MPI_transpose_setup / RPN_MPI_ez_transpose_xz: the "stacked" x-z transpose of GEM's FFT
//!   solvers, on the caller's MPI communicators (MPI build).
//!
//! Each call agrees first (which routine, and the arguments every PE must share), then moves
//! every block once with the transport's all-to-all (MPI_Alltoallv in the MPI build), so that a
//! PE in another collective or with other arguments fails every PE with one line.

use std::sync::Mutex;

use super::super::Runtime;
use super::super::grid::io_sets;
use crate::core::{CollectiveId, Communicator, Grid, decomp};
use crate::error::{Error, Result};

/// A Fortran array a(size, lo1:hi1, lo2:hi2, nk) of 4-byte words.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Array4 {
    pub size: usize,
    pub lo1: i64,
    pub hi1: i64,
    pub lo2: i64,
    pub hi2: i64,
    pub nk: usize,
}

impl Array4 {
    fn n1(&self) -> usize {
        (self.hi1 - self.lo1 + 1).max(0) as usize
    }
    fn n2(&self) -> usize {
        (self.hi2 - self.lo2 + 1).max(0) as usize
    }
    pub fn words(&self) -> usize {
        self.size * self.n1() * self.n2() * self.nk
    }
    /// Whether the box i1..=i2 x j1..=j2 lies inside (an empty box always does).
    fn holds(&self, (i1, i2): (i64, i64), (j1, j2): (i64, i64)) -> bool {
        i1 > i2 || j1 > j2 || (self.lo1 <= i1 && i2 <= self.hi1 && self.lo2 <= j1 && j2 <= self.hi2)
    }
    /// Word offset of a(1, i, j, k + 1).
    fn at(&self, i: i64, j: i64, k: usize) -> usize {
        self.size * ((i - self.lo1) as usize + self.n1() * ((j - self.lo2) as usize + self.n2() * k))
    }
}

fn span(r: (i64, i64)) -> usize {
    (r.1 - r.0 + 1).max(0) as usize
}

/// The caller's array as words (empty for no words).
///
/// # Safety
/// `addr` holds `words` 4-byte words (when `words` > 0), readable.
pub(super) unsafe fn words_of<'a>(addr: usize, words: usize) -> &'a [u32] {
    // SAFETY: the caller's promise.
    if words == 0 { &[] } else { unsafe { std::slice::from_raw_parts(addr as *const u32, words) } }
}

/// # Safety
/// `addr` holds `words` 4-byte words (when `words` > 0), writable, used by nothing else meanwhile.
pub(super) unsafe fn words_of_mut<'a>(addr: usize, words: usize) -> &'a mut [u32] {
    // SAFETY: the caller's promise.
    if words == 0 { &mut [] } else { unsafe { std::slice::from_raw_parts_mut(addr as *mut u32, words) } }
}

pub(super) fn check_addr(addr: usize, words: usize, what: &'static str) -> Result<()> {
    if words > 0 && addr == 0 {
        return Err(Error::NullBuffer { what, nelem: words as i64 });
    }
    if words > 0 && !addr.is_multiple_of(4) {
        return Err(Error::BadArgument(format!("{what} must be an array of 4-byte words")));
    }
    Ok(())
}

pub(super) fn as_bytes(w: &[u32]) -> &[u8] {
    // SAFETY: the same memory, 4 bytes per word, u8 aligned everywhere.
    unsafe { std::slice::from_raw_parts(w.as_ptr() as *const u8, w.len() * 4) }
}

/// The received bytes straight into the caller's words (one copy).
fn copy_words(from: &[u8], to: &mut [u32]) {
    assert_eq!(from.len(), to.len() * 4, "the transport returns what was asked");
    // SAFETY: `to` has room for from.len() bytes; u32 has no invalid bit pattern; distinct memory.
    unsafe { std::ptr::copy_nonoverlapping(from.as_ptr(), to.as_mut_ptr() as *mut u8, from.len()) };
}

pub(super) fn to_words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The strict cut of 1..=n over np PEs (RPN_COMM_limit, as the original's dist and coll use it).
fn strict_counts(n: i32, np: usize, what: &str) -> Result<Vec<i64>> {
    let t = decomp::limit(0, np, 1, n, 0);
    if !t.valid || n < 1 {
        return Err(Error::BadArgument(format!(
            "{what} = {n} cannot be cut into {np} tiles of ceiling({what}/{np}) points and a shorter last one"
        )));
    }
    Ok(t.count.iter().map(|&c| i64::from(c)).collect())
}

/// RPN_COMM_dist's and RPN_COMM_coll's arguments.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistArgs {
    /// garr(size, gmini:gmaxi, gminj:gmaxj, nk)
    pub garr: Array4,
    /// larr(size, mini:maxi, minj:maxj, nk)
    pub larr: Array4,
    pub nig: i32,
    pub njg: i32,
    pub ghalox: i64,
    pub ghaloy: i64,
    pub halox: i64,
    pub haloy: i64,
    pub periodx: bool,
    pub periody: bool,
}

impl DistArgs {
    fn payload(&self) -> [u32; 10] {
        let a = self;
        [
            a.nig as u32,
            a.njg as u32,
            a.larr.nk as u32,
            a.larr.size as u32,
            a.halox as u32,
            a.haloy as u32,
            a.ghalox as u32,
            a.ghaloy as u32,
            u32::from(a.periodx),
            u32::from(a.periody),
        ]
    }
}

/// The PE grid's tiles as dist and coll see them: counts along x and y (strict cut).
struct Tiles {
    cx: Vec<i64>,
    cy: Vec<i64>,
}

impl Tiles {
    fn new(a: &DistArgs, nx: usize, ny: usize) -> Result<Tiles> {
        Ok(Tiles { cx: strict_counts(a.nig, nx, "nig")?, cy: strict_counts(a.njg, ny, "njg")? })
    }

    /// RPN_COMM_dist: the part of larr PE (x, y) receives, along one axis: (first, last) local
    /// index. Halos as wide as the local ones, narrowed to the global array's at a non-periodic
    /// edge.
    fn dist_range(count: &[i64], p: usize, halo: i64, ghalo: i64, period: bool) -> (i64, i64) {
        let n = count.len();
        let (mut lo, mut hi) = (1 - halo, count[p] + halo);
        if !period && ghalo < halo {
            if p == 0 {
                lo = 1 - ghalo;
            }
            if p == n - 1 {
                hi = count[p] + ghalo;
            }
        }
        (lo, hi)
    }

    /// RPN_COMM_fast_dist: the part of larr PE p receives along one axis: its tile and halos, none
    /// beyond a non-periodic edge (periodic halos come from the global array's halo, unwrapped).
    fn fast_range(count: &[i64], p: usize, halo: i64, period: bool) -> (i64, i64) {
        let n = count.len();
        let lo = if !period && p == 0 { 1 } else { 1 - halo };
        let hi = if !period && p == n - 1 { count[p] } else { count[p] + halo };
        (lo, hi)
    }

    /// RPN_COMM_coll: the part of PE p's larr that lands in garr along one axis: its interior,
    /// with min(halo, ghalo) more at the global array's edges.
    fn coll_range(count: &[i64], p: usize, halo: i64, ghalo: i64) -> (i64, i64) {
        let (n, h) = (count.len(), halo.min(ghalo));
        (if p == 0 { 1 - h } else { 1 }, if p == n - 1 { count[p] + h } else { count[p] })
    }
}

/// Global index of local index `i` of the tile starting after `origin` (periodic: wrapped once).
fn global(origin: i64, i: i64, n: i32, period: bool) -> i64 {
    let g = origin + i;
    let n = i64::from(n);
    if period && g > n {
        g - n
    } else if period && g < 1 {
        g + n
    } else {
        g
    }
}

/// The I/O set rounds of RPN_COMM_shuf_ezdist and the grid descriptor's tiles.
struct Ez {
    /// The global array's dimensions: the field's and a halo of (ghx, ghy) on each side.
    gni: i64,
    gnj: i64,
    ghx: i64,
    ghy: i64,
    local: Array4,
    sx: Vec<i64>,
    cx: Vec<i64>,
    sy: Vec<i64>,
    cy: Vec<i64>,
}

/// Where the distributions of the I/O PE sets find the layout of the field: a 2D grid
/// descriptor (RPN_COMM_shuf_ezdist, _ezcoll; `halo`: the global array has the local halos too,
/// RPN_COMM_shuf_ezdist_h), or the caller's tables (RPN_COMM_shuf_dist, _coll: the global array's
/// dimensions, the local ones, start and count of every column and row of tiles; `centred`: the
/// field sits in the middle of a larger global array, with a halo as wide on each side, as
/// RPN_COMM_shuf_dist takes it, else at its origin, as RPN_COMM_shuf_coll writes it).
pub enum Layout {
    Grid {
        grid_id: i32,
        halo: bool,
    },
    Tables {
        gni: i32,
        gnj: i32,
        local: [i32; 4],
        start_x: Vec<i32>,
        count_x: Vec<i32>,
        start_y: Vec<i32>,
        count_y: Vec<i32>,
        centred: bool,
    },
}

impl Layout {
    /// The Grid2d of the field (its own dimensions, without the global halo) and the global
    /// array's halo.
    fn resolve(&self, rt: &Runtime, nx: usize, ny: usize) -> Result<(super::super::grid::Grid2d, (i64, i64))> {
        match self {
            Layout::Grid { grid_id, halo } => {
                let g = rt.get_2dgrid(*grid_id, nx as i32, ny as i32)?;
                let gh = if *halo { (i64::from(1 - g.dims[2]), i64::from(1 - g.dims[4])) } else { (0, 0) };
                Ok((g, gh))
            }
            Layout::Tables { gni, gnj, local, start_x, count_x, start_y, count_y, centred } => {
                if start_x.len() != nx || count_x.len() != nx || start_y.len() != ny || count_y.len() != ny {
                    return Err(Error::BadArgument(format!(
                        "the tables are for a {} x {} grid of PEs, the grid is {nx} x {ny}",
                        start_x.len(),
                        start_y.len()
                    )));
                }
                // the field ends where the last tile does; the rest of gni (gnj) is the global
                // array's halo, as much on each side
                let field = |s: &[i32], c: &[i32]| s.last().zip(c.last()).map_or(0, |(s, c)| i64::from(*s) + i64::from(*c) - 1);
                let (fi, fj) = (field(start_x, count_x), field(start_y, count_y));
                if !centred {
                    if fi > i64::from(*gni) || fj > i64::from(*gnj) {
                        return Err(Error::BadArgument(format!(
                            "the tiles cover {fi} x {fj} points, more than the {gni} x {gnj} global array"
                        )));
                    }
                    let g = super::super::grid::Grid2d {
                        dims: [*gni, *gnj, local[0], local[1], local[2], local[3]],
                        start_i: start_x.clone(),
                        count_i: count_x.clone(),
                        start_j: start_y.clone(),
                        count_j: count_y.clone(),
                    };
                    return Ok((g, (0, 0)));
                }
                let halo = |g: i32, f: i64, axis: &str| {
                    let extra = i64::from(g) - f;
                    if extra < 0 || extra % 2 != 0 {
                        return Err(Error::BadArgument(format!(
                            "a global array {g} long along {axis} holds neither the {f} points of the tiles nor them and an equal halo on each side"
                        )));
                    }
                    Ok(extra / 2)
                };
                let gh = (halo(*gni, fi, "x")?, halo(*gnj, fj, "y")?);
                let dims = [fi as i32, fj as i32, local[0], local[1], local[2], local[3]];
                let g = super::super::grid::Grid2d {
                    dims,
                    start_i: start_x.clone(),
                    count_i: count_x.clone(),
                    start_j: start_y.clone(),
                    count_j: count_y.clone(),
                };
                Ok((g, gh))
            }
        }
    }
}

impl Ez {
    fn new(g: &super::super::grid::Grid2d, nk: usize, (ghx, ghy): (i64, i64)) -> Ez {
        let [gni, gnj, mini, maxi, minj, maxj] = g.dims.map(i64::from);
        let v = |x: &Vec<i32>| x.iter().map(|&c| i64::from(c)).collect();
        Ez {
            gni: gni + 2 * ghx,
            gnj: gnj + 2 * ghy,
            ghx,
            ghy,
            local: Array4 { size: 1, lo1: mini, hi1: maxi, lo2: minj, hi2: maxj, nk },
            sx: v(&g.start_i),
            cx: v(&g.count_i),
            sy: v(&g.start_j),
            cy: v(&g.count_j),
        }
    }
    /// RPN_COMM_shuf_ezdist: the local indices of tile (x, y) that receive a level along one axis
    /// (the rest of the plane is zeroed): the tile with its halo, at the grid's outer edges only
    /// as much of it as the global array's halo `ghalo` holds.
    fn recv_range(count: &[i64], p: usize, lo: i64, hi: i64, halo: i64, ghalo: i64) -> (i64, i64) {
        let n = count.len();
        let first = if p == 0 { lo.max(1 - halo.min(ghalo)) } else { lo.max(1 - halo) };
        let last = if p == n - 1 { hi.min(count[p] + halo.min(ghalo)) } else { hi.min(count[p] + halo) };
        (first, last)
    }
    fn xr(&self, x: usize) -> (i64, i64) {
        // along x the original sends the whole stored row between the edges (mini:maxi)
        Self::recv_range(&self.cx, x, self.local.lo1, self.local.hi1, i64::from(i32::MAX), self.ghx)
    }
    fn yr(&self, y: usize) -> (i64, i64) {
        // the original's halo along y is 1 - minj, none on a grid one PE high
        let halo = if self.cy.len() == 1 { 0 } else { 1 - self.local.lo2 };
        Self::recv_range(&self.cy, y, self.local.lo2, self.local.hi2, halo, self.ghy)
    }
    /// Word offset in the global array of level `k`, field point (i, j) (i, j from 1 - halo).
    fn global_at(&self, k: usize, i: i64, j: i64) -> usize {
        ((k as i64 * self.gnj + j - 1 + self.ghy) * self.gni + i - 1 + self.ghx) as usize
    }
    /// Why tile (x, y)'s part cannot be taken from the global array (None when it can).
    fn check(&self, x: usize, y: usize) -> Result<()> {
        let (xr, yr) = (self.xr(x), self.yr(y));
        let (g1, g2) = (self.sx[x] + xr.0 - 1, self.sx[x] + xr.1 - 1);
        let (h1, h2) = (self.sy[y] + yr.0 - 1, self.sy[y] + yr.1 - 1);
        let (fi, fj) = (self.gni - self.ghx, self.gnj - self.ghy);
        if (xr.0 <= xr.1 && (g1 < 1 - self.ghx || g2 > fi)) || (yr.0 <= yr.1 && (h1 < 1 - self.ghy || h2 > fj)) {
            return Err(Error::BadArgument(format!(
                "the halo of the grid's tile ({x}, {y}) reaches outside the {} x {} global field",
                self.gni, self.gnj
            )));
        }
        Ok(())
    }
}

/// RPN_COMM_io_dist_coll_check: why a gni x gnj field with halos halo_x, halo_y cannot be cut
/// over a pex x pey grid for the I/O distributions (the last tile along an axis, ceiling(n/np)
/// points before it, must have at least max(1, halo) points): the original's lines, none when it
/// can.
pub fn io_dist_coll_check(gni: i32, gnj: i32, halo_x: i32, halo_y: i32, pex: i32, pey: i32) -> Vec<String> {
    // the original's format (A,20I5)
    let line = |text: &str, values: &[i64]| {
        let mut l = text.to_string();
        for v in values {
            let f = format!("{v:5}");
            l.push_str(if f.len() > 5 { "*****" } else { &f });
        }
        l
    };
    let mut lines = Vec::new();
    for (axis, g, halo, np) in [("x", gni, halo_x, pex), ("y", gnj, halo_y, pey)] {
        let (g, halo, np) = (i64::from(g), i64::from(halo), i64::from(np.max(1)));
        let ln = (g + np - 1) / np;
        let last = g - (np - 1) * ln;
        if last < halo.max(1) {
            lines.push(line(
                &format!("CFG: ERROR: size of last tile along {axis}, halo_{axis}, gn{}, ln{} ", axis_index(axis), axis_index(axis)),
                &[last, halo, g, ln],
            ));
            lines.push(line(
                &format!("CFG: ERROR: not enough points along {axis} for problem, need gn{} >= ", axis_index(axis)),
                &[ln.max(halo) * (np - 1) + halo.max(1)],
            ));
        }
    }
    lines
}

fn axis_index(axis: &str) -> &'static str {
    if axis == "x" { "i" } else { "j" }
}

/// RPN_MPI_transpose_setup's state: the row communicator and every PE's levels, the column's
/// handle (kept as the original keeps it).
pub(super) struct XzSetup {
    /// The column communicator's Fortran handle (-1 before RPN_MPI_transpose_setup gives one).
    pub(super) handle: i32,
    /// The row communicator's Fortran handle, and the row.
    pub(super) row_handle: i32,
    pub(super) row: Communicator,
    pub(super) nk: usize,
    pub(super) counts: Vec<usize>,
}

pub(super) static XZ: Mutex<Option<XzSetup>> = Mutex::new(None);

impl Runtime {
    /// 'GRID' and the placement of its PEs (RPN_COMM_set_petopo's blocks: a PE's rank there is
    /// `grid.grid_rank(x, y)`, not x + y * pex).
    fn grid_comm(&self) -> Result<(Communicator, Grid, usize, usize)> {
        let (grid, _) = self.grid_and_blocks()?;
        let comm = self.named("GRID")?.ok_or_else(|| Error::Internal("no grid communicator".into()))?;
        Ok((comm, grid, grid.pex, grid.pey))
    }

    /// Agrees over `comm` on `id` and `payload` (the same everywhere), after this PE's `local`.
    fn agree_same(&mut self, comm: &Communicator, id: CollectiveId, local: &Result<()>, payload: &[u32], what: &str) -> Result<()> {
        let rows = self.agree(comm, id, local, payload)?;
        local.clone()?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!("{}: PE {pe} passes {what} {:?}, PE 0 {:?}", id.name(), rows[pe], rows[0])));
        }
        Ok(())
    }

    /// RPN_COMM_dist: grid PE 0's garr cut into every PE's larr.
    ///
    /// # Safety
    /// `garr` (on grid PE 0) and `larr` are the caller's arrays of the shapes in `a`.
    pub unsafe fn dist(&mut self, garr: usize, larr: usize, a: &DistArgs) -> Result<()> {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.dist_as(garr, larr, a, false) }
    }

    /// RPN_COMM_fast_dist: RPN_COMM_dist's cut, but a periodic axis needs garr's halo (read as
    /// it is, not wrapped) and larr's full halo, and no halo is written beyond a non-periodic edge.
    ///
    /// # Safety
    /// As `dist`.
    pub unsafe fn fast_dist(&mut self, garr: usize, larr: usize, a: &DistArgs) -> Result<()> {
        // SAFETY: the caller's contract, passed on.
        unsafe { self.dist_as(garr, larr, a, true) }
    }

    /// RPN_COMM_dist (`fast` false) or RPN_COMM_fast_dist (`fast` true).
    ///
    /// # Safety
    /// As `dist`.
    unsafe fn dist_as(&mut self, garr: usize, larr: usize, a: &DistArgs, fast: bool) -> Result<()> {
        let (comm, grid, nx, ny) = self.grid_comm()?;
        let (n, me) = (comm.size(), comm.rank());
        let tiles = Tiles::new(a, nx, ny);
        let boxes = |t: &Tiles, p: usize| {
            let (x, y) = grid.grid_coords(p);
            if fast {
                (Tiles::fast_range(&t.cx, x, a.halox, a.periodx), Tiles::fast_range(&t.cy, y, a.haloy, a.periody))
            } else {
                (Tiles::dist_range(&t.cx, x, a.halox, a.ghalox, a.periodx), Tiles::dist_range(&t.cy, y, a.haloy, a.ghaloy, a.periody))
            }
        };
        // fast_dist reads a periodic halo from garr's own
        let (wrapx, wrapy) = (a.periodx && !fast, a.periody && !fast);
        let local = tiles.as_ref().map_err(Clone::clone).and_then(|t| {
            if fast {
                Self::fast_dist_check(a, t, grid.grid_coords(me))?;
            }
            check_addr(larr, a.larr.words(), "larr")?;
            let (bx, by) = boxes(t, me);
            if !a.larr.holds(bx, by) {
                return Err(Error::BadArgument(format!(
                    "larr({}:{}, {}:{}) cannot hold this PE's part ({}:{}, {}:{})",
                    a.larr.lo1, a.larr.hi1, a.larr.lo2, a.larr.hi2, bx.0, bx.1, by.0, by.1
                )));
            }
            if me == 0 {
                check_addr(garr, a.garr.words(), "garr")?;
                for p in 0..n {
                    let (bx, by) = boxes(t, p);
                    let (ox, oy) = {
                        let (px, py) = grid.grid_coords(p);
                        (t.cx[0] * px as i64, t.cy[0] * py as i64)
                    };
                    let gx = (global(ox, bx.0, a.nig, wrapx), global(ox, bx.1, a.nig, wrapx));
                    let gy = (global(oy, by.0, a.njg, wrapy), global(oy, by.1, a.njg, wrapy));
                    let inside = |g: (i64, i64), lo: i64, hi: i64, wrapped: bool| wrapped || (lo <= g.0 && g.1 <= hi);
                    let wx = wrapx && (ox + bx.0 < 1 || ox + bx.1 > i64::from(a.nig));
                    let wy = wrapy && (oy + by.0 < 1 || oy + by.1 > i64::from(a.njg));
                    if span(bx) > 0 && span(by) > 0 && !(inside(gx, a.garr.lo1, a.garr.hi1, wx) && inside(gy, a.garr.lo2, a.garr.hi2, wy)) {
                        return Err(Error::BadArgument(format!(
                            "garr({}:{}, {}:{}) does not hold PE {p}'s part",
                            a.garr.lo1, a.garr.hi1, a.garr.lo2, a.garr.hi2
                        )));
                    }
                    if wx && (a.garr.lo1 > 1 || a.garr.hi1 < i64::from(a.nig)) || wy && (a.garr.lo2 > 1 || a.garr.hi2 < i64::from(a.njg)) {
                        return Err(Error::BadArgument("garr must hold the whole field along a periodic axis".into()));
                    }
                }
            }
            Ok(())
        });
        self.agree_same(
            &comm,
            if fast { CollectiveId::FastDist } else { CollectiveId::Dist },
            &local.map(|_| ()),
            &a.payload(),
            "(nig, njg, nk, size, halox, haloy, ghalox, ghaloy, periodx, periody)",
        )?;
        let t = tiles?;
        let words = |p: usize| {
            let (bx, by) = boxes(&t, p);
            a.larr.size * span(bx) * span(by) * a.larr.nk
        };
        let mut send_counts = vec![0usize; n];
        let mut send = Vec::new();
        if me == 0 {
            // SAFETY: garr's shape is the caller's promise; checked to hold every PE's part.
            let g = unsafe { words_of(garr, a.garr.words()) };
            send.reserve((0..n).map(words).sum());
            for (p, count) in send_counts.iter_mut().enumerate() {
                let (bx, by) = boxes(&t, p);
                let (ox, oy) = {
                    let (px, py) = grid.grid_coords(p);
                    (t.cx[0] * px as i64, t.cy[0] * py as i64)
                };
                for k in 0..a.larr.nk {
                    for j in by.0..=by.1 {
                        let gj = global(oy, j, a.njg, wrapy);
                        for i in bx.0..=bx.1 {
                            let at = a.garr.at(global(ox, i, a.nig, wrapx), gj, k);
                            send.extend_from_slice(&g[at..at + a.garr.size]);
                        }
                    }
                }
                *count = words(p) * 4;
            }
        }
        let mut recv_counts = vec![0usize; n];
        recv_counts[0] = words(me) * 4;
        let recv = to_words(&self.transport.alltoallv(&comm, as_bytes(&send), &send_counts, &recv_counts)?);
        // SAFETY: larr's shape is the caller's promise; checked to hold this PE's part.
        let l = unsafe { words_of_mut(larr, a.larr.words()) };
        let (bx, by) = boxes(&t, me);
        let mut from = recv.chunks_exact(a.larr.size);
        for k in 0..a.larr.nk {
            for j in by.0..=by.1 {
                for i in bx.0..=bx.1 {
                    let at = a.larr.at(i, j, k);
                    l[at..at + a.larr.size].copy_from_slice(from.next().unwrap_or_default());
                }
            }
        }
        Ok(())
    }

    /// The PE grid's shape (pex, pey).
    pub fn grid_shape(&self) -> Result<(i32, i32)> {
        let (grid, _) = self.grid_and_blocks()?;
        Ok((grid.pex as i32, grid.pey as i32))
    }

    /// RPN_COMM_fast_dist's refusals: a periodic axis whose global halo is narrower than the local
    /// one, a larr without room for this PE's tile and its full halos.
    fn fast_dist_check(a: &DistArgs, t: &Tiles, (x, y): (usize, usize)) -> Result<()> {
        let axes = [
            ("x", a.periodx, a.garr.lo1, a.garr.hi1, a.nig, a.ghalox, a.halox, a.larr.lo1, a.larr.hi1, t.cx[x]),
            ("y", a.periody, a.garr.lo2, a.garr.hi2, a.njg, a.ghaloy, a.haloy, a.larr.lo2, a.larr.hi2, t.cy[y]),
        ];
        for (axis, period, glo, ghi, ng, ghalo, halo, lo, hi, count) in axes {
            if period && (glo > 1 - halo || ghi < i64::from(ng) + halo || ghalo < halo) {
                return Err(Error::BadArgument(format!(
                    "periodic along {axis}: garr({glo}:{ghi}) with global halo {ghalo} cannot give the local halo {halo}"
                )));
            }
            if lo > 1 - halo || hi < count + halo {
                return Err(Error::BadArgument(format!(
                    "larr({lo}:{hi}) along {axis} cannot hold this PE's {count} points and its halo {halo}"
                )));
            }
        }
        Ok(())
    }

    /// RPN_COMM_coll: every PE's larr collected into grid PE 0's garr.
    ///
    /// # Safety
    /// As `dist`.
    pub unsafe fn coll(&mut self, garr: usize, larr: usize, a: &DistArgs) -> Result<()> {
        let (comm, grid, nx, ny) = self.grid_comm()?;
        let (n, me) = (comm.size(), comm.rank());
        let tiles = Tiles::new(a, nx, ny);
        let boxes = |t: &Tiles, p: usize| {
            let (x, y) = grid.grid_coords(p);
            (Tiles::coll_range(&t.cx, x, a.halox, a.ghalox), Tiles::coll_range(&t.cy, y, a.haloy, a.ghaloy))
        };
        let local = tiles.as_ref().map_err(Clone::clone).and_then(|t| {
            check_addr(larr, a.larr.words(), "larr")?;
            let (bx, by) = boxes(t, me);
            if !a.larr.holds(bx, by) {
                return Err(Error::BadArgument(format!(
                    "larr({}:{}, {}:{}) does not hold this PE's part ({}:{}, {}:{})",
                    a.larr.lo1, a.larr.hi1, a.larr.lo2, a.larr.hi2, bx.0, bx.1, by.0, by.1
                )));
            }
            if me == 0 {
                check_addr(garr, a.garr.words(), "garr")?;
                let (hx, hy) = (a.halox.min(a.ghalox), a.haloy.min(a.ghaloy));
                if !a.garr.holds((1 - hx, i64::from(a.nig) + hx), (1 - hy, i64::from(a.njg) + hy)) {
                    return Err(Error::BadArgument(format!(
                        "garr({}:{}, {}:{}) cannot hold the {} x {} field and its halo",
                        a.garr.lo1, a.garr.hi1, a.garr.lo2, a.garr.hi2, a.nig, a.njg
                    )));
                }
            }
            Ok(())
        });
        let mut payload = a.payload();
        payload[8] = 0;
        payload[9] = 0;
        self.agree_same(&comm, CollectiveId::Coll, &local.map(|_| ()), &payload, "(nig, njg, nk, size, halox, haloy, ghalox, ghaloy)")?;
        let t = tiles?;
        let words = |p: usize| {
            let (bx, by) = boxes(&t, p);
            a.larr.size * span(bx) * span(by) * a.larr.nk
        };
        // SAFETY: larr's shape is the caller's promise; checked to hold this PE's part.
        let l = unsafe { words_of(larr, a.larr.words()) };
        let (bx, by) = boxes(&t, me);
        let mut send = Vec::with_capacity(words(me));
        for k in 0..a.larr.nk {
            for j in by.0..=by.1 {
                for i in bx.0..=bx.1 {
                    let at = a.larr.at(i, j, k);
                    send.extend_from_slice(&l[at..at + a.larr.size]);
                }
            }
        }
        let mut send_counts = vec![0usize; n];
        send_counts[0] = send.len() * 4;
        let recv_counts: Vec<usize> = (0..n).map(|p| if me == 0 { words(p) * 4 } else { 0 }).collect();
        let recv = to_words(&self.transport.alltoallv(&comm, as_bytes(&send), &send_counts, &recv_counts)?);
        if me != 0 {
            return Ok(());
        }
        // SAFETY: garr's shape is the caller's promise; checked to hold the field and its halo.
        let g = unsafe { words_of_mut(garr, a.garr.words()) };
        let mut from = recv.chunks_exact(a.larr.size);
        for p in 0..n {
            let (bx, by) = boxes(&t, p);
            let (ox, oy) = {
                let (px, py) = grid.grid_coords(p);
                (t.cx[0] * px as i64, t.cy[0] * py as i64)
            };
            for k in 0..a.larr.nk {
                for j in by.0..=by.1 {
                    for i in bx.0..=bx.1 {
                        let at = a.garr.at(ox + i, oy + j, k);
                        g[at..at + a.garr.size].copy_from_slice(from.next().unwrap_or_default());
                    }
                }
            }
        }
        Ok(())
    }

    /// RPN_COMM_shuf_ezdist: the levels `liste_i` of each I/O PE's global(gni, gnj, dnk), round
    /// after round as the original takes them (level k of each group of the set in turn), into
    /// every PE's local(mini:maxi, minj:maxj, lnk); `liste_o(l)` becomes true where level l came.
    ///
    /// # Safety
    /// `global` holds gni*gnj*dnk words on the set's members, `local` the grid's local shape
    /// times `liste_o.len()` levels.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn shuf_ezdist(
        &mut self,
        id: CollectiveId,
        setno: i32,
        layout: &Layout,
        global: usize,
        dnk: usize,
        local: usize,
        liste_i: &[i32],
        liste_o: &mut [bool],
    ) -> Result<()> {
        let (comm, grid, nx, ny) = self.grid_comm()?;
        let (n, me) = (comm.size(), comm.rank());
        let lnk = liste_o.len();
        let setup = (|| {
            let (g, gh) = layout.resolve(self, nx, ny)?;
            let members = io_sets::members(setno)?;
            let ez = Ez::new(&g, lnk, gh);
            for p in 0..n {
                let (px, py) = grid.grid_coords(p);
                ez.check(px, py)?;
            }
            let me_in = members.iter().position(|&(x, y)| grid.grid_rank(x, y) == me);
            if me_in.is_some() {
                check_addr(global, (ez.gni * ez.gnj) as usize * dnk, "global")?;
            }
            check_addr(local, ez.local.words(), "local")?;
            Ok((ez, members, me_in))
        })();
        let mut payload = vec![dnk as u32];
        let mut levels = vec![0u32; dnk];
        if let Ok((_, _, Some(_))) = &setup {
            levels.iter_mut().zip(liste_i).for_each(|(l, &v)| *l = v.max(0) as u32);
        }
        payload.extend_from_slice(&levels);
        let rows = self.agree(&comm, id, &setup.as_ref().map(|_| ()).map_err(Clone::clone), &payload)?;
        let (ez, members, me_in) = setup?;
        if let Some(pe) = rows.iter().position(|r| r[0] != rows[0][0]) {
            return Err(Error::Collective(format!("{}: PE {pe} passes dnk = {}, PE 0 {}", id.name(), rows[pe][0], rows[0][0])));
        }
        let _ = me_in;
        let group = nx.min(ny).min(members.len()).max(1);
        // the rounds: (member index, its grid rank, level taken from its global's plane k)
        let mut rounds: Vec<Vec<(usize, usize, usize, usize)>> = Vec::new();
        let mut failed = None;
        'rounds: for k in 0..dnk {
            for g0 in (0..members.len()).step_by(group) {
                let mut round = Vec::new();
                for (m, &(x, y)) in members.iter().enumerate().skip(g0).take(group) {
                    let rank = grid.grid_rank(x, y);
                    let level = rows[rank][1 + k] as usize;
                    if level > 0 {
                        round.push((m, rank, k, level));
                    }
                }
                if let Some(&(_, _, _, l)) = round.iter().find(|r| r.3 > lnk) {
                    failed = Some(Error::BadArgument(format!("level {l} to distribute is beyond this PE's {lnk} levels")));
                    break 'rounds;
                }
                if !round.is_empty() {
                    rounds.push(round);
                }
            }
        }
        let plane = |p: usize| {
            let (px, py) = grid.grid_coords(p);
            span(ez.xr(px)) * span(ez.yr(py))
        };
        let mut send_counts = vec![0usize; n];
        let mut send = Vec::new();
        let my_rounds: Vec<(usize, usize)> = rounds.iter().flatten().filter(|r| r.1 == me).map(|r| (r.2, r.3)).collect();
        if !my_rounds.is_empty() {
            // SAFETY: a member's global holds gni*gnj*dnk words (the caller's promise).
            let g = unsafe { words_of(global, (ez.gni * ez.gnj) as usize * dnk) };
            for (p, count) in send_counts.iter_mut().enumerate() {
                let (x, y) = grid.grid_coords(p);
                let (xr, yr) = (ez.xr(x), ez.yr(y));
                for &(k, _) in &my_rounds {
                    for j in yr.0..=yr.1 {
                        let (first, last) = (
                            ez.global_at(k, ez.sx[x] + xr.0 - 1, ez.sy[y] + j - 1),
                            ez.global_at(k, ez.sx[x] + xr.1 - 1, ez.sy[y] + j - 1),
                        );
                        send.extend_from_slice(&g[first..=last]);
                    }
                }
                *count = my_rounds.len() * plane(p) * 4;
            }
        }
        let from_each: Vec<usize> = (0..n).map(|p| rounds.iter().flatten().filter(|r| r.1 == p).count()).collect();
        let recv_counts: Vec<usize> = from_each.iter().map(|&c| c * plane(me) * 4).collect();
        let recv = to_words(&self.transport.alltoallv(&comm, as_bytes(&send), &send_counts, &recv_counts)?);
        // SAFETY: local's shape is the caller's promise (the grid's, lnk levels).
        let l = unsafe { words_of_mut(local, ez.local.words()) };
        let (mx, my) = grid.grid_coords(me);
        let (xr, yr) = (ez.xr(mx), ez.yr(my));
        let mut start = vec![0usize; n];
        for p in 1..n {
            start[p] = start[p - 1] + from_each[p - 1] * plane(me);
        }
        for round in &rounds {
            for &(_, _, _, level) in round {
                if liste_o[level - 1] {
                    println!("WARNING: this level has already been distributed :{level:5}");
                }
            }
            for &(_, rank, _, level) in round {
                let k = level - 1;
                let zero = ez.local.at(ez.local.lo1, ez.local.lo2, k);
                let plane_words = ez.local.n1() * ez.local.n2();
                l[zero..zero + plane_words].fill(0);
                let mut from = recv[start[rank]..start[rank] + plane(me)].iter();
                start[rank] += plane(me);
                for j in yr.0..=yr.1 {
                    for i in xr.0..=xr.1 {
                        l[ez.local.at(i, j, k)] = *from.next().unwrap_or(&0);
                    }
                }
                liste_o[k] = true;
            }
        }
        failed.map_or(Ok(()), Err)
    }

    /// RPN_COMM_shuf_ezcoll: every PE's local levels 1..lnk gathered, level k on member
    /// (k-1) mod npe of the I/O set, into its global(:, :, (k-1)/npe + 1); on the members
    /// `liste_o(i)` is the level in global(:, :, i), 0 for none.
    ///
    /// # Safety
    /// `global` holds gni*gnj*dnk words on the set's members, `local` the grid's local shape
    /// times `lnk` levels.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn shuf_ezcoll(
        &mut self,
        id: CollectiveId,
        setno: i32,
        layout: &Layout,
        global: usize,
        local: usize,
        lnk: usize,
        liste_o: &mut [i32],
    ) -> Result<()> {
        let (comm, grid, nx, ny) = self.grid_comm()?;
        let (n, me) = (comm.size(), comm.rank());
        let dnk = liste_o.len();
        let setup = (|| {
            let (g, gh) = layout.resolve(self, nx, ny)?;
            let members = io_sets::members(setno)?;
            let ez = Ez::new(&g, lnk, gh);
            let me_in = members.iter().position(|&(x, y)| grid.grid_rank(x, y) == me);
            if me_in.is_some() {
                liste_o.fill(0);
                check_addr(global, (ez.gni * ez.gnj) as usize * dnk, "global")?;
            }
            let passes = lnk.div_ceil(members.len());
            if dnk < passes {
                return Err(Error::BadArgument(format!(
                    "dnk = {dnk}: {lnk} levels over {} I/O PEs need room for {passes} levels",
                    members.len()
                )));
            }
            check_addr(local, ez.local.words(), "local")?;
            Ok((ez, members, me_in))
        })();
        self.agree_same(&comm, id, &setup.as_ref().map(|_| ()).map_err(Clone::clone), &[lnk as u32], "lnk")?;
        let (ez, members, me_in) = setup?;
        let npe = members.len();
        let tile = |p: usize| {
            let (px, py) = grid.grid_coords(p);
            (ez.cx[px] * ez.cy[py]) as usize
        };
        let member_rank = |m: usize| grid.grid_rank(members[m].0, members[m].1);
        // SAFETY: local's shape is the caller's promise (the grid's, lnk levels).
        let l = unsafe { words_of(local, ez.local.words()) };
        let mut send_counts = vec![0usize; n];
        let mut per_dest: Vec<Vec<u32>> = vec![Vec::new(); n];
        let (mx, my) = grid.grid_coords(me);
        let (cx, cy) = (ez.cx[mx], ez.cy[my]);
        for k in 0..lnk {
            let dest = member_rank(k % npe);
            for j in 1..=cy {
                let at = ez.local.at(1, j, k);
                per_dest[dest].extend_from_slice(&l[at..at + cx as usize]);
            }
            send_counts[dest] += tile(me) * 4;
        }
        let send: Vec<u32> = per_dest.concat();
        let mine: Vec<usize> = me_in.map(|m| (m..lnk).step_by(npe).collect()).unwrap_or_default();
        let recv_counts: Vec<usize> = (0..n).map(|p| mine.len() * tile(p) * 4).collect();
        let recv = to_words(&self.transport.alltoallv(&comm, as_bytes(&send), &send_counts, &recv_counts)?);
        if mine.is_empty() {
            return Ok(());
        }
        // SAFETY: a member's global holds gni*gnj*dnk words (the caller's promise).
        let g = unsafe { words_of_mut(global, (ez.gni * ez.gnj) as usize * dnk) };
        let mut from = recv.iter();
        for p in 0..n {
            let (x, y) = grid.grid_coords(p);
            for &k in &mine {
                let plane = (k / npe) as i64;
                for j in 0..ez.cy[y] {
                    let row = ez.global_at(plane as usize, ez.sx[x], ez.sy[y] + j);
                    for w in &mut g[row..row + ez.cx[x] as usize] {
                        *w = *from.next().unwrap_or(&0);
                    }
                }
            }
        }
        for &k in &mine {
            liste_o[k / npe] = k as i32 + 1;
        }
        Ok(())
    }

    /// RPN_MPI_transpose_setup: the row communicator (the caller's MPI handle) and its PEs'
    /// levels (`lnkx` each, summing to `gnk`) for RPN_MPI_ez_transpose_xz.
    pub fn mpi_transpose_setup(&mut self, gnk: i32, lnkx: i32, row_comm: i32, col_comm: i32) -> Result<()> {
        let row = self.transport.wrap_mpi_communicator(row_comm)?;
        let _ = self.transport.wrap_mpi_communicator(col_comm)?;
        let local = if lnkx < 0 { Err(Error::Negative { what: "lnkx", value: lnkx.into() }) } else { Ok(()) };
        let rows = self.agree(&row, CollectiveId::MpiTransposeSetup, &local, &[lnkx as u32, gnk as u32])?;
        local?;
        let counts: Vec<usize> = rows.iter().map(|r| r[0] as usize).collect();
        if counts.iter().sum::<usize>() as i64 != i64::from(gnk) {
            return Err(Error::BadArgument(format!("the row's levels {counts:?} do not add up to gnk = {gnk}")));
        }
        *XZ.lock().unwrap_or_else(|p| p.into_inner()) =
            Some(XzSetup { handle: col_comm, row_handle: row_comm, row, nk: gnk as usize, counts });
        Ok(())
    }

    /// RPN_MPI_ez_transpose_xz: forward, z(lnix, lnjy, gnk) (lnix 4-byte words) is cut by
    /// levels, the row's PE q getting its `counts[q]` levels in turn; this PE's
    /// zt(lnix, lnjy, lnkx, npex) receives slab p from PE p of the row. Backward the inverse.
    ///
    /// # Safety
    /// `z` holds lnix*lnjy*gnk words, `zt` lnix*lnjy*lnkx*npex.
    pub unsafe fn mpi_ez_transpose_xz(&mut self, z: usize, zt: usize, forward: bool, lnix: i32, lnjy: i32, lnkx: i32) -> Result<()> {
        let (row, counts, nk) = {
            let xz = XZ.lock().unwrap_or_else(|p| p.into_inner());
            let s = xz.as_ref().ok_or_else(|| Error::CallOrder("RPN_MPI_transpose_setup must come first".into()))?;
            let _ = s.handle;
            (s.row.clone(), s.counts.clone(), s.nk)
        };
        let (np, me) = (row.size(), row.rank());
        let local = (|| {
            let c = |what: &'static str, v: i32| usize::try_from(v).map_err(|_| Error::Negative { what, value: v.into() });
            let (a, b, k) = (c("lnix", lnix)?, c("lnjy", lnjy)?, c("lnkx", lnkx)?);
            if k != counts[me] {
                return Err(Error::BadArgument(format!("lnkx = {k}, RPN_MPI_transpose_setup was given {}", counts[me])));
            }
            check_addr(z, a * b * nk, "z")?;
            check_addr(zt, a * b * k * np, "zt")?;
            Ok(a * b)
        })();
        let rows = self.agree(
            &row,
            CollectiveId::MpiEzTransposeXz,
            &local.as_ref().map(|_| ()).map_err(Clone::clone),
            &[u32::from(forward), lnix as u32, lnjy as u32],
        )?;
        let slab = local?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!(
                "RPN_MPI_ez_transpose_xz: PE {pe} passes (forward, lnix, lnjy) {:?}, PE 0 {:?}",
                rows[pe], rows[0]
            )));
        }
        let lnk = counts[me];
        let (zw, ztw) = (slab * nk, slab * lnk * np);
        let theirs: Vec<usize> = counts.iter().map(|&c| c * slab * 4).collect();
        let mine = vec![lnk * slab * 4; np];
        if forward {
            // SAFETY: sizes checked against the setup; the caller's promise for the memory.
            let src = unsafe { words_of(z, zw) };
            let recv = self.transport.alltoallv(&row, as_bytes(src), &theirs, &mine)?;
            // SAFETY: as above.
            let dst = unsafe { words_of_mut(zt, ztw) };
            copy_words(&recv, dst);
        } else {
            // SAFETY: as above.
            let src = unsafe { words_of(zt, ztw) };
            let recv = self.transport.alltoallv(&row, as_bytes(src), &mine, &theirs)?;
            // SAFETY: as above.
            let dst = unsafe { words_of_mut(z, zw) };
            copy_words(&recv, dst);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dist_ranges_follow_the_original() {
        let c = [4, 4, 2];
        // interior PE: full halo; edges narrowed to the global halo when not periodic
        assert_eq!(Tiles::dist_range(&c, 1, 2, 0, false), (-1, 6));
        assert_eq!(Tiles::dist_range(&c, 0, 2, 0, false), (1, 6));
        assert_eq!(Tiles::dist_range(&c, 2, 2, 1, false), (-1, 3));
        assert_eq!(Tiles::dist_range(&c, 0, 2, 0, true), (-1, 6));
        assert_eq!(global(8, 3, 10, true), 1);
        assert_eq!(global(0, -1, 10, true), 9);
        assert_eq!(Tiles::coll_range(&c, 0, 2, 1), (0, 4));
        // fast_dist: nothing beyond a non-periodic edge, full halos when periodic
        assert_eq!(Tiles::fast_range(&c, 0, 2, false), (1, 6));
        assert_eq!(Tiles::fast_range(&c, 2, 2, false), (-1, 2));
        assert_eq!(Tiles::fast_range(&[6], 0, 2, false), (1, 6));
        assert_eq!(Tiles::fast_range(&c, 2, 2, true), (-1, 4));
        assert_eq!(Tiles::coll_range(&c, 2, 2, 1), (1, 3));
    }

    #[test]
    fn io_dist_coll_check_names_a_short_last_tile() {
        assert!(io_dist_coll_check(10, 7, 1, 1, 3, 2).is_empty());
        // 10 over 4: tiles of 3, the last has 1 point, less than halo 2
        let l = io_dist_coll_check(10, 7, 2, 1, 4, 1);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0], "CFG: ERROR: size of last tile along x, halo_x, gni, lni     1    2   10    3");
        assert_eq!(l[1], "CFG: ERROR: not enough points along x for problem, need gni >=    11");
    }

    #[test]
    fn ezdist_ranges_follow_the_original() {
        // 3 tiles of 4, 4, 2 stored in 0:5 (halo 1): west gets no west halo, east only its points
        assert_eq!(Ez::recv_range(&[4, 4, 2], 0, 0, 5, 1, 0), (1, 5));
        assert_eq!(Ez::recv_range(&[4, 4, 2], 1, 0, 5, 1, 0), (0, 5));
        assert_eq!(Ez::recv_range(&[4, 4, 2], 2, 0, 5, 1, 0), (0, 2));
        // a global array with the halo (shuf_ezdist_h): the outer edges get it too
        assert_eq!(Ez::recv_range(&[4, 4, 2], 0, 0, 5, 1, 1), (0, 5));
        assert_eq!(Ez::recv_range(&[4, 4, 2], 2, 0, 5, 1, 1), (0, 3));
    }
}
