! PES: 2 3
! TIMEOUT: 60
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce
! OUTPUT_HAS@2: RPN_COMM_barrier: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_allreduce while PE 1 is in RPN_COMM_barrier
! OUTPUT_HAS@3: RPN_COMM_allreduce: PE 2: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 2 is in RPN_COMM_allreduce
! OUTPUT_HAS@3: RPN_COMM_i_win_create: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_bcast while PE 0 is in RPN_COMM_i_win_create
!
! In the checking mode (every collective call checked before any data moves, on every transport;
! test_collective_mismatch_fast is the default mode over shared memory, tests/fortran_mpi's
! test_collective_divergence_* over MPI). Collectives know each other (docs/contract.md rule 11): PE 1 skips the collective its peers are in and
! calls another (RPN_COMM_barrier, RPN_COMM_bcast). Every PE fails with RPN_COMM_ERROR and one line
! naming both routines and both PEs, nothing is written into any buffer, and afterwards the PEs
! are in step again: the next collective they all call works. The pairs: allreduce / barrier,
! window create / bcast, bcast / allgather, and finalize / barrier. The xch_halo / barrier pair
! is test_halo_mismatch (shared memory only: the MPI transport's channels do not see a
! neighbour's collective yet).
program test_collective_mismatch
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, status
  integer, parameter :: SENT = -77
  integer :: sendv(4), recv(4), gathered(4 * 8)
  integer, dimension(8), target :: warr
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_collective_mismatch: running on ', npes, ' PEs'

  call section('PE 1 calls RPN_COMM_barrier, the others RPN_COMM_allreduce')
  sendv = me + 1
  recv = SENT
  if (me == 1) then
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_allreduce(sendv, recv, 4, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call check(all(recv == SENT), 'nothing written into the receive buffer')
  call in_step('after allreduce / barrier')

  call section('PE 1 calls RPN_COMM_bcast, the others RPN_COMM_i_win_create')
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  warr = SENT
  recv = SENT
  if (me == 1) then
    call RPN_COMM_bcast(recv, 4, RPN_COMM_INTEGER, 0, RPN_COMM_GRID, ierr)
    call check(all(recv == SENT), 'nothing written into the broadcast buffer')
  else
    call RPN_COMM_i_win_create(w, dint, 8, com, c_loc(warr), ierr)
    call check(.not. RPN_COMM_i_valid_win(w, status), 'no window made')
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call check(all(warr == SENT), 'the window array untouched')
  call in_step('after win_create / bcast')

  call section('PE 0 calls RPN_COMM_allgather, the others RPN_COMM_bcast')
  gathered = SENT
  recv = SENT
  if (me == 0) then
    call RPN_COMM_allgather(sendv, 4, RPN_COMM_INTEGER, gathered, 4, RPN_COMM_INTEGER, RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_bcast(recv, 4, RPN_COMM_INTEGER, 0, RPN_COMM_GRID, ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call check(all(gathered == SENT) .and. all(recv == SENT), 'nothing written')
  call in_step('after allgather / bcast')

  call section('PE 1 calls RPN_COMM_barrier, the others RPN_COMM_finalize')
  if (me == 1) then
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_finalize(ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call in_step('after finalize / barrier (the finalize refused keeps the job running)')

  call finish('test_collective_mismatch')

contains

  include 'in_step.inc'

  ! one row: every PE has x neighbours, nobody has y neighbours
  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_collective_mismatch
