//! The original's conversions between the Fortran and C handles of MPI objects (RPN_COMM_comm_c2f,
//! RPN_COMM_comm_f2c, ..., RPN_COMM_c2f, RPN_COMM_f2c): MPI handles exist in the MPI build only;
//! the shared-memory build refuses them with one line.
//!
//! A C handle is taken only where it is one that an f2c of this library gave (they are kept):
//! MPI's c2f functions read through a C handle, and any other value could crash the program.
//! A communicator handle of the library's own (RPN_COMM_i_comm's) converts to the Fortran MPI
//! handle of its communicator, the one meaningful answer for it.

use super::super::Runtime;
use crate::core::{Handle, HandleKind};
use crate::error::{Error, Result};

/// The kinds of MPI objects, numbered as the original's RPN_COMM_c2f and RPN_COMM_f2c number
/// them (the shim's codes too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MpiObject {
    Datatype = 0,
    File = 1,
    Group = 2,
    Info = 3,
    Operator = 4,
    Request = 5,
    Window = 6,
    Communicator = 7,
}

impl MpiObject {
    /// The kind of the original's code `what`.
    pub fn from_code(what: i32) -> Result<Self> {
        Ok(match what {
            0 => Self::Datatype,
            1 => Self::File,
            2 => Self::Group,
            3 => Self::Info,
            4 => Self::Operator,
            5 => Self::Request,
            6 => Self::Window,
            7 => Self::Communicator,
            _ => return Err(Error::BadArgument(format!("kind {what}: 0 (datatype) to 7 (communicator) expected"))),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Datatype => "datatype",
            Self::File => "file",
            Self::Group => "group",
            Self::Info => "info",
            Self::Operator => "operator",
            Self::Request => "request",
            Self::Window => "window",
            Self::Communicator => "communicator",
        }
    }
}

/// The C handles (kind, bits) that `f2c` gave, the only ones `c2f` passes to MPI.
#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI handles exist in the MPI build only"))]
static GIVEN: std::sync::Mutex<Vec<(MpiObject, i64)>> = std::sync::Mutex::new(Vec::new());

#[cfg_attr(not(feature = "mpi"), allow(dead_code, reason = "MPI handles exist in the MPI build only"))]
fn given() -> std::sync::MutexGuard<'static, Vec<(MpiObject, i64)>> {
    GIVEN.lock().unwrap_or_else(|e| e.into_inner())
}

/// The C handle (its bits) of the Fortran MPI handle `f` of an object of `kind`.
pub fn f2c(kind: MpiObject, f: i32) -> Result<i64> {
    #[cfg(feature = "mpi")]
    {
        super::super::with_runtime(|_| Ok(()))?;
        let c = crate::transport::mpi::handles::handle_f2c(kind as i32, f)?;
        let mut g = given();
        if !g.contains(&(kind, c)) {
            g.push((kind, c));
        }
        Ok(c)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (kind, f);
        Err(Error::Unsupported("converting MPI handles needs the MPI build (make MPI=1): the shared-memory build has no MPI handles"))
    }
}

/// The Fortran MPI handle of the C handle `c` (its bits) of an object of `kind`: one that
/// `f2c` gave.
pub fn c2f(kind: MpiObject, c: i64) -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        super::super::with_runtime(|_| Ok(()))?;
        if !given().contains(&(kind, c)) {
            return Err(Error::BadArgument(format!("{c:#x} is not a C {} handle that RPN_COMM_f2c gave", kind.name())));
        }
        crate::transport::mpi::handles::handle_c2f(kind as i32, c)
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = (kind, c);
        Err(Error::Unsupported("converting MPI handles needs the MPI build (make MPI=1): the shared-memory build has no MPI handles"))
    }
}

/// MPI_WIN_NULL's Fortran handle (the library's windows have no MPI window to hand out).
pub fn win_null_fortran() -> Result<i32> {
    #[cfg(feature = "mpi")]
    {
        super::super::with_runtime(|_| Ok(()))?;
        Ok(crate::transport::mpi::handles::win_null())
    }
    #[cfg(not(feature = "mpi"))]
    {
        Err(Error::Unsupported("MPI window handles need the MPI build (make MPI=1): the shared-memory build has no MPI handles"))
    }
}

/// Whether `h` carries the signature of one of the library's own handle kinds.
pub fn is_library_handle(h: &Handle) -> bool {
    [HandleKind::Datatype, HandleKind::Operator, HandleKind::Communicator, HandleKind::Window, HandleKind::Request, HandleKind::Context]
        .into_iter()
        .any(|k| h.p == Handle::encode(k, 0).p)
}

impl Runtime {
    /// The Fortran MPI handle of the communicator of the library's handle `h` (MPI build;
    /// MPI_COMM_NULL's where this PE is no member).
    pub fn library_comm_fortran(&self, h: &Handle) -> Result<i32> {
        let comm = match self.communicator(h) {
            Ok(c) => Some(c),
            Err(Error::NotMember(_)) => None,
            Err(e) => return Err(e),
        };
        self.transport.fortran_comm(comm.as_ref())
    }
}

/// The refusal of a library handle of `kind` other than a communicator: it has no MPI object.
pub fn no_mpi_object(kind: MpiObject) -> Error {
    Error::BadArgument(format!("a {} handle of the library's own has no MPI handle", kind.name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_numbered_as_the_original() {
        assert_eq!(MpiObject::from_code(0).unwrap(), MpiObject::Datatype);
        assert_eq!(MpiObject::from_code(6).unwrap(), MpiObject::Window);
        assert_eq!(MpiObject::from_code(7).unwrap(), MpiObject::Communicator);
        assert!(MpiObject::from_code(8).is_err() && MpiObject::from_code(-1).is_err());
    }

    #[test]
    fn library_handles_are_told_apart() {
        assert!(is_library_handle(&Handle::encode(HandleKind::Communicator, 3)));
        assert!(!is_library_handle(&Handle { p: 0x1234_5678, t1: 0, t2: 0 }));
        assert!(!is_library_handle(&Handle::NULL));
    }

    #[cfg(not(feature = "mpi"))]
    #[test]
    fn refused_on_shared_memory() {
        assert!(matches!(f2c(MpiObject::Communicator, 0), Err(Error::Unsupported(_))));
        assert!(matches!(c2f(MpiObject::Communicator, 0), Err(Error::Unsupported(_))));
    }
}
