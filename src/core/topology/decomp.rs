//! How a global index range is cut into tiles along one axis of the PE grid
//! (RPN_COMM_limit_2, RPN_COMM_topo_2), with the original's five modes (`relax`), so that a model
//! gets the same decomposition from this library as from the original.

/// The tiles of `gmin..=gmax` over `npe` PEs: `count[i]` points for the PE of ordinal i,
/// starting `offset[i]` points after `gmin`; this PE's tile is `lmin..=lmax`. When `valid` is
/// false the cut is impossible in that mode: `lmin = lmax = -1`, and `count` and `offset` hold what
/// the original leaves in them then (the first, ceiling-sized attempt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tiles {
    /// First global index of this PE's tile.
    pub lmin: i32,
    /// Last global index of this PE's tile (`lmin - 1` for an empty tile).
    pub lmax: i32,
    /// Points of each PE's tile.
    pub count: Vec<i32>,
    /// Start of each PE's tile, counted from `gmin`.
    pub offset: Vec<i32>,
    /// Whether the cut is possible in the mode asked for.
    pub valid: bool,
}

/// Cuts `gmin..=gmax` into `npe` tiles (`npe >= 1`, `0 <= my_id < npe`, checked by the caller).
/// `relax`:
/// - 0: every tile has ceiling(n / npe) points but the last, which is shorter and not empty;
/// - 1: tiles of floor or ceiling(n / npe), the longer ones first, none empty (0's cut when it works);
/// - 2: as 1, empty tiles at the end allowed when there are fewer points than PEs;
/// - 3: ceiling-sized tiles, then a shorter one, then empty ones;
/// - 4: floor(n / npe) each, the remainder spread over the PEs as evenly as possible.
pub fn limit(my_id: usize, npe: usize, gmin: i32, gmax: i32, relax: i32) -> Tiles {
    let total = i64::from(gmax) - i64::from(gmin) + 1;
    let n = npe as i64;
    let mut offset = vec![0i64; npe];
    let mut valid = true;
    let count: Vec<i64> = if relax == 4 {
        let mut count = vec![total.div_euclid(n); npe];
        let extra = total - total.div_euclid(n) * n;
        // The original places extra point k (1-based) at tile nint(k * npe / extra), in single
        // precision: the same arithmetic here gives the same tiles.
        let delta = npe as f32 / extra as f32;
        for k in 1..=extra {
            let at = (k as f32 * delta).round() as i64;
            if let Some(c) = usize::try_from(at - 1).ok().and_then(|i| count.get_mut(i)) {
                *c += 1;
            }
        }
        count
    } else {
        let ceil = (total + n - 1).div_euclid(n);
        // Ceiling-sized tiles until the points run out (the modes 2 and 3 cut, and what is left
        // in `count` when a cut is impossible).
        let mut count = vec![ceil; npe];
        let mut used = ceil;
        for i in 1..npe {
            count[i] = count[i].min(total - used);
            offset[i] = offset[i - 1] + count[i - 1];
            used += count[i];
        }
        if total < n {
            valid = relax >= 2;
        } else if relax != 3 {
            let last = total - (n - 1) * ceil;
            if last > 0 {
                count.fill(ceil);
                count[npe - 1] = last;
            } else if relax == 0 {
                valid = false;
            } else {
                let floor = total.div_euclid(n);
                count.fill(floor);
                for c in count.iter_mut().take(total.rem_euclid(n) as usize) {
                    *c += 1;
                }
            }
        }
        count
    };
    let narrow = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    if !valid {
        return Tiles {
            lmin: -1,
            lmax: -1,
            count: count.into_iter().map(narrow).collect(),
            offset: offset.into_iter().map(narrow).collect(),
            valid,
        };
    }
    for i in 1..npe {
        offset[i] = offset[i - 1] + count[i - 1];
    }
    let lmin = i64::from(gmin) + offset[my_id];
    let lmax = i64::from(gmax).min(lmin + count[my_id] - 1);
    Tiles {
        lmin: narrow(lmin),
        lmax: narrow(lmax),
        count: count.into_iter().map(narrow).collect(),
        offset: offset.into_iter().map(narrow).collect(),
        valid,
    }
}

