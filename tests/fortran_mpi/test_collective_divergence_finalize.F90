! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_finalize: PE 0: collective call inconsistent across PEs: call 2 on WORLD: PE 1 made RPN_COMM_allreduce of 8 bytes of MPI_INTEGER8 with MPI_SUM while PE 0 made RPN_COMM_allreduce of 8 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_finalize; the job ends)
! OUTPUT_HAS@4: RPN_COMM_finalize: PE 2: collective call inconsistent across PEs: call 2 on WORLD: PE 3 made RPN_COMM_allreduce of 8 bytes of MPI_INTEGER8 with MPI_SUM while PE 0 made RPN_COMM_allreduce of 8 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_finalize; the job ends)
! OUTPUT_HAS@8: RPN_COMM_finalize: PE 7: collective call inconsistent across PEs: call 2 on WORLD: PE 7 made RPN_COMM_allreduce of 8 bytes of MPI_INTEGER8 with MPI_SUM while PE 0 made RPN_COMM_allreduce of 8 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_finalize; the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! test_collective_divergence_barrier's program, the PEs meeting in RPN_COMM_finalize.
#define MEET_FINALIZE
#include "test_collective_divergence_barrier.F90"
