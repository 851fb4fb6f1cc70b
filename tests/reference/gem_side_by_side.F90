! gem_side_by_side.F90 -- the grid queries and I/O PE sets as GEM calls them, printed one line per
! result; side_by_side.sh builds it against the original RPN_COMM and against this library and
! compares the outputs (they must be identical). A grid of (npes / 2) x 2 PEs made through the
! generic RPN_COMM_gridinit (its Userinit form), blocks 1 x 2. Also RPN_COMM_create_2dgrid and
! get_2dgrid descriptors (and refusals), and an RPN_COMM_reduce of doubles (the sum depends on
! the order MPI combines the PEs' values in).
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
  call RPN_COMM_finalize(ierr)
end program gem_side_by_side
subroutine ushape(px, py)
  integer :: px, py
  px = px / 2
  py = 2
end subroutine ushape
