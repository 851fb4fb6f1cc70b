! PES: 1 2 4 6
! TIMEOUT: 180
!
! The halo exchange as a model calls it, whatever the array: 24 separately
! allocated fields in turn, the 24 slices of a 4-D array tr(minx:maxx,miny:maxy,nk,24) passed
! by their first element, automatic arrays, allocate/exchange/deallocate, two arrays of one
! shape alternating, the same array again; then lists of fields (any nk each, 4- and 8-byte
! elements) exchanged in one call, and split in a start and a finish with work in between, two
! lists in flight at once; then refusals (nothing written). New values at every step; every
! point of every array is compared with an independent reference computed from global indices.
program test_halo_fields
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer, parameter :: h = 2, nk = 3, nf = 24
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer :: gni, gnj, ni, nj, i0, j0, lmax, step, f, ierr
  integer :: minx, maxx, miny, maxy
  integer, allocatable :: cx(:), ox(:), cy(:), oy(:)
  type field
    integer, allocatable :: a(:,:,:)
  end type field
  type(field) :: fields(nf)
  integer, allocatable :: tr(:,:,:,:), u(:,:,:), v(:,:,:), w(:,:,:), s1(:,:,:)
  real(kind=8), allocatable :: d(:,:,:)
  integer :: la, lb
  ! levels of the large fields: their faces (about 300 bytes a level here) pass the 64 KiB above
  ! which a blocking list on shared memory goes as one exchange per group of fields
  integer, parameter :: nkb = 260
  integer, allocatable :: b1(:,:,:), b2(:,:,:), b3(:,:,:)
  logical, parameter :: px = .true., py = .false.

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_halo_fields: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  allocate(cx(pex), ox(pex), cy(pey), oy(pey))
  gni = 9 * pex - 2
  gnj = 7 * pey - 1
  status = RPN_COMM_limit(mex, pex, 1, gni, i0, lmax, cx, ox)
  ni = cx(mex + 1)
  status = RPN_COMM_limit(mey, pey, 1, gnj, j0, lmax, cy, oy)
  nj = cy(mey + 1)
  minx = 1 - h
  maxx = ni + h + 1
  miny = 1 - h - 1
  maxy = nj + h

  call section('24 separately allocated fields in turn')
  do f = 1, nf
    allocate(fields(f)%a(minx:maxx, miny:maxy, nk))
  enddo
  do step = 1, 3
    do f = 1, nf
      call one(fields(f)%a, nk, 100 * step + f, '24 fields')
    enddo
  enddo
  call section('the 24 slices of tr(minx:maxx, miny:maxy, nk, 24), by their first element')
  allocate(tr(minx:maxx, miny:maxy, nk, nf))
  do step = 1, 3
    do f = 1, nf
      call fill(tr(:, :, :, f), nk, 400 + 10 * step + f)
      call RPN_COMM_xch_halo(tr(minx, miny, 1, f), minx, maxx, miny, maxy, ni, nj, nk, h, h, px, py, gni, 0)
    enddo
    do f = 1, nf
      call verify(tr(:, :, :, f), nk, 400 + 10 * step + f, 'tr slices')
    enddo
  enddo
  call section('automatic arrays')
  do step = 1, 6
    call automatic(step)
  enddo
  call section('allocate, exchange, deallocate')
  do step = 1, 6
    allocate(w(minx:maxx, miny:maxy, nk + mod(step, 2)))
    call one(w, nk + mod(step, 2), 800 + step, 'allocated')
    deallocate(w)
  enddo
  call section('two arrays of one shape alternating, then the same array again')
  allocate(u(minx:maxx, miny:maxy, nk), v(minx:maxx, miny:maxy, nk))
  do step = 1, 8
    call one(u, nk, 900 + step, 'u')
    call one(v, nk, 950 + step, 'v')
  enddo
  do step = 1, 4
    call one(u, nk, 1000 + step, 'u again')
  enddo

  call section('a list of fields in one call (nk 3, 1, 2; integer and real*8)')
  allocate(s1(minx:maxx, miny:maxy, 1), w(minx:maxx, miny:maxy, 2), d(minx:maxx, miny:maxy, 2))
  call RPN_COMM_xch_halo_list_new(la, minx, maxx, miny, maxy, ni, nj, h, h, px, py, gni, 0, ierr)
  call check(ierr == RPN_COMM_OK, 'RPN_COMM_xch_halo_list_new')
  call RPN_COMM_xch_halo_list_add(la, u, nk, 1, ierr)
  call RPN_COMM_xch_halo_list_add(la, s1, 1, 1, ierr)
  call RPN_COMM_xch_halo_list_add(la, w, 2, 1, ierr)
  call RPN_COMM_xch_halo_list_add(la, d, 2, 2, ierr)
  call check(ierr == RPN_COMM_OK, 'RPN_COMM_xch_halo_list_add')
  do step = 1, 4
    call fill_list(1100 + 10 * step)
    call RPN_COMM_xch_halo_list(la, ierr)
    call check(ierr == RPN_COMM_OK, 'RPN_COMM_xch_halo_list')
    call verify_list(1100 + 10 * step, 'list')
  enddo

  call section('split: start, work on the interior, finish; two lists in flight')
  call RPN_COMM_xch_halo_list_new(lb, minx, maxx, miny, maxy, ni, nj, h, h, px, py, gni, 0, ierr)
  call RPN_COMM_xch_halo_list_add(lb, v, nk, 1, ierr)
  do step = 1, 4
    call fill_list(1200 + 10 * step)
    call fill(v, nk, 1300 + step)
    call RPN_COMM_xch_halo_start(la, ierr)
    call check(ierr == RPN_COMM_OK, 'RPN_COMM_xch_halo_start')
    ! work on points no neighbour reads (not the faces) while the halos travel
    if (ni > 2 * h .and. nj > 2 * h) u(h + 1:ni - h, h + 1:nj - h, :) = u(h + 1:ni - h, h + 1:nj - h, :) + 0
    call RPN_COMM_xch_halo_start(lb, ierr)
    if (mod(step, 2) == 0) then
      ! finishing the second finishes the first (started before) as well
      call RPN_COMM_xch_halo_finish(lb, ierr)
      call check(ierr == RPN_COMM_OK, 'finish of the second list')
      call RPN_COMM_xch_halo_finish(la, ierr)
    else
      call RPN_COMM_xch_halo_finish(la, ierr)
      call check(ierr == RPN_COMM_OK, 'finish of the first list')
      call RPN_COMM_xch_halo_finish(lb, ierr)
    endif
    call check(ierr == RPN_COMM_OK, 'RPN_COMM_xch_halo_finish')
    call verify_list(1200 + 10 * step, 'split list')
    call verify(v, nk, 1300 + step, 'second list')
  enddo
  ! a third start while two are in flight finishes the oldest first
  call fill_list(1400)
  call fill(v, nk, 1401)
  call RPN_COMM_xch_halo_start(la, ierr)
  call RPN_COMM_xch_halo_start(lb, ierr)
  call fill(fields(1)%a, nk, 1402)
  call RPN_COMM_xch_halo(fields(1)%a, minx, maxx, miny, maxy, ni, nj, nk, h, h, px, py, gni, 0)
  call verify(fields(1)%a, nk, 1402, 'a blocking exchange between a start and its finish')
  call RPN_COMM_xch_halo_finish(lb, ierr)
  call RPN_COMM_xch_halo_finish(la, ierr)
  call check(ierr == RPN_COMM_OK, 'finish after a blocking exchange')
  call verify_list(1400, 'list around a blocking exchange')
  call verify(v, nk, 1401, 'second list around a blocking exchange')

  call section('a list of large fields (on shared memory: one exchange per field, agreed as one)')
  call big_list()

  call section('refusals')
  call RPN_COMM_xch_halo_finish(la, ierr)
  call check(ierr == RPN_COMM_ERROR, 'finish of a list not started: refused')
  call RPN_COMM_xch_halo_list(12345, ierr)
  call check(ierr == RPN_COMM_ERROR, 'a handle that is no list: refused')
  if (npes > 1) call nk_differs()
  call RPN_COMM_xch_halo_list_free(lb, ierr)
  call RPN_COMM_xch_halo_list_free(la, ierr)
  call check(ierr == RPN_COMM_OK, 'RPN_COMM_xch_halo_list_free')
  call RPN_COMM_xch_halo_list(la, ierr)
  call check(ierr == RPN_COMM_ERROR, 'a freed list: refused')
  call section('an exchange after the refusals')
  call one(u, nk, 1500, 'after the refusals')
  call finish('test_halo_fields')
