//! The original's halo variants that are not a plain exchange of the whole halo, each on the
//! family's own machinery: RPN_COMM_haloflip (the pole flip alone, `pole_flip`),
//! RPN_COMM_adj_halox (the adjoint of RPN_COMM_xch_halox: `adj_halo`, then the part copied
//! back) and RPN_COMM_xch_halosl (every PE of a row of the grid gets the whole row: one
//! allgather over the row) and RPN_COMM_propagate_boundary (the outer corners of a limited-area
//! domain's halo from the neighbours along its edge: exchanges of relabelled arrays).
//! RPN_COMM_xch_haloew and RPN_COMM_xch_halons are plain exchanges of a relabelled array too
//! (src/ffi/halo/variants.rs).

use super::super::Runtime;
use super::super::caller_buffers::{read_caller_bytes, write_caller_bytes};
use super::super::names::CommName;
use crate::core::halo::{self, HaloCall};
use crate::core::halo_family::Pole;
use crate::error::{Error, Result};

impl Runtime {
    /// RPN_COMM_haloflip: on the first and last rows of PEs, the halo rows beyond the pole get
    /// the rows next to it of the columns half a globe (`gni / 2`) away, mirrored; a single row
    /// of PEs flips its north halo only, as the original. The other rows do nothing.
    /// Collective over each pole row.
    ///
    /// # Safety
    /// `g` is the caller's array as `c` describes it (4-byte elements), readable and writable.
    pub unsafe fn haloflip(&mut self, g: usize, c: &HaloCall) -> Result<()> {
        c.validate_local()?;
        let grid = self.grid_comms()?.grid;
        let (_, y) = grid.coords(self.rank());
        let pole = match y {
            _ if y + 1 == grid.pey => Pole::North,
            0 => Pole::South,
            _ => return Ok(()),
        };
        // SAFETY: the caller's contract, as flip_pole's.
        unsafe { self.flip_pole(g, c, pole) }
    }

    /// The flip of one pole's halo (`pole`) over this PE's row of PEs, whichever row it is: the
    /// original's self-test of RPN_COMM_haloflip flips the north and then the south halo of a
    /// single row, which RPN_COMM_haloflip alone does not (it flips the north one there).
    /// Collective over the row.
    ///
    /// # Safety
    /// As `haloflip`.
    pub unsafe fn flip_pole(&mut self, g: usize, c: &HaloCall, pole: Pole) -> Result<()> {
        c.validate_local()?;
        if c.haloy == 0 || c.nk == 0 {
            return Ok(());
        }
        if g == 0 {
            return Err(Error::NullBuffer { what: "halo array", nelem: c.level_points() as i64 * c.nk as i64 });
        }
        // SAFETY: the bounds hold the halo (validated above); the caller's contract.
        unsafe { self.pole_flip(g, c, pole) }
    }

    /// RPN_COMM_adj_halox: the adjoint of RPN_COMM_xch_halox. The adjoint exchange of `g2`
    /// (`c2`, real*4 sums as the original's RPN_COMM_adj_halo), then its part 1..ni x 1..nj
    /// copied into `g` (bounds `outer`). Both arrays' bounds are checked before anything is
    /// written.
    ///
    /// # Safety
    /// `g` is the caller's array g(minx:maxx, miny:maxy, nk) of 4-byte elements, writable;
    /// `g2` the array `c2` describes, readable and writable.
    pub unsafe fn adj_halox(&mut self, g: usize, outer: [i32; 4], g2: usize, c2: &HaloCall) -> Result<()> {
        let [minx, maxx, miny, maxy] = outer;
        c2.validate_local()?;
        crate::core::halo_family::check_halox_source(minx, maxx, miny, maxy, c2.ni, c2.nj)?;
        if g == 0 || g2 == 0 {
            return Err(Error::NullBuffer { what: "halo array", nelem: c2.level_points() as i64 * c2.nk as i64 });
        }
        // SAFETY: the caller's contract for g2.
        unsafe { self.adj_halo(g2, c2) }?;
        let dst = HaloCall { minx, maxx, miny, maxy, ..*c2 };
        let (e, run) = (c2.elem_bytes(), c2.ni as usize * c2.elem_bytes());
        for k in 1..=c2.nk {
            for j in 1..=c2.nj {
                // SAFETY: row j of level k, columns 1..ni, lies in both arrays (bounds checked).
                unsafe {
                    let bytes = read_caller_bytes(g2 + c2.offset(1, j, k) * e, run);
                    write_caller_bytes(&bytes, g + dst.offset(1, j, k) * e);
                }
            }
        }
        Ok(())
    }

