//! The geometry of RPN_COMM_xch_halo: the arguments of one call, their validation, the
//! neighbours on the PE grid and the boxes a PE sends and fills, and RPN_COMM_limit's
//! decomposition of a global dimension. Every refusal of a halo exchange happens here.

use crate::core::Grid;
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
    /// The original's polar rows: 0 or negative, a plain exchange; below -pe_ny with periodic
    /// y, the pole flip follows (`core::halo_family`); positive values are refused.
    pub npol_row: i32,
    /// 4-byte words per element (1 for xch_halo, n for xch_halon).
    pub words: i32,
}

/// One field of a halo exchange: the caller's array (its address) and its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HaloField {
    /// The array's first element.
    pub addr: usize,
    /// Its bounds, levels and element size, with the exchange's grid and halo.
    pub call: HaloCall,
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
        // As the original: npol_row <= 0 is a plain exchange (below -pe_ny with periodic y, plus
        // the pole flip: runtime::halo::family); > 0 is its semi-Lagrangian polar exchange.
        if self.npol_row > 0 {
            return bad(format!(
                "npol_row = {}: the semi-Lagrangian polar exchange (npol_row > 0) is not supported; 0 or negative is a plain exchange",
                self.npol_row
            ));
        }
        if self.words < 1 {
            return bad(format!("n = {}: an element is at least one 4-byte word", self.words));
        }
        for (name, v) in [("ni", self.ni), ("nj", self.nj)] {
            if v < 1 {
                return bad(format!("{name} = {v}: must be at least 1"));
            }
        }
        // nk = 0 is an exchange of nothing, as in the original (GEM makes such calls): the
        // neighbours still meet, so the shapes are still compared and the exchanges stay in step.
        for (name, v) in [("nk", self.nk), ("halox", self.halox), ("haloy", self.haloy)] {
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

    /// 4-byte words of the whole array.
    pub fn total_words(&self) -> usize {
        self.level_points() * self.nk as usize * self.words as usize
    }
}

/// The eight sides of a PE's part, in the order of a halo message's parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Towards lower x.
    West,
    /// Towards higher x.
    East,
    /// Towards lower y.
    South,
    /// Towards higher y.
    North,
    /// Lower x, lower y (a corner).
    SouthWest,
    /// Higher x, lower y.
    SouthEast,
    /// Lower x, higher y.
    NorthWest,
    /// Higher x, higher y.
    NorthEast,
}

impl Side {
    /// Every side, in message order.
    pub const ALL: [Side; 8] =
        [Side::West, Side::East, Side::South, Side::North, Side::SouthWest, Side::SouthEast, Side::NorthWest, Side::NorthEast];

    /// The step along x and y towards this side.
    pub fn step(self) -> (i32, i32) {
        match self {
            Side::West => (-1, 0),
            Side::East => (1, 0),
            Side::South => (0, -1),
            Side::North => (0, 1),
            Side::SouthWest => (-1, -1),
            Side::SouthEast => (1, -1),
            Side::NorthWest => (-1, 1),
            Side::NorthEast => (1, 1),
        }
    }

    /// The side facing this one.
    pub fn opposite(self) -> Side {
        let (dx, dy) = self.step();
        Side::ALL.into_iter().find(|s| s.step() == (-dx, -dy)).expect("every side has an opposite")
    }

    /// How messages name it.
    pub fn name(self) -> &'static str {
        ["west", "east", "south", "north", "south-west", "south-east", "north-west", "north-east"][self as usize]
    }
}

/// The PE on each side of job rank `me` (`Side::ALL` order): the next along the row, column or
/// diagonal, wrapping around in a periodic direction (one PE in a periodic direction is its
/// own neighbour), none beyond a non-periodic outer edge (a corner needs both directions).
pub fn neighbours8(grid: &Grid, me: usize, periodx: bool, periody: bool) -> [Option<usize>; 8] {
    let (x, y) = grid.coords(me);
    let step = |c: usize, n: usize, d: i32, periodic: bool| -> Option<usize> {
        let to = c as i64 + i64::from(d);
        match to {
            _ if (0..n as i64).contains(&to) => Some(to as usize),
            _ if periodic => Some(to.rem_euclid(n as i64) as usize),
            _ => None,
        }
    };
    Side::ALL.map(|s| {
        let (dx, dy) = s.step();
        Some(grid.at(step(x, grid.pex, dx, periodx)?, step(y, grid.pey, dy, periody)?))
    })
}

