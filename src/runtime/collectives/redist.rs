//! RPN_COMM_grid_redist and RPN_COMM_grid_redist_n: the window ix0:ixn x jy0:jyn of nk levels,
//! held in pieces by the PEs of the grid (each its tile's part of the window), reassembled whole
//! on the output PEs: the levels are dealt to the output columns in turn (column l gets a block of
//! consecutive levels, as many as the deal gives it), and within a column to its output rows in
//! turn, level k of the column in plane 1 + (k-1)/noutpe_y of that PE's zout. The original gathers
//! along rows, then along columns; here each piece moves once (one all-to-all), after the
//! agreement step.

use super::super::Runtime;
use super::dist::{as_bytes, check_addr, to_words, words_of, words_of_mut};
use crate::core::{CollectiveId, decomp};
use crate::error::{Error, Result};

/// The arguments of RPN_COMM_grid_redist(_n): zin(ltok, mini:maxi, minj:maxj, nk) with its
/// useful part (i0:in, j0:jn), zout(ltok, ix0:ixn, jy0:jyn, nz), a gni x gnj field of points of
/// `ltok` 4-byte words, the output columns and rows of PEs.
#[derive(Debug, Clone)]
pub struct RedistArgs {
    pub zin: [i32; 4],
    pub useful: [i32; 4],
    pub nk: i32,
    pub window: [i32; 4],
    pub nz: i32,
    pub gni: i32,
    pub gnj: i32,
    pub outpe_x: Vec<i32>,
    pub outpe_y: Vec<i32>,
    pub ltok: i32,
}

/// Level (1-based) -> (output column index, output row index, plane of zout), all 0-based.
pub fn level_places(nk: usize, nox: usize, noy: usize) -> Vec<(usize, usize, usize)> {
    // the deal: level k to column (k-1) mod nox, counted; column l then takes a block of levels
    let mut per_column = vec![0usize; nox];
    for k in 0..nk {
        per_column[k % nox] += 1;
    }
    let mut places = Vec::with_capacity(nk);
    for (l, &n) in per_column.iter().enumerate() {
        for k in 0..n {
            places.push((l, k % noy, k / noy));
        }
    }
    places
}

/// The part of the window in each tile along one axis: (first, last) global index, empty when
/// first > last.
fn fragments(n: i32, np: usize, lo: i32, hi: i32) -> Vec<(i64, i64)> {
    let t = decomp::limit(0, np, 1, n, 0);
    (0..np)
        .map(|p| {
            let (off, c) = (i64::from(t.offset[p]), i64::from(t.count[p]));
            (i64::from(lo).max(1 + off), i64::from(hi).min(off + c))
        })
        .collect()
}

fn span((a, b): (i64, i64)) -> usize {
    (b - a + 1).max(0) as usize
}

