! PES: 2 4 8
! TIMEOUT: 60
! EXPECT: fail
! OUTPUT_HAS@2: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: reccountv(2) makes 16 bytes for PE 1, which sends 8 bytes (the job ends)
! OUTPUT_HAS@4: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: reccountv(4) makes 16 bytes for PE 3, which sends 8 bytes (the job ends)
! OUTPUT_HAS@8: RPN_COMM_gatherv: PE 0: collective call inconsistent across PEs: reccountv(8) makes 16 bytes for PE 7, which sends 8 bytes (the job ends)
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! RPN_COMM_gatherv and scatterv whose root's counts are not what a PE sends or receives, in the
! default mode (one round over an exchange, the one MPI call across nodes): the root's counts are
! the root's alone, so the PE that learns the difference (the root from the lengths it reads, or
! across nodes a PE of a scatterv from the length in front of its block) names both PEs and the
! count, and ends the job, the others having gone on (docs/contract.md rule 11). PLANTED picks
! the mismatch, planted on the last PE after calls that match:
!   gatherv    it sends 1 value, the root's reccountv says 2 (this file)
!   longer     it sends 3 values, the root's reccountv says 2 (test_block_mismatch_longer): across
!              nodes MPI's gatherv truncates its block, and the root still names it
!   scatterv   it receives 3 values, the root's sendcount says 2 (test_block_mismatch_scatterv)
!   scatterv_longer  it receives 2 values, the root's sendcount says 3
!              (test_block_mismatch_scatterv_longer): across nodes MPI truncates the block
! test_block_mismatch_checked runs 'longer' in the checking mode (every PE refuses the call and
! says so: "refused on PE"); test_block_mismatch_routine plants PEs in different routines.
#ifndef PLANTED
#define PLANTED 'gatherv'
#define TEST_NAME 'test_block_mismatch'
#endif
program test_block_mismatch
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, last, p
  integer :: counts(0:7), displs(0:7)
  real(kind=8) :: mine(4), every(32)

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

  ! the same calls everywhere: they work
  call RPN_COMM_gatherv(mine, 2, 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', 0, 'GRID', ierr)
  call check_ierr(ierr, RPN_COMM_OK, 'gatherv')
  if (me == 0) call check(all([(every(2 * p + 1) == p, p = 0, last)]), 'the gathered values')
  call RPN_COMM_scatterv(every, counts, displs, 'MPI_REAL8', mine, 2, 'MPI_REAL8', 0, 'GRID', ierr)
  call check(ierr == RPN_COMM_OK .and. all(mine(1:2) == me), 'scatterv')

  select case (PLANTED)
  case ('gatherv')
    call RPN_COMM_gatherv(mine, merge(1, 2, me == last), 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', 0, 'GRID', ierr)
  case ('longer')
    call RPN_COMM_gatherv(mine, merge(3, 2, me == last), 'MPI_REAL8', every, counts, displs, 'MPI_REAL8', 0, 'GRID', ierr)
  case ('scatterv_longer')
    counts(last) = 3
    call RPN_COMM_scatterv(every, counts, displs, 'MPI_REAL8', mine, 2, 'MPI_REAL8', 0, 'GRID', ierr)
  case ('scatterv')
    call RPN_COMM_scatterv(every, counts, displs, 'MPI_REAL8', mine, merge(3, 2, me == last), 'MPI_REAL8', 0, 'GRID', ierr)
  end select
  if (ierr == RPN_COMM_ERROR) print '(A,I0)', 'refused on PE ', me
  ! the next collectives
  call RPN_COMM_barrier('GRID', ierr)
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
end program test_block_mismatch
