! gem_side_by_side.F90 -- the grid queries and I/O PE sets as GEM calls them, printed one line per
! result; side_by_side.sh builds it against the original RPN_COMM and against this library and
! compares the outputs (they must be identical). A grid of (npes / 2) x 2 PEs made through the
! generic RPN_COMM_gridinit (its Userinit form), blocks 1 x 2. Also RPN_COMM_create_2dgrid and
! get_2dgrid descriptors (and refusals), an RPN_COMM_reduce and _allreduce of doubles (the sum depends on
! the order MPI combines the PEs' values in), and RPN_COMM_transpose forward and back along x and y,
! uneven splits.
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
end program gem_side_by_side
subroutine ushape(px, py)
  integer :: px, py
  px = px / 2
  py = 2
end subroutine ushape
