! PES: 1 2 3 4 6
! TIMEOUT: 120
!
! RPN_COMM_adj_halo8 (real*8), RPN_COMM_adj_halo4 and RPN_COMM_adj_halo (real*4): the adjoint of
! the halo exchange, with the original's arguments (as MIDAS calls it: 0:ni+1 x 0:nj+1, halo 1,
! periodic, gni = ni, npol_row = 0), each PE's array checked point by point, padding included,
! against two references computed here for the whole grid of PEs from every PE's initial values:
! - the original's algorithm run sequentially: north/south first (the halo rows, x halos
!   included, added into the neighbours' rows next to that edge), then east/west (the halo
!   columns, y halos included, into the neighbours' columns): every point of the array, halos
!   included, must be what it gives;
! - the definition of the adjoint: each point of a PE's part is its own value plus every copy of
!   it in any PE's halo (globally numbered, wrapped in a periodic direction, nothing beyond a
!   non-periodic edge).
! Periodic in neither, one or both directions; halos 1 x 1, 2 x 1, 1 x 2; uneven parts
! (RPN_COMM_limit); grids 1 x 1, 2 x 1, 3 x 1, 2 x 2, 3 x 2. Values are small integers (exact
! sums in real*4 and real*8).
program test_adj_halo
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer :: gni, gnj, ni, nj, lmax, i0, j0
  integer, allocatable :: cx(:), ox(:), cy(:), oy(:)
  integer, parameter :: NK = 2
  integer :: h, p
  integer, dimension(2, 3), parameter :: HALOS = reshape([1, 1, 2, 1, 1, 2], [2, 3])

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_adj_halo: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  call check(me == mex + mey * pex, 'PE numbering is x + y * pex')
  allocate(cx(pex), ox(pex), cy(pey), oy(pey))
  gni = 7 * pex - 1
  gnj = 6 * pey + 1
  status = RPN_COMM_limit(mex, pex, 1, gni, i0, lmax, cx, ox)
  status = RPN_COMM_limit(mey, pey, 1, gnj, j0, lmax, cy, oy)
  ni = cx(mex + 1)
  nj = cy(mey + 1)

  call section('RPN_COMM_adj_halo8')
  do h = 1, 3
    do p = 0, 3
      call case8(HALOS(1, h), HALOS(2, h), btest(p, 0), btest(p, 1))
    enddo
  enddo
  call section('RPN_COMM_adj_halo4 and RPN_COMM_adj_halo (real*4)')
  call case4(1, 1, .true., .true., .true.)
  call case4(2, 1, .false., .true., .true.)
  call case4(1, 2, .true., .false., .false.)
  call case4(1, 1, .false., .false., .false.)
  call finish('test_adj_halo')
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

  ! the value PE q holds at (i, j, k) of its array before the call (padding included)
  real(8) function initial(q, i, j, k)
    integer, intent(IN) :: q, i, j, k
    initial = real(mod(q * 131 + (i + 7) * 17 + (j + 7) * 7 + k * 3, 97) + 1, 8)
  end function initial

  ! the PE at (x + dx, y + dy) of the grid (wrapped where periodic), -1 beyond an edge
  integer function neighbour(x, y, dx, dy, px, py)
    integer, intent(IN) :: x, y, dx, dy
    logical, intent(IN) :: px, py
    integer :: a, b
    a = x + dx
    b = y + dy
    neighbour = -1
    if (a < 0 .or. a >= pex) then
      if (.not. px) return
      a = modulo(a, pex)
    endif
    if (b < 0 .or. b >= pey) then
      if (.not. py) return
      b = modulo(b, pey)
    endif
    neighbour = a + b * pex
  end function neighbour

  ! The original's two passes over every PE's array, sequentially: this PE's array afterwards
  ! (bounds -hx:ni+hx+1, -hy:nj+hy+1: one point of padding beyond the halos).
  subroutine two_passes(hx, hy, px, py, mine)
    integer, intent(IN) :: hx, hy
    logical, intent(IN) :: px, py
    real(8), dimension(-hx:, -hy:, :), intent(OUT) :: mine
    real(8), allocatable :: a(:,:,:,:), before(:,:,:,:)
    integer :: q, x, y, n, m, i, j, k, nq, mq, up, down, w, e
    allocate(a(-hx:maxval(cx) + hx + 1, -hy:maxval(cy) + hy + 1, NK, 0:npes - 1))
    a = 0
    do q = 0, npes - 1
      nq = cx(mod(q, pex) + 1)
      mq = cy(q / pex + 1)
      do k = 1, NK
        do j = -hy, mq + hy + 1
          do i = -hx, nq + hx + 1
            a(i, j, k, q) = initial(q, i, j, k)
          enddo
        enddo
      enddo
    enddo
    ! north/south: halo rows (x halos included) into the rows next to the edge
    before = a
    do q = 0, npes - 1
      x = mod(q, pex)
      y = q / pex
      nq = cx(x + 1)
      mq = cy(y + 1)
      up = neighbour(x, y, 0, 1, px, py)
      down = neighbour(x, y, 0, -1, px, py)
      do k = 1, NK
        do m = 1, hy
          do i = 1 - hx, nq + hx
            if (up >= 0) a(i, mq - hy + m, k, q) = a(i, mq - hy + m, k, q) + before(i, m - hy, k, up)
          enddo
        enddo
        do m = 1, hy
          do i = 1 - hx, nq + hx
            if (down >= 0) then
              n = cy(down / pex + 1)
              a(i, m, k, q) = a(i, m, k, q) + before(i, n + m, k, down)
            endif
          enddo
        enddo
      enddo
    enddo
    ! east/west: halo columns (y halos included) into the columns next to the edge
    before = a
    do q = 0, npes - 1
      x = mod(q, pex)
      y = q / pex
      nq = cx(x + 1)
      mq = cy(y + 1)
      w = neighbour(x, y, -1, 0, px, py)
      e = neighbour(x, y, 1, 0, px, py)
      do k = 1, NK
        do j = 1 - hy, mq + hy
          do m = 1, hx
            if (w >= 0) then
              n = cx(mod(w, pex) + 1)
              a(m, j, k, q) = a(m, j, k, q) + before(n + m, j, k, w)
            endif
          enddo
        enddo
        do j = 1 - hy, mq + hy
          do m = 1, hx
            if (e >= 0) a(nq - hx + m, j, k, q) = a(nq - hx + m, j, k, q) + before(m - hx, j, k, e)
          enddo
        enddo
      enddo
    enddo
    mine = a(-hx:ni + hx + 1, -hy:nj + hy + 1, :, me)
  end subroutine two_passes

  ! The global index (1..gn) of local index l of a part starting after global o, wrapped where
  ! periodic; 0 beyond a non-periodic edge.
  integer function global(l, o, gn, periodic)
    integer, intent(IN) :: l, o, gn
    logical, intent(IN) :: periodic
    global = o + l
    if (global < 1 .or. global > gn) then
      global = 0
      if (periodic) global = modulo(o + l - 1, gn) + 1
    endif
  end function global

  ! The definition: point (i, j, k) of this PE's part is its value plus every halo copy of it.
  real(8) function adjoint_of(hx, hy, px, py, i, j, k)
    integer, intent(IN) :: hx, hy, i, j, k
    logical, intent(IN) :: px, py
    integer :: q, x, y, a, b
    adjoint_of = initial(me, i, j, k)
    do q = 0, npes - 1
      x = mod(q, pex)
      y = q / pex
      do b = 1 - hy, cy(y + 1) + hy
        do a = 1 - hx, cx(x + 1) + hx
          if (a >= 1 .and. a <= cx(x + 1) .and. b >= 1 .and. b <= cy(y + 1)) cycle
          if (global(a, ox(x + 1), gni, px) == ox(mex + 1) + i .and. &
              global(b, oy(y + 1), gnj, py) == oy(mey + 1) + j) adjoint_of = adjoint_of + initial(q, a, b, k)
        enddo
      enddo
    enddo
  end function adjoint_of

  ! this PE's array after the call (`got`) against both references
  subroutine compare(hx, hy, px, py, got, what)
    integer, intent(IN) :: hx, hy
    logical, intent(IN) :: px, py
    real(8), dimension(-hx:, -hy:, :), intent(IN) :: got
    character(len=*), intent(IN) :: what
    real(8), dimension(-hx:ni + hx + 1, -hy:nj + hy + 1, NK) :: want
    integer :: i, j, k, bad
    character(len=96) :: tag
    write(tag, '(A,A,I0,A,I0,A,L1,A,L1)') what, ' halo ', hx, ' x ', hy, ', periodic ', px, '/', py
    call two_passes(hx, hy, px, py, want)
    bad = 0
    do k = 1, NK
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          if (got(i, j, k) /= want(i, j, k)) then
            bad = bad + 1
            if (bad <= 3) call check(.false., trim(tag)//': ('//str(i)//', '//str(j)//', '//str(k)//') = '// &
                                     strd(got(i, j, k))//', the original''s passes give '//strd(want(i, j, k)))
          endif
          if (i >= 1 .and. i <= ni .and. j >= 1 .and. j <= nj) then
            if (want(i, j, k) /= adjoint_of(hx, hy, px, py, i, j, k)) then
              bad = bad + 1
              if (bad <= 3) call check(.false., trim(tag)//': ('//str(i)//', '//str(j)//', '//str(k)// &
                                       ') is not its value plus its halo copies')
            endif
          endif
        enddo
      enddo
    enddo
    call check(bad == 0, trim(tag)//': '//str(bad)//' points differ')
  end subroutine compare

  subroutine case8(hx, hy, px, py)
    integer, intent(IN) :: hx, hy
    logical, intent(IN) :: px, py
    real(8), dimension(-hx:ni + hx + 1, -hy:nj + hy + 1, NK) :: g
    integer :: i, j, k
    do k = 1, NK
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          g(i, j, k) = initial(me, i, j, k)
        enddo
      enddo
    enddo
    ! gni is each PE's own ni, as MIDAS passes it (not used but by the original's polar path)
    call RPN_COMM_adj_halo8(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, NK, hx, hy, px, py, ni, 0)
    call compare(hx, hy, px, py, g, 'adj_halo8')
  end subroutine case8

  ! real*4: RPN_COMM_adj_halo4, or RPN_COMM_adj_halo (the original's entry of the same sums)
  subroutine case4(hx, hy, px, py, four)
    integer, intent(IN) :: hx, hy
    logical, intent(IN) :: px, py, four
    real(4), dimension(-hx:ni + hx + 1, -hy:nj + hy + 1, NK) :: g
    integer :: i, j, k
    do k = 1, NK
      do j = -hy, nj + hy + 1
        do i = -hx, ni + hx + 1
          g(i, j, k) = real(initial(me, i, j, k), 4)
        enddo
      enddo
    enddo
    if (four) then
      call RPN_COMM_adj_halo4(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, NK, hx, hy, px, py, gni, 0)
      call compare(hx, hy, px, py, real(g, 8), 'adj_halo4')
    else
      call RPN_COMM_adj_halo(g, -hx, ni + hx + 1, -hy, nj + hy + 1, ni, nj, NK, hx, hy, px, py, gni, 0)
      call compare(hx, hy, px, py, real(g, 8), 'adj_halo')
    endif
  end subroutine case4

  include 'tutil.inc'
end program test_adj_halo
