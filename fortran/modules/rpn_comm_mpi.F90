! rpn_comm_mpi.F90 -- the module rpn_comm_mpi of the original RPN_COMM 4.6.10 to 4.6.12 (MPI
! build only): MPI's own module `mpi`, for the programs that take MPI's names from it rather than
! from `use mpi` (the module rpn_comm gives no MPI name). The shared-memory build has no MPI, and
! does not install this module.

module rpn_comm_mpi
  use mpi
  implicit none
  public
end module rpn_comm_mpi
