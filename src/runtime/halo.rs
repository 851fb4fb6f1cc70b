//! RPN_COMM_xch_halo / RPN_COMM_xch_halon over the grid: the east/west phase, then the
//! north/south phase with the corners. The geometry and every refusal are in `core::halo`; a
//! PE that does not call is reported by the transport's wait as a hang naming it.
//!
//! The fast way (`exchange_direct`): a window over the caller's array itself, made on the
//! first exchange of that array and kept (a model exchanges the same arrays every time step),
//! through which every PE reads its neighbours' faces straight from their arrays into its own
//! halo, one box get per neighbour and phase. On shared memory a halo point is copied once,
//! with no system call and no allocation; to another node it is one MPI_Get per face. East/west
//! faces whose runs (one per row and level) are shorter than a cache line are packed by their
//! owner instead (see `exchange_direct`). Such a
//! window serves only while it is the array's memory on every PE
//! (`TransportWindow::is_caller_array`, asked at every call: the caller may have freed the
//! array and allocated another at the same place). Where some PE's array cannot be shared (on
//! the stack, already under another window, or a plain MPI window, which cannot be checked),
//! `exchange_packed`: faces packed into an internal window, got from there into the halos.

use super::Runtime;
use crate::core::halo::{self, FieldCache, FieldPlan, HaloBox, HaloCall, Neighbours, PAYLOAD_LEN};
use crate::core::subarray::{BoxArgs, BoxTransfer};
use crate::core::{CollectiveId, ElementType, Grid, GroupSets, Mode, RemoteAccess};
use crate::error::{Error, Result};
use crate::transport::TransportWindow;

/// Internal windows kept for packed halo exchanges (one per distinct face size in use).
const HALO_WINDOWS: usize = 4;
/// Windows kept over callers' arrays (a model exchanges a handful of fields; at most 32, the
/// bits of the agreement's conflict mask).
const FIELD_WINDOWS: usize = 8;
/// Bytes of a cache line: face runs shorter than that are packed rather than read in place.
const CACHE_LINE: usize = 64;
/// Arrays remembered as not shareable, so that their exchanges do not try again each call.
const UNSHAREABLE_KEPT: usize = 8;

/// An internal window the faces of one phase go through, and its exposures so far.
struct HaloWindow {
    part: usize,
    memory: Box<dyn TransportWindow>,
    epoch: u32,
    /// The group sets of its last exposure (made again only for other neighbours).
    group: Option<GroupSets>,
}

/// A window over a caller's halo array (`addr`, `words` 4-byte words on this PE), its
/// exposures so far, and the group sets of its exposures for the neighbours they were made for.
struct FieldWindow {
    addr: usize,
    words: usize,
    memory: Box<dyn TransportWindow>,
    epoch: u32,
    last_used: u64,
    group: Option<(Neighbours, GroupSets)>,
}

/// What the halo exchanges keep between calls: their windows, the arrays known not to be
/// shareable, and buffers reused so that the steady state allocates nothing.
#[derive(Default)]
pub(super) struct HaloState {
    windows: Vec<HaloWindow>,
    fields: Vec<FieldWindow>,
    unshareable: Vec<(usize, usize)>,
    calls: u64,
    gathered: Vec<u8>,
    rows: Vec<[u32; PAYLOAD_LEN]>,
}

