! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: call 4 on GRID: PE 1 made RPN_COMM_bcast of 4 bytes (root 1) while PE 0 made RPN_COMM_bcast of 4 bytes (root 0) (found in RPN_COMM_allreduce; the job ends)
! OUTPUT_HAS@4: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: call 4 on GRID: PE 3 made RPN_COMM_bcast of 4 bytes (root 3) while PE 0 made RPN_COMM_bcast of 4 bytes (root 0) (found in RPN_COMM_allreduce; the job ends)
! OUTPUT_HAS@8: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: call 4 on GRID: PE 7 made RPN_COMM_bcast of 4 bytes (root 7) while PE 0 made RPN_COMM_bcast of 4 bytes (root 0) (found in RPN_COMM_allreduce; the job ends)
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_rooted_mismatch with PLANTED 'root' (see there).
#define PLANTED 'root'
#define TEST_NAME 'test_rooted_mismatch_root'
#include "test_rooted_mismatch.F90"
