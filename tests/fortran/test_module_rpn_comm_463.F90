! PES: 1 2 3 4 6
! TIMEOUT: 60
! FFLAGS: -I@INCLUDE@/rpn_comm-4.6.3
!
! A program written for the original RPN_COMM 4.6.3 to 4.6.9, whose `use rpn_comm` gives the PE
! grid's variables and constants but no interfaces (with MPI, mpif.h too: test
! test_module_rpn_comm_463_mpi): compiled with the module's older form before the include
! directory (-I<include>/rpn_comm-4.6.3), it declares the functions it calls itself, as such
! programs do, which the newer form's interfaces would refuse. Checks every variable after
! RPN_COMM_init (module_globals.inc).
program test_module_rpn_comm_463
  use rpn_comm
  implicit none
  integer, external :: RPN_COMM_mype
  integer :: me, npes, nerr
  integer :: ierr, total

  nerr = 0
  call globals_start_and_check()
  call RPN_COMM_allreduce(nerr, total, 1, RPN_COMM_INTEGER, RPN_COMM_SUM, RPN_COMM_GRID, ierr)
  if (me == 0) write(*, '(A,I0,A,I0)') 'test_module_rpn_comm_463: npes = ', npes, ', failed checks (all PEs) = ', total
  call RPN_COMM_finalize(ierr)
  if (total /= 0 .or. ierr /= RPN_COMM_OK) error stop 1
  if (me == 0) write(*, '(A)') 'test_module_rpn_comm_463: OK'

contains

  include 'module_globals.inc'

end program test_module_rpn_comm_463
