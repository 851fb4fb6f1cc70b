! PES: 2 4 8
! TIMEOUT: 90
!
! GEM's Yin-Yang start: RPN_COMM_gridinit(Pelocal, Petotal, Pex, Pey, 1, 2) cuts the job into two
! grids of consecutive PEs (2 PEs: 2 grids of 1 x 1, 4: of 2 x 1, 8: of 2 x 2, Pex and Pey given
! as GEM gives them). Against the job ranks of the launcher: the grid number returned, Pelocal,
! Petotal, RPN_COMM_mype, and the size, rank and members of every communicator name ('WORLD',
! 'ALLGRIDS', 'MULTIGRID' the job; 'GRID', 'DOMM', 'DEFO', 'ALL', 'BLOC' the grid; 'EW', 'NS' in
! the grid; 'GRIDPEERS' the Yin and Yang PEs of the same grid rank; 'BLOCMASTER' the grid's first
! PE), barrier, allreduce and allgather over each; the grids run different numbers of collectives
! over 'GRID' (none waits for the other); a halo exchange stays within the grid.
program test_gem_multigrid_yinyang
  use ISO_C_BINDING
  implicit none
  include 'rpn_comm.inc'
  integer :: me, npes, nerr
  integer :: grid, gme, gnp, pex, pey
  nerr = 0
  me = launcher_rank()
  pex = 0
  pey = 0
  ! GEM's Ptopo_npex x Ptopo_npey, per grid
  call get_npes(npes)
  pey = 1
  if (npes / 2 >= 4) pey = 2
  pex = npes / 2 / pey
  grid = RPN_COMM_gridinit(gme, gnp, pex, pey, 1, 2)
  call check(me >= 0, 'the launcher gives this PE''s rank (RPNCOMM_RANK, OMPI_COMM_WORLD_RANK or PMI_RANK)')
  call check_yinyang(.false.)
  call finish('test_gem_multigrid_yinyang')
contains
  include 'yinyang_check.inc'
  include 'tutil.inc'
end program test_gem_multigrid_yinyang
