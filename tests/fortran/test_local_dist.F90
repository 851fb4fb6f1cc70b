! PES: 1 2 4 6
! TIMEOUT: 90
!
! The original's local distribution tables on both transports: a pattern of one row per PE (row
! i: 1 + mod(i, 3) integers, root the middle PE, clients PEs mod(i, n) and mod(i + 1, n)), then
! - RPN_COMM_alloc_dist_table: made once (4 patterns), refused again and for 0 entries;
! - RPN_COMM_add_dist_entry: the row offsets, data size and exchange count this test computes
!   itself; RPN_COMM_dist_offsets, get_dist_dims, get_dist_meta give them back (a room too small or
!   a wrong nmeta refused: -1), RPN_COMM_dist_pattern tells a pattern from a number that is none;
! - RPN_COMM_do_dist from the root: every client receives the root's integers of its rows; then
!   toward the root, on a pattern of one client per row: the root receives each client's;
! - a values array too short refused (-1); the full table refuses a pattern (-1, offsets
!   999999999).
program test_local_dist
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: MAXC = 3
  integer :: me, npes, nerr
  integer :: pex, pey, ierr, root, i, k, j, pattern, pattern2, ndata, nmeta, nd, nm, off, expect_nd, expect_nm
  integer, dimension(:,:), allocatable :: table, meta
  integer, dimension(:), allocatable :: values, offsets, expect_off
  logical :: client
  integer, external :: RPN_COMM_alloc_dist_table, RPN_COMM_add_dist_entry, RPN_COMM_dist_offsets
  integer, external :: RPN_COMM_dist_pattern, RPN_COMM_get_dist_meta, RPN_COMM_do_dist
  external :: local_dist_grid

  nerr = 0
  me = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(local_dist_grid, me, npes, pex, pey)
  root = (npes - 1) / 2

  call section('the table')
  call check(RPN_COMM_alloc_dist_table(0) == -1, 'a table of 0 patterns refused')
  call check(RPN_COMM_dist_pattern(1) == -1, 'no pattern 1 yet')
  call check(RPN_COMM_alloc_dist_table(4) == 4, 'a table of 4 patterns')
  call check(RPN_COMM_alloc_dist_table(8) == -1, 'the table is made once')

  call section('RPN_COMM_add_dist_entry')
  allocate(table(-2:MAXC, npes), expect_off(npes), offsets(npes + 1))
  table = -1
  expect_nd = 0
  expect_nm = 0
  off = 1
  expect_off = 0
  do i = 1, npes
    table(-1, i) = 1 + mod(i, 3)
    table(0, i) = root
    if (mod(i, npes) /= root) table(1, i) = mod(i, npes)
    if (mod(i + 1, npes) /= root .and. mod(i + 1, npes) /= mod(i, npes)) table(2, i) = mod(i + 1, npes)
    if (me == root) then
      expect_off(i) = off
      expect_nm = expect_nm + count(table(1:MAXC, i) >= 0)
    else if (any(table(1:MAXC, i) == me)) then
      expect_off(i) = -off
      expect_nm = expect_nm + 1
    endif
    if (expect_off(i) /= 0) off = off + table(-1, i)
  enddo
  expect_nd = off - 1
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  call check(pattern == 1, 'pattern 1: '//str(pattern))
  call check(all(table(-2, :) == expect_off), 'the offsets in table(-2, :)')
  call check(ndata == expect_nd .and. nmeta == expect_nm, 'ndata '//str(ndata)//', nmeta '//str(nmeta))
  call check(RPN_COMM_dist_pattern(pattern) == pattern .and. RPN_COMM_dist_pattern(2) == -1 .and. &
             RPN_COMM_dist_pattern(0) == -1, 'dist_pattern')
  call RPN_COMM_get_dist_dims(pattern, nd, nm)
  call check(nd == ndata .and. nm == nmeta, 'get_dist_dims')
  call RPN_COMM_get_dist_dims(7, nd, nm)
  call check(nd == -1 .and. nm == -1, 'get_dist_dims of no pattern')
  offsets = 55
  call check(RPN_COMM_dist_offsets(pattern, offsets, npes + 1) == npes, 'dist_offsets count')
  call check(all(offsets(1:npes) == expect_off) .and. offsets(npes + 1) == 55, 'dist_offsets')
  if (npes > 1) call check(RPN_COMM_dist_offsets(pattern, offsets, npes - 1) == -1, 'dist_offsets: too little room')
  allocate(meta(4, max(nmeta, 1)))
  call check(RPN_COMM_get_dist_meta(pattern, meta, nmeta + 1) == -1, 'get_dist_meta: a wrong nmeta')
  call check(RPN_COMM_get_dist_meta(pattern, meta, nmeta) == 0, 'get_dist_meta')
  k = 0
  do i = 1, npes      ! clients first (root), then sources, both in row order
    if (me == root) then
      do j = 1, MAXC
        if (table(j, i) >= 0) then
          k = k + 1
          call check(all(meta(:, k) == [expect_off(i), table(-1, i), i, table(j, i)]), 'meta of a client')
        endif
      enddo
    else if (expect_off(i) /= 0) then
      k = k + 1
      call check(all(meta(:, k) == [expect_off(i), table(-1, i), -i, root]), 'meta of a source')
    endif
  enddo

  call section('RPN_COMM_do_dist')
  allocate(values(max(ndata, 1)))
  values = -1
  do i = 1, npes
    if (me == root) values(expect_off(i):expect_off(i) + table(-1, i) - 1) = [(1000 * i + k, k = 1, table(-1, i))]
  enddo
  call check(RPN_COMM_do_dist(pattern, .true., values, ndata) == 0, 'do_dist from the root')
  do i = 1, npes
    if (expect_off(i) < 0) then
      off = -expect_off(i)
      call check(all(values(off:off + table(-1, i) - 1) == [(1000 * i + k, k = 1, table(-1, i))]), &
                 'row '//str(i)//' from the root')
    endif
  enddo
  if (nmeta > 0) call check(RPN_COMM_do_dist(pattern, .true., values, ndata - 1) == -1, 'values too short')
  ! one client per row, toward the root
  table(2:MAXC, :) = -1
  pattern2 = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  call check(pattern2 == 2, 'pattern 2')
  deallocate(values)
  allocate(values(max(ndata, 1)))
  values = -1
  do i = 1, npes
    client = any(table(1:MAXC, i) == me) .and. me /= root
    if (client) values(-table(-2, i):-table(-2, i) + table(-1, i) - 1) = 10000 * me + i
  enddo
  call check(RPN_COMM_do_dist(pattern2, .false., values, ndata) == 0, 'do_dist toward the root')
  if (me == root) then
    do i = 1, npes
      if (table(1, i) >= 0) then
        call check(all(values(table(-2, i):table(-2, i) + table(-1, i) - 1) == 10000 * table(1, i) + i), &
                   'row '//str(i)//' toward the root')
      endif
    enddo
  endif

  call section('a full table')
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  call check(pattern == 4, 'pattern 4')
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  call check(pattern == -1 .and. all(table(-2, :) == 999999999), 'a fifth pattern refused')

  call finish('test_local_dist')
contains
  include 'tutil.inc'
end program test_local_dist

subroutine local_dist_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  px = px     ! the preset npes x 1
  py = py
end subroutine local_dist_grid
