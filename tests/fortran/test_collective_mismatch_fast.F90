! PES: 2 4 8
! TIMEOUT: 60
! TRANSPORT: shm
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_barrier while PE 0 is in RPN_COMM_allreduce
! OUTPUT_HAS@2: RPN_COMM_allreduce: PE 0: collective call inconsistent across PEs: PE 1 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_MAX while PE 0 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM
! OUTPUT_HAS@4: RPN_COMM_allgather: PE 0: collective call inconsistent across PEs: PE 3 makes RPN_COMM_allgather of 8 bytes while PE 0 makes RPN_COMM_allgather of 16 bytes
! OUTPUT_HAS@8: RPN_COMM_allreduce: PE 2: collective call inconsistent across PEs: PE 7 makes RPN_COMM_allreduce of 8 bytes of MPI_REAL8 with MPI_SUM while PE 2 makes RPN_COMM_allreduce of 16 bytes of MPI_REAL8 with MPI_SUM
!
! The default mode over shared memory (docs/contract.md rule 11, src/runtime/collectives/check.rs):
! the exchange that carries every collective's data carries every PE's call in front of it, so PEs
! in another routine, or with another count, operator or root, are named at once, with both PEs
! and both routines, at no extra round; every PE fails the call, nothing is written into any
! buffer, and the PEs are in step afterwards. Each kind of mismatch is planted on the last PE:
! another routine (barrier), another operator, another count (allreduce, allgather), and a PE
! that refuses (a bad type name) while the others call. The rooted collectives (reduce, gather,
! bcast), whose PEs do not all read each other's calls, end the job instead: test_rooted_mismatch.
program test_collective_mismatch_fast
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last
  real(kind=8), parameter :: SENT = -77d0
  real(kind=8) :: sendv(2), recv(2), gathered(2 * 8)
  integer :: ival

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_collective_mismatch_fast: running on ', npes, ' PEs'
  last = npes - 1
  sendv = me + 1

  call section('the last PE calls RPN_COMM_barrier, the others RPN_COMM_allreduce')
  recv = SENT
  if (me == last) then
    call RPN_COMM_barrier(RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'the mismatched call')
  call check(all(recv == SENT), 'nothing written')
  call in_step('after allreduce / barrier')

  call section('the last PE reduces with MPI_MAX, the others with MPI_SUM')
  recv = SENT
  if (me == last) then
    call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', 'MPI_MAX', RPN_COMM_GRID, ierr)
  else
    call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  endif
  call check_ierr(ierr, RPN_COMM_ERROR, 'another operator')
  call check(all(recv == SENT), 'nothing written')
  call in_step('after another operator')

  call section('the last PE reduces 1 value, the others 2')
  recv = SENT
  call RPN_COMM_allreduce(sendv, recv, merge(1, 2, me == last), 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'another count')
  call check(all(recv == SENT), 'nothing written')
  call in_step('after another count')

  call section('the last PE gathers 1 value to every PE, the others 2')
  gathered = SENT
  call RPN_COMM_allgather(sendv, merge(1, 2, me == last), 'MPI_REAL8', gathered, merge(1, 2, me == last), 'MPI_REAL8', &
                          RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'another count')
  call check(all(gathered == SENT), 'nothing written')
  call in_step('after an allgather of another count')

  call section('the last PE gives a bad type name')
  recv = SENT
  call RPN_COMM_allreduce(sendv, recv, 2, merge('MPI_REALX', 'MPI_REAL8', me == last), RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_ERROR, 'a refusal on one PE fails the call on all')
  call check(all(recv == SENT), 'nothing written')
  call in_step('after a refusal')

  call section('the same calls everywhere work')
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_REAL8', RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'allreduce')
  call check(all(recv == npes * (npes + 1) / 2), 'the sum')
  call RPN_COMM_gather(sendv, 2, 'MPI_REAL8', gathered, 2, 'MPI_REAL8', 0, RPN_COMM_GRID, ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'gather')
  if (me == 0) call check(gathered(2 * npes) == npes, 'the gathered values')

  call finish('test_collective_mismatch_fast')

contains

  include 'in_step.inc'

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_collective_mismatch_fast
