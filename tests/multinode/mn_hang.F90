! Across nodes (tests/multinode/check.sh), with RPNCOMM_HANG_REPORT=1: the last PE, on the last
! node, arrives 3.5 s late at the closing fence of an epoch. The others wait inside MPI_Win_fence
! and must report it (RPN_COMM_i_win_close: PE n: still waiting after ... s ... MPI_Win_fence),
! then the epoch completes and the job ends normally.
program mn_hang
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, ierr
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com
  integer, dimension(4), target :: src
  integer, dimension(4), target :: mine
  real(kind=8) :: t0

  call start('mn_hang')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  mine = 0
  call RPN_COMM_i_win_create(w, dint, 4, com, c_loc(mine), ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'window creation')
  src = me + 1
  call RPN_COMM_i_win_open(w, .true., ierr)
  call RPN_COMM_i_win_put_r(w, c_loc(src), mod(me + 1, npes), 0, 4, ierr)
  if (me == npes - 1) then
    t0 = RPN_COMM_wtime()
    do while (RPN_COMM_wtime() - t0 < 3.5_8)
      call sleep(1)
    enddo
  endif
  call RPN_COMM_i_win_close(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'late close')
  call check(all(mine == mod(me - 1 + npes, npes) + 1), 'data of the late epoch')
  call RPN_COMM_i_win_free(w, ierr)
  call finish('mn_hang')
contains
  include 'tutil.inc'
end program mn_hang
