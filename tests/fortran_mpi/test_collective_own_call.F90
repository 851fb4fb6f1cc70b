! PES: 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@4: RPN_COMM_allreduce: PE 3: collective call inconsistent across PEs: PE 0 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM while PE 3 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX (the job ends)
! OUTPUT_HAS@8: RPN_COMM_allreduce: PE 7: collective call inconsistent across PEs: PE 0 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM while PE 7 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX (the job ends)
! OUTPUT_LACKS: CHECK FAILED
! OUTPUT_LACKS: the job went on
!
! MPI transport, the PEs on one node (docs/contract.md rule 11, src/runtime/collectives/check.rs):
! a sum of reals over 3 PEs or more is the one MPI_Allreduce the original makes (MPI's grouping
! of the operands), while the node's other collectives are exchanges in shared memory. The last
! PE makes a maximum (an exchange) where the others make a sum (MPI's call): it finds PE 0 in
! MPI's call while it waits for PE 0's exchange, names both calls, and ends the job (the others
! would wait in MPI for ever). With REFUSE (test_collective_own_call_refused) the last PE refuses
! the call (a bad type name) and says which call of the others waits for it. With DIVERGE
! (test_collective_own_call_diverge) the last PE makes a product of reals, which MPI completes
! beside the others' sums: the next exchange on GRID (a barrier) compares the PEs' logs of such
! calls, and every PE names the first call that differs. With ROOTED
! (test_collective_own_call_rooted) the others reduce a sum of reals to PE 0 (MPI's MPI_Reduce)
! while the last PE gathers to PE 0 (a rooted round, whose senders meet the root's entry): the last
! PE finds PE 0 in MPI's call and names both.
program test_collective_own_call
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last
  real(kind=8) :: sendv(2), recv(2), gathered(2 * 8)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  last = npes - 1
  sendv = me + 1
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check(ierr == RPN_COMM_OK .and. all(recv == npes * (npes + 1) / 2), 'the same call everywhere')
#if defined(REFUSE)
  call RPN_COMM_allreduce(sendv, recv, 2, merge('MPI_REALX', 'MPI_REAL8', me == last), RPN_COMM_SUM, RPN_COMM_GRID, ierr)
#elif defined(ROOTED)
  if (me == last) then
    call RPN_COMM_gather(sendv, 2, 'MPI_REAL8', gathered, 2, 'MPI_REAL8', 0, RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_reduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, 0, RPN_COMM_GRID, ierr)
  endif
#elif defined(DIVERGE)
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', merge('MPI_PROD', 'MPI_SUM ', me == last), RPN_COMM_GRID, ierr)
  call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
#else
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', merge('MPI_MAX', 'MPI_SUM', me == last), RPN_COMM_GRID, ierr)
#endif
  print '(A,I0)', 'the job went on on PE ', me
  call finish('test_collective_own_call')

contains

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_collective_own_call
