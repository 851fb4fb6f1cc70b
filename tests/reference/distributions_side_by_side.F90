! distributions_side_by_side.F90 -- the original's older distributions, built against the original
! RPN_COMM and against this library by side_by_side.sh, which compares what they print: each PE's
! statuses and points (as bits) of RPN_COMM_fast_dist (halos of 1, non-periodic and periodic along
! x and y; one level, and without the rows beyond a non-periodic edge along y, where 4.6.3 writes
! its scratch values), a refused fast_dist, RPN_COMM_dist2 / RPN_COMM_coll2 (dt1, dt2 as the
! original's RPN_COMM_dist passes them; coll2's result on more than one PE), RPN_COMM_move on a periodic grid in the four directions
! (4.6.3's receive at the edge of a non-periodic grid passes integers for its strings),
! RPN_COMM_gather_e1y3, _e1x3, _e2y3, _e2x3 (the values, not the padding, which 4.6.3 leaves
! unset), RPN_COMM_io_dist_coll_check, and RPN_COMM_shuf_dist / RPN_COMM_shuf_coll over an I/O PE
! set on the tables of a 2D grid descriptor (RPN_COMM_shuf_ezdist_h is left out: 4.6.3 reads its
! global array as if it had no halo), RPN_COMM_grid_redist (a window of 5 levels on 1 or 2 output
! columns and rows) and _grid_redist_n (2 words a point, tiles of equal width, where 4.6.3's cut
! of words is the cut of points).
program distributions_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, mex, mey, status, ierr, set
  logical, external :: RPN_COMM_io_dist_coll_check
  logical :: fits(4)
  external :: distributions_side_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(distributions_side_grid, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  call fast(13, 7, .false., .false.)
  call fast(13, 7, .true., .false.)
  call fast(11, 9, .false., .true.)
  call fast(11, 9, .true., .true.)
  call fast_refused()
  call dist2_coll2(10, 7, 1)
  call dist2_coll2(9, 8, 0)
  call move('N')
  call move('s')
  call move('E')
  call move('w')
  call gathers(3, 4, 2, 1)
  call gathers(2, 3, 1, 2)
  call gathers(4, 2, 3, 3)
  ! (each in a variable: the check prints, which a write statement calling it cannot)
  fits(1) = RPN_COMM_io_dist_coll_check(10, 7, 1, 1)
  fits(2) = RPN_COMM_io_dist_coll_check(2 * pex - 1, 7, 2, 1)
  fits(3) = RPN_COMM_io_dist_coll_check(10, 2 * pey - 1, 1, 2)
  fits(4) = RPN_COMM_io_dist_coll_check(4, 4, 0, 0)
  write(*, '(A,I0,A,4L2)') 'pe ', me, ' io_dist_coll_check ', fits
  ! one I/O PE set for both (4.6.3 hangs in a second RPN_COMM_free_io_set)
  set = RPN_COMM_create_io_set(2, 0)
  if (set <= 0) set = RPN_COMM_create_io_set(1, 0)
  call shufs(11, 7, 1, 5, 3)
  call shufs(9, 8, 2, 4, 2)
  call redist(11, 1)
  call redist(12, 2)
  call RPN_COMM_barrier('GRID', ierr)
  call RPN_COMM_finalize(ierr)
contains
  integer function tile(n, np, p)
    integer, intent(IN) :: n, np, p
    tile = (n + np - 1) / np
    if (p == np - 1) tile = n - (np - 1) * tile
  end function tile

  subroutine fast(nig, njg, periodx, periody)
    integer, intent(IN) :: nig, njg
    logical, intent(IN) :: periodx, periody
    integer, allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, jlo, jhi
    ni = tile(nig, pex, mex)
    nj = tile(njg, pey, mey)
    if (me == 0) then
      allocate(garr(0:nig+1, 0:njg+1, 1))
      do j = 0, njg + 1
        do i = 0, nig + 1
          garr(i, j, 1) = j * 1000 + i
          if (i < 1 .or. i > nig .or. j < 1 .or. j > njg) garr(i, j, 1) = -garr(i, j, 1)
        enddo
      enddo
    else
      allocate(garr(1, 1, 1))
      garr = -5
    endif
    allocate(larr(0:ni+1, 0:nj+1, 1))
    larr = -7
    call RPN_COMM_fast_dist(garr, 0, nig+1, 0, njg+1, nig, njg, 1, 1, 1, 1, &
                            larr, 0, ni+1, 0, nj+1, 1, 1, periodx, periody, status)
    jlo = 0
    jhi = nj + 1
    if (.not. periody .and. mey == 0) jlo = 1
    if (.not. periody .and. mey == pey - 1) jhi = nj
    write(*, '(A,I0,A,2L2,A,I0)') 'pe ', me, ' fast_dist ', periodx, periody, ' status ', status
    do j = jlo, jhi
      write(*, '(A,I0,A,2L2,A,I3,A,40I7)') 'pe ', me, ' fast_dist ', periodx, periody, ' row ', j, ':', larr(:, j, 1)
    enddo
  end subroutine fast

  subroutine fast_refused()
    integer :: garr(6, 4, 1), larr(0:7, 0:5, 1)
    garr = 1
    larr = -7
    call RPN_COMM_fast_dist(garr, 1, 6, 1, 4, 6, 4, 1, 0, 0, 1, larr, 0, 7, 0, 5, 1, 1, .true., .false., status)
    write(*, '(A,I0,A,I0,A,L2)') 'pe ', me, ' fast_dist refused ', status, ' untouched ', all(larr == -7)
  end subroutine fast_refused

  subroutine dist2_coll2(nig, njg, h)
    integer, intent(IN) :: nig, njg, h
    integer :: garr(1-h:nig+h, 1-h:njg+h, 2), back(1-h:nig+h, 1-h:njg+h, 2)
    integer, allocatable :: larr(:,:,:)
    integer :: lni, lnj, i, j, k, dims(2)
    lni = (nig + pex - 1) / pex
    lnj = (njg + pey - 1) / pey
    do k = 1, 2
      do j = 1 - h, njg + h
        do i = 1 - h, nig + h
          garr(i, j, k) = (k * 100 + j) * 100 + i
        enddo
      enddo
    enddo
    allocate(larr(1-h:lni+h, 1-h:lnj+h, 2))
    larr = -7
    ! what the original's RPN_COMM_dist passes: grid PE 0's larr extents
    dims = [lni + 2 * h, lnj + 2 * h]
    call RPN_COMM_dist2(garr, 1-h, nig+h, 1-h, njg+h, nig, njg, 2, h, h, 1, larr, 1-h, lni+h, 1-h, lnj+h, h, h, &
                        .false., .false., status, dims(1), dims(2))
    write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' dist2 halo ', h, ' status ', status
    do k = 1, 2
      do j = 1 - h, lnj + h
        write(*, '(A,I0,A,I0,A,2I3,A,40I7)') 'pe ', me, ' dist2 halo ', h, ' row ', j, k, ':', larr(:, j, k)
      enddo
    enddo
    back = -9
    call RPN_COMM_coll2(back, 1-h, nig+h, 1-h, njg+h, nig, njg, 2, h, h, 1, larr, 1-h, lni+h, 1-h, lnj+h, h, h, &
                        status, dims(1), dims(2))
    write(*, '(A,I0,A,I0,A,I0)') 'pe ', me, ' coll2 halo ', h, ' status ', status
    ! (4.6.3's coll2 on one PE copies a scratch array it never filled; its RPN_COMM_coll does not
    ! call it there)
    if (me == 0 .and. npes > 1) then
      do k = 1, 2
        do j = 1 - h, njg + h
          write(*, '(A,I0,A,I0,A,2I3,A,40I7)') 'pe ', me, ' coll2 halo ', h, ' row ', j, k, ':', back(:, j, k)
        enddo
      enddo
    endif
  end subroutine dist2_coll2

  subroutine move(dest)
    character(len=1), intent(IN) :: dest
    integer :: sendbuf(3), recvbuf(4)
    real(kind=8) :: s8(2), r8(2)
    sendbuf = [me, me * 10 + 1, me * 100 + 2]
    recvbuf = -7
    call RPN_COMM_move(sendbuf, 3, 'MPI_INTEGER', dest, recvbuf, 3, .true., ierr)
    write(*, '(A,I0,A,A,A,I0,A,4I6)') 'pe ', me, ' move ', dest, ' ierr ', ierr, ' got', recvbuf
    s8 = [me + 0.25d0, me / 3.0d0]
    r8 = -1
    call RPN_COMM_move(s8, 2, 'MPI_DOUBLE_PRECISION', dest, r8, 2, .true., ierr)
    write(*, '(A,I0,A,A,A,I0,A,2Z18)') 'pe ', me, ' move8 ', dest, ' ierr ', ierr, ' got', r8
  end subroutine move

  subroutine gathers(n1, n2, n3, size)
    integer, intent(IN) :: n1, n2, n3, size
    real, allocatable :: a(:,:,:,:), c(:,:,:,:), r(:,:,:,:), dest(:)
    integer :: i, j, k, w, via, n, m, np, q, edge, p, along
    character(len=4) :: what
    allocate(a(size, 0:n1+1, 0:n2+1, n3), c(size, 0:n1+1, 0:n2+1, n3), r(size, 0:n1+1, 0:n2+1, n3))
    do k = 1, n3
      do j = 0, n2 + 1
        do i = 0, n1 + 1
          do w = 1, size
            a(w, i, j, k) = real((((me * 16 + i) * 16 + j) * 8 + k) * 4 + w) + 0.5
            c(w, i, j, k) = -a(w, i, j, k)
            r(w, i, j, k) = a(w, i, j, k) / 3.0
          enddo
        enddo
      enddo
    enddo
    do via = 1, 4
      n = merge(n2, n1, via <= 2)
      m = 2 * ((n * n3) / 2) + 1
      along = merge(2, 1, via == 1 .or. via == 3)
      np = merge(pey, pex, along == 2)
      allocate(dest(size * m * 6 * np))
      dest = 0
      select case (via)
      case (1)
        what = 'e1y3'
        call RPN_COMM_gather_e1y3(a, c, r, 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      case (2)
        what = 'e1x3'
        call RPN_COMM_gather_e1x3(a, c, r, 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      case (3)
        what = 'e2y3'
        call RPN_COMM_gather_e2y3(a, c, r, 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      case default
        what = 'e2x3'
        call RPN_COMM_gather_e2x3(a, c, r, 0, n1+1, 0, n2+1, n1, n2, n3, dest, size)
      end select
      do q = 0, np - 1
        do edge = 1, 6
          p = size * (m * ((edge - 1) + 6 * q))
          write(*, '(A,I0,A,A,3I2,A,I0,A,I0,A,40Z9)') 'pe ', me, ' gather_', what, n1, n2, n3, ' size ', size, &
              ' block ', q * 10 + edge, ':', dest(p + 1:p + size * n * n3)
        enddo
      enddo
      deallocate(dest)
    enddo
  end subroutine gathers

  subroutine shufs(gni, gnj, h, lnk, dnk)
    integer, intent(IN) :: gni, gnj, h, lnk, dnk
    integer :: gid, me_io, n_io, ni, nj, i, j, k, st, nz, d(6)
    integer :: sx(pex), cx(pex), sy(pey), cy(pey)
    integer, allocatable :: global(:,:,:), local(:,:,:), li(:), lc(:)
    logical :: lo(lnk)
    ni = (gni + pex - 1) / pex
    nj = (gnj + pey - 1) / pey
    gid = rpn_comm_create_2dgrid(gni, gnj, 1 - h, ni + h, 1 - h, nj + h)
    st = rpn_comm_get_2dgrid(gid, pex, pey, d(1), d(2), d(3), d(4), d(5), d(6), sx, cx, sy, cy)
    me_io = RPN_COMM_is_io_pe(set)
    n_io = RPN_COMM_io_pe_size(set)
    allocate(global(gni, gnj, dnk), local(1-h:ni+h, 1-h:nj+h, lnk), li(dnk))
    li = 0
    global = -1
    if (me_io >= 0) then
      do k = 1, dnk
        li(k) = 1 + me_io + (k - 1) * n_io
        if (li(k) > lnk) li(k) = 0
        do j = 1, gnj
          do i = 1, gni
            global(i, j, k) = (li(k) * 100 + j) * 100 + i
          enddo
        enddo
      enddo
    endif
    local = -1
    lo = .false.
    call RPN_COMM_shuf_dist(set, global, gni, gnj, dnk, local, 1 - h, ni + h, 1 - h, nj + h, lnk, li, lo, &
                            sx, cx, pex, sy, cy, pey, .false., .false., st)
    write(*, '(A,I0,A,I0,A,I3,*(L2))') 'pe ', me, ' shuf_dist ', h, ' :', st, lo
    do k = 1, lnk
      do j = 1 - h, nj + h
        write(*, '(A,I0,A,I0,A,2I3,A,*(I9))') 'pe ', me, ' shuf_dist ', h, ' level, row', k, j, ' :', local(:, j, k)
      enddo
    enddo
    do k = 1, lnk
      do j = 1 - h, nj + h
        do i = 1 - h, ni + h
          local(i, j, k) = (k * 100 + sy(mey + 1) + j - 1) * 100 + sx(mex + 1) + i - 1
        enddo
      enddo
    enddo
    nz = (lnk + n_io - 1) / n_io
    deallocate(global)
    allocate(global(gni, gnj, nz), lc(nz))
    global = -1
    lc = -5
    call RPN_COMM_shuf_coll(set, global, gni, gnj, nz, local, 1 - h, ni + h, 1 - h, nj + h, lnk, lc, &
                            sx, cx, pex, sy, cy, pey, st)
    write(*, '(A,I0,A,I0,A,I3,*(I4))') 'pe ', me, ' shuf_coll ', h, ' :', st, lc
    if (me_io >= 0) then
      do k = 1, nz
        do j = 1, gnj
          write(*, '(A,I0,A,I0,A,2I3,A,*(I9))') 'pe ', me, ' shuf_coll ', h, ' plane, row', k, j, ' :', global(:, j, k)
        enddo
      enddo
    endif
  end subroutine shufs

  subroutine redist(gni, ltok)
    integer, intent(IN) :: gni, ltok
    integer, parameter :: gnj = 7, nk = 5, ix0 = 2, ixn = 10, jy0 = 2, jyn = 6
    integer :: ni, nj, offx, offy, i0, in, j0, jn, i, j, k, w, nox, noy, nz, st
    integer :: ox(2), oy(2)
    integer, allocatable :: zin(:,:,:,:), zout(:,:,:,:), zlist(:)
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
    allocate(zin(ltok, 0:ni+1, 0:nj+1, nk), zout(ltok, ix0:ixn, jy0:jyn, nz), zlist(nz))
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
    zout = -7
    zlist = 77
    if (ltok == 1) then
      st = RPN_COMM_grid_redist(zin, 0, ni+1, i0, in, 0, nj+1, j0, jn, nk, zout, ix0, ixn, jy0, jyn, nz, zlist, &
                                gni, gnj, ox, nox, oy, noy, ltok)
    else
      st = RPN_COMM_grid_redist_n(zin, 0, ni+1, i0, in, 0, nj+1, j0, jn, nk, zout, ix0, ixn, jy0, jyn, nz, zlist, &
                                  gni, gnj, ox, nox, oy, noy, ltok)
    endif
    write(*, '(A,I0,A,I0,A,I0,A,*(I4))') 'pe ', me, ' grid_redist ', ltok, ' : ', st, ' zlist', zlist
    do k = 1, nz
      if (zlist(k) < 0) cycle
      do j = jy0, jyn
        write(*, '(A,I0,A,I0,A,2I3,A,*(I8))') 'pe ', me, ' grid_redist ', ltok, ' plane, row', k, j, ' :', zout(:, :, j, k)
      enddo
    enddo
  end subroutine redist
end program distributions_side_by_side

subroutine distributions_side_grid(px, py)
  implicit none
  integer, intent(INOUT) :: px, py
  integer :: n, ierr
  call RPN_COMM_size('GRID', n, ierr)
  px = n
  py = 1
  if (n == 4) px = 2
  if (n == 4) py = 2
  if (n == 6) px = 3
  if (n == 6) py = 2
end subroutine distributions_side_grid
