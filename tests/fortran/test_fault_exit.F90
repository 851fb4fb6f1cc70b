! PES: 4
! EXPECT: fail
! TIMEOUT: 10
!
! Fault tolerance, second case: PE 1 leaves with "error stop 3" (normal process exit, status 3,
! without RPN_COMM_finalize) during a passive epoch, after a passive accumulate, while the other PEs
! keep working and then wait in RPN_COMM_i_win_close (a barrier in passive mode). The job must end
! non-zero within the timeout with nothing left behind.
program test_fault_exit
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, ierr, i
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com
  integer, dimension(1), target :: one

  call start('test_fault_exit')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  call RPN_COMM_i_win_create(w, dint, 4, com, C_NULL_PTR, ierr)
  one = 1
  call RPN_COMM_i_win_open(w, .false., ierr)
  call RPN_COMM_i_win_getacc_r(w, c_loc(one), C_NULL_PTR, .false., 0, 0, 1, NULL_rpncomm_operator, ierr)
  if (me == 1) then
    write(*, '(A)') 'test_fault_exit: PE 1 exits now (error stop 3), inside a passive epoch'
    flush(6)
    error stop 3
  endif
  do i = 1, 1000
    call RPN_COMM_i_win_getacc_r(w, c_loc(one), C_NULL_PTR, .false., 0, 0, 1, NULL_rpncomm_operator, ierr)
  enddo
  call RPN_COMM_i_win_close(w, ierr)             ! PE 1 never arrives
  write(*, '(A,I0,A,I0)') 'test_fault_exit: PE ', me, ' returned from close, ierr = ', ierr
  error stop 1
contains
  include 'tutil.inc'
end program test_fault_exit
