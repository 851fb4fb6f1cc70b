! PES: 2 4 8
! TIMEOUT: 60
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_alltoall while PE 0 is in RPN_COMM_gatherv
! OUTPUT_HAS@2: RPN_COMM_alltoall: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 1 is in RPN_COMM_alltoall
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_scatterv while PE 0 is in RPN_COMM_gatherv
! OUTPUT_HAS@2: RPN_COMM_scatterv: PE 1: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 1 is in RPN_COMM_scatterv
! OUTPUT_HAS@4: RPN_COMM_gatherv: PE 2: collective call inconsistent across PEs: PE 3 is in RPN_COMM_alltoall while PE 2 is in RPN_COMM_gatherv
! OUTPUT_HAS@4: RPN_COMM_alltoall: PE 3: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 3 is in RPN_COMM_alltoall
! OUTPUT_HAS@4: RPN_COMM_scatterv: PE 3: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 3 is in RPN_COMM_scatterv
! OUTPUT_HAS@8: RPN_COMM_gatherv: PE 6: collective call inconsistent across PEs: PE 7 is in RPN_COMM_alltoall while PE 6 is in RPN_COMM_gatherv
! OUTPUT_HAS@8: RPN_COMM_alltoall: PE 7: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 7 is in RPN_COMM_alltoall
! OUTPUT_HAS@8: RPN_COMM_scatterv: PE 7: collective call inconsistent across PEs: PE 0 is in RPN_COMM_gatherv while PE 7 is in RPN_COMM_scatterv
!
! RPN_COMM_alltoall, gatherv and scatterv in the default mode on one node, the last PE in another
! of them than the others: every PE reads every PE's call in the call's one round, so every PE
! fails with RPN_COMM_ERROR and one line naming both routines and PEs, nothing written, and the
! PEs are in step again afterwards (docs/contract.md rule 11). Across nodes each is MPI's own
! call, which such PEs leave to MPI (the hang report names them).
program test_block_mismatch_routine
  use rpn_comm_windows
  implicit none
  integer, parameter :: SENT = -77
  integer :: me, npes, nerr, pex, pey, ierr, last, p
  integer :: counts(0:7), displs(0:7)
  real(kind=8) :: mine(2), every(16), send(16), back(16)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(row_grid, me, npes, pex, pey)
  last = npes - 1
  do p = 0, npes - 1
    counts(p) = 2
    displs(p) = 2 * p
  enddo
  mine = me
  send = me
  every = SENT
  back = SENT

  if (me == last) then
    call RPN_COMM_alltoall(send, 2, 'MPI_REAL8', back, 2, 'MPI_REAL8', 'GRID', ierr)
  else
    call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', 0, 'GRID', ierr)
  endif
  call check(ierr == RPN_COMM_ERROR .and. all(every == SENT) .and. all(back == SENT), 'alltoall / gatherv')
  if (me == last) then
    call RPN_COMM_scatterv(send, counts, displs, 'MPI_REAL8', back, 2, 'MPI_REAL8', 0, 'GRID', ierr)
  else
    call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', 0, 'GRID', ierr)
  endif
  call check(ierr == RPN_COMM_ERROR .and. all(every == SENT) .and. all(back == SENT), 'scatterv / gatherv')
  ! in step again
  call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', 0, 'GRID', ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'gatherv in step again')
  if (me == 0) call check(all([(every(2 * p + 1) == p, p = 0, last)]), 'the gathered values')
  call finish('test_block_mismatch_routine')

contains

  subroutine row_grid(px, py)
    integer, intent(INOUT) :: px, py
    px = px * py
    py = 1
  end subroutine row_grid

  include 'tutil.inc'
end program test_block_mismatch_routine
