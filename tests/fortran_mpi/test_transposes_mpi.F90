! PES: 1 2 4 6
! TIMEOUT: 120
! OUTPUT_HAS@2: test_transposes_mpi: all checks passed
! OUTPUT_HAS@4: test_transposes_mpi: all checks passed
! OUTPUT_HAS@6: test_transposes_mpi: all checks passed
! OUTPUT_HAS@1: test_transposes_mpi: all checks passed
! OUTPUT_HAS@2: fwd xz :
! OUTPUT_HAS@2: RPN_COMM_Xpose1: PE 0: bad argument: npe = 3 but the communicator has 2 PEs
! NOT_STANDARD: written as gemdyn's FFT solvers are, with RPN_MPI.hf's LoC (the LOC extension)
!
! MPI transport only: the transposes that take the caller's MPI communicators, on a pex x pey grid
! (1x1, 2x1, 2x2, 3x2), with the row and column from RPN_COMM_comm('EW') / ('NS'):
! - RPN_COMM_Xpose1 / _Xpose2 over the row with RPN_COMM_transpose's split give its zb and za;
! - RPN_COMM_Xpose148 / _Xpose248 over the column give RPN_COMM_transpose48's (type 2) zb_8, za;
! - RPN_MPI_transpose_xz and _xz_s over the row give RPN_MPI_ez_transpose_xz's zt and z back;
! - RPN_MPI_transpose_xy, _xy_s and RPN_MPI_ez_transpose_xy over the column: block q of this PE's
!   zt is what the column's PE q put in its block for this PE, and backward gives z back;
! - RPN_MPI_print_transpose_times writes its four lines.
! Then an npe other than the communicator's PEs is refused with one line.
program test_transposes_mpi
  use ISO_C_BINDING
  implicit none
