! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: collective call inconsistent across PEs: sendcount(2) makes 16 bytes for PE 1, which receives 24 bytes
! OUTPUT_HAS@4: collective call inconsistent across PEs: sendcount(4) makes 16 bytes for PE 3, which receives 24 bytes
! OUTPUT_HAS@8: collective call inconsistent across PEs: sendcount(8) makes 16 bytes for PE 7, which receives 24 bytes
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! test_block_mismatch with PLANTED 'scatterv' (see there): the root names the PE over an
! exchange, the PE itself across nodes (the line's PE differs, its words do not).
#define PLANTED 'scatterv'
#define TEST_NAME 'test_block_mismatch_scatterv'
#include "test_block_mismatch.F90"
