! PES: 2 4
! TIMEOUT: 30
! EXPECT: fail
! ENV: RPNCOMM_NODE_SPLIT=1
! OUTPUT_HAS@2: RPN_COMM_xch_halo_8: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_allreduce
! OUTPUT_HAS@4: PE 1 is in RPN_COMM_allreduce on the job's communicator while PE
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_never_meet with every PE its own pretend node: PE 1 goes into MPI's own allreduce while
! its neighbours, on other nodes, wait for it in a halo exchange. A PE that has waited a second
! reads where its neighbour is (docs/halo.md), sees it in a collective of the job it has not
! entered, and fails naming both; the Fortran halo routine ends it, and the job ends within a few
! seconds, before any hang report.
#define EXTRA_ON 'GRID'
#define TEST_NAME 'test_never_meet_far'
#include "test_never_meet.F90"
