! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_barrier: PE 0: collective call inconsistent across PEs: call 2 on GRID: PE 1 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_HAS@4: RPN_COMM_barrier: PE 2: collective call inconsistent across PEs: call 2 on GRID: PE 3 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_HAS@8: RPN_COMM_barrier: PE 7: collective call inconsistent across PEs: call 2 on GRID: PE 7 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX while PE 0 made RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM (found in RPN_COMM_barrier; the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! The default mode over MPI across nodes (every PE a pretend node; docs/contract.md rule 11,
! src/runtime/collectives/check.rs): each per-step collective is the one MPI call the original
! makes, unchecked; the last PE's call differs from the others' in a way MPI completes (with a
! result that may be wrong): another operator (MEET_BARRIER, MEET_WIN_CREATE) or another type of
! the same size (MEET_FINALIZE). The next call where the PEs meet (RPN_COMM_barrier, the
! agreement of RPN_COMM_i_win_create or of RPN_COMM_finalize) compares the PEs' logs of their
! calls with a few bytes whatever the PE count, and finds them different: every PE names the first
! call that differs, with both PEs and both routines, and the job ends. This file is the barrier's
! case; test_collective_divergence_win_create and _finalize include it for theirs.
#if !defined(MEET_WIN_CREATE) && !defined(MEET_FINALIZE)
#define MEET_BARRIER
#endif
program test_collective_divergence
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last
  real(kind=8) :: sendv(2), recv(2)
  type(rpncomm_window) :: w
  type(rpncomm_datatype) :: dint
  type(rpncomm_communicator) :: com

  nerr = 0
  pex = 0
  pey = 0
  call pretend_nodes()
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  call RPN_COMM_i_comm(RPN_COMM_GRID, com)
  call RPN_COMM_i_datyp(RPN_COMM_INTEGER, dint)
  last = npes - 1
  sendv = me + 1
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check(ierr == RPN_COMM_OK .and. all(recv == npes * (npes + 1) / 2), 'the same call everywhere')
#if defined(MEET_BARRIER)
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', merge('MPI_MAX', 'MPI_SUM', me == last), RPN_COMM_GRID, ierr)
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
#elif defined(MEET_WIN_CREATE)
  call RPN_COMM_reduce(sendv, recv, 2, 'MPI_REAL8', merge('MPI_MIN', 'MPI_SUM', me == last), 0, RPN_COMM_GRID, ierr)
  call RPN_COMM_i_win_create(w, dint, 8, com, C_NULL_PTR, ierr)
#else
  call RPN_COMM_allreduce(sendv, recv, 1, merge('MPI_INTEGER8', 'MPI_REAL8   ', me == last), RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call RPN_COMM_finalize(ierr)
#endif
  print '(A,I0)', 'the job went on on PE ', me
  call finish('test_collective_divergence')

contains

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'pretend_nodes.inc'
  include 'tutil.inc'
end program test_collective_divergence
