//! Where the PEs of an I/O PE set sit on the PE grid (RPN_COMM_create_io_set,
//! RPN_COMM_io_pe_valid_set): the original's method 0, so that a model gets the same I/O PEs from
//! this library as from the original. The set is cut into groups of min(pe_nx, pe_ny) PEs; inside a
//! group no two PEs share a row or a column, and no PE is in the set twice.

use crate::error::{Error, Result};

/// The multipliers the original spreads the groups with: the first of them that does not divide
/// the longer side of the grid.
const SCRAMBLES: [usize; 16] = [5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61];

fn scramble(side: usize) -> usize {
    SCRAMBLES.iter().copied().find(|&p| !side.is_multiple_of(p)).unwrap_or(SCRAMBLES[SCRAMBLES.len() - 1])
}

/// The grid coordinates (x, y) of the `npes` PEs of a set on a `pe_nx` x `pe_ny` grid, in set
/// order, by `method` (0, the only one), checked (`check`).
pub fn io_pe_list(npes: i64, pe_nx: i64, pe_ny: i64, method: i64) -> Result<Vec<(usize, usize)>> {
    if method != 0 {
        return Err(Error::BadArgument(format!("method {method}: 0 is the only method")));
    }
    if pe_nx <= 0 || pe_ny <= 0 {
        return Err(Error::BadArgument(format!("a {pe_nx} x {pe_ny} PE grid")));
    }
    let (nx, ny) = (pe_nx as usize, pe_ny as usize);
    if npes <= 0 || npes as u64 > (nx * ny) as u64 {
        return Err(Error::BadArgument(format!("{npes} I/O PEs on a {nx} x {ny} grid")));
    }
    let list = positions(npes as usize, nx, ny);
    check(&list, nx, ny)?;
    Ok(list)
}

/// Method 0's places of `npes` PEs on an `nx` x `ny` grid, unchecked (RPN_COMM_make_io_pe_list:
/// past nx * ny PEs, or where the groups collide, the list holds PEs twice; `check` says so).
pub fn positions(npes: usize, nx: usize, ny: usize) -> Vec<(usize, usize)> {
    (0..npes)
        .map(|i| {
            if nx < ny {
                let x = i % nx;
                (x, (x + (i / nx) * scramble(ny)) % ny)
            } else {
                // (the original computes its y multiplier here only for a grid taller than wide)
                let y = i % ny;
                let sx = if nx > ny { scramble(nx) } else { 1 };
                ((y + (i / ny) * sx) % nx, y)
            }
        })
        .collect()
}

/// A set is usable when no PE is in it twice and, in each group of min(pe_nx, pe_ny) consecutive
/// PEs, no two share a row or a column.
pub fn check(list: &[(usize, usize)], nx: usize, ny: usize) -> Result<()> {
    if let Some(&(x, y)) = list.iter().find(|&&(x, y)| x >= nx || y >= ny) {
        return Err(Error::BadArgument(format!("the PE at ({x}, {y}) is outside the {nx} x {ny} grid")));
    }
    let group = nx.min(ny).max(1);
    for (g, members) in list.chunks(group).enumerate() {
        let mut rows = vec![false; ny];
        let mut cols = vec![false; nx];
        for &(x, y) in members {
            if std::mem::replace(&mut rows[y], true) || std::mem::replace(&mut cols[x], true) {
                return Err(Error::BadArgument(format!("group {} of the I/O PE set has 2 PEs on one row or column", g + 1)));
            }
        }
    }
    let mut seen = vec![false; nx * ny];
    for &(x, y) in list {
        if std::mem::replace(&mut seen[y * nx + x], true) {
            return Err(Error::BadArgument(format!("the I/O PE set holds the PE at ({x}, {y}) twice")));
        }
    }
    Ok(())
}

/// The map of a set, a line per grid row from the top: each PE's group number (1 to 9, 9 for the
/// later groups), 0 where there is no I/O PE.
pub fn map(list: &[(usize, usize)], nx: usize, ny: usize) -> Vec<String> {
    let group = nx.min(ny).max(1);
    let mut cells = vec![0usize; nx * ny];
    for (i, &(x, y)) in list.iter().enumerate() {
        cells[y * nx + x] = 1 + (i / group) % 9;
    }
    (0..ny).rev().map(|y| format!("{y:5} {}", cells[y * nx..(y + 1) * nx].iter().map(|c| c.to_string()).collect::<String>())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_per_diagonal() {
        // 4 x 4: y = i mod 4, x = y + (i / 4) (no multiplier on a square grid)
        let l = io_pe_list(8, 4, 4, 0).unwrap();
        assert_eq!(l[..4], [(0, 0), (1, 1), (2, 2), (3, 3)]);
        assert_eq!(l[4..], [(1, 0), (2, 1), (3, 2), (0, 3)]);
        // wider than tall: multiplier 5 along x (the first prime not dividing 6)
        let l = io_pe_list(4, 6, 2, 0).unwrap();
        assert_eq!(l, [(0, 0), (1, 1), (5, 0), (0, 1)]);
        // taller than wide: multiplier 7 along y (5 divides 10)
        let l = io_pe_list(3, 2, 10, 0).unwrap();
        assert_eq!(l, [(0, 0), (1, 1), (0, 7)]);
    }

    #[test]
    fn impossible_sets_are_refused() {
        assert!(io_pe_list(0, 2, 2, 0).is_err());
        assert!(io_pe_list(5, 2, 2, 0).is_err(), "more PEs than the grid");
        assert!(io_pe_list(2, 2, 2, 1).is_err(), "method 1");
        assert!(check(&[(0, 0), (0, 1)], 2, 2).is_err(), "one column twice in a group");
        assert!(check(&[(0, 0), (1, 1), (0, 0)], 2, 2).is_err(), "a PE twice");
        assert!(check(&[(0, 0), (1, 1), (1, 0)], 2, 2).is_ok());
        // 1 x 1 grid: groups of one PE, the same PE again is a duplicate
        assert_eq!(io_pe_list(1, 1, 1, 0).unwrap(), [(0, 0)]);
        assert!(io_pe_list(2, 1, 1, 0).is_err());
    }

    #[test]
    fn the_map() {
        let l = io_pe_list(3, 2, 2, 0).unwrap();
        assert_eq!(map(&l, 2, 2), ["    1 01", "    0 12"]);
    }
}
