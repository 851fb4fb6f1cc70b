! transposes.F90 -- the original's other transposes, its global sum and the in-place squeeze of
! an array's halos
!
! External procedures with the original RPN_COMM's names and dummy arguments; each only converts
! its arguments for the C ABI of the Rust core, which checks them and reports errors (one line
! naming the routine; the arrays are then untouched). Their signatures are rows of
! fortran/routines.toml. Arrays are passed as addresses of 4-byte words, of any type, as the
! original's implicit interfaces allow (docs/gem.md has the layouts).

! ============================================================ RPN_COMM_transpose's relatives

! RPN_COMM_transpose's forward exchange over the caller's communicator pecomm of npe PEs, with
! its split: n1partiel columns and n3partiel levels per PE (one PE: a copy, pecomm unused).
subroutine RPN_COMM_Xpose1(n3partiel, npe, pecomm, n1partiel, za, min1, max1, n1g, n2, min3, max3, n3g, zb, size)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
  type(*), dimension(*), intent(INOUT) :: za, zb
  integer, intent(IN) :: n3partiel, npe, pecomm, n1partiel, min1, max1, n1g, n2, min3, max3, n3g, size
  integer(C_INT) :: status
  status = rpncomm_xpose(int(n3partiel, C_INT), int(npe, C_INT), int(pecomm, C_INT), int(n1partiel, C_INT), za, &
                         int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(n2, C_INT), int(min3, C_INT), &
                         int(max3, C_INT), int(n3g, C_INT), zb, int(size, C_INT), 1_C_INT)
end subroutine RPN_COMM_Xpose1

! The backward exchange of RPN_COMM_Xpose1 (zb back to za).
subroutine RPN_COMM_Xpose2(n3partiel, npe, pecomm, n1partiel, za, min1, max1, n1g, n2, min3, max3, n3g, zb, size)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
  type(*), dimension(*), intent(INOUT) :: za, zb
  integer, intent(IN) :: n3partiel, npe, pecomm, n1partiel, min1, max1, n1g, n2, min3, max3, n3g, size
  integer(C_INT) :: status
  status = rpncomm_xpose(int(n3partiel, C_INT), int(npe, C_INT), int(pecomm, C_INT), int(n1partiel, C_INT), za, &
                         int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(n2, C_INT), int(min3, C_INT), &
                         int(max3, C_INT), int(n3g, C_INT), zb, int(size, C_INT), 0_C_INT)
end subroutine RPN_COMM_Xpose2

! RPN_COMM_transpose of 4-byte elements (za(min1:max1,n2,n3g) <-> zb(n2,min3:max3,n1g)),
! direction RPN_COMM_FORWARD_X (1), _BACKWARD_X (-1), _FORWARD_Y (2) or _BACKWARD_Y (-2).
subroutine RPN_COMM_transpose_44(za, min1, max1, n1g, n2, min3, max3, n3g, zb, direction)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb
  type(*), dimension(*), intent(INOUT) :: za, zb
  integer, intent(IN) :: min1, max1, n1g, n2, min3, max3, n3g, direction
  integer(C_INT) :: status
  status = rpncomm_transpose_44(za, int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(n2, C_INT), &
                                int(min3, C_INT), int(max3, C_INT), int(n3g, C_INT), zb, int(direction, C_INT))
end subroutine RPN_COMM_transpose_44

! real za(min1:max1,min2:max2,n3g) <-> real*8 zb_8(min2:max2,min3:max3,n1g), type +-1 along x,
! +-2 along y, forward (zb_8 = a_8*za + b_8) when positive, backward (za = a_8*zb_8 + b_8).
subroutine RPN_COMM_transpose48(za, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, zb_8, type, a_8, b_8)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb_8
  type(*), dimension(*), intent(INOUT) :: za, zb_8
  integer, intent(IN) :: min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, type
  real(kind=8), intent(IN) :: a_8, b_8
  integer(C_INT) :: status
  status = rpncomm_transpose48(za, int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(min2, C_INT), &
                               int(max2, C_INT), int(n2l, C_INT), int(min3, C_INT), int(max3, C_INT), &
                               int(n3g, C_INT), zb_8, int(type, C_INT), real(a_8, C_DOUBLE), real(b_8, C_DOUBLE), &
                               0_C_INT, 0_C_INT)
end subroutine RPN_COMM_transpose48

