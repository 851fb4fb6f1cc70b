! PES: 4
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@4: RPN_COMM_xch_halo_8: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_allreduce on EW while PE 0 is in RPN_COMM_xch_halo_8
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_never_meet with PE 1's extra allreduce on its row ('EW' of a 2 x 2 grid), a communicator
! of some PEs: its west neighbour, waiting for it in the halo exchange, sees it gone into a
! collective of their row that it is not in, and fails naming both routines and the row.
#define EXTRA_ON 'EW'
#define TEST_NAME 'test_never_meet_row'
#include "test_never_meet.F90"
