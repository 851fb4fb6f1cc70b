! exchange_pattern.F90 -- the original's halo exchange by "pattern" (RPN_COMM_exchange_halo) and
! its two halves (RPN_COMM_exchange_ew, RPN_COMM_exchange_ns). Their signatures are rows of
! fortran/routines.toml.
!
! No routine of the original creates an rpncomm_pattern (nor the MPI datatypes ew3d and ns3d
! its halves take), so no pattern can be valid: RPN_COMM_exchange_halo refuses every call with
! one line and leaves the array as it is. The halves are written as the original's comments
! mean them, on the library's halo exchange of 4-byte elements: the block their datatype would
! describe follows from the other arguments, and the datatype handle itself is not used.

! Refused: no rpncomm_pattern can be valid (no routine creates one).
subroutine RPN_COMM_exchange_halo(pattern, array, periodx, periody, periodp, npol_row)
  use ISO_C_BINDING
  use ISO_FORTRAN_ENV, only: ERROR_UNIT
  use rpn_comm_windows_types
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
  type(rpncomm_pattern), intent(IN) :: pattern
  type(C_PTR), intent(IN) :: array
  logical, intent(IN), optional :: periodx, periody, periodp
  integer, intent(IN), optional :: npol_row
  integer, external :: RPN_COMM_mype
  integer :: me, mex, mey
  me = -1
  if (RPN_COMM_mype(me, mex, mey) /= 0) me = -1
  write(ERROR_UNIT, '(A,I0,A,A)') 'RPN_COMM_exchange_halo on PE ', me, ': refused, no routine of RPN_COMM', &
    ' creates an rpncomm_pattern, so this one is not valid; the array is left as it is'
  if (.false.) then
    if (c_associated(pattern%p)) continue
  endif
  if (.false.) then
    if (c_associated(array) .or. present(periodx) .or. present(periody) .or. present(periodp) &
        .or. present(npol_row)) continue
  endif
  call rpn_comm_stop_refused()
end subroutine RPN_COMM_exchange_halo

! East/west halos (halox columns) of rows 1..nj of every level of g(minx:maxx, miny:maxy, nk)
! from the west and east neighbours, wrapping around with periodx; beyond a non-periodic edge
! the halo is left as it is. ew3d (the original's datatype of that block) is not used.
subroutine RPN_COMM_exchange_ew(g, minx, maxx, miny, maxy, ni, nj, nk, halox, periodx, ew3d)
  implicit none
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, ew3d
  logical, intent(IN) :: periodx
  integer, dimension(minx:maxx, miny:maxy, nk), intent(INOUT) :: g
  external :: RPN_COMM_xch_haloew
  if (.false.) then
    if (ew3d /= 0) continue
  endif
  call RPN_COMM_xch_haloew(g, minx, maxx, miny, maxy, ni, 1, nj, nk, halox, 0, periodx, .false.)
end subroutine RPN_COMM_exchange_ew

! North/south halos (haloy rows, over columns 1-halox..ni+halox, so that after
! RPN_COMM_exchange_ew the corners come too) of every level of g(minx:maxx, miny:maxy, nk) from
! the north and south neighbours, wrapping around with periody; beyond a non-periodic edge the
! halo is left as it is. Empty in the original; ns3d (its datatype of that block) is not used.
subroutine RPN_COMM_exchange_ns(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periody, ns3d)
  implicit none
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, ns3d
  logical, intent(IN) :: periody
  integer, dimension(minx:maxx, miny:maxy, nk), intent(INOUT) :: g
  external :: RPN_COMM_xch_halons
  if (.false.) then
    if (ns3d /= 0) continue
  endif
  call RPN_COMM_xch_halons(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, .false., periody)
end subroutine RPN_COMM_exchange_ns
