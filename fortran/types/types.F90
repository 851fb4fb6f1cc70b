! types.F90 -- the handle types (C layout) and constants, as a module
!
!   module rpn_comm_windows_types : RPN_COMM_types.inc and RPN_COMM_constants.inc, for the library's
!                                   own modules and routines and for `use rpn_comm_windows`.
!
! Conventions of the C ABI: status 0 = RPN_COMM_OK, -1 = RPN_COMM_ERROR; strings are (pointer,
! length) without NUL; logicals are int 0/1; handles are passed by reference.

module rpn_comm_windows_types
  use ISO_C_BINDING
  implicit none
  public
  include 'RPN_COMM_types.inc'
  include 'RPN_COMM_constants.inc'
end module rpn_comm_windows_types
