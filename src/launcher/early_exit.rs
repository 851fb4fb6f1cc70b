//! A PE that leaves the program with status 0 but without RPN_COMM_finalize while the others
//! still need it: mpirun calls such a job failed, and so does rpnrun (one line naming the PE).

use crate::transport::shm::job::PeState;

/// What the launcher saw of the PEs that exited with status 0.
#[derive(Debug, Default)]
pub struct Exits {
    /// PEs that had started the library (RPN_COMM_init) and exited without RPN_COMM_finalize,
    /// in the order they were reaped.
    unfinalized: Vec<usize>,
    /// Some PE called RPN_COMM_finalize: the job uses it, so a PE that skipped it left early.
    finalized_any: bool,
}

impl Exits {
    /// Records PE `rank`, which exited with status 0 in `state`.
    pub fn record(&mut self, rank: usize, state: PeState) {
        match state {
            PeState::Running => self.unfinalized.push(rank),
            PeState::Finalized => self.finalized_any = true,
            PeState::NotStarted | PeState::Exited => {}
        }
    }

    /// The line that fails a job whose PEs all exited with 0, if one of them left early: the PE
    /// another PE was waiting for when it left (`left_waiters`, recorded by the waiter), else the
    /// first PE that skipped RPN_COMM_finalize where others called it. None for a job whose
    /// PEs all finalized, or none did (a program that never calls it, as the examples of the
    /// Rust API).
    pub fn early(&self, left_waiters: Option<usize>) -> Option<String> {
        let pe = left_waiters.or_else(|| self.unfinalized.first().copied().filter(|_| self.finalized_any))?;
        Some(format!("PE {pe} exited with status 0 without calling RPN_COMM_finalize while other PEs still needed it; the job failed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pe_left_early_only_where_the_job_finalizes_or_someone_waited() {
        let mut all = Exits::default();
        (0..3).for_each(|r| all.record(r, PeState::Finalized));
        assert_eq!(all.early(None), None);
        let mut none = Exits::default();
        (0..3).for_each(|r| none.record(r, PeState::Running));
        assert_eq!(none.early(None), None, "no PE finalizes: nothing to compare with");
        assert!(none.early(Some(2)).unwrap().starts_with("PE 2 exited"), "a waiter saw PE 2 leave");
        let mut one = Exits::default();
        one.record(0, PeState::Finalized);
        one.record(1, PeState::Running);
        one.record(2, PeState::NotStarted);
        assert!(one.early(None).unwrap().starts_with("PE 1 exited with status 0 without calling RPN_COMM_finalize"));
    }
}
