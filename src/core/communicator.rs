//! A communicator: the PEs a collective call or a window spans. Its members are job ranks in
//! communicator-rank order (rank r of the communicator is job rank `members[r]`); every rank an
//! API call takes (targets, group lists) is a rank in the communicator of the call. A
//! communicator of the caller's own MPI program is opaque: only MPI knows its members.

use std::sync::Arc;

use crate::error::{Error, Result};

/// Which communicator of its transport this is: `CommId::JOB` (every PE of the job) or an id
/// the transport gave out when it made the communicator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CommId(pub u32);

impl CommId {
    /// The whole job (what 'GRID', 'WORLD' and 'ALLGRIDS' designate).
    pub const JOB: CommId = CommId(0);
}

/// A map by communicator, looked up at every collective call: its keys are small integers that
/// the transport gives out, distinct, so they are their own hash (SipHash, the default, costs
/// more than the rest of a lookup).
pub type CommMap<V> = std::collections::HashMap<CommId, V, std::hash::BuildHasherDefault<CommIdHasher>>;

/// The hasher of `CommMap`: a communicator's id as it is.
#[derive(Default)]
pub struct CommIdHasher(u64);

impl std::hash::Hasher for CommIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0 << 8 | u64::from(b);
        }
    }
    fn write_u32(&mut self, id: u32) {
        self.0 = u64::from(id);
    }
}

/// A set of PEs with ranks of their own, as this PE sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Communicator {
    id: CommId,
    /// Job ranks in communicator-rank order (shared by the windows created over it); None for
    /// an opaque communicator.
    members: Option<Arc<[usize]>>,
    /// This PE's rank in the communicator.
    rank: usize,
    size: usize,
    /// The RPN_COMM name it was made for ('EW', 'NS', ...), for messages; None for the job
    /// and for wrapped MPI communicators.
    name: Option<&'static str>,
}

impl Communicator {
    /// Every PE of a job of `npes` PEs, this PE being `job_rank`.
    pub fn job(npes: usize, job_rank: usize) -> Result<Self> {
        Self::new(CommId::JOB, (0..npes).collect(), job_rank)
    }

    /// The communicator `id` of `members` (job ranks in communicator-rank order, each once),
    /// seen from job rank `job_rank`, which must be a member.
    pub fn new(id: CommId, members: Vec<usize>, job_rank: usize) -> Result<Self> {
        let mut sorted = members.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::Internal(format!("communicator with a PE twice: {members:?}")));
        }
        let rank = members
            .iter()
            .position(|&m| m == job_rank)
            .ok_or_else(|| Error::Internal(format!("PE {job_rank} is not a member of the communicator {members:?}")))?;
        Ok(Communicator { id, size: members.len(), members: Some(members.into()), rank, name: None })
    }

    /// The communicator `id` whose members only the transport knows (an MPI communicator of the
    /// caller's, wrapped without a collective call), of `size` PEs, this PE being `rank`.
    pub fn opaque(id: CommId, rank: usize, size: usize) -> Result<Self> {
        if rank >= size {
            return Err(Error::Internal(format!("rank {rank} in a communicator of {size} PEs")));
        }
        Ok(Communicator { id, members: None, rank, size, name: None })
    }

    /// The same communicator, named `name` in messages ("window 3 over EW").
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = Some(name);
        self
    }

    /// The RPN_COMM name it was made for, if any.
    pub fn name(&self) -> Option<&'static str> {
        self.name
    }

    /// The transport's id of this communicator.
    pub fn id(&self) -> CommId {
        self.id
    }

    /// This PE's rank in the communicator.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The number of PEs in the communicator.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Job ranks of the members, in communicator-rank order (None: opaque).
    pub fn members(&self) -> Option<&[usize]> {
        self.members.as_deref()
    }

    /// Whether the communicator is the whole job of `npes` PEs, in job-rank order.
    pub fn is_whole_job(&self, npes: usize) -> bool {
        self.members().is_some_and(|m| m.len() == npes && m.iter().enumerate().all(|(r, &j)| r == j))
    }

    /// The job rank of communicator rank `rank` (None: no such rank, or opaque).
    pub fn job_rank(&self, rank: usize) -> Option<usize> {
        self.members()?.get(rank).copied()
    }

    /// The communicator rank of job rank `job_rank` (None: not a member, or opaque).
    pub fn rank_of(&self, job_rank: usize) -> Option<usize> {
        self.members()?.iter().position(|&m| m == job_rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_maps_ranks_to_themselves() {
        let job = Communicator::job(4, 2).unwrap();
        assert_eq!((job.id(), job.rank(), job.size()), (CommId::JOB, 2, 4));
        assert!(job.is_whole_job(4));
        assert!(!job.is_whole_job(5));
        assert_eq!((0..4).map(|r| job.job_rank(r).unwrap()).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(job.job_rank(4), None);
    }

    #[test]
    fn ranks_translate_both_ways() {
        // A column of a 2 x 3 grid: job ranks 1, 3, 5, this PE being job rank 3.
        let column = Communicator::new(CommId(7), vec![1, 3, 5], 3).unwrap();
        assert_eq!((column.id(), column.rank(), column.size()), (CommId(7), 1, 3));
        assert!(!column.is_whole_job(6));
        for r in 0..3 {
            let job_rank = column.job_rank(r).unwrap();
            assert_eq!(column.rank_of(job_rank), Some(r));
        }
        assert_eq!(column.rank_of(2), None, "job rank 2 is in another column");
        assert_eq!(column.job_rank(3), None);
        // Members in any order: communicator ranks follow the list, not the job ranks.
        let reversed = Communicator::new(CommId(8), vec![5, 3, 1], 5).unwrap();
        assert_eq!((reversed.rank(), reversed.job_rank(2), reversed.rank_of(1)), (0, Some(1), Some(2)));
        assert!(!Communicator::new(CommId(9), vec![0, 1, 2, 3], 0).unwrap().is_whole_job(5));
    }

    #[test]
    fn an_opaque_communicator_has_a_size_and_a_rank_but_no_members() {
        let wrapped = Communicator::opaque(CommId(2), 1, 3).unwrap();
        assert_eq!((wrapped.rank(), wrapped.size(), wrapped.members()), (1, 3, None));
        assert_eq!((wrapped.job_rank(0), wrapped.rank_of(1)), (None, None));
        assert!(!wrapped.is_whole_job(3));
        assert!(Communicator::opaque(CommId(2), 3, 3).is_err());
    }

    #[test]
    fn a_communicator_without_this_pe_or_with_a_pe_twice_is_refused() {
        assert!(Communicator::new(CommId(1), vec![0, 2], 1).is_err());
        assert!(Communicator::new(CommId(1), vec![0, 2, 0], 0).is_err());
        assert!(Communicator::job(3, 3).is_err());
    }
}
