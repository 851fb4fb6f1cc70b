//! The geometry of the rest of the original's halo family, built on the plain exchange
//! (`core::halo`): the pole flip that `npol_row < -pe_ny` adds (RPN_COMM_haloflip), the halo
//! points RPN_COMM_propagate_pilot_circular fills, and the checks of RPN_COMM_xch_halox.

use super::halo::{HaloBox, HaloCall};
use crate::core::Grid;
use crate::error::{Error, Result};

/// The pole whose halo rows a PE replaces by the rows across it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pole {
    /// The last row of PEs: halo rows nj+1..nj+haloy.
    North,
    /// The first row of PEs: halo rows 0..1-haloy.
    South,
}

/// The pole this PE (in row `y` of `pey`) flips after the plain exchange, if any. As the
/// original: only with periodic y, a y halo and `npol_row < -pe_ny`; a PE that is both the first
/// and the last row (pe_ny = 1) flips the north halo only.
pub fn pole_of(c: &HaloCall, pey: usize, y: usize) -> Option<Pole> {
    if !flip_requested(c, pey) {
        return None;
    }
    if y + 1 == pey {
        Some(Pole::North)
    } else if y == 0 {
        Some(Pole::South)
    } else {
        None
    }
}

/// Whether the call asks for the pole flip on a grid of `pey` rows of PEs (every PE decides
/// alike): periodic y, a y halo and `npol_row < -pe_ny`, as the original.
pub fn flip_requested(c: &HaloCall, pey: usize) -> bool {
    c.periody && c.haloy >= 1 && i64::from(c.npol_row) < -(pey as i64)
}

/// For halo row `t` (1..=haloy) of `pole`: the row it is written to and the row (of the PE
/// across the pole) it comes from. Rows are mirrored: the halo row next to the pole gets the
/// row next to the pole.
pub fn flip_rows(nj: i32, pole: Pole, t: i32) -> (i32, i32) {
    match pole {
        Pole::North => (nj + t, nj + 1 - t),
        Pole::South => (1 - t, t),
    }
}

/// The global column (1..=gni) whose value goes to local column `l` of a PE whose first own
/// point is global column `offset + 1`, in an array whose first dimension starts at `minx`:
/// half the globe away, wrapped as the original wraps it (the whole array's span is moved back
/// by gni when it starts past gni; a column still past gni wraps once more). None: the original
/// leaves that column as the plain exchange left it (its source would be before column 1 or a
/// second turn around the globe).
pub fn flip_column(offset: i32, l: i32, minx: i32, gni: i32) -> Option<i32> {
    let half = gni / 2;
    let start = offset + minx + half;
    let shift = if start > gni { gni } else { 0 };
    let mut g = offset + l + half - shift;
    if g > gni {
        g -= gni;
    }
    (1..=gni).contains(&g).then_some(g)
}

/// The PEs of a pole row as the flip sees them: every PE's ni in x order, their global offsets
/// (each PE's part follows its west neighbour's), and who owns a global column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlipRow {
    /// Points of each PE of the row, west to east.
    pub ni: Vec<i32>,
    /// Global column before each PE's first point.
    pub offset: Vec<i32>,
}

impl FlipRow {
    /// The row of PEs with these `ni`, west to east, for a globe of `gni` columns. None when
    /// the original would not flip (`gni < ni` of some PE, e.g. gni = 0); refused when the parts
    /// do not add up to gni (the columns across the pole would be somebody else's).
    pub fn new(ni: Vec<i32>, gni: i32) -> Result<Option<Self>> {
        if ni.iter().any(|&n| gni < n) {
            return Ok(None);
        }
        let total: i64 = ni.iter().map(|&n| i64::from(n)).sum();
        if total != i64::from(gni) {
            return Err(Error::BadArgument(format!(
                "npol_row < -pe_ny (pole flip): the ni of the pole row's PEs add up to {total}, not gni = {gni}"
            )));
        }
        let offset = ni.iter().scan(0, |acc, &n| Some(std::mem::replace(acc, *acc + n))).collect();
        Ok(Some(FlipRow { ni, offset }))
    }

