! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_reduce while PE 0 is in RPN_COMM_allreduce (the job ends)
! OUTPUT_HAS@4: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: PE 3 is in RPN_COMM_reduce while PE 0 is in RPN_COMM_allreduce (the job ends)
! OUTPUT_HAS@8: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: PE 7 is in RPN_COMM_reduce while PE 0 is in RPN_COMM_allreduce (the job ends)
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_rooted_mismatch with PLANTED 'exchange' (see there).
#define PLANTED 'exchange'
#define TEST_NAME 'test_rooted_mismatch_exchange'
#include "test_rooted_mismatch.F90"