    /// RPN_COMM_xch_halosl: every PE of a row of the grid gets the columns 1..ni of every
    /// other PE of the row (all rows miny..maxy of the array), the PE at x's at columns
    /// `x * nimax + 1 ..` (RPN_COMM_limit's decomposition of `gni`, tiles at most `nimax`
    /// wide); then, with `periodx`, the `halox` columns on each side of 1..gni wrap around
    /// (as the original: on a single PE too). One allgather over the row.
    ///
    /// # Safety
    /// `g` is the caller's array as `c` describes it (4-byte elements), readable and writable.
    pub unsafe fn xch_halosl(&mut self, g: usize, c: &HaloCall, nimax: i32) -> Result<()> {
        let bad = |what: String| Err(Error::BadArgument(what));
        for (name, v) in [("ni", c.ni), ("nk", c.nk), ("halox", c.halox), ("nimax", nimax)] {
            if v < 0 {
                return bad(format!("{name} = {v}: must not be negative"));
            }
        }
        if c.miny > c.maxy || c.minx > c.maxx {
            return bad(format!("the bounds {}:{}, {}:{} hold no point", c.minx, c.maxx, c.miny, c.maxy));
        }
        let grid = self.grid_comms()?.grid;
        let (x, _) = grid.coords(self.rank());
        let (_, _, count, _) = halo::limit(x as i32, grid.pex as i32, 1, c.gni)?;
        let widest = count.iter().copied().max().unwrap_or(0).max(c.ni);
        if widest > nimax {
            return bad(format!("nimax = {nimax} is below a tile of gni = {} over {} PEs ({widest} points)", c.gni, grid.pex));
        }
        // the highest column written: the last tile's end, or gni + halox with periodx
        let last = (grid.pex as i64 - 1) * i64::from(nimax) + i64::from(*count.last().unwrap_or(&0));
        let high = last.max(i64::from(x as i32) * i64::from(nimax) + i64::from(c.ni));
        let (lo, hi) = match c.periodx {
            true => (1 - i64::from(c.halox), high.max(i64::from(c.gni) + i64::from(c.halox))),
            false => (1, high),
        };
        if i64::from(c.minx) > lo || i64::from(c.maxx) < hi {
            return bad(format!(
                "minx:maxx = {}:{} cannot hold columns {lo}:{hi} of the row (gni = {}, nimax = {nimax})",
                c.minx, c.maxx, c.gni
            ));
        }
        if c.nk == 0 {
            return Ok(());
        }
        if g == 0 {
            return Err(Error::NullBuffer { what: "halo array", nelem: c.level_points() as i64 * c.nk as i64 });
        }
        let (rows, nk, wide) = ((c.maxy - c.miny + 1) as usize, c.nk as usize, nimax as usize);
        let col = |p: usize, i: i32| p as i32 * nimax + i;
        if grid.pex > 1 {
            let row = self.grid_communicator(CommName::Row)?.ok_or(Error::NotMember(CommName::Row.name()))?;
            let block = wide * rows * nk * 4;
            let mut mine = vec![0u8; block];
            let run = c.ni as usize * 4;
            for k in 1..=c.nk {
                for j in c.miny..=c.maxy {
                    let at = (((k - 1) as usize * rows) + (j - c.miny) as usize) * wide * 4;
                    // SAFETY: columns 1..ni of row j, level k lie in the array (bounds checked).
                    mine[at..at + run].copy_from_slice(&unsafe { read_caller_bytes(g + c.offset(1, j, k) * 4, run) });
                }
            }
            let mut all = vec![0u8; block * row.size()];
            self.transport.allgather(&row, &mine, &mut all)?;
            for (p, &n) in count.iter().enumerate() {
                let n = if p == x { c.ni } else { n } as usize * 4;
                for k in 1..=c.nk {
                    for j in c.miny..=c.maxy {
                        let at = p * block + (((k - 1) as usize * rows) + (j - c.miny) as usize) * wide * 4;
                        // SAFETY: the columns of tile p lie within minx..maxx (checked above).
                        unsafe { write_caller_bytes(&all[at..at + n], g + c.offset(col(p, 1), j, k) * 4) };
                    }
                }
            }
        }
        if c.periodx {
            let h = c.halox as usize * 4;
            for k in 1..=c.nk {
                for j in c.miny..=c.maxy {
                    // SAFETY: columns 1-halox..gni+halox lie in the array (checked above); the
                    // west halo first, from gni-halox+1..gni, then the east one, from 1..halox.
                    unsafe {
                        let west = read_caller_bytes(g + c.offset(c.gni - c.halox + 1, j, k) * 4, h);
                        write_caller_bytes(&west, g + c.offset(1 - c.halox, j, k) * 4);
                        let east = read_caller_bytes(g + c.offset(1, j, k) * 4, h);
                        write_caller_bytes(&east, g + c.offset(c.gni + 1, j, k) * 4);
                    }
                }
            }
        }
        Ok(())
    }

    /// This PE's row of the grid and the grid's rows (RPN_COMM_swapns pairs the PEs of a column).
    pub fn grid_row_of_column(&self) -> Result<(usize, usize)> {
        let grid = self.grid_comms()?.grid;
        Ok((grid.coords(self.rank()).1, grid.pey))
    }

