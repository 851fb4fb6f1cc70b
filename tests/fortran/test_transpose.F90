! PES: 1 2 3 4 6
! TIMEOUT: 120
! ENV: RPNCOMM_CHECK_COLLECTIVES=each
! OUTPUT_HAS@1: test_transpose: all checks passed
! OUTPUT_HAS@6: test_transpose: all checks passed
! OUTPUT_HAS@2: RPN_COMM_transpose: PE 1: bad argument: type 3
! OUTPUT_HAS@4: PE 0 is in RPN_COMM_barrier while PE 1 is in RPN_COMM_transpose
!
! RPN_COMM_transpose (the limited-area FFT solver's distributed transpose) on both transports,
! against values computed from global indices alone: on a pex x pey grid (1x1, 2x1, 3x1, 2x2,
! 3x2), along x ('EW', type 1 / -1) and y ('NS', type 2 / -2), with 1 and 2 words per element
! (size 1: integer; size 2: real*8, as GEM passes it) and uneven splits (n1g, n3g not multiples
! of the PEs, some PEs holding no column or no level). As in the solver, za has a halo in its
! first dimension (min1 = 0) and zb room beyond its levels (max3 = n3p + 1). Forward: every zb
! element that stands for a global (column, level) holds za's value there, the others untouched;
! backward gives za back, its halo untouched. Then a bad type is refused (one line) on every PE,
! and a PE in RPN_COMM_barrier while the rest of its row transposes fails them all, named (in the
! checking mode; test_transpose_default runs the rest in the default mode).
program test_transpose
  use ISO_C_BINDING
  implicit none
  include 'RPN_COMM.inc'
  integer :: me, npes, pex, pey, mex, mey, ierr, status, nerr
  ! The original's include leaves RPN_COMM_transpose undeclared (GEM calls it through an implicit
  ! interface, with arrays of any type); declared here so that integer and real*8 calls compile
  ! in one file without -fallow-argument-mismatch.
  interface
    subroutine RPN_COMM_transpose(za, min1, max1, n1g, n2, min3, max3, n3g, zb, type, size)
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
      type(*), dimension(*), intent(INOUT) :: za, zb
      integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, type, size
    end subroutine RPN_COMM_transpose
  end interface
  nerr = 0
  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)
  if (me == 0) write(*, '(A,I0,A,I0,A)') 'test_transpose: a ', pex, ' x ', pey, ' grid'

  call along(1, pex, mex, mey, 7, 5, 1)
  call along(1, pex, mex, mey, 5, 3, 2)
  call along(1, pex, mex, mey, 1, 1, 1)
  call along(2, pey, mey, mex, 6, 4, 1)
  call along(2, pey, mey, mex, 3, 7, 2)
  call real8_x()
  call refused()

  call RPN_COMM_allreduce(nerr, status, 1, 'MPI_INTEGER', 'MPI_SUM', 'GRID', ierr)
  if (me == 0) then
    if (status /= 0) then
      write(*, '(A,I0,A)') 'test_transpose: FAILED (', status, ' errors)'
    else
      write(*, '(A)') 'test_transpose: all checks passed'
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
      write(*, '(A,I0,A,A)') 'test_transpose: PE ', me, ' FAILED ', what
    endif
  end subroutine check

  ! the value of word w of global (column g, row j of the PE at `other`, level k)
  integer function val(g, other, j, k, w)
    integer, intent(IN) :: g, other, j, k, w
    val = (((g * 10 + other) * 10 + j) * 100 + k) * 4 + w
  end function val

  ! forward and back along one line of np PEs (this one at rank mel, at rank other across)
  subroutine along(kind, np, mel, other, n1g, n3g, size)
    integer, intent(IN) :: kind, np, mel, other, n1g, n3g, size
    integer :: n1p, n3p, cols, levels, n2, i, j, k, w, g
    integer, allocatable :: za(:,:,:,:), zb(:,:,:,:)
    logical :: ok
    character(len=80) :: what
    n1p = (n1g + np - 1) / np
    n3p = (n3g + np - 1) / np
    cols = max(0, min(n1p, n1g - mel * n1p))
    levels = max(0, min(n3p, n3g - mel * n3p))
    n2 = 2 + other          ! the PEs of one line share n2, the lines differ
    allocate(za(size, 0:n1p + 1, n2, n3g), zb(size, n2, 1:n3p + 1, n1g))
    za = -1
    zb = -1
    do k = 1, n3g
      do j = 1, n2
        do i = 1, cols
          do w = 1, size
            za(w, i, j, k) = val(mel * n1p + i, other, j, k, w)
          enddo
        enddo
      enddo
    enddo
    write(what, '(A,I0,A,I0,A,I0,A,I0)') 'type ', kind, ' n1g=', n1g, ' n3g=', n3g, ' size=', size
    call RPN_COMM_transpose(za, 0, n1p + 1, n1g, n2, 1, n3p + 1, n3g, zb, kind, size)
    ok = .true.
    do g = 1, n1g
      do k = 1, n3p + 1
        do j = 1, n2
          do w = 1, size
            if (k <= levels) then
              ok = ok .and. zb(w, j, k, g) == val(g, other, j, mel * n3p + k, w)
            else
              ok = ok .and. zb(w, j, k, g) == -1
            endif
          enddo
        enddo
      enddo
    enddo
    call check(ok, 'forward '//trim(what))
    ! backward into a cleared za: the same values again, the halo and columns beyond untouched
    za(:, 1:cols, :, :) = -7
    call RPN_COMM_transpose(za, 0, n1p + 1, n1g, n2, 1, n3p + 1, n3g, zb, -kind, size)
    ok = all(za(:, 0, :, :) == -1) .and. all(za(:, cols + 1:, :, :) == -1)
    do k = 1, n3g
      do j = 1, n2
        do i = 1, cols
          do w = 1, size
            ok = ok .and. za(w, i, j, k) == val(mel * n1p + i, other, j, k, w)
          enddo
        enddo
      enddo
    enddo
    call check(ok, 'backward '//trim(what))
    deallocate(za, zb)
  end subroutine along

  ! real*8 arrays with size = 2, as GEM's solver passes them, along x
  subroutine real8_x()
    integer, parameter :: n1g = 9, n3g = 4, n2 = 3
    real(kind=8), allocatable :: za(:,:,:), zb(:,:,:)
    integer :: n1p, n3p, cols, levels, i, j, k, g
    logical :: ok
    n1p = (n1g + pex - 1) / pex
    n3p = (n3g + pex - 1) / pex
    cols = max(0, min(n1p, n1g - mex * n1p))
    levels = max(0, min(n3p, n3g - mex * n3p))
    allocate(za(1:n1p, n2, n3g), zb(n2, n3p, n1g))
    za = -1d0
    zb = -1d0
    do k = 1, n3g
      do j = 1, n2
        do i = 1, cols
          za(i, j, k) = (mex * n1p + i) + j / 8d0 + k * 1000d0 + mey * 1d6
        enddo
      enddo
    enddo
    call RPN_COMM_transpose(za, 1, n1p, n1g, n2, 1, n3p, n3g, zb, 1, 2)
    ok = .true.
    do g = 1, n1g
      do k = 1, levels
        do j = 1, n2
          ok = ok .and. zb(j, k, g) == g + j / 8d0 + (mex * n3p + k) * 1000d0 + mey * 1d6
        enddo
      enddo
    enddo
    call check(ok, 'forward real*8 along x')
    za = 0d0
    call RPN_COMM_transpose(za, 1, n1p, n1g, n2, 1, n3p, n3g, zb, -1, 2)
    ok = .true.
    do k = 1, n3g
      do j = 1, n2
        do i = 1, cols
          ok = ok .and. za(i, j, k) == (mex * n1p + i) + j / 8d0 + k * 1000d0 + mey * 1d6
        enddo
      enddo
    enddo
    call check(ok, 'backward real*8 along x')
  end subroutine real8_x

  ! a type other than +-1, +-2 is refused on every PE, the arrays untouched
  subroutine refused()
    integer :: za(4), zb(4)
    za = 5
    zb = 6
    call RPN_COMM_transpose(za, 1, 1, 1, 1, 1, 1, 1, zb, 3, 1)
    call check(all(za == 5) .and. all(zb == 6), 'type 3 refused, arrays untouched')
    if (pex < 2) return
#ifndef DEFAULT_MODE
    if (mex == 0) then
      call RPN_COMM_barrier('EW', ierr)
      call check(ierr /= 0, 'a barrier among transposes refused')
    else
      call RPN_COMM_transpose(za, 1, 4, 4, 1, 1, 4, 4, zb, 1, 1)
      call check(all(za == 5) .and. all(zb == 6), 'a transpose beside a barrier refused, arrays untouched')
    endif
#endif
  end subroutine refused
end program test_transpose
