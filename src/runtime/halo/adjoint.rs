//! RPN_COMM_adj_halo8, RPN_COMM_adj_halo4 and RPN_COMM_adj_halo: the adjoint of the halo exchange,
//! over the exchange's own neighbour channels (`Runtime::xch_halo`'s round, `Flow::Adjoint`): one
//! message to each neighbour, its header checked against this PE's arguments before anything is
//! added, so that a refusal writes nothing. The geometry and the sums are in `core::adj_halo`.

use super::super::Runtime;
use crate::core::adj_halo::{self, Flow};
use crate::core::halo::{self, HaloCall, HaloField};
use crate::error::{Error, Result};
use crate::transport::channel::Message;

impl Runtime {
    /// The adjoint of RPN_COMM_xch_halo on `g(minx:maxx, miny:maxy, nk)` (`c`), elements real*4
    /// (`words` 1) or real*8 (2): each halo point's value is added into the part of the PE that
    /// owns the point, as the original's RPN_COMM_adj_halo4/8 add it (see `core::adj_halo`).
    /// Collective over the grid, neighbours only.
    ///
    /// # Safety
    /// `g` is the caller's array as `c` describes it, readable and writable.
    pub unsafe fn adj_halo(&mut self, g: usize, c: &HaloCall) -> Result<()> {
        if !matches!(c.words, 1 | 2) {
            return Err(Error::Internal(format!("the adjoint halo sums real*4 or real*8, not {}-word elements", c.words)));
        }
        if !g.is_multiple_of(4 * c.words as usize) {
            return Err(Error::BadArgument(format!("the array at {g:#x} is not aligned for real*{}", 4 * c.words)));
        }
        // gni only matters to the original's polar path (npol_row > 0, refused by the checks):
        // PEs may pass their own ni (MIDAS does).
        let c = HaloCall { gni: 0, ..*c };
        // SAFETY: the caller's contract.
        unsafe { self.adjoint_fields(vec![HaloField { addr: g, call: c }]) }
    }
}

/// Adds what the neighbours of an adjoint exchange of `fields` sent (`held`: every neighbour's
/// message, each checked, its data after a header of `header_bytes`; `sides`: the PE on each side
/// of this one) into its one field.
///
/// # Safety
/// The field's array is as its call describes it, writable; the messages are not released yet.
pub(super) unsafe fn add_adjoint_halos(
    fields: &[HaloField],
    header_bytes: usize,
    sides: &[Option<usize>; 8],
    held: &[(usize, Message)],
) -> Result<()> {
    let [f] = fields[..] else { return Err(Error::Internal("an adjoint halo exchange of more than one field".into())) };
    let mut parts: [Option<&[u8]>; 8] = [None; 8];
    for (peer, m) in held {
        // SAFETY: the message stays until its release, after this returns (contract).
        let bytes = unsafe { m.bytes() };
        let mut at = header_bytes;
        // each side of the peer on which this PE lies: the peer lies on its opposite
        for s in halo::message_sides(sides, *peer, false) {
            let n = Flow::Adjoint.received_bytes(&f.call, s);
            parts[s.opposite() as usize] = Some(bytes.get(at..at + n).ok_or(Error::Internal("an adjoint halo message cut short".into()))?);
            at += n;
        }
    }
    let len = f.call.level_points() * f.call.nk.max(0) as usize;
    match f.call.words {
        // SAFETY: the array holds `len` elements of the kind (contract), aligned (checked by
        // `adj_halo`), and nothing else refers to it during the call.
        1 => adj_halo::add_halos(&f.call, unsafe { std::slice::from_raw_parts_mut(f.addr as *mut f32, len) }, &parts),
        // SAFETY: as above.
        _ => adj_halo::add_halos(&f.call, unsafe { std::slice::from_raw_parts_mut(f.addr as *mut f64, len) }, &parts),
    }
}
