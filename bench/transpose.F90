! transpose.F90 -- the limited-area FFT solver's transposes as GEM calls them every time step, timed:
! RPN_COMM_transpose forward and back along x (real*8, size 2; za with a halo column each side) of
! an n1g x n2 x n3g field, and the RPN_MPI stacked x-z transpose of the same field. Built against
! the original RPN_COMM and against this library by transpose.sh; prints one line per case:
! microseconds per forward+backward pair (median of 7 rounds of `reps` pairs, slowest PE).
program transpose_bench
  use ISO_C_BINDING
  implicit none
  integer, parameter :: n2 = 40, reps = 20
  integer :: me, npes, pex, pey, ierr, n1g, n3g, n1p, n3p, r, i, k, lnk, row, col, err, c
  integer, external :: RPN_COMM_comm, RPN_COMM_datyp
  logical :: have_mpi
  integer(kind=8) :: c0, c1, rate
  real(kind=8), allocatable :: za(:,:,:), zb(:,:,:)
  real(kind=8), allocatable, target :: z(:,:,:), zt(:,:,:,:)
  real(kind=8) :: times(7), worst
  integer :: cases(2, 3)
  type, bind(C) :: RPN_MPI_Loc
    type(C_PTR) :: p
  end type RPN_MPI_Loc
  interface
    subroutine RPN_MPI_ez_transpose_xz(z, zt, forward, lnix, lnjy, lnkx, ierr)
      import :: RPN_MPI_Loc
      type(RPN_MPI_Loc), intent(IN), value :: z, zt
      logical, intent(IN) :: forward
      integer, intent(IN) :: lnix, lnjy, lnkx
      integer, intent(OUT) :: ierr
    end subroutine RPN_MPI_ez_transpose_xz
  end interface
  external :: shape_x
  cases = reshape([64, 20, 200, 80, 400, 160], [2, 3])
  pex = 0
  pey = 0
  call RPN_COMM_init(shape_x, me, npes, pex, pey)
  ! the shared-memory build has no MPI handles (RPN_COMM_datyp gives -1): no RPN_MPI transpose there
  have_mpi = RPN_COMM_datyp('MPI_INTEGER') /= -1
  if (have_mpi) row = RPN_COMM_comm('EW')
  if (have_mpi) col = RPN_COMM_comm('NS')
  do c = 1, 3
    n1g = cases(1, c)
    n3g = cases(2, c)
    n1p = (n1g + npes - 1) / npes
    n3p = (n3g + npes - 1) / npes
    allocate(za(0:n1p + 1, n2, n3g), zb(n2, n3p, npes * n1p))
    za = me
    zb = 0
    do r = 1, 7
      call RPN_COMM_barrier('GRID', ierr)
      call system_clock(c0, rate)
      do i = 1, reps
        call RPN_COMM_transpose(za, 0, n1p + 1, n1g, n2, 1, n3p, n3g, zb, 1, 2)
        call RPN_COMM_transpose(za, 0, n1p + 1, n1g, n2, 1, n3p, n3g, zb, -1, 2)
      enddo
      call system_clock(c1)
      times(r) = real(c1 - c0, 8) / rate / reps * 1d6
    enddo
    call report('RPN_COMM_transpose', n1g, n3g)
    deallocate(za, zb)
    if (.not. have_mpi) cycle
    ! the stacked x-z transpose of the same field (levels n3g cut over the row)
    lnk = n3g / npes
    if (me < mod(n3g, npes)) lnk = lnk + 1
    call RPN_MPI_transpose_setup(n3g, lnk, row, col, err)
    allocate(z(n1p, n2, n3g), zt(n1p, n2, max(lnk, 1), npes))
    z = me
    do r = 1, 7
      call RPN_COMM_barrier('GRID', ierr)
      call system_clock(c0, rate)
      do i = 1, reps
        call RPN_MPI_ez_transpose_xz(RPN_MPI_Loc(c_loc(z)), RPN_MPI_Loc(c_loc(zt)), .true., 2 * n1p, n2, lnk, err)
        call RPN_MPI_ez_transpose_xz(RPN_MPI_Loc(c_loc(z)), RPN_MPI_Loc(c_loc(zt)), .false., 2 * n1p, n2, lnk, err)
      enddo
      call system_clock(c1)
      times(r) = real(c1 - c0, 8) / rate / reps * 1d6
    enddo
    call report('RPN_MPI_ez_transpose_xz', n1g, n3g)
    deallocate(z, zt)
  enddo
  call RPN_COMM_finalize(ierr)
contains
  subroutine report(what, n1g, n3g)
    character(len=*), intent(IN) :: what
    integer, intent(IN) :: n1g, n3g
    real(kind=8) :: med
    integer :: a, b
    real(kind=8) :: tmp
    do a = 1, 7
      do b = a + 1, 7
        if (times(b) < times(a)) then
          tmp = times(a); times(a) = times(b); times(b) = tmp
        endif
      enddo
    enddo
    med = times(4)
    call RPN_COMM_allreduce(med, worst, 1, 'MPI_DOUBLE_PRECISION', 'MPI_MAX', 'GRID', ierr)
    if (me == 0) write(*, '(A,A,I0,A,I0,A,I0,A,I0,A,F12.1)') what, ' n1g=', n1g, ' n2=', n2, ' n3g=', n3g, &
        ' PEs=', npes, ' us/pair=', worst
  end subroutine report
end program transpose_bench
subroutine shape_x(px, py)
  integer :: px, py
  py = 1
end subroutine shape_x
