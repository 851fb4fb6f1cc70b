//! Names and handles of the API's objects as the runtime decodes them: communicator names
//! ('GRID', 'WORLD', ...) and communicator handles, datatype and operator handles.

use crate::core::datatype::{find_named, normalize_name};
use crate::core::{CommId, ElementType, Handle, HandleKind, MessageType, Operator};
use crate::error::{Error, Result};

/// The communicators RPN_COMM names designate, for a job of one domain (RPN_COMM_init_multi_level
/// cuts it into MultiGrids x Grids grids); the value is the code of the communicator handle a
/// name gives. Aliases of the original map to one variant ('DOMM', 'DEFO' and 'ALL' are 'GRID',
/// 'ALLDOMAINS' and 'UNIVERSE' are 'WORLD').
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommName {
    /// 'WORLD': the whole job.
    World = 1,
    /// 'GRID': this PE's grid (the whole job when it is one grid).
    Grid = 2,
    /// 'ALLGRIDS': the whole job (one domain).
    AllGrids = 3,
    /// 'EW' (RPN_COMM_ROW): the PEs of this PE's row of the grid, ranked by me_x.
    Row = 4,
    /// 'NS' (RPN_COMM_COLUMN): the PEs of this PE's column, ranked by me_y.
    Column = 5,
    /// 'GRIDPEERS': the PEs of this PE's multigrid with its grid rank, one per grid.
    GridPeers = 6,
    /// 'BLOC': this PE's block of RPN_COMM_bloc (the grid until it is called).
    Bloc = 7,
    /// 'BLOCMASTER': the first PE of every block.
    BlocMaster = 8,
    /// 'MULTIGRID': this PE's multigrid (its Grids grids; the whole job when MultiGrids = 1).
    MultiGrid = 9,
}

impl CommName {
    const ALL: [CommName; 9] =
        [Self::World, Self::Grid, Self::AllGrids, Self::Row, Self::Column, Self::GridPeers, Self::Bloc, Self::BlocMaster, Self::MultiGrid];

    /// The communicator a name designates: upper or lower case, blanks around it ignored
    /// (Fortran pads with trailing blanks), otherwise the exact name.
    pub fn from_name(name: &str) -> Result<Self> {
        const NAMES: [(&str, CommName); 14] = [
            ("GRID", CommName::Grid),
            ("WORLD", CommName::World),
            ("EW", CommName::Row),
            ("NS", CommName::Column),
            ("ALLGRIDS", CommName::AllGrids),
            ("MULTIGRID", CommName::MultiGrid),
            ("GRIDPEERS", CommName::GridPeers),
            ("BLOC", CommName::Bloc),
            ("BLOCMASTER", CommName::BlocMaster),
            ("ALLDOMAINS", CommName::World),
            ("UNIVERSE", CommName::World),
            // 'ALL' is the original's pe_wcomm, which ends as the grid
            ("DOMM", CommName::Grid),
            ("DEFO", CommName::Grid),
            ("ALL", CommName::Grid),
        ];
        static LAST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let at = find_named(&NAMES, |&(n, _)| n, name, &LAST)
            .ok_or_else(|| Error::UnknownName { kind: "communicator", name: normalize_name(name) })?;
        if NAMES[at].0 == "DEFO" {
            return Ok(Self::default_communicator());
        }
        Ok(NAMES[at].1)
    }

    /// What 'DEFO' designates: the grid, or the communicator RPN_COMM_defo chose.
    pub fn default_communicator() -> Self {
        Self::from_code(DEFAULT_COMM.load(std::sync::atomic::Ordering::Relaxed)).unwrap_or(Self::Grid)
    }

    /// RPN_COMM_defo: 'DEFO' designates `self` from now on.
    pub fn set_default_communicator(self) {
        DEFAULT_COMM.store(self as u32, std::sync::atomic::Ordering::Relaxed);
    }

    /// The name messages give it.
    pub fn name(self) -> &'static str {
        match self {
            Self::World => "WORLD",
            Self::Grid => "GRID",
            Self::AllGrids => "ALLGRIDS",
            Self::Row => "EW",
            Self::Column => "NS",
            Self::GridPeers => "GRIDPEERS",
            Self::Bloc => "BLOC",
            Self::BlocMaster => "BLOCMASTER",
            Self::MultiGrid => "MULTIGRID",
        }
    }

    /// The communicator handle of this name.
    pub fn handle(self) -> Handle {
        Handle::encode(HandleKind::Communicator, self as u32)
    }

    fn from_code(code: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|&n| n as u32 == code)
    }
}

/// The code of the communicator 'DEFO' designates (RPN_COMM_defo; the grid until it is called).
static DEFAULT_COMM: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(CommName::Grid as u32);

/// Handle codes of wrapped MPI communicators: WRAPPED_BASE + the transport's CommId.
const WRAPPED_BASE: u32 = 0x100;

/// What a communicator handle designates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommHandle {
    /// A communicator name's handle.
    Named(CommName),
    /// A communicator the transport made (a wrapped MPI communicator).
    Transport(CommId),
}

impl CommHandle {
    /// Decodes a communicator handle.
    pub fn decode(h: &Handle) -> Result<Self> {
        match h.decode(HandleKind::Communicator)? {
            code if code > WRAPPED_BASE => Ok(Self::Transport(CommId(code - WRAPPED_BASE))),
            code => CommName::from_code(code).map(Self::Named).ok_or(Error::InvalidHandle { what: "communicator" }),
        }
    }

