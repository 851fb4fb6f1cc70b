! PES: 1 2
! TIMEOUT: 30
! TRANSPORT: shm
! OUTPUT_HAS@2: RPN_COMM_status_size: PE 1: not supported by this transport: RPN_COMM_status_size is MPI's MPI_STATUS_SIZE: it needs the MPI build (make MPI=1)
!
! RPN_COMM_status_size on shared memory, which has no MPI status: refused with one line naming
! the MPI build, status_size = -1, and the program goes on (the MPI build's value is
! checked against MPI_STATUS_SIZE by tests/fortran_mpi/test_status_size_mpi.F90).
program test_status_size_refused
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, n
  call start('test_status_size_refused')
  n = 0
  call RPN_COMM_status_size(n)
  call check(n == -1, 'status_size -1: '//str(n))
  call finish('test_status_size_refused')
contains
  include 'tutil.inc'
end program test_status_size_refused
