! PES: 2 3 4
! TIMEOUT: 60
! EXPECT: fail
! NODES: one
! OUTPUT_HAS@2: RPN_COMM_xch_halo_8: PE 0: collective call inconsistent across PEs: PE 1 is in RPN_COMM_allreduce while PE 0 is in RPN_COMM_xch_halo_8
! OUTPUT_HAS@3: PE 1 is in RPN_COMM_allreduce while PE 0 is in RPN_COMM_xch_halo_8
! OUTPUT_HAS@4: PE 1 is in RPN_COMM_allreduce while PE 0 is in RPN_COMM_xch_halo_8
! OUTPUT_LACKS: still waiting
! OUTPUT_LACKS: the job went on
!
! PEs that can never meet again, as a program that does not stop on ierr leaves them: PE 1 makes
! one RPN_COMM_allreduce more than the others (a skipped or doubled call), and its neighbours go
! on into a halo exchange with it. The PE waiting for PE 1 in the exchange sees it gone into a
! collective of which it is a member, fails naming both routines and PEs, and the Fortran halo
! routine ends it: the job ends at once, not after the hang reports (the shared-memory build, and
! MPI on one node for the job's communicators; across nodes a second or two later:
! tests/fortran_mpi/test_never_meet_far.F90, docs/halo.md).
! test_never_meet_row plants it on a row of a 2 x 2 grid (EXTRA_ON: 'EW'), whose collectives
! are not the job's.
#ifndef EXTRA_ON
#define EXTRA_ON 'GRID'
#define TEST_NAME 'test_never_meet'
#endif
program test_never_meet
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, ierr, step
  integer, parameter :: ni = 4, nj = 3, nk = 2, h = 1
  real(8) :: g(1 - h:ni + h, 1 - h:nj + h, nk), s(2), r(2)

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  g = me
  s = 1
  do step = 1, 3
    if (me == 1 .and. step == 2) call RPN_COMM_allreduce(s, r, 2, 'MPI_REAL8', 'MPI_SUM', EXTRA_ON, ierr)
    call RPN_COMM_xch_halo_8(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., ni * pex, 0)
    call RPN_COMM_allreduce(s, r, 2, 'MPI_REAL8', 'MPI_SUM', 'GRID', ierr)
  enddo
  print '(A,I0)', 'the job went on on PE ', me
  call finish(TEST_NAME)

contains

  ! one row of PEs for the job's communicators, two rows of two for a row's
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    if (EXTRA_ON /= 'GRID') px = 2
    py = n / px
  end subroutine grid_shape

  include 'tutil.inc'
end program test_never_meet
