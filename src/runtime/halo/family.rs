//! The rest of the original's halo family, on top of the plain exchange (`Runtime::xch_halo`):
//! the pole flip of `npol_row < -pe_ny` (RPN_COMM_haloflip), RPN_COMM_xch_halox (the part
//! copied into a wider-halo array, then exchanged) and RPN_COMM_propagate_pilot_circular (the
//! halos along a limited-area domain's edge next to its pilot zone). The geometry is in
//! `core::halo_family`.

use super::super::Runtime;
use super::super::caller_buffers::{read_caller_bytes, write_caller_bytes};
use super::super::names::CommName;
use crate::core::halo::HaloCall;
use crate::core::halo_family::{self, FlipRow, Pole};
use crate::error::{Error, Result};

impl Runtime {
    /// RPN_COMM_xch_halo(n) as the original: the plain exchange, then, where `npol_row <
    /// -pe_ny` with periodic y, the pole flip on the first and last rows of PEs.
    ///
    /// # Safety
    /// As `xch_halo`.
    pub unsafe fn xch_halo_polar(&mut self, g: usize, c: &HaloCall) -> Result<()> {
        let grid = self.grid_comms()?.grid;
        // gni matters to the pole flip only (as in the original): without it, PEs may give
        // different ones (GEM passes each PE's own ni to RPN_COMM_xch_halox).
        let plain = match halo_family::flip_requested(c, grid.pey) {
            true => *c,
            false => HaloCall { gni: 0, ..*c },
        };
        // SAFETY: the caller's contract.
        unsafe { self.xch_halo(g, &plain) }?;
        let (_, y) = grid.coords(self.rank());
        match halo_family::pole_of(c, grid.pey, y) {
            // SAFETY: the exchange accepted the array's bounds; the caller's contract.
            Some(pole) => unsafe { self.pole_flip(g, c, pole) },
            None => Ok(()),
        }
    }

    /// RPN_COMM_haloflip: the halo rows beyond the pole get the rows next to it of the columns
    /// half a globe away (gni / 2), rows mirrored. Collective over the pole row of PEs ('EW'),
    /// which first gathers every PE's ni (each PE's part follows its west neighbour's), then
    /// the rows next to the pole of every PE.
    ///
    /// # Safety
    /// As `xch_halo`, whose checks `c` passed.
    pub(super) unsafe fn pole_flip(&mut self, g: usize, c: &HaloCall, pole: Pole) -> Result<()> {
        let row = self.grid_communicator(CommName::Row)?.ok_or(Error::NotMember(CommName::Row.name()))?;
        let mut all = vec![0u8; 4 * row.size()];
        self.transport.allgather(&row, &c.ni.to_ne_bytes(), &mut all)?;
        let ni: Vec<i32> = all.chunks_exact(4).map(|b| i32::from_ne_bytes([b[0], b[1], b[2], b[3]])).collect();
        let Some(parts) = FlipRow::new(ni, c.gni)? else { return Ok(()) };
        let e = c.elem_bytes();
        let (wide, h, nk) = (parts.widest() as usize, c.haloy as usize, c.nk as usize);
        // this PE's rows next to the pole, halo row t's source first, each `wide` points long
        let block = wide * h * nk * e;
        let mut mine = vec![0u8; block];
        let run = c.ni as usize * e;
        for k in 1..=c.nk {
            for t in 1..=c.haloy {
                let (_, from) = halo_family::flip_rows(c.nj, pole, t);
                let at = (((k - 1) as usize * h) + (t - 1) as usize) * wide * e;
                // SAFETY: row `from` (1..nj) of level k, columns 1..ni, lies in the array.
                let bytes = unsafe { read_caller_bytes(g + c.offset(1, from, k) * e, run) };
                mine[at..at + run].copy_from_slice(&bytes);
            }
        }
        let mut rows = vec![0u8; block * row.size()];
        self.transport.allgather(&row, &mine, &mut rows)?;
        let me = row.rank();
        for k in 1..=c.nk {
            for t in 1..=c.haloy {
                let (to, _) = halo_family::flip_rows(c.nj, pole, t);
                for l in c.minx..=c.maxx {
                    let Some(col) = halo_family::flip_column(parts.offset[me], l, c.minx, c.gni) else { continue };
                    let Some((p, i)) = parts.owner(col) else { continue };
                    let at = p * block + ((((k - 1) as usize * h) + (t - 1) as usize) * wide + (i - 1) as usize) * e;
                    // SAFETY: (l, to, k) lies in the array: l in minx..maxx, `to` a halo row
                    // within haloy of the part, which the exchange checked the bounds hold.
                    unsafe { write_caller_bytes(&rows[at..at + e], g + c.offset(l, to, k) * e) };
                }
            }
        }
        Ok(())
    }

