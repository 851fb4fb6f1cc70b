! PES: 1 2 4 6
! TIMEOUT: 60
!
! GEM's start, RPN_COMM_gridinit(Pelocal, Petotal, Pex, Pey, MultiGrids, Grids) (the generic's
! RPN_COMM_init_multi_level2 form) with one grid, Pex = Pey = 0, through the legacy include under
! implicit none: the grid number is 0 and the grid npes x 1 (the original presets npes x 1 and
! calls no Userinit in this form), Pelocal and Petotal are this PE's rank and the job's size, and
! RPN_COMM_carac sees the same grid. Then RPN_COMM_create_2dgrid / get_2dgrid on that grid,
! checked against the definition (every tile ceiling(gni / npex) points, the last the rest), and
! their refusals. In the shared-memory build, RPN_COMM_split_by_socket refused (err = -1, ranks -1,
! isiz 0); the MPI build's is tested in tests/fortran_mpi/test_gem_split_socket.F90.
program test_gem_gridinit
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: grid, pex, pey, ierr
  integer :: npex, npey, mei, medomm, mex, mey, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme
  character(len=8) :: domname
  integer :: n(7)
  nerr = 0
  pex = 0
  pey = 0
  me = -5
  npes = -5
  grid = RPN_COMM_gridinit(me, npes, pex, pey, 1, 1)
  call RPN_COMM_size(RPN_COMM_GRID, mei, ierr)
  call check(grid == 0, 'RPN_COMM_gridinit returns grid 0, got '//str(grid))
  call check(npes == mei .and. npes >= 1, 'Petotal = '//str(npes)//', the grid has '//str(mei))
  call check(pex == npes .and. pey == 1, 'Pex x Pey = '//str(pex)//' x '//str(pey)//', not npes x 1')
  call RPN_COMM_rank(RPN_COMM_GRID, mei, ierr)
  call check(me == mei, 'Pelocal = '//str(me)//', rank in GRID '//str(mei))
  call RPN_COMM_carac(npex, npey, mei, medomm, mex, mey, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, &
                      blocme, domname)
  call check(npex == npes .and. npey == 1 .and. mex == me .and. mey == 0, 'RPN_COMM_carac: the grid npes x 1')
  call check_2dgrids(npex, npey, mex, mey)
  ! the shared-memory build has no MPI handles (RPN_COMM_datyp says so on stderr and gives -1)
  if (RPN_COMM_datyp('MPI_INTEGER') == -1) then
    call RPN_COMM_split_by_socket(0, n(1), n(2), n(3), n(4), n(5), n(6), n(7), ierr)
    call check(ierr == RPN_COMM_ERROR .and. all(n(4:6) == -1) .and. n(7) == 0, 'RPN_COMM_split_by_socket refused without MPI')
  endif
  call finish('test_gem_gridinit')
contains
  include 'grid2d_check.inc'
  include 'tutil.inc'
end program test_gem_gridinit
