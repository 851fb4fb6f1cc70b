! PES: 1 2 3 4 6
! TIMEOUT: 120
! OUTPUT_HAS@4: test_gem_xz: all checks passed
! OUTPUT_HAS@6: test_gem_xz: all checks passed
! OUTPUT_HAS@2: RPN_MPI_transpose_setup: PE 0: bad argument: the row's levels [2, 2] do not add up to gnk = 5
! NOT_STANDARD: written as gemdyn's FFT solvers are, with RPN_MPI.hf's LoC (the LOC extension)
!
! MPI transport only. The stacked x-z transpose of GEM's FFT solvers, written as gemdyn's
! sol_fft_lam.F90 is: `use iso_c_binding`, implicit none, `#include <RPN_MPI.hf>` (which declares
! RPN_COMM_comm, RPN_MPI_transpose_setup, RPN_MPI_ez_transpose_xz, the RPN_MPI_Loc type and the LoC
! macro), the row and column from RPN_COMM_comm('EW') / ('NS'), real*8 arrays passed as twice as
! many 4-byte words. Against values computed from global indices: on a pex x pey grid, gnk levels
! cut unevenly over each row (some PEs with none), forward z(lni, lnj, gnk) -> zt(lni, lnj, lnk,
! npex) puts PE p's columns of this PE's levels in zt(:, :, :, p+1); backward (after zt is doubled)
! gives z doubled. Then levels that do not add up to gnk, and an lnkx other than the setup's, are
! refused with one line.
program test_gem_xz
  use ISO_C_BINDING
  implicit none
#include <RPN_MPI.hf>
  integer, parameter :: gnk = 7, lni = 3, lnj = 2
  integer :: me, npes, pex, pey, mex, mey, ierr, err, nerr, row, col, lnk, k0, p, i, j, k, total
  real(kind=8), allocatable, target :: z(:,:,:), zt(:,:,:,:)
  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  mex = mod(me, pex)
  mey = me / pex
  row = RPN_COMM_comm('EW')
  col = RPN_COMM_comm('NS')

  lnk = levels(mex)
  k0 = 0
  do p = 0, mex - 1
    k0 = k0 + levels(p)
  enddo
  call RPN_MPI_transpose_setup(gnk, lnk, row, col, err)
  call check(err == 0, 'RPN_MPI_transpose_setup')
  allocate(z(lni, lnj, gnk), zt(lni, lnj, max(lnk, 1), pex))
  do k = 1, gnk
    do j = 1, lnj
      do i = 1, lni
        z(i, j, k) = v(mex * lni + i, j, k)
      enddo
    enddo
  enddo
  zt = -1d0
  call RPN_MPI_ez_transpose_xz(LoC(z), &
                               LoC(zt), .true., lni * 2, lnj, lnk, err)
  call check(err == 0, 'forward RPN_MPI_ez_transpose_xz')
  do p = 1, pex
    do k = 1, lnk
      do j = 1, lnj
        do i = 1, lni
          call check(zt(i, j, k, p) == v((p - 1) * lni + i, j, k0 + k), 'forward values')
        enddo
      enddo
    enddo
  enddo
  zt = 2 * zt
  z = 0
  call RPN_MPI_ez_transpose_xz(LoC(z), &
                               LoC(zt), .false., lni * 2, lnj, lnk, err)
  call check(err == 0, 'backward RPN_MPI_ez_transpose_xz')
  do k = 1, gnk
    do j = 1, lnj
      do i = 1, lni
        call check(z(i, j, k) == 2 * v(mex * lni + i, j, k), 'backward values')
      enddo
    enddo
  enddo

  ! refusals: another lnkx than the setup's; levels that do not add up (2 per PE, gnk 5, at 2 PEs)
  if (pex == 2) then
    call RPN_MPI_ez_transpose_xz(LoC(z), &
                               LoC(zt), .true., lni * 2, lnj, lnk + 1, err)
    call check(err /= 0, 'an lnkx other than the setup''s refused')
    call RPN_MPI_transpose_setup(5, 2, row, col, err)
    call check(err /= 0, 'levels that do not add up refused')
  endif

  call RPN_COMM_allreduce(nerr, total, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (me == 0) then
    if (total /= 0) then
      write(*, '(A,I0,A)') 'test_gem_xz: FAILED (', total, ' errors)'
    else
      write(*, '(A)') 'test_gem_xz: all checks passed'
    endif
  endif
  call RPN_COMM_finalize(ierr)
  if (total /= 0) stop 1
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

  ! levels of the PE at x = p along the row: gnk / pex each, one more on the first ones
  integer function levels(p)
    integer, intent(IN) :: p
    levels = gnk / pex
    if (p < mod(gnk, pex)) levels = levels + 1
  end function levels

  real(kind=8) function v(gi, j, k)
    integer, intent(IN) :: gi, j, k
    v = gi * 10000 + (mey * lnj + j) * 100 + k + 0.5d0
  end function v

  subroutine check(ok, what)
    logical, intent(IN) :: ok
    character(len=*), intent(IN) :: what
    if (.not. ok) then
      nerr = nerr + 1
      if (nerr < 10) write(*, '(A,I0,A,A)') 'test_gem_xz: PE ', me, ' FAILED ', what
    endif
  end subroutine check
end program test_gem_xz
