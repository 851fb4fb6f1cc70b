! PES: 1 4 6 8
! TIMEOUT: 60
!
! RPN_COMM_set_petopo places the PEs of one grid by blocks, as the original's RPN_COMM_petopo: 4 and
! 6 PEs (2 x 2, 3 x 2) with (1, 999999), GEM's Ptopo_alongY (column after column); 8 PEs (4 x 2)
! with blocks of 2 x 2; 1 PE with (3, 3) clipped to the grid. Against a reference made here by the
! original's nested loops (blocks x first then y, PEs of a block x first then y): RPN_COMM_mype,
! the members of 'EW' and 'NS' in rank order (allgather of the ranks), RPN_COMM_carac, and a
! periodic halo exchange on the placed grid.
program test_gem_petopo
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, pex, pey, di, dj, ierr, st, m, x, y, i, j, i0, j0, r, bad
  integer, allocatable :: xs(:), ys(:), row(:), col(:), want(:)
  integer :: npex, npey, mm, medomm, mex, mey, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme
  character(len=8) :: dn
  integer, parameter :: ni = 2, nj = 3
  integer :: f(0:ni + 1, 0:nj + 1)
  nerr = 0
  call get_shape()
  call RPN_COMM_set_petopo(di, dj)
  call RPN_COMM_init(no_userinit, me, npes, pex, pey)
  ! the reference: grid rank r sits at (xs(r), ys(r))
  allocate(xs(0:npes - 1), ys(0:npes - 1))
  di = max(1, min(di, pex))
  dj = max(1, min(dj, pey))
  r = 0
  do j0 = 0, pey - 1, dj
    do i0 = 0, pex - 1, di
      do j = j0, min(pey - 1, j0 + dj - 1)
        do i = i0, min(pex - 1, i0 + di - 1)
          xs(r) = i
          ys(r) = j
          r = r + 1
        enddo
      enddo
    enddo
  enddo
  st = RPN_COMM_mype(m, x, y)
  call check(st == RPN_COMM_OK .and. m == me .and. x == xs(me) .and. y == ys(me), 'RPN_COMM_mype: ('//str(x)// &
             ', '//str(y)//'), expected ('//str(xs(me))//', '//str(ys(me))//')')
  allocate(row(pex), col(pey))
  call RPN_COMM_allgather(me, 1, RPN_COMM_INTEGER, row, 1, RPN_COMM_INTEGER, RPN_COMM_EW, ierr)
  want = [(findloc(xs, i, 1, mask = ys == ys(me)) - 1, i = 0, pex - 1)]
  call check(ierr == RPN_COMM_OK .and. all(row == want), 'EW: the PEs of the row, ranked by x')
  call RPN_COMM_allgather(me, 1, RPN_COMM_INTEGER, col, 1, RPN_COMM_INTEGER, RPN_COMM_NS, ierr)
  want = [(findloc(ys, j, 1, mask = xs == xs(me)) - 1, j = 0, pey - 1)]
  call check(ierr == RPN_COMM_OK .and. all(col == want), 'NS: the PEs of the column, ranked by y')
  call RPN_COMM_carac(npex, npey, mm, medomm, mex, mey, sizex, sizey, ismaster, mymaster, mybloc, myblocx, myblocy, blocme, dn)
  call check(npex == pex .and. npey == pey .and. mm == me .and. mex == xs(me) .and. mey == ys(me) .and. &
             mymaster == 0 .and. blocme == me, 'RPN_COMM_carac on the placed grid')
  ! a periodic halo of 1: f = 1000 x + y of the global point, wrapped
  f = -1
  do j = 1, nj
    do i = 1, ni
      f(i, j) = val(xs(me) * ni + i, ys(me) * nj + j)
    enddo
  enddo
  call RPN_COMM_xch_halo(f, 0, ni + 1, 0, nj + 1, ni, nj, 1, 1, 1, .true., .true., pex * ni, 0)
  bad = 0
  do j = 0, nj + 1
    do i = 0, ni + 1
      if (f(i, j) /= val(xs(me) * ni + i, ys(me) * nj + j)) bad = bad + 1
    enddo
  enddo
  call check(bad == 0, 'halo exchange on the placed grid: '//str(bad)//' points wrong')
  call finish('test_gem_petopo')
contains
  integer function val(gi, gj)
    integer, intent(IN) :: gi, gj
    val = 1000 * modulo(gi - 1, pex * ni) + modulo(gj - 1, pey * nj)
  end function val
  ! the job's size from the launcher, and the grid and blocks for it
  subroutine get_shape()
    character(len=16) :: v
    integer :: l, s, k
    character(len=24), dimension(3), parameter :: names = &
      [character(len=24) :: 'RPNCOMM_NPES', 'OMPI_COMM_WORLD_SIZE', 'PMI_SIZE']
    npes = 1
    do k = 1, size(names)
      call get_environment_variable(trim(names(k)), v, l, s)
      if (s == 0 .and. l > 0) then
        read(v, *) npes
        exit
      endif
    enddo
    pey = 1
    if (npes > 1) pey = 2
    pex = npes / pey
    di = 1
    dj = 999999
    if (npes == 8) dj = 2
    if (npes == 8) di = 2
    if (npes == 1) di = 3
    if (npes == 1) dj = 3
  end subroutine get_shape
  subroutine no_userinit(px, py)
    integer, intent(INOUT) :: px, py
    px = px
    py = py
  end subroutine no_userinit
  include 'tutil.inc'
end program test_gem_petopo
