! options_side_by_side.F90 -- the original's options and small utilities, built against the original
! RPN_COMM and against this library by side_by_side.sh, which compares what they print:
! RPN_COMM_option, _option_L and _optn (known and unknown names), RPN_COMM_unit, _up2low and
! _low2up, _get_a_free_unit, RPN_COMM_ptr (generic and a specific), _topo_xy on a few field sizes
! and halos (whether it succeeds: the original's failure value is MPI's status index MPI_ERROR),
! _get_pe of every PE of the grid and off it, _colors, _bcst_x, _bcst_world, the table of block distributions
! (_bloc, _bloc_create, _bloc_find, the size of 'BLOC') and _status_size. The grid has two
! rows where the PEs pair up (2 x 2 on 4 PEs, 3 x 2 on 6), else one; with the argument 'yinyang'
! the job holds two such grids (RPN_COMM_init_multi_level, 1 multigrid of 2 grids), which
! get_pe's 'MULTIGRID' and 'ALLGRIDS' ranks and colors' 'GRID' tell apart.
program options_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  external :: options_side_grid
  integer :: me, grank, npes, pex, pey, mex, mey, status, ierr, i, x, y, k, u
  character(len=8) :: arg
  integer :: mini, maxi, minj, maxj, nil, njl
  integer :: sizes(4, 5), words(6)
  character(len=16) :: names(4), s16
  character(len=4) :: s4
  integer(4), target :: a4(3, 2)
  real(8), target :: r8(2, 2, 2)
  type(rpncomm_ptr) :: p

  ! (nig, njg, haloi, haloj)
  sizes = reshape([10, 7, 2, 1,  4, 7, 0, 0,  100, 50, 3, 3,  1, 1, 1, 1,  9, 2, 1, 0], [4, 5])
  names = [character(len=16) :: 'WORLD', 'ALLGRIDS', 'MULTIGRID', 'GRID']

  status = RPN_COMM_option('STDOUT', 6)
  call RPN_COMM_unit(6)
  pex = 0
  pey = 0
  call get_command_argument(1, arg)
  if (arg == 'yinyang') then
    ! two grids of half the job each, as GEM's Yin-Yang
    k = RPN_COMM_init_multi_level(options_side_grid, grank, npes, pex, pey, 1, 2)
  else
    call RPN_COMM_init(options_side_grid, grank, npes, pex, pey)
  endif
  status = RPN_COMM_mype(grank, mex, mey)
  call RPN_COMM_rank('WORLD', me, ierr)
  write(*, '(A,I0,A,5(1X,I0))') 'pe ', me, ' grid', grank, pex, pey, mex, mey

  write(*, '(A,I0,A,I0)') 'pe ', me, ' option stdout ', status
  write(*, '(A,I0,A,I0)') 'pe ', me, ' option stdout_unit ', RPN_COMM_option('stdout_unit', 6)
  write(*, '(A,I0,A,I0)') 'pe ', me, ' option_L halo_ew_ext ', RPN_COMM_option_L('halo_ew_ext', .false.)
  write(*, '(A,I0,A,I0)') 'pe ', me, ' option_L ASYNC_EXCH ', RPN_COMM_option_L('ASYNC_EXCH', .false.)
  ! (called outside the write statements: the original writes its refusal to the output unit)
  status = RPN_COMM_option('nothing', 6)
  write(*, '(A,I0,A,I0)') 'pe ', me, ' option nothing ', status
  status = RPN_COMM_option_L('nothing', .true.)
  write(*, '(A,I0,A,I0)') 'pe ', me, ' option_L nothing ', status
  call RPN_COMM_optn('FILL', 0, 0.0, ' ')
  write(*, '(A,I0,A)') 'pe ', me, ' optn FILL done'

  call RPN_COMM_up2low('MiXeD_Case 1', s16)
  write(*, '(A,I0,A,A,A)') 'pe ', me, ' up2low [', s16, ']'
  call RPN_COMM_low2up('MiXeD_Case 1', s16)
  write(*, '(A,I0,A,A,A)') 'pe ', me, ' low2up [', s16, ']'
  call RPN_COMM_low2up('abcdef', s4)
  write(*, '(A,I0,A,A,A)') 'pe ', me, ' low2up short [', s4, ']'

  u = RPN_COMM_get_a_free_unit()
  write(*, '(A,I0,A,I0)') 'pe ', me, ' free unit ', u

  call RPN_COMM_ptr(a4, p)
  write(*, '(A,I0,A,L1)') 'pe ', me, ' ptr i4 2d ', c_associated(p%p, c_loc(a4))
  call RPN_COMM_ptr_r8_3d(r8, p)
  write(*, '(A,I0,A,L1)') 'pe ', me, ' ptr r8 3d ', c_associated(p%p, c_loc(r8))

  do k = 1, size(sizes, 2)
    status = RPN_COMM_topo_xy(sizes(1, k), sizes(2, k), mini, maxi, minj, maxj, nil, njl, sizes(3, k), sizes(4, k), &
                              .false., .false.)
    write(*, '(A,I0,A,4(1X,I0),A,L1,6(1X,I0))') 'pe ', me, ' topo_xy', sizes(:, k), ' ok ', status == 0, &
        mini, maxi, minj, maxj, nil, njl
  enddo

  do y = 0, pey - 1
    do x = 0, pex - 1
      write(*, '(A,I0,A,2(1X,I0),3(1X,I0))') 'pe ', me, ' get_pe', x, y, RPN_COMM_get_pe(x, y, -1, -1, 'GRID'), &
          RPN_COMM_get_pe(x, y, -1, -1, 'MULTIGRID'), RPN_COMM_get_pe(x, y, -1, -1, 'ALLGRIDS')
    enddo
  enddo
  write(*, '(A,I0,A,4(1X,I0))') 'pe ', me, ' get_pe off the grid', RPN_COMM_get_pe(pex, 0, -1, -1, 'GRID'), &
      RPN_COMM_get_pe(0, pey, -1, -1, 'GRID'), RPN_COMM_get_pe(-1, 0, -1, -1, 'GRID'), RPN_COMM_get_pe(0, 0, 1, -1, 'GRID')
  write(*, '(A,I0,A,I0)') 'pe ', me, ' get_pe GRID of grid 0 ', RPN_COMM_get_pe(mex, mey, 0, 0, 'GRID')

  do i = 1, size(names)
    write(*, '(A,I0,A,A,A,I0)') 'pe ', me, ' colors ', trim(names(i)), ' ', RPN_COMM_colors(names(i))
  enddo

  words = -1
  if (grank == 0) words = [(100 + i, i = 1, 6)]
  call RPN_COMM_bcst_x(words, 2, 8, 0, 0, ierr)
  write(*, '(A,I0,A,I0,6(1X,I0))') 'pe ', me, ' bcst_x ', ierr, words

  ! the table of block distributions: RPN_COMM_bloc adds a shape it lacks, _bloc_create one each
  ! call, _bloc_find numbers them from 1 and, with set, uses one ('BLOC')
  write(*, '(A,I0,A,I0)') 'pe ', me, ' bloc_find 1 1 before ', RPN_COMM_bloc_find(1, 1, .false.)
  status = RPN_COMM_bloc(pex, 1)
  write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' bloc pex 1 ', status, ' entry ', RPN_COMM_bloc_find(pex, 1, .false.)
  status = RPN_COMM_bloc_create(1, 1)
  call RPN_COMM_size('BLOC', k, ierr)
  write(*, '(A,I0,A,I0,A,I0,A,I0)') 'pe ', me, ' bloc_create 1 1 ', status, ' entry ', RPN_COMM_bloc_find(1, 1, .false.), &
      ' bloc size ', k
  i = RPN_COMM_bloc_find(pex, 1, .true.)
  call RPN_COMM_size('BLOC', k, ierr)
  write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' bloc_find pex 1 set ', i, ' bloc size ', k
  status = RPN_COMM_bloc_create(pex, 1)
  write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' bloc_create pex 1 again ', status, ' entry ', RPN_COMM_bloc_find(pex, 1, .false.)
  status = RPN_COMM_bloc(1, 1)
  call RPN_COMM_size('BLOC', k, ierr)
  write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' bloc 1 1 ', status, ' bloc size ', k
  status = RPN_COMM_bloc_create(pex + 1, 1)
  write(*, '(A,I0,A,I0)') 'pe ', me, ' bloc_create pex+1 1 ', status
  write(*, '(A,I0,A,I0)') 'pe ', me, ' bloc_find pex+1 1 ', RPN_COMM_bloc_find(pex + 1, 1, .false.)

  words = -1
  if (grank == 0) words = [(200 + i, i = 1, 6)]
  call RPN_COMM_bcst_world(words(2), words(4), 0)
  write(*, '(A,I0,A,6(1X,I0))') 'pe ', me, ' bcst_world', words

  u = -7
  call RPN_COMM_status_size(u)
  write(*, '(A,I0,A,I0)') 'pe ', me, ' status_size ', u

  call RPN_COMM_finalize(ierr)
end program options_side_by_side

subroutine options_side_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  if (px > 2 .and. mod(px, 2) == 0) then
    px = px / 2
    py = 2
  endif
end subroutine options_side_grid
