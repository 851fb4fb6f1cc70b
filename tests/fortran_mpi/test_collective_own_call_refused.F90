! PES: 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@4: RPN_COMM_allreduce: PE 3: unknown datatype name 'MPI_REALX', while PE 0 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (MPI's call, which now waits for this PE for ever; the job ends)
! OUTPUT_HAS@8: RPN_COMM_allreduce: PE 7: unknown datatype name 'MPI_REALX', while PE 0 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (MPI's call, which now waits for this PE for ever; the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! test_collective_own_call's program, the last PE refusing the call the others make with MPI.
#define REFUSE
#include "test_collective_own_call.F90"
