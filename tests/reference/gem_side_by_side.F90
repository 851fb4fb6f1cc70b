! gem_side_by_side.F90 -- the grid queries and I/O PE sets as GEM calls them, printed one line per
! result; side_by_side.sh builds it against the original RPN_COMM and against this library and
! compares the outputs (they must be identical). A grid of (npes / 2) x 2 PEs made through the
! generic RPN_COMM_gridinit (its Userinit form), blocks 1 x 2. Also RPN_COMM_create_2dgrid and
! get_2dgrid descriptors (and refusals), an RPN_COMM_reduce and _allreduce of doubles (the sum depends on
! the order MPI combines the PEs' values in), and RPN_COMM_transpose forward and back along x and y,
! uneven splits; RPN_COMM_dist and RPN_COMM_coll (halos, periodic or not), RPN_COMM_shuf_ezdist and
! RPN_COMM_shuf_ezcoll over an I/O PE set, and the RPN_MPI layer's stacked x-z transpose.
program gem_side_by_side
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, ierr, st
  integer :: npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme
  integer :: b(5), minx, maxx, nxl, nxlmax, nx0, k, relax, r, setno, i
  integer :: xs(3), ys(3)
  character(len=8) :: dn
  real(kind=8) :: v(4), w(4)
  external :: ushape
  integer :: gid, g(6), si(8), ci(8), sj(8), cj(8)
  pex = 0; pey = 0
  st = RPN_COMM_gridinit(ushape, me, npes, 1, 1)
  write(*, '(A,I0,A,2I4)') 'pe ', me, ' gridinit', st, npes
  do k = 0, 1
    if (k == 1) st = RPN_COMM_bloc(1, 2)
    call RPN_COMM_carac(npex, npey, m, medomm, x, y, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme, dn)
    call RPN_COMM_bloctopo(b(1), b(2), b(3), b(4), b(5))
    write(*, '(A,I0,A,I0,A,14I4,1X,A,5I4)') 'pe ', me, ' k ', k, ' carac', npex, npey, m, medomm, x, y, sizex, sizey, &
         ismaster, mymaster, mybloc, myblocx, myblocy, blocme, trim(dn), b
    call RPN_COMM_rank('BLOC', r, ierr)
    write(*, '(A,I0,A,I0,A,I4)') 'pe ', me, ' k ', k, ' rank bloc', r
  enddo
  do relax = 0, 4
    do k = 3, 13, 5
      st = RPN_COMM_topo_2(k, minx, maxx, nxl, nxlmax, 1, nx0, .true., .true., relax, .false.)
      if (st == 0) write(*, '(A,I0,A,2I3,A,6I4)') 'pe ', me, ' topo', k, relax, ' :', st, minx, maxx, nxl, nxlmax, nx0
      st = RPN_COMM_topo_2(k, minx, maxx, nxl, nxlmax, 2, nx0, .false., .false., relax, .false.)
      if (st == 0) write(*, '(A,I0,A,2I3,A,6I4)') 'pe ', me, ' topoy', k, relax, ' :', st, minx, maxx, nxl, nxlmax, nx0
    enddo
  enddo
  do k = 1, 4
    gid = rpn_comm_create_2dgrid(npex * 11 - 7 + k, npey * 7 - 5 + 2 * k, -1, 12 + k, -2, 9 + k)
    si = -7; ci = -7; sj = -7; cj = -7
    st = rpn_comm_get_2dgrid(gid, 8, 8, g(1), g(2), g(3), g(4), g(5), g(6), si, ci, sj, cj)
    write(*, '(A,I0,A,I0,I12,I4,6I4,A,32I4)') 'pe ', me, ' 2dgrid ', k, gid, st, g, ' :', si, ci, sj, cj
  enddo
  st = rpn_comm_get_2dgrid(gid, npex - 1, 8, g(1), g(2), g(3), g(4), g(5), g(6), si, ci, sj, cj)
  write(*, '(A,I0,A,3I4)') 'pe ', me, ' 2dgrid short', st, g(1), g(2)
  setno = RPN_COMM_create_io_set(3, 0)
  write(*, '(A,I0,A,4I4)') 'pe ', me, ' ioset', setno, RPN_COMM_is_io_pe(setno), RPN_COMM_io_pe_size(setno), &
        RPN_COMM_io_pe_gridid(setno, 1)
  v = [1d0 / (me + 3), 0.1d0 * (me + 1), 1d0 / (7 * me + 1), 1d16 * (-1)**me + 1d0 / (me + 1)]
  w = 0
  call RPN_COMM_reduce(v, w, 4, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 0, 'GRID', ierr)
  if (me == 0) write(*, '(A,I0,A,4ES26.17)') 'pe ', me, ' reduce', w
  call RPN_COMM_allreduce(v, w, 4, 'MPI_DOUBLE_PRECISION', 'MPI_SUM', 'GRID', ierr)
  write(*, '(A,I0,A,4ES26.17)') 'pe ', me, ' allreduce', w
  call xpose(1, npex, x, y, 7, 5)
  call xpose(2, npey, y, x, 5, 3)
  call xpose(1, npex, x, y, 2, 9)
  call dists(11, 7, 1, 2, .false.)
  call dists(11, 7, 1, 2, .true.)
  call dists(9, 5, 0, 0, .false.)
  call colls(11, 7, 1, 2)
  call colls(10, 6, 0, 0)
  call shufs(11, 7, 4, 2)
  call xz_side(me, npex, x, y)
  call RPN_COMM_finalize(ierr)
contains
  ! RPN_COMM_transpose forward then backward along x (kind 1) or y (2) of a line of np PEs (this
  ! one at rank mel; other: its rank across), real*8 (size 2): the elements that stand for a
  ! global index printed (the original leaves the others as its buffers held). zb has room for
  ! np * n1p columns, where the original's MPI_Alltoall writes.
  subroutine xpose(kind, np, mel, other, n1g, n3g)
    integer, intent(IN) :: kind, np, mel, other, n1g, n3g
    integer :: n1p, n3p, cols, levels, i, j, k
    real(kind=8), allocatable :: za(:,:,:), zb(:,:,:)
    n1p = (n1g + np - 1) / np
    n3p = (n3g + np - 1) / np
    cols = max(0, min(n1p, n1g - mel * n1p))
    levels = max(0, min(n3p, n3g - mel * n3p))
    allocate(za(0:n1p + 1, 2, n3g), zb(2, n3p, np * n1p))
    za = -1
    zb = -1
    do k = 1, n3g
      do j = 1, 2
        do i = 1, cols
          za(i, j, k) = (mel * n1p + i) * 1d4 + other * 1d3 + j * 1d2 + k + 1d0 / 3
        enddo
      enddo
    enddo
    call RPN_COMM_transpose(za, 0, n1p + 1, n1g, 2, 1, n3p, n3g, zb, kind, 2)
    do i = 1, n1g   ! one line per global column
      write(*, '(A,I0,A,4I3,A,*(F12.4))') 'pe ', me, ' xpose', kind, n1g, n3g, i, ' zb', zb(:, 1:levels, i)
    enddo
    za(1:cols, :, :) = 0
    call RPN_COMM_transpose(za, 0, n1p + 1, n1g, 2, 1, n3p, n3g, zb, -kind, 2)
    do k = 1, n3g
      write(*, '(A,I0,A,4I3,A,*(F12.4))') 'pe ', me, ' xpose', kind, n1g, n3g, k, ' za', za(1:cols, :, k)
    enddo
  end subroutine xpose

  integer function f(i, j, k)
    integer, intent(IN) :: i, j, k
    f = (k * 1000 + j + 100) * 1000 + i + 100
  end function f

  ! RPN_COMM_dist of an nig x njg field (halo gh on PE 0) with local halos h: every PE's larr,
  ! one line per row, including what it leaves untouched (-1)
  subroutine dists(nig, njg, gh, h, periodx)
    integer, intent(IN) :: nig, njg, gh, h
    logical, intent(IN) :: periodx
    integer, allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, k, st
    ni = (nig + npex - 1) / npex
    nj = (njg + npey - 1) / npey
    if (me == 0) then
      allocate(garr(1-gh:nig+gh, 1-gh:njg+gh, 2))
      do k = 1, 2
        do j = 1-gh, njg+gh
          do i = 1-gh, nig+gh
            garr(i, j, k) = f(i, j, k)
          enddo
        enddo
      enddo
    else
      allocate(garr(1, 1, 1))
    endif
    allocate(larr(-h:ni+h+1, 1-h:nj+h, 2))
    larr = -1
    call RPN_COMM_dist(garr, lbound(garr, 1), ubound(garr, 1), lbound(garr, 2), ubound(garr, 2), nig, njg, 2, &
                       gh, gh, 1, larr, -h, ni+h+1, 1-h, nj+h, h, h, periodx, .false., st)
    do k = 1, 2
      do j = 1-h, nj+h
        write(*, '(A,I0,A,3I3,L2,2I3,A,*(I9))') 'pe ', me, ' dist', nig, njg, h, periodx, k, j, ' :', larr(:, j, k)
      enddo
    enddo
  end subroutine dists

  ! RPN_COMM_coll of every PE's tile and halo h (values of the global field) into PE 0's garr
  ! (halo gh + 1, -1 where nothing lands)
  subroutine colls(nig, njg, gh, h)
    integer, intent(IN) :: nig, njg, gh, h
    integer, allocatable :: garr(:,:,:), larr(:,:,:)
    integer :: ni, nj, i, j, k, st
    ni = (nig + npex - 1) / npex
    nj = (njg + npey - 1) / npey
    allocate(larr(1-h:ni+h, 1-h:nj+h, 2))
    do k = 1, 2
      do j = 1-h, nj+h
        do i = 1-h, ni+h
          larr(i, j, k) = f(x * ni + i, y * nj + j, k)
        enddo
      enddo
    enddo
    if (me == 0) then
      allocate(garr(-gh:nig+gh+1, -gh:njg+gh+1, 2))
    else
      allocate(garr(1, 1, 1))
    endif
    garr = -1
    call RPN_COMM_coll(garr, lbound(garr, 1), ubound(garr, 1), lbound(garr, 2), ubound(garr, 2), nig, njg, 2, &
                       gh, gh, 1, larr, 1-h, ni+h, 1-h, nj+h, h, h, st)
    if (me == 0) then
      do k = 1, 2
        do j = lbound(garr, 2), ubound(garr, 2)
          write(*, '(A,I0,A,3I3,2I3,A,*(I9))') 'pe ', me, ' coll', nig, njg, h, k, j, ' :', garr(:, j, k)
        enddo
      enddo
    endif
  end subroutine colls

  ! RPN_COMM_shuf_ezdist of the levels of an I/O PE set (dnk each) into lnk local levels of a grid
  ! descriptor with halo 1, then RPN_COMM_shuf_ezcoll of every PE's levels back
  subroutine shufs(gni, gnj, lnk, dnk)
    integer, intent(IN) :: gni, gnj, lnk, dnk
    integer :: gid, set, me_io, n_io, ni, nj, i, j, k, st, nz
    integer, allocatable :: global(:,:,:), local(:,:,:), li(:), lc(:)
    logical :: lo(lnk)
    ni = (gni + npex - 1) / npex
    nj = (gnj + npey - 1) / npey
    gid = rpn_comm_create_2dgrid(gni, gnj, 0, ni + 1, 0, nj + 1)
    set = RPN_COMM_create_io_set(2, 0)
    if (set <= 0) set = RPN_COMM_create_io_set(1, 0)
    me_io = RPN_COMM_is_io_pe(set)
    n_io = RPN_COMM_io_pe_size(set)
    allocate(global(gni, gnj, dnk), local(0:ni+1, 0:nj+1, lnk), li(dnk))
    li = 0
    global = -1
    if (me_io >= 0) then
      do k = 1, dnk
        li(k) = 1 + me_io + (k - 1) * n_io
        if (li(k) > lnk) li(k) = 0
        do j = 1, gnj
          do i = 1, gni
            global(i, j, k) = f(i, j, li(k))
          enddo
        enddo
      enddo
    endif
    local = -1
    lo = .false.
    st = RPN_COMM_shuf_ezdist(set, gid, global, dnk, local, lnk, li, lo)
    write(*, '(A,I0,A,I3,*(L2))') 'pe ', me, ' ezdist', st, lo
    do k = 1, lnk
      do j = 0, nj + 1
        write(*, '(A,I0,A,2I3,A,*(I9))') 'pe ', me, ' ezdist', k, j, ' :', local(:, j, k)
      enddo
    enddo
    do k = 1, lnk
      do j = 0, nj + 1
        do i = 0, ni + 1
          local(i, j, k) = f(x * ni + i, y * nj + j, k)
        enddo
      enddo
    enddo
    nz = (lnk + n_io - 1) / n_io
    deallocate(global)
    allocate(global(gni, gnj, nz), lc(nz))
    global = -1
    lc = -5
    st = RPN_COMM_shuf_ezcoll(set, gid, global, nz, local, lnk, lc)
    write(*, '(A,I0,A,I3,*(I4))') 'pe ', me, ' ezcoll', st, lc
    do k = 1, nz
      do j = 1, gnj
        write(*, '(A,I0,A,2I3,A,*(I9))') 'pe ', me, ' ezcoll', k, j, ' :', global(:, j, k)
      enddo
    enddo
    st = RPN_COMM_free_io_set(set)
  end subroutine shufs
end program gem_side_by_side

! The stacked x-z transpose as gemdyn's sol_fft_lam calls it (RPN_MPI.hf, LoC, real*8 arrays as
! twice as many 4-byte words), 5 levels cut unevenly over each row
subroutine xz_side(me, npex, x, y)
  use ISO_C_BINDING
  implicit none
