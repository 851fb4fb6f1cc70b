! PES: 1 2 4 6
! TIMEOUT: 120
! OUTPUT_HAS@1: test_distributions: all checks passed
! OUTPUT_HAS@2: test_distributions: all checks passed
! OUTPUT_HAS@4: test_distributions: all checks passed
! OUTPUT_HAS@6: test_distributions: all checks passed
!
! The original's older distributions on both transports, on a pex x pey grid (1x1, 2x1, 2x2, 3x2),
! against values computed from global indices alone, with fields that do not divide evenly:
! - RPN_COMM_fast_dist: each PE's tile with halos of 1, none beyond a non-periodic edge (left
!   untouched), periodic along x and along y with the halo taken from garr's own halo (filled
!   with values of their own, not the wrapped field), 2 levels; refused (status -1 on every PE)
!   when periodic with a global halo narrower than the local one;
! - RPN_COMM_dist2 / RPN_COMM_coll2: a field cut and gathered back (dt1, dt2 ignored);
! - RPN_COMM_move: every PE sends its rank north, south, east and west: periodic, each receives
!   its neighbour's; not periodic, the edge PEs receive nothing (buffer untouched), ierr 0;
!   a destination other than N, S, E, W refused (ierr -1);
! - RPN_COMM_gather_e1y3, e1x3, e2y3, e2x3: the edges of three arrays of every PE of the column
!   or row, in rank order, the padding zero;
! - RPN_COMM_io_dist_coll_check: .true. for a field that fits, .false. for one whose last tile
!   is shorter than the halo (x on a grid 2 or more wide, y 2 or more high);
! - RPN_COMM_shuf_dist / RPN_COMM_shuf_coll on the tables of a 2D grid descriptor: the same
!   levels, liste_o and planes as RPN_COMM_shuf_ezdist / _ezcoll on the descriptor itself, and a
!   periodic shuf_dist refused; RPN_COMM_shuf_ezdist_h from a global array with the local halo:
!   every PE's tile, its inner halos and, at the field's edges, the global array's halo;
! - RPN_COMM_grid_redist / _grid_redist_n (2 words a point): a window of 5 levels reassembled on
!   1 or 2 output columns and rows, the levels dealt as the original deals them, zlist -1 and zout
!   untouched elsewhere; too many levels for nz refused (-1).
program test_distributions
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, mex, mey, ierr, status, nerr
  logical, external :: RPN_COMM_io_dist_coll_check
  integer, parameter :: SENT = -77
  integer :: xy(2, 0:63)
  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  ! every PE's coordinates, in rank order
  xy = -1
  call RPN_COMM_allgather([mex, mey], 2, 'MPI_INTEGER', xy, 2, 'MPI_INTEGER', 'GRID', ierr)

  call fast_case(11, 7, 2, .false., .false.)
  call fast_case(11, 7, 2, .true., .false.)
  call fast_case(13, 9, 1, .false., .true.)
  call fast_refused()
  call dist2_coll2(10, 7)
  call move_case(.true.)
  call move_case(.false.)
  call gathers(3, 4, 2, 1)
  call gathers(2, 3, 1, 2)
  call shuf_case(11, 7, 1, 5, 3)
  call shuf_case(9, 8, 2, 4, 2)
  call redist_case(1)
  call redist_case(2)
  call check(RPN_COMM_io_dist_coll_check(10, 7, 1, 1), 'io_dist_coll_check of a field that fits')
  if (pex > 1) call check(.not. RPN_COMM_io_dist_coll_check(2 * pex - 1, 7, 2, 1), 'io_dist_coll_check short along x')
  if (pey > 1) call check(.not. RPN_COMM_io_dist_coll_check(10, 2 * pey - 1, 1, 2), 'io_dist_coll_check short along y')

  call RPN_COMM_allreduce(nerr, status, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (me == 0) then
    if (status /= 0) then
      write(*, '(A,I0,A)') 'test_distributions: FAILED (', status, ' errors)'
    else
      write(*, '(A)') 'test_distributions: all checks passed'
    endif
  endif
  call RPN_COMM_finalize(ierr)
  if (status /= 0) stop 1
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    call RPN_COMM_size('GRID', n, ierr)
    px = n
    py = 1
    if (n == 4) px = 2
    if (n == 4) py = 2
    if (n == 6) px = 3
    if (n == 6) py = 2
  end subroutine grid_shape

  subroutine check(ok, what)
    logical, intent(IN) :: ok
    character(len=*), intent(IN) :: what
    if (.not. ok) then
      nerr = nerr + 1
      if (nerr < 20) write(*, '(A,I0,A,A)') 'test_distributions: PE ', me, ' FAILED ', what
    endif
  end subroutine check

  ! the field inside 1..n, and garr's halo with values of its own (negative)
  integer function f(i, j, k, ni, nj)
    integer, intent(IN) :: i, j, k, ni, nj
    f = (k * 1000 + j + 100) * 1000 + i + 100
    if (i < 1 .or. i > ni .or. j < 1 .or. j > nj) f = -f
  end function f

  integer function tile(n, np, p)
    integer, intent(IN) :: n, np, p
    tile = (n + np - 1) / np
    if (p == np - 1) tile = n - (np - 1) * tile
  end function tile

  subroutine fast_case(nig, njg, nk, periodx, periody)
    integer, intent(IN) :: nig, njg, nk
    logical, intent(IN) :: periodx, periody
    integer, allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, k, lo, hi, bad, i0, j0
    logical :: inside
    integer, parameter :: h = 1
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    i0 = mex * ((nig + pex - 1) / pex)
    j0 = mey * ((njg + pey - 1) / pey)
    if (me == 0) then
      allocate(garr(1-h:nig+h, 1-h:njg+h, nk))
      do k = 1, nk
        do j = 1-h, njg+h
          do i = 1-h, nig+h
            garr(i, j, k) = f(i, j, k, nig, njg)
          enddo
        enddo
      enddo
    else
      allocate(garr(1, 1, 1))
      garr = SENT
    endif
    allocate(larr(1-h:ni+h, 1-h:nj+h, nk))
    larr = SENT
    call RPN_COMM_fast_dist(garr, 1-h, nig+h, 1-h, njg+h, nig, njg, nk, h, h, 1, &
                            larr, 1-h, ni+h, 1-h, nj+h, h, h, periodx, periody, status)
    call check(status == 0, 'RPN_COMM_fast_dist status')
    bad = 0
    do k = 1, nk
      do j = 1-h, nj+h
        do i = 1-h, ni+h
          lo = 1 - h
          hi = ni + h
          if (.not. periodx .and. mex == 0) lo = 1
          if (.not. periodx .and. mex == pex - 1) hi = ni
          inside = i >= lo .and. i <= hi
          lo = 1 - h
          hi = nj + h
          if (.not. periody .and. mey == 0) lo = 1
          if (.not. periody .and. mey == pey - 1) hi = nj
          inside = inside .and. j >= lo .and. j <= hi
          if (inside) then
            if (larr(i, j, k) /= f(i0 + i, j0 + j, k, nig, njg)) bad = bad + 1
          else
            if (larr(i, j, k) /= SENT) bad = bad + 1
          endif
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_fast_dist values')
  end subroutine fast_case

  ! periodic along x with a global halo of 0 and a local one of 1: refused everywhere
  subroutine fast_refused()
    integer :: garr(6, 4, 1), larr(0:7, 0:5, 1)
    garr = 1
    larr = SENT
    call RPN_COMM_fast_dist(garr, 1, 6, 1, 4, 6, 4, 1, 0, 0, 1, larr, 0, 7, 0, 5, 1, 1, .true., .false., status)
    call check(status == RPN_COMM_ERROR, 'RPN_COMM_fast_dist refuses a periodic axis without global halo')
    call check(all(larr == SENT), 'RPN_COMM_fast_dist refused moves nothing')
  end subroutine fast_refused

  subroutine dist2_coll2(nig, njg)
    integer, intent(IN) :: nig, njg
    integer :: garr(nig, njg, 1), back(nig, njg, 1), larr(0:nig + 1, 0:njg + 1, 1)
    integer :: ni, nj, i, j, i0, j0, bad
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    i0 = mex * ((nig + pex - 1) / pex)
    j0 = mey * ((njg + pey - 1) / pey)
    do j = 1, njg
      do i = 1, nig
        garr(i, j, 1) = f(i, j, 1, nig, njg)
      enddo
    enddo
    larr = SENT
    call RPN_COMM_dist2(garr, 1, nig, 1, njg, nig, njg, 1, 0, 0, 1, larr, 0, nig + 1, 0, njg + 1, 1, 1, &
                        .false., .false., status, nig + 2, njg + 2)
    call check(status == 0, 'RPN_COMM_dist2 status')
    bad = 0
    do j = 1, nj
      do i = 1, ni
        if (larr(i, j, 1) /= f(i0 + i, j0 + j, 1, nig, njg)) bad = bad + 1
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_dist2 values')
    back = SENT
    call RPN_COMM_coll2(back, 1, nig, 1, njg, nig, njg, 1, 0, 0, 1, larr, 0, nig + 1, 0, njg + 1, 1, 1, &
                        status, nig + 2, njg + 2)
    call check(status == 0, 'RPN_COMM_coll2 status')
    if (me == 0) call check(all(back == garr), 'RPN_COMM_coll2 values')
  end subroutine dist2_coll2

  ! the grid rank of (x, y), wrapped
  integer function rank_at(x, y)
    integer, intent(IN) :: x, y
    integer :: p
    rank_at = -1
    do p = 0, pex * pey - 1
      if (xy(1, p) == modulo(x, pex) .and. xy(2, p) == modulo(y, pey)) rank_at = p
    enddo
  end function rank_at

  subroutine move_case(periodic)
    logical, intent(IN) :: periodic
    character(len=1), dimension(4) :: dirs = ['N', 's', 'E', 'w']
    integer, dimension(4) :: dx = [0, 0, 1, -1], dy = [1, -1, 0, 0]
    integer :: d, sendbuf(3), recvbuf(3), fx, fy
    logical :: edge
    do d = 1, 4
      sendbuf = [me, me * 10, me * 100]
      recvbuf = SENT
      call RPN_COMM_move(sendbuf, 3, 'MPI_INTEGER', dirs(d), recvbuf, 3, periodic, ierr)
      call check(ierr == 0, 'RPN_COMM_move ierr '//dirs(d))
      fx = mex - dx(d)
      fy = mey - dy(d)
      edge = fx < 0 .or. fx >= pex .or. fy < 0 .or. fy >= pey
      if (periodic .or. .not. edge) then
        call check(recvbuf(1) == rank_at(fx, fy) .and. recvbuf(3) == 100 * rank_at(fx, fy), &
                   'RPN_COMM_move receives the neighbour '//dirs(d))
      else
        call check(all(recvbuf == SENT), 'RPN_COMM_move at an edge receives nothing '//dirs(d))
      endif
    enddo
    call RPN_COMM_move(sendbuf, 3, 'MPI_INTEGER', 'X', recvbuf, 3, periodic, ierr)
    call check(ierr == RPN_COMM_ERROR, 'RPN_COMM_move refuses a destination X')
  end subroutine move_case

  ! edges of a(size, 0:n1+1, 0:n2+1, n3) = value of (PE, array, i, j, k, word)
  real function e(p, a, i, j, k, w)
    integer, intent(IN) :: p, a, i, j, k, w
    e = real(((((p * 4 + a) * 16 + i) * 16 + j) * 8 + k) * 4 + w)
  end function e

  subroutine gathers(n1, n2, n3, size)
    integer, intent(IN) :: n1, n2, n3, size
    real, allocatable :: src(:,:,:,:,:), dest(:)
    integer :: a, i, j, k, w, across, m, n, np, p, q, bad, along, rank_of_q, pos, edge, via
    character(len=4) :: what
    allocate(src(size, 0:n1+1, 0:n2+1, n3, 3))
    do a = 1, 3
      do k = 1, n3
        do j = 0, n2 + 1
          do i = 0, n1 + 1
            do w = 1, size
              src(w, i, j, k, a) = e(me, a, i, j, k, w)
            enddo
          enddo
        enddo
      enddo
    enddo
    do via = 1, 4
      across = merge(1, 2, via <= 2)
      along = merge(2, 1, via == 1 .or. via == 3)   ! 2: the column (y3), 1: the row (x3)
      n = merge(n2, n1, across == 1)
      m = 2 * ((n * n3) / 2) + 1
      np = merge(pey, pex, along == 2)
      allocate(dest(size * m * 6 * np))
      dest = SENT
      select case (via)
      case (1)
        what = 'e1y3'
        call RPN_COMM_gather_e1y3(src(1,0,0,1,1), src(1,0,0,1,2), src(1,0,0,1,3), 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      case (2)
        what = 'e1x3'
        call RPN_COMM_gather_e1x3(src(1,0,0,1,1), src(1,0,0,1,2), src(1,0,0,1,3), 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      case (3)
        what = 'e2y3'
        call RPN_COMM_gather_e2y3(src(1,0,0,1,1), src(1,0,0,1,2), src(1,0,0,1,3), 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      case default
        what = 'e2x3'
        call RPN_COMM_gather_e2x3(src(1,0,0,1,1), src(1,0,0,1,2), src(1,0,0,1,3), 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      end select
      bad = 0
      do q = 0, np - 1
        ! the PE of rank q in the column or row
        if (along == 2) then
          rank_of_q = rank_at(mex, q)
        else
          rank_of_q = rank_at(q, mey)
        endif
        do edge = 1, 6
          a = mod(edge - 1, 3) + 1
          do p = 1, m
            do w = 1, size
              pos = w + size * ((p - 1) + m * ((edge - 1) + 6 * q))
              if (p > n * n3) then
                if (dest(pos) /= 0.0) bad = bad + 1
                cycle
              endif
              k = mod(p - 1, n3) + 1
              if (across == 1) then
                i = merge(1, n1, edge <= 3)
                j = (p - 1) / n3 + 1
              else
                j = merge(1, n2, edge <= 3)
                i = (p - 1) / n3 + 1
              endif
              if (dest(pos) /= e(rank_of_q, a, i, j, k, w)) bad = bad + 1
            enddo
          enddo
        enddo
      enddo
      call check(bad == 0, 'RPN_COMM_gather_'//what//' values')
      deallocate(dest)
    enddo
  end subroutine gathers

  subroutine shuf_case(gni, gnj, h, lnk, dnk)
    integer, intent(IN) :: gni, gnj, h, lnk, dnk
    integer :: grid_id, setno, me_io, n_io, ni, nj, mini, maxi, minj, maxj, i, j, k, l, bad, e
    integer :: ilo, ihi, jlo, jhi, hy, dnkc, st2, g1, g2
    integer :: sx(pex), cx(pex), sy(pey), cy(pey), d(6)
    integer, allocatable :: global(:,:,:), globalh(:,:,:), la(:,:,:), lb(:,:,:), liste_i(:), ca(:), cb(:)
    integer, allocatable :: ga(:,:,:), gb(:,:,:)
    logical, allocatable :: oa(:), ob(:)
    integer, external :: RPN_COMM_shuf_ezdist_h
    ni = (gni + pex - 1) / pex
    nj = (gnj + pey - 1) / pey
    mini = 1 - h
    maxi = ni + h
    minj = 1 - h
    maxj = nj + h
    grid_id = rpn_comm_create_2dgrid(gni, gnj, mini, maxi, minj, maxj)
    status = rpn_comm_get_2dgrid(grid_id, pex, pey, d(1), d(2), d(3), d(4), d(5), d(6), sx, cx, sy, cy)
    call check(status == 0, 'get_2dgrid')
    setno = RPN_COMM_create_io_set(min(pex, pey) + 1, 0)
    if (setno <= 0) setno = RPN_COMM_create_io_set(min(pex, pey), 0)
    me_io = RPN_COMM_is_io_pe(setno)
    n_io = RPN_COMM_io_pe_size(setno)
    allocate(global(gni, gnj, dnk), globalh(1-h:gni+h, 1-h:gnj+h, dnk), liste_i(dnk))
    allocate(la(mini:maxi, minj:maxj, lnk), lb(mini:maxi, minj:maxj, lnk), oa(lnk), ob(lnk))
    liste_i = 0
    global = SENT
    globalh = SENT
    if (me_io >= 0) then
      do k = 1, dnk
        liste_i(k) = 1 + me_io + (k - 1) * n_io
        if (liste_i(k) > lnk) liste_i(k) = 0
        do j = 1 - h, gnj + h
          do i = 1 - h, gni + h
            globalh(i, j, k) = f(i, j, liste_i(k), 0, 0)
          enddo
        enddo
        global(:, :, k) = globalh(1:gni, 1:gnj, k)
      enddo
    endif
    la = SENT
    lb = SENT
    oa = .false.
    ob = .false.
    status = RPN_COMM_shuf_ezdist(setno, grid_id, global, dnk, la, lnk, liste_i, oa)
    call RPN_COMM_shuf_dist(setno, global, gni, gnj, dnk, lb, mini, maxi, minj, maxj, lnk, liste_i, ob, &
                            sx, cx, pex, sy, cy, pey, .false., .false., st2)
    call check(status == 0 .and. st2 == 0, 'RPN_COMM_shuf_dist status')
    call check(all(oa .eqv. ob) .and. any(ob), 'RPN_COMM_shuf_dist liste_o')
    call check(all(la == lb), 'RPN_COMM_shuf_dist values')
    call RPN_COMM_shuf_dist(setno, global, gni, gnj, dnk, lb, mini, maxi, minj, maxj, lnk, liste_i, ob, &
                            sx, cx, pex, sy, cy, pey, .true., .false., st2)
    call check(st2 == RPN_COMM_ERROR, 'RPN_COMM_shuf_dist refuses a periodic distribution')

    ! with the halo in the global array
    lb = SENT
    ob = .false.
    status = RPN_COMM_shuf_ezdist_h(setno, grid_id, globalh, dnk, lb, lnk, liste_i, ob)
    call check(status == 0, 'RPN_COMM_shuf_ezdist_h status')
    call check(all(oa .eqv. ob), 'RPN_COMM_shuf_ezdist_h liste_o')
    ni = tile(gni, pex, mex)
    nj = tile(gnj, pey, mey)
    hy = h
    if (pey == 1) hy = 0
    ilo = mini
    ihi = maxi
    if (mex == pex - 1) ihi = ni + h
    jlo = 1 - hy
    jhi = nj + hy
    bad = 0
    do l = 1, lnk
      do j = minj, maxj
        do i = mini, maxi
          g1 = sx(mex + 1) + i - 1
          g2 = sy(mey + 1) + j - 1
          if (.not. ob(l)) then
            e = SENT
          else if (i >= ilo .and. i <= ihi .and. j >= jlo .and. j <= jhi) then
            e = f(g1, g2, l, 0, 0)
          else
            e = 0
          endif
          if (lb(i, j, l) /= e) bad = bad + 1
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_shuf_ezdist_h values')

    ! and back, both ways
    do l = 1, lnk
      do j = minj, maxj
        do i = mini, maxi
          la(i, j, l) = f(sx(mex + 1) + i - 1, sy(mey + 1) + j - 1, l, 0, 0)
        enddo
      enddo
    enddo
    dnkc = (lnk + n_io - 1) / n_io
    allocate(ga(gni, gnj, dnkc), gb(gni, gnj, dnkc), ca(dnkc), cb(dnkc))
    ga = SENT
    gb = SENT
    ca = -5
    cb = -5
    status = RPN_COMM_shuf_ezcoll(setno, grid_id, ga, dnkc, la, lnk, ca)
    call RPN_COMM_shuf_coll(setno, gb, gni, gnj, dnkc, la, mini, maxi, minj, maxj, lnk, cb, sx, cx, pex, sy, cy, pey, st2)
    call check(status == 0 .and. st2 == 0, 'RPN_COMM_shuf_coll status')
    call check(all(ca == cb) .and. all(ga == gb), 'RPN_COMM_shuf_coll values')
    if (me_io >= 0) call check(ca(1) == me_io + 1 .and. gb(2, 1, 1) == f(2, 1, me_io + 1, 0, 0), 'RPN_COMM_shuf_coll first level')
    status = RPN_COMM_free_io_set(setno)
  end subroutine shuf_case

  subroutine redist_case(ltok)
    integer, intent(IN) :: ltok
    integer, parameter :: gni = 11, gnj = 7, nk = 5, ix0 = 2, ixn = 10, jy0 = 2, jyn = 6
    integer :: ni, nj, offx, offy, i0, in, j0, jn, i, j, k, w, nox, noy, nz, l, r, kk, base, bad, st
    integer :: ox(2), oy(2), percol(2)
    integer, allocatable :: zin(:,:,:,:), zout(:,:,:,:), zlist(:), expect(:)
    integer, external :: RPN_COMM_grid_redist, RPN_COMM_grid_redist_n
    ni = tile(gni, pex, mex)
    nj = tile(gnj, pey, mey)
    offx = mex * ((gni + pex - 1) / pex)
    offy = mey * ((gnj + pey - 1) / pey)
    nox = min(pex, 2)
    noy = min(pey, 2)
    ox = [0, pex - 1]
    oy = [0, pey - 1]
    nz = ((nk + nox - 1) / nox + noy - 1) / noy
    allocate(zin(ltok, 0:ni+1, 0:nj+1, nk), zout(ltok, ix0:ixn, jy0:jyn, nz), zlist(nz), expect(nz))
    do k = 1, nk
      do j = 0, nj + 1
        do i = 0, ni + 1
          do w = 1, ltok
            zin(w, i, j, k) = (w * 100 + k) * 10000 + (offy + j) * 100 + offx + i
          enddo
        enddo
      enddo
    enddo
    i0 = max(ix0, 1 + offx) - offx
    in = min(ixn, offx + ni) - offx
    j0 = max(jy0, 1 + offy) - offy
    jn = min(jyn, offy + nj) - offy
    zout = SENT
    zlist = 77
    if (ltok == 1) then
      st = RPN_COMM_grid_redist(zin, 0, ni+1, i0, in, 0, nj+1, j0, jn, nk, zout, ix0, ixn, jy0, jyn, nz, zlist, &
                                gni, gnj, ox, nox, oy, noy, ltok)
    else
      st = RPN_COMM_grid_redist_n(zin, 0, ni+1, i0, in, 0, nj+1, j0, jn, nk, zout, ix0, ixn, jy0, jyn, nz, zlist, &
                                  gni, gnj, ox, nox, oy, noy, ltok)
    endif
    call check(st == 1, 'RPN_COMM_grid_redist result')
    ! the levels this PE should hold: dealt to the columns, then each column's to its rows
    expect = -1
    percol = 0
    do k = 1, nk
      percol(mod(k - 1, nox) + 1) = percol(mod(k - 1, nox) + 1) + 1
    enddo
    base = 0
    do l = 1, nox
      do kk = 1, percol(l)
        r = mod(kk - 1, noy) + 1
        if (mex == ox(l) .and. mey == oy(r)) expect(1 + (kk - 1) / noy) = base + kk
      enddo
      base = base + percol(l)
    enddo
    call check(all(zlist == expect), 'RPN_COMM_grid_redist zlist')
    bad = 0
    do k = 1, nz
      do j = jy0, jyn
        do i = ix0, ixn
          do w = 1, ltok
            if (expect(k) > 0) then
              if (zout(w, i, j, k) /= (w * 100 + expect(k)) * 10000 + j * 100 + i) bad = bad + 1
            else
              if (zout(w, i, j, k) /= SENT) bad = bad + 1
            endif
          enddo
        enddo
      enddo
    enddo
    call check(bad == 0, 'RPN_COMM_grid_redist values')
    ! more levels than nz planes of the output PEs hold
    st = RPN_COMM_grid_redist(zin, 0, ni+1, i0, in, 0, nj+1, j0, jn, nk, zout, ix0, ixn, jy0, jyn, 1, zlist, &
                              gni, gnj, ox, 1, oy, 1, 1)
    call check(st == -1 .and. zlist(1) == -1, 'RPN_COMM_grid_redist refuses nk > nz * outputs')
  end subroutine redist_case
end program test_distributions
