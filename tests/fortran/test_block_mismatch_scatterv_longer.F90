! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: collective call inconsistent across PEs: sendcount(2) makes
! OUTPUT_HAS@2: for PE 1, which receives 16 bytes
! OUTPUT_HAS@4: collective call inconsistent across PEs: sendcount(4) makes
! OUTPUT_HAS@4: for PE 3, which receives 16 bytes
! OUTPUT_HAS@8: collective call inconsistent across PEs: sendcount(8) makes
! OUTPUT_HAS@8: for PE 7, which receives 16 bytes
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_block_mismatch with PLANTED 'scatterv_longer' (see there): the root sends a PE more than it
! receives; over an exchange the root names it with both counts, across nodes the PE whose block
! MPI's scatterv truncated ("makes more").
#define PLANTED 'scatterv_longer'
#define TEST_NAME 'test_block_mismatch_scatterv_longer'
#include "test_block_mismatch.F90"
