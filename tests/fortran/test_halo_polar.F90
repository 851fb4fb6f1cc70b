! PES: 1 2 3 4 6
! TIMEOUT: 120
!
! npol_row of RPN_COMM_xch_halo as the original takes it, against an independent reference of
! every point computed from global indices: 0, and negative values not below -pe_ny, are a plain
! exchange (-999999, which the original's own tests pass, is one without periodic y); below
! -pe_ny with periodic y, the halo rows beyond the first and last rows of PEs
! are then replaced by the rows next to the pole of the columns half a globe away (gni / 2),
! mirrored (halo row nj+t gets row nj+1-t, halo row 1-t gets row t), over the whole width of
! the array; on a single row of PEs only the north side is flipped (as the original). Without
! periodic y nothing is flipped. The x decomposition is RPN_COMM_limit's, as the original
! assumes. Integer, and real*8 through the generic RPN_COMM_xch_halo of the module.
program test_halo_polar
  use ISO_C_BINDING
  use rpn_comm_windows
  implicit none
  integer :: me, npes, nerr, pex, pey, mex, mey, status, h, c

  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A,I0,A)') 'test_halo_polar: running on ', npes, ' PEs, a ', pex, ' x ', pey, ' grid'
  call section('npol_row: plain exchanges and the pole flip')
  do h = 1, 2
    do c = 1, 6
      call one_case(h, c)
    enddo
  enddo
  call finish('test_halo_polar')
contains
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    px = n
    py = 1
    if (n == 2) then        ! a column: both poles on other PEs
      px = 1
      py = 2
    else if (n >= 4 .and. mod(n, 2) == 0) then
      px = n / 2
      py = 2
    endif
  end subroutine grid_shape

  ! the value of global point (gi, gj) at level k
  integer function f(gi, gj, k)
    integer, intent(IN) :: gi, gj, k
    f = (gi * 1000 + gj) * 10 + k
  end function f

  ! what a point outside the exchanged region holds before (and must hold after)
  integer function untouched(i, j, k)
    integer, intent(IN) :: i, j, k
    untouched = -((i + 100) * 1000 + (j + 100)) * 10 - k
  end function untouched

  ! global index along one direction of local i (tile from i0, gn points), 0 where nobody owns it
  integer function global_index(i, i0, gn, periodic)
    integer, intent(IN) :: i, i0, gn
    logical, intent(IN) :: periodic
    global_index = i0 + i - 1
    if (periodic) then
      global_index = modulo(global_index - 1, gn) + 1
    else if (global_index < 1 .or. global_index > gn) then
      global_index = 0
    endif
  end function global_index

  ! Case c: npol_row and periodicity; halo h, bounds one point wider than the halo.
  subroutine one_case(h, c)
    integer, intent(IN) :: h, c
    integer, parameter :: nk = 2, extra = 1
    integer :: gni, gnj, ni, nj, i0, j0, lmax, npol_row, i, j, k, t, expected, bad, bad8
    integer :: minx, maxx, miny, maxy
    integer, dimension(pex) :: cx, ox
    integer, dimension(pey) :: cy, oy
    logical :: periody, flip_north, flip_south
    integer, allocatable :: g(:,:,:)
    real(kind=8), allocatable :: g8(:,:,:)
    character(len=100) :: what

    periody = c /= 6
    select case (c)
    case (1)
      npol_row = 0
    case (2)
      npol_row = -pey                       ! not below -pe_ny: a plain exchange
    case (3)
      npol_row = -1
    case (4)
      npol_row = -999999
    case (5)
      npol_row = -pey - 1
    case default
      npol_row = -999999                    ! not periodic in y: no flip
    end select
    gni = 10 * pex - 3
    gnj = 6 * pey - 1
    status = RPN_COMM_limit(mex, pex, 1, gni, i0, lmax, cx, ox)
    ni = cx(mex + 1)
    status = RPN_COMM_limit(mey, pey, 1, gnj, j0, lmax, cy, oy)
    nj = cy(mey + 1)
    minx = 1 - h - extra
    maxx = ni + h + extra
    miny = 1 - h - extra
    maxy = nj + h + extra
    write(what, '(A,I0,A,I0,A,L1)') 'halo ', h, ' npol_row ', npol_row, ' periodic y ', periody
    ! the original flips where npol_row < -pe_ny, y periodic: the north row, and the south one
    ! unless it is also the north one
    flip_north = periody .and. npol_row < -pey .and. mey == pey - 1
    flip_south = periody .and. npol_row < -pey .and. mey == 0 .and. pey > 1

    allocate(g(minx:maxx, miny:maxy, nk), g8(minx:maxx, miny:maxy, nk))
    do k = 1, nk
      do j = miny, maxy
        do i = minx, maxx
          g(i, j, k) = untouched(i, j, k)
          if (i >= 1 .and. i <= ni .and. j >= 1 .and. j <= nj) g(i, j, k) = f(i0 + i - 1, j0 + j - 1, k)
        enddo
      enddo
    enddo
    g8 = real(g, kind=8) / 4
    call RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, h, h, .true., periody, gni, npol_row)
    call RPN_COMM_xch_halo(g8, minx, maxx, miny, maxy, ni, nj, nk, h, h, .true., periody, gni, npol_row)
    bad = 0
    bad8 = 0
    do k = 1, nk
      do j = miny, maxy
        do i = minx, maxx
          expected = untouched(i, j, k)
          if (i >= 1 - h .and. i <= ni + h .and. j >= 1 - h .and. j <= nj + h) then
            if (global_index(j, j0, gnj, periody) > 0) &
              expected = f(global_index(i, i0, gni, .true.), global_index(j, j0, gnj, periody), k)
          endif
          ! pole rows: the column half a globe away, the row mirrored at the pole (whole width)
          if (flip_north .and. j > nj .and. j <= nj + h) then
            t = j - nj
            expected = f(modulo(i0 + i - 1 + gni / 2 - 1, gni) + 1, gnj + 1 - t, k)
          endif
          if (flip_south .and. j < 1 .and. j >= 1 - h) then
            t = 1 - j
            expected = f(modulo(i0 + i - 1 + gni / 2 - 1, gni) + 1, t, k)
          endif
          if (g(i, j, k) /= expected) then
            bad = bad + 1
            if (bad <= 3) call check(.false., trim(what)//': g('//str(i)//','//str(j)//','//str(k)//') = '// &
                                     str(g(i, j, k))//', expected '//str(expected))
          endif
          if (g8(i, j, k) /= real(expected, kind=8) / 4) bad8 = bad8 + 1
        enddo
      enddo
    enddo
    call check(bad == 0, trim(what)//': '//str(bad)//' wrong points')
    call check(bad8 == 0, trim(what)//' real*8: '//str(bad8)//' wrong points')
    deallocate(g, g8)
  end subroutine one_case

  include 'tutil.inc'
end program test_halo_polar
