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

  nerr = 0
  call globals_start_and_check()
  call globals_finish('test_module_rpn_comm_463')

contains

  include 'module_globals.inc'

end program test_module_rpn_comm_463
