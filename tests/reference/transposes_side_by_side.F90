! transposes_side_by_side.F90 -- the original's other transposes and its global sum, built against
! the original RPN_COMM and against this library by side_by_side.sh, which compares what they
! print, every value as its bits: RPN_COMM_Xpose1 / _Xpose2 over the row (4- and 8-byte
! elements), RPN_COMM_transpose48 along x and y, RPN_COMM_Xpose148 / _Xpose248 over the row,
! RPN_COMM_transpose_44 on lines of one PE, RPN_COMM_globalsum, RPN_COMM_compress8 / _expand8, and
! the RPN_MPI layer's RPN_MPI_transpose_xz(_s), _transpose_xy(_s) and _ez_transpose_xy.
! The cases stay where 4.6.3 works as documented (docs/gem.md lists where it does not): whole
! blocks for Xpose1/2, a = 1 and b = 0 for the backward transpose48 on several PEs, lines of one
! PE for transpose_44, rows of the same count for the global sum, the 8-byte compress. The row
! and column are the module's pe_myrow and pe_mycol (4.6.3's RPN_COMM_comm('EW') gives another
! communicator).
program transposes_side_by_side
  use ISO_C_BINDING
  use rpn_comm, only: pe_myrow, pe_mycol
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, mex, mey, status, ierr, row, col
  external :: transposes_side_grid

  pex = 0
  pey = 0
  call RPN_COMM_init(transposes_side_grid, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  row = pe_myrow
  col = pe_mycol
  call xpose12(1)
  call xpose12(2)
  call along48(1, pex, mex, mey)
  call along48(2, pey, mey, mex)
  call xpose48()
  if (pex == 1) call t44(1, mey)
  if (pey == 1) call t44(2, mex)
  call gsum()
  call squeeze8()
  call rpn_mpi_side(me, pex, pey, mex, mey, row, col)
  call RPN_COMM_finalize(ierr)
contains
  subroutine xpose12(size)
    integer, intent(IN) :: size
    integer, parameter :: n1g = 6, n3g = 6, n2 = 2
    integer :: n1p, n3p, i, j, k, w
    integer, allocatable :: za(:,:,:,:), zb(:,:,:,:)
    n1p = n1g / pex
    n3p = n3g / pex
    allocate(za(size, 0:n1p, n2, n3g), zb(size, n2, n3p, n1g))
    za = -1
    do k = 1, n3g
      do j = 1, n2
        do i = 1, n1p
          za(:, i, j, k) = [((((mex * n1p + i) * 10 + j) * 10 + k) * 10 + mey + 7 * w, w = 1, size)]
        enddo
      enddo
    enddo
    zb = -1
    call RPN_COMM_Xpose1(n3p, pex, row, n1p, za, 0, n1p, n1g, n2, 1, n3p, n3g, zb, size)
    write(*, '(A,I0,A,I0,A,*(1X,Z8))') 'pe ', me, ' xpose1 size ', size, ' :', zb
    zb = zb + 5
    za(:, 1:, :, :) = 0
    call RPN_COMM_Xpose2(n3p, pex, row, n1p, za, 0, n1p, n1g, n2, 1, n3p, n3g, zb, size)
    write(*, '(A,I0,A,I0,A,*(1X,Z8))') 'pe ', me, ' xpose2 size ', size, ' :', za
  end subroutine xpose12

  real function v48(g, other, j, k)
    integer, intent(IN) :: g, other, j, k
    v48 = real(((g * 10 + other) * 10 + j) * 100 + k) / 3.0
  end function v48

  subroutine along48(kind, np, mel, other)
    integer, intent(IN) :: kind, np, mel, other
    integer, parameter :: n1g = 7, n3g = 5, n2l = 2
    integer :: i0, i1, k0, k1, nil, nkl, i, j, k, icnt(np), ioff(np), kcnt(np), koff(np)
    real, allocatable :: za(:,:,:)
    real(kind=8), allocatable :: zb(:,:,:)
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
    call RPN_COMM_transpose48(za, 0, nil + 1, n1g, 0, n2l, n2l, 0, nkl, n3g, zb, kind, 2d0, 0.5d0)
    write(*, '(A,I0,A,I0,A,*(1X,Z16))') 'pe ', me, ' transpose48 ', kind, ' :', zb(1:n2l, 1:nkl, :)
    zb = zb * 3
    za(1:nil, 1:n2l, :) = 0.0
    call RPN_COMM_transpose48(za, 0, nil + 1, n1g, 0, n2l, n2l, 0, nkl, n3g, zb, -kind, 1d0, 0d0)
    write(*, '(A,I0,A,I0,A,*(1X,Z8))') 'pe ', me, ' transpose48 ', -kind, ' :', za
  end subroutine along48

  subroutine xpose48()
    integer, parameter :: n1g = 6, n3g = 6, n2l = 3
    integer :: i0, i1, k0, k1, nil, nkl, idx, icnt(pex), ioff(pex), kcnt(pex), koff(pex)
    real, allocatable :: za(:,:,:)
    real(kind=8), allocatable :: zb(:,:,:)
    status = RPN_COMM_limit(mex, pex, 1, n1g, i0, i1, icnt, ioff)
    status = RPN_COMM_limit(mex, pex, 1, n3g, k0, k1, kcnt, koff)
    nil = i1 - i0 + 1
    nkl = k1 - k0 + 1
    allocate(za(nil, n2l, n3g), zb(n2l, nkl, n1g))
    za = reshape([(real(me * 1000 + idx) / 7.0, idx = 1, size(za))], shape(za))
    zb = -1d0
    call RPN_COMM_Xpose148(pex, row, za, 1, nil, n1g, 1, n2l, n2l, 1, nkl, n3g, zb, 1.5d0, -2d0)
    write(*, '(A,I0,A,*(1X,Z16))') 'pe ', me, ' xpose148 :', zb
    za = 0.0
    call RPN_COMM_Xpose248(pex, row, za, 1, nil, n1g, 1, n2l, n2l, 1, nkl, n3g, zb, 1d0, 0d0)
    write(*, '(A,I0,A,*(1X,Z8))') 'pe ', me, ' xpose248 :', za
  end subroutine xpose48

  ! a line of one PE: RPN_COMM_transpose_44 forward and back
  subroutine t44(kind, other)
    integer, intent(IN) :: kind, other
    integer, parameter :: n1g = 4, n2 = 2, n3g = 3
    integer :: za(0:n1g, n2, n3g), zb(n2, n3g, n1g), idx
    za = reshape([(other * 1000 + idx, idx = 1, size(za))], shape(za))
    zb = -1
    call RPN_COMM_transpose_44(za, 0, n1g, n1g, n2, 1, n3g, n3g, zb, kind)
    write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' transpose_44 ', kind, ' :', zb
    zb = zb * 2
    call RPN_COMM_transpose_44(za, 0, n1g, n1g, n2, 1, n3g, n3g, zb, -kind)
    write(*, '(A,I0,A,I0,A,*(1X,I0))') 'pe ', me, ' transpose_44 ', -kind, ' :', za
  end subroutine t44

  subroutine gsum()
    integer, parameter :: gni = 6, gnj = 6, nk = 3
    integer :: i0, i1, j0, j1, nil, njl, i, j, k, icnt(pex), ioff(pex), jcnt(pey), joff(pey)
    real, allocatable :: a(:,:,:)
    real :: s(nk)
    status = RPN_COMM_limit(mex, pex, 1, gni, i0, i1, icnt, ioff)
    status = RPN_COMM_limit(mey, pey, 1, gnj, j0, j1, jcnt, joff)
    nil = i1 - i0 + 1
    njl = j1 - j0 + 1
    allocate(a(-1:nil + 1, 0:njl + 1, nk))
    a = 1.0e30
    do k = 1, nk
      do j = 1, njl
        do i = 1, nil
          a(i, j, k) = 1.0 / real(i0 - 1 + i + 7 * (j0 - 1 + j) + 3 * k) * (-1.0)**(i + j)
        enddo
      enddo
    enddo
    s = -1.0
    call RPN_COMM_globalsum(a, -1, nil + 1, 0, njl + 1, nk, nil, njl, njl, gnj, s)
    write(*, '(A,I0,A,*(1X,Z8))') 'pe ', me, ' globalsum :', s
  end subroutine gsum

  subroutine squeeze8()
    real(kind=8) :: d(-1:4, 0:3, 2)
    integer :: idx
    d = reshape([(idx * 1.5d0 + me, idx = 1, size(d))], shape(d))
    call RPN_COMM_compress8(d, -1, 4, 0, 3, 3, 2, 2)
    write(*, '(A,I0,A,*(1X,Z16))') 'pe ', me, ' compress8 :', d(-1:4, 0:1, 1)
    d(:, 2:3, 1) = 0d0
    d(:, :, 2) = 0d0
    call RPN_COMM_expand8(d, -1, 4, 0, 3, 3, 2, 2)
    write(*, '(A,I0,A,*(1X,Z16))') 'pe ', me, ' expand8 :', d(1:3, 1:2, :)
  end subroutine squeeze8
end program transposes_side_by_side

! The RPN_MPI layer's x-z transposes with the row given, and its x-y transposes (4-byte words)
subroutine rpn_mpi_side(me, pex, pey, mex, mey, row, col)
  use ISO_C_BINDING
  implicit none
#include <RPN_MPI.hf>
  integer, intent(IN) :: me, pex, pey, mex, mey, row, col
  integer, parameter :: gnk = 5, lni = 3, lnj = 2
  integer :: lnk, err, idx
  integer, allocatable :: z(:,:,:), zt(:,:,:,:), y(:,:,:,:), yt(:,:,:,:)
  lnk = gnk / pex
  if (mex < mod(gnk, pex)) lnk = lnk + 1
  allocate(z(lni, lnj, gnk), zt(lni, lnj, max(lnk, 1), pex))
  z = reshape([(me * 1000 + idx, idx = 1, size(z))], shape(z))
  zt = -1
  call RPN_MPI_transpose_xz(LoC(z), &
                            LoC(zt), .true., lni, lnj, gnk, lnk, row, err)
  write(*, '(A,I0,A,I3,A,*(1X,I0))') 'pe ', me, ' transpose_xz fwd', err, ' :', zt(:, :, 1:lnk, :)
  zt = zt * 2
  z = 0
  call RPN_MPI_transpose_xz_s(LoC(z), &
                              LoC(zt), .false., lni, lnj, gnk, lnk, row, err)
  write(*, '(A,I0,A,I3,A,*(1X,I0))') 'pe ', me, ' transpose_xz_s inv', err, ' :', z
  call RPN_MPI_transpose_setup(gnk, lnk, row, col, err)
  allocate(y(2, 3, 2, pey), yt(2, 3, 2, pey))
  y = reshape([(mey * 1000 + mex * 100 + idx, idx = 1, size(y))], shape(y))
  yt = -1
  call RPN_MPI_transpose_xy(LoC(y), &
                            LoC(yt), .true., 2, 3, 2, col, err)
  write(*, '(A,I0,A,I3,A,*(1X,I0))') 'pe ', me, ' transpose_xy fwd', err, ' :', yt
  yt = yt + 3
  call RPN_MPI_transpose_xy_s(LoC(y), &
                              LoC(yt), .false., 2, 3, 2, col, err)
  write(*, '(A,I0,A,I3,A,*(1X,I0))') 'pe ', me, ' transpose_xy_s inv', err, ' :', y
  yt = -1
  call RPN_MPI_ez_transpose_xy(LoC(y), &
                               LoC(yt), .true., 2, 3, 2, err)
  write(*, '(A,I0,A,I3,A,*(1X,I0))') 'pe ', me, ' ez_transpose_xy fwd', err, ' :', yt
  if (me == 0) call RPN_MPI_print_transpose_times()
end subroutine rpn_mpi_side

subroutine transposes_side_grid(px, py)
  integer :: px, py, n, ierr
  call RPN_COMM_size('GRID', n, ierr)
  px = n
  py = 1
  if (n == 4) px = 2
  if (n == 4) py = 2
  if (n == 6) px = 3
  if (n == 6) py = 2
end subroutine transposes_side_grid
