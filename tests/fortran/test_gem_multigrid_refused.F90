! PES: 2 4
! EXPECT: fail
! TIMEOUT: 30
!
! RPN_COMM_gridinit(Pelocal, Petotal, Pex, Pey, 1, 3): three grids do not cut a job of 2 or 4 PEs
! into equal grids: the library says so in one line and, as the original when it cannot make the
! grids, ends the job on every PE. Reaching the end of the program (status 0) is a failure.
program test_gem_multigrid_refused
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, grid, ierr
  pex = 0
  pey = 0
  grid = RPN_COMM_gridinit(me, npes, pex, pey, 1, 3)
  write(*, '(A,I0)') 'test_gem_multigrid_refused: RPN_COMM_gridinit with Grids = 3 gave grid ', grid
  call RPN_COMM_finalize(ierr)
end program test_gem_multigrid_refused