    /// RPN_COMM_xch_halox: copies the part 1..ni x 1..nj of `g` (bounds `outer`: minx, maxx,
    /// miny, maxy) into the array at `g2` that `c2` describes, then exchanges `g2`'s halos as
    /// RPN_COMM_xch_halo. Both arrays' bounds are checked before anything is written.
    ///
    /// # Safety
    /// `g` is the caller's array g(minx:maxx, miny:maxy, nk) of `c2.words`-word elements,
    /// readable; `g2` is the array `c2` describes, readable and writable.
    pub unsafe fn xch_halox(&mut self, g: usize, outer: [i32; 4], g2: usize, c2: &HaloCall) -> Result<()> {
        let [minx, maxx, miny, maxy] = outer;
        c2.validate_local()?;
        halo_family::check_halox_source(minx, maxx, miny, maxy, c2.ni, c2.nj)?;
        if g == 0 || g2 == 0 {
            return Err(Error::NullBuffer { what: "halo array", nelem: c2.level_points() as i64 * c2.nk as i64 });
        }
        let src = HaloCall { minx, maxx, miny, maxy, ..*c2 };
        let (e, run) = (c2.elem_bytes(), c2.ni as usize * c2.elem_bytes());
        for k in 1..=c2.nk {
            for j in 1..=c2.nj {
                // SAFETY: row j of level k, columns 1..ni, lies in both arrays (bounds checked).
                unsafe {
                    let bytes = read_caller_bytes(g + src.offset(1, j, k) * e, run);
                    write_caller_bytes(&bytes, g2 + c2.offset(1, j, k) * e);
                }
            }
        }
        // SAFETY: the caller's contract for g2.
        unsafe { self.xch_halo_polar(g2, c2) }
    }

    /// RPN_COMM_propagate_pilot_circular: on the PEs at the edge of the grid, the halo points
    /// next to the pilot zones (`pilx`, `pily` wide) get their neighbours' values, as the
    /// original's exchange around the edge gives them; every other point is left as it was.
    /// Collective over the grid (the plain exchange fills every halo; the points the original
    /// does not fill are put back). Nothing on a single PE.
    ///
    /// # Safety
    /// As `xch_halo` (elements of one 4-byte word, not periodic).
    pub unsafe fn propagate_pilot(&mut self, g: usize, c: &HaloCall, pilx: i32, pily: i32) -> Result<()> {
        c.validate_local()?;
        halo_family::check_pilot(c.ni, c.nj, pilx, pily)?;
        let grid = self.grid_comms()?.grid;
        if grid.pex == 1 && grid.pey == 1 {
            return Ok(());
        }
        let (x, y) = grid.coords(self.rank());
        let boxes = halo_family::pilot_boxes(&grid, x, y, c.ni, c.nj, pilx, pily, c.halox, c.haloy);
        let kept = halo_family::kept_runs(c, &boxes);
        let e = c.elem_bytes();
        let mut saved = Vec::new();
        if g != 0 {
            for k in 1..=c.nk {
                for &(j, i0, i1) in &kept {
                    // SAFETY: the run lies within the halos of the part, which the bounds hold
                    // (validated above).
                    saved.extend(unsafe { read_caller_bytes(g + c.offset(i0, j, k) * e, (i1 - i0 + 1) as usize * e) });
                }
            }
        }
        // SAFETY: the caller's contract.
        unsafe { self.xch_halo(g, c) }?;
        let mut at = 0;
        for k in 1..=c.nk {
            for &(j, i0, i1) in &kept {
                let n = (i1 - i0 + 1) as usize * e;
                // SAFETY: as above.
                unsafe { write_caller_bytes(&saved[at..at + n], g + c.offset(i0, j, k) * e) };
                at += n;
            }
        }
        Ok(())
    }
}
