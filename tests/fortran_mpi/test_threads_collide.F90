! PES: 4
! FFLAGS: -fopenmp
! ENV: RPNCOMM_NODE_SPLIT=1 RPNCOMM_MPI_THREADS=single OMP_WAIT_POLICY=passive
! TIMEOUT: 60
! OUTPUT_ONCE: called MPI at the same time at MPI_THREAD_SINGLE, which does not allow it
!
! test_threads at MPI_THREAD_SINGLE, every PE its own pretend node: the threads' passive calls
! are MPI calls, made at the same time on every PE, which the library makes one at a time. The
! job says so in one line, once, whatever its PE count (docs/windows.md, "Threads"). On 4 PEs
! only: where a launcher makes pretend nodes of 2, 2 PEs would be one node, whose passive calls
! are stores in shared memory (no MPI call, no line).
#define CALLS 20
#include "test_threads.F90"
