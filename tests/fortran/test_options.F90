! PES: 1 2 4 6
! TIMEOUT: 60
!
! The original's options and small utilities, through include 'RPN_COMM.inc' on a 2-row grid
! (1 x 1 on one PE, 2 x 1 on two):
! - RPN_COMM_option ('stdout', by the start of its name in any case), RPN_COMM_option_L
!   ('halo_ew_ext', 'async_exch'), RPN_COMM_optn ('FILL') and RPN_COMM_unit accept their options,
!   before and after RPN_COMM_init; an unknown name gives RPN_COMM_ERROR;
! - RPN_COMM_up2low / RPN_COMM_low2up (blank-padded, cut to the shorter string);
! - RPN_COMM_get_a_free_unit: the highest unit not connected (99, then 98 once 99 is open);
! - RPN_COMM_ptr (generic and specifics): ptr%p is the address of the array's first element;
! - RPN_COMM_topo_xy: each PE's tile of a 10 x 7 field and of one too small for the grid;
! - RPN_COMM_get_pe: the PE at (me_x, me_y) is this PE's grid rank in 'GRID', 'MULTIGRID' and
!   'ALLGRIDS'; coordinates off the grid give -1;
! - RPN_COMM_colors: 0 for 'WORLD', 'ALLGRIDS', 'MULTIGRID' and 'GRID' (one grid), -1 for 'EW';
! - RPN_COMM_bcst_x: PE 0's integers (n words of ltype bytes) reach every PE of the grid;
! - RPN_COMM_bcst_world: PE 0's integers from start to end (both included), the others untouched;
! - the table of block distributions: RPN_COMM_bloc adds a shape it lacks, RPN_COMM_bloc_create
!   one each call (refused for blocks that do not divide the grid), RPN_COMM_bloc_find numbers
!   them from 1 and with set makes one 'BLOC';
! - RPN_COMM_status_size: MPI_STATUS_SIZE on MPI (5 or more), -1 and refused on shared memory.
program test_options
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  external :: two_rows
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, status, ierr, u, i
  integer :: mini, maxi, minj, maxj, nil, njl, full_i, full_j
  character(len=8) :: s8
  character(len=3) :: s3
  integer(4), target :: a4(3, 2)
  integer(8), target :: a8(2, 2, 2, 2)
  real(4), target :: r4(5)
  real(8), target :: r8(2, 2, 2)
  type(rpncomm_ptr) :: p
  integer :: words(4)

  nerr = 0
  me = 0
  call check(RPN_COMM_option('STDOUT', 6) == RPN_COMM_OK, 'option stdout before init')
  call RPN_COMM_unit(6)
  pex = 0
  pey = 0
  call RPN_COMM_init(two_rows, me, npes, pex, pey)
  if (me == 0) write(*, '(A,I0,A)') 'test_options: running on ', npes, ' PEs'
  status = RPN_COMM_mype(i, mex, mey)

  call check(RPN_COMM_option('stdout_unit', 6) == RPN_COMM_OK, 'option by the start of its name')
  call check(RPN_COMM_option('nothing', 6) == RPN_COMM_ERROR, 'unknown integer option refused')
  call check(RPN_COMM_option_L('Halo_EW_Ext', .true.) == RPN_COMM_OK, 'option_L halo_ew_ext')
  call check(RPN_COMM_option_L('async_exch', .false.) == RPN_COMM_OK, 'option_L async_exch')
  call check(RPN_COMM_option_L('stdout', .true.) == RPN_COMM_ERROR, 'unknown logical option refused')
  call RPN_COMM_optn('FILL', 5, 1.5, 'BAND')
  call RPN_COMM_optn('nothing', 0, 0.0, ' ')

  call RPN_COMM_up2low('MiXeD_1', s8)
  call check(s8 == 'mixed_1 ', 'up2low: '//s8)
  call RPN_COMM_low2up('MiXeD_1', s8)
  call check(s8 == 'MIXED_1 ', 'low2up: '//s8)
  call RPN_COMM_low2up('abcdef', s3)
  call check(s3 == 'ABC', 'low2up into a shorter string: '//s3)

  u = RPN_COMM_get_a_free_unit()
  call check(u == 99, 'free unit 99: '//str(u))
  open(unit=99, status='scratch')
  call check(RPN_COMM_get_a_free_unit() == 98, 'free unit 98 while 99 is open')
  close(99)

  call RPN_COMM_ptr(a4, p)
  call check(c_associated(p%p, c_loc(a4)), 'RPN_COMM_ptr of an integer(4) 2-D array')
  call RPN_COMM_ptr(a8, p)
  call check(c_associated(p%p, c_loc(a8)), 'RPN_COMM_ptr of an integer(8) 4-D array')
  call RPN_COMM_ptr(r4, p)
  call check(c_associated(p%p, c_loc(r4)), 'RPN_COMM_ptr of a real(4) 1-D array')
  call RPN_COMM_ptr_r8_3d(r8, p)
  call check(c_associated(p%p, c_loc(r8)), 'RPN_COMM_ptr_r8_3d')

  full_i = (10 + pex - 1) / pex
  full_j = (7 + pey - 1) / pey
  status = RPN_COMM_topo_xy(10, 7, mini, maxi, minj, maxj, nil, njl, 2, 1, .false., .true.)
  call check(status == RPN_COMM_OK, 'topo_xy 10 x 7')
  call check(mini == -1 .and. minj == 0, 'topo_xy lower bounds 1 - halo')
  call check(maxi == full_i + 2 + 1 - mod(full_i, 2) .and. maxj == full_j + 1 + 1 - mod(full_j, 2), 'topo_xy upper bounds')
  call check(nil == min(full_i, 10 - full_i * mex) .and. njl == min(full_j, 7 - full_j * mey), 'topo_xy tile')
  if (pex == 3) then
    ! 4 points on 3 PEs: 2, 2 and none
    status = RPN_COMM_topo_xy(4, 7, mini, maxi, minj, maxj, nil, njl, 0, 0, .false., .false.)
    call check((status == RPN_COMM_OK) .eqv. (mex < 2), 'topo_xy fails on the PE without points')
  endif

  call check(RPN_COMM_get_pe(mex, mey, -1, -1, 'GRID') == me, 'get_pe GRID')
  call check(RPN_COMM_get_pe(mex, mey, -1, -1, 'MULTIGRID') == me, 'get_pe MULTIGRID')
  call check(RPN_COMM_get_pe(mex, mey, -1, -1, 'ALLGRIDS') == me, 'get_pe ALLGRIDS')
  call check(RPN_COMM_get_pe(mex, mey, 0, 0, 'grid') == me, 'get_pe grid 0 of multigrid 0')
  call check(RPN_COMM_get_pe(pex, 0, -1, -1, 'GRID') == -1, 'get_pe off the grid')
  call check(RPN_COMM_get_pe(0, 0, 1, -1, 'GRID') == -1, 'get_pe of a grid that does not exist')
  call check(RPN_COMM_colors('WORLD') == 0 .and. RPN_COMM_colors('ALLGRIDS') == 0, 'colors of the job')
  call check(RPN_COMM_colors('MULTIGRID') == 0 .and. RPN_COMM_colors('GRID') == 0, 'colors of one grid')
  call check(RPN_COMM_colors('EW') == -1, 'colors of a row: none')

  words = -1
  if (me == 0) words = [11, 22, 33, 44]
  call RPN_COMM_bcst_x(words, 2, 8, 0, 0, ierr)
  call check(ierr == RPN_COMM_OK .and. all(words == [11, 22, 33, 44]), 'bcst_x of 2 words of 8 bytes')

  words = -1
  if (me == 0) words = [5, 6, 7, 8]
  call RPN_COMM_bcst_world(words(2), words(3), 0)
  call check(all(words(2:3) == [6, 7]) .and. (me == 0 .or. all(words([1, 4]) == -1)), 'bcst_world of words 2 to 3')

  call check(RPN_COMM_bloc_find(1, 1, .false.) == -1, 'bloc_find: the table is empty')
  call check(RPN_COMM_bloc(pex, 1) == RPN_COMM_OK .and. RPN_COMM_bloc_find(pex, 1, .false.) == 1, 'bloc pex x 1: entry 1')
  call check(RPN_COMM_bloc_create(1, 1) == RPN_COMM_OK, 'bloc_create 1 x 1')
  call RPN_COMM_size('BLOC', i, ierr)
  call check(i == npes, 'BLOC after bloc_create 1 x 1 is the grid')
  if (pex > 1) then
    call check(RPN_COMM_bloc_find(1, 1, .false.) == 2, 'bloc_create 1 x 1: entry 2')
    call check(RPN_COMM_bloc_find(pex, 1, .true.) == 1, 'bloc_find pex x 1 with set')
    call RPN_COMM_size('BLOC', i, ierr)
    call check(i == pey, 'BLOC after bloc_find with set: a column')
    call check(RPN_COMM_bloc_create(pex, 1) == RPN_COMM_OK .and. RPN_COMM_bloc_find(pex, 1, .false.) == 1, &
               'bloc_create of a shape in the table: a new entry, the first one found')
  endif
  call check(RPN_COMM_bloc_create(pex + 1, 1) == RPN_COMM_ERROR, 'bloc_create of blocks that do not divide the grid')
  call check(RPN_COMM_bloc_find(pex + 1, 1, .false.) == -1, 'bloc_find of a shape never made')

  u = 0
  call RPN_COMM_status_size(u)
  call check(u == -1 .or. u >= 5, 'status_size: refused (shared memory) or MPI_STATUS_SIZE')

  call finish('test_options')

contains
  include 'tutil.inc'
end program test_options

! Two rows where the PEs pair up (2 x 2 on 4 PEs, 3 x 2 on 6), else the preset row.
subroutine two_rows(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  if (px > 2 .and. mod(px, 2) == 0) then
    px = px / 2
    py = 2
  endif
end subroutine two_rows
