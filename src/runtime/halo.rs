//! RPN_COMM_xch_halo / RPN_COMM_xch_halon over the grid: the east/west phase, then the
//! north/south phase with the corners, each a collective step of the transport in which every
//! PE contributes the faces next to its edges and fills its halos from its neighbours' faces.
//! The geometry and every refusal are in `core::halo`; a PE that does not call is reported by
//! the transport's wait as a hang naming it.

use super::Runtime;
use crate::core::halo::{self, HaloBox, HaloCall, Neighbours};
use crate::core::{ElementType, GroupSets, Mode, RemoteAccess};
use crate::error::{Error, Result};
use crate::transport::TransportWindow;

/// Internal windows kept for halo exchanges (one per distinct face size in use).
const HALO_WINDOWS: usize = 4;

/// An internal window the faces of one phase go through, and its exposures so far.
struct HaloWindow {
    part: usize,
    memory: Box<dyn TransportWindow>,
    epoch: u32,
}

/// What the halo exchanges keep between calls: their windows and two buffers, reused so that
/// the steady state allocates nothing.
#[derive(Default)]
pub(super) struct HaloState {
    windows: Vec<HaloWindow>,
    packed: Vec<u8>,
    received: Vec<u8>,
}

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

    /// One phase: every PE packs its two faces (`send`: towards the low, then the high side)
    /// into its part of an internal window (`part` bytes on every PE), an exposure in group mode
    /// over its neighbours makes them visible, and this PE reads its low neighbour's high face
    /// and its high neighbour's low face straight from their parts, then unpacks them into its
    /// halo. Only neighbours are read and waited for; the close (which waits for the neighbours
    /// to close) keeps a PE from overwriting its faces while a neighbour still reads them.
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
        let slot = self.halo_window(part)?;
        let mut packed = std::mem::take(&mut self.halo.packed);
        packed.clear();
        for b in &send {
            // SAFETY: the box lies inside the array (caller's contract).
            unsafe { pack(g, c, b, &mut packed) };
        }
        let low_face = send[0].points() * e;
        let cached = &mut self.halo.windows[slot];
        // SAFETY: this PE's part holds `part` >= packed.len() bytes and is not exposed.
        unsafe { std::ptr::copy_nonoverlapping(packed.as_ptr(), cached.memory.local_base(), packed.len()) };
        cached.epoch = cached.epoch.wrapping_add(1);
        let epoch = cached.epoch;
        // Group mode over the neighbours: the PEs this one reads are exactly those that read it
        // (a neighbour's neighbour on the other side is this PE), so the exposure synchronises
        // neighbours only, not the whole job.
        let mut neighbours: Vec<usize> = fill.iter().filter_map(|(pe, _)| *pe).collect();
        neighbours.sort_unstable();
        neighbours.dedup();
        let group = GroupSets::new(self.transport.job().size(), neighbours.clone(), neighbours);
        let cached = &mut self.halo.windows[slot];
        cached.memory.open(epoch, Mode::Group, Some(&group))?;
        let mut faces = std::mem::take(&mut self.halo.received);
        let mut result = Ok(());
        for (side, (from, b)) in fill.iter().enumerate() {
            let Some(pe) = from else { continue };
            // The neighbour's face has the size of the box it fills (shapes checked); its low
            // face has the size of ours along this direction (same halo, same extent).
            let len = b.points() * e;
            let start = if side == 0 { low_face } else { 0 };
            faces.resize(len.max(faces.len()), 0);
            let acc = RemoteAccess { target: *pe, offset: start / 4, nelem: len / 4, mode: Mode::Group, epoch };
            // SAFETY: `faces` holds len bytes.
            result = result.and_then(|()| unsafe { self.halo.windows[slot].memory.get(&acc, faces.as_mut_ptr()) });
            if result.is_ok() {
                // SAFETY: the box lies inside the array; `faces` holds the face.
                unsafe { unpack(g, c, b, &faces[..len]) };
            }
        }
        let closed = self.halo.windows[slot].memory.close(epoch, Mode::Group, Some(&group));
        self.halo.packed = packed;
        self.halo.received = faces;
        result.and(closed)
    }

    /// The index of the cached internal window of `part` bytes per PE, made (collectively; every
    /// PE asks for the same sizes in the same order) on first use. At most `HALO_WINDOWS` stay:
    /// the least recently made one is freed first.
    fn halo_window(&mut self, part: usize) -> Result<usize> {
        if let Some(i) = self.halo.windows.iter().position(|w| w.part == part) {
            return Ok(i);
        }
        if self.halo.windows.len() >= HALO_WINDOWS {
            let old = self.halo.windows.remove(0);
            old.memory.free()?;
        }
        let job = self.transport.job().clone();
        let sizes = vec![part.div_ceil(4).max(1); job.size()];
        // SAFETY: no user array: the transport allocates the memory.
        let memory = unsafe { self.transport.create_window(&job, ElementType::Int32, &sizes, None) }?;
        self.halo.windows.push(HaloWindow { part, memory, epoch: 0 });
        Ok(self.halo.windows.len() - 1)
    }

    /// RPN_COMM_limit: see `core::halo::limit`.
    pub fn limit(my_id: i32, npe: i32, gmin: i32, gmax: i32) -> Result<(i32, i32, Vec<i32>, Vec<i32>)> {
        halo::limit(my_id, npe, gmin, gmax)
    }
}
