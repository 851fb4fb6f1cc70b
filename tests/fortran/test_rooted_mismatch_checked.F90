! PES: 2 4 8
! TIMEOUT: 60
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs
! OUTPUT_HAS: with MPI_MAX, PE 0 8 bytes of MPI_INTEGER with MPI_SUM
! OUTPUT_HAS: the job went on on PE 0
! OUTPUT_LACKS: still waiting
!
! test_rooted_mismatch with PLANTED 'operator' in the checking mode: the agreement before the
! reduce compares every PE's type, byte count and operator, not only its root, so every PE
! refuses the call before any data moves, naming the last PE's operator and PE 0's, and the PEs
! go on in step (the allreduce and barrier after it work).
#define PLANTED 'operator'
#define TEST_NAME 'test_rooted_mismatch_checked'
#include "test_rooted_mismatch.F90"
