! options_routines.F90 -- the options the halo exchange and the messages take, the size of an MPI
! status, the case conversions, a free Fortran unit and the original's older integer broadcast
!
! External procedures with the original RPN_COMM's names and dummy arguments (their link names
! are the plain Fortran ones, so code written for the original links unchanged); each only
! converts its arguments for the C ABI of the Rust core, which checks them and reports errors.
! Their signatures are rows of fortran/routines.toml, which generates their interfaces;
! fortran/gen/check_routines.py (make check) checks each routine here against its row.

subroutine RPN_COMM_optn(op_type, op_ival, op_rval, op_cval)
  use rpn_comm_options_binding
  implicit none
  character(len=*), intent(IN) :: op_type, op_cval
  integer, intent(IN) :: op_ival
  real, intent(IN) :: op_rval
  integer(C_INT) :: status
  status = rpncomm_optn(op_type, len(op_type, kind=C_SIZE_T), int(op_ival, C_INT), real(op_rval, C_FLOAT), &
                        op_cval, len(op_cval, kind=C_SIZE_T))
end subroutine RPN_COMM_optn

subroutine RPN_COMM_unit(unit)
  use rpn_comm_options_binding
  implicit none
  integer, intent(IN) :: unit
  integer(C_INT) :: status
  status = rpncomm_unit(int(unit, C_INT))
end subroutine RPN_COMM_unit

subroutine RPN_COMM_up2low(s1, s2)
  use rpn_comm_options_binding
  implicit none
  character(len=*), intent(IN) :: s1
  character(len=*), intent(OUT) :: s2
  integer(C_INT) :: status
  status = rpncomm_convert_case(s1, len(s1, kind=C_SIZE_T), s2, len(s2, kind=C_SIZE_T), 0_C_INT)
end subroutine RPN_COMM_up2low

! An entry of RPN_COMM_up2low in the original: callers reach it through an implicit interface.
subroutine RPN_COMM_low2up(s1, s2)
  use rpn_comm_options_binding
  implicit none
  character(len=*), intent(IN) :: s1
  character(len=*), intent(OUT) :: s2
  integer(C_INT) :: status
  status = rpncomm_convert_case(s1, len(s1, kind=C_SIZE_T), s2, len(s2, kind=C_SIZE_T), 1_C_INT)
end subroutine RPN_COMM_low2up

! The highest Fortran unit from 99 down that is connected to no file, -1 if none: a question
! about this process's Fortran runtime, which only Fortran can answer.
function RPN_COMM_get_a_free_unit()
  implicit none
  integer :: RPN_COMM_get_a_free_unit
  integer :: u
  logical :: connected
  RPN_COMM_get_a_free_unit = -1
  do u = 99, 1, -1
    inquire(unit=u, opened=connected)
    if (.not. connected) then
      RPN_COMM_get_a_free_unit = u
      return
    endif
  enddo
end function RPN_COMM_get_a_free_unit

! The original's oldest broadcast: the integers from start(1) to end(1) (in one array, or
! consecutive variables of a common block) from the grid's PE 0 to its other PEs. mode must be 0;
! as the original, which has no status to return, a refusal ends the job.
subroutine RPN_COMM_bcst_world(start, end, mode)
  use rpn_comm_options_binding
  implicit none
  integer :: start(2), end(2), mode
  integer(C_INT) :: status
  integer :: ierr
  status = rpncomm_bcst_world(start, end, int(mode, C_INT))
  if (status /= 0) then
    call RPN_COMM_finalize(ierr)
    error stop 1
  endif
end subroutine RPN_COMM_bcst_world

! The original's older broadcast: n words of ltype bytes (n * ltype / 4 integers) from the grid's
! PE 0 to its other PEs; scrap1 and scrap2 are not used.
subroutine RPN_COMM_bcst_x(f, n, ltype, scrap1, scrap2, err)
  use rpn_comm_collectives_binding, only: rpncomm_bcast
  use ISO_C_BINDING, only: C_INT, C_SIZE_T
  implicit none
  integer :: n, ltype, scrap1, scrap2, err
  integer :: f(n)
  err = rpncomm_bcast(f, int(n * ltype / 4, C_INT), 'MPI_INTEGER', 11_C_SIZE_T, 0_C_INT, 'grid', 4_C_SIZE_T)
end subroutine RPN_COMM_bcst_x
