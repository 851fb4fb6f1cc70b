! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_i_win_create: PE 0: collective call inconsistent across PEs: call 2 on GRID: PE 1 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_MIN (root 0) while PE 0 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_SUM (root 0) (found in RPN_COMM_i_win_create; the job ends)
! OUTPUT_HAS@4: RPN_COMM_i_win_create: PE 2: collective call inconsistent across PEs: call 2 on GRID: PE 3 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_MIN (root 0) while PE 0 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_SUM (root 0) (found in RPN_COMM_i_win_create; the job ends)
! OUTPUT_HAS@8: RPN_COMM_i_win_create: PE 7: collective call inconsistent across PEs: call 2 on GRID: PE 7 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_MIN (root 0) while PE 0 made RPN_COMM_reduce of 16 bytes of MPI_REAL8 with MPI_SUM (root 0) (found in RPN_COMM_i_win_create; the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! test_collective_divergence_barrier's program, the PEs meeting in RPN_COMM_i_win_create.
#define MEET_WIN_CREATE
#include "test_collective_divergence_barrier.F90"
