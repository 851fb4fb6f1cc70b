! PES: 2 3
! TIMEOUT: 60
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
!
! MPI transport only: the opening and closing of a passive epoch of an MPI window are barriers
! over the window's communicator, which is also the one the collectives of its name run over
! (here the job). A PE in RPN_COMM_barrier or RPN_COMM_allreduce while the others open or close
! the window fails with them, every PE told both routines and both PEs (the epoch's barrier says
! which routine it is part of; test_collective_mismatch checks the words of the messages);
! nothing is written, the window stays as it was (closed after the refused open, open after the
! refused close) and the PEs are in step again afterwards. Windows are MPI windows only between
! nodes: this part runs with RPNCOMM_NODE_SPLIT=1 (every rank a pretend node; make check-full
! MPI=1, openmpi-tcp-split1), and says it is skipped otherwise (windows of one node are in shared
! memory, whose epochs are matched by no other collective: a PE missing is reported as late).
program test_collective_mismatch_mpi
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, ierr
  integer, parameter :: N = 4, SENT = -5
  integer, dimension(N), target :: warr
  integer :: x, y, nlen
  character(len=8) :: split
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com

  call start('test_collective_mismatch_mpi')
  call get_environment_variable('RPNCOMM_NODE_SPLIT', split, nlen)
  if (split /= '1') then
    if (me == 0) print '(A)', 'test_collective_mismatch_mpi: skipped: windows are MPI windows only with RPNCOMM_NODE_SPLIT=1'
    call finish('test_collective_mismatch_mpi')
    stop
  endif
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  warr = SENT
  call RPN_COMM_i_win_create(w, dint, N, com, c_loc(warr), ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'create')

  call section('PE 1 calls RPN_COMM_barrier, the others open the window in passive mode')
  if (me == 1) then
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_i_win_open(w, .false., ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call check(.not. RPN_COMM_i_win_check(w, ierr), 'the window stays closed')
  call in_step('after open / barrier')

  call section('every PE opens; PE 1 calls RPN_COMM_allreduce, the others close')
  call RPN_COMM_i_win_open(w, .false., ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'open (passive)')
  x = 1
  y = SENT
  if (me == 1) then
    call RPN_COMM_allreduce(x, y, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
    call check(y == SENT, 'nothing written into the receive buffer')
  else
    call RPN_COMM_i_win_close(w, ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call check(RPN_COMM_i_win_check(w, ierr), 'the window stays open')
  call RPN_COMM_i_win_close(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'close by every PE')
  call check(all(warr == SENT), 'the window array untouched')
  call RPN_COMM_i_win_free(w, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'free')
  call in_step('after close / allreduce')

  call finish('test_collective_mismatch_mpi')

contains

  subroutine in_step(what)
    character(len=*), intent(IN) :: what
    integer :: one, total, ierr2
    one = 1
    total = 0
    call RPN_COMM_allreduce(one, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr2)
    call check(ierr2 == RPN_COMM_OK .and. total == npes, what//': a collective of every PE works')
  end subroutine in_step

  include 'tutil.inc'
end program test_collective_mismatch_mpi
