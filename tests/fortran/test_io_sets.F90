! PES: 1 2 4 6
! TIMEOUT: 90
! OUTPUT_HAS@4: after callback, status,argv=        -123        -100
! OUTPUT_HAS@4: IO PE CALLBACK set, me, argument =            3           0           0
! OUTPUT_HAS@4: tbcst after broadcast           0
!
! The rest of the original's I/O PE set routines, through the legacy include, on both transports,
! on a grid of 1 x 1, 2 x 1, 2 x 2 or 3 x 2 PEs, for every set size the grid holds:
! - RPN_COMM_is_valid_io_setno: .true. for a made set, .false. for 0, 17, -1 and a freed set;
! - RPN_COMM_io_pe_groups: ceiling(n / min(pex, pey, n)), -1 for no set;
! - RPN_COMM_io_pe_idlist and io_pe_coord: the members' grid ranks and coordinates, as
!   io_pe_gridid and io_pe_valid_set give them; null pointers for no set;
! - RPN_COMM_io_pe_callback: called on the members only, with the set, the PE's rank in it (that
!   of RPN_COMM_is_io_pe), the set's communicator (RPN_COMM_io_pe_comm's in the MPI build) and its
!   coordinates; its value returned there, 0 elsewhere, -1 for no set;
! - RPN_COMM_io_pe_bcast: the last member's grid rank reaches every member; a PE that is no member
!   gets ierr = -1 and its buffer untouched;
! - RPN_COMM_make_io_pe_list: io_pe_valid_set's places for a possible set, -1 everywhere for
!   method 1; RPN_COMM_check_ioset: 0 for them, -1 for a PE twice, two PEs of a group on one row
!   or column, or a PE outside the grid (one line each);
! - RPN_COMM_io_pe_test, the original's self-test driver: on 4 PEs its last set is PE 0 alone,
!   whose callback turns argv 0 into -100 and returns -123.
program test_io_sets
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr
  integer :: pex, pey, mex, mey, ierr, n, setno, i, st, grp, mine, wnpes
  integer, dimension(:), allocatable :: x, y, lx, ly
  integer, dimension(:), pointer :: ids
  integer, dimension(:,:), pointer :: coords
  integer, dimension(8), target :: argv
  integer, dimension(3) :: buf
  logical :: mpi
  integer, external :: io_sets_callback
  external :: io_sets_grid

  nerr = 0
  me = 0
  call RPN_COMM_size(RPN_COMM_WORLD, wnpes, ierr)
  pex = wnpes
  pey = 1
  if (wnpes == 4) pex = 2
  if (wnpes == 6) pex = 3
  pey = wnpes / pex
  call RPN_COMM_init(io_sets_grid, me, npes, pex, pey)
  ierr = RPN_COMM_mype(me, mex, mey)
  mpi = RPN_COMM_datyp('MPI_INTEGER') /= -1

  call section('is_valid_io_setno, io_pe_groups, idlist, coord, callback, bcast')
  call check(.not. RPN_COMM_is_valid_io_setno(0) .and. .not. RPN_COMM_is_valid_io_setno(17) .and. &
             .not. RPN_COMM_is_valid_io_setno(-1) .and. .not. RPN_COMM_is_valid_io_setno(1), 'no set yet')
  do n = 1, npes
    allocate(x(n), y(n))
    st = RPN_COMM_io_pe_valid_set(x, y, n, pex, pey, .false., 0)
    if (st /= RPN_COMM_OK) then
      deallocate(x, y)
      cycle
    endif
    setno = RPN_COMM_create_io_set(n, 0)
    call check(RPN_COMM_is_valid_io_setno(setno), 'set of '//str(n)//' valid')
    grp = min(pex, pey, n)
    call check(RPN_COMM_io_pe_groups(setno) == (n + grp - 1) / grp, 'io_pe_groups of '//str(n)//': '// &
               str(RPN_COMM_io_pe_groups(setno)))
    ids => RPN_COMM_io_pe_idlist(setno)
    coords => RPN_COMM_io_pe_coord(setno)
    call check(associated(ids) .and. associated(coords), 'idlist and coord of a set')
    if (associated(ids) .and. associated(coords)) then
      call check(size(ids) == n .and. size(coords, 1) == n .and. size(coords, 2) == 2, 'their sizes')
      mine = -1
      do i = 1, n
        call check(ids(i) == RPN_COMM_io_pe_gridid(setno, i - 1) .and. ids(i) == y(i) * pex + x(i), &
                   'idlist('//str(i)//') = '//str(ids(i)))
        call check(coords(i, 1) == x(i) .and. coords(i, 2) == y(i), 'coord('//str(i)//')')
        if (x(i) == mex .and. y(i) == mey) mine = i - 1
      enddo
      deallocate(ids, coords)
    endif
    call check(RPN_COMM_is_io_pe(setno) == mine, 'is_io_pe')
    ! the callback: on members only, with the member's figures
    argv = -7
    argv(1) = me
    st = RPN_COMM_io_pe_callback(setno, io_sets_callback, C_LOC(argv(1)))
    if (mine >= 0) then
      call check(st == -(100 + mine), 'callback value on a member: '//str(st))
      call check(argv(2) == setno .and. argv(3) == mine .and. argv(4) == n, 'callback arguments')
      call check(argv(5) == sum(x) .and. argv(6) == sum(y), 'callback coordinates')
      if (mpi) then
        call check(argv(7) == RPN_COMM_io_pe_comm(setno), 'callback communicator')
      else
        call check(argv(7) == -1, 'callback communicator: none without MPI')
      endif
    else
      call check(st == 0 .and. all(argv(2:) == -7), 'no callback on a PE that is no member')
    endif
    ! broadcast of the last member's grid rank among the members
    buf = [me, me, -5]
    call RPN_COMM_io_pe_bcast(buf, 2, 'MPI_INTEGER', n - 1, setno, ierr)
    if (mine >= 0) then
      call check(ierr == RPN_COMM_OK .and. all(buf == [ids_last(), ids_last(), -5]), &
                 'io_pe_bcast on a member: '//str(buf(1)))
    else
      call check(ierr == RPN_COMM_ERROR .and. all(buf == [me, me, -5]), 'io_pe_bcast on a PE that is no member')
    endif
    ! make_io_pe_list and check_ioset agree with io_pe_valid_set
    allocate(lx(n), ly(n))
    call RPN_COMM_make_io_pe_list(lx, ly, n, pex, pey, 0)
    call check(all(lx == x) .and. all(ly == y), 'make_io_pe_list of '//str(n))
    call check(RPN_COMM_check_ioset(setno, lx, ly, n, pex, pey, me, .false.) == 0, 'check_ioset of '//str(n))
    if (n > 1) then
      lx(2) = lx(1)
      ly(2) = ly(1)
      call check(RPN_COMM_check_ioset(setno, lx, ly, n, pex, pey, me, .false.) == -1, 'check_ioset: a PE twice')
    endif
    lx(1) = pex
    call check(RPN_COMM_check_ioset(setno, lx, ly, n, pex, pey, me, .false.) == -1, 'check_ioset: outside')
    call RPN_COMM_make_io_pe_list(lx, ly, n, pex, pey, 1)
    call check(all(lx == -1) .and. all(ly == -1), 'make_io_pe_list: method 1 refused')
    call check(RPN_COMM_free_io_set(setno) == setno, 'free')
    call check(.not. RPN_COMM_is_valid_io_setno(setno), 'a freed set is no set')
    call check(RPN_COMM_io_pe_groups(setno) == -1, 'io_pe_groups of no set')
    ids => RPN_COMM_io_pe_idlist(setno)
    coords => RPN_COMM_io_pe_coord(setno)
    call check(.not. associated(ids) .and. .not. associated(coords), 'idlist and coord of no set: null')
    call check(RPN_COMM_io_pe_callback(setno, io_sets_callback, C_LOC(argv(1))) == -1, 'callback of no set')
    call RPN_COMM_io_pe_bcast(buf, 1, 'MPI_INTEGER', 0, setno, ierr)
    call check(ierr == RPN_COMM_ERROR, 'io_pe_bcast of no set')
    deallocate(x, y, lx, ly)
  enddo
  ! a group with two PEs on one column (the grid's first column, twice)
  if (pey > 1 .and. pex > 1) then
    call check(RPN_COMM_check_ioset(0, [0, 0], [0, 1], 2, pex, pey, me, .false.) == -1, 'check_ioset: one column twice')
  endif

  ! the original's self-test driver: its lines (the callback's on PE 0, the only member of its
  ! last set, on 4 PEs) are checked by OUTPUT_HAS above
  call RPN_COMM_io_pe_test()

  call finish('test_io_sets')
contains
  include 'tutil.inc'

  integer function ids_last()
    ids_last = y(n) * pex + x(n)
  end function ids_last
end program test_io_sets

subroutine io_sets_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  px = px
  py = py
end subroutine io_sets_grid

! argv: 8 integers; 2 to 7 receive setno, ordinal, npe, sum(x), sum(y), comm
integer function io_sets_callback(argv, setno, comm, ordinal, x, y, npe) result(status)
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
  a(7) = comm
  status = -(100 + ordinal)
end function io_sets_callback
