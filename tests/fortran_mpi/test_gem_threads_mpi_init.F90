! PES: 1 2 4
! FFLAGS: -fopenmp
! ENV: OMP_WAIT_POLICY=passive RPNCOMM_NODE_SPLIT=1
! TIMEOUT: 180
!
! test_gem_threads as GEM starts: the program calls MPI_Init itself, before RPN_COMM_init, so MPI
! is at MPI_THREAD_SINGLE, and its OpenMP threads then make their calls one at a time, whichever
! thread takes each `!$omp single`. The library serves them all (docs/windows.md, "Threads").
! Every PE is its own pretend node, so that every call goes through MPI.
#define MPI_INIT_FIRST
#include "test_gem_threads.F90"