    /// RPN_COMM_propagate_boundary (and _circular, the same points): on the PEs at the edge of a
    /// limited-area grid (not periodic), each outer corner box of the halo (`hx` x `hy`) along
    /// the edge gets the neighbour's halo box beyond the edge next to it: along the north and
    /// south edges from the west and east PEs, along the west and east edges from the south
    /// and north PEs; nothing beyond the grid's corners, nothing else written. Collective over
    /// the grid: one exchange of the halo rows beyond the edge along x (two with one row of
    /// PEs), one of the halo columns along y, each a plain exchange of the array relabelled so
    /// that those rows (columns) are the part (a PE away from that edge exchanges rows of its
    /// own and puts its halo back). Nothing on a single PE.
    ///
    /// # Safety
    /// `g` is the caller's array as `c` describes it (4-byte elements), readable and writable.
    pub unsafe fn propagate_boundary(&mut self, g: usize, c: &HaloCall) -> Result<()> {
        c.validate_local()?;
        let grid = self.grid_comms()?.grid;
        if (grid.pex == 1 && grid.pey == 1) || c.halox == 0 || c.haloy == 0 || c.nk == 0 {
            return Ok(());
        }
        if g == 0 {
            return Err(Error::NullBuffer { what: "halo array", nelem: c.level_points() as i64 * c.nk as i64 });
        }
        let (x, y) = grid.coords(self.rank());
        let (hx, hy) = (c.halox, c.haloy);
        // the first of the rows (columns) to exchange: beyond this PE's edges, else its own
        let starts = |n: usize, at: usize, len: i32, h: i32| match (n, at) {
            (1, _) => vec![len + 1, 1 - h],
            _ if at + 1 == n => vec![len + 1],
            (_, 0) => vec![1 - h],
            _ => vec![1],
        };
        let plain = HaloCall { halox: 0, haloy: 0, periodx: false, periody: false, gni: 0, npol_row: 0, words: 1, ..*c };
        if grid.pex > 1 {
            for r0 in starts(grid.pey, y, c.nj, hy) {
                let keep = [(1 - hx, 0, 1, hy), (c.ni + 1, c.ni + hx, 1, hy)];
                // SAFETY: the halo boxes lie in the array (bounds validated).
                let saved = if r0 == 1 { unsafe { save_boxes(g, c, &keep) } } else { Vec::new() };
                let shift = r0 - 1;
                let rows = HaloCall { miny: c.miny - shift, maxy: c.maxy - shift, nj: hy, halox: hx, ..plain };
                // SAFETY: the same memory as `c` describes, renumbered (bounds validated).
                unsafe { self.xch_halo(g, &rows) }?;
                if r0 == 1 {
                    // SAFETY: as above.
                    unsafe { restore_boxes(g, c, &keep, &saved) };
                }
            }
        }
        if grid.pey > 1 {
            for c0 in starts(grid.pex, x, c.ni, hx) {
                let keep = [(1, hx, 1 - hy, 0), (1, hx, c.nj + 1, c.nj + hy)];
                // SAFETY: the halo boxes lie in the array (bounds validated).
                let saved = if c0 == 1 { unsafe { save_boxes(g, c, &keep) } } else { Vec::new() };
                let shift = c0 - 1;
                let cols = HaloCall { minx: c.minx - shift, maxx: c.maxx - shift, ni: hx, haloy: hy, ..plain };
                // SAFETY: as above.
                unsafe { self.xch_halo(g, &cols) }?;
                if c0 == 1 {
                    // SAFETY: as above.
                    unsafe { restore_boxes(g, c, &keep, &saved) };
                }
            }
        }
        Ok(())
    }
}

/// The 4-byte points of the boxes (i0, i1, j0, j1) of every level of `g`.
///
/// # Safety
/// The boxes lie in the array `c` describes at `g`.
unsafe fn save_boxes(g: usize, c: &HaloCall, boxes: &[(i32, i32, i32, i32)]) -> Vec<u8> {
    let mut saved = Vec::new();
    for k in 1..=c.nk {
        for &(i0, i1, j0, j1) in boxes {
            for j in j0..=j1 {
                // SAFETY: the caller's contract.
                saved.extend(unsafe { read_caller_bytes(g + c.offset(i0, j, k) * 4, (i1 - i0 + 1) as usize * 4) });
            }
        }
    }
    saved
}

/// Puts back what `save_boxes` saved of the same boxes.
///
/// # Safety
/// As `save_boxes`.
unsafe fn restore_boxes(g: usize, c: &HaloCall, boxes: &[(i32, i32, i32, i32)], saved: &[u8]) {
    let mut at = 0;
    for k in 1..=c.nk {
        for &(i0, i1, j0, j1) in boxes {
            for j in j0..=j1 {
                let n = (i1 - i0 + 1) as usize * 4;
                // SAFETY: the caller's contract.
                unsafe { write_caller_bytes(&saved[at..at + n], g + c.offset(i0, j, k) * 4) };
                at += n;
            }
        }
    }
}
