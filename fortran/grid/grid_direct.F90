! grid_direct.F90 -- the routines of the PE grid: init, blocks, topology queries, 2-D grids, I/O PE
! sets whose body is one C call
!
! GENERATED from fortran/routines.toml by fortran/gen/gen_interfaces.py: do not edit.
!
! External procedures with the original RPN_COMM's names and dummy arguments (their rows say
! body = "direct"): each passes its arguments to one C function of the Rust core, which checks
! them and reports errors, and returns its status (fortran/gen/gen_interfaces.py, direct_call,
! has the conversions). The other routines of the concern are written by hand beside this file.

function RPN_COMM_bloc(nblocx, nblocy) result(status)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_grid_binding, only: rpncomm_bloc
  implicit none
  integer, intent(IN) :: nblocx, nblocy
  integer :: status
  status = rpncomm_bloc(int(nblocx, C_INT), int(nblocy, C_INT))
end function RPN_COMM_bloc

function RPN_COMM_bloc_create(nblocx, nblocy) result(status)
  use ISO_C_BINDING, only: C_INT
  use rpn_comm_grid_binding, only: rpncomm_bloc_create
  implicit none
  integer, intent(IN) :: nblocx, nblocy
  integer :: status
  status = rpncomm_bloc_create(int(nblocx, C_INT), int(nblocy, C_INT))
end function RPN_COMM_bloc_create
