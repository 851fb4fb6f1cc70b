! PES: 4 8 12
! TIMEOUT: 90
!
! GEM's Yin-Yang start with Ptopo_alongY: RPN_COMM_set_petopo(1, 999999) then
! RPN_COMM_gridinit(Pelocal, Petotal, Pex, Pey, 1, 2): two grids (4 PEs: 1 x 2 each, 8: 2 x 2,
! 12: 3 x 2) whose PEs are placed column after column (grid rank r at x = r / Pey, y = mod(r, Pey),
! as the original's RPN_COMM_petopo does). The same checks as test_gem_multigrid_yinyang: every
! communicator's members against the launcher's job ranks, the halo exchange on the placed grid.
program test_gem_multigrid_petopo
  use ISO_C_BINDING
  implicit none
  include 'rpn_comm.inc'
  integer :: me, npes, nerr
  integer :: grid, gme, gnp, pex, pey
  nerr = 0
  me = launcher_rank()
  call get_npes(npes)
  pey = 2
  pex = npes / 2 / pey
  call RPN_COMM_set_petopo(1, 999999)
  grid = RPN_COMM_gridinit(gme, gnp, pex, pey, 1, 2)
  call check(me >= 0, 'the launcher gives this PE''s rank (RPNCOMM_RANK, OMPI_COMM_WORLD_RANK or PMI_RANK)')
  call check_yinyang(.true.)
  call finish('test_gem_multigrid_petopo')
contains
  include 'yinyang_check.inc'
  include 'tutil.inc'
end program test_gem_multigrid_petopo