/// What RPN_COMM_topo_2 returns for this PE's tile of `1..=nglobal` along an axis of `npe` PEs:
/// the array bounds `min..=max` (the halo and, with `fill`, an odd length), the tile's length
/// `nl` (the original's `nxl`), the length of the largest tile `nlmax` and the tile's start `n0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Topo {
    /// Lower bound of the local array (1 - halo).
    pub min: i32,
    /// Upper bound of the local array.
    pub max: i32,
    /// Points of this PE's tile.
    pub nl: i32,
    /// Points of the largest tile.
    pub nlmax: i32,
    /// First global index of this PE's tile.
    pub n0: i32,
}

/// RPN_COMM_topo_2's bounds from the tiles of `1..=nglobal` (None: the cut is impossible).
pub fn topo(my_id: usize, npe: usize, nglobal: i32, halo: i32, fill: bool, relax: i32) -> Option<Topo> {
    let t = limit(my_id, npe, 1, nglobal, relax);
    if !t.valid {
        return None;
    }
    let nlmax = t.count[0];
    let mut max = nlmax.saturating_add(halo);
    if fill {
        max = max.saturating_add(1 - nlmax.rem_euclid(2));
    }
    Some(Topo { min: 1 - halo, max, nl: t.lmax - t.lmin + 1, nlmax, n0: t.lmin })
}

/// RPN_COMM_topo_xy's cut of `1..=nglobal` along an axis of `npe` PEs for the PE at `me`:
/// every tile but the last has ceil(nglobal / npe) points. Returns the array bounds (`1 - halo`
/// and an upper bound with the halo that makes the longest tile odd) and this PE's points, zero
/// or less where the tiles run out before it (the call then fails, as the original's).
pub fn topo_xy_axis(nglobal: i32, npe: usize, me: usize, halo: i32) -> (i32, i32, i32) {
    let (ng, np, me, halo) = (i64::from(nglobal), npe.max(1) as i64, me as i64, i64::from(halo));
    let full = (ng + np - 1) / np;
    let max = full + halo + 1 - full % 2;
    let here = full.min(ng - full * me);
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    (clamp(1 - halo), clamp(max), clamp(here))
}