/// The distinct PEs among `sides`, in the order they first appear.
pub fn distinct_peers(sides: &[Option<usize>; 8]) -> Vec<usize> {
    let mut peers = Vec::with_capacity(8);
    for pe in sides.iter().flatten() {
        if !peers.contains(pe) {
            peers.push(*pe);
        }
    }
    peers
}

impl HaloCall {
    /// The points this PE sends to its neighbour on `side`: its own, next to that side.
    pub fn face(&self, side: Side) -> HaloBox {
        let (dx, dy) = side.step();
        let range = |d: i32, n: i32, h: i32| match d {
            -1 => (1, h),
            1 => (n - h + 1, n),
            _ => (1, n),
        };
        HaloBox { i: range(dx, self.ni, self.halox), j: range(dy, self.nj, self.haloy) }
    }

    /// The halo points the neighbour on `side` fills.
    pub fn halo(&self, side: Side) -> HaloBox {
        let (dx, dy) = side.step();
        let range = |d: i32, n: i32, h: i32| match d {
            -1 => (1 - h, 0),
            1 => (n + 1, n + h),
            _ => (1, n),
        };
        HaloBox { i: range(dx, self.ni, self.halox), j: range(dy, self.nj, self.haloy) }
    }

    /// Bytes of the box `b` over every level.
    pub fn box_bytes(&self, b: &HaloBox) -> usize {
        b.points() * self.nk as usize * self.elem_bytes()
    }
}

/// Words of a halo message's header before the fields' (`Header`).
const HEADER_FIXED: usize = 12;
/// The header's first word.
const HEADER_MAGIC: u32 = u32::from_le_bytes(*b"HALO");

/// The halo routines, as a message names the one its sender is in.
pub const HALO_ROUTINES: [&str; 16] = [
    "RPN_COMM_xch_halo",
    "RPN_COMM_xch_halon",
    "RPN_COMM_xch_halo_list",
    "RPN_COMM_xch_halo_start",
    "RPN_COMM_xch_halo_8",
    "RPN_COMM_xch_halox",
    "RPN_COMM_propagate_pilot_circular",
    "another halo routine",
    "RPN_COMM_adj_halo8",
    "RPN_COMM_adj_halo4",
    "RPN_COMM_adj_halo",
    "RPN_COMM_xch_haloew",
    "RPN_COMM_xch_halons",
    "RPN_COMM_adj_halox",
    "RPN_COMM_propagate_boundary",
    "RPN_COMM_propagate_boundary_circular",
];

/// Whether the routine of `code` (`routine_code`) is the exchange's adjoint: its messages are
/// halos to add, not faces to copy, and never pair with an exchange's.
pub fn is_adjoint(code: u32) -> bool {
    HALO_ROUTINES.get(code as usize).is_some_and(|r| r.starts_with("RPN_COMM_adj_halo"))
}

/// The code of a routine in messages (`HALO_ROUTINES`).
pub fn routine_code(routine: &str) -> u32 {
    HALO_ROUTINES.iter().position(|r| *r == routine).unwrap_or(OTHER_HALO_ROUTINE) as u32
}

/// The code of a halo routine that `HALO_ROUTINES` does not name.
const OTHER_HALO_ROUTINE: usize = 7;

/// The shape arguments of a halo exchange of a list of fields, as every message of it carries
/// them (so that a neighbour checks them against its own from the exchange itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// `routine_code` of the sender's routine.
    pub routine: u32,
    /// The sender's count of its halo exchanges (this one included).
    pub seq: u32,
    /// The sender refused its own arguments (the message carries no data).
    pub refused: bool,
    /// Points the sender owns along x and y.
    pub ni: i32,
    /// As above, along y.
    pub nj: i32,
    /// Halo widths.
    pub halox: i32,
    /// As above, along y.
    pub haloy: i32,
    /// Periodic along x and y.
    pub periodx: bool,
    /// As above, along y.
    pub periody: bool,
    /// The global points along x.
    pub gni: i32,
    /// The polar row argument.
    pub npol_row: i32,
    /// Levels and 4-byte words per element of each field.
    pub fields: Vec<(i32, i32)>,
}