/// Writes the box `b` of levels 1..=nk of the array at `g` to `out`, row by row; returns the
/// bytes written.
///
/// # Safety
/// `g` holds the whole array `c` describes, `b` lies inside its bounds, and `out` is writable
/// for the box's bytes.
unsafe fn pack(g: usize, c: &HaloCall, b: &HaloBox, out: *mut u8) -> usize {
    let e = c.elem_bytes();
    let row = (b.i.1 - b.i.0 + 1).max(0) as usize * e;
    let mut at = 0;
    for k in 1..=c.nk {
        for j in b.j.0..=b.j.1 {
            let from = g + c.offset(b.i.0, j, k) * e;
            // SAFETY: the row lies inside the array and `out` holds the box (caller's contract).
            unsafe { std::ptr::copy_nonoverlapping(from as *const u8, out.add(at), row) };
            at += row;
        }
    }
    at
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
        let cache = if local.is_ok() { self.field_cache(g, c.total_words()) } else { FieldCache::default() };
        let job = self.transport.job().clone();
        let (mut bytes, mut rows) = (std::mem::take(&mut self.halo.gathered), std::mem::take(&mut self.halo.rows));
        let agreed = self.agree_into(&job, CollectiveId::XchHalo, &local, &c.payload(cache), &mut bytes, &mut rows);
        let plan = agreed.and_then(|()| halo::check_shapes(&grid, &rows)).map(|()| halo::plan_fields(&rows));
        self.halo.gathered = bytes;
        self.halo.rows = rows;
        let slot = match plan? {
            FieldPlan::Reuse(slot) => Some(slot),
            FieldPlan::Make { evict } => self.make_field_window(g, c.total_words(), evict)?,
            FieldPlan::Pack => None,
        };
        match slot {
            // SAFETY: the caller's contract; the window in `slot` is every PE's array.
            Some(slot) => unsafe { self.exchange_direct(slot, g, c, &grid) },
            // SAFETY: the caller's contract.
            None => unsafe { self.exchange_packed(g, c, &grid) },
        }
    }

    /// What this PE knows of windows over the array at `g` of `words` 4-byte words.
    fn field_cache(&self, g: usize, words: usize) -> FieldCache {
        let end = g + words * 4;
        let mut cache = FieldCache { unshareable: self.halo.unshareable.contains(&(g, words)), ..FieldCache::default() };
        for (i, f) in self.halo.fields.iter().enumerate() {
            if f.addr < end && g < f.addr + f.words * 4 {
                cache.conflicts |= 1 << i;
            }
            // SAFETY: the caller's array (a live one: this call's) is at the window's address.
            if f.addr == g && f.words == words && unsafe { f.memory.is_caller_array() } {
                cache.hit = Some(i);
            }
        }
        cache
    }

    /// Collective: frees the windows of the `evict` slots (and the least recently used one if
    /// all slots are taken), then makes a window over every PE's array. Its slot when it is
    /// every PE's array itself; otherwise it is freed again, and this PE remembers its array
    /// as not shareable if it was the one that could not share.
    fn make_field_window(&mut self, g: usize, words: usize, evict: u32) -> Result<Option<usize>> {
        for i in (0..self.halo.fields.len()).rev() {
            if evict & (1 << i) != 0 {
                self.halo.fields.remove(i).memory.free()?;
            }
        }
        if self.halo.fields.len() >= FIELD_WINDOWS {
            let oldest = (0..self.halo.fields.len()).min_by_key(|&i| self.halo.fields[i].last_used).unwrap_or(0);
            self.halo.fields.remove(oldest).memory.free()?;
        }
        let job = self.transport.job().clone();
        let sizes: Vec<usize> = self.halo.rows.iter().map(|r| HaloCall::of_payload(r).total_words()).collect();
        // SAFETY: the caller's array holds `words` 4-byte words (validated bounds), and the
        // window is freed before the call returns unless every PE's array is its memory, which
        // each later call checks again before using it.
        let memory = unsafe { self.transport.create_window(&job, ElementType::Int32, &sizes, Some(g)) }?;
        // SAFETY: the window is over this call's array.
        let mine = unsafe { memory.is_caller_array() };
        let (mut bytes, mut rows) = (Vec::new(), Vec::new());
        self.agree_into(&job, CollectiveId::XchHalo, &Ok(()), &[mine as u32], &mut bytes, &mut rows)?;
        if rows.iter().all(|r| r[0] == 1) {
            self.halo.fields.push(FieldWindow { addr: g, words, memory, epoch: 0, last_used: 0, group: None });
            return Ok(Some(self.halo.fields.len() - 1));
        }
        memory.free()?;
        if !mine {
            if self.halo.unshareable.len() >= UNSHAREABLE_KEPT {
                self.halo.unshareable.remove(0);
            }
            self.halo.unshareable.push((g, words));
        }
        Ok(None)
    }

    /// The exchange through the window in `slot`, over every PE's array: in each phase, one
    /// exposure in group mode over the neighbours, in which this PE gets its
    /// neighbours' faces straight into its halo. A neighbour's get waits for this PE's open
    /// (its array is as the caller left it); the north/south phase opens after the east/west
    /// one closed (the corners it reads are filled); each close waits for the neighbours'
    /// closes, so no PE changes its array while a neighbour still reads it.
    ///
    /// # Safety
    /// As `xch_halo`; the window in `slot` is every PE's array (checked this call).
    unsafe fn exchange_direct(&mut self, slot: usize, g: usize, c: &HaloCall, grid: &Grid) -> Result<()> {
        let me = self.rank();
        let n = Neighbours::of(grid, me, c.periodx, c.periody);
        let npes = self.transport.job().size();
        // East/west faces are columns: a run per row and level, `halox` elements long. Read in
        // place, each short run costs a whole cache line from the neighbour's core; packed
        // by their owner, the faces cross in whole lines (two copies, the strided ones local).
        let pack_east_west = (c.halox * c.words) as usize * 4 < CACHE_LINE;
        if pack_east_west {
            let (ew_size, _) = self.phase_parts(c);
            let [to_west, to_east, west_halo, east_halo] = halo::east_west_boxes(c);
            // SAFETY: the boxes lie inside the validated bounds of the caller's array.
            unsafe { self.halo_phase(g, c, ew_size, [to_west, to_east], [(n.west, west_halo), (n.east, east_halo)]) }?;
        }
        self.halo.calls += 1;
        let HaloState { fields, rows, calls, .. } = &mut *self.halo;
        let field = &mut fields[slot];
        field.last_used = *calls;
        if field.group.as_ref().is_none_or(|(made_for, _)| *made_for != n) {
            let mut pes: Vec<usize> = [n.west, n.east, n.south, n.north].into_iter().flatten().collect();
            pes.sort_unstable();
            pes.dedup();
            field.group = Some((n, GroupSets::new(npes, pes.clone(), pes)));
        }
        let theirs = |pe: usize| HaloCall::of_payload(&rows[pe]);
        let their_neighbours = |pe: usize| Neighbours::of(grid, pe, c.periodx, c.periody);
        let [_, _, west_halo, east_halo] = halo::east_west_boxes(c);
        let [_, _, south_halo, north_halo] = halo::north_south_boxes(c, &n);
        // (neighbour, the halo box it fills, its face in its own array)
        let phases = [
            [
                n.west.map(|pe| (pe, west_halo, halo::east_west_boxes(&theirs(pe))[1])),
                n.east.map(|pe| (pe, east_halo, halo::east_west_boxes(&theirs(pe))[0])),
            ],
            [
                n.south.map(|pe| (pe, south_halo, halo::north_south_boxes(&theirs(pe), &their_neighbours(pe))[1])),
                n.north.map(|pe| (pe, north_halo, halo::north_south_boxes(&theirs(pe), &their_neighbours(pe))[0])),
            ],
        ];
        // One group of every neighbour for both phases: the same sets at every epoch (an MPI
        // window keeps the MPI groups of the last epoch), and a phase waits for the PEs it
        // reads and those that read it.
        let Some((_, group)) = &field.group else { unreachable!("made above") };
        for fills in &phases[usize::from(pack_east_west)..] {
            field.epoch = field.epoch.wrapping_add(1);
            let epoch = field.epoch;
            field.memory.open(epoch, Mode::Group, Some(group))?;
            let mut result = Ok(());
            for &(pe, fill, face) in fills.iter().flatten() {
                let other = theirs(pe);
                let acc = RemoteAccess { target: pe, offset: 0, nelem: other.total_words(), mode: Mode::Group, epoch };
                result = result.and_then(|()| {
                    let transfer = halo::face_transfer(c, &fill, &other, &face)?;
                    // SAFETY: the transfer's local box lies in this PE's array (checked
                    // against its shape), which `g` holds (caller's contract).
                    unsafe { field.memory.get_box(&acc, &transfer, g as *mut u8, 4) }
                });
            }
            let closed = field.memory.close(epoch, Mode::Group, Some(group));
            result.and(closed)?;
        }
        Ok(())
    }

    /// The exchange through internal windows: each phase packs this PE's faces, which its
    /// neighbours get into their halos (see `halo_phase`).
    ///
    /// # Safety
    /// As `xch_halo`.
    unsafe fn exchange_packed(&mut self, g: usize, c: &HaloCall, grid: &Grid) -> Result<()> {
        let me = self.rank();
        let n = Neighbours::of(grid, me, c.periodx, c.periody);
        let (ew_size, ns_size) = self.phase_parts(c);
        let [to_west, to_east, west_halo, east_halo] = halo::east_west_boxes(c);
        // SAFETY: the boxes lie inside the validated bounds of the caller's array.
        unsafe { self.halo_phase(g, c, ew_size, [to_west, to_east], [(n.west, west_halo), (n.east, east_halo)]) }?;
        let [to_south, to_north, south_halo, north_halo] = halo::north_south_boxes(c, &n);
        // SAFETY: as above.
        unsafe { self.halo_phase(g, c, ns_size, [to_south, to_north], [(n.south, south_halo), (n.north, north_halo)]) }
    }

    /// The bytes of every PE's part of the internal window of the east/west and the
    /// north/south phase: the largest PE's two faces (every PE's part has the same size).
    fn phase_parts(&self, c: &HaloCall) -> (usize, usize) {
        let e = c.elem_bytes();
        let (h, nk) = (c.halox as usize, c.nk as usize);
        let ew = self.halo.rows.iter().map(|s| 2 * h * s[1] as usize * nk * e).max().unwrap_or(0);
        let ns = self.halo.rows.iter().map(|s| 2 * c.haloy as usize * (s[0] as usize + 2 * h) * nk * e).max().unwrap_or(0);
        (ew, ns)
    }

    /// One phase: every PE packs its two faces (`send`: towards the low, then the high side)
    /// into its part of an internal window (`part` bytes on every PE), an exposure in group mode
    /// over its neighbours makes them visible, and this PE gets its low neighbour's high face
    /// and its high neighbour's low face from their parts straight into its halo (one box get
    /// each: a point is copied twice, packed and got). Only neighbours are read and waited
    /// for; the close (which waits for the neighbours to close) keeps a PE from overwriting its
    /// faces while a neighbour still reads them.
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
        let slot = self.halo_window(part)?;
        let cached = &mut self.halo.windows[slot];
        let out = cached.memory.local_base();
        let mut packed = 0;
        for b in &send {
            // SAFETY: the box lies inside the array (caller's contract); this PE's part of the
            // window holds `part` bytes, room for both faces, and is not exposed.
            packed += unsafe { pack(g, c, b, out.add(packed)) };
        }
        debug_assert!(packed <= part);
        cached.epoch = cached.epoch.wrapping_add(1);
        let epoch = cached.epoch;
        // Group mode over the neighbours: the PEs this one reads are exactly those that read it
        // (a neighbour's neighbour on the other side is this PE), so the exposure synchronises
        // neighbours only, not the whole job.
        // (sorted, without repeats, on the stack: the sets are made again only when they change)
        let mut pair = [fill[0].0, fill[1].0];
        pair.sort_unstable();
        let (mut neighbours, mut distinct) = ([0; 2], 0);
        for pe in pair.into_iter().flatten() {
            if distinct == 0 || neighbours[distinct - 1] != pe {
                neighbours[distinct] = pe;
                distinct += 1;
            }
        }
        let neighbours = &neighbours[..distinct];
        let npes = self.transport.job().size();
        let cached = &mut self.halo.windows[slot];
        if cached.group.as_ref().is_none_or(|g| g.to != neighbours) {
            cached.group = Some(GroupSets::new(npes, neighbours.to_vec(), neighbours.to_vec()));
        }
        let Some(group) = &cached.group else { unreachable!("made above") };
        cached.memory.open(epoch, Mode::Group, Some(group))?;
        let mut result = Ok(());
        for (side, (from, b)) in fill.iter().enumerate() {
            let Some(pe) = from else { continue };
            // The neighbour's two faces have the extents of the box they fill (shapes checked),
            // packed one after the other: seen as a box of two faces stacked along the levels,
            // its high face (read by its high-side neighbour, our side 0) the second one.
            let (local, count) = c.word_box(b);
            let remote = BoxArgs { shape: [count[0], count[1], 2 * count[2]], start: [0, 0, if side == 0 { count[2] } else { 0 }] };
            let acc =
                RemoteAccess { target: *pe, offset: 0, nelem: (remote.shape.iter().product::<i64>()) as usize, mode: Mode::Group, epoch };
            result = result.and_then(|()| {
                let transfer = BoxTransfer::check(&local, &remote, count)?;
                // SAFETY: the transfer's local box lies in the array `g` holds (checked against
                // its shape); the remote box lies in the neighbour's packed faces, inside its part.
                unsafe { cached.memory.get_box(&acc, &transfer, g as *mut u8, 4) }
            });
        }
        let closed = cached.memory.close(epoch, Mode::Group, Some(group));
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
        self.halo.windows.push(HaloWindow { part, memory, epoch: 0, group: None });
        Ok(self.halo.windows.len() - 1)
    }

    /// Collective (at finalize): frees every window the halo exchanges made; the callers'
    /// arrays get private pages again, with their contents.
    pub(super) fn release_halo_windows(&mut self) -> Result<()> {
        let state = std::mem::take(&mut *self.halo);
        let internal = state.windows.into_iter().map(|w| w.memory);
        let fields = state.fields.into_iter().map(|f| f.memory);
        // Every one is freed (collective) even after a failure; the first error is reported.
        let mut result = Ok(());
        for memory in internal.chain(fields) {
            result = result.and(memory.free());
        }
        result
    }

    /// RPN_COMM_limit: see `core::halo::limit`.
    pub fn limit(my_id: i32, npe: i32, gmin: i32, gmax: i32) -> Result<(i32, i32, Vec<i32>, Vec<i32>)> {
        halo::limit(my_id, npe, gmin, gmax)
    }
}
