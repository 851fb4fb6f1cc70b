! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: reccountv(2) makes 16 bytes for PE 1, which sends 
! OUTPUT_HAS@4: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: reccountv(4) makes 16 bytes for PE 3, which sends 
! OUTPUT_HAS@8: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: reccountv(8) makes 16 bytes for PE 7, which sends
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_block_mismatch with PLANTED 'longer' (see there): a block longer than the root's count for
! it, which MPI's own gatherv (across nodes) truncates, named by the root as a shorter one is (its
! length where it reads it, "more (MPI truncated its block)" across nodes).
#define PLANTED 'longer'
#define TEST_NAME 'test_block_mismatch_longer'
#include "test_block_mismatch.F90"
