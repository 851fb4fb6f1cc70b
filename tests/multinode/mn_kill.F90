! Across nodes (tests/multinode/check.sh): the last PE, on the last node, is killed by SIGKILL (no
! clean-up of any kind) inside a fence epoch while the other PEs wait for it in
! RPN_COMM_i_win_close. mpirun must end the whole job with a non-zero status naming the dead
! process; mnrun.sh then finds no process and no /dev/shm file left on any node. Reaching the end
! of the program is itself a failure.
program mn_kill
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  interface
    integer(C_INT) function c_raise(sig) bind(C, name='raise')
      import :: C_INT
      integer(C_INT), value :: sig
    end function c_raise
  end interface
  integer :: me, npes, nerr, ierr
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com
  integer, dimension(16), target :: warr
  integer, dimension(4), target :: src
  real(kind=8) :: t0

  call start('mn_kill')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  warr = 0
  call RPN_COMM_i_win_create(w, dint, 16, com, C_NULL_PTR, ierr)
  src = me
  call RPN_COMM_i_win_open(w, .true., ierr)
  call RPN_COMM_i_win_put_r(w, c_loc(src), mod(me + 1, npes), 0, 4, ierr)
  if (me == npes - 1) then
    t0 = RPN_COMM_wtime()
    do while (RPN_COMM_wtime() - t0 < 0.3_8)     ! let the others reach close
    enddo
    write(*, '(A,I0,A)') 'mn_kill: PE ', me, ' kills itself (SIGKILL) now, inside the epoch'
    flush(6)
    ierr = c_raise(9_C_INT)
  endif
  call RPN_COMM_i_win_close(w, ierr)             ! the last PE never arrives
  write(*, '(A,I0,A,I0)') 'mn_kill: PE ', me, ' returned from close, ierr = ', ierr
  error stop 1
contains
  include 'tutil.inc'
end program mn_kill
