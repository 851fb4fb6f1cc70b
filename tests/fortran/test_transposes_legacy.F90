! PES: 1 2 4 6
! TIMEOUT: 120
! OUTPUT_HAS@1: test_transposes_legacy: all checks passed
! OUTPUT_HAS@2: test_transposes_legacy: all checks passed
! OUTPUT_HAS@4: test_transposes_legacy: all checks passed
! OUTPUT_HAS@6: test_transposes_legacy: all checks passed
! OUTPUT_HAS@1: RPN_COMM_compress: PE 0: bad argument: array(2:4, 1:3, nk) must hold the points (1:3, 1:2)
! OUTPUT_HAS@2: RPN_COMM_transpose48: PE 1: bad argument: za's first dimension 1:1 must hold this PE's columns 1:3
!
! The original's other transposes and its global sum, on both transports, against values computed
! from global indices alone, on a pex x pey grid (1x1, 2x1, 2x2, 3x2):
! - RPN_COMM_transpose48 along x (type 1/-1) and y (2/-2): the columns and levels cut as
!   RPN_COMM_limit cuts them, real za with halos to real*8 zb_8 = a*za + b, then back with other
!   a and b giving za exactly, its halo untouched;
! - RPN_COMM_transpose_44 gives RPN_COMM_transpose's zb (4-byte elements) and za back;
! - RPN_COMM_Xpose1 / _Xpose2 on a line of one PE (npe = 1: a copy, pecomm not looked at);
! - RPN_COMM_globalsum: every PE's sums have the bits of the sum added in the original's order
!   (each global row west to east, then the rows south to north), computed here from the values;
! - RPN_COMM_compress / _expand (4 bytes) and _compress8 / _expand8 (real*8): the points squeezed
!   to the front of the array in order, then back in place.
! Then arrays too small are refused with one line (the arrays untouched).
program test_transposes_legacy
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, mex, mey, ierr, status, nerr, idx
  interface
    subroutine RPN_COMM_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, type, size)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, type, size
    end subroutine RPN_COMM_transpose
    subroutine RPN_COMM_transpose_44(za, min1, max1, n1g, n2, min3, max3, n3g, zb, direction)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, direction
    end subroutine RPN_COMM_transpose_44
    subroutine RPN_COMM_Xpose1(n3partiel, npe, pecomm, n1partiel, za, min1, max1, n1g, n2, min3, max3, n3g, zb, size)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer, intent(IN) :: n3partiel, npe, pecomm, n1partiel, min1, max1, n1g, n2, min3, max3, n3g, size
    end subroutine RPN_COMM_Xpose1
    subroutine RPN_COMM_Xpose2(n3partiel, npe, pecomm, n1partiel, za, min1, max1, n1g, n2, min3, max3, n3g, zb, size)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer, intent(IN) :: n3partiel, npe, pecomm, n1partiel, min1, max1, n1g, n2, min3, max3, n3g, size
    end subroutine RPN_COMM_Xpose2
    subroutine RPN_COMM_transpose48(za, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, zb_8, type, a_8, b_8)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb_8
      type(*), dimension(*), intent(INOUT) :: za, zb_8
      integer, intent(IN) :: min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, type
      real(kind=8), intent(IN) :: a_8, b_8
    end subroutine RPN_COMM_transpose48
    subroutine RPN_COMM_compress(array, minx, maxx, miny, maxy, nil, njl, nk)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
      type(*), dimension(*), intent(INOUT) :: array
      integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
    end subroutine RPN_COMM_compress
    subroutine RPN_COMM_expand(array, minx, maxx, miny, maxy, nil, njl, nk)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
      type(*), dimension(*), intent(INOUT) :: array
      integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
    end subroutine RPN_COMM_expand
    subroutine RPN_COMM_compress8(array, minx, maxx, miny, maxy, nil, njl, nk)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
      type(*), dimension(*), intent(INOUT) :: array
      integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
    end subroutine RPN_COMM_compress8
    subroutine RPN_COMM_expand8(array, minx, maxx, miny, maxy, nil, njl, nk)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
      type(*), dimension(*), intent(INOUT) :: array
      integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
    end subroutine RPN_COMM_expand8
  end interface
  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A)') 'test_transposes_legacy: a ', pex, ' x ', pey, ' grid'

  call along48(1, pex, mex, mey, 7, 5)
  call along48(2, pey, mey, mex, 6, 4)
  call like_transpose(1, pex, mex)
  call like_transpose(2, pey, mey)
  call xpose_one_pe()
  call global_sum()
  call squeeze()
  call refused()

  call RPN_COMM_allreduce(nerr, status, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (me == 0) then
    if (status /= 0) then
      write(*, '(A,I0,A)') 'test_transposes_legacy: FAILED (', status, ' errors)'
    else
      write(*, '(A)') 'test_transposes_legacy: all checks passed'
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
      write(*, '(A,I0,A,A)') 'test_transposes_legacy: PE ', me, ' FAILED ', what
    endif
  end subroutine check

  real function v48(g, other, j, k)
    integer, intent(IN) :: g, other, j, k
    v48 = real(((g * 10 + other) * 10 + j) * 100 + k) + 0.25
  end function v48

  ! transpose48 forward and back along one line of np PEs (this one at rank mel)
  subroutine along48(kind, np, mel, other, n1g, n3g)
    integer, intent(IN) :: kind, np, mel, other, n1g, n3g
    integer, parameter :: n2l = 2
    integer :: i0, i1, k0, k1, nil, nkl, i, j, k, g
    integer :: icnt(np), ioff(np), kcnt(np), koff(np)
    real, allocatable :: za(:,:,:)
    real(kind=8), allocatable :: zb(:,:,:)
    logical :: ok
    character(len=40) :: what
    status = RPN_COMM_limit(mel, np, 1, n1g, i0, i1, icnt, ioff)
    status = RPN_COMM_limit(mel, np, 1, n3g, k0, k1, kcnt, koff)
    nil = i1 - i0 + 1
    nkl = k1 - k0 + 1
    allocate(za(0:nil + 1, 0:n2l, n3g), zb(0:n2l, 0:nkl, n1g))
    za = -1.0
    zb = -1d0
    do k = 1, n3g
      do j = 1, n2l
        do i = 1, nil
          za(i, j, k) = v48(i0 - 1 + i, other, j, k)
        enddo
      enddo
    enddo
    write(what, '(A,I0)') 'transpose48 type ', kind
    call RPN_COMM_transpose48(za, 0, nil + 1, n1g, 0, n2l, n2l, 0, nkl, n3g, zb, kind, 2d0, 0.5d0)
    ok = all(zb(0, :, :) == -1d0) .and. all(zb(:, 0, :) == -1d0)
    do g = 1, n1g
      do k = 1, nkl
        do j = 1, n2l
          ok = ok .and. zb(j, k, g) == 2d0 * dble(v48(g, other, j, k0 - 1 + k)) + 0.5d0
        enddo
      enddo
    enddo
    call check(ok, 'forward '//trim(what))
    za(1:nil, 1:n2l, :) = -7.0
    call RPN_COMM_transpose48(za, 0, nil + 1, n1g, 0, n2l, n2l, 0, nkl, n3g, zb, -kind, 0.5d0, -0.25d0)
    ok = all(za(0, :, :) == -1.0) .and. all(za(nil + 1, :, :) == -1.0) .and. all(za(:, 0, :) == -1.0)
    do k = 1, n3g
      do j = 1, n2l
        do i = 1, nil
          ok = ok .and. za(i, j, k) == v48(i0 - 1 + i, other, j, k)
        enddo
      enddo
    enddo
    call check(ok, 'backward '//trim(what))
  end subroutine along48

  ! RPN_COMM_transpose_44 moves what RPN_COMM_transpose of 4-byte elements moves
  subroutine like_transpose(kind, np, mel)
    integer, intent(IN) :: kind, np, mel
    integer, parameter :: n1g = 7, n3g = 5, n2 = 3
    integer :: n1p, n3p
    integer, allocatable :: za(:,:,:), zb(:,:,:), zc(:,:,:), zd(:,:,:)
    n1p = (n1g + np - 1) / np
    n3p = (n3g + np - 1) / np
    allocate(za(0:n1p, n2, n3g), zb(n2, n3p, n1g), zc(0:n1p, n2, n3g), zd(n2, n3p, n1g))
    za = reshape([(mel * 100000 + kind * 1000000 + idx, idx = 1, size(za))], shape(za))
    zc = za
    zb = -1
    zd = -1
    call RPN_COMM_transpose(za, 0, n1p, n1g, n2, 1, n3p, n3g, zb, kind, 1)
    call RPN_COMM_transpose_44(zc, 0, n1p, n1g, n2, 1, n3p, n3g, zd, kind)
    call check(all(zb == zd), 'transpose_44 forward as RPN_COMM_transpose')
    zb = zb + 1
    zd = zd + 1
    call RPN_COMM_transpose(za, 0, n1p, n1g, n2, 1, n3p, n3g, zb, -kind, 1)
    call RPN_COMM_transpose_44(zc, 0, n1p, n1g, n2, 1, n3p, n3g, zd, -kind)
    call check(all(za == zc), 'transpose_44 backward as RPN_COMM_transpose')
    ! another direction does nothing
    call RPN_COMM_transpose_44(zc, 0, n1p, n1g, n2, 1, n3p, n3g, zd, 5)
    call check(all(za == zc) .and. all(zb == zd), 'transpose_44 direction 5 does nothing')
  end subroutine like_transpose

  ! npe = 1: zb(w, j, k, i) = za(w, i, j, k) for every column and level, whatever the split given
  subroutine xpose_one_pe()
    integer, parameter :: n1g = 4, n3g = 3, n2 = 2
    integer :: za(2, 0:n1g, n2, n3g), zb(2, n2, 1:n3g + 1, n1g), zc(2, 0:n1g, n2, n3g)
    integer :: i, j, k
    logical :: ok
    za = reshape([(idx, idx = 1, size(za))], shape(za))
    zb = -1
    call RPN_COMM_Xpose1(1, 1, -12345, 1, za, 0, n1g, n1g, n2, 1, n3g + 1, n3g, zb, 2)
    ok = all(zb(:, :, n3g + 1, :) == -1)
    do k = 1, n3g
      do j = 1, n2
        do i = 1, n1g
          ok = ok .and. all(zb(:, j, k, i) == za(:, i, j, k))
        enddo
      enddo
    enddo
    call check(ok, 'Xpose1 on one PE')
    zc = za
    za(:, 1:, :, :) = 0
    call RPN_COMM_Xpose2(1, 1, -12345, 1, za, 0, n1g, n1g, n2, 1, n3g + 1, n3g, zb, 2)
    call check(all(za == zc), 'Xpose2 on one PE')
  end subroutine xpose_one_pe

  real function vsum(gi, gj, k)
    integer, intent(IN) :: gi, gj, k
    vsum = 1.0 / real(gi + 7 * gj + 3 * k)
  end function vsum

  ! the sums in the original's order, on every PE
  subroutine global_sum()
    integer, parameter :: gni = 7, gnj = 5, nk = 2
    integer :: i0, i1, j0, j1, nil, njl, i, j, k, icnt(pex), ioff(pex), jcnt(pey), joff(pey)
    real, allocatable :: a(:,:,:)
    real :: s(nk), want(nk), row
    status = RPN_COMM_limit(mex, pex, 1, gni, i0, i1, icnt, ioff)
    status = RPN_COMM_limit(mey, pey, 1, gnj, j0, j1, jcnt, joff)
    nil = i1 - i0 + 1
    njl = j1 - j0 + 1
    allocate(a(-1:nil + 1, 0:njl + 2, nk))
    a = 1.0e30
    do k = 1, nk
      do j = 1, njl
        do i = 1, nil
          a(i, j, k) = vsum(i0 - 1 + i, j0 - 1 + j, k)
        enddo
      enddo
    enddo
    do k = 1, nk
      want(k) = 0.0
      do j = 1, gnj
        row = 0.0
        do i = 1, gni
          row = row + vsum(i, j, k)
        enddo
        want(k) = want(k) + row
      enddo
    enddo
    s = -1.0
    call RPN_COMM_globalsum(a, -1, nil + 1, 0, njl + 2, nk, nil, njl, maxval(jcnt), gnj, s)
    call check(all(transfer(s, 1, nk) == transfer(want, 1, nk)), 'globalsum in the original''s order')
  end subroutine global_sum

  ! the points squeezed to the front in order, then back in place
  subroutine squeeze()
    integer :: a(-1:4, 0:3, 2), b(-1:4, 0:3, 2), flat(12)
    real(kind=8) :: d(-1:4, 0:3, 2), e(-1:4, 0:3, 2), dflat(12)
    a = reshape([(idx, idx = 1, size(a))], shape(a))
    b = a
    flat = reshape(a(1:3, 1:2, :), [12])
    call RPN_COMM_compress(a, -1, 4, 0, 3, 3, 2, 2)
    call check(all(reshape(a, [12]) == flat), 'compress')
    call RPN_COMM_expand(a, -1, 4, 0, 3, 3, 2, 2)
    call check(all(a(1:3, 1:2, :) == b(1:3, 1:2, :)), 'expand')
    d = reshape([(idx * 1.5d0, idx = 1, size(d))], shape(d))
    e = d
    dflat = reshape(d(1:3, 1:2, :), [12])
    call RPN_COMM_compress8(d, -1, 4, 0, 3, 3, 2, 2)
    call check(all(reshape(d, [12]) == dflat), 'compress8')
    call RPN_COMM_expand8(d, -1, 4, 0, 3, 3, 2, 2)
    call check(all(d(1:3, 1:2, :) == e(1:3, 1:2, :)), 'expand8')
  end subroutine squeeze

  ! arrays too small: one line, the arrays untouched
  subroutine refused()
    integer :: a(9)
    real :: za(1, 2, 7)
    real(kind=8) :: zb(2, 7, 7)
    a = 3
    call RPN_COMM_compress(a, 2, 4, 1, 3, 3, 2, 1)
    call check(all(a == 3), 'compress refused, array untouched')
    za = 1.0
    zb = 2d0
    ! 7 columns over the line: more than one of them on this PE for a line of 1 or 2 PEs
    if (pex <= 2) then
      call RPN_COMM_transpose48(za, 1, 1, 7, 1, 2, 2, 1, 7, 7, zb, 1, 1d0, 0d0)
      call check(all(za == 1.0) .and. all(zb == 2d0), 'transpose48 refused, arrays untouched')
    endif
  end subroutine refused
end program test_transposes_legacy