contains
  integer function val(gi, gj, k, tag)
    integer, intent(IN) :: gi, gj, k, tag
    val = ((tag * 100 + gi) * 100 + gj) * 10 + k
  end function val

  integer function untouched(i, j, k, tag)
    integer, intent(IN) :: i, j, k, tag
    untouched = -(((tag * 100 + i + 10) * 100 + j + 10) * 10 + k)
  end function untouched

  integer function global_index(i, i0, gn, periodic)
    integer, intent(IN) :: i, i0, gn
    logical, intent(IN) :: periodic
    global_index = i0 + i - 1
    if (periodic) then
      global_index = modulo(global_index - 1, gn) + 1
    else if (global_index < 1 .or. global_index > gn) then
      global_index = 0
    endif
  end function global_index

  ! what point (i, j, k) of an array tagged `tag` holds before (after: when `after`)
  integer function expected(i, j, k, tag, after)
    integer, intent(IN) :: i, j, k, tag
    logical, intent(IN) :: after
    integer :: gi, gj
    expected = untouched(i, j, k, tag)
    if (i >= 1 .and. i <= ni .and. j >= 1 .and. j <= nj) then
      expected = val(i0 + i - 1, j0 + j - 1, k, tag)
    else if (after .and. i >= 1 - h .and. i <= ni + h .and. j >= 1 - h .and. j <= nj + h) then
      gi = global_index(i, i0, gni, px)
      gj = global_index(j, j0, gnj, py)
      if (gi > 0 .and. gj > 0) expected = val(gi, gj, k, tag)
    endif
  end function expected

  subroutine fill(g, n, tag)
    integer, intent(IN) :: n, tag
    integer, intent(OUT) :: g(minx:maxx, miny:maxy, n)
    integer :: i, j, k
    do k = 1, n
      do j = miny, maxy
        do i = minx, maxx
          g(i, j, k) = expected(i, j, k, tag, .false.)
        enddo
      enddo
    enddo
  end subroutine fill

  subroutine verify(g, n, tag, what)
    integer, intent(IN) :: n, tag
    integer, intent(IN) :: g(minx:maxx, miny:maxy, n)
    character(len=*), intent(IN) :: what
    integer :: i, j, k, bad
    bad = 0
    do k = 1, n
      do j = miny, maxy
        do i = minx, maxx
          if (g(i, j, k) /= expected(i, j, k, tag, .true.)) then
            bad = bad + 1
            if (bad <= 2) call check(.false., what//': g('//str(i)//','//str(j)//','//str(k)//') = '// &
                                     str(g(i, j, k))//', expected '//str(expected(i, j, k, tag, .true.)))
          endif
        enddo
      enddo
    enddo
    call check(bad == 0, what//' (tag '//str(tag)//'): '//str(bad)//' wrong points')
  end subroutine verify

  ! fills g, exchanges it alone, checks every point
  subroutine one(g, n, tag, what)
    integer, intent(IN) :: n, tag
    integer, intent(INOUT) :: g(minx:maxx, miny:maxy, n)
    character(len=*), intent(IN) :: what
    call fill(g, n, tag)
    call RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, n, h, h, px, py, gni, 0)
    call verify(g, n, tag, what)
  end subroutine one

  subroutine automatic(step)
    integer, intent(IN) :: step
    integer :: a(minx:maxx, miny:maxy, nk), b(minx:maxx, miny:maxy, nk + step)
    call one(a, nk, 600 + step, 'automatic a')
    call one(b, nk + step, 700 + step, 'automatic b')
  end subroutine automatic

  ! the list's fields: u (nk), s1 (1), w (2), d (real*8, 2)
  subroutine fill_list(tag)
    integer, intent(IN) :: tag
    integer :: i, j, k
    call fill(u, nk, tag)
    call fill(s1, 1, tag + 1)
    call fill(w, 2, tag + 2)
    do k = 1, 2
      do j = miny, maxy
        do i = minx, maxx
          d(i, j, k) = expected(i, j, k, tag + 3, .false.) + 0.25d0
        enddo
      enddo
    enddo
  end subroutine fill_list

  subroutine verify_list(tag, what)
    integer, intent(IN) :: tag
    character(len=*), intent(IN) :: what
    integer :: i, j, k, bad
    call verify(u, nk, tag, what//' u')
    call verify(s1, 1, tag + 1, what//' s1')
    call verify(w, 2, tag + 2, what//' w')
    bad = 0
    do k = 1, 2
      do j = miny, maxy
        do i = minx, maxx
          if (d(i, j, k) /= expected(i, j, k, tag + 3, .true.) + 0.25d0) bad = bad + 1
        enddo
      enddo
    enddo
    call check(bad == 0, what//' real*8 d: '//str(bad)//' wrong points')
  end subroutine verify_list

  ! PE 0 gives its list's second field 2 levels, the others 1: its neighbours refuse and nothing
  ! is written on the PEs that refuse (the PEs away from PE 0 exchange as usual)
  subroutine nk_differs()
    integer :: lc, k2
    integer, allocatable :: before(:,:,:)
    k2 = merge(2, 1, me == 0)
    call RPN_COMM_xch_halo_list_new(lc, minx, maxx, miny, maxy, ni, nj, h, h, px, py, gni, 0, ierr)
    call RPN_COMM_xch_halo_list_add(lc, u, nk, 1, ierr)
    call RPN_COMM_xch_halo_list_add(lc, w, k2, 1, ierr)
    call fill(u, nk, 1600)
    call fill(w, 2, 1601)
    allocate(before(minx:maxx, miny:maxy, nk))
    before = u
    call RPN_COMM_xch_halo_list(lc, ierr)
    if (ierr == RPN_COMM_ERROR) then
      call check(all(u == before), 'nk differs: nothing written where refused')
    else
      call verify(u, nk, 1600, 'nk differs: exchanged where no neighbour differs')
    endif
    if (me == 0) call check(ierr == RPN_COMM_ERROR, 'nk differs: refused on PE 0')
    call RPN_COMM_xch_halo_list_free(lc, ierr)
  end subroutine nk_differs

  ! three fields of nkb, nkb and nkb + 1 levels in one list, exchanged again and again; then the
  ! third one's nk differs on PE 0 only: the whole list is refused by PE 0 and its neighbours,
  ! the first fields included (the first group's exchange agrees on every field of the list)
  subroutine big_list()
    integer :: ld, le, k3, tag
    integer, allocatable :: before1(:,:,:), before2(:,:,:)
    allocate(b1(minx:maxx, miny:maxy, nkb), b2(minx:maxx, miny:maxy, nkb), b3(minx:maxx, miny:maxy, nkb + 1))
    call RPN_COMM_xch_halo_list_new(ld, minx, maxx, miny, maxy, ni, nj, h, h, px, py, gni, 0, ierr)
    call RPN_COMM_xch_halo_list_add(ld, b1, nkb, 1, ierr)
    call RPN_COMM_xch_halo_list_add(ld, b2, nkb, 1, ierr)
    call RPN_COMM_xch_halo_list_add(ld, b3, nkb + 1, 1, ierr)
    do step = 1, 3
      tag = 1700 + 10 * step
      call fill(b1, nkb, tag)
      call fill(b2, nkb, tag + 1)
      call fill(b3, nkb + 1, tag + 2)
      call RPN_COMM_xch_halo_list(ld, ierr)
      call check(ierr == RPN_COMM_OK, 'large list')
      call verify(b1, nkb, tag, 'large list b1')
      call verify(b2, nkb, tag + 1, 'large list b2')
      call verify(b3, nkb + 1, tag + 2, 'large list b3')
    enddo
    call RPN_COMM_xch_halo_list_free(ld, ierr)
    if (npes > 1) then
      k3 = merge(nkb + 1, nkb, me == 0)
      call RPN_COMM_xch_halo_list_new(le, minx, maxx, miny, maxy, ni, nj, h, h, px, py, gni, 0, ierr)
      call RPN_COMM_xch_halo_list_add(le, b1, nkb, 1, ierr)
      call RPN_COMM_xch_halo_list_add(le, b2, nkb, 1, ierr)
      call RPN_COMM_xch_halo_list_add(le, b3, k3, 1, ierr)
      call fill(b1, nkb, 1800)
      call fill(b2, nkb, 1801)
      call fill(b3, nkb + 1, 1802)
      allocate(before1(minx:maxx, miny:maxy, nkb), before2(minx:maxx, miny:maxy, nkb))
      before1 = b1
      before2 = b2
      call RPN_COMM_xch_halo_list(le, ierr)
      if (ierr == RPN_COMM_ERROR) then
        call check(all(b1 == before1) .and. all(b2 == before2), 'large list, last nk differs: nothing written where refused')
      else
        call verify(b1, nkb, 1800, 'large list, last nk differs: b1 exchanged where no neighbour differs')
        call verify(b2, nkb, 1801, 'large list, last nk differs: b2 exchanged where no neighbour differs')
        call verify(b3, nkb, 1802, 'large list, last nk differs: b3 exchanged where no neighbour differs')
      endif
      if (me == 0) call check(ierr == RPN_COMM_ERROR, 'large list, last nk differs: refused on PE 0')
      call RPN_COMM_xch_halo_list_free(le, ierr)
    endif
    deallocate(b1, b2, b3)
  end subroutine big_list

  subroutine grid_shape(px_, py_)
    integer, intent(INOUT) :: px_, py_
    integer :: n
    n = px_ * py_
    px_ = n
    if (n >= 4 .and. mod(n, 2) == 0) px_ = n / 2
    py_ = n / px_
  end subroutine grid_shape

  include 'tutil.inc'
end program test_halo_fields