! RPN_COMM_transpose48's forward exchange over the caller's communicator pecomm of npe PEs.
subroutine RPN_COMM_Xpose148(npe, pecomm, za, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, zb_8, a_8, b_8)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb_8
  type(*), dimension(*), intent(INOUT) :: za, zb_8
  integer, intent(IN) :: npe, pecomm, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g
  real(kind=8), intent(IN) :: a_8, b_8
  integer(C_INT) :: status
  status = rpncomm_transpose48(za, int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(min2, C_INT), &
                               int(max2, C_INT), int(n2l, C_INT), int(min3, C_INT), int(max3, C_INT), &
                               int(n3g, C_INT), zb_8, 1_C_INT, real(a_8, C_DOUBLE), real(b_8, C_DOUBLE), &
                               int(max(npe, 1), C_INT), int(pecomm, C_INT))
end subroutine RPN_COMM_Xpose148

! RPN_COMM_transpose48's backward exchange over the caller's communicator pecomm of npe PEs.
subroutine RPN_COMM_Xpose248(npe, pecomm, za, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g, zb_8, a_8, b_8)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: za, zb_8
  type(*), dimension(*), intent(INOUT) :: za, zb_8
  integer, intent(IN) :: npe, pecomm, min1, max1, n1g, min2, max2, n2l, min3, max3, n3g
  real(kind=8), intent(IN) :: a_8, b_8
  integer(C_INT) :: status
  status = rpncomm_transpose48(za, int(min1, C_INT), int(max1, C_INT), int(n1g, C_INT), int(min2, C_INT), &
                               int(max2, C_INT), int(n2l, C_INT), int(min3, C_INT), int(max3, C_INT), &
                               int(n3g, C_INT), zb_8, -1_C_INT, real(a_8, C_DOUBLE), real(b_8, C_DOUBLE), &
                               int(max(npe, 1), C_INT), int(pecomm, C_INT))
end subroutine RPN_COMM_Xpose248

! ============================================================ the RPN_MPI layer's transposes

! z0(lnix, lnjy, gnk) <-> zt0(lnix, lnjy, lnkx, npex) over row_comm (set up again when row_comm or
! gnk change); ierr 0 or -1.
subroutine RPN_MPI_transpose_xz(z0, zt0, forward, lnix, lnjy, gnk, lnkx, row_comm, ierr)
  use rpn_comm_collectives_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z0, zt0
  logical, intent(IN) :: forward
  integer, intent(IN) :: lnix, lnjy, gnk, lnkx
  integer, intent(IN) :: row_comm
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_xz(z0%p, zt0%p, merge(1_C_INT, 0_C_INT, forward), int(lnix, C_INT), int(lnjy, C_INT), &
                                  int(gnk, C_INT), int(lnkx, C_INT), int(row_comm, C_INT), 0_C_INT)
end subroutine RPN_MPI_transpose_xz

