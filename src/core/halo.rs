//! The geometry of RPN_COMM_xch_halo: the arguments of one call, their validation, the
//! neighbours on the PE grid and the boxes a PE sends and fills, and RPN_COMM_limit's
//! decomposition of a global dimension. Every refusal of a halo exchange happens here.

use super::Grid;
use crate::error::{Error, Result};

/// The arguments of one RPN_COMM_xch_halo(n) call, as the caller gave them. The array is
/// `g(minx:maxx, miny:maxy, nk)` of elements of `words` 4-byte words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HaloCall {
    /// Lower bound of the first dimension.
    pub minx: i32,
    /// Upper bound of the first dimension.
    pub maxx: i32,
    /// Lower bound of the second dimension.
    pub miny: i32,
    /// Upper bound of the second dimension.
    pub maxy: i32,
    /// Points this PE owns along x (1..ni).
    pub ni: i32,
    /// Points this PE owns along y (1..nj).
    pub nj: i32,
    /// Levels.
    pub nk: i32,
    /// Halo width along x.
    pub halox: i32,
    /// Halo width along y.
    pub haloy: i32,
    /// Periodic along x.
    pub periodx: bool,
    /// Periodic along y.
    pub periody: bool,
    /// Global points along x (used by the polar path only).
    pub gni: i32,
    /// The polar exchange row (0: none; the only value supported).
    pub npol_row: i32,
    /// 4-byte words per element (1 for xch_halo, n for xch_halon).
    pub words: i32,
}

/// Which direction a box of the array lies in: the 3-D index ranges (1-based, inclusive, as the
/// Fortran caller numbers them) of a part of `g`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HaloBox {
    /// First-dimension range.
    pub i: (i32, i32),
    /// Second-dimension range.
    pub j: (i32, i32),
}

impl HaloBox {
    /// Points of one level of the box.
    pub fn points(&self) -> usize {
        ((self.i.1 - self.i.0 + 1).max(0) * (self.j.1 - self.j.0 + 1).max(0)) as usize
    }
}

impl HaloCall {
    /// The bytes of one element.
    pub fn elem_bytes(&self) -> usize {
        4 * self.words as usize
    }

    /// Points of one level of the array (its leading dimensions).
    pub fn level_points(&self) -> usize {
        ((self.maxx - self.minx + 1) * (self.maxy - self.miny + 1)) as usize
    }

    /// Element offset of (i, j, k) (k 1-based) in the array.
    pub fn offset(&self, i: i32, j: i32, k: i32) -> usize {
        let lx = (self.maxx - self.minx + 1) as usize;
        let ly = (self.maxy - self.miny + 1) as usize;
        ((k - 1) as usize * ly + (j - self.miny) as usize) * lx + (i - self.minx) as usize
    }

    /// The checks this PE can make on its own arguments.
    pub fn validate_local(&self) -> Result<()> {
        let bad = |what: String| Err(Error::BadArgument(what));
        if self.npol_row != 0 {
            return bad(format!("npol_row = {}: only npol_row = 0 is supported (no polar exchange)", self.npol_row));
        }
        if self.words < 1 {
            return bad(format!("n = {}: an element is at least one 4-byte word", self.words));
        }
        for (name, v) in [("ni", self.ni), ("nj", self.nj), ("nk", self.nk)] {
            if v < 1 {
                return bad(format!("{name} = {v}: must be at least 1"));
            }
        }
        for (name, v) in [("halox", self.halox), ("haloy", self.haloy)] {
            if v < 0 {
                return bad(format!("{name} = {v}: must not be negative"));
            }
        }
        if self.minx > 1 - self.halox || self.maxx < self.ni + self.halox {
            return bad(format!(
                "minx:maxx = {}:{} cannot hold ni = {} with halox = {} (needs {}:{} at least)",
                self.minx,
                self.maxx,
                self.ni,
                self.halox,
                1 - self.halox,
                self.ni + self.halox
            ));
        }
        if self.miny > 1 - self.haloy || self.maxy < self.nj + self.haloy {
            return bad(format!(
                "miny:maxy = {}:{} cannot hold nj = {} with haloy = {} (needs {}:{} at least)",
                self.miny,
                self.maxy,
                self.nj,
                self.haloy,
                1 - self.haloy,
                self.nj + self.haloy
            ));
        }
        Ok(())
    }

    /// What every PE tells the others (and what the others check against their own).
    pub fn shape_payload(&self) -> [u32; 8] {
        [
            self.ni as u32,
            self.nj as u32,
            self.nk as u32,
            self.halox as u32,
            self.haloy as u32,
            (self.periodx as u32) | ((self.periody as u32) << 1),
            self.gni as u32,
            self.words as u32,
        ]
    }
}

