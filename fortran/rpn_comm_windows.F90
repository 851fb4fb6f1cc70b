! rpn_comm_windows.F90 -- modern entry point of rpncomm-windows
!
!     use rpn_comm_windows
!
! gives the handle types and NULL_ handles, the RPN_COMM_* constants and the
! explicit interfaces of every routine (the same ones as include 'RPN_COMM.inc').
! The routines themselves are external procedures (rpn_comm_externals.F90), so
! their link names are the plain Fortran ones and legacy code links unchanged.

module rpn_comm_windows
  use ISO_C_BINDING
  use rpn_comm_windows_types
  implicit none
  public
  include 'RPN_COMM_interfaces.inc'
end module rpn_comm_windows