! RPN_MPI_transpose_xz (the original's staggered exchange is switched off: the same exchange).
subroutine RPN_MPI_transpose_xz_s(z0, zt0, forward, lnix, lnjy, gnk, lnkx, row_comm, ierr)
  use rpn_comm_collectives_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z0, zt0
  logical, intent(IN) :: forward
  integer, intent(IN) :: lnix, lnjy, gnk, lnkx
  integer, intent(IN) :: row_comm
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_xz(z0%p, zt0%p, merge(1_C_INT, 0_C_INT, forward), int(lnix, C_INT), int(lnjy, C_INT), &
                                  int(gnk, C_INT), int(lnkx, C_INT), int(row_comm, C_INT), 1_C_INT)
end subroutine RPN_MPI_transpose_xz_s

! RPN_MPI_transpose_xy over the column communicator of RPN_MPI_transpose_setup.
subroutine RPN_MPI_ez_transpose_xy(z, zt, forward, lniy, lnjy, lnkx, ierr)
  use rpn_comm_collectives_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z, zt
  logical, intent(IN) :: forward
  integer, intent(IN) :: lniy, lnjy, lnkx
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_xy(z%p, zt%p, merge(1_C_INT, 0_C_INT, forward), int(lniy, C_INT), int(lnjy, C_INT), &
                                  int(lnkx, C_INT), 0_C_INT, 1_C_INT, 0_C_INT)
end subroutine RPN_MPI_ez_transpose_xy

! z0(lniy, lnjy, lnkx, npey) <-> zt0 (same shape) over col_comm: block p to the column's PE p;
! ierr 0 or -1.
subroutine RPN_MPI_transpose_xy(z0, zt0, forward, lniy, lnjy, lnkx, col_comm, ierr)
  use rpn_comm_collectives_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z0, zt0
  logical, intent(IN) :: forward
  integer, intent(IN) :: lniy, lnjy, lnkx
  integer, intent(IN) :: col_comm
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_xy(z0%p, zt0%p, merge(1_C_INT, 0_C_INT, forward), int(lniy, C_INT), int(lnjy, C_INT), &
                                  int(lnkx, C_INT), int(col_comm, C_INT), 0_C_INT, 0_C_INT)
end subroutine RPN_MPI_transpose_xy

! RPN_MPI_transpose_xy (the original's staggered exchange is switched off: the same exchange).
subroutine RPN_MPI_transpose_xy_s(z0, zt0, forward, lniy, lnjy, lnkx, col_comm, ierr)
  use rpn_comm_collectives_binding
  implicit none
  type(RPN_MPI_Loc), intent(IN), value :: z0, zt0
  logical, intent(IN) :: forward
  integer, intent(IN) :: lniy, lnjy, lnkx
  integer, intent(IN) :: col_comm
  integer, intent(OUT) :: ierr
  ierr = rpncomm_mpi_transpose_xy(z0%p, zt0%p, merge(1_C_INT, 0_C_INT, forward), int(lniy, C_INT), int(lnjy, C_INT), &
                                  int(lnkx, C_INT), int(col_comm, C_INT), 0_C_INT, 1_C_INT)
end subroutine RPN_MPI_transpose_xy_s

! The times of the last 8 transposes of each kind (forward/inverse, x-z/x-y) on standard error.
subroutine RPN_MPI_print_transpose_times()
  use rpn_comm_collectives_binding
  implicit none
  integer(C_INT) :: status
  status = rpncomm_mpi_print_transpose_times()
end subroutine RPN_MPI_print_transpose_times

! ============================================================ global sum, squeezed halos

! sum(k) = the sum over the grid of every PE's array(1:nil, 1:njl, k), on every PE, added in the
! original's order (rows west to east, then south to north). njlmax and gnj sized the
! original's buffers; not needed here.
subroutine RPN_COMM_globalsum(array, minx, maxx, miny, maxy, nptsz, nil, njl, njlmax, gnj, sum)
  use rpn_comm_collectives_binding
  implicit none
  integer, intent(IN) :: minx, maxx, miny, maxy, nptsz, nil, njl, njlmax, gnj
  real, dimension(minx:maxx, miny:maxy, nptsz), intent(IN) :: array
  real, dimension(nptsz), intent(OUT) :: sum
  integer(C_INT) :: status
  status = rpncomm_globalsum(array, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                             int(nptsz, C_INT), int(nil, C_INT), int(njl, C_INT), sum)
end subroutine RPN_COMM_globalsum

! array(minx:maxx, miny:maxy, nk) of 4-byte elements squeezed in place to its points (nil,njl,nk).
subroutine RPN_COMM_compress(array, minx, maxx, miny, maxy, nil, njl, nk)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
  type(*), dimension(*), intent(INOUT) :: array
  integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
  integer(C_INT) :: status
  status = rpncomm_compress(array, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                            int(nil, C_INT), int(njl, C_INT), int(nk, C_INT), 1_C_INT, 0_C_INT)
end subroutine RPN_COMM_compress

! RPN_COMM_compress of 8-byte elements.
subroutine RPN_COMM_compress8(array, minx, maxx, miny, maxy, nil, njl, nk)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
  type(*), dimension(*), intent(INOUT) :: array
  integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
  integer(C_INT) :: status
  status = rpncomm_compress(array, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                            int(nil, C_INT), int(njl, C_INT), int(nk, C_INT), 2_C_INT, 0_C_INT)
end subroutine RPN_COMM_compress8

! The inverse of RPN_COMM_compress: the points (nil,njl,nk) spread back to their places in
! array(minx:maxx, miny:maxy, nk) (the halos are left as they are).
subroutine RPN_COMM_expand(array, minx, maxx, miny, maxy, nil, njl, nk)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
  type(*), dimension(*), intent(INOUT) :: array
  integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
  integer(C_INT) :: status
  status = rpncomm_compress(array, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                            int(nil, C_INT), int(njl, C_INT), int(nk, C_INT), 1_C_INT, 1_C_INT)
end subroutine RPN_COMM_expand

! RPN_COMM_expand of 8-byte elements.
subroutine RPN_COMM_expand8(array, minx, maxx, miny, maxy, nil, njl, nk)
  use rpn_comm_collectives_binding
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: array
  type(*), dimension(*), intent(INOUT) :: array
  integer, intent(IN) :: minx, maxx, miny, maxy, nil, njl, nk
  integer(C_INT) :: status
  status = rpncomm_compress(array, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                            int(nil, C_INT), int(njl, C_INT), int(nk, C_INT), 2_C_INT, 1_C_INT)
end subroutine RPN_COMM_expand8
