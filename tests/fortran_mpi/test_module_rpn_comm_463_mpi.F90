! PES: 1 2 4
! TIMEOUT: 60
! FFLAGS: -I@INCLUDE@/rpn_comm-4.6.3
!
! MPI transport only: a program written for the original RPN_COMM 4.6.3 to 4.6.9 whose
! `use rpn_comm` (the older form, -I<include>/rpn_comm-4.6.3) gives MPI through mpif.h, as the
! original's: MPI_COMM_WORLD, MPI_INTEGER, MPI_SUM and MPI_Allreduce come from the module, over
! the grid's communicator variables (pe_indomm, pe_mycol) and WORLD_COMM_MPI.
program test_module_rpn_comm_463_mpi
  use rpn_comm
  implicit none
  integer, external :: RPN_COMM_mype
  integer :: me, npes, nerr
  integer :: ierr, wrank, x, xsum, mpisum

  nerr = 0
  call globals_start_and_check()
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
  call globals_check('pe_me_all_domains is MPI_COMM_WORLD''s rank', ierr == MPI_SUCCESS .and. wrank == pe_me_all_domains)
  x = 10 + pe_me
  call MPI_Allreduce(x, mpisum, 1, MPI_INTEGER, MPI_SUM, pe_indomm, ierr)
  call RPN_COMM_allreduce(x, xsum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call globals_check('MPI_Allreduce over pe_indomm', mpisum == xsum)
  call MPI_Allreduce(x, mpisum, 1, MPI_INTEGER, MPI_SUM, pe_mycol, ierr)
  call RPN_COMM_allreduce(x, xsum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_NS, ierr)
  call globals_check('MPI_Allreduce over pe_mycol', mpisum == xsum)
  call MPI_Allreduce(1, mpisum, 1, MPI_INTEGER, MPI_SUM, WORLD_COMM_MPI, ierr)
  call globals_check('MPI_Allreduce over WORLD_COMM_MPI', mpisum == pe_tot_all_domains)

  call globals_finish('test_module_rpn_comm_463_mpi')

contains

  include 'module_globals.inc'

end program test_module_rpn_comm_463_mpi
