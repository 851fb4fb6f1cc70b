! PES: 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@4: RPN_COMM_barrier: PE 0: collective call inconsistent across PEs: call 2 on GRID: PE 3 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_PROD while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_HAS@8: RPN_COMM_barrier: PE 7: collective call inconsistent across PEs: call 2 on GRID: PE 7 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_PROD while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! test_collective_own_call's program, the last PE making a product of reals where the others
! make a sum, both MPI's call: found at the next barrier.
#define DIVERGE
#include "test_collective_own_call.F90"