/// One PE's view of its neighbours for a halo exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Neighbours {
    /// Neighbour towards lower x.
    pub west: Option<usize>,
    /// Neighbour towards higher x.
    pub east: Option<usize>,
    /// Neighbour towards lower y.
    pub south: Option<usize>,
    /// Neighbour towards higher y.
    pub north: Option<usize>,
}

impl Neighbours {
    /// The neighbours of job rank `me`: the next PE along the row or column, wrapping around
    /// in a periodic direction (one PE in a periodic direction is its own neighbour), none
    /// beyond a non-periodic outer edge.
    pub fn of(grid: &Grid, me: usize, periodx: bool, periody: bool) -> Self {
        let (x, y) = grid.coords(me);
        let at = |x: usize, y: usize| y * grid.pex + x;
        let step = |c: usize, n: usize, up: bool, periodic: bool| -> Option<usize> {
            match (up, periodic) {
                (false, _) if c > 0 => Some(c - 1),
                (false, true) => Some(n - 1),
                (true, _) if c + 1 < n => Some(c + 1),
                (true, true) => Some(0),
                _ => None,
            }
        };
        Neighbours {
            west: step(x, grid.pex, false, periodx).map(|x| at(x, y)),
            east: step(x, grid.pex, true, periodx).map(|x| at(x, y)),
            south: step(y, grid.pey, false, periody).map(|y| at(x, y)),
            north: step(y, grid.pey, true, periody).map(|y| at(x, y)),
        }
    }
}

/// Checks every PE's shape (`shapes[r]`: `HaloCall::shape_payload` of rank r) against its
/// neighbours'. Every PE judges all of them, so every PE reaches the same verdict.
pub fn check_shapes(grid: &Grid, shapes: &[Vec<u32>]) -> Result<()> {
    let s = |r: usize, f: usize| shapes[r][f] as i32;
    for f in 3..8 {
        if let Some(pe) = (0..shapes.len()).find(|&r| shapes[r][f] != shapes[0][f]) {
            let name = ["halox", "haloy", "periodx/periody", "gni", "n (words per element)"][f - 3];
            return Err(Error::Collective(format!("PE {pe} gives {name} = {}, PE 0 {}", s(pe, f), s(0, f))));
        }
    }
    let (periodx, periody) = (shapes[0][5] & 1 != 0, shapes[0][5] & 2 != 0);
    for me in 0..shapes.len() {
        let n = Neighbours::of(grid, me, periodx, periody);
        if s(me, 2) != s(0, 2) {
            return Err(Error::Collective(format!("PE {me} gives nk = {}, PE 0 nk = {}", s(me, 2), s(0, 2))));
        }
        for other in [n.west, n.east].into_iter().flatten() {
            if s(other, 1) != s(me, 1) {
                return Err(Error::Collective(format!(
                    "PEs {me} and {other} of one row disagree on nj ({} and {})",
                    s(me, 1),
                    s(other, 1)
                )));
            }
            if s(me, 3) > s(other, 0) {
                return Err(Error::Collective(format!(
                    "halox = {} is wider than PE {other}'s ni = {}",
                    s(me, 3),
                    s(other, 0)
                )));
            }
        }
        for other in [n.south, n.north].into_iter().flatten() {
            if s(other, 0) != s(me, 0) {
                return Err(Error::Collective(format!(
                    "PEs {me} and {other} of one column disagree on ni ({} and {})",
                    s(me, 0),
                    s(other, 0)
                )));
            }
            if s(me, 4) > s(other, 1) {
                return Err(Error::Collective(format!(
                    "haloy = {} is wider than PE {other}'s nj = {}",
                    s(me, 4),
                    s(other, 1)
                )));
            }
        }
    }
    Ok(())
}

/// The boxes of the east/west phase: what this PE sends west and east (its own columns next to
/// those edges), and the halos it fills from its west and east neighbours, over rows 1..nj.
pub fn east_west_boxes(c: &HaloCall) -> [HaloBox; 4] {
    let rows = (1, c.nj);
    [
        HaloBox { i: (1, c.halox), j: rows },
        HaloBox { i: (c.ni - c.halox + 1, c.ni), j: rows },
        HaloBox { i: (1 - c.halox, 0), j: rows },
        HaloBox { i: (c.ni + 1, c.ni + c.halox), j: rows },
    ]
}

/// The boxes of the north/south phase, corners included: the rows next to the south and north
/// edges, and the halos below and above, over the columns the east/west phase filled (the
/// x halo beyond a non-periodic outer edge is not part of them: it is left as it was).
pub fn north_south_boxes(c: &HaloCall, n: &Neighbours) -> [HaloBox; 4] {
    let lo = if n.west.is_some() { 1 - c.halox } else { 1 };
    let hi = if n.east.is_some() { c.ni + c.halox } else { c.ni };
    let cols = (lo, hi);
    [
        HaloBox { i: cols, j: (1, c.haloy) },
        HaloBox { i: cols, j: (c.nj - c.haloy + 1, c.nj) },
        HaloBox { i: cols, j: (1 - c.haloy, 0) },
        HaloBox { i: cols, j: (c.nj + 1, c.nj + c.haloy) },
    ]
}

