! PES: 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@4: RPN_COMM_gather: PE 3: collective call inconsistent across PEs: PE 0 is in RPN_COMM_reduce while PE 3 is in RPN_COMM_gather (the job ends)
! OUTPUT_HAS@8: RPN_COMM_gather: PE 7: collective call inconsistent across PEs: PE 0 is in RPN_COMM_reduce while PE 7 is in RPN_COMM_gather (the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on on PE 0
!
! test_collective_own_call's program, the last PE gathering to PE 0 where the others reduce a sum
! of reals to it, MPI's call: the last PE names both. The reduce's other senders leave, as MPI_Reduce's
! do; the root never does.
#define ROOTED
#include "test_collective_own_call.F90"
