! rpn_comm_463.F90 -- the module rpn_comm as the original RPN_COMM 4.6.3 to 4.6.9 give it
!
!     use rpn_comm        (compiled with -I<prefix>/include/rpn_comm-4.6.3 before -I<prefix>/include)
!
! gives the PE grid's variables of the module rpn_comm_globals (fortran/grid/grid_globals.F90),
! the handle types and RPN_COMM_* constants, and, in the MPI build, MPI itself through mpif.h, as
! the original's; no interfaces of the RPN_COMM routines (a program declares them itself, or
! includes RPN_COMM.inc where it does not use this module). Installed in its own directory
! because the newer form of the module has the same name (rpn_comm.F90, which says how a project
! chooses between them).

module rpn_comm
  use ISO_C_BINDING
  use rpn_comm_globals
  implicit none
  public
  private :: fill_grid_globals
#ifdef RPNCOMM_MPI_BUILD
  include 'mpif.h'
#endif
end module rpn_comm
