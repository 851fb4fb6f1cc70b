! PES: 4
! EXPECT: fail
! TIMEOUT: 10
!
! Fault tolerance: PE 2 dies (C abort(), SIGABRT, no clean-up) in the middle of a fence epoch
! while the other PEs wait for it in RPN_COMM_i_win_close. The job must end with a non-zero status
! well within the timeout, with no process and no /dev/shm segment left behind (the harness checks
! both). Reaching the end of the program is itself a failure.
program test_fault
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  interface
    subroutine c_abort() bind(C, name='abort')
    end subroutine c_abort
  end interface
  integer :: me, npes, nerr, ierr
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com
  integer, dimension(16), target :: warr
  integer, dimension(4), target :: src
  real(kind=8) :: t0

  call start('test_fault')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  warr = 0
  call RPN_COMM_i_win_create(w, dint, 16, com, c_loc(warr), ierr)
  src = me
  call RPN_COMM_i_win_open(w, .true., ierr)
  call RPN_COMM_i_win_put_r(w, c_loc(src), mod(me + 1, npes), 0, 4, ierr)
  if (me == 2) then
    t0 = RPN_COMM_wtime()
    do while (RPN_COMM_wtime() - t0 < 0.3_8)     ! let the others reach close
    enddo
    write(*, '(A)') 'test_fault: PE 2 aborts now, inside the epoch'
    flush(6)
    call c_abort()
  endif
  call RPN_COMM_i_win_close(w, ierr)             ! PE 2 never arrives
  write(*, '(A,I0,A,I0)') 'test_fault: PE ', me, ' returned from close, ierr = ', ierr
  error stop 1
contains
  include 'tutil.inc'
end program test_fault
