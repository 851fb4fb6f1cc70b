! p2p_direct.F90 -- the routines of point to point and the MPI handles a program passes to MPI whose
! body is one C call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

subroutine RPN_COMM_send(buffer, count, datatype, dest, tag, com, ierr)
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  use rpn_comm_p2p_binding, only: rpncomm_send
  implicit none
!GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
  type(*), dimension(*), intent(IN) :: buffer
  integer, intent(IN) :: count, dest, tag
  character(len=*), intent(IN) :: datatype, com
  integer, intent(OUT) :: ierr
  ierr = rpncomm_send(buffer, int(count, C_INT), datatype, len(datatype, kind=C_SIZE_T), &
                      int(dest, C_INT), int(tag, C_INT), com, len(com, kind=C_SIZE_T))
end subroutine RPN_COMM_send
