! PES: 4
! TIMEOUT: 60
! EXPECT: fail
! ENV: RPNCOMM_NODE_SPLIT=2
! NODES: one
! OUTPUT_HAS@4: RPN_COMM_xch_halo_8: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_allreduce on the job's communicator while PE 0 is in RPN_COMM_xch_halo_8
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_never_meet over pretend nodes of 2 PEs, which it makes itself (so not where the launcher
! spreads the PEs over nodes: PE 1 could then have no neighbour on its node): the job's
! collectives are MPI's own calls, with no exchange, yet PE 1 announces its entry into one on its
! node's shared memory, where PE 0, its neighbour on the same node, waiting for it in the halo
! exchange, sees it and fails naming both; the job ends. (A neighbour on another node is seen a
! second or two later: test_never_meet_far.)
#define EXTRA_ON 'GRID'
#define TEST_NAME 'test_never_meet_nodes'
#include "test_never_meet.F90"