    /// The PE (index in the row) owning global column `g`, and the column in its part.
    pub fn owner(&self, g: i32) -> Option<(usize, i32)> {
        let p = self.offset.partition_point(|&o| o < g).checked_sub(1)?;
        (g - self.offset[p] <= self.ni[p]).then(|| (p, g - self.offset[p]))
    }

    /// The widest part (every PE's packed rows are that wide).
    pub fn widest(&self) -> i32 {
        self.ni.iter().copied().max().unwrap_or(0)
    }
}

/// The pairs of neighbours of a column of `pey` PEs (`periodic`: the last and the first too),
/// each (south PE, phase): PEs exchange pair by pair, a PE in at most one pair per phase, so
/// that both PEs of a pair make one RPN_COMM_sendrecv with each other (RPN_COMM_swapns) and no PE waits on a PE
/// busy elsewhere.
pub fn column_pairs(pey: usize, periodic: bool) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = (0..pey.saturating_sub(1)).map(|a| (a, a % 2)).collect();
    if periodic && pey > 1 {
        pairs.push((pey - 1, if pey.is_multiple_of(2) { 1 } else { 2 }));
    }
    pairs.sort_by_key(|&(a, phase)| (phase, a));
    pairs
}

/// The halo boxes RPN_COMM_propagate_pilot_circular fills on the PE at (`x`, `y`) of `grid`,
/// for a part of `lni` x `lnj` points, pilot zones `pilx` wide along x and `pily` along y,
/// halos `hx`, `hy`: on a PE at the edge of the (limited-area) domain, the halo points next to
/// the pilot zone, from the neighbours along the edge; nothing elsewhere nor on a single PE.
/// The same boxes the original fills, case by case (a PE on one column or one row of PEs gets
/// whole rows or columns of halo).
#[allow(clippy::too_many_arguments)]
pub fn pilot_boxes(grid: &Grid, x: usize, y: usize, lni: i32, lnj: i32, pilx: i32, pily: i32, hx: i32, hy: i32) -> Vec<HaloBox> {
    let (north, south, east, west) = (y + 1 == grid.pey, y == 0, x + 1 == grid.pex, x == 0);
    if !(north || south || east || west) || (grid.pex == 1 && grid.pey == 1) {
        return Vec::new();
    }
    let b = |i: (i32, i32), j: (i32, i32)| HaloBox { i, j };
    let mut boxes = Vec::new();
    if grid.pex == 1 {
        // one column of PEs: whole halo rows from the PEs above and below
        if !north {
            boxes.push(b((1, lni), (lnj + 1, lnj + hy)));
        }
        if !south {
            boxes.push(b((1, lni), (1 - hy, 0)));
        }
        return boxes;
    }
    if grid.pey == 1 {
        // one row of PEs: whole halo columns from the PEs on each side
        if !east {
            boxes.push(b((lni + 1, lni + hx), (1, lnj)));
        }
        if !west {
            boxes.push(b((1 - hx, 0), (1, lnj)));
        }
        return boxes;
    }
    let top = (lnj + 1 - pily, lnj);
    let bottom = (1, pily);
    let left = (1, pilx);
    let right = (lni + 1 - pilx, lni);
    let west_halo = (1 - hx, 0);
    let east_halo = (lni + 1, lni + hx);
    let north_halo = (lnj + 1, lnj + hy);
    let south_halo = (1 - hy, 0);
    let f1 = b(west_halo, top);
    let f2 = b(left, north_halo);
    let f3 = b(right, north_halo);
    let f4 = b(east_halo, top);
    let f5 = b(east_halo, bottom);
    let f6 = b(right, south_halo);
    let f7 = b(left, south_halo);
    let f8 = b(west_halo, bottom);
    boxes.extend(match (north, south, east, west) {
        (true, _, _, true) => [f7, f4],
        (true, _, true, _) => [f1, f6],
        (_, true, _, true) => [f5, f2],
        (_, true, true, _) => [f3, f8],
        (true, ..) => [f1, f4],
        (_, true, ..) => [f5, f8],
        (_, _, true, _) => [f3, f6],
        _ => [f7, f2],
    });
    boxes
}