    /// The handle of a communicator the transport made.
    pub fn encode_transport(id: CommId) -> Handle {
        Handle::encode(HandleKind::Communicator, WRAPPED_BASE + id.0)
    }
}

/// Handle codes of the datatypes of the original's table that no window holds ('MPI_LOGICAL',
/// ...): MESSAGE_BASE + the `MessageType` code.
const MESSAGE_BASE: u32 = 0x100;

/// The datatype handle of a name (RPN_COMM_i_datyp): a window's element type, else any other name
/// of the original's table (as the original, which makes a handle of every name it knows; no
/// window takes those).
pub fn datatype_handle(name: &str) -> Result<Handle> {
    match ElementType::from_name(name) {
        Ok(t) => Ok(Handle::encode(HandleKind::Datatype, t.code())),
        Err(e) => MessageType::from_name(name).map(|m| Handle::encode(HandleKind::Datatype, MESSAGE_BASE + m.code())).map_err(|_| e),
    }
}

/// The element type a datatype handle designates (a window's: the handle of another datatype
/// of the table is refused with its name).
pub fn datatype_of(h: &Handle) -> Result<ElementType> {
    let code = h.decode(HandleKind::Datatype)?;
    if let Some(t) = ElementType::from_code(code) {
        return Ok(t);
    }
    match code.checked_sub(MESSAGE_BASE).and_then(MessageType::from_code) {
        Some(m) => Err(Error::BadArgument(format!("a window holds 4- or 8-byte integers or reals, not {}", m.name()))),
        None => Err(Error::InvalidHandle { what: "datatype" }),
    }
}

/// The size in bytes of one element of the datatype a handle designates, a window's or another
/// of the original's table (0 for MPI_DATATYPE_NULL's); refused for a handle of no datatype.
pub fn datatype_size(h: &Handle) -> Result<usize> {
    let code = h.decode(HandleKind::Datatype)?;
    if let Some(t) = ElementType::from_code(code) {
        return Ok(t.size());
    }
    match code.checked_sub(MESSAGE_BASE).and_then(MessageType::from_code) {
        Some(m) => Ok(m.size()),
        None => Err(Error::InvalidHandle { what: "datatype" }),
    }
}

/// The operator an operator handle designates.
pub fn operator_of(h: &Handle) -> Result<Operator> {
    Operator::from_code(h.decode(HandleKind::Operator)?).ok_or(Error::InvalidHandle { what: "operator" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_handles_round_trip() {
        assert_eq!(CommName::from_name(" grid ").unwrap(), CommName::Grid);
        assert_eq!(CommName::from_name("DOMM").unwrap(), CommName::Grid);
        assert_eq!(CommName::from_name("all").unwrap(), CommName::Grid);
        assert_eq!(CommName::from_name("ew  ").unwrap(), CommName::Row);
        assert_eq!(CommName::from_name("Ns").unwrap(), CommName::Column);
        assert_eq!(CommName::from_name("BlocMaster").unwrap(), CommName::BlocMaster);
        assert_eq!(CommName::from_name("UNIVERSE").unwrap(), CommName::World);
        assert_eq!(CommName::from_name("defo").unwrap(), CommName::Grid);
        assert_eq!(CommName::from_name("MULTIGRID").unwrap(), CommName::MultiGrid);
        assert!(CommName::from_name("EWX").is_err());
        assert!(CommName::from_name("ROW").is_err(), "RPN_COMM_ROW is 'EW'; 'ROW' is no name of the original");
        for name in CommName::ALL {
            assert_eq!(CommName::from_name(name.name()).unwrap(), name);
            assert_eq!(CommHandle::decode(&name.handle()).unwrap(), CommHandle::Named(name));
        }
        let wrapped = CommHandle::encode_transport(CommId(3));
        assert_eq!(CommHandle::decode(&wrapped).unwrap(), CommHandle::Transport(CommId(3)));
        assert!(CommHandle::decode(&Handle::encode(HandleKind::Communicator, 10)).is_err());
        assert!(CommHandle::decode(&Handle::encode(HandleKind::Communicator, 0)).is_err());
        assert!(CommHandle::decode(&Handle::refused(HandleKind::Communicator)).is_err());
    }

    #[test]
    fn datatype_and_operator_handles() {
        let int = Handle::encode(HandleKind::Datatype, ElementType::Int32.code());
        assert_eq!(datatype_of(&int).unwrap(), ElementType::Int32);
        assert!(operator_of(&int).is_err(), "a datatype handle is no operator");
        let logical = datatype_handle(" mpi_logical").unwrap();
        assert!(datatype_of(&logical).unwrap_err().to_string().contains("not MPI_LOGICAL"), "a handle, but no window's type");
        assert_eq!(datatype_of(&datatype_handle("MPI_REAL8").unwrap()).unwrap(), ElementType::Real64);
        assert!(matches!(datatype_handle("MPI_NOSUCH"), Err(Error::UnknownName { .. })));
        let sum = Handle::encode(HandleKind::Operator, Operator::Sum.code());
        assert_eq!(operator_of(&sum).unwrap(), Operator::Sum);
    }
}
