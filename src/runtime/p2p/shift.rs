//! RPN_COMM_move: every PE of the grid sends a buffer to its neighbour in one direction and
//! receives one from the neighbour on the other side (a shift along a row or a column), over
//! 'GRID' with the original's tags (the sender's grid rank). At the edge of a non-periodic grid
//! the PE that has no neighbour in a direction neither sends nor receives there.

use super::sendrecv::{Side, exchange};
use crate::error::{Error, Result};
use crate::runtime::with_runtime;

/// One direction of a shift: its first letter ('N', 'S', 'E', 'W', any case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    North,
    South,
    East,
    West,
}

impl Direction {
    pub fn from_name(dest: &str) -> Result<Direction> {
        match dest.trim_start().chars().next().map(|c| c.to_ascii_uppercase()) {
            Some('N') => Ok(Direction::North),
            Some('S') => Ok(Direction::South),
            Some('E') => Ok(Direction::East),
            Some('W') => Ok(Direction::West),
            _ => Err(Error::BadArgument(format!("invalid destination '{}': valid destinations are 'N', 'S', 'E', 'W'", dest.trim()))),
        }
    }

    /// (dx, dy) of the neighbour this PE sends to.
    fn step(self) -> (i64, i64) {
        match self {
            Direction::North => (0, 1),
            Direction::South => (0, -1),
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
        }
    }
}

/// The grid coordinates `steps` away from (x, y) on a pex x pey grid: wrapped when periodic,
/// None beyond an edge otherwise.
pub fn neighbour((x, y): (usize, usize), (dx, dy): (i64, i64), (pex, pey): (usize, usize), periodic: bool) -> Option<(usize, usize)> {
    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
    let (px, py) = (pex as i64, pey as i64);
    if periodic {
        return Some((nx.rem_euclid(px) as usize, ny.rem_euclid(py) as usize));
    }
    ((0..px).contains(&nx) && (0..py).contains(&ny)).then_some((nx as usize, ny as usize))
}

/// The buffers of one PE's shift: `count` elements of `dtype` each way.
pub struct Shift<'a> {
    pub sendbuf: usize,
    pub sendcount: i32,
    pub recvbuf: usize,
    pub recvcount: i32,
    pub dtype: &'a str,
}

/// RPN_COMM_move: sends `s.sendbuf` to the neighbour in direction `dest` and receives
/// `s.recvbuf` from the opposite one (none where a count is 0 or no neighbour is there).
///
/// # Safety
/// `s.sendbuf` holds `s.sendcount` elements of `s.dtype`, `s.recvbuf` has room for `s.recvcount`.
pub unsafe fn move_shift(s: &Shift, dest: &str, periodic: bool) -> Result<()> {
    let direction = Direction::from_name(dest)?;
    let (grid, me) = with_runtime(|rt| {
        let (grid, _) = rt.grid_and_blocks()?;
        let comm = rt.named("GRID")?.ok_or_else(|| Error::BadArgument("this PE is not a member of the grid".into()))?;
        Ok((grid, comm.rank()))
    })?;
    let here = grid.grid_coords(me);
    let (dx, dy) = direction.step();
    let shape = (grid.pex, grid.pey);
    let to = neighbour(here, (dx, dy), shape, periodic).map(|(x, y)| grid.grid_rank(x, y) as i32);
    let from = neighbour(here, (-dx, -dy), shape, periodic).map(|(x, y)| grid.grid_rank(x, y) as i32);
    let out = to.filter(|_| s.sendcount > 0).map(|peer| Side { buf: s.sendbuf, count: s.sendcount, dtype: s.dtype, peer, tag: me as i32 });
    let into = from.filter(|_| s.recvcount > 0).map(|peer| Side { buf: s.recvbuf, count: s.recvcount, dtype: s.dtype, peer, tag: peer });
    // SAFETY: the caller's contract, passed on.
    unsafe { exchange(out, into, "GRID") }.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_wrap_only_when_periodic() {
        assert_eq!(neighbour((2, 0), (1, 0), (3, 2), false), None);
        assert_eq!(neighbour((2, 0), (1, 0), (3, 2), true), Some((0, 0)));
        assert_eq!(neighbour((0, 0), (0, -1), (3, 2), true), Some((0, 1)));
        assert_eq!(neighbour((1, 1), (0, -1), (3, 2), false), Some((1, 0)));
        assert_eq!(Direction::from_name("s").unwrap(), Direction::South);
        assert!(Direction::from_name("X").is_err());
    }
}
