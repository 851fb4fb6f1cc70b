! halo_routines.F90 -- the halo exchanges, lists of halo fields and the rest of the family
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ======================================================================== halo exchange

! The original's halo exchange of g(minx:maxx, miny:maxy, nk) (4-byte elements) with the
! neighbours on the PE grid. It has no status argument: a refused call ends the PE with status 1
! after the library's one-line message (every PE refuses together; no ERROR STOP).
subroutine RPN_COMM_xch_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                             periodx, periody, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  if (rpncomm_xch_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), 1_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_halo

! As RPN_COMM_xch_halo, with elements of n 4-byte words (real*8: n = 2).
subroutine RPN_COMM_xch_halon(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                              periodx, periody, gni, npol_row, n)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row, n
  if (rpncomm_xch_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), int(n, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_halon

! A new, empty list of halo fields (handle `list`), all on the grid and halo these arguments give
! (as RPN_COMM_xch_halo's); fields are added by RPN_COMM_xch_halo_list_add. Local. ierr:
! RPN_COMM_OK, or RPN_COMM_ERROR after one line saying why.
subroutine RPN_COMM_xch_halo_list_new(list, minx, maxx, miny, maxy, ni, nj, halox, haloy, &
                                      periodx, periody, gni, npol_row, ierr)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  implicit none
  integer, intent(OUT) :: list
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  integer, intent(OUT) :: ierr
  integer(C_INT) :: handle
  handle = 0
  ierr = rpncomm_xch_halo_list_new(int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                                   int(ni, C_INT), int(nj, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                                   merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                                   int(gni, C_INT), int(npol_row, C_INT), handle)
  list = handle
end subroutine RPN_COMM_xch_halo_list_new

! ============================================================================= halo family

! The rest of the original's halo exchanges, with its arguments. Like RPN_COMM_xch_halo they have
! no status argument: a refused call ends the PE with status 1 after the library's one-line
! message.

! RPN_COMM_xch_halo for elements of 8 bytes (integer*8, real*8): g(minx:maxx, miny:maxy, nk).
! npol_row must be 0, as in the original.
subroutine RPN_COMM_xch_halo_8(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, &
                               periodx, periody, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  if (rpncomm_xch_halo_8(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                         int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                         merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                         int(gni, C_INT), int(npol_row, C_INT)) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_halo_8

! Copies the part 1:ni x 1:nj of g(minx:maxx, miny:maxy, nk) into g2(minx2:maxx2, miny2:maxy2, nk)
! (an array with wider halos), then exchanges g2's halos as RPN_COMM_xch_halo. g is only read.
subroutine RPN_COMM_xch_halox(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, &
                              g2, minx2, maxx2, miny2, maxy2, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(IN) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g2
  type(*), dimension(*), intent(INOUT) :: g2
  integer, intent(IN) :: minx2, maxx2, miny2, maxy2, gni, npol_row
  if (rpncomm_xch_halox(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                        int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                        merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                        g2, int(minx2, C_INT), int(maxx2, C_INT), int(miny2, C_INT), int(maxy2, C_INT), &
                        int(gni, C_INT), int(npol_row, C_INT), 1_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_xch_halox

! Limited-area domains: on the PEs at the edge of the grid, the halo points of f(minx:maxx,
! miny:maxy, nk) (4-byte elements) next to the pilot zones (pilx columns along the west and east
! edges, pily rows along the south and north edges; halos hx, hy) get the neighbours' values;
! every other point is left as it was. Collective over the grid.
subroutine RPN_COMM_propagate_pilot_circular(f, minx, maxx, miny, maxy, lni, lnj, nk, pilx, pily, hx, hy)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: f
  type(*), dimension(*), intent(INOUT) :: f
  integer, intent(IN) :: minx, maxx, miny, maxy, lni, lnj, nk, pilx, pily, hx, hy
  if (rpncomm_propagate_pilot_circular(f, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                                       int(lni, C_INT), int(lnj, C_INT), int(nk, C_INT), int(pilx, C_INT), &
                                       int(pily, C_INT), int(hx, C_INT), int(hy, C_INT)) /= RPN_COMM_OK) &
    call rpn_comm_stop_refused()
end subroutine RPN_COMM_propagate_pilot_circular

! The adjoint of the exchange (no interface declared: see below).
!
! RPN_COMM_adj_halo8 (real*8 fields), RPN_COMM_adj_halo4 and RPN_COMM_adj_halo (real*4 fields; the
! original's RPN_COMM_adj_halo declares an integer array but sums it as real*4), with the original's
! arguments. Each halo point's value is added into the part of the PE that owns the point (corners
! and periodic directions included, with the original's order of the sums; src/ffi/halo/adjoint.rs
! says which halo points change too). gni is not used; npol_row > 0 (the original's
! semi-Lagrangian polar path) is refused. No status argument: a refused call ends the PE with
! status 1 after the library's one-line message. As the original, no interface is declared for
! them: callers pass arrays of any kind.

subroutine RPN_COMM_adj_halo8(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  if (rpncomm_adj_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), 8_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_adj_halo8

subroutine RPN_COMM_adj_halo4(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  if (rpncomm_adj_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), 4_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_adj_halo4

subroutine RPN_COMM_adj_halo(g, minx, maxx, miny, maxy, ni, nj, nk, halox, haloy, periodx, periody, gni, npol_row)
  use rpn_comm_windows_types
  use rpn_comm_halo_binding
  use rpn_comm_output_flush, only: rpn_comm_stop_refused
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: g
  type(*), dimension(*), intent(INOUT) :: g
  integer, intent(IN) :: minx, maxx, miny, maxy, ni, nj, nk, halox, haloy
  logical, intent(IN) :: periodx, periody
  integer, intent(IN) :: gni, npol_row
  if (rpncomm_adj_halo(g, int(minx, C_INT), int(maxx, C_INT), int(miny, C_INT), int(maxy, C_INT), &
                       int(ni, C_INT), int(nj, C_INT), int(nk, C_INT), int(halox, C_INT), int(haloy, C_INT), &
                       merge(1_C_INT, 0_C_INT, periodx), merge(1_C_INT, 0_C_INT, periody), &
                       int(gni, C_INT), int(npol_row, C_INT), 0_C_INT) /= RPN_COMM_OK) call rpn_comm_stop_refused()
end subroutine RPN_COMM_adj_halo
