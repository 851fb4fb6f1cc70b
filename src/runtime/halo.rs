//! RPN_COMM_xch_halo / RPN_COMM_xch_halon over the grid: the east/west phase, then the
//! north/south phase with the corners, each a collective step of the transport in which every
//! PE contributes the faces next to its edges and fills its halos from its neighbours' faces.
//! The geometry and every refusal are in `core::halo`; a PE that does not call is reported by
//! the transport's wait as a hang naming it.

use super::Runtime;
use crate::core::halo::{self, HaloBox, HaloCall, Neighbours};
use crate::error::{Error, Result};

/// Appends the box `b` of levels 1..=nk of the array at `g` to `out`, row by row.
///
/// # Safety
/// `g` holds the whole array `c` describes, and `b` lies inside its bounds.
unsafe fn pack(g: usize, c: &HaloCall, b: &HaloBox, out: &mut Vec<u8>) {
    let e = c.elem_bytes();
    let row = (b.i.1 - b.i.0 + 1).max(0) as usize * e;
    for k in 1..=c.nk {
        for j in b.j.0..=b.j.1 {
            let at = g + c.offset(b.i.0, j, k) * e;
            // SAFETY: the row lies inside the array (caller's contract).
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(at as *const u8, row) });
        }
    }
}

/// Copies `data` (laid out as `pack` writes it) into the box `b` of the array at `g`.
///
/// # Safety
/// As `pack`, the array writable; `data` holds the box.
unsafe fn unpack(g: usize, c: &HaloCall, b: &HaloBox, data: &[u8]) {
    let e = c.elem_bytes();
    let row = (b.i.1 - b.i.0 + 1).max(0) as usize * e;
    let mut from = 0;
    for k in 1..=c.nk {
        for j in b.j.0..=b.j.1 {
            let at = g + c.offset(b.i.0, j, k) * e;
            // SAFETY: the row lies inside the array (caller's contract); data holds it.
            unsafe { std::ptr::copy_nonoverlapping(data[from..from + row].as_ptr(), at as *mut u8, row) };
            from += row;
        }
    }
}

impl Runtime {
    /// Collective over the grid: exchanges the halos of `g(minx:maxx, miny:maxy, nk)` with the
    /// neighbours on the PE grid. Refused on every PE (nothing written) when any PE's
    /// arguments are refused or neighbours' shapes disagree.
    ///
    /// # Safety
    /// `g` is the caller's array as `c` describes it, readable and writable.
    pub unsafe fn xch_halo(&mut self, g: usize, c: &HaloCall) -> Result<()> {
        let grid = self.grid_comms()?.grid;
        let local = c.validate_local().and_then(|()| match g {
            0 => Err(Error::NullBuffer { what: "halo array", nelem: c.level_points() as i64 * c.nk as i64 }),
            _ => Ok(()),
        });
        let job = self.transport.job().clone();
        let shapes = self.agree(&job, &local, &c.shape_payload())?;
        halo::check_shapes(&grid, &shapes)?;
        let me = self.rank();
        let n = Neighbours::of(&grid, me, c.periodx, c.periody);
        let e = c.elem_bytes();
        let (h, nk) = (c.halox as usize, c.nk as usize);
        // Every PE's contribution has the size of the largest one (the transport's exchange
        // takes equal parts).
        let ew_size = shapes.iter().map(|s| 2 * h * s[1] as usize * nk * e).max().unwrap_or(0);
        let ns_size =
            shapes.iter().map(|s| 2 * c.haloy as usize * (s[0] as usize + 2 * h) * nk * e).max().unwrap_or(0);

        let [to_west, to_east, west_halo, east_halo] = halo::east_west_boxes(c);
        // SAFETY: the boxes lie inside the validated bounds of the caller's array.
        unsafe { self.halo_phase(g, c, ew_size, [to_west, to_east], [(n.west, west_halo), (n.east, east_halo)]) }?;
        let [to_south, to_north, south_halo, north_halo] = halo::north_south_boxes(c, &n);
        // SAFETY: as above.
        unsafe { self.halo_phase(g, c, ns_size, [to_south, to_north], [(n.south, south_halo), (n.north, north_halo)]) }
    }

    /// One phase: every PE contributes its two faces (`send`: towards the low, then the high
    /// side); this PE fills its low-side halo from its low neighbour's high face and its
    /// high-side halo from its high neighbour's low face.
    ///
    /// # Safety
    /// As `xch_halo`; the boxes lie inside the array.
    unsafe fn halo_phase(
        &mut self,
        g: usize,
        c: &HaloCall,
        part: usize,
        send: [HaloBox; 2],
        fill: [(Option<usize>, HaloBox); 2],
    ) -> Result<()> {
        let e = c.elem_bytes() * c.nk as usize;
        let mut mine = Vec::with_capacity(part);
        for b in &send {
            // SAFETY: the box lies inside the array (caller's contract).
            unsafe { pack(g, c, b, &mut mine) };
        }
        let low_face = send[0].points() * e;
        mine.resize(part, 0);
        let job = self.transport.job().clone();
        let mut all = vec![0u8; part * job.size()];
        self.transport.allgather(&job, &mine, &mut all)?;
        for (side, (from, b)) in fill.iter().enumerate() {
            let Some(pe) = from else { continue };
            let theirs = &all[pe * part..(pe + 1) * part];
            // The neighbour's face has the size of the box it fills (shapes checked).
            let len = b.points() * e;
            // Its low face has the size of ours along this direction (same halo, same extent).
            let start = if side == 0 { low_face } else { 0 };
            // SAFETY: the box lies inside the array; `theirs` holds the face.
            unsafe { unpack(g, c, b, &theirs[start..start + len]) };
        }
        Ok(())
    }

    /// RPN_COMM_limit: see `core::halo::limit`.
    pub fn limit(my_id: i32, npe: i32, gmin: i32, gmax: i32) -> Result<(i32, i32, Vec<i32>, Vec<i32>)> {
        halo::limit(my_id, npe, gmin, gmax)
    }
}
