! PES: 1 2 3 4 6
! TIMEOUT: 120
! OUTPUT_HAS@1: test_transpose: all checks passed
! OUTPUT_HAS@4: test_transpose: all checks passed
! OUTPUT_HAS@6: test_transpose: all checks passed
!
! test_transpose in the default mode of the collectives (no RPNCOMM_CHECK_COLLECTIVES): the
! transposes checked as the per-step collectives are, every value checked alike; without the PE
! in RPN_COMM_barrier among transposes, which over MPI's own calls across nodes would wait for
! the hang report instead of failing at once.
#define DEFAULT_MODE
#include "test_transpose.F90"