impl Header {
    /// The header of an exchange of `fields` (their common arguments are the first's).
    pub fn of(fields: &[HaloCall], routine: u32, seq: u32, refused: bool) -> Self {
        let c = fields.first().copied().unwrap_or(HaloCall {
            minx: 0,
            maxx: 0,
            miny: 0,
            maxy: 0,
            ni: 0,
            nj: 0,
            nk: 0,
            halox: 0,
            haloy: 0,
            periodx: false,
            periody: false,
            gni: 0,
            npol_row: 0,
            words: 0,
        });
        Header {
            routine,
            seq,
            refused,
            ni: c.ni,
            nj: c.nj,
            halox: c.halox,
            haloy: c.haloy,
            periodx: c.periodx,
            periody: c.periody,
            gni: c.gni,
            npol_row: c.npol_row,
            fields: fields.iter().map(|f| (f.nk, f.words)).collect(),
        }
    }

    /// Its bytes in a message.
    pub fn bytes(&self) -> usize {
        4 * (HEADER_FIXED + 2 * self.fields.len())
    }

    /// Writes it at the start of `out` (at least `bytes()` long).
    pub fn write(&self, out: &mut [u8]) {
        let fixed = [
            HEADER_MAGIC,
            self.routine,
            self.seq,
            u32::from(self.refused),
            self.ni as u32,
            self.nj as u32,
            self.halox as u32,
            self.haloy as u32,
            u32::from(self.periodx) | (u32::from(self.periody) << 1),
            self.gni as u32,
            self.npol_row as u32,
            self.fields.len() as u32,
        ];
        let words = fixed.into_iter().chain(self.fields.iter().flat_map(|&(nk, w)| [nk as u32, w as u32]));
        for (at, w) in words.enumerate() {
            out[4 * at..4 * at + 4].copy_from_slice(&w.to_ne_bytes());
        }
    }

    /// The header at the start of a message (None: not a halo message, or cut short).
    pub fn read(message: &[u8]) -> Option<Header> {
        let word = |at: usize| message.get(4 * at..4 * at + 4).map(|b| u32::from_ne_bytes(b.try_into().expect("4 bytes")));
        if word(0)? != HEADER_MAGIC {
            return None;
        }
        let n = word(11)? as usize;
        let fields = (0..n)
            .map(|f| Some((word(HEADER_FIXED + 2 * f)? as i32, word(HEADER_FIXED + 2 * f + 1)? as i32)))
            .collect::<Option<Vec<_>>>()?;
        Some(Header {
            routine: word(1)?,
            seq: word(2)?,
            refused: word(3)? != 0,
            ni: word(4)? as i32,
            nj: word(5)? as i32,
            halox: word(6)? as i32,
            haloy: word(7)? as i32,
            periodx: word(8)? & 1 != 0,
            periody: word(8)? & 2 != 0,
            gni: word(9)? as i32,
            npol_row: word(10)? as i32,
            fields,
        })
    }

    /// The name of the sender's routine (its `routine` code).
    pub fn routine_name(&self) -> &'static str {
        HALO_ROUTINES.get(self.routine as usize).copied().unwrap_or("another halo routine")
    }
}