/// RPN_COMM_create_2dgrid's cut of `1..=n` along an axis of `npe` PEs, as the original's: every
/// tile but the last has ceil(n / npe) points, the last the rest. The tiles' starts and counts;
/// None when the rest is negative (fewer points than such tiles need; the original's last count
/// would be negative).
pub fn grid2d_axis(n: i32, npe: usize) -> Option<(Vec<i32>, Vec<i32>)> {
    let p = i32::try_from(npe).ok().filter(|&p| p > 0)?;
    let full = n.checked_add(p - 1)? / p;
    let last = n.checked_sub(full.checked_mul(p - 1)?)?;
    if n < 1 || last < 0 {
        return None;
    }
    let mut count = vec![full; npe];
    count[npe - 1] = last;
    let start = count.iter().scan(1, |next, c| {
        let s = *next;
        *next += c;
        Some(s)
    });
    Some((start.collect(), count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topo_xy_tiles() {
        // 10 points on 4 PEs: tiles of 3, 3, 3, 1 (3 is odd already: no point added)
        assert_eq!(topo_xy_axis(10, 4, 0, 2), (-1, 5, 3));
        assert_eq!(topo_xy_axis(10, 4, 3, 2), (-1, 5, 1));
        // 4 points on 3 PEs: tiles of 2, 2, 0 (the last PE has none)
        assert_eq!(topo_xy_axis(4, 3, 2, 0), (1, 3, 0));
    }

    /// RPN_COMM_create_2dgrid's tiles worked by hand: 10 over 4 is 3 3 3 1, 9 over 4 is
    /// 3 3 3 0, 5 over 4 (2 2 2 -1) is refused, 7 over 1 is 7.
    #[test]
    fn grid2d_axis_cuts_as_the_original() {
        assert_eq!(grid2d_axis(10, 4), Some((vec![1, 4, 7, 10], vec![3, 3, 3, 1])));
        assert_eq!(grid2d_axis(9, 4), Some((vec![1, 4, 7, 10], vec![3, 3, 3, 0])));
        assert_eq!(grid2d_axis(5, 4), None);
        assert_eq!(grid2d_axis(7, 1), Some((vec![1], vec![7])));
        assert_eq!(grid2d_axis(0, 2), None);
        assert_eq!(grid2d_axis(7, 0), None);
    }

    fn counts(npe: usize, n: i32, relax: i32) -> Option<Vec<i32>> {
        let t = limit(0, npe, 1, n, relax);
        t.valid.then_some(t.count)
    }

    /// Figures worked by hand from the rules of each mode (13 points, 6 PEs, and fewer points
    /// than PEs).
    #[test]
    fn the_five_modes() {
        assert_eq!(counts(6, 13, 0), None, "3 x 5 = 15 > 13: the last tile would be empty");
        assert_eq!(counts(4, 13, 0), Some(vec![4, 4, 4, 1]));
        assert_eq!(counts(6, 13, 1), Some(vec![3, 2, 2, 2, 2, 2]));
        assert_eq!(counts(6, 13, 2), Some(vec![3, 2, 2, 2, 2, 2]));
        assert_eq!(counts(6, 13, 3), Some(vec![3, 3, 3, 3, 1, 0]));
        // 13 = 6 x 2 + 1: the one extra point at tile nint(1 x 6 / 1) = 6
        assert_eq!(counts(6, 13, 4), Some(vec![2, 2, 2, 2, 2, 3]));
        // 10 = 4 x 2 + 2: extra points at nint(2) = 2 and nint(4) = 4
        assert_eq!(counts(4, 10, 4), Some(vec![2, 3, 2, 3]));
        assert_eq!(counts(6, 4, 1), None);
        assert_eq!(counts(6, 4, 2), Some(vec![1, 1, 1, 1, 0, 0]));
        assert_eq!(counts(6, 4, 4), Some(vec![0, 1, 1, 0, 1, 1]), "extra points at nint(1.5) = 2, 3, nint(4.5) = 5, 6");
    }

    #[test]
    fn tiles_cover_the_range_once() {
        for npe in 1..9usize {
            for n in 1..40 {
                for relax in 0..5 {
                    let all: Vec<Tiles> = (0..npe).map(|me| limit(me, npe, 3, n + 2, relax)).collect();
                    if !all[0].valid {
                        continue;
                    }
                    assert_eq!(all[0].count.iter().sum::<i32>(), n, "npe {npe} n {n} relax {relax}");
                    let mut next = 3;
                    for (me, t) in all.iter().enumerate() {
                        assert_eq!(t.count, all[0].count);
                        assert_eq!(t.lmin, next, "npe {npe} n {n} relax {relax} me {me}");
                        assert_eq!(t.lmax - t.lmin + 1, t.count[me]);
                        next = t.lmax + 1;
                    }
                }
            }
        }
    }

    #[test]
    fn topo_bounds() {
        // 13 points on 4 PEs, strict: tiles 4 4 4 1; the third PE holds 9..12
        let t = topo(2, 4, 13, 2, false, 0).unwrap();
        assert_eq!(t, Topo { min: -1, max: 6, nl: 4, nlmax: 4, n0: 9 });
        // fill: an odd leading dimension
        assert_eq!(topo(3, 4, 13, 0, true, 0).unwrap().max, 5);
        assert_eq!(topo(3, 4, 13, 0, true, 0).unwrap().nl, 1);
        assert!(topo(0, 6, 13, 0, false, 0).is_none());
    }
}
