//! Which collective routine a PE is in. Every collective step the PEs take together carries
//! the routine's `CollectiveId`, so that PEs that entered different collectives are told so,
//! with both routines and both PEs named ("PE 1 is in RPN_COMM_barrier while PE 0 is in
//! RPN_COMM_xch_halo"), instead of pairing one routine's internal step with another's.
//!
//! The code (`CollectiveId::code`) is what travels between PEs: stable, never reused, 0 never
//! valid (a PE that wrote nothing reads as 0). New routines take the next free code; a
//! routine's code never changes, so that codes in flight mean the same on every PE, and a retired
//! code (18) is not given to another routine.

use std::fmt;

use crate::error::{Error, Result};

macro_rules! collectives {
    ($($variant:ident = $code:literal => $name:literal,)*) => {
        /// A collective routine of the library (see the module's notes).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u32)]
        pub enum CollectiveId {
            $(
                #[doc = $name]
                $variant = $code,
            )*
        }

        impl CollectiveId {
            /// Every routine, in code order.
            pub const ALL: &'static [CollectiveId] = &[$(CollectiveId::$variant,)*];

            /// The routine's name as the caller wrote it (RPN_COMM_barrier).
            pub const fn name(self) -> &'static str {
                match self {
                    $(CollectiveId::$variant => $name,)*
                }
            }

            /// The routine of `code` (None for 0, or a code this build does not know).
            pub const fn from_code(code: u32) -> Option<CollectiveId> {
                match code {
                    $($code => Some(CollectiveId::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

collectives! {
    Barrier = 1 => "RPN_COMM_barrier",
    Allreduce = 2 => "RPN_COMM_allreduce",
    Allgather = 3 => "RPN_COMM_allgather",
    Bcast = 4 => "RPN_COMM_bcast",
    Init = 5 => "RPN_COMM_init",
    Bloc = 6 => "RPN_COMM_bloc",
    Finalize = 7 => "RPN_COMM_finalize",
    WinCreate = 8 => "RPN_COMM_i_win_create",
    WinCreateSecondary = 9 => "RPN_COMM_i_win_create_secondary",
    WinFree = 10 => "RPN_COMM_i_win_free",
    WinOpen = 11 => "RPN_COMM_i_win_open",
    WinClose = 12 => "RPN_COMM_i_win_close",
    XchHalo = 13 => "RPN_COMM_xch_halo",
    XchHalon = 14 => "RPN_COMM_xch_halon",
    XchHalo8 = 15 => "RPN_COMM_xch_halo_8",
    XchHalox = 16 => "RPN_COMM_xch_halox",
    PropagatePilotCircular = 17 => "RPN_COMM_propagate_pilot_circular",
    Reduce = 19 => "RPN_COMM_reduce",
    Gather = 20 => "RPN_COMM_gather",
    Transpose = 21 => "RPN_COMM_transpose",
    Dist = 22 => "RPN_COMM_dist",
    Coll = 23 => "RPN_COMM_coll",
    ShufEzdist = 24 => "RPN_COMM_shuf_ezdist",
    ShufEzcoll = 25 => "RPN_COMM_shuf_ezcoll",
    Gridinit = 26 => "RPN_COMM_init_multi_level",
    CreateIoSet = 27 => "RPN_COMM_create_io_set",
    FreeIoSet = 28 => "RPN_COMM_free_io_set",
    Comm = 29 => "RPN_COMM_comm",
    SplitBySocket = 30 => "RPN_COMM_split_by_socket",
    MpiTransposeSetup = 31 => "RPN_MPI_transpose_setup",
    MpiEzTransposeXz = 32 => "RPN_MPI_ez_transpose_xz",
    MyDomain = 33 => "RPN_COMM_mydomain",
    Alltoall = 34 => "RPN_COMM_alltoall",
    Gatherv = 35 => "RPN_COMM_gatherv",
    Scatterv = 36 => "RPN_COMM_scatterv",
    Bcastc = 37 => "RPN_COMM_bcastc",
    AdjHalo8 = 40 => "RPN_COMM_adj_halo8",
    AdjHalo4 = 41 => "RPN_COMM_adj_halo4",
    AdjHalo = 42 => "RPN_COMM_adj_halo",
    SpreadContext = 43 => "RPN_COMM_spread_context",
    Spread = 44 => "RPN_COMM_spread",
    FastDist = 60 => "RPN_COMM_fast_dist",
    ShufDist = 61 => "RPN_COMM_shuf_dist",
    ShufColl = 62 => "RPN_COMM_shuf_coll",
    ShufEzdistH = 63 => "RPN_COMM_shuf_ezdist_h",
    GridRedist = 64 => "RPN_COMM_grid_redist",
    GridRedistN = 65 => "RPN_COMM_grid_redist_n",
    Transpose48 = 66 => "RPN_COMM_transpose48",
    GlobalSum = 67 => "RPN_COMM_globalsum",
    MpiTransposeXy = 68 => "RPN_MPI_transpose_xy",
    // (codes from 90: the I/O PE sets' and local distributions' own)
    IoPeBcast = 90 => "RPN_COMM_io_pe_bcast",
    DoDist = 91 => "RPN_COMM_do_dist",
}

impl CollectiveId {
    /// The stable code that travels between PEs (never 0).
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The routine named `name` (any case: RPN_COMM_barrier, rpn_comm_barrier).
    pub fn from_name(name: &str) -> Option<CollectiveId> {
        Self::ALL.iter().copied().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// How a message names the routine of `code` as another PE sent it: its name, or what the
    /// code says when it names none (a PE in no collective of this library, or a newer build).
    pub fn describe(code: u32) -> String {
        match Self::from_code(code) {
            Some(c) => c.name().to_string(),
            None if code == 0 => "no collective call".to_string(),
            None => format!("an unknown collective (code {code})"),
        }
    }

    /// The message for PEs found in different collectives: PE `pe` is in the routine of
    /// `their_code` while PE `other_pe` is in `other` (both PEs named by their rank in the
    /// communicator the collective runs over).
    pub fn mismatch(pe: usize, their_code: u32, other_pe: usize, other: CollectiveId) -> String {
        format!("PE {pe} is in {} while PE {other_pe} is in {}", Self::describe(their_code), other.name())
    }
}

/// The record every PE gives in the first exchange of a collective, one fixed size whatever
/// the routine, so that PEs in different collectives make the same exchange on every transport
/// and read each other's routine: words [refused, routine code, payload length, data bytes (or
/// `NO_DATA`), the signature of the PE's unchecked calls on the communicator (2 words:
/// `core::collectives::call_log`), payload, data, zeros] (native byte order: the PEs of a job
/// share it).
pub const RECORD_BYTES: usize = 256;
/// Words before the payload.
pub const HEADER_WORDS: usize = 6;
/// The longest payload a record carries.
pub const MAX_PAYLOAD: usize = 32;
/// Data that did not fit in the record (the collective sends it in an exchange of its own).
pub const NO_DATA: u32 = u32::MAX;

/// This PE's record in routine `id`, refusing or not, with the `signature` of its unchecked calls
/// on the communicator and `data` in it when it fits.
pub fn record(id: CollectiveId, refused: bool, signature: u64, payload: &[u32], data: &[u8]) -> [u8; RECORD_BYTES] {
    assert!(payload.len() <= MAX_PAYLOAD, "record payloads are small");
    let at = data_offset(payload.len());
    let inline = data.len() <= RECORD_BYTES - at;
    let header = [
        refused as u32,
        id.code(),
        payload.len() as u32,
        if inline { data.len() as u32 } else { NO_DATA },
        signature as u32,
        (signature >> 32) as u32,
    ];
    let mut bytes = [0u8; RECORD_BYTES];
    for (to, w) in bytes.chunks_exact_mut(4).zip(header.iter().chain(payload)) {
        to.copy_from_slice(&w.to_ne_bytes());
    }
    if inline {
        bytes[at..at + data.len()].copy_from_slice(data);
    }
    bytes
}

/// Where the data starts in a record with a payload of `payload_len` words.
pub const fn data_offset(payload_len: usize) -> usize {
    4 * (HEADER_WORDS + payload_len)
}

/// Word `i` of a record.
pub fn word(record: &[u8], i: usize) -> u32 {
    u32::from_ne_bytes(record[4 * i..4 * i + 4].try_into().expect("4 bytes"))
}

/// The signature a record carries.
pub fn signature(record: &[u8]) -> u64 {
    u64::from(word(record, 4)) | u64::from(word(record, 5)) << 32
}

/// The gathered records (`all`, one per PE in rank order) against this PE's routine (`me` in
/// `id`): an error naming the first PE in another routine, and both routines.
pub fn check_routines(all: &[u8], me: usize, id: CollectiveId) -> Result<()> {
    match all.chunks_exact(RECORD_BYTES).enumerate().find(|(_, r)| word(r, 1) != id.code()) {
        Some((pe, r)) => Err(Error::Collective(CollectiveId::mismatch(pe, word(r, 1), me, id))),
        None => Ok(()),
    }
}

impl fmt::Display for CollectiveId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_nonzero_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &c in CollectiveId::ALL {
            assert_ne!(c.code(), 0, "{c}");
            assert!(seen.insert(c.code()), "code {} used twice", c.code());
            assert_eq!(CollectiveId::from_code(c.code()), Some(c));
            assert_eq!(CollectiveId::from_name(&c.name().to_ascii_lowercase()), Some(c));
        }
        assert_eq!(CollectiveId::from_code(0), None);
    }

    #[test]
    fn codes_are_stable() {
        // codes travel between PEs: changing one breaks jobs mixing builds, and the halo's
        // neighbour channels carry them too
        assert_eq!(CollectiveId::Barrier.code(), 1);
        assert_eq!(CollectiveId::XchHalo.code(), 13);
        assert_eq!(CollectiveId::WinOpen.code(), 11);
    }

    #[test]
    fn small_data_travels_in_the_record_large_data_does_not() {
        let fits = vec![7u8; RECORD_BYTES - data_offset(3)];
        let r = record(CollectiveId::Allreduce, false, 7 << 32 | 5, &[1, 2, 3], &fits);
        assert_eq!((word(&r, 1), word(&r, 2), word(&r, 3), word(&r, HEADER_WORDS)), (2, 3, fits.len() as u32, 1));
        assert_eq!(signature(&r), 7 << 32 | 5);
        assert_eq!(&r[data_offset(3)..], &fits[..]);
        let r = record(CollectiveId::Allreduce, true, 0, &[1, 2, 3], &[7u8; RECORD_BYTES]);
        assert_eq!((word(&r, 0), word(&r, 3)), (1, NO_DATA));
        assert!(r[data_offset(3)..].iter().all(|&b| b == 0), "nothing of it in the record");
    }

    #[test]
    fn check_routines_names_the_first_pe_elsewhere() {
        let all = [record(CollectiveId::WinOpen, false, 0, &[], &[]), record(CollectiveId::Barrier, false, 0, &[], &[])].concat();
        assert!(
            check_routines(&all, 0, CollectiveId::WinOpen)
                .unwrap_err()
                .to_string()
                .ends_with("PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_i_win_open")
        );
        assert!(check_routines(&all[..RECORD_BYTES], 0, CollectiveId::WinOpen).is_ok());
    }

    #[test]
    fn mismatch_names_both_routines_and_both_pes() {
        let m = CollectiveId::mismatch(1, CollectiveId::Barrier.code(), 0, CollectiveId::XchHalo);
        assert_eq!(m, "PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_xch_halo");
        assert_eq!(CollectiveId::describe(0), "no collective call");
        assert!(CollectiveId::describe(9999).contains("9999"));
    }
}
