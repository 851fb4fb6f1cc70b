//! The RPN_MPI layer's transposes besides RPN_MPI_ez_transpose_xz (`dist`): RPN_MPI_transpose_xz
//! (the row communicator given, set up again when it or gnk changes), RPN_MPI_transpose_xy and
//! RPN_MPI_ez_transpose_xy (an alltoall of equal blocks over the column communicator), their
//! "_s" twins (the same exchange: the original's staggering is switched off), and the timings
//! of the last 8 calls of each kind that RPN_MPI_print_transpose_times writes.

use std::sync::Mutex;

use super::super::super::Runtime;
use super::super::dist::{XZ, XzSetup};
use crate::core::CollectiveId;
use crate::error::{Error, Result};

/// Calls timed per kind (forward xz, inverse xz, forward xy, inverse xy), the last ones kept.
const KEPT: usize = 8;

struct Times {
    seconds: [[f64; KEPT]; 4],
    calls: [usize; 4],
}

static TIMES: Mutex<Times> = Mutex::new(Times { seconds: [[0.0; KEPT]; 4], calls: [0; 4] });

/// A transpose being timed.
struct Timing(f64);

impl Timing {
    fn start() -> Timing {
        Timing(crate::runtime::wtime())
    }
    /// Kept in slot `kind` (0 forward xz, 1 inverse xz, 2 forward xy, 3 inverse xy), in turn.
    fn stop(self, kind: usize) {
        let mut t = TIMES.lock().unwrap_or_else(|p| p.into_inner());
        let at = t.calls[kind] % KEPT;
        t.seconds[kind][at] = crate::runtime::wtime() - self.0;
        t.calls[kind] = at + 1;
    }
}

/// RPN_MPI_print_transpose_times's lines: each kind's 8 last times, in seconds.
pub fn transpose_times_report() -> String {
    let t = TIMES.lock().unwrap_or_else(|p| p.into_inner());
    let mut out = String::new();
    for (label, row) in ["fwd xz :", "inv xz :", "fwd xy :", "inv xy :"].iter().zip(t.seconds.iter()) {
        out.push_str(label);
        for s in row {
            out.push_str(&format!("{s:10.6}"));
        }
        out.push('\n');
    }
    out
}

fn check_addr(addr: usize, words: usize, what: &'static str) -> Result<()> {
    if words > 0 && (addr == 0 || !addr.is_multiple_of(4)) {
        return Err(Error::BadArgument(format!("{what} must be an array of 4-byte words")));
    }
    Ok(())
}

impl Runtime {
    /// RPN_MPI_ez_transpose_xz (`dist`), timed for RPN_MPI_print_transpose_times.
    ///
    /// # Safety
    /// As `mpi_ez_transpose_xz`.
    pub unsafe fn mpi_ez_transpose_xz_timed(&mut self, z: usize, zt: usize, forward: bool, lnix: i32, lnjy: i32, lnkx: i32) -> Result<()> {
        let started = Timing::start();
        // SAFETY: the caller's promise, passed on.
        unsafe { self.mpi_ez_transpose_xz(z, zt, forward, lnix, lnjy, lnkx) }?;
        started.stop(if forward { 0 } else { 1 });
        Ok(())
    }