/// The checks of a list of fields this PE can make on its own: each field's arguments, the
/// same grid and halo for all (levels and element size may differ), and this PE's part at
/// least as wide as the halo where a neighbour fills its halo from it (`sides`: the PEs on
/// each side of this one).
pub fn validate_list(fields: &[HaloCall], sides: &[Option<usize>; 8]) -> Result<()> {
    let Some(first) = fields.first() else {
        return Err(Error::BadArgument("a halo list without fields: RPN_COMM_xch_halo_list_add adds them".into()));
    };
    for (f, c) in fields.iter().enumerate() {
        c.validate_local().map_err(|e| match (e, fields.len()) {
            (Error::BadArgument(text), n) if n > 1 => Error::BadArgument(format!("field {}: {text}", f + 1)),
            (e, _) => e,
        })?;
        let common = |c: &HaloCall| (c.ni, c.nj, c.halox, c.haloy, c.periodx, c.periody, c.gni, c.npol_row);
        if common(c) != common(first) {
            return Err(Error::BadArgument(format!(
                "field {} of the list is not on field 1's grid and halo (ni, nj, halox, haloy, periodx, periody, gni, npol_row = {:?}, field 1 {:?})",
                f + 1,
                common(c),
                common(first)
            )));
        }
    }
    let c = first;
    for (s, pe) in Side::ALL.iter().zip(sides) {
        let Some(pe) = pe else { continue };
        let (dx, dy) = s.step();
        if dx != 0 && c.halox > c.ni {
            return Err(Error::BadArgument(format!(
                "halox = {} is wider than this PE's part (ni = {}): its {} neighbour PE {pe} cannot fill its halo from it",
                c.halox,
                c.ni,
                s.opposite().name()
            )));
        }
        if dy != 0 && c.haloy > c.nj {
            return Err(Error::BadArgument(format!(
                "haloy = {} is wider than this PE's part (nj = {}): its {} neighbour PE {pe} cannot fill its halo from it",
                c.haloy,
                c.nj,
                s.opposite().name()
            )));
        }
    }
    Ok(())
}

/// What to do with a message from a neighbour (`Header::check`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Left over from an earlier exchange that ended in an error: dropped.
    Stale,
    /// This exchange's, in agreement: its data follow the header.
    Agreed,
}

impl Header {
    /// Checks a neighbour's header against this PE's exchange (`mine`, exchange `seq`; `me` and
    /// `peer` job ranks; `side`: the first side of this PE on which `peer` lies).
    pub fn check(&self, mine: &Header, me: usize, peer: usize, side: Side) -> Result<Verdict> {
        let who = format!("PE {peer} (the {} neighbour of PE {me})", side.name());
        if self.seq != mine.seq {
            if epoch_before(self.seq, mine.seq) {
                return Ok(Verdict::Stale);
            }
            return Err(Error::Collective(format!(
                "{who} is in its halo exchange {} and PE {me} in its {}: PE {me} skipped an exchange that its neighbour made",
                self.seq, mine.seq
            )));
        }
        if is_adjoint(self.routine) != is_adjoint(mine.routine) {
            return Err(Error::Collective(format!("{who} is in {} while PE {me} is in {}", self.routine_name(), mine.routine_name())));
        }
        let disagree = |what: &str, theirs: String, ours: String| {
            Err(Error::Collective(format!("{who} gives {what} = {theirs}, PE {me} {what} = {ours} in {}", mine.routine_name())))
        };
        if (self.periodx, self.periody) != (mine.periodx, mine.periody) {
            return disagree("periodx/periody", format!("{}/{}", self.periodx, self.periody), format!("{}/{}", mine.periodx, mine.periody));
        }
        for (what, t, o) in [
            ("halox", self.halox, mine.halox),
            ("haloy", self.haloy, mine.haloy),
            ("gni", self.gni, mine.gni),
            ("npol_row", self.npol_row, mine.npol_row),
        ] {
            if t != o && !self.refused {
                return disagree(what, t.to_string(), o.to_string());
            }
        }
        if self.fields.len() != mine.fields.len() && !self.refused {
            return disagree("a list of fields of length", self.fields.len().to_string(), mine.fields.len().to_string());
        }
        for (f, (t, o)) in self.fields.iter().zip(&mine.fields).enumerate() {
            let field = if mine.fields.len() > 1 { format!("field {}: ", f + 1) } else { String::new() };
            if t.0 != o.0 {
                return disagree(&format!("{field}nk"), t.0.to_string(), o.0.to_string());
            }
            if t.1 != o.1 {
                return disagree(&format!("{field}n (4-byte words per element)"), t.1.to_string(), o.1.to_string());
            }
        }
        let (dx, dy) = side.step();
        if dx != 0 && dy == 0 && self.nj != mine.nj {
            return disagree("nj", self.nj.to_string(), format!("{} (PEs of one row have the same nj)", mine.nj));
        }
        if dy != 0 && dx == 0 && self.ni != mine.ni {
            return disagree("ni", self.ni.to_string(), format!("{} (PEs of one column have the same ni)", mine.ni));
        }
        if dx != 0 && mine.halox > self.ni {
            return Err(Error::BadArgument(format!(
                "halox = {} is wider than the part of {who}, ni = {}: a halo must fit in the neighbour's part",
                mine.halox, self.ni
            )));
        }
        if dy != 0 && mine.haloy > self.nj {
            return Err(Error::BadArgument(format!(
                "haloy = {} is wider than the part of {who}, nj = {}: a halo must fit in the neighbour's part",
                mine.haloy, self.nj
            )));
        }
        if self.refused {
            return Err(Error::BadArgument(format!(
                "{who} refused its arguments to {} (its own message says why); nothing written",
                self.routine_name()
            )));
        }
        Ok(Verdict::Agreed)
    }
}

