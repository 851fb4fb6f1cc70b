! PES: 1 2 4
! TIMEOUT: 60
!
! MPI transport only: `use rpn_comm` in 4.6.12's form beside `use mpi_f08`, the reason that form
! exists: the module gives no MPI name, so MPI_COMM_WORLD, MPI_INTEGER and MPI_Allreduce are
! mpi_f08's, unambiguous. The program calls MPI_Init itself (as MIDAS does), then RPN_COMM_init.
! The grid's variables hold Fortran MPI handles that mpi_f08 takes (its MPI_VAL): an
! MPI_Allreduce over pe_indomm and one over pe_myrow agree with RPN_COMM_allreduce, and
! pe_me_all_domains is MPI_COMM_WORLD's rank. The module rpn_comm_mpi (MPI's `mpi`) is used in an
! external subroutine of this file, as a program kept on the older bindings would.
program test_module_rpn_comm_f08
  use mpi_f08
  use rpn_comm
  implicit none
  integer :: me, npes, nerr
  integer :: ierr, wrank, x, xsum, rsum, mpisum
  type(MPI_Comm) :: grid, row
  external :: sum_over_row_with_mpi_module

  nerr = 0
  call MPI_Init(ierr)
  call globals_start_and_check()
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
  call globals_check('pe_me_all_domains is MPI_COMM_WORLD''s rank', wrank == pe_me_all_domains)

  grid%MPI_VAL = pe_indomm
  x = 10 + pe_me
  call MPI_Allreduce(x, mpisum, 1, MPI_INTEGER, MPI_SUM, grid, ierr)
  call RPN_COMM_allreduce(x, xsum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  call globals_check('MPI_Allreduce over pe_indomm as RPN_COMM_allreduce over GRID', &
                     ierr == RPN_COMM_OK .and. mpisum == xsum .and. xsum == 10 * npes + npes * (npes - 1) / 2)

  row%MPI_VAL = pe_myrow
  call MPI_Allreduce(x, mpisum, 1, MPI_INTEGER, MPI_SUM, row, ierr)
  call RPN_COMM_allreduce(x, rsum, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_EW, ierr)
  call globals_check('MPI_Allreduce over pe_myrow as RPN_COMM_allreduce over EW', ierr == RPN_COMM_OK .and. mpisum == rsum)
  call sum_over_row_with_mpi_module(x, mpisum)
  call globals_check('rpn_comm_mpi''s MPI over pe_myrow', mpisum == rsum)

  call globals_finish('test_module_rpn_comm_f08')

contains

  include 'module_globals.inc'

end program test_module_rpn_comm_f08

! the older MPI bindings through the module rpn_comm_mpi, with the grid's variables
subroutine sum_over_row_with_mpi_module(x, xsum)
  use rpn_comm_globals, only: pe_myrow
  use rpn_comm_mpi
  implicit none
  integer, intent(IN) :: x
  integer, intent(OUT) :: xsum
  integer :: ierr
  call MPI_Allreduce(x, xsum, 1, MPI_INTEGER, MPI_SUM, pe_myrow, ierr)
end subroutine sum_over_row_with_mpi_module
