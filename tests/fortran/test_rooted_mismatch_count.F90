! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_bcast: PE 1: collective call inconsistent across PEs: PE 0 makes RPN_COMM_bcast of 4 bytes (root 0) while PE 1 makes RPN_COMM_bcast of 8 bytes (root 0) (the job ends)
! OUTPUT_HAS@4: RPN_COMM_bcast: PE 3: collective call inconsistent across PEs: PE 0 makes RPN_COMM_bcast of 4 bytes (root 0) while PE 3 makes RPN_COMM_bcast of 8 bytes (root 0) (the job ends)
! OUTPUT_HAS@8: RPN_COMM_bcast: PE 7: collective call inconsistent across PEs: PE 0 makes RPN_COMM_bcast of 4 bytes (root 0) while PE 7 makes RPN_COMM_bcast of 8 bytes (root 0) (the job ends)
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_rooted_mismatch with PLANTED 'count' (see there).
#define PLANTED 'count'
#define TEST_NAME 'test_rooted_mismatch_count'
#include "test_rooted_mismatch.F90"