#include <RPN_MPI.hf>
  integer, external :: RPN_COMM_limit
  interface
    subroutine RPN_COMM_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, type, size)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, type, size
    end subroutine RPN_COMM_transpose
  end interface
  integer :: me, npes, pex, pey, mex, mey, ierr, status, nerr, row, col, idx
  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  mex = mod(me, pex)
  mey = me / pex
  row = RPN_COMM_comm('EW')
  col = RPN_COMM_comm('NS')

  call xpose12()
  call xpose48()
  call xz()
  call xy()
  if (me == 0) call RPN_MPI_print_transpose_times()
  if (pex == 2) call refused()

  call RPN_COMM_allreduce(nerr, status, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (me == 0) then
    if (status /= 0) then
      write(*, '(A,I0,A)') 'test_transposes_mpi: FAILED (', status, ' errors)'
    else
      write(*, '(A)') 'test_transposes_mpi: all checks passed'
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
      if (nerr < 10) write(*, '(A,I0,A,A)') 'test_transposes_mpi: PE ', me, ' FAILED ', what
    endif
  end subroutine check

  subroutine xpose12()
    integer, parameter :: n1g = 7, n3g = 5, n2 = 3
    integer :: n1p, n3p
    integer, allocatable :: za(:,:,:,:), zb(:,:,:,:), zc(:,:,:,:), zd(:,:,:,:)
    n1p = (n1g + pex - 1) / pex
    n3p = (n3g + pex - 1) / pex
    allocate(za(2, 0:n1p, n2, n3g), zb(2, n2, n3p, n1g), zc(2, 0:n1p, n2, n3g), zd(2, n2, n3p, n1g))
    za = reshape([(me * 100000 + idx, idx = 1, size(za))], shape(za))
    zc = za
    zb = -1
    zd = -1
    call RPN_COMM_transpose(za, 0, n1p, n1g, n2, 1, n3p, n3g, zb, 1, 2)
    call RPN_COMM_Xpose1(n3p, pex, row, n1p, zc, 0, n1p, n1g, n2, 1, n3p, n3g, zd, 2)
    call check(all(zb == zd), 'Xpose1 as RPN_COMM_transpose')
    zb = zb + 3
    zd = zd + 3
    call RPN_COMM_transpose(za, 0, n1p, n1g, n2, 1, n3p, n3g, zb, -1, 2)
    call RPN_COMM_Xpose2(n3p, pex, row, n1p, zc, 0, n1p, n1g, n2, 1, n3p, n3g, zd, 2)
    call check(all(za == zc), 'Xpose2 as RPN_COMM_transpose')
  end subroutine xpose12

  subroutine xpose48()
    integer, parameter :: n1g = 6, n3g = 4, n2l = 2
    integer :: i0, i1, k0, k1, nil, nkl, icnt(pey), ioff(pey), kcnt(pey), koff(pey)
    real, allocatable :: za(:,:,:), zc(:,:,:)
    real(kind=8), allocatable :: zb(:,:,:), zd(:,:,:)
    status = RPN_COMM_limit(mey, pey, 1, n1g, i0, i1, icnt, ioff)
    status = RPN_COMM_limit(mey, pey, 1, n3g, k0, k1, kcnt, koff)
    nil = i1 - i0 + 1
    nkl = k1 - k0 + 1
    allocate(za(nil, n2l, n3g), zc(nil, n2l, n3g), zb(n2l, nkl, n1g), zd(n2l, nkl, n1g))
    za = reshape([(me * 1000 + idx + 0.5, idx = 1, size(za))], shape(za))
    zc = za
    zb = -1d0
    zd = -1d0
    call RPN_COMM_transpose48(za, 1, nil, n1g, 1, n2l, n2l, 1, nkl, n3g, zb, 2, 3d0, 1d0)
    call RPN_COMM_Xpose148(pey, col, zc, 1, nil, n1g, 1, n2l, n2l, 1, nkl, n3g, zd, 3d0, 1d0)
    call check(all(zb == zd), 'Xpose148 as RPN_COMM_transpose48')
    za = 0.0
    zc = 0.0
    call RPN_COMM_transpose48(za, 1, nil, n1g, 1, n2l, n2l, 1, nkl, n3g, zb, -2, 1d0, -1d0)
    call RPN_COMM_Xpose248(pey, col, zc, 1, nil, n1g, 1, n2l, n2l, 1, nkl, n3g, zd, 1d0, -1d0)
    call check(all(za == zc) .and. all(za /= 0.0), 'Xpose248 as RPN_COMM_transpose48')
  end subroutine xpose48

  integer function levels(p, gnk)
    integer, intent(IN) :: p, gnk
    levels = gnk / pex
    if (p < mod(gnk, pex)) levels = levels + 1
  end function levels

  subroutine xz()
    integer, parameter :: gnk = 5, lni = 3, lnj = 2
    integer :: lnk, err
    integer, allocatable, target :: z(:,:,:), zt(:,:,:,:), z2(:,:,:), zt2(:,:,:,:)
    lnk = levels(mex, gnk)
    allocate(z(lni, lnj, gnk), zt(lni, lnj, max(lnk, 1), pex), z2(lni, lnj, gnk), zt2(lni, lnj, max(lnk, 1), pex))
    z = reshape([(me * 1000 + idx, idx = 1, size(z))], shape(z))
    z2 = z
    zt = -1
    zt2 = -1
    call RPN_MPI_transpose_setup(gnk, lnk, row, col, err)
    call RPN_MPI_ez_transpose_xz(LoC(z), &
                                 LoC(zt), .true., lni, lnj, lnk, err)
    call RPN_MPI_transpose_xz(LoC(z2), &
                              LoC(zt2), .true., lni, lnj, gnk, lnk, row, err)
    call check(err == 0 .and. all(zt == zt2), 'RPN_MPI_transpose_xz as RPN_MPI_ez_transpose_xz')
    zt2 = -1
    call RPN_MPI_transpose_xz_s(LoC(z2), &
                                LoC(zt2), .true., lni, lnj, gnk, lnk, row, err)
    call check(err == 0 .and. all(zt == zt2), 'RPN_MPI_transpose_xz_s as RPN_MPI_ez_transpose_xz')
    z2 = 0
    call RPN_MPI_transpose_xz(LoC(z2), &
                              LoC(zt2), .false., lni, lnj, gnk, lnk, row, err)
    call check(err == 0 .and. all(z2 == z), 'RPN_MPI_transpose_xz backward')
    z2 = 0
    call RPN_MPI_transpose_xz_s(LoC(z2), &
                                LoC(zt2), .false., lni, lnj, gnk, lnk, row, err)
    call check(err == 0 .and. all(z2 == z), 'RPN_MPI_transpose_xz_s backward')
  end subroutine xz

  subroutine xy()
    integer, parameter :: lni = 2, lnj = 3, lnk = 2
    integer :: err, q, i, j, k
    logical :: ok
    integer, allocatable, target :: z(:,:,:,:), zt(:,:,:,:), z2(:,:,:,:)
    allocate(z(lni, lnj, lnk, pey), zt(lni, lnj, lnk, pey), z2(lni, lnj, lnk, pey))
    ! block q (for the column's PE q-1) of PE mey: 1000 * mey + 100 * q + its index in the block
    do q = 1, pey
      do k = 1, lnk
        do j = 1, lnj
          do i = 1, lni
            z(i, j, k, q) = 1000 * mey + 100 * q + i + 3 * (j + 4 * k)
          enddo
        enddo
      enddo
    enddo
    call RPN_MPI_transpose_setup(lnk * pex, lnk, row, col, err)
    zt = -1
    call RPN_MPI_transpose_xy(LoC(z), &
                              LoC(zt), .true., lni, lnj, lnk, col, err)
    ok = err == 0
    do q = 1, pey
      do k = 1, lnk
        do j = 1, lnj
          do i = 1, lni
            ok = ok .and. zt(i, j, k, q) == 1000 * (q - 1) + 100 * (mey + 1) + i + 3 * (j + 4 * k)
          enddo
        enddo
      enddo
    enddo
    call check(ok, 'RPN_MPI_transpose_xy forward')
    z2 = 0
    call RPN_MPI_transpose_xy(LoC(z2), &
                              LoC(zt), .false., lni, lnj, lnk, col, err)
    call check(err == 0 .and. all(z2 == z), 'RPN_MPI_transpose_xy backward')
    z2 = -1
    call RPN_MPI_transpose_xy_s(LoC(z), &
                                LoC(z2), .true., lni, lnj, lnk, col, err)
    call check(err == 0 .and. all(z2 == zt), 'RPN_MPI_transpose_xy_s forward')
    z2 = -1
    call RPN_MPI_ez_transpose_xy(LoC(z), &
                                 LoC(z2), .true., lni, lnj, lnk, err)
    call check(err == 0 .and. all(z2 == zt), 'RPN_MPI_ez_transpose_xy forward')
    z2 = 0
    call RPN_MPI_ez_transpose_xy(LoC(z2), &
                                 LoC(zt), .false., lni, lnj, lnk, err)
    call check(err == 0 .and. all(z2 == z), 'RPN_MPI_ez_transpose_xy backward')
  end subroutine xy

  subroutine refused()
    integer :: za(2, 4, 2, 3), zb(2, 2, 2, 6)
    za = 1
    zb = 2
    call RPN_COMM_Xpose1(2, 3, row, 2, za, 1, 4, 6, 2, 1, 2, 3, zb, 2)
    call check(all(za == 1) .and. all(zb == 2), 'Xpose1 npe 3 on a row of 2 refused, arrays untouched')
  end subroutine refused
end program test_transposes_mpi