/// The halo points around `c`'s part (within halox, haloy of it) that lie in none of `boxes`, as
/// runs (j, first i, last i) of one level: what RPN_COMM_propagate_pilot_circular keeps while
/// the plain exchange fills every halo.
pub fn kept_runs(c: &HaloCall, boxes: &[HaloBox]) -> Vec<(i32, i32, i32)> {
    let inside = |b: &HaloBox, i: i32, j: i32| (b.i.0..=b.i.1).contains(&i) && (b.j.0..=b.j.1).contains(&j);
    let mut runs = Vec::new();
    for j in 1 - c.haloy..=c.nj + c.haloy {
        let mut open: Option<i32> = None;
        for i in 1 - c.halox..=c.ni + c.halox + 1 {
            let kept =
                i <= c.ni + c.halox && !((1..=c.ni).contains(&i) && (1..=c.nj).contains(&j)) && !boxes.iter().any(|b| inside(b, i, j));
            match (kept, open) {
                (true, None) => open = Some(i),
                (false, Some(first)) => {
                    runs.push((j, first, i - 1));
                    open = None;
                }
                _ => {}
            }
        }
    }
    runs
}

/// RPN_COMM_propagate_pilot_circular's own arguments: zones inside the part, halos not negative.
pub fn check_pilot(lni: i32, lnj: i32, pilx: i32, pily: i32) -> Result<()> {
    if !(0..=lni).contains(&pilx) || !(0..=lnj).contains(&pily) {
        return Err(Error::BadArgument(format!(
            "pilx = {pilx}, pily = {pily}: the pilot zones must lie inside the part (0..=lni = {lni}, 0..=lnj = {lnj})"
        )));
    }
    Ok(())
}

