! PES: 1 2 4
! TIMEOUT: 60
!
! test_block_collectives in the default mode (each call at the original's cost: one round, or the
! one MPI call across nodes; src/runtime/collectives/by_block.rs), its refusals left out: there a
! count the root does not expect ends the job (test_block_mismatch).
#define DEFAULT_MODE
#define TEST_NAME 'test_block_collectives_default'
#include "test_block_collectives.F90"
