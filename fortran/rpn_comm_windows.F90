! rpn_comm_windows.F90 -- modern entry point of rpncomm-windows
!
!     use rpn_comm_windows
!
! gives the handle types and NULL_ handles, the RPN_COMM_* constants and the explicit interfaces of
! every routine of RPN_COMM_interfaces.inc (the same ones as include 'RPN_COMM.inc'), except that
! RPN_COMM_xch_halo is generic: it knows the kind of the array it is given (halo/halo_generic.F90).
! The routines themselves are external procedures (the routines files of fortran/<concern>/ and the
! others), so their link names are the plain Fortran ones and legacy code links unchanged.

! The explicit interfaces of the external procedures, as the include gives them.
module rpn_comm_windows_interfaces
  use ISO_C_BINDING
  use rpn_comm_windows_types
  implicit none
  public
  include 'RPN_COMM_interfaces.inc'
  include 'RPN_COMM_is_null.inc'
end module rpn_comm_windows_interfaces

module rpn_comm_windows
  use ISO_C_BINDING
  use rpn_comm_windows_types
  ! the include's RPN_COMM_xch_halo (untyped g) gives way to the generic one
  use rpn_comm_windows_interfaces, rpn_comm_xch_halo_words => RPN_COMM_xch_halo
  use rpn_comm_halo_generic, only: RPN_COMM_xch_halo
  implicit none
  public
  private :: rpn_comm_xch_halo_words
end module rpn_comm_windows
