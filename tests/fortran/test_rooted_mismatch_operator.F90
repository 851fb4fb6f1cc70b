! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs: PE 1 makes RPN_COMM_reduce of 8 bytes of MPI_INTEGER with MPI_MAX (root 0) while PE 0 makes RPN_COMM_reduce of 8 bytes of MPI_INTEGER with MPI_SUM (root 0) (the job ends)
! OUTPUT_HAS@4: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs: PE 3 makes RPN_COMM_reduce of 8 bytes of MPI_INTEGER with MPI_MAX (root 0) while PE 0 makes RPN_COMM_reduce of 8 bytes of MPI_INTEGER with MPI_SUM (root 0) (the job ends)
! OUTPUT_HAS@8: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs: PE 7 makes RPN_COMM_reduce of 8 bytes of MPI_INTEGER with MPI_MAX (root 0) while PE 0 makes RPN_COMM_reduce of 8 bytes of MPI_INTEGER with MPI_SUM (root 0) (the job ends)
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_rooted_mismatch with PLANTED 'operator' (see there).
#define PLANTED 'operator'
#define TEST_NAME 'test_rooted_mismatch_operator'
#include "test_rooted_mismatch.F90"
