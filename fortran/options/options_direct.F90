! options_direct.F90 -- the routines of the options (RPN_COMM_option and its kin), the size of an
! MPI status, the case conversions whose body is one C call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

function RPN_COMM_option(name_S, value)
  use ISO_C_BINDING, only: C_SIZE_T, C_INT
  use rpn_comm_options_binding, only: rpncomm_option
  implicit none
  integer :: RPN_COMM_option
  character(len=*), intent(IN) :: name_S
  integer, intent(IN) :: value
  RPN_COMM_option = rpncomm_option(name_S, len(name_S, kind=C_SIZE_T), int(value, C_INT))
end function RPN_COMM_option

function RPN_COMM_option_L(name_S, value_L)
  use ISO_C_BINDING, only: C_SIZE_T, C_INT
  use rpn_comm_options_binding, only: rpncomm_option_l
  implicit none
  integer :: RPN_COMM_option_L
  character(len=*), intent(IN) :: name_S
  logical, intent(IN) :: value_L
  RPN_COMM_option_L = rpncomm_option_l(name_S, len(name_S, kind=C_SIZE_T), &
                                       merge(1_C_INT, 0_C_INT, value_L))
end function RPN_COMM_option_L
