! heat_diffusion.F90 -- a 2-D heat diffusion (Jacobi) over a Pex x Pey grid of PEs, the
! temperature and a dye diffusing in it, their halos exchanged together at every step while the
! interior is computed: the example to copy for a stencil code.
!
! The two fields form a halo list (RPN_COMM_xch_halo_list_new / _add): one message per
! neighbour carries both. RPN_COMM_xch_halo_start sends the faces; the points that need no halo
! are computed meanwhile; RPN_COMM_xch_halo_finish fills the halos, then the rim is computed.
! (One field alone: RPN_COMM_xch_halo(t, ...) does the same in one call.)
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
  integer, parameter :: SOUTH_T = 0, NORTH_T = 1000000, DROP = 3000
  integer :: me, npes, pex, pey, mex, mey, status, ierr
  integer :: i0, i1, j0, j1, ni, nj, step, fields
  integer, allocatable :: cx(:), ox(:), cy(:), oy(:)
  integer, allocatable :: t(:,:,:), tnew(:,:), dye(:,:,:), dnew(:,:)
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

  ! the fields with their halo; the exchange takes (minx:maxx, miny:maxy, nk) arrays
  allocate(t(1 - HALO:ni + HALO, 1 - HALO:nj + HALO, 1), tnew(ni, nj))
  allocate(dye(1 - HALO:ni + HALO, 1 - HALO:nj + HALO, 1), dnew(ni, nj))
  call initial(t(:, :, 1), i0, j0, NORTH_T / 2)
  call initial(dye(:, :, 1), i0, j0, DROP)
  ! both fields in one list: same grid and halo (each its own nk, here 1, and 4-byte elements)
  call RPN_COMM_xch_halo_list_new(fields, 1 - HALO, ni + HALO, 1 - HALO, nj + HALO, ni, nj, HALO, HALO, &
                                  .true., .false., GNI, 0, ierr)
  call RPN_COMM_xch_halo_list_add(fields, t, 1, 1, ierr)
  call RPN_COMM_xch_halo_list_add(fields, dye, 1, 1, ierr)
  if (ierr /= RPN_COMM_OK) error stop 'cannot make the halo list'
  do step = 1, STEPS
    call RPN_COMM_xch_halo_start(fields, ierr)
    ! while the halos travel: the points whose stencil stays inside this PE's part
    call jacobi(t(:, :, 1), tnew, ni, nj, 2, ni - 1, 2, nj - 1)
    call jacobi(dye(:, :, 1), dnew, ni, nj, 2, ni - 1, 2, nj - 1)
    call RPN_COMM_xch_halo_finish(fields, ierr)
    if (ierr /= RPN_COMM_OK) error stop 'halo exchange failed'
    call rim(t(:, :, 1), tnew, ni, nj)
    call rim(dye(:, :, 1), dnew, ni, nj)
    t(1:ni, 1:nj, 1) = tnew
    dye(1:ni, 1:nj, 1) = dnew
  enddo
  call RPN_COMM_xch_halo_list_free(fields, ierr)

  mine = sum(int(t(1:ni, 1:nj, 1), kind=8)) + sum(int(dye(1:ni, 1:nj, 1), kind=8))
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

  ! A hot square (or a drop of dye: `inside`) in a cold plate, the boundary conditions in the
  ! south and north halos (the dye sees the same walls as the heat: one function for both).
  subroutine initial(f, i0, j0, inside)
    integer, intent(INOUT) :: f(1 - HALO:, 1 - HALO:)
    integer, intent(IN) :: i0, j0, inside
    integer :: i, j, gi, gj
    do j = lbound(f, 2), ubound(f, 2)
      do i = lbound(f, 1), ubound(f, 1)
        gi = i0 + i - 1
        gj = j0 + j - 1
        f(i, j) = 0
        if (abs(gi - GNI / 3) < 8 .and. abs(gj - GNJ / 2) < 8) f(i, j) = inside
        if (gj < 1) f(i, j) = SOUTH_T
        if (gj > GNJ) f(i, j) = NORTH_T
      enddo
    enddo
  end subroutine initial

  ! One Jacobi step over points i1..i2 x j1..j2: the new value is an integer weighted average of
  ! the point and its four neighbours (exact, so the result does not depend on how the plate is
  ! cut, nor on the order the points are computed in).
  subroutine jacobi(f, fnew, ni, nj, i1, i2, j1, j2)
    integer, intent(IN) :: ni, nj, i1, i2, j1, j2
    integer, intent(IN) :: f(1 - HALO:, 1 - HALO:)
    integer, intent(INOUT) :: fnew(ni, nj)
    integer :: i, j
    do j = j1, j2
      do i = i1, i2
        fnew(i, j) = (4 * f(i, j) + f(i - 1, j) + f(i + 1, j) + f(i, j - 1) + f(i, j + 1)) / 8
      enddo
    enddo
  end subroutine jacobi

  ! The points next to the edges, which need the halos (once they are filled).
  subroutine rim(f, fnew, ni, nj)
    integer, intent(IN) :: ni, nj
    integer, intent(IN) :: f(1 - HALO:, 1 - HALO:)
    integer, intent(INOUT) :: fnew(ni, nj)
    call jacobi(f, fnew, ni, nj, 1, ni, 1, 1)
    call jacobi(f, fnew, ni, nj, 1, ni, nj, nj)
    call jacobi(f, fnew, ni, nj, 1, 1, 1, nj)
    call jacobi(f, fnew, ni, nj, ni, ni, 1, nj)
  end subroutine rim

  ! The same plate on one PE, the periodic x halo copied by hand: the reference.
  integer(kind=8) function whole_plate() result(total)
    total = one_field(NORTH_T / 2) + one_field(DROP)
  end function whole_plate

  integer(kind=8) function one_field(inside) result(total)
    integer, intent(IN) :: inside
    integer, allocatable :: g(:,:), gnew(:,:)
    integer :: s
    allocate(g(1 - HALO:GNI + HALO, 1 - HALO:GNJ + HALO), gnew(GNI, GNJ))
    call initial(g, 1, 1, inside)
    do s = 1, STEPS
      g(1 - HALO:0, 1:GNJ) = g(GNI - HALO + 1:GNI, 1:GNJ)
      g(GNI + 1:GNI + HALO, 1:GNJ) = g(1:HALO, 1:GNJ)
      call jacobi(g, gnew, GNI, GNJ, 1, GNI, 1, GNJ)
      g(1:GNI, 1:GNJ) = gnew
    enddo
    total = sum(int(g(1:GNI, 1:GNJ), kind=8))
  end function one_field
end program heat_diffusion
