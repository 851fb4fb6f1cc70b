! PES: 1 2 4 6
! TIMEOUT: 120
!
! The original's halo variants, each against an independent reference of every point of the
! array. Every PE has a part of NI x NJ points; the value of a point is init(x, y, i, j, k) of
! the PE at (x, y) of the grid that holds it: its global value in the part, a value naming the
! PE and the point in the halos. Checked:
! - RPN_COMM_xch_haloew (rows 2..nj): the x halos of those rows from the west and east PEs
!   (wrapping with periodx), every other point unchanged;
! - RPN_COMM_xch_halons: the y halo rows, x halos included, from the north and south PEs as they
!   hold them (wrapping with periody), every other point unchanged;
! - RPN_COMM_haloflip: the halo rows beyond the poles get the rows next to the pole of the column
!   half a globe away, mirrored (one row of PEs: the north halo only); other rows unchanged;
! - RPN_COMM_xch_halosl: each PE of a row holds the whole row (tile x at columns x*nimax+1..),
!   wrapped with periodx;
! - the short entries xch_halo, adj_halo, adj_halo4, adj_halo8: the same array as the long forms
!   with gni = ni and npol_row = 0; RPN_COMM_xch_haloxn (n = 2) as RPN_COMM_xch_halon after the
!   copy of the part; RPN_COMM_adj_halox as RPN_COMM_adj_halo then the copy of the part;
! - RPN_COMM_propagate_boundary and _circular: on the PEs at the edge of the grid, the outer
!   corner boxes of the halo along the edge get the halo boxes beyond the edge of the neighbour
!   along it; every other point unchanged;
! - RPN_COMM_swapns: the words of the north and south PEs (each PE sends its own number of
!   them), counts included; 0 beyond a non-periodic edge; one row of PEs: its own words;
! - rpn_comm_get/set/inc_valid_halo: unknown arrays, set, inc (not below 0), forget, a full table.
! Grids: 1 x 1, 2 x 1, 2 x 2, 3 x 2.
program test_halo_variants
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer, parameter :: NI = 5, NJ = 4, NK = 2
  external :: RPN_COMM_xch_haloew, RPN_COMM_xch_halons, RPN_COMM_xch_halosl, RPN_COMM_xch_haloxn
  external :: RPN_COMM_adj_halox, xch_halo, adj_halo, adj_halo4, adj_halo8
  external :: RPN_COMM_propagate_boundary, RPN_COMM_propagate_boundary_circular, RPN_COMM_swapns
  integer :: p

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_halo_variants: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  call section('RPN_COMM_xch_haloew, RPN_COMM_xch_halons')
  do p = 0, 3
    call haloew(btest(p, 0))
    call halons(btest(p, 1), btest(p, 0))
  enddo
  call section('RPN_COMM_haloflip')
  call haloflip(1, 1)
  call haloflip(2, 2)
  call section('RPN_COMM_xch_halosl')
  call halosl(.true.)
  call halosl(.false.)
  call section('short entries, RPN_COMM_xch_haloxn, RPN_COMM_adj_halox')
  do p = 0, 3
    call entries(btest(p, 0), btest(p, 1))
  enddo
  call section('RPN_COMM_propagate_boundary, _circular')
  call boundary(.false.)
  call boundary(.true.)
  call section('RPN_COMM_swapns')
  call swapns(.false.)
  call swapns(.true.)
  call section('rpn_comm_get/set/inc_valid_halo')
  call valid_halos()
  call finish('test_halo_variants')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    select case (n)
    case (4)
      px = 2
      py = 2
    case (6)
      px = 3
      py = 2
    case default
      px = n
      py = 1
    end select
  end subroutine grid_shape

  ! what the PE at (x, y) holds at (i, j, k) before any call
  integer function init(x, y, i, j, k)
    integer, intent(IN) :: x, y, i, j, k
    if (i >= 1 .and. i <= NI .and. j >= 1 .and. j <= NJ) then
      init = k * 1000000 + (x * NI + i) * 1000 + (y * NJ + j)
    else
      init = -(((x * 10 + y) * 100 + (i + 10)) * 100 + (j + 10)) * 10 - k
    endif
  end function init

  ! the neighbour's coordinate d steps away on n PEs, or -1 beyond a non-periodic edge
  integer function step(c, d, n, periodic)
    integer, intent(IN) :: c, d, n
    logical, intent(IN) :: periodic
    step = c + d
    if (step < 0 .or. step >= n) then
      if (periodic) then
        step = modulo(step, n)
      else
        step = -1
      endif
    endif
  end function step

  subroutine fill(g, x0, y0)
    integer, intent(OUT) :: g(:,:,:)
    integer, intent(IN) :: x0, y0
    integer :: i, j, k
    do k = 1, size(g, 3)
      do j = 1, size(g, 2)
        do i = 1, size(g, 1)
          g(i, j, k) = init(mex, mey, i + x0 - 1, j + y0 - 1, k)
        enddo
      enddo
    enddo
  end subroutine fill

  subroutine haloew(px)
    logical, intent(IN) :: px
    integer, parameter :: hx = 2, hy = 1
    integer :: g(1 - hx:NI + hx + 1, 1 - hy:NJ + hy, NK), i, j, k, q, src, want
    call fill(g, 1 - hx, 1 - hy)
    call RPN_COMM_xch_haloew(g, 1 - hx, NI + hx + 1, 1 - hy, NJ + hy, NI, 2, NJ, NK, hx, hy, px, .false.)
    do k = 1, NK
      do j = 1 - hy, NJ + hy
        do i = 1 - hx, NI + hx + 1
          want = init(mex, mey, i, j, k)
          if (j >= 2 .and. j <= NJ .and. (i < 1 .or. (i > NI .and. i <= NI + hx))) then
            q = step(mex, merge(-1, 1, i < 1), pex, px)
            src = merge(i + NI, i - NI, i < 1)
            if (q >= 0) want = init(q, mey, src, j, k)
          endif
          call check(g(i, j, k) == want, 'RPN_COMM_xch_haloew: a point is as expected')
        enddo
      enddo
    enddo
  end subroutine haloew

  subroutine halons(py, px)
    logical, intent(IN) :: py, px
    integer, parameter :: hx = 2, hy = 2
    integer :: g(1 - hx:NI + hx, 1 - hy:NJ + hy + 1, NK), i, j, k, q, src, want
    call fill(g, 1 - hx, 1 - hy)
    call RPN_COMM_xch_halons(g, 1 - hx, NI + hx, 1 - hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py)
    do k = 1, NK
      do j = 1 - hy, NJ + hy + 1
        do i = 1 - hx, NI + hx
          want = init(mex, mey, i, j, k)
          if (j < 1 .or. (j > NJ .and. j <= NJ + hy)) then
            q = step(mey, merge(-1, 1, j < 1), pey, py)
            src = merge(j + NJ, j - NJ, j < 1)
            if (q >= 0) want = init(mex, q, i, src, k)
          endif
          call check(g(i, j, k) == want, 'RPN_COMM_xch_halons: a point is as expected')
        enddo
      enddo
    enddo
  end subroutine halons

  subroutine haloflip(hx, hy)
    integer, intent(IN) :: hx, hy
    integer :: g(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK), i, j, k, t, want, gni, col, start, shift
    logical :: north, south
    gni = NI * pex
    call fill(g, -hx, -hy)
    call RPN_COMM_haloflip(g, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, gni)
    north = mey == pey - 1
    south = mey == 0 .and. .not. north
    do k = 1, NK
      do j = -hy, NJ + hy + 1
        do i = -hx, NI + hx + 1
          want = init(mex, mey, i, j, k)
          t = 0
          if (north .and. j > NJ .and. j <= NJ + hy) t = NJ + 1 - (j - NJ)
          if (south .and. j < 1 .and. j >= 1 - hy) t = 1 - j
          if (t > 0) then
            ! the column half a globe away, wrapped as the original wraps it
            start = mex * NI - hx + gni / 2
            shift = merge(gni, 0, start > gni)
            col = mex * NI + i + gni / 2 - shift
            if (col > gni) col = col - gni
            if (col >= 1 .and. col <= gni) want = init((col - 1) / NI, mey, col - ((col - 1) / NI) * NI, t, k)
          endif
          call check(g(i, j, k) == want, 'RPN_COMM_haloflip: a point is as expected')
        enddo
      enddo
    enddo
  end subroutine haloflip

  subroutine halosl(px)
    logical, intent(IN) :: px
    integer, parameter :: hx = 2, hy = 1
    integer :: gni, nimax, i, j, k, c, want
    integer, allocatable :: g(:,:,:)
    gni = NI * pex
    nimax = NI
    allocate(g(1 - hx:gni + hx, 1 - hy:NJ + hy, NK))
    call fill(g, 1 - hx, 1 - hy)
    call RPN_COMM_xch_halosl(g, 1 - hx, gni + hx, 1 - hy, NJ + hy, NI, NJ, NK, hx, hy, px, .false., gni, 0, nimax)
    do k = 1, NK
      do j = 1 - hy, NJ + hy
        do i = 1 - hx, gni + hx
          c = i
          if (px .and. i < 1) c = i + gni
          if (px .and. i > gni) c = i - gni
          if (c >= 1 .and. c <= gni) then
            want = init((c - 1) / NI, mey, c - ((c - 1) / NI) * NI, j, k)
          else
            want = init(mex, mey, i, j, k)
          endif
          call check(g(i, j, k) == want, 'RPN_COMM_xch_halosl: a point is as expected')
        enddo
      enddo
    enddo
  end subroutine halosl

  subroutine entries(px, py)
    logical, intent(IN) :: px, py
    integer, parameter :: hx = 2, hy = 1
    integer :: a(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK), b(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK)
    real(4) :: r(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK), s(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK)
    real(8) :: d(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK), e(-hx:NI + hx + 1, -hy:NJ + hy + 1, NK)
    real(8) :: d1(0:NI + 1, 0:NJ + 1, NK), d2(-2:NI + 3, -2:NJ + 2, NK), e2(-2:NI + 3, -2:NJ + 2, NK)
    real(4) :: r1(0:NI + 1, 0:NJ + 1, NK), r2(-1:NI + 2, -2:NJ + 2, NK)
    real(4) :: s1(0:NI + 1, 0:NJ + 1, NK), s2(-1:NI + 2, -2:NJ + 2, NK)
    call fill(a, -hx, -hy)
    b = a
    call xch_halo(a, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py)
    call RPN_COMM_xch_halo(b, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py, NI, 0)
    call check(all(a == b), 'xch_halo: as RPN_COMM_xch_halo')
    call fill(a, -hx, -hy)
    r = real(a, 4) / 7
    s = r
    call adj_halo(r, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py)
    call adj_halo_long(s, -hx, NI + hx + 1, -hy, NJ + hy + 1, hx, hy, px, py)
    call check(all(transfer(r, [0]) == transfer(s, [0])), 'adj_halo: as RPN_COMM_adj_halo')
    r = real(a, 4) / 7
    s = r
    call adj_halo4(r, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py)
    call RPN_COMM_adj_halo4(s, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py, NI, 0)
    call check(all(transfer(r, [0]) == transfer(s, [0])), 'adj_halo4: as RPN_COMM_adj_halo4')
    if (px .or. py .or. npes > 1) call check(any(r /= real(a, 4) / 7), 'adj_halo4: the adjoint changed the array')
    d = real(a, 8) / 7
    e = d
    call adj_halo8(d, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py)
    call RPN_COMM_adj_halo8(e, -hx, NI + hx + 1, -hy, NJ + hy + 1, NI, NJ, NK, hx, hy, px, py, NI, 0)
    call check(all(transfer(d, [0_8]) == transfer(e, [0_8])), 'adj_halo8: as RPN_COMM_adj_halo8')
    ! xch_haloxn with n = 2: the part of d1 copied into d2, then d2 exchanged
    d1 = real(a(0:NI + 1, 0:NJ + 1, :), 8) / 3
    d2 = -1
    e2 = -1
    call RPN_COMM_xch_haloxn(d1, 0, NI + 1, 0, NJ + 1, NI, NJ, NK, 2, 2, px, py, d2, -2, NI + 3, -2, NJ + 2, NI, 0, 2)
    e2(1:NI, 1:NJ, :) = d1(1:NI, 1:NJ, :)
    call RPN_COMM_xch_halon(e2, -2, NI + 3, -2, NJ + 2, NI, NJ, NK, 2, 2, px, py, NI, 0, 2)
    call check(all(transfer(d2, [0_8]) == transfer(e2, [0_8])), 'RPN_COMM_xch_haloxn: the part copied, then exchanged')
    call check(all(d1 == real(a(0:NI + 1, 0:NJ + 1, :), 8) / 3), 'RPN_COMM_xch_haloxn: g unchanged')
    ! adj_halox: r2's adjoint, then its part copied into r1
    r1 = 5
    r2 = 0.5
    r2(:, -1:NJ + 2, :) = real(a(-1:NI + 2, -1:NJ + 2, :), 4) / 3
    s2 = r2
    s1 = r1
    call RPN_COMM_adj_halox(r1, 0, NI + 1, 0, NJ + 1, NI, NJ, NK, 1, 2, px, py, r2, -1, NI + 2, -2, NJ + 2, NI, 0)
    call adj_halo_long(s2, -1, NI + 2, -2, NJ + 2, 1, 2, px, py)
    s1(1:NI, 1:NJ, :) = s2(1:NI, 1:NJ, :)
    call check(all(transfer(r2, [0]) == transfer(s2, [0])), 'RPN_COMM_adj_halox: g2 as after RPN_COMM_adj_halo')
    call check(all(transfer(r1, [0]) == transfer(s1, [0])), 'RPN_COMM_adj_halox: the part of g2 copied into g, the rest unchanged')
  end subroutine entries

  ! RPN_COMM_adj_halo on an array of any bounds (one reference of the external)
  subroutine adj_halo_long(x, minx, maxx, miny, maxy, hx, hy, px, py)
    real(4), intent(INOUT) :: x(*)
    integer, intent(IN) :: minx, maxx, miny, maxy, hx, hy
    logical, intent(IN) :: px, py
    call RPN_COMM_adj_halo(x, minx, maxx, miny, maxy, NI, NJ, NK, hx, hy, px, py, NI, 0)
  end subroutine adj_halo_long

  subroutine boundary(circular)
    logical, intent(IN) :: circular
    integer, parameter :: hx = 2, hy = 1
    integer :: f(1 - hx:NI + hx, 1 - hy:NJ + hy, NK), i, j, k, want, q
    logical :: cx, cy
    call fill(f, 1 - hx, 1 - hy)
    if (circular) then
      call RPN_COMM_propagate_boundary_circular(f, 1 - hx, NI + hx, 1 - hy, NJ + hy, NI, NJ, NK, hx, hy)
    else
      call RPN_COMM_propagate_boundary(f, 1 - hx, NI + hx, 1 - hy, NJ + hy, NI, NJ, NK, hx, hy)
    endif
    do k = 1, NK
      do j = 1 - hy, NJ + hy
        do i = 1 - hx, NI + hx
          want = init(mex, mey, i, j, k)
          cx = i < 1 .or. i > NI
          cy = j < 1 .or. j > NJ
          if (cx .and. cy) then
            ! a corner box beyond the north (south) edge: from the west or east PE
            if ((j > NJ .and. mey == pey - 1) .or. (j < 1 .and. mey == 0)) then
              q = step(mex, merge(-1, 1, i < 1), pex, .false.)
              if (q >= 0) want = init(q, mey, merge(i + NI, i - NI, i < 1), j, k)
            endif
            ! beyond the west (east) edge: from the south or north PE
            if ((i < 1 .and. mex == 0) .or. (i > NI .and. mex == pex - 1)) then
              q = step(mey, merge(-1, 1, j < 1), pey, .false.)
              if (q >= 0) want = init(mex, q, i, merge(j + NJ, j - NJ, j < 1), k)
            endif
          endif
          call check(f(i, j, k) == want, 'RPN_COMM_propagate_boundary: a point is as expected')
        enddo
      enddo
    enddo
  end subroutine boundary

  subroutine swapns(py)
    logical, intent(IN) :: py
    integer :: wden(9), wdes(9), wdin(9), wdis(9), nwrn, nwrs, st, i, qn, qs, n
    do i = 1, 9
      wden(i) = mey * 100 + i
      wdes(i) = -(mey * 100 + i)
    enddo
    wdin = 0
    wdis = 0
    call RPN_COMM_swapns(3 + mey, wden, 5 + mey, wdes, 9, nwrn, wdin, 9, nwrs, wdis, py, st)
    call check(st == RPN_COMM_OK, 'RPN_COMM_swapns: status')
    if (pey == 1) then
      qn = mey
      qs = mey
    else
      qn = step(mey, 1, pey, py)
      qs = step(mey, -1, pey, py)
    endif
    ! the north PE's words to the south, the south PE's to the north
    n = merge(5 + qn, 0, qn >= 0)
    call check(nwrn == n, 'RPN_COMM_swapns: the count from the north')
    do i = 1, n
      call check(wdin(i) == -(qn * 100 + i), 'RPN_COMM_swapns: a word from the north')
    enddo
    n = merge(3 + qs, 0, qs >= 0)
    call check(nwrs == n, 'RPN_COMM_swapns: the count from the south')
    do i = 1, n
      call check(wdis(i) == qs * 100 + i, 'RPN_COMM_swapns: a word from the south')
    enddo
  end subroutine swapns

  subroutine valid_halos()
    integer, target :: a(4), b(4), many(300)
    integer :: hx, hy, hz, st, i
    integer, external :: rpn_comm_get_valid_halo, rpn_comm_set_valid_halo, rpn_comm_inc_valid_halo
    st = rpn_comm_get_valid_halo(a, hx, hy, hz)
    call check(st == -1 .and. hx == -1 .and. hy == -1 .and. hz == -1, 'get_valid_halo: an unknown array is -1')
    call check(rpn_comm_set_valid_halo(a, 3, 2, 1) == 0, 'set_valid_halo: a new array')
    call check(rpn_comm_set_valid_halo(b, 5, 6, 7) == 0, 'set_valid_halo: another one')
    st = rpn_comm_get_valid_halo(a, hx, hy, hz)
    call check(st == 0 .and. hx == 3 .and. hy == 2 .and. hz == 1, 'get_valid_halo: what was set')
    call check(rpn_comm_inc_valid_halo(a, 1, -5, 0) == 0, 'inc_valid_halo: a known array')
    st = rpn_comm_get_valid_halo(a, hx, hy, hz)
    call check(st == 0 .and. hx == 4 .and. hy == 0 .and. hz == 1, 'inc_valid_halo: added, not below 0')
    call check(rpn_comm_set_valid_halo(a, -1, 0, 0) == 0, 'set_valid_halo: a negative width forgets')
    st = rpn_comm_get_valid_halo(a, hx, hy, hz)
    call check(st == -1 .and. hx == -1, 'get_valid_halo: a forgotten array is unknown')
    call check(rpn_comm_inc_valid_halo(a, 1, 1, 1) == -1, 'inc_valid_halo: an unknown array is -1')
    st = rpn_comm_get_valid_halo(b, hx, hy, hz)
    call check(st == 0 .and. hx == 5 .and. hy == 6 .and. hz == 7, 'get_valid_halo: the other array kept')
    ! b and 255 more fill the table (256 arrays): the next is refused, a known one still set
    do i = 1, 255
      call check(rpn_comm_set_valid_halo(many(i), 1, 1, 1) == 0, 'set_valid_halo: room in the table')
    enddo
    call check(rpn_comm_set_valid_halo(many(256), 1, 1, 1) == -1, 'set_valid_halo: a full table refuses a new array')
    call check(rpn_comm_set_valid_halo(b, 2, 2, 2) == 0, 'set_valid_halo: a full table still sets a known array')
    do i = 1, 255
      st = rpn_comm_set_valid_halo(many(i), -1, -1, -1)
    enddo
  end subroutine valid_halos

  include 'tutil.inc'
end program test_halo_variants
