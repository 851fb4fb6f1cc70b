! PES: 2 4 8
! TIMEOUT: 60
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: bad argument: reccountv(2) makes 16 bytes for PE 1, which sends 24 bytes
! OUTPUT_HAS@4: RPN_COMM_gatherv: PE 0: bad argument: reccountv(4) makes 16 bytes for PE 3, which sends 24 bytes
! OUTPUT_HAS@8: RPN_COMM_gatherv: PE 0: bad argument: reccountv(8) makes 16 bytes for PE 7, which sends 24 bytes
! EACH_PE_WROTE: refused on PE %P
! OUTPUT_HAS: the job went on on PE 0
! OUTPUT_LACKS: still waiting
!
! test_block_mismatch with PLANTED 'longer' in the checking mode: the agreement before the gatherv
! gives the root every PE's byte count, so the root refuses the call before any data moves,
! naming the PE and both counts, every PE returns RPN_COMM_ERROR, and the PEs go on in step (the
! barriers after it work), on every transport alike.
#define PLANTED 'longer'
#define TEST_NAME 'test_block_mismatch_checked'
#include "test_block_mismatch.F90"
