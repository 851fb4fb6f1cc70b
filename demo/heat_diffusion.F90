! heat_diffusion.F90 -- a 2-D heat diffusion (Jacobi) over a Pex x Pey grid of PEs, with
! RPN_COMM_xch_halo at every step: the example to copy for a stencil code.
!
!   rpnrun -n 6 ./heat_diffusion        (or mpirun with the MPI build)
!
! The plate has GNI x GNJ points, periodic in x, with fixed temperatures beyond its south and
! north edges (the halo beyond a non-periodic edge is never written by the exchange, so it
! holds the boundary condition). Temperatures are integers and a step is an integer average,
! so every run computes exactly the same numbers: the checksum (the sum of the temperatures,
! 8-byte integers) is the same on every transport and PE count. PE 0 also runs the plate alone
! and stops with an error when the two differ.
program heat_diffusion
  use rpn_comm_windows
  implicit none
  integer, parameter :: GNI = 96, GNJ = 64, STEPS = 200, HALO = 1
  integer, parameter :: SOUTH_T = 0, NORTH_T = 1000000
  integer :: me, npes, pex, pey, mex, mey, status, ierr
  integer :: i0, i1, j0, j1, ni, nj, step
  integer, allocatable :: cx(:), ox(:), cy(:), oy(:)
  integer, allocatable :: t(:,:,:), tnew(:,:)
  integer(kind=8) :: mine, checksum, alone

  pex = 0
  pey = 0
  call RPN_COMM_init(grid_shape, me, npes, pex, pey)
  status = RPN_COMM_mype(me, mex, mey)

  ! this PE's part of the plate: RPN_COMM_limit cuts each direction as the original does
  allocate(cx(pex), ox(pex), cy(pey), oy(pey))
  if (RPN_COMM_limit(mex, pex, 1, GNI, i0, i1, cx, ox) /= 0) error stop 'cannot cut GNI over Pex'
  if (RPN_COMM_limit(mey, pey, 1, GNJ, j0, j1, cy, oy) /= 0) error stop 'cannot cut GNJ over Pey'
  ni = i1 - i0 + 1
  nj = j1 - j0 + 1

  ! the field with its halo; the exchange takes (minx:maxx, miny:maxy, nk) arrays
  allocate(t(1 - HALO:ni + HALO, 1 - HALO:nj + HALO, 1), tnew(ni, nj))
  call initial(t(:, :, 1), i0, j0)
  do step = 1, STEPS
    call RPN_COMM_xch_halo(t, 1 - HALO, ni + HALO, 1 - HALO, nj + HALO, ni, nj, 1, HALO, HALO, &
                           .true., .false., GNI, 0)
    call jacobi(t(:, :, 1), tnew, ni, nj)
    t(1:ni, 1:nj, 1) = tnew
  enddo

  mine = sum(int(t(1:ni, 1:nj, 1), kind=8))
  call RPN_COMM_allreduce(mine, checksum, 1, RPN_COMM_INTEGER8, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  if (ierr /= RPN_COMM_OK) error stop 'allreduce failed'
  if (me == 0) then
    alone = whole_plate()
    write(*, '(A,I0,A,I0,A,I0,A,I0)') 'heat_diffusion: ', pex, ' x ', pey, ' PEs, checksum = ', checksum, &
                                      ', one PE alone = ', alone
    if (alone /= checksum) error stop 'heat_diffusion: the checksum differs from the plate computed alone'
  endif
  call RPN_COMM_finalize(ierr)

contains

  ! Userinit: the most square Pex x Pey grid of the PEs, Pex >= Pey.
  subroutine grid_shape(px, py)
    integer, intent(INOUT) :: px, py
    integer :: n
    n = px * py
    py = int(sqrt(real(n)))
    do while (mod(n, py) /= 0)
      py = py - 1
    enddo
    px = n / py
  end subroutine grid_shape

  ! A hot square in a cold plate, the boundary conditions in the south and north halos.
  subroutine initial(f, i0, j0)
    integer, intent(INOUT) :: f(1 - HALO:, 1 - HALO:)
    integer, intent(IN) :: i0, j0
    integer :: i, j, gi, gj
    do j = lbound(f, 2), ubound(f, 2)
      do i = lbound(f, 1), ubound(f, 1)
        gi = i0 + i - 1
        gj = j0 + j - 1
        f(i, j) = 0
        if (abs(gi - GNI / 3) < 8 .and. abs(gj - GNJ / 2) < 8) f(i, j) = NORTH_T / 2
        if (gj < 1) f(i, j) = SOUTH_T
        if (gj > GNJ) f(i, j) = NORTH_T
      enddo
    enddo
  end subroutine initial

  ! One Jacobi step: the new temperature is an integer weighted average of the point and its
  ! four neighbours (exact, so the result does not depend on how the plate is cut).
  subroutine jacobi(f, fnew, ni, nj)
    integer, intent(IN) :: ni, nj
    integer, intent(IN) :: f(1 - HALO:, 1 - HALO:)
    integer, intent(OUT) :: fnew(ni, nj)
    integer :: i, j
    do j = 1, nj
      do i = 1, ni
        fnew(i, j) = (4 * f(i, j) + f(i - 1, j) + f(i + 1, j) + f(i, j - 1) + f(i, j + 1)) / 8
      enddo
    enddo
  end subroutine jacobi

  ! The same plate on one PE, the periodic x halo copied by hand: the reference.
  integer(kind=8) function whole_plate() result(total)
    integer, allocatable :: g(:,:), gnew(:,:)
    integer :: s
    allocate(g(1 - HALO:GNI + HALO, 1 - HALO:GNJ + HALO), gnew(GNI, GNJ))
    call initial(g, 1, 1)
    do s = 1, STEPS
      g(1 - HALO:0, 1:GNJ) = g(GNI - HALO + 1:GNI, 1:GNJ)
      g(GNI + 1:GNI + HALO, 1:GNJ) = g(1:HALO, 1:GNJ)
      call jacobi(g, gnew, GNI, GNJ)
      g(1:GNI, 1:GNJ) = gnew
    enddo
    total = sum(int(g(1:GNI, 1:GNJ), kind=8))
  end function whole_plate
end program heat_diffusion
