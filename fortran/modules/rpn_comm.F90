! rpn_comm.F90 -- the module rpn_comm as the original RPN_COMM 4.6.10 to 4.6.12 give it
!
!     use rpn_comm
!
! gives the PE grid's variables of the module rpn_comm_globals (fortran/grid/grid_globals.F90),
! the handle types, the RPN_COMM_* constants and the explicit interfaces of RPN_COMM_interfaces.hf
! (buffers of any type included). No MPI name comes with it, so that a program may also
! `use mpi_f08` (or `use mpi`, or the module rpn_comm_mpi of the MPI build).
!
! The original's older module of this name (4.6.3 to 4.6.9: the variables and mpif.h, no
! interfaces) is installed beside it, in include/rpn_comm-4.6.3/ (rpn_comm_463.F90); the CMake
! package `rpncomm` puts that directory first when a project asks for a version before 4.6.10.
! Neither form compiles to code of its own: the variables live in rpn_comm_globals, the routines
! are the library's external procedures.

module rpn_comm
  use ISO_C_BINDING
  use rpn_comm_globals
  implicit none
  public
  private :: fill_grid_globals
#include <RPN_COMM_interfaces.hf>
end module rpn_comm
