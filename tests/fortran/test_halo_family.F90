! PES: 1 2 3 4 6 9
! TIMEOUT: 120
!
! The rest of the original's halo family, each against an independent reference of every point
! computed from global indices (the value of global point (gi, gj) at level k is f(gi, gj, k)):
! - RPN_COMM_xch_halo_8: integer*8 values that differ in both 4-byte halves, periodic or not;
! - RPN_COMM_xch_halox: the part of g (halo 1) copied into g2 (halo 3), g2 exchanged, g unchanged
!   (with each PE's own ni as gni, as GEM calls it: gni only matters to the pole flip);
! - RPN_COMM_propagate_pilot_circular (a limited-area grid, not periodic): the halo points in the
!   pilot zones (global column <= pilx or > gni - pilx, or row <= pily or > gnj - pily) get their
!   neighbours' values (the original's own acceptance rule); with more than one row and column
!   of PEs every other point is unchanged; on one column (row) of PEs the halo rows (columns)
!   along the part get the neighbours' values; on one PE nothing changes;
! - the generic RPN_COMM_xch_halo of the module: real*4 rank 2, integer*8 rank 3, real*8 rank 4,
!   a rank-3 section of a 4-D real*8 array (a model's tracers) and the element that starts another
!   one, each exchanged right.
! Grids: 1 x 1, 1 x 2 (a column), 3 x 1 (a row), 2 x 2, 3 x 2, 3 x 3 (an interior PE).
program test_halo_family
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer :: gni, gnj, ni, nj, i0, j0

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_halo_family: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  call decompose()
  call section('RPN_COMM_xch_halo_8')
  call halo_8(.true.)
  call halo_8(.false.)
  call section('RPN_COMM_xch_halox')
  call halox()
  call section('RPN_COMM_propagate_pilot_circular')
  call pilot(2, 2, 1, 1)
  call pilot(3, 2, 2, 1)
  call section('the generic RPN_COMM_xch_halo: kinds and ranks')
  call generic()
  call finish('test_halo_family')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    select case (n)
    case (2)
      px = 1
      py = 2
    case (4)
      px = 2
      py = 2
    case (6)
      px = 3
      py = 2
    case (9)
      px = 3
      py = 3
    case default
      px = n
      py = 1
    end select
  end subroutine grid_shape

  ! an uneven decomposition (RPN_COMM_limit) of gni x gnj points, parts at least 6 x 6
  subroutine decompose()
    integer, dimension(pex) :: cx, ox
    integer, dimension(pey) :: cy, oy
    integer :: lmax
    gni = 7 * pex - 1
    gnj = 7 * pey - 1
    status = RPN_COMM_limit(mex, pex, 1, gni, i0, lmax, cx, ox)
    ni = cx(mex + 1)
    status = RPN_COMM_limit(mey, pey, 1, gnj, j0, lmax, cy, oy)
    nj = cy(mey + 1)
  end subroutine decompose

  integer function f(gi, gj, k)
    integer, intent(IN) :: gi, gj, k
    f = (gi * 1000 + gj) * 10 + k
  end function f

  integer function untouched(i, j, k)
    integer, intent(IN) :: i, j, k
    untouched = -((i + 100) * 1000 + (j + 100)) * 10 - k
  end function untouched

  ! global index of local i (tile from i0, gn points), 0 where nobody owns it
  integer function global_index(i, i0_, gn, periodic)
    integer, intent(IN) :: i, i0_, gn
    logical, intent(IN) :: periodic
    global_index = i0_ + i - 1
    if (periodic) then
      global_index = modulo(global_index - 1, gn) + 1
    else if (global_index < 1 .or. global_index > gn) then
      global_index = 0
    endif
  end function global_index

  ! What a plain exchange of halo h leaves at (i, j, k) of an array filled with f inside the
  ! part and untouched elsewhere.
  integer function plain(i, j, k, h, periodic)
    integer, intent(IN) :: i, j, k, h
    logical, intent(IN) :: periodic
    integer :: gi, gj
    plain = untouched(i, j, k)
    if (i < 1 - h .or. i > ni + h .or. j < 1 - h .or. j > nj + h) return
    gi = global_index(i, i0, gni, periodic)
    gj = global_index(j, j0, gnj, periodic)
    if (gi > 0 .and. gj > 0) plain = f(gi, gj, k)
  end function plain

  ! g(minx:maxx, miny:maxy, nk): f inside the part, untouched elsewhere
  subroutine fill(g, minx, maxx, miny, maxy, nk)
    integer, intent(IN) :: minx, maxx, miny, maxy, nk
    integer, intent(OUT) :: g(minx:maxx, miny:maxy, nk)
    integer :: i, j, k
    do k = 1, nk
      do j = miny, maxy
        do i = minx, maxx
          g(i, j, k) = untouched(i, j, k)
          if (i >= 1 .and. i <= ni .and. j >= 1 .and. j <= nj) g(i, j, k) = f(i0 + i - 1, j0 + j - 1, k)
        enddo
      enddo
    enddo
  end subroutine fill

  subroutine halo_8(periodic)
    logical, intent(IN) :: periodic
    integer, parameter :: h = 2, nk = 2
    integer(kind=8), allocatable :: g(:,:,:)
    integer, allocatable :: g4(:,:,:)
    integer :: i, j, k, bad
    integer(kind=8), parameter :: high = 2_8**33
    allocate(g(1 - h:ni + h, 1 - h:nj + h + 1, nk), g4(1 - h:ni + h, 1 - h:nj + h + 1, nk))
    call fill(g4, 1 - h, ni + h, 1 - h, nj + h + 1, nk)
    g = g4 * high + g4       ! both 4-byte halves carry the value (g allocated: bounds kept)
    call RPN_COMM_xch_halo_8(g, 1 - h, ni + h, 1 - h, nj + h + 1, ni, nj, nk, h, h, periodic, periodic, gni, 0)
    bad = 0
    do k = 1, nk
      do j = 1 - h, nj + h + 1
        do i = 1 - h, ni + h
          if (g(i, j, k) /= plain(i, j, k, h, periodic) * high + plain(i, j, k, h, periodic)) bad = bad + 1
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_xch_halo_8 periodic '//merge('T', 'F', periodic)//': '//str(bad)//' wrong points')
  end subroutine halo_8

  subroutine halox()
    integer, parameter :: h = 1, h2 = 3, nk = 3
    integer, allocatable :: g(:,:,:), before(:,:,:), g2(:,:,:)
    integer :: i, j, k, bad, expected
    allocate(g(1 - h:ni + h, 1 - h:nj + h, nk), g2(1 - h2:ni + h2, 1 - h2:nj + h2, nk))
    call fill(g, 1 - h, ni + h, 1 - h, nj + h, nk)
    allocate(before, source=g)
    g2 = -7
    ! gni = ni, as GEM passes it (l_ni): only the pole flip uses gni, so PEs may differ there
    call RPN_COMM_xch_halox(g, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h2, h2, .true., .false., &
                            g2, 1 - h2, ni + h2, 1 - h2, nj + h2, ni, 0)
    call check(all(g == before), 'RPN_COMM_xch_halox: g unchanged')
    bad = 0
    do k = 1, nk
      do j = 1 - h2, nj + h2
        do i = 1 - h2, ni + h2
          expected = -7
          if (global_index(i, i0, gni, .true.) > 0 .and. global_index(j, j0, gnj, .false.) > 0) &
            expected = f(global_index(i, i0, gni, .true.), global_index(j, j0, gnj, .false.), k)
          if (g2(i, j, k) /= expected) then
            bad = bad + 1
            if (bad <= 3) call check(.false., 'RPN_COMM_xch_halox: g2('//str(i)//','//str(j)//','//str(k)//') = '// &
                                     str(g2(i, j, k))//', expected '//str(expected))
          endif
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_xch_halox: '//str(bad)//' wrong points of g2')
  end subroutine halox

  subroutine pilot(pilx, pily, hx, hy)
    integer, intent(IN) :: pilx, pily, hx, hy
    integer, parameter :: nk = 2, extra = 1
    integer, allocatable :: g(:,:,:)
    integer :: i, j, k, gi, gj, bad, expected, minx, maxx, miny, maxy
    logical :: halo, zone, along
    character(len=60) :: what
    write(what, '(A,4(1X,I0))') 'pilot zones, halos', pilx, pily, hx, hy
    minx = 1 - hx - extra
    maxx = ni + hx + extra
    miny = 1 - hy - extra
    maxy = nj + hy + extra
    allocate(g(minx:maxx, miny:maxy, nk))
    call fill(g, minx, maxx, miny, maxy, nk)
    call RPN_COMM_propagate_pilot_circular(g, minx, maxx, miny, maxy, ni, nj, nk, pilx, pily, hx, hy)
    bad = 0
    do k = 1, nk
      do j = miny, maxy
        do i = minx, maxx
          expected = g(i, j, k)     ! overwritten below where the reference knows the value
          halo = i >= 1 - hx .and. i <= ni + hx .and. j >= 1 - hy .and. j <= nj + hy .and. &
                 (i < 1 .or. i > ni .or. j < 1 .or. j > nj)
          gi = i0 + i - 1
          gj = j0 + j - 1
          if (halo .and. gi >= 1 .and. gi <= gni .and. gj >= 1 .and. gj <= gnj) then
            zone = gi <= pilx .or. gi > gni - pilx .or. gj <= pily .or. gj > gnj - pily
            ! one column (row) of PEs: the halo rows (columns) along the part
            along = (pex == 1 .and. pey > 1 .and. i >= 1 .and. i <= ni) .or. &
                    (pey == 1 .and. pex > 1 .and. j >= 1 .and. j <= nj)
            if (pex > 1 .and. pey > 1) then
              expected = merge(f(gi, gj, k), untouched(i, j, k), zone)
            else if (along) then
              expected = f(gi, gj, k)
            else
              expected = untouched(i, j, k)
            endif
          else if (i < 1 .or. i > ni .or. j < 1 .or. j > nj) then
            expected = untouched(i, j, k)
          else
            expected = f(gi, gj, k)
          endif
          if (g(i, j, k) /= expected) then
            bad = bad + 1
            if (bad <= 3) call check(.false., trim(what)//': g('//str(i)//','//str(j)//','//str(k)//') = '// &
                                     str(g(i, j, k))//', expected '//str(expected))
          endif
        enddo
      enddo
    enddo
    call check(bad == 0, trim(what)//': '//str(bad)//' wrong points')
  end subroutine pilot

  ! The generic interface picks the element size from the array: 4-byte reals of rank 2 (one
  ! level), 8-byte integers of rank 3, 8-byte reals of rank 4 and a rank-3 section of them.
  subroutine generic()
    integer, parameter :: h = 2, nk = 2, ntr = 3
    integer, allocatable :: g4(:,:,:)
    real(kind=4), allocatable :: r4(:,:)
    integer(kind=8), allocatable :: i8(:,:,:)
    real(kind=8), allocatable :: tr(:,:,:,:), one(:,:,:,:)
    integer :: i, j, k, n, bad(4)
    allocate(g4(1 - h:ni + h, 1 - h:nj + h, nk))
    call fill(g4, 1 - h, ni + h, 1 - h, nj + h, nk)
    ! allocated first: an assignment to an unallocated array would give it bounds from 1
    allocate(r4(1 - h:ni + h, 1 - h:nj + h), i8(1 - h:ni + h, 1 - h:nj + h, nk))
    allocate(tr(1 - h:ni + h, 1 - h:nj + h, nk, ntr), one(1 - h:ni + h, 1 - h:nj + h, nk, 1))
    r4 = real(g4(:, :, 1), kind=4) / 8
    i8 = int(g4, kind=8) * 2_8**32 + 5
    do n = 1, ntr
      tr(:, :, :, n) = real(g4, kind=8) * n
    enddo
    one = tr(:, :, :, 1:1)
    call RPN_COMM_xch_halo(r4, 1 - h, ni + h, 1 - h, nj + h, ni, nj, 1, h, h, .true., .true., gni, 0)
    call RPN_COMM_xch_halo(i8, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., gni, 0)
    call RPN_COMM_xch_halo(one, 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., gni, 0)
    ! a model's tracers: the section, or the element that starts it (as the original's callers do)
    call RPN_COMM_xch_halo(tr(:, :, :, 2), 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., gni, 0)
    call RPN_COMM_xch_halo(tr(1 - h, 1 - h, 1, 3), 1 - h, ni + h, 1 - h, nj + h, ni, nj, nk, h, h, .true., .true., gni, 0)
    bad = 0
    do k = 1, nk
      do j = 1 - h, nj + h
        do i = 1 - h, ni + h
          if (k == 1 .and. r4(i, j) /= real(plain(i, j, 1, h, .true.), kind=4) / 8) bad(1) = bad(1) + 1
          if (i8(i, j, k) /= int(plain(i, j, k, h, .true.), kind=8) * 2_8**32 + 5) bad(2) = bad(2) + 1
          if (one(i, j, k, 1) /= real(plain(i, j, k, h, .true.), kind=8)) bad(3) = bad(3) + 1
          do n = 2, ntr
            if (tr(i, j, k, n) /= real(plain(i, j, k, h, .true.), kind=8) * n) bad(4) = bad(4) + 1
          enddo
        enddo
      enddo
    enddo
    call check(bad(1) == 0, 'generic, real*4 rank 2: '//str(bad(1))//' wrong points')
    call check(bad(2) == 0, 'generic, integer*8 rank 3: '//str(bad(2))//' wrong points')
    call check(bad(3) == 0, 'generic, real*8 rank 4: '//str(bad(3))//' wrong points')
    call check(bad(4) == 0, 'generic, real*8 tr(:,:,:,2) and tr(1-h,1-h,1,3): '//str(bad(4))//' wrong points')
  end subroutine generic

  include 'tutil.inc'
end program test_halo_family
