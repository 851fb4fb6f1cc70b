! PES: 1 2 4 6
! TIMEOUT: 60
!
! RPN_COMM_topo (the original's older form, as SPS calls it: 9 arguments, through the interface of
! include 'RPN_COMM.inc') against RPN_COMM_topo_2 in strict mode (relax 0, abort) and against the
! original's definition from RPN_COMM_limit_2's split of 1..nxg over the PEs along the axis:
! nx0 = the tile's first point, nxl = its points, nxlmax = the first (largest) tile's points,
! minx = 1 - halo, maxx = nxlmax + halo, plus 1 when fill and nxlmax is even. Along x and y, with
! and without fill, halos 0 to 3, several global sizes.
program test_topo
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, nerr, pex, pey, mex, mey, status
  integer :: nxg, halo, ax, fl, n, ng
  integer, dimension(4) :: sizes
  logical :: alongx, fill

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_topo: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  sizes = [0, 1, 2, 5]
  do ax = 0, 1
    alongx = ax == 0
    n = merge(pex, pey, alongx)
    do ng = 1, size(sizes)
      nxg = 7 * n + sizes(ng)
      do halo = 0, 3
        do fl = 0, 1
          fill = fl == 1
          call one(nxg, halo, alongx, fill, merge(mex, mey, alongx), n)
        enddo
      enddo
    enddo
  enddo
  call finish('test_topo')
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
      px = 2
      py = 3
    case default
      px = 1
      py = n
    end select
  end subroutine grid_shape

  subroutine one(nxg, halo, alongx, fill, my, n)
    integer, intent(IN) :: nxg, halo, my, n
    logical, intent(IN) :: alongx, fill
    integer :: minx, maxx, nxl, nxlmax, nx0, st
    integer :: minx2, maxx2, nxl2, nxlmax2, nx02, st2
    integer :: gmin, gmax, want_max
    integer, dimension(n) :: count, offset
    character(len=80) :: tag
    write(tag, '(A,I0,A,I0,A,L1,A,L1)') 'nxg ', nxg, ' halo ', halo, ' alongx ', alongx, ' fill ', fill
    st = RPN_COMM_topo(nxg, minx, maxx, nxl, nxlmax, halo, nx0, alongx, fill)
    call check(st == 0, trim(tag)//': RPN_COMM_topo returns '//str(st))
    st2 = RPN_COMM_topo_2(nxg, minx2, maxx2, nxl2, nxlmax2, halo, nx02, alongx, fill, 0, .true.)
    call check(st2 == st .and. minx2 == minx .and. maxx2 == maxx .and. nxl2 == nxl .and. nxlmax2 == nxlmax &
               .and. nx02 == nx0, trim(tag)//': RPN_COMM_topo differs from RPN_COMM_topo_2(..., 0, .true.)')
    st2 = RPN_COMM_limit_2(my, n, 1, nxg, gmin, gmax, count, offset, 0)
    call check(st2 == 0, trim(tag)//': RPN_COMM_limit_2 refused the split')
    want_max = count(1) + halo
    if (fill .and. mod(count(1), 2) == 0) want_max = want_max + 1
    call check(nx0 == gmin, trim(tag)//': nx0 = '//str(nx0)//', the tile starts at '//str(gmin))
    call check(nxl == gmax - gmin + 1, trim(tag)//': nxl = '//str(nxl)//', the tile has '//str(gmax - gmin + 1))
    call check(nxlmax == count(1), trim(tag)//': nxlmax = '//str(nxlmax)//', the first tile has '//str(count(1)))
    call check(nxlmax == maxval(count), trim(tag)//': nxlmax is not the largest tile')
    call check(minx == 1 - halo, trim(tag)//': minx = '//str(minx))
    call check(maxx == want_max, trim(tag)//': maxx = '//str(maxx)//', expected '//str(want_max))
  end subroutine one

  include 'tutil.inc'
end program test_topo
