! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_gather while PE 0 is in RPN_COMM_reduce (the job ends)
! OUTPUT_HAS@4: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs: PE 3 is in RPN_COMM_gather while PE 0 is in RPN_COMM_reduce (the job ends)
! OUTPUT_HAS@8: RPN_COMM_reduce: PE 0: collective call inconsistent across PEs: PE 7 is in RPN_COMM_gather while PE 0 is in RPN_COMM_reduce (the job ends)
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! Rooted collectives (RPN_COMM_reduce and gather to a root, bcast from it) whose calls differ, in
! the default mode on one node: as MPI's, their senders leave before the root has their data and
! a broadcast's root before the others have its data, so a PE that finds the difference (a PE
! that reads the other's call) names both calls and PEs and ends the job; where no PE reads the
! other's call (two PEs that each take themselves for a broadcast's root), the next collective that
! exchanges every PE's call finds it in the signatures of their calls, names the first call that
! differs and ends the job (docs/contract.md rule 11). PLANTED picks the mismatch, planted on the
! last PE after calls that match:
!   routine    it gathers while the others reduce, to PE 0 (this file)
!   operator   it reduces with MPI_MAX, the others with MPI_SUM (test_rooted_mismatch_operator)
!   count      it broadcasts 2 integers, the others 1 (test_rooted_mismatch_count)
!   root       it broadcasts from itself, the others from PE 0 (test_rooted_mismatch_root)
!   exchange   it reduces to PE 0 while the others make an allreduce (test_rooted_mismatch_exchange)
!   never      it never makes the reduce: it finalizes (test_rooted_mismatch_never)
! The data are integers: a sum of reals over more than 2 PEs is MPI's own call in the MPI build
! (test_rooted_mismatch_own in tests/fortran_mpi).
#ifndef PLANTED
#define PLANTED 'routine'
#define TEST_NAME 'test_rooted_mismatch'
#endif
program test_rooted_mismatch
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last, p
  integer :: sendv(2), recv(2), gathered(2 * 8), ival(2)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  last = npes - 1
  sendv = me + 1

  ! the same calls everywhere: they work
  recv = 0
  call RPN_COMM_reduce(sendv, recv, 2, 'MPI_INTEGER', 'MPI_SUM', 0, 'GRID', ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'reduce')
  if (me == 0) call check(all(recv == npes * (npes + 1) / 2), 'the sum on the root')
  call RPN_COMM_gather(sendv, 2, 'MPI_INTEGER', gathered, 2, 'MPI_INTEGER', last, 'GRID', ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'gather')
  if (me == last) call check(all([(gathered(2 * p + 1) == p + 1, p = 0, last)]), 'the gathered values')
  ival = merge(7, -1, me == 0)
  call RPN_COMM_bcast(ival, 1, 'MPI_INTEGER', 0, 'GRID', ierr)
  call check(ierr == RPN_COMM_OK .and. ival(1) == 7, 'bcast')

  select case (PLANTED)
  case ('routine')
    if (me == last) then
      call RPN_COMM_gather(sendv, 2, 'MPI_INTEGER', gathered, 2, 'MPI_INTEGER', 0, 'GRID', ierr)
    else
      call RPN_COMM_reduce(sendv, recv, 2, 'MPI_INTEGER', 'MPI_SUM', 0, 'GRID', ierr)
    endif
  case ('operator')
    call RPN_COMM_reduce(sendv, recv, 2, 'MPI_INTEGER', merge('MPI_MAX', 'MPI_SUM', me == last), 0, 'GRID', ierr)
  case ('count')
    call RPN_COMM_bcast(ival, merge(2, 1, me == last), 'MPI_INTEGER', 0, 'GRID', ierr)
  case ('root')
    call RPN_COMM_bcast(ival, 1, 'MPI_INTEGER', merge(last, 0, me == last), 'GRID', ierr)
  case ('exchange')
    if (me == last) then
      call RPN_COMM_reduce(sendv, recv, 2, 'MPI_INTEGER', 'MPI_SUM', 0, 'GRID', ierr)
    else
      call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
    endif
  case ('never')
    if (me == last) then
      call RPN_COMM_finalize(ierr)
      stop
    endif
    call RPN_COMM_reduce(sendv, recv, 2, 'MPI_INTEGER', 'MPI_SUM', 0, 'GRID', ierr)
  end select
  ! the next collective that exchanges every PE's call
  call RPN_COMM_allreduce(sendv, recv, 2, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  call RPN_COMM_barrier('GRID', ierr)
  print '(A,I0)', 'the job went on on PE ', me
  call finish(TEST_NAME)

contains

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_rooted_mismatch
