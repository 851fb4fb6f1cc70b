! PES: 1 4 6
! TIMEOUT: 60
!
! RPN_COMM_init_multigrid(Userinit, Pelocal, Petotal, Pex, Pey, 1) (one grid) with Pex = Pey = 0:
! PE 0's Userinit chooses a grid of two rows where the job has an even number of PEs (npes/2 x 2),
! every PE gets it; the function returns 0 (this PE's grid among one). Then
! RPN_COMM_create_2dgrid / get_2dgrid on a grid cut along both axes, against the definition.
program test_gem_multigrid
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: grid, pex, pey, ierr, n
  integer :: npex, npey, mei, medomm, mex, mey, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme
  character(len=8) :: domname
  nerr = 0
  pex = 0
  pey = 0
  grid = RPN_COMM_init_multigrid(two_rows, me, npes, pex, pey, 1)
  call RPN_COMM_size(RPN_COMM_GRID, n, ierr)
  call check(grid == 0, 'RPN_COMM_init_multigrid returns 0, got '//str(grid))
  call check(npes == n, 'Petotal = '//str(npes)//', the grid has '//str(n))
  if (mod(npes, 2) == 0) then
    call check(pex == npes / 2 .and. pey == 2, 'Pex x Pey = '//str(pex)//' x '//str(pey)//', Userinit chose npes/2 x 2')
  else
    call check(pex == npes .and. pey == 1, 'Pex x Pey = '//str(pex)//' x '//str(pey)//', Userinit kept npes x 1')
  endif
  call RPN_COMM_carac(npex, npey, mei, medomm, mex, mey, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, &
                      blocme, domname)
  call check(npex == pex .and. npey == pey .and. mei == me, 'RPN_COMM_carac: the grid chosen')
  call check(mex == mod(me, pex) .and. mey == me / pex, 'RPN_COMM_carac: this PE on the grid, x first')
  call check_2dgrids(npex, npey, mex, mey)
  call finish('test_gem_multigrid')
contains
  subroutine two_rows(px, py)
    integer, intent(INOUT) :: px, py
    ! the library presets npes x 1, as the original
    if (mod(px, 2) == 0 .and. py == 1) then
      px = px / 2
      py = 2
    endif
  end subroutine two_rows
  include 'grid2d_check.inc'
  include 'tutil.inc'
end program test_gem_multigrid