/// RPN_COMM_xch_halox's source array g(minx:maxx, miny:maxy, nk) must hold the part 1..ni x 1..nj
/// it copies into the wider array.
pub fn check_halox_source(minx: i32, maxx: i32, miny: i32, maxy: i32, ni: i32, nj: i32) -> Result<()> {
    if minx > 1 || maxx < ni || miny > 1 || maxy < nj {
        return Err(Error::BadArgument(format!(
            "g(minx:maxx, miny:maxy) = g({minx}:{maxx}, {miny}:{maxy}) cannot hold the part 1:{ni} x 1:{nj} copied into g2"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn column_pairs_meet_once_per_phase() {
        for pey in 2..8 {
            for periodic in [false, true] {
                let pairs = column_pairs(pey, periodic);
                assert_eq!(pairs.len(), pey - 1 + usize::from(periodic));
                for phase in 0..3 {
                    let mut seen = vec![0; pey];
                    for &(a, _) in pairs.iter().filter(|p| p.1 == phase) {
                        seen[a] += 1;
                        seen[(a + 1) % pey] += 1;
                    }
                    assert!(seen.iter().all(|&n| n <= 1), "pey {pey} periodic {periodic} phase {phase}");
                }
            }
        }
    }

    use super::*;

    fn call(ni: i32, nj: i32, h: i32) -> HaloCall {
        HaloCall {
            minx: 1 - h,
            maxx: ni + h,
            miny: 1 - h,
            maxy: nj + h,
            ni,
            nj,
            nk: 1,
            halox: h,
            haloy: h,
            periodx: true,
            periody: true,
            gni: 0,
            npol_row: -999_999,
            words: 1,
        }
    }

    #[test]
    fn only_far_negative_npol_row_with_periodic_y_flips() {
        let mut c = call(4, 4, 1);
        assert_eq!(pole_of(&c, 2, 1), Some(Pole::North));
        assert_eq!(pole_of(&c, 2, 0), Some(Pole::South));
        assert_eq!(pole_of(&c, 3, 1), None, "a middle row");
        assert_eq!(pole_of(&c, 1, 0), Some(Pole::North), "one row: the north only, as the original");
        c.npol_row = -2;
        assert_eq!(pole_of(&c, 2, 1), None, "-2 is not below -pe_ny = -2");
        c.npol_row = -3;
        assert_eq!(pole_of(&c, 2, 1), Some(Pole::North));
        c.periody = false;
        assert_eq!(pole_of(&c, 2, 1), None);
        c.periody = true;
        c.haloy = 0;
        assert_eq!(pole_of(&c, 2, 1), None);
    }

    #[test]
    fn columns_come_from_half_a_globe_away() {
        // gni = 8, a PE from column 5 (offset 4), array -1..6: its columns 3..10
        let got: Vec<_> = (-1..=6).map(|l| flip_column(4, l, -1, 8)).collect();
        // shifted by 4 (gni / 2): 7, 8, then wrapped 1..6
        assert_eq!(got, vec![Some(7), Some(8), Some(1), Some(2), Some(3), Some(4), Some(5), Some(6)]);
        // first PE, halo 3, gni 4: start = 0 + -2 + 2 = 0 (not past gni): column -2 maps to 0, left alone
        assert_eq!(flip_column(0, -2, -2, 4), None);
        assert_eq!(flip_column(0, -1, -2, 4), Some(1));
        assert_eq!(flip_column(0, 3, -2, 4), Some(1), "5 wraps to 1");
    }

    #[test]
    fn rows_are_mirrored_at_the_pole() {
        assert_eq!(flip_rows(6, Pole::North, 1), (7, 6));
        assert_eq!(flip_rows(6, Pole::North, 2), (8, 5));
        assert_eq!(flip_rows(6, Pole::South, 1), (0, 1));
        assert_eq!(flip_rows(6, Pole::South, 2), (-1, 2));
    }

    #[test]
    fn flip_row_owners_and_refusals() {
        let r = FlipRow::new(vec![3, 3, 2], 8).unwrap().unwrap();
        assert_eq!(r.offset, vec![0, 3, 6]);
        assert_eq!(r.owner(1), Some((0, 1)));
        assert_eq!(r.owner(4), Some((1, 1)));
        assert_eq!(r.owner(8), Some((2, 2)));
        assert_eq!(r.owner(9), None);
        assert_eq!(r.owner(0), None);
        assert!(FlipRow::new(vec![3, 3], 8).unwrap_err().to_string().contains("add up to 6"));
        assert_eq!(FlipRow::new(vec![3, 3], 0).unwrap(), None, "gni < ni: no flip, as the original");
    }

    #[test]
    fn pilot_boxes_follow_the_edge() {
        let g = Grid::xy(3, 3);
        assert!(pilot_boxes(&g, 1, 1, 6, 5, 3, 2, 1, 1).is_empty(), "interior PE");
        let nw = pilot_boxes(&g, 0, 2, 6, 5, 3, 2, 1, 1);
        assert_eq!(nw, vec![HaloBox { i: (1, 3), j: (0, 0) }, HaloBox { i: (7, 7), j: (4, 5) }]);
        let s = pilot_boxes(&g, 1, 0, 6, 5, 3, 2, 1, 1);
        assert_eq!(s, vec![HaloBox { i: (7, 7), j: (1, 2) }, HaloBox { i: (0, 0), j: (1, 2) }]);
        let col = Grid::xy(1, 3);
        assert_eq!(pilot_boxes(&col, 0, 2, 6, 5, 3, 2, 1, 1), vec![HaloBox { i: (1, 6), j: (0, 0) }]);
        assert!(pilot_boxes(&Grid::xy(1, 1), 0, 0, 6, 5, 3, 2, 1, 1).is_empty());
    }

    #[test]
    fn kept_runs_cover_the_frame_outside_the_boxes() {
        let c = call(3, 2, 1);
        let all = kept_runs(&c, &[]);
        assert_eq!(all, vec![(0, 0, 4), (1, 0, 0), (1, 4, 4), (2, 0, 0), (2, 4, 4), (3, 0, 4)]);
        let some = kept_runs(&c, &[HaloBox { i: (1, 3), j: (3, 3) }]);
        assert_eq!(some.last(), Some(&(3, 4, 4)));
        assert!(some.contains(&(3, 0, 0)));
    }

    #[test]
    fn argument_checks() {
        assert!(check_pilot(5, 5, 5, 0).is_ok());
        assert!(check_pilot(5, 5, 6, 0).is_err());
        assert!(check_halox_source(1, 4, 0, 4, 4, 4).is_ok());
        assert!(check_halox_source(1, 3, 0, 4, 4, 4).unwrap_err().to_string().contains("cannot hold"));
    }
}
