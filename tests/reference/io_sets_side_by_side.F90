! io_sets_side_by_side.F90 -- the original's I/O PE set routines and local distribution tables,
! built against the original RPN_COMM and against this library by side_by_side.sh, which compares
! what they print. The grid is 1 x 1, 2 x 1, 2 x 2 or 3 x 2 PEs. Printed, on each PE (by its grid
! rank), for every set size from 1 to the grid's PEs + 2: RPN_COMM_make_io_pe_list and
! check_ioset of its places (duplicates past the grid refused), io_pe_valid_set and, for a possible
! set, create_io_set, is_valid_io_setno, io_pe_groups, io_pe_idlist, io_pe_coord, is_io_pe,
! io_pe_callback (its value and what the callback saw, but the communicator), io_pe_bcast (the
! last member's grid rank) and free_io_set; the answers for no set; then a pattern of the local
! distribution tables (one row per PE, the middle PE the root): the table's allocation, the
! pattern's offsets, sizes and metadata, RPN_COMM_do_dist from the root and toward it, and the
! full table's refusal. (get_dist_dims's data size is printed apart, not compared: see there.)
program io_sets_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer, parameter :: MAXC = 3
  integer :: me, npes, mex, mey, pex, pey, ierr, n, st, setno, i, k, mine
  integer :: pattern, pattern2, ndata, nmeta, nd, nm, root
  integer, dimension(:), allocatable :: x, y, lx, ly, values, offsets
  integer, dimension(:,:), allocatable :: table, meta
  integer, dimension(:), pointer :: ids
  integer, dimension(:,:), pointer :: coords
  integer, dimension(8), target :: argv
  integer, dimension(3) :: buf
  integer, external :: sbs_callback
  integer, external :: RPN_COMM_alloc_dist_table, RPN_COMM_add_dist_entry, RPN_COMM_dist_offsets
  integer, external :: RPN_COMM_dist_pattern, RPN_COMM_get_dist_meta, RPN_COMM_do_dist
  external :: sbs_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(sbs_grid, me, npes, pex, pey)
  ierr = RPN_COMM_mype(me, mex, mey)

  do n = 1, npes + 2
    allocate(x(n), y(n), lx(n), ly(n))
    call RPN_COMM_make_io_pe_list(lx, ly, n, pex, pey, 0)
    write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' n ', n, ' make_io_pe_list', lx, ly
    ! (not inside the write: the original prints its refusals, which would be recursive I/O)
    st = RPN_COMM_check_ioset(0, lx, ly, n, pex, pey, me, .false.)
    write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' n ', n, ' check_ioset ', st
    call RPN_COMM_make_io_pe_list(lx, ly, n, pex, pey, 1)
    write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' n ', n, ' make_io_pe_list method 1', lx, ly
    st = RPN_COMM_io_pe_valid_set(x, y, n, pex, pey, .false., 0)
    write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' n ', n, ' valid_set ', st
    if (st == RPN_COMM_OK) then
      setno = RPN_COMM_create_io_set(n, 0)
      write(*, '(A,I0,A,I0,A,I0,A,L1,A,I0,A,I0)') 'pe ', me, ' n ', n, ' set ', setno, ' valid ', &
          RPN_COMM_is_valid_io_setno(setno), ' groups ', RPN_COMM_io_pe_groups(setno), ' is_io_pe ', RPN_COMM_is_io_pe(setno)
      ids => RPN_COMM_io_pe_idlist(setno)
      coords => RPN_COMM_io_pe_coord(setno)
      write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' n ', n, ' idlist', ids
      write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' n ', n, ' coord', coords(:, 1), coords(:, 2)
      deallocate(ids, coords)
      argv = -7
      argv(1) = me
      st = RPN_COMM_io_pe_callback(setno, sbs_callback, C_LOC(argv(1)))
      write(*, '(A,I0,A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' n ', n, ' callback ', st, ' saw', argv(2:6)
      mine = RPN_COMM_is_io_pe(setno)
      buf = [me, me, -5]
      call RPN_COMM_io_pe_bcast(buf, 2, 'MPI_INTEGER', n - 1, setno, ierr)
      write(*, '(A,I0,A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' n ', n, ' bcast ierr ', ierr, ' buf', buf
      write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' n ', n, ' free ', RPN_COMM_free_io_set(setno)
      write(*, '(A,I0,A,I0,A,L1,A,I0)') 'pe ', me, ' n ', n, ' freed valid ', RPN_COMM_is_valid_io_setno(setno), &
          ' groups ', RPN_COMM_io_pe_groups(setno)
    endif
    deallocate(x, y, lx, ly)
  enddo
  ids => RPN_COMM_io_pe_idlist(3)
  coords => RPN_COMM_io_pe_coord(3)
  buf = me
  call RPN_COMM_io_pe_bcast(buf, 1, 'MPI_INTEGER', 0, 3, ierr)
  write(*, '(A,I0,A,3L2,2(1X,I0),A,I0,1X,I0)') 'pe ', me, ' no set: valid, idlist, coord', &
      RPN_COMM_is_valid_io_setno(3), associated(ids), associated(coords), RPN_COMM_io_pe_groups(3), &
      RPN_COMM_io_pe_callback(3, sbs_callback, C_LOC(argv(1))), ' bcast ', ierr, buf(1)
  write(*, '(A,I0,A,3L2)') 'pe ', me, ' valid 0, 17, -1', RPN_COMM_is_valid_io_setno(0), &
      RPN_COMM_is_valid_io_setno(17), RPN_COMM_is_valid_io_setno(-1)

  ! local distribution tables
  root = (npes - 1) / 2
  buf(1) = RPN_COMM_alloc_dist_table(0)
  buf(2) = RPN_COMM_dist_pattern(1)
  buf(3) = RPN_COMM_alloc_dist_table(4)
  write(*, '(A,I0,A,4(1X,I0))') 'pe ', me, ' alloc_dist_table', buf, RPN_COMM_alloc_dist_table(8)
  allocate(table(-2:MAXC, npes), offsets(npes + 1))
  table = -1
  do i = 1, npes
    table(-1, i) = 1 + mod(i, 3)
    table(0, i) = root
    if (mod(i, npes) /= root) table(1, i) = mod(i, npes)
    if (mod(i + 1, npes) /= root .and. mod(i + 1, npes) /= mod(i, npes)) table(2, i) = mod(i + 1, npes)
  enddo
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  write(*, '(A,I0,A,3(1X,I0),A,*(1X,I0))') 'pe ', me, ' add_dist_entry', pattern, ndata, nmeta, ' offsets', table(-2, :)
  write(*, '(A,I0,A,3(1X,I0))') 'pe ', me, ' dist_pattern', RPN_COMM_dist_pattern(pattern), RPN_COMM_dist_pattern(2), &
      RPN_COMM_dist_pattern(0)
  ! get_dist_dims's data size differs on purpose (not compared): the original's sums the lengths
  ! of the root's exchanges, one per client, and misses its rows without a client; ours is
  ! add_dist_entry's, the buffer the offsets describe
  call RPN_COMM_get_dist_dims(pattern, nd, nm)
  write(*, '(A,I0,A,2(1X,I0))') 'differs pe ', me, ' get_dist_dims ndata', nd, ndata
  write(*, '(A,I0,A,1(1X,I0))', advance='no') 'pe ', me, ' get_dist_dims nmeta', nm
  call RPN_COMM_get_dist_dims(7, nd, nm)
  write(*, '(2(1X,I0))') nd, nm
  offsets = 55
  st = RPN_COMM_dist_offsets(pattern, offsets, npes + 1)
  write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' dist_offsets ', st, ':', offsets
  write(*, '(A,I0,A,I0)') 'pe ', me, ' dist_offsets short ', RPN_COMM_dist_offsets(pattern, offsets, npes - 1)
  allocate(meta(4, max(nmeta, 1)))
  meta = 0
  write(*, '(A,I0,A,I0)') 'pe ', me, ' get_dist_meta wrong ', RPN_COMM_get_dist_meta(pattern, meta, nmeta + 1)
  st = RPN_COMM_get_dist_meta(pattern, meta, nmeta)
  write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' get_dist_meta ', st, ':', meta(:, 1:nmeta)
  allocate(values(max(ndata, 1)))
  values = -1
  do i = 1, npes
    if (me == root) values(table(-2, i):table(-2, i) + table(-1, i) - 1) = [(1000 * i + k, k = 1, table(-1, i))]
  enddo
  st = RPN_COMM_do_dist(pattern, .true., values, ndata)
  write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' do_dist from root ', st, ':', values
  table(2:MAXC, :) = -1
  pattern2 = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  write(*, '(A,I0,A,3(1X,I0),A,*(1X,I0))') 'pe ', me, ' add_dist_entry', pattern2, ndata, nmeta, ' offsets', table(-2, :)
  deallocate(values)
  allocate(values(max(ndata, 1)))
  values = -1
  do i = 1, npes
    if (table(-2, i) < 0) values(-table(-2, i):-table(-2, i) + table(-1, i) - 1) = 10000 * me + i
  enddo
  st = RPN_COMM_do_dist(pattern2, .false., values, ndata)
  write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' do_dist toward root ', st, ':', values
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  pattern = RPN_COMM_add_dist_entry(table, MAXC, npes, 'GRID', ndata, nmeta)
  write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' full table ', pattern, ' offsets', table(-2, :)

  call RPN_COMM_finalize(ierr)
end program io_sets_side_by_side

subroutine sbs_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: n, ierr
  call RPN_COMM_size('WORLD', n, ierr)
  px = n
  if (n == 4) px = 2
  if (n == 6) px = 3
  py = n / px
end subroutine sbs_grid

! argv: 8 integers; 2 to 6 receive setno, ordinal, npe, sum(x), sum(y)
integer function sbs_callback(argv, setno, comm, ordinal, x, y, npe) result(status)
  use ISO_C_BINDING
  implicit none
  type(C_PTR), intent(IN) :: argv
  integer, intent(IN) :: setno, comm, ordinal, npe
  integer, dimension(npe), intent(IN) :: x, y
  integer, dimension(:), pointer :: a
  call C_F_POINTER(argv, a, [8])
  a(2) = setno
  a(3) = ordinal
  a(4) = npe
  a(5) = sum(x)
  a(6) = sum(y)
  status = -(100 + ordinal) + 0 * comm
end function sbs_callback