/// RPN_COMM_limit (the original's strict decomposition): `gmin..=gmax` cut over `npe` PEs in
/// tiles of ceiling(points / npe), the last one taking what is left, which must not be empty.
/// Returns (lmini, lmaxi) of PE `my_id` and every PE's count and offset (from gmin).
pub fn limit(my_id: i32, npe: i32, gmin: i32, gmax: i32) -> Result<(i32, i32, Vec<i32>, Vec<i32>)> {
    if npe < 1 || my_id < 0 || my_id >= npe {
        return Err(Error::BadArgument(format!("my_id = {my_id} is not a PE of npe = {npe}")));
    }
    let total = gmax - gmin + 1;
    let tile = (total + npe - 1).div_euclid(npe);
    let last = total - (npe - 1) * tile;
    if total < npe || last <= 0 {
        return Err(Error::BadArgument(format!(
            "{total} points ({gmin}..{gmax}) cannot be cut into {npe} tiles of {tile} with a non-empty last one"
        )));
    }
    let count: Vec<i32> = (0..npe).map(|p| if p + 1 < npe { tile } else { last }).collect();
    let offset: Vec<i32> = (0..npe).map(|p| p * tile).collect();
    let lmini = gmin + offset[my_id as usize];
    let lmaxi = gmax.min(lmini + count[my_id as usize] - 1);
    Ok((lmini, lmaxi, count, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(ni: i32, nj: i32, h: i32) -> HaloCall {
        HaloCall {
            minx: 1 - h,
            maxx: ni + h,
            miny: 1 - h,
            maxy: nj + h,
            ni,
            nj,
            nk: 2,
            halox: h,
            haloy: h,
            periodx: false,
            periody: false,
            gni: 0,
            npol_row: 0,
            words: 1,
        }
    }

    #[test]
    fn limit_cuts_as_the_original_strict_mode() {
        let (lo, hi, count, offset) = limit(2, 4, 1, 10).unwrap();
        assert_eq!(count, vec![3, 3, 3, 1]);
        assert_eq!(offset, vec![0, 3, 6, 9]);
        assert_eq!((lo, hi), (7, 9));
        assert!(limit(0, 4, 1, 9).is_err(), "3+3+3 leaves nothing for the last PE");
        assert!(limit(0, 4, 1, 3).is_err());
        assert!(limit(4, 4, 1, 100).is_err());
    }

    #[test]
    fn neighbours_wrap_only_when_periodic() {
        let g = Grid { pex: 3, pey: 2 };
        let n = Neighbours::of(&g, 0, false, false);
        assert_eq!(n, Neighbours { west: None, east: Some(1), south: None, north: Some(3) });
        let n = Neighbours::of(&g, 0, true, true);
        assert_eq!(n, Neighbours { west: Some(2), east: Some(1), south: Some(3), north: Some(3) });
        let one = Grid { pex: 1, pey: 1 };
        assert_eq!(Neighbours::of(&one, 0, true, false).west, Some(0));
    }

    #[test]
    fn local_checks_refuse_npol_row_and_short_bounds() {
        assert!(call(4, 4, 2).validate_local().is_ok());
        let mut c = call(4, 4, 2);
        c.npol_row = 1;
        assert!(c.validate_local().unwrap_err().to_string().contains("npol_row"));
        let mut c = call(4, 4, 2);
        c.maxx = 5;
        assert!(c.validate_local().unwrap_err().to_string().contains("minx:maxx"));
    }

    #[test]
    fn neighbours_must_agree_and_parts_hold_the_halo() {
        let g = Grid { pex: 2, pey: 1 };
        let ok = [call(4, 5, 2).shape_payload().to_vec(), call(3, 5, 2).shape_payload().to_vec()];
        assert!(check_shapes(&g, &ok).is_ok());
        let bad_nj = [call(4, 5, 2).shape_payload().to_vec(), call(4, 6, 2).shape_payload().to_vec()];
        assert!(check_shapes(&g, &bad_nj).unwrap_err().to_string().contains("nj"));
        let narrow = [call(4, 5, 3).shape_payload().to_vec(), call(2, 5, 3).shape_payload().to_vec()];
        assert!(check_shapes(&g, &narrow).unwrap_err().to_string().contains("halox"));
    }

    #[test]
    fn corners_stop_at_non_periodic_edges() {
        let g = Grid { pex: 2, pey: 2 };
        let c = call(4, 4, 1);
        let b = north_south_boxes(&c, &Neighbours::of(&g, 0, false, false));
        assert_eq!(b[3], HaloBox { i: (1, 5), j: (5, 5) });
        assert_eq!(c.offset(c.minx, c.miny, 1), 0);
        assert_eq!(c.offset(1, 1, 2), 36 + 7);
    }
}
