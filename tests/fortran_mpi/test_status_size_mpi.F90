! PES: 1 2
! TIMEOUT: 60
!
! MPI transport only. RPN_COMM_status_size gives the MPI library's MPI_STATUS_SIZE, the size of
! the status array a program hands to MPI_Recv.
program test_status_size_mpi
  use ISO_C_BINDING
  use mpi
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, n
  call start('test_status_size_mpi')
  n = -7
  call RPN_COMM_status_size(n)
  call check(n == MPI_STATUS_SIZE, 'status_size '//str(n)//' is MPI_STATUS_SIZE '//str(MPI_STATUS_SIZE))
  call finish('test_status_size_mpi')
contains
  include 'tutil.inc'
end program test_status_size_mpi