#include <RPN_MPI.hf>
  integer, intent(IN) :: me, npex, x, y
  integer :: row, col, err, lnk, k, p
  real(kind=8), allocatable :: z(:,:,:), zt(:,:,:,:)
  lnk = 5 / npex
  if (x < mod(5, npex)) lnk = lnk + 1
  row = RPN_COMM_comm('EW')
  col = RPN_COMM_comm('NS')
  call RPN_MPI_transpose_setup(5, lnk, row, col, err)
  write(*, '(A,I0,A,I3)') 'pe ', me, ' xz setup', err
  allocate(z(3, 2, 5), zt(3, 2, max(lnk, 1), npex))
  do k = 1, 5
    z(:, :, k) = reshape([(x * 1d4 + y * 1d3 + k + p * 1d2 + 0.25d0, p = 1, 6)], [3, 2])
  enddo
  zt = -1
  call RPN_MPI_ez_transpose_xz(LoC(z), &
                               LoC(zt), .true., 6, 2, lnk, err)
  write(*, '(A,I0,A,I3,A,*(F10.2))') 'pe ', me, ' xz fwd', err, ' :', zt(:, :, 1:lnk, :)
  zt = 2 * zt
  z = 0
  call RPN_MPI_ez_transpose_xz(LoC(z), &
                               LoC(zt), .false., 6, 2, lnk, err)
  write(*, '(A,I0,A,I3,A,*(F10.2))') 'pe ', me, ' xz inv', err, ' :', z
end subroutine xz_side
subroutine ushape(px, py)
  integer :: px, py
  px = px / 2
  py = 2
end subroutine ushape