impl Runtime {
    /// RPN_COMM_grid_redist(_n): 1 on success; zlist (nz entries) -1 but on the output PEs, where
    /// zlist(plane) is the level now in that plane of zout.
    ///
    /// # Safety
    /// `zin` and `zout` hold the arrays of `a`'s shapes.
    pub unsafe fn grid_redist(&mut self, id: CollectiveId, a: &RedistArgs, zin: usize, zout: usize, zlist: &mut [i32]) -> Result<()> {
        zlist.fill(-1);
        let (grid, _) = self.grid_and_blocks()?;
        let comm = self.named("GRID")?.ok_or_else(|| Error::Internal("no grid communicator".into()))?;
        let (n, me) = (comm.size(), comm.rank());
        let (nx, ny) = (grid.pex, grid.pey);
        let (nox, noy) = (a.outpe_x.len(), a.outpe_y.len());
        let w = a.ltok.max(1) as usize;
        let (fx, fy) = (fragments(a.gni, nx, a.window[0], a.window[1]), fragments(a.gnj, ny, a.window[2], a.window[3]));
        let (mx, my) = grid.grid_coords(me);
        let span4 = |b: [i32; 4]| (span((b[0].into(), b[1].into())), span((b[2].into(), b[3].into())));
        let (zi, zj) = span4(a.zin);
        let (oi, oj) = span4(a.window);
        let (nk, nz) = (a.nk.max(0) as usize, a.nz.max(0) as usize);
        let local = (|| {
            if nox == 0 || noy == 0 || a.nk > a.nz * (nox * noy) as i32 {
                return Err(Error::BadArgument(format!("{} levels do not fit in nz = {} planes of {nox} x {noy} output PEs", a.nk, a.nz)));
            }
            if a.ltok < 1 {
                return Err(Error::BadArgument(format!("ltok = {} words per point", a.ltok)));
            }
            if let Some(bad) = a
                .outpe_x
                .iter()
                .chain(&a.outpe_y)
                .zip((0..nox).map(|_| nx).chain((0..noy).map(|_| ny)))
                .find(|(v, np)| **v < 0 || **v as usize >= *np)
            {
                return Err(Error::BadArgument(format!("output PE coordinate {} is outside the grid", bad.0)));
            }
            let (xr, yr) = (fx[mx], fy[my]);
            let useful = (a.useful[1] - a.useful[0], a.useful[3] - a.useful[2]);
            if xr.0 <= xr.1 && (i64::from(useful.0) != xr.1 - xr.0 || i64::from(useful.1) != yr.1 - yr.0) {
                return Err(Error::BadArgument(format!(
                    "zin({}:{}, {}:{}) is not this PE's part of the window, global ({}:{}, {}:{})",
                    a.useful[0], a.useful[1], a.useful[2], a.useful[3], xr.0, xr.1, yr.0, yr.1
                )));
            }
            if xr.0 <= xr.1
                && yr.0 <= yr.1
                && (a.useful[0] < a.zin[0] || a.useful[1] > a.zin[1] || a.useful[2] < a.zin[2] || a.useful[3] > a.zin[3])
            {
                return Err(Error::BadArgument("the useful part of zin lies outside zin".into()));
            }
            check_addr(zin, w * zi * zj * nk, "zin")?;
            Ok(())
        })();
        let mut payload = vec![a.nk as u32, a.nz as u32, a.gni as u32, a.gnj as u32, a.ltok as u32];
        payload.extend(a.window.iter().map(|&v| v as u32));
        payload.extend(a.outpe_x.iter().chain(&a.outpe_y).map(|&v| v as u32));
        let rows = self.agree(&comm, id, &local, &payload)?;
        local?;
        if let Some(pe) = rows.iter().position(|r| r != &rows[0]) {
            return Err(Error::Collective(format!(
                "{}: PE {pe} passes other (nk, nz, gni, gnj, ltok, window, output PEs) than PE 0",
                id.name()
            )));
        }
        let places = level_places(nk, nox, noy);
        let dest_of = |k: usize| {
            let (l, r, _) = places[k];
            grid.grid_rank(a.outpe_x[l] as usize, a.outpe_y[r] as usize)
        };
        let piece = |p: usize| {
            let (x, y) = grid.grid_coords(p);
            w * span(fx[x]) * span(fy[y])
        };
        // this PE's pieces, level by level, to each level's output PE
        let mut send_counts = vec![0usize; n];
        let mut per_dest: Vec<Vec<u32>> = vec![Vec::new(); n];
        if piece(me) > 0 {
            // SAFETY: zin's shape is the caller's promise (checked to hold the useful part).
            let z = unsafe { words_of(zin, w * zi * zj * nk) };
            for k in 0..nk {
                let d = dest_of(k);
                for j in a.useful[2]..=a.useful[3] {
                    let row = w * ((a.useful[0] - a.zin[0]) as usize + zi * ((j - a.zin[2]) as usize + zj * k));
                    per_dest[d].extend_from_slice(&z[row..row + w * (a.useful[1] - a.useful[0] + 1) as usize]);
                }
                send_counts[d] += piece(me) * 4;
            }
        }
        let mine: Vec<usize> = (0..nk).filter(|&k| dest_of(k) == me).collect();
        if !mine.is_empty() {
            check_addr(zout, w * oi * oj * nz, "zout")?;
        }
        let recv_counts: Vec<usize> = (0..n).map(|p| mine.len() * piece(p) * 4).collect();
        let send: Vec<u32> = per_dest.concat();
        let recv = to_words(&self.transport.alltoallv(&comm, as_bytes(&send), &send_counts, &recv_counts)?);
        if mine.is_empty() {
            return Ok(());
        }
        // SAFETY: zout's shape is the caller's promise (nz planes of the window).
        let out = unsafe { words_of_mut(zout, w * oi * oj * nz) };
        let mut from = recv.iter();
        for p in 0..n {
            let (x, y) = grid.grid_coords(p);
            let (xr, yr) = (fx[x], fy[y]);
            if piece(p) == 0 {
                continue;
            }
            for &k in &mine {
                let plane = places[k].2;
                for j in yr.0..=yr.1 {
                    let at = w * ((xr.0 - i64::from(a.window[0])) as usize + oi * ((j - i64::from(a.window[2])) as usize + oj * plane));
                    for v in &mut out[at..at + w * span(xr)] {
                        *v = *from.next().unwrap_or(&0);
                    }
                }
            }
        }
        for &k in &mine {
            zlist[places[k].2] = k as i32 + 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_dealt_to_columns_then_rows() {
        // 5 levels, 2 columns, 2 rows: column 0 gets 1..3, column 1 gets 4..5
        let p = level_places(5, 2, 2);
        assert_eq!(p, vec![(0, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 0), (1, 1, 0)]);
    }

    #[test]
    fn fragments_are_the_window_in_each_tile() {
        // 10 points over 3 PEs: 4, 4, 2; window 3..9
        assert_eq!(fragments(10, 3, 3, 9), vec![(3, 4), (5, 8), (9, 9)]);
        assert_eq!(fragments(10, 3, 5, 6), vec![(5, 4), (5, 6), (9, 6)]);
    }
}
