! process_direct.F90 -- the routines of the process: finalize, the clock, the flush at a stop, the
! exit after a refused call whose body is one C call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

subroutine RPN_COMM_finalize(ierr)
  use rpn_comm_process_binding, only: rpncomm_finalize
  implicit none
  integer, intent(OUT) :: ierr
  ierr = rpncomm_finalize()
end subroutine RPN_COMM_finalize