    /// RPN_MPI_transpose_xz(_s): RPN_MPI_ez_transpose_xz over `row_comm` (a Fortran MPI handle)
    /// with `gnk` levels; the row's levels are gathered again when the row or gnk differ from
    /// the last setup's.
    ///
    /// # Safety
    /// As `mpi_ez_transpose_xz`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn mpi_transpose_xz(
        &mut self,
        z: usize,
        zt: usize,
        forward: bool,
        lnix: i32,
        lnjy: i32,
        gnk: i32,
        lnkx: i32,
        row_comm: i32,
    ) -> Result<()> {
        let (again, col) = {
            let xz = XZ.lock().unwrap_or_else(|p| p.into_inner());
            match xz.as_ref() {
                Some(s) => (s.row_handle != row_comm || s.nk as i64 != i64::from(gnk), s.handle),
                None => (true, -1),
            }
        };
        if again {
            let row = self.transport.wrap_mpi_communicator(row_comm)?;
            let local = if lnkx < 0 { Err(Error::Negative { what: "lnkx", value: lnkx.into() }) } else { Ok(()) };
            let rows = self.agree(&row, CollectiveId::MpiTransposeSetup, &local, &[lnkx as u32, gnk as u32])?;
            local?;
            let counts: Vec<usize> = rows.iter().map(|r| r[0] as usize).collect();
            if counts.iter().sum::<usize>() as i64 != i64::from(gnk) {
                return Err(Error::BadArgument(format!("the row's levels {counts:?} do not add up to gnk = {gnk}")));
            }
            *XZ.lock().unwrap_or_else(|p| p.into_inner()) =
                Some(XzSetup { handle: col, row_handle: row_comm, row, nk: gnk.max(0) as usize, counts });
        }
        // SAFETY: the caller's promise, passed on.
        unsafe { self.mpi_ez_transpose_xz_timed(z, zt, forward, lnix, lnjy, lnkx) }
    }

    /// RPN_MPI_ez_transpose_xy: RPN_MPI_transpose_xy over the column communicator of
    /// RPN_MPI_transpose_setup.
    ///
    /// # Safety
    /// As `mpi_transpose_xy`.
    pub unsafe fn mpi_ez_transpose_xy(&mut self, z: usize, zt: usize, forward: bool, lniy: i32, lnjy: i32, lnkx: i32) -> Result<()> {
        let col = XZ.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map_or(-1, |s| s.handle);
        if col == -1 {
            return Err(Error::CallOrder("RPN_MPI_transpose_setup must come first (it names the column communicator)".into()));
        }
        // SAFETY: the caller's promise, passed on.
        unsafe { self.mpi_transpose_xy(z, zt, forward, lniy, lnjy, lnkx, col) }
    }

    /// RPN_MPI_transpose_xy(_s): forward, block p of z(lniy, lnjy, lnkx, npey) (4-byte words)
    /// goes to the column's PE p, whose zt's block q is what PE q sent; backward zt to z.
    ///
    /// # Safety
    /// `z` and `zt` hold lniy*lnjy*lnkx*npey words each.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn mpi_transpose_xy(
        &mut self,
        z: usize,
        zt: usize,
        forward: bool,
        lniy: i32,
        lnjy: i32,
        lnkx: i32,
        col_comm: i32,
    ) -> Result<()> {
        let col = self.transport.wrap_mpi_communicator(col_comm)?;
        let np = col.size();
        let local = (|| {
            let c = |what: &'static str, v: i32| usize::try_from(v).map_err(|_| Error::Negative { what, value: v.into() });
            let block = c("lniy", lniy)? * c("lnjy", lnjy)? * c("lnkx", lnkx)?;
            check_addr(z, block * np, "z")?;
            check_addr(zt, block * np, "zt")?;
            if block > 0 && z < zt + block * np * 4 && zt < z + block * np * 4 {
                return Err(Error::BadArgument("z and zt overlap".into()));
            }
            Ok(block)
        })();
        let rows = self.agree(
            &col,
            CollectiveId::MpiTransposeXy,
            &local.as_ref().map(|_| ()).map_err(Clone::clone),
            &[u32::from(forward), lniy as u32, lnjy as u32, lnkx as u32],
        )?;
        let block = local?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!("PE {pe} passes (forward, lniy, lnjy, lnkx) {:?}, PE 0 {:?}", rows[pe], rows[0])));
        }
        let bytes = block * np * 4;
        let (from, to) = if forward { (z, zt) } else { (zt, z) };
        let started = Timing::start();
        if bytes > 0 {
            // SAFETY: the caller's arrays of block*np words each, distinct (checked above).
            let (send, recv) =
                unsafe { (std::slice::from_raw_parts(from as *const u8, bytes), std::slice::from_raw_parts_mut(to as *mut u8, bytes)) };
            self.transport.alltoall(&col, send, block * 4, recv)?;
        }
        started.stop(if forward { 2 } else { 3 });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_kept_in_turn_and_printed_as_the_original() {
        for _ in 0..(KEPT + 1) {
            Timing::start().stop(3);
        }
        assert_eq!(TIMES.lock().unwrap().calls[3], 1);
        let report = transpose_times_report();
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("fwd xz :") && lines[3].starts_with("inv xy :"));
        assert_eq!(lines[3].len(), 8 + 10 * KEPT);
    }
}
