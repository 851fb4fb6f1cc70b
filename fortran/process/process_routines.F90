! process_routines.F90 -- the end of a job and its clock
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core (logical <-> int, character(len=*) ->
! pointer + length, assumed-shape -> contiguous copy + count), which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

! ============================================================================== process

function RPN_COMM_wtime() result(t)
  use rpn_comm_process_binding
  implicit none
  real(C_DOUBLE) :: t
  t = rpncomm_wtime()
end function RPN_COMM_wtime