/// `a` comes before `b` in wrapping 32-bit order.
fn epoch_before(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

/// The sides whose parts a message between this PE and `peer` carries, in message order: for
/// the message this PE sends, the sides of this PE on which `peer` lies (this PE's face
/// towards each); for the one it receives, the sides of `peer` on which this PE lies (the
/// peer's face towards each, which fills this PE's halo on the opposite side).
pub fn message_sides(sides: &[Option<usize>; 8], peer: usize, sending: bool) -> impl Iterator<Item = Side> + '_ {
    Side::ALL.into_iter().filter(move |s| {
        let on = if sending { *s } else { s.opposite() };
        sides[on as usize] == Some(peer)
    })
}

/// Splits a list of fields, in order, into consecutive groups whose faces towards every side
/// together come to at most `cap` bytes (a field larger than that is a group of its own); `cap`
/// 0 keeps the list whole. A list whose faces outgrow the caches is faster sent as a few
/// exchanges in a row, each one's faces still in cache when the neighbour copies them, than as
/// one message per neighbour (bench/README.md, 16-core machine).
pub fn group_fields(calls: &[HaloCall], cap: usize) -> Vec<std::ops::Range<usize>> {
    let cap = if cap == 0 { usize::MAX } else { cap };
    let mut groups = Vec::new();
    let (mut start, mut bytes) = (0, 0usize);
    for (f, c) in calls.iter().enumerate() {
        let faces: usize = Side::ALL.iter().map(|&s| c.box_bytes(&c.face(s))).sum();
        if f > start && bytes.saturating_add(faces) > cap {
            groups.push(start..f);
            (start, bytes) = (f, 0);
        }
        bytes += faces;
    }
    groups.push(start..calls.len());
    groups
}

/// RPN_COMM_limit (the original's strict decomposition): `gmin..=gmax` cut over `npe` PEs in
/// tiles of ceiling(points / npe), the last one taking what is left, which must not be empty.
/// Returns (lmini, lmaxi) of PE `my_id` and every PE's count and offset (from gmin).
pub fn limit(my_id: i32, npe: i32, gmin: i32, gmax: i32) -> Result<(i32, i32, Vec<i32>, Vec<i32>)> {
    if npe < 1 || my_id < 0 || my_id >= npe {
        return Err(Error::BadArgument(format!("my_id = {my_id} is not a PE of npe = {npe}")));
    }
    // In i64: `gmax - gmin + 1` and the rounding up overflow i32 for points near its ends.
    let (total, npe64) = (i64::from(gmax) - i64::from(gmin) + 1, i64::from(npe));
    let tile = (total + npe64 - 1).div_euclid(npe64);
    let last = total - (npe64 - 1) * tile;
    if total < npe64 || last <= 0 {
        return Err(Error::BadArgument(format!(
            "{total} points ({gmin}..{gmax}) cannot be cut into {npe} tiles of {tile} with a non-empty last one"
        )));
    }
    // Counts and offsets are 4-byte integers in the original's interface.
    let too_big = |_| {
        Error::BadArgument(format!(
            "{total} points ({gmin}..{gmax}) on {npe} PE(s): a tile's count or offset does not fit a 4-byte integer"
        ))
    };
    let count: Vec<i32> = (0..npe64)
        .map(|p| i32::try_from(if p + 1 < npe64 { tile } else { last }))
        .collect::<std::result::Result<_, _>>()
        .map_err(too_big)?;
    let offset: Vec<i32> = (0..npe64).map(|p| i32::try_from(p * tile)).collect::<std::result::Result<_, _>>().map_err(too_big)?;
    let lmini = gmin + offset[my_id as usize];
    let lmaxi = gmax.min(lmini + (count[my_id as usize] - 1));
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
    fn list_groups_stay_under_the_cap_in_order() {
        // 8 x 8 points, halo 2, 2 levels, 4-byte words: faces 4 x (2 x 8) + 4 corners of 2 x 2
        // points per level = 80 points, 640 bytes a field
        let c = call(8, 8, 2);
        let faces: usize = Side::ALL.iter().map(|&s| c.box_bytes(&c.face(s))).sum();
        assert_eq!(faces, 640);
        let five = [c; 5];
        assert_eq!((group_fields(&five, 0).len(), group_fields(&five, 0)[0].clone()), (1, 0..5));
        assert_eq!(group_fields(&[], 100).len(), 1, "an empty list is one (empty) exchange");
        assert_eq!(group_fields(&five, 1280), vec![0..2, 2..4, 4..5]);
        assert_eq!(group_fields(&five, 1279), vec![0..1, 1..2, 2..3, 3..4, 4..5]);
        assert_eq!(group_fields(&five, 10), vec![0..1, 1..2, 2..3, 3..4, 4..5]);
        let big = HaloCall { nk: 4, ..c };
        assert_eq!(group_fields(&[c, big, c, c], 1920), vec![0..2, 2..4]);
        assert_eq!(group_fields(&[c, big, c, c], 1800), vec![0..1, 1..2, 2..4]);
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
    fn limit_near_the_ends_of_i32_neither_wraps_nor_panics() {
        // 2^31 points from i32::MIN: two tiles of 2^30.
        let (lo, hi, count, offset) = limit(1, 2, i32::MIN, -1).unwrap();
        assert_eq!((count, offset), (vec![1 << 30, 1 << 30], vec![0, 1 << 30]));
        assert_eq!((lo, hi), (i32::MIN + (1 << 30), -1));
        let (lo, hi, _, _) = limit(1, 2, 0, i32::MAX).unwrap();
        assert_eq!((lo, hi), (1 << 30, i32::MAX));
        assert!(limit(2, 3, i32::MIN, i32::MAX).is_err(), "the last offset, 2 x 1431655766, does not fit");
        assert!(limit(0, 1, i32::MIN, i32::MAX).is_err(), "2^32 points do not fit one count");
        assert_eq!(limit(0, 1, i32::MAX - 3, i32::MAX).unwrap().0, i32::MAX - 3);
    }

    #[test]
    fn neighbours_wrap_only_when_periodic_and_corners_need_both_directions() {
        let g = Grid::xy(3, 2);
        let n = neighbours8(&g, 0, false, false);
        // W E S N SW SE NW NE
        assert_eq!(n, [None, Some(1), None, Some(3), None, None, None, Some(4)]);
        let n = neighbours8(&g, 0, true, true);
        assert_eq!(n, [Some(2), Some(1), Some(3), Some(3), Some(5), Some(4), Some(5), Some(4)]);
        assert_eq!(distinct_peers(&n), vec![2, 1, 3, 5, 4]);
        let one = Grid::xy(1, 1);
        assert_eq!(neighbours8(&one, 0, true, false)[Side::West as usize], Some(0));
        assert_eq!(neighbours8(&one, 0, true, false)[Side::NorthWest as usize], None);
    }

    #[test]
    fn local_checks_refuse_npol_row_short_bounds_and_a_part_narrower_than_the_halo() {
        assert!(call(4, 4, 2).validate_local().is_ok());
        let mut c = call(4, 4, 2);
        c.npol_row = 1;
        assert!(c.validate_local().unwrap_err().to_string().contains("npol_row"));
        c.npol_row = -999_999;
        assert!(c.validate_local().is_ok(), "negative: no polar rows, a plain exchange");
        let mut c = call(4, 4, 2);
        c.maxx = 5;
        assert!(c.validate_local().unwrap_err().to_string().contains("minx:maxx"));
        let sides = [Some(1), Some(1), None, None, None, None, None, None];
        let e = validate_list(&[call(2, 4, 3)], &sides).unwrap_err().to_string();
        assert!(e.contains("halox = 3 is wider than this PE's part (ni = 2)") && e.contains("PE 1"), "{e}");
        let mut other = call(4, 4, 2);
        other.nj = 5;
        assert!(validate_list(&[call(4, 4, 2), other], &sides).unwrap_err().to_string().contains("field 2"));
        assert!(validate_list(&[], &sides).is_err());
    }

    #[test]
    fn faces_and_halos_have_the_same_extents_on_facing_sides() {
        let c = call(5, 4, 2);
        for s in Side::ALL {
            let (f, h) = (c.face(s.opposite()), c.halo(s));
            assert_eq!(f.points(), h.points(), "{s:?}");
            // the face lies in the part, the halo outside it
            assert!(f.i.0 >= 1 && f.i.1 <= c.ni && f.j.0 >= 1 && f.j.1 <= c.nj);
            assert!(h.i.1 < 1 || h.i.0 > c.ni || h.j.1 < 1 || h.j.0 > c.nj);
        }
        assert_eq!(c.face(Side::NorthEast), HaloBox { i: (4, 5), j: (3, 4) });
        assert_eq!(c.halo(Side::SouthWest), HaloBox { i: (-1, 0), j: (-1, 0) });
        assert_eq!(c.offset(c.minx, c.miny, 1), 0);
        assert_eq!(c.offset(1, 1, 2), 9 * 8 + 2 * 9 + 2);
    }

    #[test]
    fn a_message_carries_the_sides_in_the_same_order_for_sender_and_receiver() {
        for (pex, pey, px, py) in [(2, 2, true, true), (1, 1, true, true), (3, 2, false, true), (2, 1, true, false)] {
            let g = Grid::xy(pex, pey);
            for me in 0..pex * pey {
                let mine = neighbours8(&g, me, px, py);
                for peer in distinct_peers(&mine) {
                    let theirs = neighbours8(&g, peer, px, py);
                    let sent: Vec<Side> = message_sides(&theirs, me, true).collect();
                    let expected: Vec<Side> = message_sides(&mine, peer, false).collect();
                    assert_eq!(sent, expected, "{pex}x{pey} {me} from {peer}");
                }
            }
        }
    }

    #[test]
    fn headers_go_through_a_message_and_disagreements_are_named() {
        let mine = Header::of(&[call(4, 5, 2)], routine_code("RPN_COMM_xch_halo"), 7, false);
        let mut bytes = vec![0u8; mine.bytes()];
        mine.write(&mut bytes);
        assert_eq!(Header::read(&bytes), Some(mine.clone()));
        assert_eq!(Header::read(&bytes[..8]), None);
        assert_eq!(mine.check(&mine, 0, 1, Side::East), Ok(Verdict::Agreed));
        let older = Header { seq: 6, ..mine.clone() };
        assert_eq!(older.check(&mine, 0, 1, Side::East), Ok(Verdict::Stale));
        let later = Header { seq: 8, ..mine.clone() };
        assert!(later.check(&mine, 0, 1, Side::East).unwrap_err().to_string().contains("skipped"));
        let other_nj = Header { nj: 6, ..mine.clone() };
        let e = other_nj.check(&mine, 0, 1, Side::East).unwrap_err().to_string();
        assert!(e.contains("PE 1 (the east neighbour of PE 0) gives nj = 6"), "{e}");
        assert_eq!(other_nj.check(&mine, 0, 1, Side::North), Ok(Verdict::Agreed), "nj may differ along a column");
        let narrow = Header { ni: 1, ..mine.clone() };
        let e = narrow.check(&mine, 0, 1, Side::West).unwrap_err().to_string();
        assert!(e.contains("halox = 2 is wider than the part of PE 1") && e.contains("ni = 1"), "{e}");
        let other_nk = Header { fields: vec![(3, 1)], ..mine.clone() };
        assert!(other_nk.check(&mine, 0, 1, Side::South).unwrap_err().to_string().contains("nk = 3"));
        let refused = Header { refused: true, ..mine.clone() };
        assert!(refused.check(&mine, 0, 1, Side::South).unwrap_err().to_string().contains("refused"));
    }
}
